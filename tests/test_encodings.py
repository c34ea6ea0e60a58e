"""The encodings as plain clingo runs them: every answer of encodings/hashi.lp, under every
#const the encodings declare set to 0 or 1, is a solution under the rules those constants mean,
and they are all the solutions the tool finds; each helper encoding runs as its header says."""

import itertools
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import PROGRAMS, PUZZLES, REPO

from hashi_asp import Puzzle, Rules, Solution, bridge, check, facts, parse, read, solve, unique

ENCODINGS = REPO / "encodings"

# Puzzles where each rule matters: connectivity (the 2x4 block of 2s also closes into two
# squares), loops (a ring), more than two bridges (two 3s), islands without numbers.
PUZZLES_USED = {
    "prolog": read(PUZZLES / "prolog-5x5.txt"),
    "block": parse("2222\n2222\n"),
    "ring": parse("2.2\n...\n2.2\n"),
    "triple": parse("3.3\n"),
    "unnumbered": parse("?.?\n...\n2.?\n"),
    "tatham": read("7x7m3:4a4a7a5g4m1a4j23a5a3b", max_bridges=2),
}


def declared_constants() -> list[str]:
    """The names every encoding declares with #const."""
    names = set()
    for path in ENCODINGS.glob("*.lp"):
        names |= set(re.findall(r"^#const\s+(\w+)\s*=", path.read_text(), re.M))
    return sorted(names)


