"""Fixes to choose from: ``fix --alternatives K`` offers up to K fixes, the fewest edits first,
each leaving exactly one solution (by the brute-force enumerator), each with the difficulty the
``difficulty`` command gives the fixed puzzle; ``--difficulty BAND`` keeps only the fixes that
leave the puzzle in the band.  In the library, on the command line (text and JSON, the fix's
fields kept as they were) and over the API (with its bound on K)."""

from __future__ import annotations

import json

import bruteforce
import pytest
from click.testing import CliRunner
from conftest import PROLOG

from hashi_asp import read
from hashi_asp.cli import main
from hashi_asp.commands.fix import fix_verdict
from hashi_asp.fixing import Edit, FixError, edited, fix
from hashi_asp.walkthrough import difficulty

FIX_FIELDS = ["status", "edits", "fewest", "lower_bound", "puzzle", "solution", "kept", "mode"]
FIX_FIELDS.append("keeping")


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_solution(puzzle) -> bool:
    return len(bruteforce.solutions_of(puzzle)) == 1


def single_fixes(puzzle) -> set[Edit]:
    """Every single edit free mode allows (numbers 1 to 8) that leaves exactly one solution,
    by brute force."""
    edits = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            old = puzzle.islands.get((r, c))
            if (r, c) not in puzzle.islands:
                edits += [Edit("add", (r, c), None, n) for n in range(1, 9)]
                continue
            edits.append(Edit("remove", (r, c), old, None))
            edits += [Edit("change", (r, c), old, n) for n in range(1, 9) if n != old]
    return {edit for edit in edits if one_solution(edited(puzzle, [edit]))}


@pytest.fixture(scope="module")
def prolog():
    return read(PROLOG)


def test_alternatives_are_different_fixes_the_fewest_first_each_unique_and_rated(prolog):
    made = fix(prolog, alternatives=4, time_limit=60)
    offered = made.alternatives
    assert len(offered) == 4
    assert offered[0].edits == made.edits and made.difficulty == offered[0].difficulty
    sizes = [len(other.edits) for other in offered]
    assert sizes == sorted(sizes) and sizes[0] == 1
    sets = [set(other.edits) for other in offered]
    for i, one in enumerate(sets):  # different, and none holds all the edits of another
        assert all(not (other <= one) for other in sets[:i])
    for other in offered:
        assert other.status == "fixed" and not other.free  # the first solution kept, as the fix
        assert other.puzzle == edited(prolog, other.edits)
        assert one_solution(other.puzzle)
        assert other.difficulty == difficulty(other.puzzle)


def test_every_fix_of_the_fewest_size_comes_before_a_larger_one(prolog):
    """Free mode: the single edits that leave one solution (brute force) are exactly the
    one-edit fixes offered, and a two-edit fix follows them."""
    singles = single_fixes(prolog)
    made = fix(prolog, free=True, alternatives=len(singles) + 1, time_limit=120)
    offered = made.alternatives
    assert {other.edits[0] for other in offered if len(other.edits) == 1} == singles
    assert [len(other.edits) for other in offered] == [1] * len(singles) + [2]


def test_a_band_keeps_only_the_fixes_that_leave_the_puzzle_in_it(prolog):
    plain = fix(prolog, time_limit=30)
    assert plain.difficulty is None and plain.alternatives == ()  # nothing rated unless asked
    medium = fix(prolog, band="medium", time_limit=30)
    assert medium.status == "fixed" and medium.band == "medium"
    assert medium.difficulty is not None and medium.difficulty.band == "medium"
    assert medium.difficulty == difficulty(medium.puzzle)
    assert medium.edits != plain.edits and one_solution(medium.puzzle)
    hard = fix(prolog, free=True, band="hard", alternatives=3, time_limit=60)
    assert [other.difficulty.band for other in hard.alternatives] == ["hard"] * 3
    assert hard.outside >= 1  # the fewest-edit fix leaves it expert
    assert all(one_solution(other.puzzle) for other in hard.alternatives)
    # Keeping the first solution, a hard puzzle takes two edits where one leaves it expert:
    # said so, not as "fewest not proven".
    kept = fix(prolog, band="hard", time_limit=30)
    assert (len(kept.edits), kept.fewest, kept.lower_bound) == (2, False, 1)
    assert kept.difficulty.band == "hard" and one_solution(kept.puzzle)
    assert fix_verdict(kept) == (
        "fixed: 2 edits leaving the puzzle hard, the fewest found that do (a fix needs at "
        f"least 1 edit; {kept.outside} fixes found leave it in another band)"
    )


