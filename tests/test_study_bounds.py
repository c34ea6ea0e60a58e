"""A study's plan bounded before any work, through the real command: a plan of a hundred million
runs, plans nested 500 and 1000 deep, ``--jobs 1000`` on one cell, and two outputs naming one
file.  Each is one line on standard error and exit 2, with nothing left behind."""

import pytest
from conftest import PROLOG
from processes import run


def refused(*args) -> str:
    done = run(*args)
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, lines
    return lines[0]


PLAN = 'task = "solve"\n[[instances]]\ngenerate = {{ islands = 10, count = {count} }}\n'
PLAN += '[variants]\nreach = "--connectivity reach"\n'


def test_a_plan_of_too_many_runs_is_refused_before_any_is_made(tmp_path):
    plan = tmp_path / "big.toml"
    plan.write_text(PLAN.format(count=100_000_000))
    said = refused("study", "run", tmp_path / "s.db", "--plan", plan)
    assert "the plan makes 100000000 runs" in said and "at most 1000000" in said
    assert not (tmp_path / "s.db").exists()


@pytest.mark.parametrize(
    "value", ["[" * 500 + "]" * 500, "{b = " * 1000 + "1" + "}" * 1000], ids=["arrays", "tables"]
)
def test_a_plan_nested_too_deeply_is_one_line(tmp_path, value):
    plan = tmp_path / "deep.toml"
    plan.write_text(f"a = {value}\n")
    said = refused("study", "run", tmp_path / "s.db", "--plan", plan)
    assert said.startswith(f"hashi-asp: {plan}: nested too deeply: at most 16 levels"), said
    assert "(at line 1, column " in said


def test_jobs_beyond_four_a_core_are_refused(tmp_path):
    plan = tmp_path / "one.toml"
    plan.write_text(PLAN.format(count=1))
    said = refused("study", "run", tmp_path / "s.db", "--plan", plan, "--jobs", "1000")
    assert said.startswith("hashi-asp: --jobs 1000: at most ") and "a core" in said


def test_two_outputs_naming_one_file_are_refused_before_the_bench(tmp_path):
    out = tmp_path / "x.csv"
    said = refused("bench", PROLOG, "--csv", out, "--json", out)
    assert f"--csv {out} and --json {out} are the same file" in said
    assert not out.exists()
