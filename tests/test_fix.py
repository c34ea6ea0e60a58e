"""The author fix: every fix leaves exactly one solution by the brute-force enumerator, keeps the
kept solution (its bridges split at new islands) in keep mode, and is the fewest: brute force
finds no fix with fewer edits of the kinds allowed.  Also the reports, the command and unique's
proposal."""

import itertools
import json

import bruteforce
from click.testing import CliRunner
from conftest import PROLOG, PUZZLES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, Rules, Solution, Stop, check, read, unique
from hashi_asp.cli import main
from hashi_asp.commands.fix import fix_json, fix_text
from hashi_asp.commands.unique import unique_json, unique_text
from hashi_asp.fixing import Edit, Fix, FixError, edited, fix, split
from hashi_asp.fixing.edits import joined_again, merged
from hashi_asp.fixing.first_fix import repaired_fix
from hashi_asp.fixing.single_edits import SingleEdits, single_edit
from hashi_asp.generation import GenerationError, generate
from hashi_asp.stopping import Deadline

SEVEN = PUZZLES / "seven-by-seven-24.json"  # two solutions, a 2x2 square of islands apart
ADDED = Puzzle(4, 6, {(0, 1): 2, (1, 1): 4, (1, 2): 3, (1, 4): 1, (3, 1): 3, (3, 2): 5, (3, 3): 2})
BLANK = Puzzle(
    5, 4, {(0, 0): 1, (1, 0): None, (1, 1): 3, (1, 3): 1, (2, 0): 3, (4, 0): 2, (4, 1): 1}
)
STUCK = Puzzle(4, 3, {(0, 1): 1, (2, 0): 2, (2, 1): 4, (2, 2): 2, (3, 0): 3, (3, 1): 2})
# Four islands without numbers: every way between two of its solutions takes lines from some
BLOCK = Puzzle(3, 3, dict.fromkeys([(0, 0), (0, 2), (2, 0), (2, 2)]))


def brute(puzzle: Puzzle) -> set:
    return bruteforce.solutions_of(puzzle)


def as_set(solution: Solution) -> frozenset:
    return frozenset(tuple(b) for b in solution.bridges)


def keep_edits(puzzle: Puzzle, kept: Solution) -> list[Edit]:
    """Every edit keep mode allows: an island 2K under a kept bridge of K, a blank's count."""
    edits = [
        Edit("add", cell, None, 2 * b.count) for b in kept.bridges for cell in b.cells_between()
    ]
    degree: dict = {}
    for b in kept.bridges:
        for end in b.ends:
            degree[end] = degree.get(end, 0) + b.count
    edits += [Edit("change", c, None, degree[c]) for c, n in puzzle.islands.items() if n is None]
    return edits


def free_edits(puzzle: Puzzle) -> list[Edit]:
    """Every single edit free mode allows."""
    top = puzzle.rules.max_number
    edits = []
    for r, c in itertools.product(range(puzzle.rows), range(puzzle.cols)):
        old = puzzle.islands.get((r, c), "water")
        if old == "water":
            edits += [Edit("add", (r, c), None, n) for n in range(1, top + 1)]
        else:
            edits.append(Edit("remove", (r, c), old, None))
            edits += [Edit("change", (r, c), old, n) for n in range(1, top + 1) if n != old]
    return edits


def leaves_one(puzzle: Puzzle, edits, meant: Solution | None = None) -> bool:
    try:
        found = brute(edited(puzzle, edits))
    except Exception:  # an edit set that empties the board
        return False
    return len(found) == 1 and (meant is None or found == {as_set(meant)})


def assert_fixed(puzzle: Puzzle, made: Fix) -> None:
    """One solution by brute force, the one returned; in keep mode the kept one, split."""
    assert made.status == "fixed" and made.edits
    assert made.puzzle == edited(puzzle, made.edits)
    assert brute(made.puzzle) == {as_set(made.solution)}
    assert check(made.puzzle, made.solution) == []
    assert as_set(made.kept) in brute(puzzle)
    if not made.free:
        assert made.solution == split(made.kept, made.edits)
        assert set(made.edits) <= set(keep_edits(puzzle, made.kept))


