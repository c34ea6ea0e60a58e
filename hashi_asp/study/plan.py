"""A study's plan: which instances, which variants, which task, how many seeds, which limits;
and its cells, one run each (instance x variant x seed).

A plan comes from a TOML file (:func:`load`) or from the command line's one-off form
(:func:`one_off`); both become the same ``spec`` (a plain dict, stored in the database so that
``study run DB`` alone resumes it) and :func:`resolve` makes it a :class:`Plan`.

.. code-block:: toml

    task = "solve"          # a command with a verdict: solve, unique, fix, count, hint, steps...
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

Every expansion of a plan is bounded before it is made, from its figures alone (the bounds are
:mod:`hashi_asp.study`'s): its runs (instances x variants x seeds), its variants, the bytes of
instances it holds (files by their size, generated puzzles by their boards) and the nesting of
its file; and the long steps (parsing, reading, generating) stop at a signal, nothing written.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import commands
from ..asp.interface import Program
from ..commands.shared_options import PROGRAM, RULES
from ..errors import HashiError, PuzzleError
from ..files import puzzle_files
from ..puzzle import MAX_CELLS, Rules, parse_size, plural
from ..stopping import Deadline, Stopped, uninterruptible
from . import (
    GENERATED_BYTES,
    MEMORY_LIMITS,
    MOST_NESTING,
    MOST_RUNS,
    MOST_SEED,
    MOST_TEXT,
    MOST_VARIANTS,
)
from .database import StudyError
from .runs import Task, digest
from .variants import Variant, parse

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
"""The options of ``hashi-asp generate`` a plan's ``generate`` table takes (those that make
puzzles); each is checked by that command's declaration of it."""
PLAN_KEYS = {"task", "repeat", "seeds", "time_limit", "memory_limit", "instances", "variants"}
"""The keys of a plan file."""
SPEC_KEYS = (PLAN_KEYS - {"repeat"}) | {"base", "file"}
"""The keys of a spec (what a study's database keeps): a plan file's, with its seeds, the folder
its paths are relative to and the plan file's own path."""


@dataclass(frozen=True)
class Instance:
    """An instance: its ``name`` (the path as given) and its text."""

    name: str
    text: str


