"""``hashi-asp study run --scheduler``: a real Dask cluster on loopback, started here (a scheduler
and two ``dask worker`` processes of one thread each, each with its nanny), running a small
study over bundled and generated puzzles; then a worker killed with SIGKILL in the middle of
a study, whose task Dask gives to another: every cell still has exactly one row."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import processes
import pytest
from conftest import PIGEONS, PROLOG
from studies import COELHO, count, descendants, rows, running

pytest.importorskip("distributed", reason="the cluster extra: pip install 'hashi-asp[cluster]'")

DASK = Path(sys.executable).parent / "dask"


def started(*args: str, folder: Path) -> subprocess.Popen:
    """A Dask process, its scratch space in ``folder`` (not left in the temporary directory)."""
    return subprocess.Popen(
        [str(DASK), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "DASK_TEMPORARY_DIRECTORY": str(folder)},
    )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The scheduler's address, once both workers are connected to it."""
    folder = tmp_path_factory.mktemp("cluster")
    address_file = folder / "scheduler.json"
    options = ["--no-dashboard"]
    scheduler = started("scheduler", "--host", "127.0.0.1", "--port", "0", *options,
                        "--scheduler-file", str(address_file), folder=folder)  # fmt: skip
    workers: list[subprocess.Popen] = []
    try:
        processes.wait_for(address_file.exists, "the scheduler's address", timeout=120)
        address = json.loads(address_file.read_text())["address"]
        for _ in range(2):
            workers.append(started("worker", address, "--nthreads", "1", *options, folder=folder))
        from distributed import Client

        with Client(address, timeout="120s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address, workers
    finally:
        for process in [*workers, scheduler]:
            os.killpg(process.pid, signal.SIGTERM)
        for process in [*workers, scheduler]:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_a_study_on_the_cluster_has_every_cell_once_and_every_answer_checked(cluster, tmp_path):
    address, _ = cluster
    plan = tmp_path / "plan.toml"
    coelho = [str(path) for path in sorted(COELHO.glob("Hs_16_100_*_001.has"))[:4]]
    plan.write_text(
        "repeat = 2\ntime_limit = 60\nmemory_limit = 2000\n"
        f"[[instances]]\npaths = {json.dumps([*coelho, str(PROLOG)])}\n"
        "[[instances]]\ngenerate = { islands = 40, seed = 3, count = 2 }\n"
        '[variants]\nreach = "--connectivity reach"\ntree = "--connectivity tree"\n'
    )
    database = tmp_path / "cluster.db"
    done = processes.run("study", "run", database, "--plan", plan, "--scheduler", address)
    assert done.returncode == 0, done.stderr
    assert f"to run on the Dask cluster at {address}" in done.stderr
    found = rows(database)
    cells = {(row["instance"], row["variant"], row["seed"]) for row in found}
    assert len(found) == len(cells) == 7 * 2 * 2
    assert sum(name.startswith("generated/Hs_") for name, _, _ in cells) == 2 * 2 * 2
    assert all(row["status"] == "solved" and row["checked"] == 1 for row in found)
    assert all(row["memory"] and row["host"] for row in found)


def test_a_worker_killed_mid_study_loses_no_cell(cluster, tmp_path):
    """Each run is held by the pigeons until its time limit, so that a run is in progress on a
    worker when it is killed; the worker's nanny starts a new one, and Dask gives the task
    to a worker again."""
    address, workers = cluster
    paths = [str(path) for path in sorted(COELHO.glob("Hs_16_100_*_001.has"))[:6]]
    database = tmp_path / "killed.db"
    args = ["study", "run", database, *paths, "--variant", f"stuck=--add {PIGEONS}"]
    study = processes.start(*args, "--time-limit", "2", "--scheduler", address)
    try:
        # A run in progress: a runner at work whose parent is a worker of this cluster.
        ours = {pid for worker in workers for pid in descendants(worker.pid)}
        on_worker = lambda: [p for r, p in running().items() if p in ours]  # noqa: E731
        processes.wait_for(lambda: on_worker(), "a run in progress on a worker", timeout=120)
        victim = on_worker()[0]
        rows_before = count(database)
        os.kill(victim, signal.SIGKILL)
        _, err = study.communicate(timeout=240)
    finally:
        study.kill()
    assert rows_before < 6  # the kill came while the study had cells left
    assert study.returncode == 0, err
    found = rows(database)
    assert len({(row["instance"], row["variant"], row["seed"]) for row in found}) == len(found)
    assert sorted(row["instance"] for row in found) == sorted(paths)
    assert {row["status"] for row in found} == {"unknown"}


def test_generate_makes_the_same_files_on_every_executor(cluster, tmp_path):
    """Puzzle i from seed + i wherever it is made: this process, two local runner processes,
    the cluster; the files are the same byte for byte."""
    address, _ = cluster
    made = {}
    for name, where in [
        ("here", []),
        ("jobs", ["--jobs", "2"]),
        ("dask", ["--scheduler", address]),
    ]:
        folder = tmp_path / name
        args = ["-n", "40", "--count", "5", "--seed", "11", "--unique", "--solution"]
        done = processes.run("generate", *args, "--out", folder, "-q", *where)
        assert done.returncode == 0, done.stderr
        made[name] = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
    assert len(made["here"]) == 10  # five puzzles and their solutions
    assert made["jobs"] == made["here"] and made["dask"] == made["here"]
    out = processes.run("generate", "-n", "30", "--count", "3", "--jobs", "2", "-q")
    assert out.stdout == processes.run("generate", "-n", "30", "--count", "3", "-q").stdout