def assert_fewest(puzzle: Puzzle, made: Fix) -> None:
    """No set of fewer edits of the kinds allowed leaves one solution (the kept one)."""
    assert made.fewest and made.lower_bound == len(made.edits)
    if made.free:
        options, meant = free_edits(puzzle), None
    else:
        options, meant = keep_edits(puzzle, made.kept), None
    for size in range(len(made.edits)):
        for edits in itertools.combinations(options, size):
            if len({e.cell for e in edits}) < size:
                continue
            kept = None if made.free else split(made.kept, edits)
            assert not leaves_one(puzzle, edits, kept or meant), edits


# ---------------------------------------------------------------------------- the bundled puzzles


def test_the_prolog_puzzle_gets_one_new_island_on_a_kept_bridge():
    puzzle = read(PROLOG)
    first = unique(puzzle)
    made = fix(puzzle)
    assert made.kept == first.solutions[0]
    assert [e.kind for e in made.edits] == ["add"]
    assert_fixed(puzzle, made)
    assert_fewest(puzzle, made)


def test_free_mode_fixes_the_seven_by_seven_puzzle_keep_mode_cannot():
    puzzle = read(SEVEN)
    kept = fix(puzzle, keep=unique(puzzle).solutions[0])
    assert kept.status == "no fix found" and not kept.edits and kept.puzzle is None
    # Why: the other solution has every kept bridge over water, so split wherever the kept one
    # is, it stays a solution of every puzzle keep mode can make.
    other = next(s for s in unique(puzzle).solutions if s != kept.kept)
    over_water = {b for b in kept.kept.bridges if b.cells_between()}
    assert over_water <= set(other.bridges)
    every = keep_edits(puzzle, kept.kept)
    assert check(edited(puzzle, every), split(other, every)) == []
    made = fix(puzzle, free=True)
    assert made.free and made.fewest and len(made.edits) == 1 and made.keeping is None
    assert_fixed(puzzle, made)
    # By default, free mode follows keep mode's proof.
    default = fix(puzzle)
    assert default.free and default.keeping == "impossible" and default.fewest
    assert_fixed(puzzle, default)
    assert len(default.edits) == 1


def test_an_island_without_a_number_may_get_its_count():
    made = fix(BLANK)
    assert_fixed(BLANK, made)
    assert_fewest(BLANK, made)


def test_a_kept_solution_given_is_kept():
    puzzle = read(PROLOG)
    second = unique(puzzle).solutions[1]
    made = fix(puzzle, keep=second)
    assert made.kept == second
    assert_fixed(puzzle, made)
    assert_fewest(puzzle, made)


def test_a_kept_solution_that_does_not_solve_the_puzzle_is_refused():
    puzzle = read(PROLOG)
    wrong = Solution.of(unique(puzzle).solutions[0].bridges[1:])
    try:
        fix(puzzle, keep=wrong)
    except FixError as error:
        assert "does not solve the puzzle" in str(error)
    else:
        raise AssertionError("no error")


def test_unique_and_unsolvable_puzzles_and_a_passed_time_limit():
    nyt = read(PUZZLES / "nyt-2022-04-03.json")
    done = fix(nyt)
    assert done.status == "unique" and done.fewest and done.edits == () and done.puzzle == nyt
    unsolvable = read("2 . 1 . .\n. . . . .\n4 . 3 . 1\n. . . . .\n1 . . . 2\n")
    assert fix(unsolvable).status == "unsolvable"
    late = fix(read(PROLOG), time_limit=0)
    assert late.status == "unknown" and late.stopped is Stop.TIME and not late.edits


