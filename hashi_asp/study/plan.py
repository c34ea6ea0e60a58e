"""A study's plan: which instances, which variants, which task, how many seeds, which limits;
and its cells, one run each (instance x variant x seed).

A plan comes from a TOML file (:func:`load`) or from the command line's one-off form
(:func:`one_off`); both become the same ``spec`` (a plain dict, stored in the database so that
``study run DB`` alone resumes it) and :func:`resolve` makes it a :class:`Plan`.

.. code-block:: toml

    task = "solve"          # solve | unique | count | steps | difficulty
    repeat = 3              # clingo seeds 1, 2, 3 (or: seeds = [1, 7])
    time_limit = 60         # seconds per run
    memory_limit = 4000     # MB per run (its address space)

    [[instances]]
    paths = ["coelho", "more/*.has"]     # files, folders (searched), globs

    [[instances]]
    generate = { islands = 2000, beta = 0, seed = 1, count = 5 }   # as `hashi-asp generate`

    [variants]
    reach = "--connectivity reach"
    handy = '--connectivity tree --clingo "--configuration=handy"'

Paths in a plan file are relative to its folder; on the command line, to the working folder.
An instance is named by its path as given (a folder's files under the folder as given);
generated instances are named ``generated/`` and the file name ``generate --out`` gives them.
"""

from __future__ import annotations

import glob
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..asp.interface import Program
from ..puzzle import HashiError, PuzzleError
from .database import StudyError
from .runs import TASKS, Task, digest
from .variants import Variant, parse

PUZZLE_SUFFIXES = {".has", ".txt", ".json"}
"""What a folder is searched for."""

GENERATE_KEYS = {
    "islands",
    "size",
    "alpha",
    "beta",
    "seed",
    "count",
    "unique",
    "difficulty",
    "max_bridges",
    "no_loops",
    "attempts",
}
PLAN_KEYS = {"task", "repeat", "seeds", "time_limit", "memory_limit", "instances", "variants"}


@dataclass(frozen=True)
class Instance:
    """An instance: its ``name`` (the path as given) and its text."""

    name: str
    text: str


@dataclass
class Plan:
    """A resolved plan: the instances read (or made), the variants parsed, the task, the
    clingo seeds, the limits per run, and the ``spec`` it came from."""

    instances: list[Instance]
    variants: list[Variant]
    task: str = "solve"
    seeds: tuple[int, ...] = (1,)
    time_limit: float | None = None
    memory_limit: int | None = None
    spec: dict | None = None

    def tasks(self, done: set[tuple[str, str, int]] = frozenset(), *, alone: bool = False):  # type: ignore[assignment]
        """The runs of every cell without a row in ``done``, instance by instance."""
        for instance in self.instances:
            for variant in self.variants:
                for seed in self.seeds:
                    if (instance.name, variant.name, seed) not in done:
                        yield Task(
                            instance.name,
                            instance.text,
                            variant,
                            seed,
                            self.task,
                            self.time_limit,
                            self.memory_limit,
                            alone,
                        )

    @property
    def cells(self) -> int:
        return len(self.instances) * len(self.variants) * len(self.seeds)

    def fingerprint(self) -> dict:
        """What the results depend on, to refuse a changed plan under an existing database."""
        return {
            "task": self.task,
            "seeds": list(self.seeds),
            "time_limit": self.time_limit,
            "memory_limit": self.memory_limit,
            "variants": {variant.name: variant.digest for variant in self.variants},
            "instances": [[each.name, digest(each.text)] for each in self.instances],
        }


# ---------------------------------------------------------------------------- the two forms


def one_off(
    paths: list[str],
    variants: list[str],
    *,
    task: str = "solve",
    repeat: int = 1,
    time_limit: float | None = None,
    memory_limit: int | None = None,
) -> dict:
    """The spec of ``study run DB PATHS... --variant NAME='OPTIONS' ...``; without a variant,
    one named ``default`` with no options."""
    named: dict[str, str] = {}
    for given in variants or ["default="]:
        name, equals, options = given.partition("=")
        if not equals:
            raise StudyError(f"--variant {given[:40]!r}: expected NAME='OPTIONS'")
        if name in named:
            raise StudyError(f"--variant {name}: given twice")
        named[name] = options
    return {
        "base": os.getcwd(),
        "task": task,
        "seeds": list(range(1, repeat + 1)),
        "time_limit": time_limit,
        "memory_limit": memory_limit,
        "instances": [{"paths": list(paths)}],
        "variants": named,
    }


