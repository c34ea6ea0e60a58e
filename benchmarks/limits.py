"""How far past its time limit every command answers, on the command line and over the JSON API.

    python benchmarks/limits.py --folder ~/hashi-limits           # the whole grid, 1 run each
    python benchmarks/limits.py --folder F --commands fix unique --sizes 3000 --limits 2 \\
        --fronts line --no-probes                                 # one quick look
    python benchmarks/limits.py --pigeons --limits 1 5 --runs 3   # the search that never ends

Every command that takes a time limit (``solve``, ``solve -n 0``, ``unique``, ``count``,
``hint``, ``steps``, ``difficulty``, ``fix``, ``fix --free``, ``generate --unique``, and
``bench``, whose limit is per puzzle) runs on generated puzzles of 1 000, 3 000 and 10 000
islands with limits of 2 and 10 s, then on the probes below.  The puzzles are made once and kept
in ``--folder``: ``gN.has`` from ``hashi-asp generate -n N --seed 1`` (several solutions: what
``solve``, ``count``, ``hint``, ``unique`` and ``fix`` search), ``uN.has`` with ``--unique``
(one solution: ``steps``, ``difficulty``, and ``fix`` and ``unique`` once more, where they have
to prove it), ``u149.has`` (seed 3).  Making ``u10000.has`` takes about three minutes.

Two fronts:

- **line**: the ``hashi-asp`` script as a process of its own, timed from its start to its exit.
  The limit counts from the command's start, so the start-up (``hashi-asp solve`` on a
  3-island puzzle, the median of 5) is part of what the limit covers; the table gives the
  overshoot (worst wall minus the limit) and the same without the start-up.
- **api**: one ``hashi-asp serve --port 0`` started here, its limits raised so that every
  puzzle and answer is taken; each POST timed from sending the request to the last byte of the
  answer.  Work a request leaves running (grounding that cannot be interrupted) goes on in the
  server after the answer; before the next request the benchmark waits until the server is idle
  again, and the table says for how long it was still busy.

The probes: ``fix`` on 3 000 islands with limits of 1, 3 and 5 s; ``fix`` and ``unique`` on
10 000 with 10 s; ``steps`` on a 149-island puzzle with 2 s; ``generate --unique`` of 10 000
islands with 3 s; ``unique`` on 10 000 islands with 5 s.

Each table row: the command, the puzzle (g: several solutions, u: one), the limit, the worst
wall time over ``--runs``, the overshoot, the exit code or HTTP status, and what the answer said
(its ``status``, ``timed out`` when the limit cut it, and the last line on stderr, or the API's
error).  The summary line counts the cells answered later than the limit plus 0.5 s.
``--stacks DIR`` writes, for every run still going 0.5 s after its limit, the stacks of the
process (``py-spy dump --native``, after ``pip install py-spy``; it pauses the process for a
moment: take the figures from a run without it).  The API front needs the web extra.  Not a
test: the times depend on the machine and its load, printed with them.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROLOG = REPO / "puzzles" / "prolog-5x5.txt"
PIGEONS = REPO / "tests" / "programs" / "pigeons.lp"  # 13 pigeons in 12 holes: no end
THREE = "3 3 3\n1 0 2\n0 0 0\n0 0 1\n"  # the start-up: a puzzle with nothing to search
MARGIN = 0.5  # seconds past the limit a command may take to answer
FRONTS = ("line", "api")
SIZES = (1000, 3000, 10000)
LIMITS = (2.0, 10.0)
PROGRAM = Path(sys.executable).with_name("hashi-asp")


@dataclasses.dataclass(frozen=True)
class Command:
    """A command as both fronts run it: its arguments after ``hashi-asp`` (given the puzzle's
    path, the islands to generate and a file for bench's rows), and its API request (given the
    puzzle's text and the islands; None: the command line only)."""

    name: str  # in the tables: the command's word first
    kind: str  # the puzzle: "g" several solutions, "u" one, "" none (generate)
    line: Callable[[str, int, str], list[str]]
    api: Callable[[str, int], tuple[str, dict]] | None
    api_name: str = ""  # its name in the API's table, when the request differs


def _searching(name: str, kind: str, *extra: str, api_name: str = "", **body: object) -> Command:
    """A command that reads a puzzle and prints its answer as one JSON document."""
    word = name.split()[0]
    return Command(
        name,
        kind,
        lambda path, n, rows: [word, path, *extra, "--format", "json"],
        lambda text, n: (word, {"puzzle": text, **body}),
        api_name,
    )


COMMANDS = [
    _searching("solve", "g"),
    # The API finds at most 1 000 solutions per request (its limit, not raised by an option).
    _searching("solve -n 0", "g", "-n", "0", models=1000, api_name="solve models 1000"),
    _searching("unique", "g"),
    _searching("unique (unique puzzle)", "u"),
    _searching("count", "g"),
    _searching("hint", "g"),
    _searching("steps", "u"),
    _searching("difficulty", "u"),
    _searching("fix", "g"),
    _searching("fix (unique puzzle)", "u"),
    _searching("fix --free", "g", "--free", free=True),
    Command(
        "generate --unique",
        "",
        lambda path, n, rows: ["generate", "-n", str(n), "--seed", "1", "--unique"],
        lambda text, n: ("generate", {"islands": n, "seed": 1, "unique": True, "format": "has"}),
    ),
    Command("bench", "g", lambda path, n, rows: ["bench", path, "--json", rows, "--force"], None),
    Command(
        "bench --unique",
        "u",
        lambda path, n, rows: ["bench", path, "--unique", "--json", rows, "--force"],
        None,
    ),
]
PROBES = [  # (command's name, islands, limit): further cells beside the grid
    ("fix", 3000, 1.0),
    ("fix", 3000, 3.0),
    ("fix", 3000, 5.0),
    ("fix", 10000, 10.0),
    ("unique", 10000, 10.0),
    ("steps", 149, 2.0),
    ("generate --unique", 10000, 3.0),
    ("unique", 10000, 5.0),
]


@dataclasses.dataclass
class Run:
    wall: float
    code: int  # exit code, or HTTP status
    said: str
    busy: float = 0.0  # seconds the server kept working after the answer


# ---------------------------------------------------------------------------- puzzles


def puzzles(folder: Path, sizes: set[int]) -> dict[tuple[str, int], Path]:
    """The puzzle of each kind and size, made in ``folder`` the first time."""
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    wanted = [(kind, n, 1) for n in sorted(sizes - {149}) for kind in "gu"]
    if 149 in sizes:
        wanted.append(("u", 149, 3))
    for kind, n, seed in wanted:
        path = folder / f"{kind}{n}.has"
        if not path.exists():
            print(f"making {path} ...", file=sys.stderr, flush=True)
            making = f"generate -n {n} --seed {seed} --format has -q".split()
            making += ["--unique"] if kind == "u" else []
            text = subprocess.run(
                [str(PROGRAM), *making], check=True, capture_output=True, text=True
            ).stdout
            part = path.with_suffix(".part")
            part.write_text(text)
            part.replace(path)
        made[kind, n] = path
    return made


# ---------------------------------------------------------------------------- what was said


def _document_said(document: object) -> list[str]:
    """A JSON answer's verdict: its ``status``, ``timed out`` when the limit cut it, its error;
    for a generated puzzle, its islands."""
    if not isinstance(document, dict):
        return []
    if "error" in document:
        return [str(document["error"])]
    if "islands" in document and "notation" in document:  # generate
        return [f"{document['islands']} islands, unique: {document.get('unique')}"]
    said = [str(document["status"])] if "status" in document else []
    return said + (["timed out"] if document.get("timed_out") else [])


def _said(document: str, stderr: str) -> str:
    """What the command line said: its JSON document's verdict and its last line on stderr."""
    try:
        parts = _document_said(json.loads(document))
    except ValueError:  # not a JSON document (generate, bench)
        parts = []
    lines = [line for line in stderr.splitlines() if line.strip()]
    if lines:
        parts.append(lines[-1])
    said = "; ".join(parts) or "-"
    return said if len(said) <= 160 else said[:157] + "..."


def _answer_said(body: bytes) -> str:
    """What the API said: its document's verdict, or its error."""
    try:
        return "; ".join(_document_said(json.loads(body))) or "-"
    except ValueError:
        return f"not JSON: {body[:80]!r}"


# ---------------------------------------------------------------------------- stacks


class Stacks:
    """py-spy's dumps of a process still working ``MARGIN`` s after its limit, then every
    :attr:`EVERY` seconds while it goes on (at most :attr:`DUMPS`): with clingo's native frames
    when py-spy can unwind them, else Python's alone."""

    DUMPS = 40
    EVERY = 0.25

    def __init__(self, folder: Path | None):
        self.folder = folder
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def watch(self, pid: int, started: float, limit: float, name: str, going):
        """Start watching ``pid``, whose work started at ``started`` (``perf_counter``) with
        ``limit``; ``going()`` says whether it is still working.  Returns an event that ends
        the watch."""
        ended = threading.Event()
        if self.folder is None:
            return ended
        path = self.folder / (re.sub(r"[^A-Za-z0-9.]+", "-", name).strip("-") + ".txt")
        spy = str(Path(sys.executable).with_name("py-spy"))

        def dump() -> None:
            wait = started + limit + MARGIN - time.perf_counter()
            if ended.wait(max(0.0, wait)) or not going():
                return
            with path.open("w") as out:
                for _ in range(self.DUMPS):
                    if ended.is_set() or not going():
                        return
                    at = time.perf_counter() - started
                    done = subprocess.run(
                        [spy, "dump", "--native", "--pid", str(pid)],
                        capture_output=True,
                        text=True,
                    )
                    if done.returncode != 0:
                        done = subprocess.run(
                            [spy, "dump", "--pid", str(pid)], capture_output=True, text=True
                        )
                    # No stacks: the process is ending (its interpreter gone, its memory freed).
                    said = done.stdout or f"no stacks: {done.stderr.strip().splitlines()[:1]}\n"
                    out.write(f"# {name}: at {at:.2f} s (limit {limit:g} s)\n{said}\n")
                    out.flush()
                    ended.wait(self.EVERY)

        threading.Thread(target=dump, daemon=True).start()
        return ended

    def summary(self) -> str:
        """Each dump written, one line: when, and the innermost frames of hashi-asp in every
        thread at work ([gil]: the one holding Python's lock)."""
        if self.folder is None:
            return ""
        lines = []
        for path in sorted(self.folder.glob("*.txt")):
            for dump in path.read_text().split("\n# "):
                at = re.search(r"at ([\d.]+) s \(limit", dump)
                if at is None:
                    continue
                working = []
                for thread in re.split(r"\nThread ", dump)[1:]:
                    state = thread.split("\n", 1)[0]
                    ours = re.findall(r"^\s+(\S+) \((hashi_asp/[^)]+)\)", thread, re.M)
                    if "idle" not in state and ours:
                        gil = "[gil] " if "gil" in state else ""
                        working.append(gil + " <- ".join(f"{f} ({w})" for f, w in ours[:2]))
                lines.append(f"- {path.stem} at {at.group(1)} s: {' || '.join(working) or '-'}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------- the command line


def run_line(arguments: Callable[[str], list[str]], limit: float, stacks: Stacks, name: str) -> Run:
    """The command with these ``arguments`` (given a file for bench's rows), run in a folder of
    its own with the limit, timed from its start to its exit."""
    with tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder, "out"), Path(folder, "err")
        rows = Path(folder, "rows.json")
        with out.open("wb") as stdout, err.open("wb") as stderr:
            started = time.perf_counter()
            process = subprocess.Popen(
                [str(PROGRAM), *arguments(str(rows)), "--time-limit", f"{limit:g}"],
                stdout=stdout,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
                cwd=folder,
            )
            watch = stacks.watch(process.pid, started, limit, name, lambda: process.poll() is None)
            code = process.wait()
            wall = time.perf_counter() - started
        watch.set()
        said = _said(out.read_text(errors="replace"), err.read_text(errors="replace"))
        if rows.exists():  # bench: the status of each row
            statuses = [row.get("status", "?") for row in json.loads(rows.read_text())]
            said = f"rows: {', '.join(statuses)}" + ("" if said == "-" else f"; {said}")
        return Run(wall, code, said)


def startup(runs: int = 5) -> float:
    """The median wall time of ``hashi-asp solve`` on a puzzle with nothing to search."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "three.has")
        path.write_text(THREE)
        walls = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([str(PROGRAM), "solve", str(path)], check=True, capture_output=True)
            walls.append(time.perf_counter() - started)
    return statistics.median(walls)


# ---------------------------------------------------------------------------- the API


class Server:
    """``hashi-asp serve --port 0`` with limits raised for the largest puzzles and answers."""

    def __init__(self) -> None:
        raised = (
            "--max-islands 1000000 --max-cells 100000000 --max-time-limit 3600 "
            "--max-bytes 100000000 --max-answer-bytes 2000000000"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hashi_asp", "serve", "--port", "0", *raised.split()],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.process.stderr.readline()
        found = re.search(r"serving http://[^:]+:(\d+)/", line)
        if not found:
            self.process.kill()
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(found.group(1))
        threading.Thread(target=self.process.stderr.read, daemon=True).start()  # drained

    def cpu(self) -> float:
        """Seconds of processor time the server has used (Linux)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def idle(self, bound: float = 900.0) -> float:
        """Wait until the server uses no processor for half a second: how long that took."""
        started = time.perf_counter()
        before = self.cpu()
        while time.perf_counter() - started < bound:
            time.sleep(0.5)
            now = self.cpu()
            if now - before < 0.05:
                return max(0.0, time.perf_counter() - started - 0.5)
            before = now
        return time.perf_counter() - started

    def post(self, command: str, body: dict, stacks: Stacks, limit: float, name: str) -> Run:
        data = json.dumps(body).encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=3600)
        started = time.perf_counter()
        connection.request(
            "POST", f"/api/{command}", body=data, headers={"Content-Type": "application/json"}
        )
        watch = stacks.watch(self.process.pid, started, limit, name, lambda: True)
        response = connection.getresponse()
        answer = response.read()
        wall = time.perf_counter() - started
        watch.set()
        connection.close()
        return Run(wall, response.status, _answer_said(answer), self.idle())

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------------------- the grid


