"""The command line, through click's CliRunner and once as the installed script."""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import PROGRAMS, PUZZLES, REPO, loose_encoding, run

from hashi_asp import check, read, read_solutions

PROLOG = str(PUZZLES / "prolog-5x5.txt")
NYT = str(PUZZLES / "nyt-2022-04-03.json")
MANY = str(PUZZLES / "coelho" / "Hs_16_100_50_10_001.has")  # about 20 000 solutions


# ---------------------------------------------------------------------------- solve

# The two solutions of the Prolog report's 5x5, drawn.
PROLOG_DRAWINGS = {
    "2---1 . .\n| . . . .\n4===3---1\n| . . . .\n3=======2",
    '2 . 1 . .\n" . | . .\n4---3---1\n| . . . .\n3=======2',
}


def test_solve_draws_the_first_solution():
    result = run("solve", PROLOG)
    assert result.exit_code == 0
    drawing, closing = result.stdout.strip().split("\n\n")
    assert drawing in PROLOG_DRAWINGS  # which one comes first is the solver's choice
    assert closing == "solved: 1 solution; stopped after 1 as asked (-n 0 finds all)"


def test_solve_all_numbers_the_solutions_and_closes_with_the_verdict():
    result = run("solve", PROLOG, "-n", "0", "--format", "unicode")
    assert result.exit_code == 0
    assert "Solution 1:\n" in result.stdout and "Solution 2:\n" in result.stdout
    assert "\n2───1 · ·\n│ · · · ·\n4═══3───1\n" in result.stdout
    assert "\n2 · 1 · ·\n║ · │ · ·\n4───3───1\n" in result.stdout
    assert result.stdout.strip().endswith("multiple: 2 solutions; search exhausted")


def test_solve_json_schema():
    result = run("solve", PROLOG, "-n", "0", "--format", "json", "--stats")
    document = json.loads(result.stdout)
    assert (document["status"], document["exhausted"], document["count"]) == ("multiple", True, 2)
    assert document["puzzle"]["rows"] == 5 and len(document["puzzle"]["islands"]) == 7
    assert set(document["stats"]) >= {"choices", "conflicts", "ground_seconds", "solve_seconds"}
    for entry in document["solutions"]:
        for r1, c1, r2, c2, k in entry["bridges"]:
            assert (r1, c1) < (r2, c2) and (r1 == r2 or c1 == c2) and k in (1, 2)
    # The output is itself a valid puzzle file and solution file.
    puzzle = read(result.stdout)
    assert all(check(puzzle, s) == [] for s in read_solutions(result.stdout))


def test_solve_json_unique_with_n_2():
    document = json.loads(run("solve", NYT, "-n", "2", "--format", "json").stdout)
    assert (document["status"], document["count"], document["exhausted"]) == ("unique", 1, True)


def test_solve_facts_output_is_loadable_asp():
    result = run("solve", PROLOG, "--format", "facts")
    lines = result.stdout.splitlines()
    assert lines[0] == "% solution 1"
    assert set(lines[1].split()) in (
        {
            "bridge(0,0,0,2,1).",
            "bridge(0,0,2,0,1).",
            "bridge(2,0,2,2,2).",
            "bridge(2,0,4,0,1).",
            "bridge(2,2,2,4,1).",
            "bridge(4,0,4,4,2).",
        },
        {
            "bridge(0,0,2,0,2).",
            "bridge(0,2,2,2,1).",
            "bridge(2,0,2,2,1).",
            "bridge(2,0,4,0,1).",
            "bridge(2,2,2,4,1).",
            "bridge(4,0,4,4,2).",
        },
    )
    assert lines[-1].startswith("% solved: 1 solution")


def test_solve_reads_stdin():
    result = run("solve", "-", input="1 3 2\n1 0 1\n")
    assert result.exit_code == 0 and result.stdout.startswith("1---1\n")


def test_solve_reads_the_puzzle_text_as_an_argument():
    result = run("solve", "2.2\n...\n2.2\n")
    assert result.exit_code == 0 and "2---2" in result.stdout


def test_unsolvable_exits_1():
    result = run("solve", "-", input="1.2\n")
    assert result.exit_code == 1
    assert result.stdout.startswith("Why there is no solution:\n")  # see test_reasoning.py
    assert result.stdout.strip().splitlines()[-1] == "unsolvable: no solution; search exhausted"


def test_time_limit_exits_3_and_prints_what_it_found():
    result = run("solve", MANY, "-n", "0", "--time-limit", "0.3", "--format", "json")
    assert result.exit_code == 3
    document = json.loads(result.stdout)
    assert document["timed_out"] and not document["exhausted"] and document["count"] >= 1