def load(path: str | os.PathLike) -> dict:
    """The spec of a TOML plan file, checked key by key."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyError(f"{path}: no such plan file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise StudyError(f"{path}: cannot read the plan: {error}") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyError(f"{path}: {error}") from None
    where = str(path)
    _known(document, PLAN_KEYS, where)
    if "repeat" in document and "seeds" in document:
        raise StudyError(f"{where}: give repeat or seeds, not both")
    repeat = _number(document.get("repeat", 1), f"{where}: repeat", integer=True)
    seeds = document.get("seeds", list(range(1, int(repeat) + 1)))
    if not isinstance(seeds, list) or not seeds:
        raise StudyError(f"{where}: seeds: expected a list of numbers")
    for seed in seeds:
        _number(seed, f"{where}: seeds", integer=True, least=0)
    instances = document.get("instances")
    if not isinstance(instances, list) or not instances:
        raise StudyError(f"{where}: expected [[instances]] with paths or generate")
    for number, entry in enumerate(instances, 1):
        place = f"{where}: instances {number}"
        if not isinstance(entry, dict):
            raise StudyError(f"{place}: expected a table")
        _known(entry, {"paths", "generate"}, place)
        if ("paths" in entry) == ("generate" in entry):
            raise StudyError(f"{place}: give paths or generate")
        if "paths" in entry and not (
            isinstance(entry["paths"], list) and all(isinstance(p, str) for p in entry["paths"])
        ):
            raise StudyError(f"{place}: paths: expected a list of strings")
        if "generate" in entry:
            if not isinstance(entry["generate"], dict):
                raise StudyError(f"{place}: generate: expected a table")
            _known(entry["generate"], GENERATE_KEYS, f"{place}: generate")
    variants = document.get("variants", {"default": ""})
    if not isinstance(variants, dict) or not all(isinstance(v, str) for v in variants.values()):
        raise StudyError(f'{where}: [variants]: expected NAME = "OPTIONS" lines')
    return {
        "base": str(path.resolve().parent),
        "task": document.get("task", "solve"),
        "seeds": seeds,
        "time_limit": document.get("time_limit"),
        "memory_limit": document.get("memory_limit"),
        "instances": instances,
        "variants": variants,
        "file": str(path),
    }


def _known(table: dict, keys: set[str], where: str) -> None:
    for key in table:
        if key not in keys:
            raise StudyError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(keys))})")


def _number(value: Any, where: str, *, integer: bool = False, least: float = 1) -> float:
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value):
        raise StudyError(f"{where}: expected {'an integer' if integer else 'a number'}")
    if value < least:
        raise StudyError(f"{where}: expected at least {least:g}, got {value}")
    return value


# ---------------------------------------------------------------------------- resolving


def resolve(spec: dict) -> Plan:
    """The plan of ``spec``: instances read or generated, variants parsed, every value checked."""
    where = spec.get("file", "study")
    task = spec.get("task", "solve")
    if task not in TASKS:
        raise StudyError(f"{where}: task {task!r}: expected one of {', '.join(TASKS)}")
    time_limit = spec.get("time_limit")
    if time_limit is not None:
        _number(time_limit, f"{where}: time limit", least=0)
        if time_limit <= 0:
            raise StudyError(f"{where}: time limit: expected more than 0 seconds")
    memory_limit = spec.get("memory_limit")
    if memory_limit is not None:
        _number(memory_limit, f"{where}: memory limit", integer=True, least=64)
    base = Path(spec["base"])
    variants = [parse(name, options, base) for name, options in spec["variants"].items()]
    for variant in variants:
        _suits(variant, task, where)
    instances: dict[str, Instance] = {}
    for entry in spec["instances"]:
        if "paths" in entry:
            names = instance_names(entry["paths"], base)
            found = [Instance(name, _read(base, name)) for name in names]
        else:
            found = generated(entry["generate"], where)
        for instance in found:
            instances.setdefault(instance.name, instance)
    if not instances:
        raise StudyError(f"{where}: no instances found")
    seeds = tuple(int(seed) for seed in spec.get("seeds", [1]))
    if len(set(seeds)) != len(seeds):
        raise StudyError(f"{where}: a seed is given twice")
    return Plan(list(instances.values()), variants, task, seeds, time_limit, memory_limit, spec)


def _suits(variant: Variant, task: str, where: str) -> None:
    """A variant's options must mean something for the task."""
    if task in ("steps", "difficulty") and variant.program != Program():
        raise StudyError(
            f"{where}: variant {variant.name}: the {task} task takes no program options "
            "(only --max-bridges, --no-loops)"
        )
    if any(option.split("=")[0] == "--seed" for option in variant.program.options):
        raise StudyError(
            f"{where}: variant {variant.name}: --seed is the study's (repeat, or seeds in a plan)"
        )
    from ..asp.control import judge_program

    try:
        judge_program(variant.program)
    except HashiError as error:
        raise StudyError(f"{where}: variant {variant.name}: {error}") from None


def instance_names(paths: list[str], base: Path) -> list[str]:
    """The instance files under ``paths`` (files, folders searched with their subfolders for
    puzzle files, globs), each named by its path as given, sorted within each path."""
    names: list[str] = []
    for given in paths:
        place = base / given
        if any(mark in given for mark in "*?["):
            matches = sorted(glob.glob(str(place), recursive=True))
            absolute = Path(given).is_absolute()
            found = [m if absolute else os.path.relpath(m, base) for m in matches]
            found = [name for name in found if (base / name).is_file()]
            if not found:
                raise StudyError(f"{given}: no file matches")
        elif place.is_dir():
            found = sorted(
                str(Path(given) / path.relative_to(place))
                for path in place.rglob("*")
                if path.suffix in PUZZLE_SUFFIXES and path.is_file()
            )
        elif place.exists():
            found = [given]
        else:
            raise PuzzleError("no such file or directory", given)
        names.extend(found)
    return list(dict.fromkeys(names))


def _read(base: Path, name: str) -> str:
    from ..files import read_text

    return read_text(base / name)


def generated(request: dict, where: str) -> list[Instance]:
    """The instances a ``generate`` entry makes: as ``hashi-asp generate`` with those options
    (puzzle i from seed + i), named ``generated/`` and the file name it gives."""
    from .. import generation
    from ..puzzle import Rules

    options = dict(request)
    if "islands" not in options:
        raise StudyError(f"{where}: generate: islands is required")
    rules = Rules(options.pop("max_bridges", 2), options.pop("no_loops", False))
    islands, count = options.pop("islands"), options.pop("count", 1)
    notation = "has" if rules.standard else "json"
    try:
        _, made = generation.batch(islands, count, notation=notation, rules=rules, **options)
        return [Instance(f"generated/{name}", text) for name, _, text in made]
    except (HashiError, TypeError, ValueError) as error:
        raise StudyError(f"{where}: generate: {error}") from None
