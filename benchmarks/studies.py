"""Studies at scale: what Dask costs over local processes, how many runs a second a cluster
makes, and whether a study killed again and again ends as an uninterrupted one.

    python benchmarks/studies.py overhead /path/to/coelho --pairs 3
    python benchmarks/studies.py overhead /path/to/coelho --pairs 3 \\
        --baseline "/other/venv/bin/hashi-asp bench /path/to/coelho --jobs 2"
    python benchmarks/studies.py throughput --runs 2000
    python benchmarks/studies.py resume /path/to/coelho/100 --kills 5

``overhead`` starts a Dask cluster on loopback (``dask scheduler`` and two ``dask worker
--nthreads 1``), then times, in turn, ``hashi-asp study run`` on the folder (first solution)
with ``--jobs 2 --memory-limit 2000`` and the same with ``--scheduler`` (and the
``--baseline`` command, if given), each a whole process with a new database, ``--pairs``
times; it prints each elapsed time, the medians and the ratios pair by pair.

``throughput`` makes ``--runs`` runs of a 5x5 puzzle (its 8 bridges: about 5 ms of work),
locally with 1 and 2 jobs and on the loopback cluster with 1 and 2 one-thread workers, and
prints runs per second and the scheduler's processor time per run (from /proc), from which
the capacity of one scheduler follows.

``resume`` runs a study of the folder (variants: reachability, the tree, one held by a
pigeonhole problem until its time limit of 1 s, one with a broken encoding) once without
interruption, then again in a new database killed (SIGKILL) at ``--kills`` random moments
and started again each time, then to its end; it compares the two databases' cells and
statuses.  Not tests: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PROLOG = HERE / "puzzles" / "prolog-5x5.txt"
PIGEONS = HERE / "tests" / "programs" / "pigeons.lp"
BROKEN = HERE / "tests" / "programs" / "syntax_error.lp"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def cluster(workers: int, folder: Path):
    """A scheduler and ``workers`` one-thread workers on loopback: the scheduler's address and
    process."""
    address_file = folder / f"scheduler-{workers}.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
    scheduler = subprocess.Popen(
        [
            BIN / "dask",
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            address_file,
        ],
        **quiet,
    )
    started = [scheduler]
    try:
        while not address_file.exists():
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        for _ in range(workers):
            started.append(
                subprocess.Popen(
                    [BIN / "dask", "worker", address, "--nthreads", "1", "--no-dashboard"], **quiet
                )
            )
        from distributed import Client

        with Client(address, timeout="120s") as client:
            client.wait_for_workers(workers, timeout=120)
        yield address, scheduler.pid
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()


def timed(command: list) -> float:
    started = time.perf_counter()
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, command))}: exit {done.returncode}: {done.stderr}")
    return time.perf_counter() - started


def overhead(folder: Path, pairs: int, baseline: str | None) -> None:
    import shlex

    print(f"load average {load()} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as scratch, cluster(2, Path(scratch)) as (address, _):
        times: dict[str, list[float]] = {"jobs 2": [], "dask": [], "baseline": []}
        for i in range(pairs):
            study = [BIN / "hashi-asp", "study", "run"]
            local = [*study, Path(scratch) / f"local{i}.db", folder, "--jobs", "2"]
            times["jobs 2"].append(timed([*local, "--memory-limit", "2000"]))
            dask = [*study, Path(scratch) / f"dask{i}.db", folder, "--memory-limit", "2000"]
            times["dask"].append(timed([*dask, "--scheduler", address]))
            if baseline:
                times["baseline"].append(timed(shlex.split(baseline)))
            shown = ", ".join(
                f"{name} {values[-1]:.2f} s" for name, values in times.items() if values
            )
            print(f"pair {i + 1}: {shown} (load average {load()})", flush=True)
    for name, values in times.items():
        if values:
            print(f"{name}: median {statistics.median(values):.2f} s")
    ratios = [d / j for d, j in zip(times["dask"], times["jobs 2"])]
    print(
        f"dask / jobs 2, pair by pair: {', '.join(f'{r:.3f}' for r in ratios)}; "
        f"median {statistics.median(ratios):.3f}"
    )
    if baseline:
        ratios = [j / b for j, b in zip(times["jobs 2"], times["baseline"])]
        print(
            f"jobs 2 / baseline, pair by pair: {', '.join(f'{r:.3f}' for r in ratios)}; "
            f"median {statistics.median(ratios):.3f}"
        )


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_seconds() -> float:
    """Processor time of the children this process has waited for."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def throughput(runs: int) -> None:
    print(f"load average {load()} on {os.cpu_count()} cores; {runs} runs of {PROLOG.name}")
    repeat = str(runs)  # one instance, `runs` seeds: `runs` cells
    with tempfile.TemporaryDirectory() as scratch:
        base = [BIN / "hashi-asp", "study", "run"]
        for jobs in (1, 2):
            seconds = timed(
                [
                    *base,
                    Path(scratch) / f"j{jobs}.db",
                    PROLOG,
                    "--repeat",
                    repeat,
                    "--jobs",
                    str(jobs),
                ]
            )
            print(f"local, {jobs} job(s): {runs / seconds:.0f} runs/s ({seconds:.2f} s)")
        for workers in (1, 2):
            with cluster(workers, Path(scratch)) as (address, scheduler):
                before, client = cpu_seconds(scheduler), children_seconds()
                seconds = timed(
                    [
                        *base,
                        Path(scratch) / f"w{workers}.db",
                        PROLOG,
                        "--repeat",
                        repeat,
                        "--scheduler",
                        address,
                    ]
                )
                per_run = (cpu_seconds(scheduler) - before) / runs
                client = (children_seconds() - client) / runs
            print(
                f"dask, {workers} worker(s): {runs / seconds:.0f} runs/s ({seconds:.2f} s); "
                f"scheduler {per_run * 1000:.2f} ms of processor time per run "
                f"(one scheduler: at most {1 / per_run:.0f} runs/s); the client "
                f"{client * 1000:.2f} ms per run (its start and plan included)",
                flush=True,
            )