@dataclass
class Plan:
    """A resolved plan: the instances read (or made), the variants parsed, the task, the
    clingo seeds, the limits per run, the ``spec`` it came from, and the files it ``reads``
    (the plan file, the instances, the variants' rule files), each with what it is, as
    :func:`hashi_asp.files.not_the_input` takes them."""

    instances: list[Instance]
    variants: list[Variant]
    task: str = "solve"
    seeds: tuple[int, ...] = (1,)
    time_limit: float | None = None
    memory_limit: int | None = None
    spec: dict | None = None
    reads: tuple[tuple[str, str], ...] = ()

    def tasks(self, done: set[tuple[str, str, int]] = frozenset(), *, alone: bool = False):  # type: ignore[assignment]
        """The runs of every cell without a row in ``done``, instance by instance."""
        name, options = task_of(self.task, "study")
        module = commands.MODULES.get(name, "")  # where a runner finds the command
        for instance in self.instances:
            for variant in self.variants:
                for seed in self.seeds:
                    if (instance.name, variant.name, seed) not in done:
                        yield Task(
                            instance.name,
                            instance.text,
                            variant,
                            seed,
                            name,
                            self.time_limit,
                            self.memory_limit,
                            alone,
                            module,
                            options,
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
    _within(1, len(named), repeat, "study", least=True)  # before the seeds are listed
    return {
        "base": os.getcwd(),
        "task": task,
        "seeds": list(range(1, repeat + 1)),
        "time_limit": time_limit,
        "memory_limit": memory_limit,
        "instances": [{"paths": list(paths)}],
        "variants": named,
    }


def load(path: str | os.PathLike, *, deadline: Deadline | None = None) -> dict:
    """The spec of a TOML plan file, checked key by key (:func:`checked`).  With ``deadline``
    (the command's), a signal ends the wait for the TOML parser, which cannot be interrupted
    (it takes some 8 s over 64 MiB)."""
    from ..files import read_text

    path = Path(path)
    if not path.exists():
        raise StudyError(f"{path}: no such plan file")
    try:
        text = read_text(path, regular=True, what="plan file")
    except PuzzleError as error:
        raise StudyError(str(error)) from None
    where = str(path)
    document = _parsed(text, where, deadline)
    _known(document, PLAN_KEYS, where)
    if "repeat" in document and "seeds" in document:
        raise StudyError(f"{where}: give repeat or seeds, not both")
    seeds = document.get("seeds")
    if seeds is None:
        repeat = document.get("repeat", 1)
        _number(repeat, f"{where}: repeat", integer=True, most=MOST_SEED)
        variants = document.get("variants")
        named = len(variants) if isinstance(variants, dict) else 1
        _within(1, named, repeat, where, least=True)  # before the seeds are listed
        seeds = list(range(1, int(repeat) + 1))
    spec = {
        "base": str(path.resolve().parent),
        "task": document.get("task", "solve"),
        "seeds": seeds,
        "time_limit": document.get("time_limit"),
        "memory_limit": document.get("memory_limit"),
        "instances": document.get("instances"),
        "variants": document.get("variants", {"default": ""}),
        "file": str(path),
    }
    return checked(spec, where)


def _parsed(text: str, where: str, deadline: Deadline | None) -> dict:
    """The TOML document of a plan file, nested at most :data:`MOST_NESTING` levels.  The
    parser recurses, several frames a level: a deeper file is refused, saying where it goes
    too deep, whether the parser ran out of recursion on it or not."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    found: list[dict] = []
    try:
        if deadline is None:
            found.append(tomllib.loads(text))
        else:
            parse = lambda: found.append(tomllib.loads(text))  # noqa: E731
            uninterruptible(parse, deadline, f"reading {where}")
    except tomllib.TOMLDecodeError as error:
        raise StudyError(f"{where}: {error}") from None
    except RecursionError:
        pass  # deeper than the parser goes: said below
    if not found or _nesting(found[0]) > MOST_NESTING:
        raise StudyError(f"{where}: {_too_deep(text)}")
    return found[0]


def _too_deep(text: str = "") -> str:
    """The message of a plan nested too deeply, with the line and column (from 1) of the
    bracket that opens one level too many in its TOML ``text``, if one does: dotted keys and
    table headers nest without brackets.  (A header's own brackets, counted too, never open
    more levels than the header makes.)"""
    said = f"nested too deeply: at most {MOST_NESTING} levels of arrays and tables"
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MOST_NESTING:
                start = token.start()
                line = text.count("\n", 0, start) + 1
                return f"{said} (at line {line}, column {start - text.rfind(chr(10), 0, start)})"
        elif mark in "]}":
            depth -= 1
    return said


_TOKENS = re.compile(
    r'"""(?:\\[\s\S]|[^\\])*?"""'  # strings, whose brackets are text
    r"|'''[\s\S]*?'''"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"  # comments, likewise
    r"|[\[\]{}]"
)


def _nesting(value: Any) -> int:
    """How many levels of arrays and tables ``value`` holds (a table's own values at 1),
    counted without recursion and no further than one level past :data:`MOST_NESTING`."""
    deepest = 0
    waiting = [(value, 0)] if isinstance(value, (dict, list)) else []
    while waiting and deepest <= MOST_NESTING:
        item, level = waiting.pop()
        deepest = max(deepest, level)
        inside = item.values() if isinstance(item, dict) else item
        waiting.extend((each, level + 1) for each in inside if isinstance(each, (dict, list)))
    return deepest


def _within(instances: int, variants: int, seeds: int, where: str, *, least: bool = False) -> int:
    """The runs of a plan of so many instances, variants and seeds (``least``: at least that
    many instances), refused beyond :data:`MOST_RUNS`: counted before any is listed."""
    runs = instances * variants * seeds
    if runs > MOST_RUNS:
        counts = " x ".join(
            plural(count, word)
            for count, word in ((instances, "instance"), (variants, "variant"), (seeds, "seed"))
        )
        raise StudyError(
            f"{where}: the plan makes {'at least ' * least}{runs} runs ({counts}); a study runs "
            f"at most {MOST_RUNS}: fewer instances, variants or seeds, or several studies"
        )
    return runs


def checked(spec: Any, where: str) -> dict:
    """``spec`` with every key and value checked by kind and range, or a :class:`StudyError`
    naming the first that is wrong: the one check of a plan, whether it comes from a plan file,
    the command line or a study's database (where it may have been edited by hand).  What
    needs the file system (instances, a variant's files) is checked by :func:`resolve`."""
    if not isinstance(spec, dict):
        raise StudyError(f"{where}: expected a table of the plan's keys")
    _known(spec, SPEC_KEYS, where)
    for key in ("base", "task", "seeds", "instances", "variants"):
        if key not in spec:
            raise StudyError(f"{where}: {key} is missing")
    for key in ("base", "file"):
        if key in spec and not isinstance(spec[key], str):
            raise StudyError(f"{where}: {key}: expected a path")
    task = spec["task"]
    if not isinstance(task, str):
        raise StudyError(f"{where}: task: expected a command and its options, as a string")
    task_of(task, where)
    seeds = spec["seeds"]
    if not isinstance(seeds, list) or not seeds:
        raise StudyError(f"{where}: seeds: expected a list of numbers")
    _sized(spec, where)
    for seed in seeds:
        _number(seed, f"{where}: seeds", integer=True, least=0, most=MOST_SEED)
    if len(set(seeds)) != len(seeds):
        raise StudyError(f"{where}: a seed is given twice")
    if spec.get("time_limit") is not None:
        _number(spec["time_limit"], f"{where}: time limit", least=0)
        if spec["time_limit"] <= 0:
            raise StudyError(f"{where}: time limit: expected more than 0 seconds")
    if spec.get("memory_limit") is not None:
        least, most = MEMORY_LIMITS
        memory = spec["memory_limit"]
        _number(memory, f"{where}: memory limit", integer=True, least=least, most=most)
    instances = spec["instances"]
    if not isinstance(instances, list) or not instances:
        raise StudyError(f"{where}: expected [[instances]] with paths or generate")
    generated, held, listed = 0, 0, False
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
            options = generate_options(entry["generate"], f"{place}: generate")
            generated += options.get("count", 1)
            held += options.get("count", 1) * _puzzle_bytes(options)
        listed = listed or "paths" in entry
    variants = spec["variants"]
    if (
        not isinstance(variants, dict)
        or not variants
        or not all(isinstance(v, str) for v in variants.values())
    ):
        raise StudyError(f'{where}: [variants]: expected NAME = "OPTIONS" lines')
    _within(max(1, generated), len(variants), len(seeds), where, least=listed)
    _holds(0, held, where)
    return spec


def _sized(spec: dict, where: str) -> None:
    """Refuse a plan too large from its figures alone, before any of it is walked or built: more
    than :data:`MOST_VARIANTS`, more runs than :data:`MOST_RUNS` (each ``generate`` entry makes
    an instance at least), nested deeper than :data:`MOST_NESTING`."""
    variants, instances = spec["variants"], spec["instances"]
    named = len(variants) if isinstance(variants, dict) else 1
    if named > MOST_VARIANTS:
        raise StudyError(
            f"{where}: {named} variants; a study compares at most {MOST_VARIANTS} "
            "(its report compares each pair)"
        )
    entries = instances if isinstance(instances, list) else []
    made = sum(isinstance(entry, dict) and "generate" in entry for entry in entries)
    _within(max(1, made), named, len(spec["seeds"]), where, least=True)
    if _nesting(spec) > MOST_NESTING:
        raise StudyError(f"{where}: {_too_deep()}")


def _puzzle_bytes(options: dict[str, Any]) -> int:
    """At most what the text of one puzzle of a ``generate`` table takes
    (:data:`GENERATED_BYTES`), from its board: the size asked for, else the islands' own, of at
    most :data:`MAX_CELLS` (a larger one is refused, with its own message, before any is made)."""
    from ..generation import default_size

    islands = options["islands"]
    try:
        rows, cols = parse_size(options["size"]) if "size" in options else default_size(islands)
        rules = Rules(options.get("max_bridges", 2), options.get("no_loops", False))
    except HashiError:
        return 0  # refused when the puzzles are made, with its own message
    cells = min(rows * cols, MAX_CELLS)
    per_cell, per_island = GENERATED_BYTES
    return per_cell * cells if rules.standard else per_island * min(islands, cells)


def _holds(files: int, generated: int, where: str) -> None:
    """Refuse instances of more than :data:`MOST_TEXT` bytes: ``files`` of them read, about
    ``generated`` made."""
    if files + generated > MOST_TEXT:
        mib = lambda size: -(-size // 2**20)  # noqa: E731  (rounded up)
        parts = [f"{mib(files)} MiB of files"] if files else []
        parts += [f"about {mib(generated)} MiB generated"] if generated else []
        raise StudyError(
            f"{where}: the plan's instances take {mib(files + generated)} MiB "
            f"({', '.join(parts)}); a study holds at most {MOST_TEXT // 2**20} MiB of them: "
            "fewer or smaller instances, or several studies"
        )


def generate_options(table: Any, where: str) -> dict[str, Any]:
    """The options of a ``generate`` table, each checked by the declaration of ``hashi-asp
    generate``'s option of that name (its kind and range), as Python values."""
    from ..commands.declaration import OptionError
    from ..commands.generate import COMMAND as GENERATE

    if not isinstance(table, dict):
        raise StudyError(f"{where}: expected a table")
    _known(table, GENERATE_KEYS, where)
    if "islands" not in table:
        raise StudyError(f"{where}: islands is required")
    options = {}
    for key, value in table.items():
        option = GENERATE.option(key.replace("_", "-"))
        shown = json.dumps(value, default=str)[:40]  # as JSON, or a TOML date as written
        wrong = f"{where}: {key}: expected {option.expected()}, got {shown}"
        if not isinstance(value, (bool, int, float, str)):  # a TOML date, list or table
            raise StudyError(wrong)
        try:
            options[key] = option.from_json(value)
        except OptionError:
            raise StudyError(wrong) from None
    return options


def _known(table: dict, keys: set[str], where: str) -> None:
    for key in table:
        if key not in keys:
            raise StudyError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(keys))})")


def _number(
    value: Any, where: str, *, integer: bool = False, least: float = 1, most: float | None = None
) -> float:
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value):
        raise StudyError(f"{where}: expected {'an integer' if integer else 'a number'}")
    if value < least:
        raise StudyError(f"{where}: expected at least {least}, got {value}")
    if most is not None and value > most:
        raise StudyError(f"{where}: expected at most {most}, got {value}")
    return value


