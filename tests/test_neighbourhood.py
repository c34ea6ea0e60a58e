"""The neighbourhood search for first solutions (``--connectivity lns``): it finds checked
solutions of generated puzzles, never claims there is none, and refuses to count."""

import json
import random
import threading

import pytest
from click.testing import CliRunner

from hashi_asp import Program, Stop, check, count, generate, parse, solve
from hashi_asp.asp import FORMULATIONS, auto, few_doubles, interface, neighbourhood, sweep
from hashi_asp.asp.enumeration import GIANT, SWEPT_DOUBLES, plan
from hashi_asp.asp.interface import EncodingError
from hashi_asp.asp.neighbourhood import Neighbourhoods
from hashi_asp.asp.portfolio import name_of, variants
from hashi_asp.asp.sweep import Sweep
from hashi_asp.cli import main
from hashi_asp.graphs import connected_groups
from hashi_asp.puzzle import Puzzle
from hashi_asp.stopping import Deadline

LNS = Program(connectivity="lns")


@pytest.mark.parametrize(
    ("islands", "seed", "beta"), [(200, 1, 0.0), (300, 2, 0.0), (400, 3, 0.5), (GIANT, 4, 0.0)]
)
def test_it_finds_checked_solutions_of_generated_puzzles(islands, seed, beta):
    puzzle = generate(islands, seed=seed, beta=beta).puzzle
    found = solve(puzzle, program=LNS, time_limit=120)
    assert found.status == "solved" and not found.exhausted
    assert check(puzzle, found.solutions[0]) == []


def test_the_parts_kept_up_to_date_are_the_parts_found_afresh():
    # The search finds again only the parts a round touched; an oracle finds every part of the
    # candidate from scratch after each round and compares.
    puzzle = generate(GIANT, seed=5, beta=0.25).puzzle
    afresh: list[bool] = []

    class Checked(Neighbourhoods):
        def mend(self, joining, freed, budget, *, whole=False):
            before = len(self.parts)
            found = super().mend(joining, freed, budget, whole=whole)
            joined = {
                frozenset(group)
                for group in connected_groups(
                    range(len(self.cells)),
                    lambda i: [j for j, p in self.seen[i] if self.counts[p]],
                )
            }
            afresh.append(joined == {frozenset(part) for part in self.parts.values()})
            assert all(self.parts[self.part_of[i]].count(i) == 1 for i in range(len(self.cells)))
            assert len(self.parts) < before if found else len(self.parts) == before
            return found

    program = interface.chosen(LNS, puzzle)
    # (a candidate from the whole puzzle, in many parts: not swept)
    assert not sweep.swept(puzzle)
    search = Checked(puzzle, program, Deadline(120), random.Random(1))
    found = search.run()
    assert found is not None and check(puzzle, found) == []
    assert len(afresh) > 20 and all(afresh), afresh


def test_the_sweep_settles_islands_for_good_and_leaves_no_part_closed(monkeypatch):
    # A puzzle with a quarter of its bridges double, its first candidate swept window by window
    # (from 1 000 islands here, for speed, 12 rows settled a window, so that its 56 rows take
    # several windows).  After every window an oracle reads the candidate:
    # each settled island has its number and no crossing, and every part the settled bridges
    # make reaches an island not settled (nothing above closes off); the last window's candidate
    # is in one part, so no round of mending follows.
    monkeypatch.setattr(sweep, "SWEPT", GIANT)
    monkeypatch.setattr(sweep, "STEP", 12)
    puzzle = generate(GIANT, seed=6, beta=0.25).puzzle
    numbers = [puzzle.islands[cell] for cell in puzzle.geometry.cells]
    checked: list[bool] = []

    bottoms: list[int] = []

    class Checked(Sweep):
        def window(self, window, bottom):
            bottoms.append(bottom)
            return super().window(window, bottom)

        def settle(self, window, line, bottom):
            super().settle(window, line, bottom)
            settled, search = self.settled, self.search
            counts, ends, crossing = search.counts, search.ends, search.geometry.crossing
            fixed = [p for p, (a, b) in enumerate(ends) if settled[a] or settled[b]]
            lines = [0] * len(search.cells)
            for p in fixed:
                for end in ends[p]:
                    lines[end] += counts[p]
            met = all(lines[i] == numbers[i] for i, done in enumerate(settled) if done)
            crossed = any(counts[p] and counts[q] for p in fixed for q in crossing[p])
            parts = connected_groups(
                [i for i, done in enumerate(settled) if done],
                lambda i: [j for j, p in search.seen[i] if counts[p]],
            )
            open_ = all(any(not settled[i] for i in part) for part in parts)
            checked.append(met and not crossed and open_)

    monkeypatch.setattr(neighbourhood, "Sweep", Checked)
    search = Neighbourhoods(puzzle, interface.chosen(LNS, puzzle), Deadline(120), random.Random(1))
    found = search.run()
    assert found is not None and check(puzzle, found) == []
    assert len(checked) >= 2 and all(checked), checked
    # no window leaves fewer rows below it than a step (the last joins every group: room to)
    assert bottoms[-1] == puzzle.rows
    assert all(b == puzzle.rows or puzzle.rows - b >= sweep.STEP for b in bottoms)
    assert search.windows > 0 and search.rounds == search.windows  # no other round at all