def statuses(database: Path) -> dict[tuple, str]:
    connection = sqlite3.connect(database)
    rows = connection.execute("SELECT instance, variant, seed, status FROM runs").fetchall()
    connection.close()
    found = {(i, v, s): status for i, v, s, status in rows}
    assert len(found) == len(rows), "a cell with two rows"
    return found


def resume(folder: Path, kills: int, seed: int) -> None:
    print(f"load average {load()} on {os.cpu_count()} cores")
    variants = [
        "--variant",
        "reach=--connectivity reach",
        "--variant",
        "tree=--connectivity tree",
        "--variant",
        f"stuck=--add {PIGEONS}",
        "--variant",
        f"broken=--add {BROKEN}",
    ]
    chance = random.Random(seed)
    with tempfile.TemporaryDirectory() as scratch:
        arguments = [folder, *variants, "--time-limit", "1", "--jobs", "2"]
        command = [str(part) for part in [BIN / "hashi-asp", "study", "run"]]
        reference, killed = Path(scratch) / "whole.db", Path(scratch) / "killed.db"
        seconds = timed([*command, reference, *arguments])
        print(f"uninterrupted: {seconds:.2f} s, {len(statuses(reference))} rows")
        for number in range(1, kills + 1):
            moment = chance.uniform(0.3, seconds / kills)
            process = subprocess.Popen(
                [*command, str(killed), *map(str, arguments)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(moment)  # a random moment, as the measure asks
            process.kill()
            process.wait()
            rows = len(statuses(killed)) if killed.exists() else 0
            print(f"kill {number} after {moment:.2f} s: {rows} rows")
        seconds = timed([*command, killed, *arguments])
        after, whole = statuses(killed), statuses(reference)
        print(f"resumed to the end in {seconds:.2f} s: {len(after)} rows")
        same_cells = after.keys() == whole.keys()
        differing = [cell for cell in whole if after.get(cell) != whole[cell]]
        print(f"same cells: {same_cells}; cells whose status differs: {len(differing)}")
        counts: dict[str, int] = {}
        for status in after.values():
            counts[status] = counts.get(status, 0) + 1
        print(f"statuses: {json.dumps(counts, sort_keys=True)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    costs = commands.add_parser("overhead", help="Dask against local processes, elapsed")
    costs.add_argument("folder", type=Path)
    costs.add_argument("--pairs", type=int, default=3)
    costs.add_argument("--baseline", help="another command to time in each pair")
    rate = commands.add_parser("throughput", help="runs per second, scheduler cost")
    rate.add_argument("--runs", type=int, default=2000)
    again = commands.add_parser("resume", help="killed and resumed against uninterrupted")
    again.add_argument("folder", type=Path)
    again.add_argument("--kills", type=int, default=5)
    again.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    if options.command == "overhead":
        overhead(options.folder, options.pairs, options.baseline)
    elif options.command == "throughput":
        throughput(options.runs)
    else:
        resume(options.folder, options.kills, options.seed)


if __name__ == "__main__":
    main()