# ---------------------------------------------------------------------------- resolving


def resolve(
    spec: dict,
    *,
    where: str | None = None,
    deadline: Deadline | None = None,
    note: Callable[[str], None] | None = None,
) -> Plan:
    """The plan of ``spec``, every value checked (:func:`checked`; ``where`` names the spec in
    messages, by default its plan file): instances read or generated, variants parsed.  The
    instances' files are listed and the plan's figures checked before any is read or made;
    ``note`` hears of puzzles about to be generated.  When ``deadline`` (the command's) is
    stopped (a signal), the reading and the making stop there (:class:`Stopped`)."""
    if where is None:
        file = spec.get("file") if isinstance(spec, dict) else None
        where = file if isinstance(file, str) else "study"
    spec = checked(spec, where)
    deadline = Deadline.of(deadline)
    task, _ = task_of(spec["task"], where)
    base = Path(spec["base"])
    variants = [parse(name, options, base) for name, options in spec["variants"].items()]
    for variant in variants:
        _suits(variant, task, where)
    reads = [(spec["file"], f"{spec['file']} (the plan)")] if "file" in spec else []
    entries = spec["instances"]
    listed = [puzzle_files(entry["paths"], base) if "paths" in entry else [] for entry in entries]
    requests = [
        generate_options(entry["generate"], f"{where}: generate")
        for entry in entries
        if "generate" in entry
    ]
    making = sum(options.get("count", 1) for options in requests)
    names = dict.fromkeys(name for found in listed for name in found)
    _within(max(1, len(names) + making), len(variants), len(spec["seeds"]), where)
    made = sum(options.get("count", 1) * _puzzle_bytes(options) for options in requests)
    _holds(_sizes(names, base, deadline), made, where)
    if making and note is not None:
        note(f"hashi-asp: {where}: generating {plural(making, 'puzzle')}\n")
    instances: dict[str, Instance] = {}
    for entry, names_found in zip(entries, listed):
        if "paths" in entry:
            reading = deadline.looking(names_found, "reading the plan's instances", every=16)
            found = [Instance(name, _read(base, name)) for name in reading]
            reads += [(str(base / name), f"{name} (an instance)") for name in names_found]
        else:
            found = generated(entry["generate"], where, deadline)
        for instance in found:
            instances.setdefault(instance.name, instance)
    if not instances:
        raise StudyError(f"{where}: no instances found")
    for variant in variants:
        reads += [(path, f"{path} (variant {variant.name})") for path, _ in variant.places]
    seeds = tuple(int(seed) for seed in spec["seeds"])
    limits = spec.get("time_limit"), spec.get("memory_limit")
    plan = spec["task"]
    return Plan(list(instances.values()), variants, plan, seeds, *limits, spec, tuple(reads))


