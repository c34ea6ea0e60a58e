"""Hostile input: every reader and the commands that read, on mutated puzzles and solutions,
random bytes, foreign encodings, huge sizes and odd paths.  Nothing but a clean refusal may
come out: a HashiError from the library, exit 2 with one line on stderr from the command line.

The fuzz runs here have a fixed budget and derandomised hypothesis, so they do not flake; the
long run is `python benchmarks/fuzz.py --seconds 600` (see the README).
"""

import dataclasses
import os
import re
import subprocess
import sys
import tracemalloc

import fuzzing
import processes
import pytest
from conftest import PROGRAMS, PROLOG, loose_encoding
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hashi_asp import notations, read
from hashi_asp.errors import HashiError, PuzzleError
from hashi_asp.files import MAX_FILE_BYTES, decode
from hashi_asp.notations import has, parse, read_solutions, tatham
from hashi_asp.puzzle import MAX_CELLS

EXAMPLES = {
    "parse": 400,
    "read argument": 400,
    "read file": 150,
    "solutions": 400,
    "validators": 400,
    "cli facts": 200,
    "cli convert": 200,
    "cli check": 200,
    "cli render": 200,
}


@pytest.mark.parametrize("name", fuzzing.ENTRY_POINTS)
def test_hostile_input_is_refused_cleanly(name):
    seeds, run = fuzzing.ENTRY_POINTS[name]
    pool = seeds()

    @given(st.randoms(use_true_random=False))
    @settings(
        max_examples=EXAMPLES[name],
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(rng):
        data = fuzzing.hostile(rng, pool)
        assert run(data) is None, data[:300]

    check()


def test_the_fuzzer_finds_a_crash_when_there_is_one(monkeypatch):
    """The oracle is not blind: a reader that raises something else than HashiError fails."""

    def broken(text, source="x", max_number=None):
        raise ValueError("planted")

    grid = dataclasses.replace(notations.NOTATIONS["grid"], parse=broken)
    monkeypatch.setitem(notations.NOTATIONS, "grid", grid)
    assert "ValueError" in fuzzing.parse_bytes(b"2.1\n")
    assert "ValueError" in fuzzing.command(["facts", "-"])(b"2.1\n")


# ---------------------------------------------------------------------------- sizes

# A 10^8-cell grid in every notation that states its size, with almost nothing else.
HUGE = [
    ("has", "10000 10000 1\n1 0\n"),
    ("grid", "10000 10000\n1.\n"),
    ("json", '{"rows": 10000, "cols": 10000, "islands": [[0, 0, 1]]}'),
    ("json", '{"islands": [[0, 0, 1], [9999, 9999, 1]]}'),
    ("puzzlink", "https://puzz.link/p?hashikake/10000/10000/1"),
    ("pzprv3", "pzprv3\nhashikake\n10000\n10000\n1 .\n"),
    ("tatham", "10000x10000:1a1"),
]


@pytest.mark.parametrize("notation, text", HUGE)
def test_a_huge_grid_is_refused_before_anything_is_allocated(notation, text):
    tracemalloc.start()
    try:
        with pytest.raises(PuzzleError, match=f"exceeds the limit of {MAX_CELLS} cells"):
            parse(text, notation=notation)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # bytes: nothing of the grid's size


@pytest.mark.parametrize(
    "text, message",
    [
        ("-3 5 2\n1 0 0 0 1\n", "rows and columns must be positive"),
        ("3 -5 2\n", "rows and columns must be positive"),
        ("hashikake/5/-5/g", "ROWS: expected a positive integer"),
        ("pzprv3\nhashikake\n-5\n5\n", "ROWS: expected a positive integer"),
        ('{"rows": -1, "islands": [[0, 0, 1]]}', "'rows' must be a positive integer"),
        ('{"islands": [[-1, 0, 1]]}', "row -1 outside the grid"),
        ("3 3 1\n" + "9" * 5000 + " 0 0\n0 0 0\n0 0 0\n", "is too large"),
        ("1 " + "9" * 5000 + " 1\n1\n", "is too large"),
        ("hashikake/" + "9" * 5000 + "/5/g", "is too large: a grid has at most"),
        ("9" * 5000 + "x3:a", "exceeds the limit"),
        ('{"rows": 1' + "0" * 5000 + ', "islands": [[0, 0, 1]]}', "invalid JSON"),
        (
            '{"max_bridges": 1000000000, "islands": [[0, 0, 1]]}',
            "'max_bridges' must be an integer from 1 to 64",
        ),
        ("hashikake/5/²/g", "ROWS: expected a positive integer"),
        ("pzprv3\nhashikake\n1\n2\n1 ²\n", "unexpected cell '²'"),
        ("[" * 100_000, "invalid JSON"),
    ],
)
def test_huge_negative_and_strange_numbers(text, message):
    notation = "has" if text[0] in "-3" else None
    with pytest.raises(PuzzleError, match=re.escape(message)):
        parse(text, notation=notation)


def test_a_row_of_a_million_values_costs_no_memory():
    tracemalloc.start()
    try:
        for text in (
            "3 3 1\n" + "0 " * 1_000_000 + "\n",
            "1 . 1\n" + ". " * 1_000_000 + "\n",
            "pzprv3\nhashikake\n1\n3\n" + "1 " * 1_000_000 + "\n",
        ):
            with pytest.raises(PuzzleError, match=r"has 1000000 (values|cells)"):
                parse(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # the text itself is 2 MB; a list of its tokens is 100 MB


def test_an_error_keeps_none_of_the_readers_frames_alive():
    # Each frame holds copies of the text (up to 64 MiB) for as long as the error lives.
    for text in ("3 3 1\n0 0 x\n", "1 . x\n", "pzprv3\nhashikake\n1\n3\nx . .\n", "3x3:a1b"):
        with pytest.raises(PuzzleError) as info:
            parse(text)
        assert info.value.__context__ is None, text
    for validate, text in ((has.validate, "3 3 1\n0 0 x\n"), (tatham.validate_game_id, "3x3:")):
        problem = validate(text)
        assert problem is not None and problem.__traceback__ is None, text


# ---------------------------------------------------------------------------- files and paths


def test_found_by_the_long_fuzz_run():
    """benchmarks/fuzz.py --minutes 25 --seed 2026 found these two; both were crashes."""
    # A repeated key: refused where it repeats (json.loads would keep the last one).
    repeated = (
        '{"islands": 5, "islands": 5, "rows": 5, "cols": 5,\n "islands": [[0, 0, 2], [0, 2, -1]]}'
    )
    where = '<string>:1:16: invalid JSON: duplicate key "islands" (first at line 1, column 2)'
    with pytest.raises(PuzzleError, match=re.escape(where)):
        parse(repeated, source="<string>")
    # A coordinate too large for a float is still a coordinate (only distinct values count).
    far = "[[[0, 0], 1], [[0, -" + "2" * 400 + "], 1]]"
    puzzle = parse(far)
    assert (puzzle.rows, puzzle.cols, sorted(puzzle.islands.values())) == (2, 1, [1, 1])


def test_odd_paths_are_one_line_errors(tmp_path):
    fifo_free = [
        (tmp_path, "is a directory"),
        (tmp_path / "missing.has", "no such file"),
        (str(tmp_path / "x") + "\0y", "NUL character"),
        ("a" * 5000, "File name too long"),
    ]
    for path, message in fifo_free:
        with pytest.raises(PuzzleError, match=message):
            read(path)
    unreadable = tmp_path / "locked.txt"
    unreadable.write_text("2.1\n")
    unreadable.chmod(0)
    if not os.access(unreadable, os.R_OK):  # root reads anything
        with pytest.raises(PuzzleError, match="Permission denied"):
            read(unreadable)
    with pytest.raises(PuzzleError, match="is a directory"):
        read_solutions(str(tmp_path))


def test_a_file_over_the_size_limit_is_refused_without_reading_it(tmp_path):
    sparse = tmp_path / "sparse.txt"
    with open(sparse, "wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)  # no disk space used
    with pytest.raises(PuzzleError, match="the limit is"):
        read(sparse)


@pytest.mark.parametrize(
    "args",
    [
        ["facts", "/dev/zero"],
        ["facts", "-"],
        ["check", str(PROLOG), "-"],
        ["hint", str(PROLOG), "--given", "-"],
    ],
)
def test_endless_input_stops_at_the_size_limit(args):
    """/dev/zero on a path or on standard input: one line and exit 2, not a read without end."""
    with open("/dev/zero", "rb") as zeros:
        completed = processes.run(*args, stdin=zeros)
    assert completed.returncode == 2
    assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
    assert "limit" in completed.stderr or "NUL" in completed.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ("2.1\n1.2\n".encode("utf-16"), "UTF-16"),
        ("2.1\né.2\n".encode("latin-1"), "not UTF-8 text (byte 0xe9)"),
        (b"2.1\n\x00.2\n", "NUL byte"),
        (b"", "empty input"),
        (b"5 5 7\n 2 0 1", "row 1 has 3 values; the header says 5 columns"),
        (b"5 5 7\n 2 0 1 0 0\n", "header says 5 rows but the grid has 1"),
    ],
)
def test_foreign_encodings_and_truncated_files_through_the_cli(tmp_path, content, message):
    path = tmp_path / "bad.has"
    path.write_bytes(content)
    completed = processes.run("solve", path)
    assert completed.returncode == 2
    assert completed.stderr.startswith(f"hashi-asp: {path}") and message in completed.stderr
    assert completed.stderr.count("\n") == 1


def test_long_lines_are_read_in_linear_time():
    """Lines that made the URL and game ID detection backtrack quadratically (100 000 digits
    took minutes); a hang here ends in the timeout."""
    code = (
        "from hashi_asp import notations\n"
        "for text in ['1' * 300_000, '1x1' + 'a' * 300_000 + '!', 'a.b/' + '?' * 300_000 + ' z',\n"
        "             'hashikake/' + '9' * 300_000, '1:' + '1' * 300_000]:\n"
        "    try:\n"
        "        notations.read(text)\n"
        "    except notations.PuzzleError:\n"
        "        pass\n"
        "    notations.detect(text)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_file_name_that_is_not_text_does_not_reach_clingo(tmp_path):
    odd = tmp_path / os.fsdecode(b"odd\xffname.txt")
    odd.write_text(PROLOG.read_text())
    completed = subprocess.run(
        [processes.script(), "solve", str(odd)], capture_output=True, timeout=120
    )
    assert completed.returncode == 0 and b"Traceback" not in completed.stderr


# ---------------------------------------------------------------------------- rules files


@pytest.mark.parametrize(
    "program, message",
    [
        ("syntax_error.lp", "bad.lp:1:"),
        ("unsafe.lp", "bad.lp:1:1-11: error: unsafe variables"),
        ("latin1.lp", "bad.lp:2:8: not UTF-8 text (byte 0xe9)"),
        ("utf16.lp", "bad.lp:1:1: not UTF-8 text (byte 0xff)"),
        ("include_missing.lp", "file could not be opened: missing.lp"),
    ],
)
def test_rules_that_do_not_load_are_clingos_message_with_file_and_line(tmp_path, program, message):
    bad = tmp_path / "bad.lp"
    bad.write_bytes((PROGRAMS / program).read_bytes())
    runs = [("solve", "--add"), ("solve", "--encoding")]
    if program == "syntax_error.lp":  # every command that grounds, once
        runs += [("unique", "--add"), ("count", "--encoding"), ("hint", "--add")]
    for command, option in runs:
        completed = processes.run(command, PROLOG, option, bad, cwd=tmp_path)
        assert completed.returncode == 2, completed.stderr
        assert message in completed.stderr and completed.stderr.count("\n") == 1


def test_included_rules_that_are_not_utf8_are_refused():
    completed = processes.run("solve", PROLOG, "--add", PROGRAMS / "includes_latin1.lp")
    assert completed.returncode == 2
    assert "latin1.lp:2:8: not UTF-8 text" in completed.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--add", "/dev/zero"], "/dev/zero: not a regular file"),
        (["-c", "foo=bar("], "-c foo=bar(: not a clingo term"),
        (["-c", "max_bridges=99999999999999999999"], "max_bridges must be 1..64"),
        (["-c", "max_bridges=65"], "max_bridges must be 1..64"),
        (["--max-bridges", "65"], "65 is not in the range 1<=x<=64"),
    ],
)
def test_constants_and_odd_rules_files(args, message):
    completed = processes.run("solve", PROLOG, *args)
    assert completed.returncode == 2 and message in completed.stderr
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize("command", [["solve", "-n", "0"], ["unique"], ["count"]])
@pytest.mark.parametrize("option", ["--encoding", "--add"])
def test_answers_that_break_the_rules_are_flagged_by_the_checker(tmp_path, command, option):
    """An encoding (or added rules that weaken it) admitting answers that break the rules: the
    checker stops the command with exit 5 before any such answer is shown."""
    if option == "--encoding":
        rules = loose_encoding(tmp_path)
    else:  # a rule that lets a bridge count be anything
        rules = PROGRAMS / "triple.lp"
    completed = processes.run(*command, "-", option, rules, input="22\n22\n")
    assert completed.returncode == 5, completed.stderr
    assert re.match(r"hashi-asp: encoding error: answer \d+ breaks the rules: ", completed.stderr)
    assert completed.stderr.count("\n") == 1 and "=" not in completed.stdout  # never drawn


def test_library_readers_raise_only_hashi_errors_on_bytes_that_are_not_text():
    for data in (b"\xff\xfe\x00", b"\x80abc", "2.1\n".encode("utf-16-be")):
        with pytest.raises(HashiError):
            notations.parse(decode(data, "x"))