@dataclasses.dataclass(frozen=True)
class Cell:
    command: Command
    islands: int
    limit: float


def cells(names: list[str] | None, sizes: list[int], limits: list[float], probes: bool):
    """The cells to measure: the commands named (by name, or by their word: all of its rows) at
    every size and limit, and the probes of those commands."""
    chosen = [c for c in COMMANDS if names is None or c.name in names or c.name.split()[0] in names]
    grid = {Cell(c, n, limit) for c in chosen for n in sizes for limit in limits}
    if probes:
        for name, n, limit in PROBES:
            grid.update(Cell(c, n, limit) for c in chosen if c.name == name)
    order = {c: i for i, c in enumerate(COMMANDS)}
    return sorted(grid, key=lambda cell: (order[cell.command], cell.islands, cell.limit))


def measure(front: str, cell: Cell, runs: int, files, server, stacks: Stacks) -> list[Run]:
    command, n = cell.command, cell.islands
    path = files.get((command.kind, n)) if command.kind else None
    done = []
    for number in range(runs):
        name = f"{front} {command.name} {n} {cell.limit:g} run {number + 1}"
        if front == "line":
            arguments = functools.partial(command.line, str(path) if path else "", n)
            done.append(run_line(arguments, cell.limit, stacks, name))
        else:
            text = path.read_text() if path else ""
            api_command, body = command.api(text, n)
            body["time-limit"] = cell.limit
            done.append(server.post(api_command, body, stacks, cell.limit, name))
    return done


