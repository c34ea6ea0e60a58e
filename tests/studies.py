"""What the study tests share: running ``hashi-asp study`` as a process, reading a study's
database as the tests see it (plain sqlite3, not the package), the process table (Linux /proc)
to find the runner processes and those at work, and a process that adopts a plan at the same
moment as another."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from conftest import PROGRAMS, PUZZLES
from processes import run as run_command

COELHO = PUZZLES / "coelho"
HOG = PROGRAMS / "memory_hog.lp"
RUNNER = "-m hashi_asp.workers.runners"


def study(*args, **kwargs) -> subprocess.CompletedProcess:
    """``hashi-asp study run ARGS`` (or ``study report``/``plot`` when the first says so)."""
    command = [] if args and args[0] in ("report", "plot") else ["run"]
    return run_command("study", *command, *args, **kwargs)


def rows(database: Path, columns: str = "*") -> list[dict]:
    """Every row of the database's ``runs`` table, as dicts, in the order written."""
    connection = sqlite3.connect(database)
    connection.row_factory = sqlite3.Row
    try:
        return [dict(row) for row in connection.execute(f"SELECT {columns} FROM runs ORDER BY id")]
    finally:
        connection.close()


def count(database: Path) -> int:
    """Rows committed so far (0 while the database is not there yet)."""
    if not database.exists():
        return 0
    connection = sqlite3.connect(database)
    try:
        return connection.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.OperationalError:  # the table is not made yet
        return 0
    finally:
        connection.close()


def processes() -> dict[int, tuple[int, str, int]]:
    """Every live process: its parent, its command line and its number of threads."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            threads = len(os.listdir(f"/proc/{entry}/task"))
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if fields[0] != "Z":
            found[int(entry)] = (int(fields[1]), command.decode(errors="replace"), threads)
    return found


def runners(table: dict[int, tuple[int, str, int]] | None = None) -> dict[int, int]:
    """The runner processes (``python -m hashi_asp.workers.runners``), each with its parent."""
    table = processes() if table is None else table
    return {pid: parent for pid, (parent, command, _) in table.items() if RUNNER in command}


def running(table: dict[int, tuple[int, str, int]] | None = None) -> dict[int, int]:
    """The runners at work, each with its parent: clingo's threads show (grounding, search)."""
    table = processes() if table is None else table
    return {pid: parent for pid, parent in runners(table).items() if table[pid][2] > 1}


def descendants(root: int) -> set[int]:
    """The processes below ``root``."""
    table = processes()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, (parent, _, _) in table.items() if parent in frontier} - found
        found |= frontier
    return found


def adopt_at_once(path: str, name: str, fingerprint: dict, barrier: Any, answers: Any) -> None:
    """In a process of its own: adopt the plan ``name`` (with ``fingerprint``) into the study
    database at ``path``, having waited at ``barrier`` for the other process as the transaction
    begins, so that each has done all it does before its transaction when either begins it.
    Puts (name, "adopted" or the refusal) into ``answers``."""
    from hashi_asp.study.database import Database, StudyError

    class AtOnce(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql.lstrip().upper().startswith("BEGIN"):
                barrier.wait(60)
            return super().execute(sql, *args)

    connect = sqlite3.connect
    sqlite3.connect = lambda *args, **kwargs: connect(*args, factory=AtOnce, **kwargs)  # type: ignore[assignment]
    with Database(path) as database:
        try:
            database.adopt({"base": "/", "variants": {name: ""}}, fingerprint)
            answers.put((name, "adopted"))
        except StudyError as refused:
            answers.put((name, str(refused)))