def test_a_band_no_fix_leaves_it_in_is_said_without_a_proof(prolog):
    made = fix(prolog, band="easy", time_limit=30)
    assert (made.status, made.edits, made.band) == ("unknown", (), "easy")
    assert made.outside >= 2
    with pytest.raises(FixError, match="hardest"):
        fix(prolog, band="hardest")


def test_the_json_keeps_the_fix_s_fields_and_adds_the_alternatives():
    plain = json.loads(run("fix", PROLOG, "--format", "json").output)
    assert list(plain) == FIX_FIELDS  # without the options, as before
    done = run("fix", PROLOG, "--alternatives", "3", "--format", "json")
    assert done.exit_code == 0
    document = json.loads(done.output)
    assert list(document)[: len(FIX_FIELDS)] == FIX_FIELDS
    assert {key: document[key] for key in FIX_FIELDS} == plain
    assert len(document["alternatives"]) == 3
    first, *others = document["alternatives"]
    assert {key: first[key] for key in FIX_FIELDS} == plain
    assert first["difficulty"] == document["difficulty"]
    for other in others:
        assert list(other) == [*FIX_FIELDS, "difficulty"]
        done = run("difficulty", json.dumps(other["puzzle"]), "--format", "json")
        rated = json.loads(done.output)
        fields = ("score", "band", "steps", "finished")
        assert other["difficulty"] == {key: rated[key] for key in fields}
    assert (document["band"], document["outside"]) == (None, 0)


def test_the_text_lists_the_fixes_with_their_difficulty():
    done = run("fix", PROLOG, "--alternatives", "2")
    assert done.exit_code == 0
    assert "Fixes to choose from, the fewest edits first, each checked:" in done.output
    assert "  1. add an island 2 at (2, 1) (1 edit)\n     difficulty: 0.83 (expert;" in done.output
    assert "  2. add an island 4 at (1, 0) (1 edit)\n     difficulty: 0.33 (medium;" in done.output
    assert done.output.rstrip().endswith("fixed: 1 edit, proven fewest")


def test_the_command_line_with_a_band():
    done = run("fix", PROLOG, "--difficulty", "medium", "--format", "json")
    document = json.loads(done.output)
    assert done.exit_code == 0
    assert [e["to"] for e in document["edits"]] == [4] and document["band"] == "medium"
    assert document["difficulty"]["band"] == "medium"
    easy = run("fix", PROLOG, "--difficulty", "easy")
    assert easy.exit_code == 3
    assert "unknown: no fix leaving the puzzle easy found (no other fix found;" in easy.output
    wrong = run("fix", PROLOG, "--difficulty", "hardest")
    assert wrong.exit_code == 2 and "hardest" in wrong.output


def test_the_api_offers_alternatives_up_to_its_bound(server):
    def ask(**options):
        body = json.dumps({"puzzle": PROLOG.read_text(), **options}).encode()
        return server.ask("POST", "/api/fix", {"Content-Type": "application/json"}, body)

    status, _, document = ask(alternatives=2, difficulty="expert")
    assert status == 200
    assert [other["difficulty"]["band"] for other in document["alternatives"]] == ["expert"] * 2
    status, _, document = ask(alternatives=11)
    assert status == 400 and "at most 10 fixes" in document["error"]
    status, _, document = ask(difficulty="hardest")
    assert status == 400 and "difficulty" in document["error"]


def test_an_answer_not_proven_least_or_past_the_next_size_is_not_offered(prolog, monkeypatch):
    """The loop's answer when the time cut its optimisation short (a fix, but not the least
    left) or one of two edits more than the fewest ends the search: neither is offered."""
    from hashi_asp.fixing import alternatives
    from hashi_asp.fixing.results import FoundFix, Searched
    from hashi_asp.status import Verdict
    from hashi_asp.stopping import Deadline

    best = fix(prolog, time_limit=30)
    far = (Edit("add", (1, 0), None, 4), Edit("add", (1, 2), None, 2), Edit("add", (3, 0), None, 2))
    near = far[:1]
    answers = {
        "unproven": Searched(Verdict.FIXED, FoundFix(near, edited(prolog, near), None), False, 1),
        "too many": Searched(Verdict.FIXED, FoundFix(far, edited(prolog, far), None), True, 3),
    }
    for name, answer in answers.items():

        class Loop:
            free = False
            answered = answer

            def __init__(self, *args, **kwargs):
                pass

            def exclude(self, edits):
                pass

            def run(self, others, lower=1):
                return self.answered

        monkeypatch.setattr(alternatives, "CounterexampleSearch", Loop)
        made = alternatives.offered(prolog, best, [], 3, None, Deadline(30))
        assert [other.edits for other in made.alternatives] == [best.edits], name