def row(front: str, cell: Cell, done: list[Run], start: float) -> tuple[str, bool, bool]:
    """The cell's line of the table; whether it is late, and whether it is without the
    start-up (the command line's; the API has none)."""
    worst = max(done, key=lambda run: run.wall)
    over = worst.wall - cell.limit
    net = over - start if front == "line" else over
    command = cell.command
    name = command.api_name if front == "api" and command.api_name else command.name
    puzzle = f"{command.kind}{cell.islands}"
    beside = f"{net:+.2f}" if front == "line" else f"{max(run.busy for run in done):.1f}"
    codes = ", ".join(str(code) for code in sorted({run.code for run in done}))
    said = worst.said.replace("|", "\\|")
    text = (
        f"| {name} | {puzzle} | {cell.limit:g} | {worst.wall:.2f} | {over:+.2f} | {beside} "
        f"| {codes} | {said} |"
    )
    return text, over > MARGIN, net > MARGIN


HEADS = {
    "line": "| command | puzzle | limit s | worst wall s | overshoot s | without start-up s "
    "| exit | said |\n|---|---|---|---|---|---|---|---|",
    "api": "| command | puzzle | limit s | worst wall s | overshoot s | busy after s "
    "| HTTP | said |\n|---|---|---|---|---|---|---|---|",
}


