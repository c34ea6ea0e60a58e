"""Hostile input for every reader: valid puzzles and solutions in every notation, mutated.

Shared by tests/test_fuzz.py (a fixed budget of derandomised hypothesis examples) and
benchmarks/fuzz.py (a long run with a time budget).  A mutation is driven by a ``random.Random``,
so that hypothesis (``st.randoms()``, whose draws it can shrink) and a plain seeded ``Random``
drive the same code.

Each entry point takes bytes and returns a failure (a one-line description) or None.  A clean
refusal is a :class:`HashiError` from the library, and through the command line an exit code
of 2 with one line on standard error and no traceback; anything else is a failure.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from hashi_asp import Puzzle, Solution, bridge, notations
from hashi_asp.cli import main
from hashi_asp.errors import HashiError
from hashi_asp.files import decode
from hashi_asp.notations import puzzlink, tatham
from hashi_asp.notations.lexing import Problem

REPO = Path(__file__).resolve().parent.parent
PROLOG = REPO / "puzzles" / "prolog-5x5.txt"

# ---------------------------------------------------------------------------- seeds

# The Prolog report's 5x5, one of its solutions, and a Tatham puzzle under its own rules.
_PUZZLE = Puzzle(
    5, 5, {(0, 0): 2, (0, 2): 1, (2, 0): 4, (2, 2): 3, (2, 4): 1, (4, 0): 3, (4, 4): 2}
)
_SOLUTION = Solution.of(
    [
        bridge((0, 0), (0, 2), 1),
        bridge((0, 0), (2, 0), 1),
        bridge((2, 0), (2, 2), 2),
        bridge((2, 0), (4, 0), 1),
        bridge((2, 2), (2, 4), 1),
        bridge((4, 0), (4, 4), 2),
    ]
)
_TATHAM = "7x7m2L:3a3a3a2a1g1e3b4a2g2a1a2c3d2"


def puzzle_seeds() -> list[str]:
    """The puzzle in every notation that can hold it, and a few more shapes readers accept."""
    seeds = [
        notations.write(_PUZZLE, notation)
        for notation, kind in notations.NOTATIONS.items()
        if notation != "tatham" and not kind.readonly  # (a picture is read, never written)
    ]
    seeds += [
        _TATHAM,
        _TATHAM.replace("m2L", "m3"),
        PROLOG.read_text(),
        json.dumps([[[c, -r], n] for (r, c), n in _PUZZLE.islands.items()]),
        json.dumps({"puzzle": _PUZZLE.to_json(), "solutions": []}),
        "2 ? 1\n. . .\n1 . 2\n",
        "https://pzv.jp/p.html?hashikake/5/5/2g1i..h4g3g1i3i2",
    ]
    return seeds


def solution_seeds() -> list[str]:
    bridges = [list(b) for b in _SOLUTION.bridges]
    return [
        json.dumps({"bridges": bridges}),
        json.dumps(bridges),
        json.dumps({"solutions": [{"bridges": bridges}, {"bridges": []}]}),
        puzzlink.format_pzprv3(_PUZZLE, _SOLUTION),
    ]


# ---------------------------------------------------------------------------- mutations

# Pieces that mean something to some reader, or break something in one.
TOKENS = [
    "\0",
    "\n",
    "\r",
    "\r\n",
    "\t",
    " ",
    "/",
    "?",
    "-",
    "+",
    "=",
    "%",
    "*",
    "$",
    ":",
    "#",
    "x",
    "m",
    "L",
    "i",
    "e",
    "d",
    "g",
    "z",
    "A",
    "G",
    ".",
    "0",
    "1",
    "9",
    "-1",
    "[",
    "]",
    "{",
    "}",
    '"',
    ",",
    "null",
    "true",
    "NaN",
    "1e999",
    "-0",
    "0x1f",
    "²",
    "٣",
    "Ⅻ",
    "\u2028",
    "\x85",
    "\ufeff",
    "\x0b",
    "é",
    "\U0001f309",
    "pzprv3",
    "hashikake",
    "bridges",
    "https://puzz.link/p?",
    '"islands"',
    '"rows"',
    '"max_bridges"',
    '"bridges"',
]
NUMBERS = [
    "0",
    "-1",
    "-99999999999999999999",
    "99999999999999999999",
    "9" * 5000,
    "100000000",
    "10000",
    "3163",
    "3162",
    "65",
    "64",
    "17",
    "16",
    "2147483648",
    "٣",
    "007",
    "+3",
    "1.5",
    "1e3",
]


def mutated(rng: random.Random, text: str) -> str:
    """``text`` after one to four random edits."""
    for _ in range(rng.randint(1, 4)):
        text = rng.choice(_EDITS)(rng, text)
    return text


def _cut(rng, text):  # a truncated file
    return text[: rng.randint(0, len(text))]


def _insert(rng, text):
    i = rng.randint(0, len(text))
    return text[:i] + rng.choice(TOKENS) + text[i:]


def _delete(rng, text):
    i = rng.randint(0, len(text))
    return text[:i] + text[i + rng.randint(1, 8) :]


def _repeat(rng, text):  # long lines, surplus rows, deep nesting
    i, j = sorted((rng.randint(0, len(text)), rng.randint(0, len(text))))
    times = rng.choice([2, 3, 10, 100, 1000])
    if (j - i) * times > MAX_GROWTH:  # keep inputs of a size a test can afford
        return text
    return text[:j] + text[i:j] * times + text[j:]


MAX_GROWTH = 200_000


def _replace_character(rng, text):
    if not text:
        return text
    i = rng.randrange(len(text))
    new = chr(rng.randrange(0x110000)) if rng.random() < 0.3 else chr(rng.randrange(128))
    return text[:i] + new + text[i + 1 :]


def _replace_number(rng, text):  # huge, negative, zero, non-ASCII digits
    numbers = list(re.finditer(r"\d+", text))
    if not numbers:
        return text
    m = rng.choice(numbers)
    return text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]


def _line_ends(rng, text):
    return text.replace("\n", rng.choice(["\r\n", "\r", "/", "\n\n", " ", "", "\u2028"]))


def _noise(rng, text):  # random characters, inside or instead
    noise = "".join(chr(rng.randrange(256)) for _ in range(rng.randint(0, 40)))
    return noise if rng.random() < 0.3 else text + noise


_EDITS: list[Callable[[random.Random, str], str]] = [
    _cut,
    _insert,
    _delete,
    _repeat,
    _replace_character,
    _replace_number,
    _line_ends,
    _noise,
]


def encoded(rng: random.Random, text: str) -> bytes:
    """``text`` as bytes: mostly UTF-8, sometimes UTF-16, Latin-1, with a BOM, or random bytes."""
    choice = rng.random()
    if choice < 0.08:
        return text.encode(rng.choice(["utf-16", "utf-16-le", "utf-16-be"]), "surrogatepass")
    if choice < 0.16:
        return text.encode("latin-1", "replace")
    if choice < 0.2:
        return b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    if choice < 0.25:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    return text.encode("utf-8", "surrogatepass")


def hostile(rng: random.Random, seeds: list[str]) -> bytes:
    return encoded(rng, mutated(rng, rng.choice(seeds)))


# ---------------------------------------------------------------------------- entry points


def _library(call: Callable[[], object]) -> str | None:
    try:
        call()
    except HashiError:
        return None
    except Exception as error:  # anything else is a bug
        return _describe(error)
    return None


def parse_bytes(data: bytes) -> str | None:
    """Bytes as a file's content: decoded, the notation detected, parsed (and under every
    notation named explicitly, as --notation does)."""

    def call():
        text = decode(data, "fuzz")
        for notation in (None, *notations.NOTATIONS):
            with contextlib.suppress(HashiError):
                notations.parse(text, notation=notation, source="fuzz")

    return _library(call)


def read_argument(data: bytes) -> str | None:
    """Bytes as the PUZZLE argument itself (text, URL, game ID), as the command line reads it."""
    text = data.decode("utf-8", "replace").replace("\0", "")
    return _library(lambda: notations.read(text))


def read_file(data: bytes) -> str | None:
    """Bytes as a file, read by path (with and without the extensions that pick a notation)."""

    def call():
        with tempfile.TemporaryDirectory() as folder:
            for name in ("puzzle.txt", "puzzle.has", "puzzle.json"):
                path = Path(folder) / name
                path.write_bytes(data)
                with contextlib.suppress(HashiError):
                    notations.read(path)

    return _library(call)


def parse_solution_bytes(data: bytes) -> str | None:
    def call():
        notations.parse_solutions(decode(data, "fuzz"), "fuzz")

    return _library(call)


def validators(data: bytes) -> str | None:
    """The validation functions answer None or a problem, and never raise."""
    text = data.decode("utf-8", "replace")
    try:
        for validate in (puzzlink.validate_url, puzzlink.validate_pzprv3, tatham.validate_game_id):
            problem = validate(text)
            if problem is not None and not (
                isinstance(problem, Problem) and isinstance(problem.message, str)
            ):
                return f"{validate.__name__} returned {problem!r}"
    except Exception as error:
        return _describe(error)
    return None


def command(args: list[str]) -> Callable[[bytes], str | None]:
    """The command line with the bytes on standard input: exit 0, 1 or 2; no traceback; an exit
    of 2 is one line on standard error."""

    def run(data: bytes) -> str | None:
        result = CliRunner().invoke(main, args, input=data)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            return _describe(result.exception)
        if result.exit_code not in (0, 1, 2):
            return f"{' '.join(args)}: exit code {result.exit_code}: {result.stderr[:200]!r}"
        if "Traceback" in result.stderr or (
            result.exit_code == 2 and result.stderr.count("\n") != 1
        ):
            return f"{' '.join(args)}: stderr is not one line: {result.stderr[:300]!r}"
        return None

    return run


# name -> (seeds the inputs are made from, the entry point)
ENTRY_POINTS: dict[str, tuple[Callable[[], list[str]], Callable[[bytes], str | None]]] = {
    "parse": (puzzle_seeds, parse_bytes),
    "read argument": (puzzle_seeds, read_argument),
    "read file": (puzzle_seeds, read_file),
    "solutions": (solution_seeds, parse_solution_bytes),
    "validators": (puzzle_seeds, validators),
    "cli facts": (puzzle_seeds, command(["facts", "-"])),
    "cli convert": (puzzle_seeds, command(["convert", "-", "--to", "json"])),
    "cli check": (solution_seeds, command(["check", str(PROLOG), "-"])),
    "cli render": (solution_seeds, command(["render", str(PROLOG), "-"])),
}


def _describe(error: BaseException) -> str:
    """The exception and where it was raised: what tells two failures apart."""
    frame = traceback.extract_tb(error.__traceback__)[-1]
    return (
        f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno}: {str(error)[:200]}"
    )