def test_max_bridges_option_and_constant():
    assert run("solve", "-", input="3 3\n").exit_code == 1
    # A triple bridge is drawn as such (see the legend of the drawing).
    assert run("solve", "-", "--max-bridges", "3", input="3 3\n").stdout.startswith("3#3\n")
    assert run("solve", "-", "-c", "max_bridges=3", input="3 3\n").exit_code == 0
    # Numbers above 8 are read when the maximum allows them.
    assert run("solve", "-", "--max-bridges", "3", input="9 .\n").exit_code == 1
    assert "out of range 1..8" in run("solve", "-", input="9 .\n").stderr


def test_add_and_encoding_options(tmp_path):
    assert run("solve", PROLOG, "--add", PROGRAMS / "no_doubles.lp").exit_code == 1
    loose = loose_encoding(tmp_path)
    result = run("solve", "-", "-n", "0", "--encoding", loose, input="22\n22\n")
    assert result.exit_code == 5
    assert "encoding error: answer" in result.stderr and "disconnected" in result.stderr
    assert "=" not in result.stdout  # the bad answer is never drawn


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "args, input, message",
    [
        (["solve", "-"], "2.1\n.x.\n", "hashi-asp: <stdin>:2:2: unexpected character 'x'"),
        (["solve", "missing.has"], None, "hashi-asp: missing.has: no such file"),
        (
            ["solve", "-", "--notation", "has"],
            "2 2 9\n1 1\n0 0\n",
            "hashi-asp: <stdin>:1:5: header says 9 islands",
        ),
        (
            ["facts", "-"],
            '{"islands": [[0, 0, 1], [0, 0, 1]]}',
            "hashi-asp: <stdin>:1:25: islands[1]: second island on cell (0, 0)",
        ),
        (
            ["solve", "-"],
            '{"rows": 1, "cols": 3,\n "cols": 2, "islands": [[0, 0, 1], [0, 2, 1]]}',
            'hashi-asp: <stdin>:2:2: invalid JSON: duplicate key "cols" (first at line 1, column',
        ),
        (
            ["check", PROLOG, "-"],
            '{"bridges": [[0, 0, 0, 2, 1]], "bridges": []}',
            'hashi-asp: <stdin>:1:32: invalid JSON: duplicate key "bridges"',
        ),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_2(args, input, message):
    result = run(*args, input=input)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_bad_encoding_is_exit_2_with_file_and_line():
    broken = PROGRAMS / "syntax_error.lp"
    result = run("solve", PROLOG, "--encoding", broken)
    assert result.exit_code == 2
    assert f"{broken}:1:" in result.stderr and "syntax error" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", PROLOG, "-n", "-1"],
        ["solve", PROLOG, "-c", "x"],
        ["solve", PROLOG, "--time-limit", "0"],
        ["bogus"],
    ],
)
def test_usage_errors_exit_2(args):
    assert run(*args).exit_code == 2


# ---------------------------------------------------------------------------- check, facts


def test_check_valid_and_broken(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(run("solve", PROLOG, "-n", "0", "--format", "json").stdout)
    result = run("check", PROLOG, good)
    assert (result.exit_code, result.stdout) == (0, "solution 1: valid\nsolution 2: valid\n")

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"bridges": [[0, 0, 0, 2, 1], [0, 0, 2, 2, 1], [2, 0, 2, 4, 2]]}))
    result = run("check", PROLOG, bad)
    assert result.exit_code == 1
    assert "solution: bridge (0, 0)-(2, 2) is diagonal" in result.stdout
    assert "solution: bridge (2, 0)-(2, 4) passes over the island at (2, 2)" in result.stdout
    assert "solution: wrong count at island (4, 0): has 0 bridge(s), needs 3" in result.stdout
    assert "disconnected: " in result.stdout


def test_check_reports_a_malformed_solution_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"bridges": [[0, 0, 0, 2]]}')
    result = run("check", PROLOG, bad)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"hashi-asp: {bad}:1:14: bridge 0: expected [r1, c1, r2, c2, count]"
    )


def test_facts_command_prints_the_encoding_input():
    result = run("facts", PROLOG)
    assert "rows(5). cols(5).\n" in result.stdout and "island(4,4,2).\n" in result.stdout


# ---------------------------------------------------------------------------- the installed tool


def installed_script() -> Path:
    script = Path(sys.executable).parent / ("hashi-asp.exe" if os.name == "nt" else "hashi-asp")
    assert script.exists(), "install the project first (see README): hashi-asp is not on this venv"
    return script