def test_free_mode_fixes_a_block_of_islands_without_numbers():
    """The moves free mode learns may take lines from an island without a number (it keeps
    one: the move's new lines and anchors reach it); refused, the loop had learnt nothing from
    the second solution of its third answer, and stopped with an internal error."""
    made = fix(BLOCK, free=True, time_limit=60)
    assert made.free and made.stopped is None
    assert_fixed(BLOCK, made)
    assert_fewest(BLOCK, made)
    done = CliRunner().invoke(main, ["fix", "--free", "--format", "json", "?.?\n...\n?.?\n"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["status"] == "fixed"


def test_a_solution_merged_stands_for_its_splits():
    solution = unique(read(PROLOG)).solutions[0]
    edits = [Edit("add", cell, None, 2) for cell in [(4, 1), (4, 2)]]
    longer = split(solution, edits)
    assert longer != solution and merged(longer) == merged(solution)
    assert joined_again(longer) == joined_again(solution)


# ---------------------------------------------------------------------------- many small puzzles

RULES = [Rules(), Rules(max_bridges=3), Rules(no_loops=True), Rules(max_bridges=1)]


@st.composite
def generated_puzzles(draw) -> Puzzle:
    """Small solvable puzzles made by the generator without --unique: many have several
    solutions."""
    rules = draw(st.sampled_from(RULES))
    side = draw(st.integers(4, 5))
    try:
        made = generate(
            draw(st.integers(6, 10)),
            side,
            side,
            alpha=0 if rules.no_loops else 0.3,
            beta=0 if rules.max_bridges == 1 else 0.5,
            seed=draw(st.integers(0, 10**6)),
            rules=rules,
            attempts=3,
        )
    except GenerationError:
        assume(False)
    return made.puzzle


@st.composite
def blanked_puzzles(draw) -> Puzzle:
    """Small puzzles with some islands' numbers taken away: more solutions, and differences
    between them that take lines from islands without a number."""
    puzzle = draw(generated_puzzles())
    cells = sorted(puzzle.islands)
    blank = draw(st.sets(st.sampled_from(cells), min_size=1, max_size=max(1, len(cells) // 2)))
    islands = {cell: None if cell in blank else n for cell, n in puzzle.islands.items()}
    return Puzzle(puzzle.rows, puzzle.cols, islands, rules=puzzle.rules)


@given(generated_puzzles())
@settings(max_examples=40, deadline=None)
def test_keep_mode_by_brute_force(puzzle):
    made = fix(puzzle, keep=unique(puzzle).solutions[0], time_limit=30)
    if len(brute(puzzle)) == 1:
        assert made.status == "unique"
        return
    if made.status == "fixed":
        assert_fixed(puzzle, made)
        assert_fewest(puzzle, made)
        return
    assert made.status == "no fix found"
    options = keep_edits(puzzle, made.kept)
    assume(len(options) <= 10)
    for size in range(len(options) + 1):
        for edits in itertools.combinations(options, size):
            assert not leaves_one(puzzle, edits, split(made.kept, edits))


@given(generated_puzzles())
@settings(max_examples=8, deadline=None)
def test_free_mode_by_brute_force(puzzle):
    assume(len(brute(puzzle)) > 1)
    made = fix(puzzle, free=True, time_limit=30)
    assert made.status == "fixed"
    assert_fixed(puzzle, made)
    assume(len(made.edits) <= 2)
    assert_fewest(puzzle, made)


@given(blanked_puzzles())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_free_mode_with_islands_without_numbers_by_brute_force(puzzle):
    assume(len(brute(puzzle)) > 1)
    made = fix(puzzle, free=True, time_limit=30)
    assert made.status == "fixed"
    assert_fixed(puzzle, made)
    assume(len(made.edits) <= 2)
    assert_fewest(puzzle, made)


@given(generated_puzzles())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_the_default_mode_by_brute_force(puzzle):
    """Always a fix: keeping the first solution, or, where keep mode proves that impossible,
    changing it; the fewest whenever it says so."""
    assume(len(brute(puzzle)) > 1)
    made = fix(puzzle, time_limit=30)
    assert_fixed(puzzle, made)
    if made.keeping == "impossible":
        assert made.free
        options = keep_edits(puzzle, made.kept)
        if len(options) <= 8:
            for size in range(len(options) + 1):
                for edits in itertools.combinations(options, size):
                    assert not leaves_one(puzzle, edits, split(made.kept, edits))
    else:
        assert made.keeping is None and not made.free
    if made.fewest and len(made.edits) <= 2:
        assert_fewest(puzzle, made)


@given(generated_puzzles())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_the_repair_gives_a_first_fix(puzzle):
    """The uniqueness repair's fix (the upper bound free mode starts from): numbers changed
    only, one solution by brute force, each edit needed (given back, the puzzle has several)."""
    solutions = unique(puzzle).solutions
    assume(len(solutions) > 1)
    made = repaired_fix(puzzle, solutions, Deadline(30))
    assume(made is not None)
    edits = made.edits
    assert edits and all(e.kind == "change" for e in edits)
    assert made.puzzle == edited(puzzle, edits)
    assert brute(made.puzzle) == {as_set(made.solution)}
    if len(edits) > 1:
        for edit in edits:
            assert not leaves_one(puzzle, [e for e in edits if e != edit])


@given(generated_puzzles())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_the_single_edit_proof_by_brute_force(puzzle):
    """``single_edit`` finds a one-edit fix where brute force does, and says there is none only
    where no single edit leaves one solution (the lower bound of 2 free mode then claims)."""
    solutions = unique(puzzle).solutions
    assume(len(solutions) > 1)
    made = single_edit(puzzle, solutions, Deadline(60))
    if made is not None:
        assert len(made.edits) == 1 and leaves_one(puzzle, made.edits)
        assert brute(made.puzzle) == {as_set(made.solution)}
        return
    for edit in free_edits(puzzle):
        assert not leaves_one(puzzle, [edit]), edit


@given(generated_puzzles())
@settings(max_examples=5, deadline=None)
def test_every_single_edit_counted_on_one_control_by_brute_force(puzzle):
    """The one grounding of every single edit (``encodings/single_edit.lp``) counts the
    solutions of each edited puzzle (none, one, two or more) as brute force does."""
    edits = [e for e in free_edits(puzzle) if e.kind != "remove" or len(puzzle.islands) > 1]
    trials = SingleEdits(puzzle, edits, Deadline(60))
    for edit in edits:
        assert trials.solutions(edit) == min(2, len(brute(edited(puzzle, [edit])))), edit


# ---------------------------------------------------------------------------- reports, commands


def test_the_reports():
    puzzle = read(PROLOG)
    made = fix(puzzle)
    document = fix_json(made)
    assert document["status"] == "fixed" and document["fewest"] is True
    assert document["lower_bound"] == 1
    assert document["edits"] == [
        {"cell": list(made.edits[0].cell), "from": None, "to": made.edits[0].new, "kind": "add"}
    ]
    assert read(json.dumps(document["puzzle"])) == made.puzzle
    assert document["solution"] == made.solution.to_json()
    text = fix_text(made, "written\n")
    assert text.endswith("fixed: 1 edit, proven fewest")
    assert "The fixed puzzle:\nwritten\n" in text
    result = unique(puzzle)
    proposed = unique_json(puzzle, result, fix=made)["fix"]
    assert proposed["kind"] == "add" and proposed["edits"] == document["edits"]
    assert "To make it unique (checked): add an island" in unique_text(puzzle, result, fix=made)


def test_the_fix_command(tmp_path):
    runner = CliRunner()
    done = runner.invoke(main, ["fix", str(PROLOG), "--format", "json"])
    assert done.exit_code == 0
    document = json.loads(done.output)
    assert document["status"] == "fixed" and len(document["edits"]) == 1
    assert len(brute(read(json.dumps(document["puzzle"])))) == 1
    text = runner.invoke(main, ["fix", str(PROLOG), "--to", "json"])
    assert text.exit_code == 0 and text.output.rstrip().endswith("fixed: 1 edit, proven fewest")
    assert '"islands"' in text.output
    unique_one = runner.invoke(main, ["fix", str(PUZZLES / "nyt-2022-04-03.json")])
    assert unique_one.exit_code == 0 and "unique" in unique_one.output.splitlines()[-1]
    changed = runner.invoke(main, ["fix", str(SEVEN), "--format", "json"])
    assert changed.exit_code == 0
    document = json.loads(changed.output)
    assert (document["mode"], document["keeping"], document["status"]) == (
        "free",
        "impossible",
        "fixed",
    )
    assert len(brute(read(json.dumps(document["puzzle"])))) == 1
    said = runner.invoke(main, ["fix", str(SEVEN)])
    assert said.exit_code == 0
    assert said.output.startswith("No fix keeps the first solution (proven)")
    first = tmp_path / "first.json"
    first.write_text(json.dumps(unique(read(SEVEN)).solutions[0].to_json()))
    none = runner.invoke(main, ["fix", str(SEVEN), "--keep", str(first)])
    assert none.exit_code == 1 and none.output.splitlines()[-1].startswith("no fix found")
    second = unique(read(PROLOG)).solutions[1]
    keep = tmp_path / "keep.json"
    keep.write_text(json.dumps(second.to_json()))
    kept = runner.invoke(main, ["fix", str(PROLOG), "--keep", str(keep), "--format", "json"])
    assert kept.exit_code == 0
    assert json.loads(kept.output)["kept"] == second.to_json()
    keep.write_text(json.dumps({"bridges": [list(b) for b in second.bridges[1:]]}))
    wrong = runner.invoke(main, ["fix", str(PROLOG), "--keep", str(keep)])
    assert wrong.exit_code == 2
    assert "does not solve the puzzle" in wrong.output and "Traceback" not in wrong.output
    both = runner.invoke(main, ["fix", str(PROLOG), "--keep", str(keep), "--free"])
    assert both.exit_code == 2


def test_unique_proposes_the_fewest_edit_fix():
    runner = CliRunner()
    result = runner.invoke(main, ["unique", str(PROLOG), "--format", "json"])
    assert result.exit_code == 1
    proposed = json.loads(result.output)["fix"]
    assert proposed["fewest"] is True and len(proposed["edits"]) == 1
    assert len(brute(read(json.dumps(proposed["puzzle"])))) == 1
    plain = runner.invoke(main, ["unique", str(SEVEN)])
    assert "To make it unique (checked): add an island" in plain.output


def test_the_fix_and_the_review_are_part_of_the_library():
    import hashi_asp
    from hashi_asp import fixing, reviewing

    assert (hashi_asp.fix, hashi_asp.Fix, hashi_asp.Edit) == (fixing.fix, fixing.Fix, fixing.Edit)
    assert (hashi_asp.review, hashi_asp.Review) == (reviewing.review, reviewing.Review)
    assert {"fix", "Fix", "Edit", "review", "Review"} <= set(hashi_asp.__all__)


def test_a_review_is_what_unique_prints():
    """``review``: the uniqueness verdict, a fix proposed for several solutions under the
    bundled rules, the difficulty when asked; ``unique`` prints it."""
    from hashi_asp import Program, encoding_path, review
    from hashi_asp.walkthrough import difficulty

    puzzle = read(PROLOG)
    reviewed = review(puzzle, time_limit=60)
    assert (reviewed.status, reviewed.sought, reviewed.difficulty) == ("multiple", True, None)
    assert reviewed.fix.status == "fixed" and reviewed.fix.fewest
    assert reviewed.fix.edits == fix(puzzle).edits
    printed = CliRunner().invoke(main, ["unique", str(PROLOG), "--format", "json"])
    document = json.loads(printed.output)
    seconds = reviewed.proposal_seconds
    assert (
        document["fix"]
        == unique_json(puzzle, reviewed.result, fix=reviewed.fix, seconds=seconds)["fix"]
    )
    # Under rules of the user's own (here the bundled ones, as a copy), no fix is sought.
    own = Program(encoding=encoding_path("hashi.lp"))
    mine = review(puzzle, program=own, time_limit=60)
    assert (mine.status, mine.sought, mine.fix) == ("multiple", False, None)
    nyt = read(PUZZLES / "nyt-2022-04-03.json")
    rated = review(nyt, rate=True, time_limit=60)
    assert (rated.status, rated.sought, rated.fix) == ("unique", False, None)
    assert rated.difficulty == difficulty(nyt)
    assert review(nyt, time_limit=60).difficulty is None