def test_swept_from_the_left_is_the_puzzle_turned_swept_from_the_top(monkeypatch):
    # neighbourhood.lp's sweep_from=left: the candidate drawn from the left is the one drawn from
    # the top of the puzzle with rows and columns exchanged, turned back (an oracle turns it);
    # it is checked like any answer, and a race for a first solution sweeps from both sides.
    monkeypatch.setattr(sweep, "SWEPT", GIANT)
    monkeypatch.setattr(sweep, "STEP", 12)
    puzzle = generate(GIANT, seed=2, beta=0.25).puzzle
    turned = Puzzle(puzzle.cols, puzzle.rows, {(c, r): n for (r, c), n in puzzle.islands.items()})
    left = Program(connectivity="lns", constants={"sweep_from": "left"})
    found = solve(puzzle, program=left, time_limit=120)
    assert found.status == "solved" and check(puzzle, found.solutions[0]) == []
    drawn = solve(turned, program=LNS, time_limit=120).solutions[0]
    back = {((b.c1, b.r1), (b.c2, b.r2), b.count) for b in drawn.bridges}
    assert {((b.r1, b.c1), (b.r2, b.c2), b.count) for b in found.solutions[0].bridges} == back
    assert found.stats["windows"] > 1
    raced = [name_of(program) for program in variants(Program(), puzzle, 2, models=1)]
    assert raced == ["lns", "lns -c sweep_from=left"]
    bad = CliRunner().invoke(
        main, ["solve", "1.1\n...\n1.1\n", "--connectivity", "lns", "-c", "sweep_from=bottom"]
    )
    assert bad.exit_code == 2 and bad.stderr.strip().splitlines() == [
        "hashi-asp: -c sweep_from must be top or left, got 'bottom'"
    ]


def test_a_step_back_restores_the_whole_state_of_the_sweep(monkeypatch):
    # The third window is made to run out of its budget with no island to blame: the sweep goes
    # back a step, to the state it had before the second window's answer was taken (the islands
    # settled, the candidate's counts, the islands that already waited once across a long
    # bridge), and searches a deeper window from there.
    monkeypatch.setattr(sweep, "SWEPT", GIANT)
    monkeypatch.setattr(sweep, "STEP", 12)
    puzzle = generate(GIANT, seed=2, beta=0.25).puzzle
    seen: list[tuple[list[bool], list[int], set[int], int]] = []

    class BackingUp(Sweep):
        def window(self, window, bottom):
            seen.append((list(self.settled), list(self.search.counts), set(self.waited), bottom))
            if len(seen) == 3:
                return None, False, set()  # out of budget, nobody blamed
            return super().window(window, bottom)

    monkeypatch.setattr(neighbourhood, "Sweep", BackingUp)
    search = Neighbourhoods(puzzle, interface.chosen(LNS, puzzle), Deadline(120), random.Random(1))
    found = search.run()
    assert found is not None and check(puzzle, found) == []
    second, third, fourth = seen[1], seen[2], seen[3]
    assert third[2] > second[2]  # the second window's answer made islands wait...
    assert fourth[:3] == second[:3]  # ...and the step back forgot it with the rest
    assert fourth[3] > second[3]  # a window deeper


def test_on_a_puzzle_without_a_solution_it_finds_none_and_claims_nothing():
    # Each pair of islands can meet its numbers, but the two pairs cannot be joined.
    puzzle = parse("1.1\n...\n1.1\n")
    assert solve(puzzle, program=Program(connectivity="reach")).status == "unsolvable"
    found = solve(puzzle, program=LNS, time_limit=60)
    assert found.status == "unknown" and not found.exhausted and found.count == 0
    said = CliRunner().invoke(main, ["solve", "1.1\n...\n1.1\n", "--connectivity", "lns"])
    assert said.output.strip().splitlines()[-1] == (
        "unknown: no solution; the neighbourhood search found none, which proves nothing "
        "(auto searches on)"
    )


def test_counting_needs_a_complete_search():
    with pytest.raises(EncodingError, match="first solution only"):
        count(generate(20, seed=1).puzzle, program=LNS)