def pigeons(limits: list[float], runs: int) -> None:
    """The searches that cannot end on their own (the Prolog report's 5x5 with a pigeonhole
    problem added), and ``generate`` of a 100 000-island unique puzzle."""
    search = ["--add", str(PIGEONS)]
    commands = {
        "solve": ["solve", str(PROLOG), *search],
        "solve -n 0": ["solve", str(PROLOG), "-n", "0", *search],
        "unique": ["unique", str(PROLOG), *search],
        "count": ["count", str(PROLOG), *search],
        "hint": ["hint", str(PROLOG), *search],
        "bench": ["bench", str(PROLOG), *search],
        "generate --unique": ["generate", "--islands", "100000", "--unique", "--seed", "1"],
    }
    print("| command | limit s | worst wall s | margin s | exit codes |")
    print("|---|---|---|---|---|")
    for name, args in commands.items():
        for limit in limits:
            done = [
                run_line(lambda rows, given=args: given, limit, Stacks(None), name)
                for _ in range(runs)
            ]
            worst = max(run.wall for run in done)
            codes = ", ".join(str(c) for c in sorted({run.code for run in done}))
            print(
                f"| {name} | {limit:g} | {worst:.2f} | {worst - limit:+.2f} | {codes} |", flush=True
            )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--folder",
        type=Path,
        default=Path(tempfile.gettempdir(), "hashi-limits"),
        help="where the generated puzzles are kept (made once)",
    )
    parser.add_argument(
        "--commands",
        nargs="+",
        metavar="NAME",
        help="commands to run, by name or word [all]: " + ", ".join(c.name for c in COMMANDS),
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument(
        "--limits", type=float, nargs="+", default=None, help="seconds [2 10; 1 5 with --pigeons]"
    )
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--fronts", nargs="+", choices=FRONTS, default=list(FRONTS))
    parser.add_argument("--no-probes", dest="probes", action="store_false")
    parser.add_argument("--stacks", type=Path, help="py-spy dumps of the runs past the margin")
    parser.add_argument(
        "--pigeons", action="store_true", help="the searches that never end, command line only"
    )
    arguments = parser.parse_args()
    if arguments.pigeons:
        pigeons(arguments.limits or [1, 5], arguments.runs)
        return 0
    grid = cells(
        arguments.commands, arguments.sizes, arguments.limits or list(LIMITS), arguments.probes
    )
    files = puzzles(arguments.folder, {c.islands for c in grid if c.command.kind})
    stacks = Stacks(arguments.stacks)
    start = startup()
    print(
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"{os.cpu_count()} cores; start-up (hashi-asp solve, 3 islands): {start:.2f} s\n"
    )
    summary = []
    for front in arguments.fronts:
        chosen = [c for c in grid if front == "line" or c.command.api is not None]
        server = Server() if front == "api" else None
        print(
            f"### {'command line' if front == 'line' else 'JSON API'}\n\n{HEADS[front]}", flush=True
        )
        over = net = 0
        try:
            for cell in chosen:
                text, late, late_net = row(
                    front,
                    cell,
                    measure(front, cell, arguments.runs, files, server, stacks),
                    start,
                )
                over += late
                net += late_net
                print(text, flush=True)
        finally:
            if server is not None:
                server.close()
        summary.append(
            f"{front}: {over} of {len(chosen)} cells over the limit + {MARGIN} s"
            + (f" ({net} without start-up)" if front == "line" else "")
        )
        print()
    print("; ".join(summary))
    if arguments.stacks:
        print(f"\nStacks past the limit + {MARGIN} s ({arguments.stacks}):\n{stacks.summary()}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