GIVEN_BY_THE_PLAN = {"time_limit", "format", "notation", *(o.key for o in (*RULES, *PROGRAM))}
"""What a task's options may not say: its plan gives each run the puzzle, the variant's rules
and program, and the time limit; the row keeps the JSON document's figures."""


def task_of(text: str, where: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A study's task, ``text``: a command that gives a verdict and the options of its own each
    run gives it, as the command line takes them (``unique --no-propose``, ``steps -n 1``; all
    but :data:`GIVEN_BY_THE_PLAN`, and those that name files): its name, and the values of the
    options it gives, by their Python names."""
    from ..commands import click_options, declaration

    name, _, rest = text.strip().partition(" ")
    if name not in commands.TASKS:
        raise StudyError(
            f"{where}: task {text[:40]!r}: expected one of {', '.join(commands.TASKS)}, "
            "with options of its own"
        )
    if not rest.strip():
        return name, ()
    own = [
        option
        for option in commands.command(name).options
        if option.key not in GIVEN_BY_THE_PLAN
        and option.kind not in (*declaration.NAMING_FILES, declaration.PUZZLE, declaration.BRIDGES)
        and not option.argument
    ]
    try:
        values = click_options.parse(own, rest, f"task {name}")
    except HashiError as error:
        raise StudyError(f"{where}: {error}") from None
    given = {option.key: values[option.key] for option in own}
    return name, tuple(
        (key, value)
        for key, value in sorted(given.items())
        if value != next(o.default for o in own if o.key == key)
    )


RUN_OPTIONS = ("--models=0", "--project=show", "--seed=1")
"""clingo options a run sets itself: the answers its task asks for, how they are counted, and
the study's seed.  A variant giving one of them (by any of clingo's names for it) would make
every run an error (clingo: "multiple occurrences")."""

_TWICE = re.compile(r"multiple occurrences: '([\w-]+)'")


def _suits(variant: Variant, task: str, where: str) -> None:
    """A variant's options must be the task's command's own, and leave clingo's options that a
    run sets itself to the run: clingo judges them beside the run's own."""
    declared = {option.name for option in commands.command(task).options}
    rules = [option.name for option in RULES if option.name in declared]
    if variant.rules and len(rules) < len(RULES):
        raise StudyError(f"{where}: variant {variant.name}: the {task} task takes no rules")
    if variant.program != Program() and not {option.name for option in PROGRAM} <= declared:
        takes = f"only {', '.join(f'--{name}' for name in rules)}" if rules else "none"
        raise StudyError(
            f"{where}: variant {variant.name}: the {task} task takes no program options ({takes})"
        )
    from ..asp import portfolio
    from ..asp.control import judge_options, judge_program

    program = variant.program  # and each variant a race runs, as the race gives it options
    searches = [program.options, *(portfolio.variant(program, v).options for v in program.variants)]
    try:
        judge_program(program)
        for options in searches:
            judge_options([*RUN_OPTIONS, *options])
    except HashiError as error:
        twice = _TWICE.search(str(error))
        if twice is None or f"--{twice[1]}" not in {own.split("=")[0] for own in RUN_OPTIONS}:
            raise StudyError(f"{where}: variant {variant.name}: {error}") from None
        if twice[1] == "seed":
            raise StudyError(
                f"{where}: variant {variant.name}: --seed is the study's "
                "(repeat, or seeds in a plan)"
            ) from None
        raise StudyError(
            f"{where}: variant {variant.name}: clingo's --{twice[1]} is set by each run "
            "(its task decides it): leave it out of the variant's options"
        ) from None