def test_a_stop_ends_it_between_rounds_and_says_why():
    """A caller's stop (as Ctrl-C or a server's cancel gives) on a puzzle with many doubled
    bridges, which the neighbourhood search is slow on: it hands back nothing found, stopped
    for that reason, and claims nothing of the puzzle."""
    puzzle = generate(250, seed=3, beta=0.5).puzzle
    deadline = Deadline()
    stopper = threading.Timer(1.0, deadline.stop)
    stopper.start()
    try:
        found = solve(puzzle, program=LNS, time_limit=deadline)
    finally:
        stopper.cancel()
    if found.status == "solved":  # a machine fast enough to solve it first
        assert check(puzzle, found.solutions[0]) == []
    else:
        assert found.stopped is Stop.CANCELLED and deadline.stopped is Stop.CANCELLED
        assert found.status == "unknown" and not found.exhausted and found.count == 0


def first(puzzle: Puzzle, models: int = 1) -> str:
    """The formulation an enumeration of ``models`` answers of ``puzzle`` searches first."""
    return plan(Program(), puzzle, models).first.connectivity


def test_auto_takes_it_for_a_first_solution_of_a_giant_only(monkeypatch):
    giant, small = generate(GIANT, seed=5, beta=0.0).puzzle, generate(200, seed=5).puzzle
    assert first(giant) == "lns" and plan(Program(), giant, 1).then.connectivity == auto(giant)
    assert FORMULATIONS[auto(giant)].complete and first(giant, models=2) == auto(giant)
    assert FORMULATIONS[first(small)].complete
    doubled = generate(GIANT, seed=5, beta=0.5).puzzle  # where reach wins
    assert FORMULATIONS[first(doubled)].complete
    # ...unless the search sweeps its first candidate (from 1 000 islands here, for speed)
    monkeypatch.setattr(sweep, "SWEPT", GIANT)
    assert sweep.swept(doubled) and first(doubled) == "lns"
    assert FORMULATIONS[auto(doubled)].complete
    # ...but not where most bridges are double: the whole puzzle's search is quicker there
    mostly = generate(GIANT, seed=5, beta=0.75).puzzle
    assert sweep.swept(mostly) and not few_doubles(mostly, SWEPT_DOUBLES)
    assert first(mostly) == auto(mostly) and FORMULATIONS[first(mostly)].complete
    monkeypatch.undo()
    found = solve(giant, time_limit=120)
    assert found.status == "solved" and "rounds" in found.stats  # the neighbourhood search's
    assert check(giant, found.solutions[0]) == []
    assert "rounds" not in solve(giant, models=2, time_limit=120).stats


def test_auto_proves_a_giant_unsolvable_where_the_neighbourhood_search_finds_none():
    """An island of the top row given an 8 (it sees three islands at most): the neighbourhood
    search finds no candidate and says nothing; ``auto`` then searches completely and proves
    there is none."""
    puzzle = generate(GIANT, seed=6, beta=0.0).puzzle
    top = min(puzzle.islands)
    islands = {**puzzle.islands, top: 8}
    broken = Puzzle(puzzle.rows, puzzle.cols, islands, rules=puzzle.rules)
    assert solve(broken, program=LNS, time_limit=120).status == "unknown"
    found = solve(broken, time_limit=120)
    assert found.status == "unsolvable" and found.exhausted


def test_a_race_for_a_first_solution_of_a_giant_runs_it_beside_a_complete_search():
    giant, race = generate(GIANT, seed=5, beta=0.0).puzzle, Program(connectivity="race")
    first = [each.connectivity for each in variants(race, giant, 2, models=1)]
    assert first[0] == "lns" and FORMULATIONS[first[1]].complete
    counting = [each.connectivity for each in variants(race, giant, 4, models=0)]
    assert all(FORMULATIONS[name].complete for name in counting)


def test_a_study_race_run_alone_runs_what_auto_picks_for_its_task(tmp_path):
    # A study with more runs than cores runs each race alone, its first variant: for a first
    # solution of a giant the neighbourhood search, for a uniqueness verdict a complete search.
    from hashi_asp.notations import write
    from hashi_asp.study.runs import Task, perform
    from hashi_asp.study.variants import parse as variant

    path = tmp_path / "giant.has"
    path.write_text(write(generate(GIANT, seed=4, beta=0.0).puzzle, "has"))
    raced = variant("race", "--connectivity race")
    first = perform(Task(str(path), path.read_text(), raced, 1, "solve", 120, alone=True))
    assert first.status == "solved" and json.loads(first.detail)["ran"] == "lns"
    verdict = perform(Task(str(path), path.read_text(), raced, 1, "unique", 120, alone=True))
    ran = json.loads(verdict.detail)["ran"]
    assert FORMULATIONS[ran.split()[0]].complete, verdict.detail
