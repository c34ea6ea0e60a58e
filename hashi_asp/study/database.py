"""A study's database: SQLite (the standard library's ``sqlite3``) in write-ahead-log mode, one
file that reports and plots read alone.

- Table ``runs``: one row per run, the columns of :class:`~.runs.Record`, and at most one row
  per cell (``UNIQUE (instance, variant, seed)``).  Each row is committed the moment its run
  is in: a study stopped in any way (Ctrl-C, a killed client, a lost worker, a full disk)
  keeps every row committed before, and running it again runs only the cells without one.
- Table ``study``: the plan the database was made for (``plan``: as given, so that ``study
  run DB`` alone resumes it; ``fingerprint``: every instance's content hash, every variant's
  options and files, the task, the seeds and the limits).  A plan that differs is refused,
  never mixed in: the plan is read and written in one transaction, so that of two processes
  giving a new database different plans at once, one is refused.
- One process at a time runs a study in a database (``alone``): a second is refused while the
  first has it open, however many cells are left, rather than make every run again.

A database changed by hand or damaged (a plan or fingerprint that is not what this module
wrote, a row with a value of the wrong kind) is a :class:`StudyError` naming what is wrong.

Write-ahead logging with ``synchronous=NORMAL``: a commit is safe from the end of the process
that made it (killed or not); only a crash of the machine itself may lose the last commits.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from ..errors import HashiError
from .runs import COLUMNS, Record

_TYPES = {"int": "INTEGER", "float": "REAL", "str": "TEXT"}


def _schema() -> str:
    from dataclasses import fields

    columns = []
    for column in fields(Record):
        kind = str(column.type).split(" |")[0]
        columns.append(f"{column.name} {_TYPES.get(kind, 'TEXT')}")
    return (
        "CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, "
        + ", ".join(columns)
        + ", UNIQUE (instance, variant, seed));\n"
        "CREATE TABLE IF NOT EXISTS study (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    )


class StudyError(HashiError):
    """A database or plan that cannot be used: one line, bad input (exit 2)."""


class WriteError(HashiError):
    """A row that could not be written (a full disk, a lost file): the rows before it stay;
    a file that cannot be written is bad input (exit 2)."""


class Database:
    """An open study database.  ``create`` makes the file if it does not exist (``study run``);
    reports and plots open an existing one only.  ``alone``: this process is to run the study,
    and no other may meanwhile (:meth:`_hold`)."""

    def __init__(self, path: str | os.PathLike, *, create: bool = False, alone: bool = False):
        self.path = Path(path)
        if not self.path.exists() and not create:
            raise StudyError(f"{self.path}: no such study database")
        if self.path.is_dir():
            raise StudyError(f"{self.path}: is a directory, not a study database")
        if self.path.exists() and not self.path.is_file():  # a device, a FIFO: never a database
            raise StudyError(f"{self.path}: not a regular file, not a study database")
        self._held: int | None = None
        if alone:
            self._hold()
        try:
            self.connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            tables = {
                name
                for (name,) in self.connection.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                )
            }
            if tables and not {"runs", "study"} <= tables:
                raise StudyError(f"{self.path}: an SQLite database, but not a study's")
            if create:
                self.connection.execute("PRAGMA journal_mode = WAL")
                self.connection.execute("PRAGMA synchronous = NORMAL")
                self.connection.executescript(_schema())
            elif not tables:
                raise StudyError(f"{self.path}: not a study database (no runs in it)")
        except sqlite3.DatabaseError as error:
            self._release()
            raise StudyError(f"{self.path}: cannot use it as a study database: {error}") from None
        self.written = 0

    def _hold(self) -> None:
        """Take the database for this process: an advisory lock (``flock``) on the file, which
        the operating system releases however the process ends.  Taken before SQLite opens the
        file and given up after it closes it: closing another descriptor of the file while
        SQLite holds its own locks on it would release those."""
        import fcntl

        try:
            self._held = os.open(self.path, os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK, 0o666)
        except OSError as error:
            raise StudyError(f"{self.path}: cannot open: {error.strerror or error}") from None
        try:
            fcntl.flock(self._held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._release()
            raise StudyError(
                f"{self.path}: another `hashi-asp study run` is running on it; "
                "run again when it has ended (it goes on from its rows)"
            ) from None

    def _release(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def close(self) -> None:
        self.connection.close()
        self._release()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ the plan

    def setting(self, key: str) -> Any:
        """The value of ``key`` in table ``study`` (JSON), or None when there is none."""
        try:
            found = self.connection.execute(
                "SELECT value FROM study WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.Error as error:
            raise StudyError(f"{self.path}: cannot read its {key}: {error}") from None
        if found is None:
            return None
        try:
            return json.loads(found[0])
        except (TypeError, ValueError):
            raise StudyError(f"{self.path}: its {key} is not JSON: {_damaged}") from None

    def fingerprint(self) -> dict | None:
        """The fingerprint of the study's plan (:meth:`.plan.Plan.fingerprint`), checked, or
        None for a database without a plan yet."""
        found = self.setting("fingerprint")
        if found is not None:
            wrong = _fingerprint_wrong(found)
            if wrong:
                raise StudyError(f"{self.path}: its fingerprint: {wrong}: {_damaged}")
        return found

    def adopt(self, spec: dict, fingerprint: dict) -> None:
        """Record the plan of a new database; for one made before, refuse a plan that differs
        from its own (saying what differs).  Reading the plan there and writing this one are
        one transaction: of two processes adopting different plans at once, one is refused."""
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                before = self.fingerprint()
                if before is None:
                    for key, value in (("plan", spec), ("fingerprint", fingerprint)):
                        self.connection.execute(
                            "INSERT OR REPLACE INTO study VALUES (?, ?)", (key, json.dumps(value))
                        )
                    return
        except sqlite3.Error as error:
            raise WriteError(f"{self.path}: cannot record the study's plan: {error}") from None
        difference = differs(before, fingerprint)
        if difference:
            raise StudyError(
                f"{self.path} holds a study with another plan ({difference}): "
                "run the same plan to resume it, or give a new database"
            )

    # ------------------------------------------------------------------ the runs

    def done(self) -> set[tuple[str, str, int]]:
        """The cells that have a row."""
        try:
            rows = self.connection.execute("SELECT instance, variant, seed FROM runs").fetchall()
        except sqlite3.Error as error:
            raise StudyError(f"{self.path}: cannot read its runs: {error}") from None
        return {(instance, variant, seed) for instance, variant, seed in rows}

    def add(self, record: Record) -> bool:
        """Commit one run's row; False if its cell had one already (another run of the same
        study wrote it), which is kept.  Raises :class:`WriteError` when it cannot be written."""
        values = [getattr(record, name) for name in COLUMNS]
        marks = ", ".join("?" * len(COLUMNS))
        try:
            self.connection.execute(
                f"INSERT INTO runs ({', '.join(COLUMNS)}) VALUES ({marks})", values
            )
        except sqlite3.IntegrityError:
            return False
        except sqlite3.Error as error:
            cell = f"{record.instance}, variant {record.variant}, seed {record.seed}"
            raise WriteError(
                f"{self.path}: cannot write the run of {cell}: {error}; "
                f"the {self.written} rows written before it are kept"
            ) from None
        self.written += 1
        return True

    def records(self) -> list[Record]:
        """Every row, in the order they were written, each value checked for its column's kind."""
        try:
            rows = self.connection.execute(
                f"SELECT id, {', '.join(COLUMNS)} FROM runs ORDER BY id"
            ).fetchall()
        except sqlite3.Error as error:
            raise StudyError(f"{self.path}: cannot read its runs: {error}") from None
        kinds = _kinds()
        for number, *values in rows:
            for name, value in zip(COLUMNS, values):
                kind, optional = kinds[name]
                if value is None and optional:
                    continue
                if not isinstance(value, _PYTHON[kind]):
                    shown = "NULL" if value is None else repr(value)[:40]
                    raise StudyError(
                        f"{self.path}: run {number}: {name} is {shown}, not {_WORDS[kind]}: "
                        f"{_damaged}"
                    )
        return [Record(*values) for _, *values in rows]