def clingo_answers(puzzle: Puzzle, constants: dict[str, int], tmp_path) -> list[Solution]:
    """Every answer of plain clingo (its own command line) on hashi.lp and the puzzle's facts."""
    path = tmp_path / "facts.lp"
    path.write_text(facts(puzzle))
    options = [f"-c{name}={value}" for name, value in constants.items()]
    completed = subprocess.run(
        [sys.executable, "-m", "clingo", ENCODINGS / "hashi.lp", path, "0", "--outf=2", *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = json.loads(completed.stdout)
    assert output["Result"] in ("SATISFIABLE", "UNSATISFIABLE"), completed.stderr
    assert output["Models"]["More"] == "no"  # every answer, not some
    witnesses = output["Call"][0].get("Witnesses", [])
    answers = []
    for witness in witnesses:
        bridges = []
        for atom in witness["Value"]:
            r1, c1, r2, c2, k = map(int, re.fullmatch(r"bridge\((.*)\)", atom).group(1).split(","))
            bridges.append(bridge((r1, c1), (r2, c2), k))
        answers.append(Solution.of(bridges))
    return answers


def test_the_encodings_declare_the_rules_and_nothing_else():
    # Every #const poses a rule of the puzzle, but two: neighbourhood.lp's sweep_from (the side
    # the neighbourhood search sweeps a giant from) and sweep_first (whether it sweeps), which
    # hashi-asp reads and no rule does (so they change no answer of the rules).
    assert declared_constants() == ["max_bridges", "no_loops", "sweep_first", "sweep_from"]
    for path in ENCODINGS.glob("*.lp"):
        rules = re.sub(r"%.*", "", path.read_text())
        for name in ("sweep_from", "sweep_first"):
            uses = re.findall(rf"\b{name}\b", rules)
            assert uses == ([name] if path.name == "neighbourhood.lp" else []), (name, path.name)


@pytest.mark.parametrize("name", sorted(PUZZLES_USED))
@pytest.mark.parametrize(
    "constants",
    [
        dict(zip(("max_bridges", "no_loops"), values, strict=True))
        for values in itertools.product((None, 0, 1, 2), (None, 0, 1))
    ],
    ids=lambda constants: ",".join(f"{k}={v}" for k, v in constants.items() if v is not None),
)
def test_plain_clingo_gives_only_solutions_under_every_constant(name, constants, tmp_path):
    puzzle = PUZZLES_USED[name]
    given = {k: v for k, v in constants.items() if v is not None}
    answers = clingo_answers(puzzle, given, tmp_path)
    max_bridges = given.get("max_bridges", 2)
    if max_bridges == 0:  # no bridge at all: no island can have its number
        assert answers == []
        return
    rules = Rules(max_bridges, given.get("no_loops", 0) == 1)
    posed = Puzzle(puzzle.rows, puzzle.cols, puzzle.islands, rules=rules)
    for answer in answers:
        assert check(posed, answer) == [], (name, given, answer)
    # ... and they are every solution the tool finds under those rules.
    assert sorted(answers, key=lambda s: s.bridges) == sorted(
        solve(posed, 0).solutions, key=lambda s: s.bridges
    )


def test_every_encoding_runs_as_its_header_says(tmp_path):
    """The helper encodings' "Run on its own" lines, with the Prolog report's 5x5."""
    puzzle = read(PUZZLES / "prolog-5x5.txt")
    (tmp_path / "facts.lp").write_text(facts(puzzle))

    def run(*files, options=()):
        completed = subprocess.run(
            [sys.executable, "-m", "clingo", *files, "0", "--outf=2", *options],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        output = json.loads(completed.stdout)
        assert output["Result"] in ("SATISFIABLE", "UNSATISFIABLE"), completed.stderr
        return output["Call"][-1].get("Witnesses", [])

    # relax.lp changes no answer; consequences.lp's brave union holds both counts of the
    # four pairs where the two solutions differ.
    assert len(run(ENCODINGS / "hashi.lp", ENCODINGS / "relax.lp", "facts.lp")) == 2
    union = run(
        ENCODINGS / "hashi.lp",
        ENCODINGS / "consequences.lp",
        PROGRAMS / "pairs.lp",
        "facts.lp",
        options=["--enum-mode=brave"],
    )[-1]["Value"]
    states = [atom for atom in union if atom.startswith("state(")]
    assert "state(0,0,2,0,1)" in states and "state(0,0,2,0,2)" in states
    assert len(states) == 8 + 4  # eight pairs, four of them with two counts
    # another_solution.lp with the known solution as facts finds the other one.
    known = solve(puzzle).solutions[0].counts()
    wanted = "".join(
        f"want({a[0]},{a[1]},{b[0]},{b[1]},{known.get((a, b), 0)}).\n"
        for a, b in puzzle.geometry.pairs
    )
    (tmp_path / "known.lp").write_text(wanted)
    others = run(ENCODINGS / "hashi.lp", ENCODINGS / "another_solution.lp", "facts.lp", "known.lp")
    assert len(others) == 1
    other = set(others[0]["Value"])
    first = {
        f"bridge({b.r1},{b.c1},{b.r2},{b.c2},{b.count})" for b in solve(puzzle).solutions[0].bridges
    }
    assert other != first and len(other) == 6


# ---------------------------------------------------------------------------- a copied encoding


def hashi_asp_in(folder, *arguments):
    """The real command line, run in ``folder``, with no search path for includes of its own."""
    environment = {k: v for k, v in os.environ.items() if k != "CLINGOPATH"}
    return subprocess.run(
        [sys.executable, "-m", "hashi_asp", *map(str, arguments)],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_copy_of_hashi_lp_alone_finds_what_it_includes_and_its_added_rule_counts(tmp_path):
    """docs/encoding.md's steps: in an empty folder, `cp encodings/hashi.lp my.lp`, add a rule,
    `hashi-asp unique P --encoding my.lp`.  The copy finds bridges.lp and reachability.lp among
    the bundled encodings, and the rule added makes the 5x5 of two solutions unique."""
    copy = tmp_path / "my.lp"
    copy.write_text((ENCODINGS / "hashi.lp").read_text())
    before = hashi_asp_in(tmp_path, "unique", PUZZLES / "prolog-5x5.txt", "--encoding", "my.lp")
    assert before.returncode == 1, before.stderr  # multiple, as with the bundled encoding
    with copy.open("a") as added:
        added.write((PROGRAMS / "single_at_the_corner.lp").read_text())
    after = hashi_asp_in(
        tmp_path, "unique", PUZZLES / "prolog-5x5.txt", "--encoding", "my.lp", "--format", "json"
    )
    assert after.returncode == 0, after.stderr
    found = json.loads(after.stdout)
    assert found["status"] == "unique"
    assert [0, 0, 2, 0, 1] in found["solutions"][0]["bridges"]
    assert list(tmp_path.iterdir()) == [copy]  # nothing copied or written beside it


def test_a_file_of_the_users_beside_the_copy_comes_before_the_bundled_one(tmp_path):
    """A reachability.lp of one's own, here one without connectivity, is the one the copy
    includes: the answer falls apart and the checker refuses it (exit 5)."""
    (tmp_path / "my.lp").write_text((ENCODINGS / "hashi.lp").read_text())
    (tmp_path / "reachability.lp").write_text("% no connectivity\n")
    (tmp_path / "two-rows.txt").write_text("1 2 1\n. . .\n1 2 1\n")
    run = hashi_asp_in(tmp_path, "solve", "two-rows.txt", "--encoding", "my.lp")
    assert run.returncode == 5
    assert "breaks the rules: disconnected" in run.stderr
    (tmp_path / "elsewhere").mkdir()
    bundled = hashi_asp_in(tmp_path / "elsewhere", "solve", tmp_path / "two-rows.txt")
    assert bundled.returncode == 1 and "unsolvable" in bundled.stdout


def test_an_include_found_nowhere_is_still_clingos_error(tmp_path):
    (tmp_path / "my.lp").write_text('#include "nowhere.lp".\n')
    run = hashi_asp_in(tmp_path, "solve", PUZZLES / "prolog-5x5.txt", "--encoding", "my.lp")
    assert run.returncode == 2
    assert "file could not be opened: nowhere.lp" in run.stderr


def test_single_edit_lp_agrees_with_hashi_lp_on_a_puzzle_left_with_one_island():
    """Removing one of two islands leaves a puzzle hashi.lp calls unsolvable; single_edit.lp's
    reading of that edit finds no solution either (it found one, without a bridge, and the
    single edits of `fix` then stopped with an internal error)."""
    from hashi_asp.fixing import Edit, edited
    from hashi_asp.fixing.single_edits import SingleEdits
    from hashi_asp.stopping import Deadline

    puzzle = parse("?.?\n")
    removal = Edit("remove", (0, 0), None, None)
    assert unique(edited(puzzle, [removal])).status == "unsolvable"
    assert SingleEdits(puzzle, [removal], Deadline.of(60)).solutions(removal) == 0