def _sizes(names: Iterable[str], base: Path, deadline: Deadline) -> int:
    """The bytes the files ``names`` (relative to ``base``) take, looked at without reading
    them (one that cannot be looked at is refused when it is read)."""
    total = 0
    for name in deadline.looking(names, "looking at the plan's instances"):
        with contextlib.suppress(OSError, ValueError):
            total += os.stat(base / name).st_size
    return total


def _read(base: Path, name: str) -> str:
    """An instance's text: a regular file (read again whenever the study is), within the size
    limit of every reader; named in messages as given."""
    from ..files import read_text

    try:
        return read_text(base / name, regular=True)
    except PuzzleError as error:
        raise PuzzleError(error.message, name, error.line, error.column) from None


def generated(request: dict, where: str, deadline: Deadline | None = None) -> list[Instance]:
    """The instances a ``generate`` entry makes: as ``hashi-asp generate`` with those options
    (puzzle i from seed + i), named ``generated/`` and the file name it gives.  A stop of
    ``deadline`` (a signal) stops the making, within a puzzle: :class:`Stopped`."""
    from .. import generation

    options = generate_options(request, f"{where}: generate")
    rules = Rules(options.pop("max_bridges", 2), options.pop("no_loops", False))
    islands, count = options.pop("islands"), options.pop("count", 1)
    notation = "has" if rules.standard else "json"
    deadline = Deadline.of(deadline)
    try:
        _, made = generation.batch(
            islands, count, notation=notation, rules=rules, time_limit=deadline, **options
        )
        making = deadline.looking(made, "generating the plan's instances", every=1)
        return [Instance(f"generated/{name}", text) for name, _, text in making]
    except Stopped:
        raise
    except HashiError as error:
        raise StudyError(f"{where}: generate: {error}") from None