_damaged = "the database was changed by hand, or is damaged"
_PYTHON: dict[str, type | tuple[type, ...]] = {"int": int, "float": (int, float), "str": str}
_WORDS = {"int": "an integer", "float": "a number", "str": "text"}


def _kinds() -> dict[str, tuple[str, bool]]:
    """Each column of a row: its kind (int, float or str) and whether it may be NULL."""
    from dataclasses import fields

    found = {}
    for column in fields(Record):
        kind, *rest = str(column.type).split(" | ")
        found[column.name] = (kind, rest == ["None"])
    return found


def _fingerprint_wrong(found: Any) -> str:
    """What is wrong with a stored fingerprint, in a few words ('' when nothing)."""
    if not isinstance(found, dict):
        return "not a table"

    def number(value: Any) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    checks = {
        "task": lambda value: isinstance(value, str),
        "seeds": lambda value: (
            isinstance(value, list)
            and all(isinstance(seed, int) and not isinstance(seed, bool) for seed in value)
        ),
        "time_limit": lambda value: value is None or number(value),
        "memory_limit": lambda value: value is None or number(value),
        "variants": lambda value: (
            isinstance(value, dict) and all(isinstance(digest, str) for digest in value.values())
        ),
        "instances": lambda value: (
            isinstance(value, list)
            and all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
                for pair in value
            )
        ),
    }
    for key, good in checks.items():
        if key not in found:
            return f"no {key}"
        if not good(found[key]):
            return f"{key}: not of the kind a study writes"
    return ""


def differs(before: dict, now: dict) -> str:
    """What differs between two plans' fingerprints, in a few words ('' when nothing)."""
    said = []
    for key in ("task", "seeds", "time_limit", "memory_limit"):
        if before.get(key) != now.get(key):
            said.append(f"{key.replace('_', ' ')} {before.get(key)} -> {now.get(key)}")
    old, new = dict(before.get("variants", {})), dict(now.get("variants", {}))
    for name in sorted(old.keys() | new.keys()):
        if name not in new:
            said.append(f"variant {name} left out")
        elif name not in old:
            said.append(f"variant {name} added")
        elif old[name] != new[name]:
            said.append(f"variant {name} changed")
    old, new = dict(before.get("instances", [])), dict(now.get("instances", []))
    if old != new:
        added = sorted(new.keys() - old.keys())
        gone = sorted(old.keys() - new.keys())
        changed = sorted(name for name in old.keys() & new.keys() if old[name] != new[name])
        for count, what, first in (
            (len(added), "added", added),
            (len(gone), "left out", gone),
            (len(changed), "changed", changed),
        ):
            if count:
                said.append(f"{count} instance{'s' * (count != 1)} {what}, first {first[0]}")
    return "; ".join(said)