def test_installed_script_solves_and_facts_run_in_plain_clingo(tmp_path):
    completed = subprocess.run(
        [installed_script(), "solve", PROLOG, "-n", "0", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["count"] == 2

    facts = tmp_path / "facts.lp"
    facts.write_text(
        subprocess.run(
            [installed_script(), "facts", PROLOG], capture_output=True, text=True, check=True
        ).stdout
    )
    clingo = subprocess.run(
        [sys.executable, "-m", "clingo", REPO / "encodings" / "hashi.lp", facts, "0", "--outf=2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    models = json.loads(clingo.stdout)["Models"]
    assert (models["Number"], models["More"]) == (2, "no")


def test_bad_input_to_the_installed_script_has_no_traceback(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2.1\n.x.\n")
    completed = subprocess.run([installed_script(), "solve", bad], capture_output=True, text=True)
    assert completed.returncode == 2
    assert (
        completed.stderr == f"hashi-asp: {bad}:2:2: unexpected character 'x': expected '.' "
        "for water or an island number 1..8\n"
    )


def test_a_wheel_carries_the_encodings_and_finds_them_from_elsewhere(tmp_path):
    """What `pip install .` does: the package and every encoding travel in the wheel, built
    from a copy of the sources (so that nothing left in a build folder can stand in for a
    missing file), and each capability finds the encodings it loads."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for name in ("hashi_asp", "encodings"):
        shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "wheel", source],
        check=True,
        timeout=600,
        cwd=tmp_path,
    )
    wheel = next((tmp_path / "wheel").glob("hashi_asp-*.whl"))
    encodings = sorted(path.name for path in (REPO / "encodings").glob("*.lp"))
    with zipfile.ZipFile(wheel) as archive:
        assert (
            sorted(
                name.rpartition("/")[2]
                for name in archive.namelist()
                if name.startswith("hashi_asp/encodings/") and name.endswith(".lp")
            )
            == encodings
        )
        for name in encodings:
            assert (
                archive.read(f"hashi_asp/encodings/{name}")
                == (REPO / "encodings" / name).read_bytes()
            )
        archive.extractall(tmp_path / "site")
    code = (
        f"import hashi_asp as h; print(h.encoding_path()); p = h.read({PROLOG!r}); "
        "print(h.solve(p, 0).status, h.solve(p, 0, program=h.Program(connectivity='lazy')).status, "
        "h.hint(p).status, h.explain(h.parse('1.2')).core, "
        "h.generate(20, seed=3, unique=True).repair_rounds >= 0)"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
    )
    assert completed.returncode == 0, completed.stderr
    path, rest = completed.stdout.split("\n", 1)
    assert Path(path) == tmp_path / "site" / "hashi_asp" / "encodings" / "hashi.lp"
    assert rest == "multiple multiple multiple [(0, 0), (0, 2)] True\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["solve", PROLOG, "-n", "-1"],
            "Invalid value for '-n' / '--models': -1 is not in the range",
        ),
        (["solve"], "Missing argument 'PUZZLE'."),
        (["generate"], "Missing option '-n' / '--islands'."),
        (["solve", PROLOG, "--format", "pdf"], "Invalid value for '--format': 'pdf' is not one of"),
        (["bogus"], "No such command 'bogus'."),
        (["solve", PROLOG, "--no-such-option"], "No such option '--no-such-option'."),
    ],
)
def test_a_usage_error_is_one_line_on_stderr_with_exit_2(args, message):
    for result in (
        run(*args),
        subprocess.run(
            [installed_script(), *map(str, args)], capture_output=True, text=True, timeout=120
        ),
    ):
        code = getattr(result, "exit_code", getattr(result, "returncode", None))
        assert code == 2
        assert result.stderr.startswith(f"hashi-asp: {message}")
        assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_help_texts_say_what_each_option_is():
    solve_help = run("solve", "--help").stdout
    assert "-n, --models" in solve_help
    generate_help = run("generate", "--help").stdout
    assert "--islands" in generate_help and "the number of puzzles is --count" in " ".join(
        generate_help.split()
    )
    assert "One line of text, or one JSON document." in " ".join(
        run("count", "--help").stdout.split()
    )
    assert "pzprv3 file with lines" in " ".join(run("check", "--help").stdout.split())


def test_a_constant_of_added_rules_reaches_them():
    assert run("solve", PROLOG, "--add", PROGRAMS / "limit.lp").exit_code == 0
    assert run("solve", PROLOG, "--add", PROGRAMS / "limit.lp", "-c", "limit=1").exit_code == 1
