"""Walkthroughs: every step checked against an independent enumeration of assignments (the step
follows from its reason, and needs every island of it), the outcome against the brute-force
solutions, a player's bridges, the next move alone, repeatability, the bundled puzzles, the
difficulty rating (of a puzzle with exactly one solution only) and the progress a walkthrough
tells as it goes (on a terminal's standard error).

The enumeration below is written from the definition of a step in hashi_asp.walkthrough, not from
its code: every pair of neighbours gets a count within what the earlier steps left, no two
bridges cross, loops only where the rules allow them, the islands of the reason get their
numbers (the others' numbers are not used) and, for a step that says so, all islands are
connected.
"""

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import tempfile
import termios
from pathlib import Path

import bruteforce
import pytest
from conftest import PROLOG, run, small_puzzles
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, PuzzleError, Rules, Solution, bridge, read, solve
from hashi_asp.difficulty import BANDS, band_of
from hashi_asp.generation import GenerationError, generate
from hashi_asp.play import Play
from hashi_asp.status import Status
from hashi_asp.walkthrough import (
    SeveralSolutions,
    Unsolvable,
    Walkthrough,
    difficulty,
    steps,
    techniques,
)
from hashi_asp.walkthrough.board import Found, pair_index, starting_counts
from hashi_asp.walkthrough.finding import Finder

MAX_PAIRS = 12  # keeps the exhaustive enumeration of every step fast

# ---------------------------------------------------------------------------- the enumeration


def pairs_of(puzzle: Puzzle) -> list:
    return bruteforce.neighbour_pairs(puzzle.rows, puzzle.cols, dict(puzzle.islands))


def assignment(puzzle: Puzzle, domains: dict, reason, connectivity: bool, pair=None, counts=()):
    """An assignment of a count to every pair of neighbours, within ``domains`` (pair -> counts
    left), that obeys the rules, gives each island of ``reason`` its number and, with
    ``connectivity``, connects all islands; with ``pair``, one that gives that pair one of
    ``counts``.  None when there is none.

    Exhaustive depth-first search, pruned by crossings and by the numbers of the reason.  A pair
    at no island of the reason (other than ``pair``) counts for no rule except by having a
    bridge or not, so only its least count and its least count above 0 are tried."""
    islands = puzzle.islands
    wanted = set(reason)
    every = pairs_of(puzzle)
    near = [p for p in every if p == pair or p[0] in wanted or p[1] in wanted]
    order = near + [p for p in every if p not in near]
    options = []
    for p in order:
        values = sorted(domains[p])
        if p == pair:
            values = [k for k in values if k in counts]
        elif p not in near:
            values = [k for k in values if k == 0] + [k for k in values if k][:1]
        options.append(values)
    earlier_crossing = [
        [j for j, q in enumerate(order[:i]) if bruteforce._between(*p) & bruteforce._between(*q)]
        for i, p in enumerate(order)
    ]
    # The least and most the pairs from position i on can still add at each island of the reason.
    low = {cell: [0] * (len(order) + 1) for cell in wanted}
    high = {cell: [0] * (len(order) + 1) for cell in wanted}
    for cell in wanted:
        for i in range(len(order) - 1, -1, -1):
            touches = cell in order[i] and options[i]
            low[cell][i] = low[cell][i + 1] + (min(options[i]) if touches else 0)
            high[cell][i] = high[cell][i + 1] + (max(options[i]) if touches else 0)
    value = [0] * len(order)
    total = dict.fromkeys(wanted, 0)

    def possible(cell, i: int) -> bool:
        most = total[cell] + high[cell][i]
        if islands[cell] is None:
            return most >= 1
        return total[cell] + low[cell][i] <= islands[cell] <= most

    def valid() -> bool:
        sums = dict.fromkeys(islands, 0)
        for (a, b), k in zip(order, value):
            sums[a] += k
            sums[b] += k
        for cell in wanted:
            if (sums[cell] < 1) if islands[cell] is None else (sums[cell] != islands[cell]):
                return False
        parent = {cell: cell for cell in islands}

        def root(cell):
            while parent[cell] != cell:
                cell = parent[cell]
            return cell

        groups = len(islands)
        for (a, b), k in zip(order, value):
            if k:
                ra, rb = root(a), root(b)
                if ra == rb:
                    if puzzle.rules.no_loops:
                        return False
                    continue
                parent[ra] = rb
                groups -= 1
        return groups == 1 or not connectivity

    def search(i: int) -> bool:
        if i == len(order):
            return valid()
        ends = [cell for cell in order[i] if cell in wanted]
        for k in options[i]:
            if k and any(value[j] for j in earlier_crossing[i]):
                continue
            value[i] = k
            for cell in ends:
                total[cell] += k
            fits = all(possible(cell, i + 1) for cell in ends)
            if fits and search(i + 1):
                return True
            for cell in ends:
                total[cell] -= k
        value[i] = 0
        return False

    if not all(possible(cell, 0) for cell in wanted) or not search(0):
        return None
    return dict(zip(order, value))


# ---------------------------------------------------------------------------- checking a walk


def start_of(puzzle: Puzzle, bridges=()) -> dict:
    """The counts each pair can take at the start: 0..K, at least the count drawn; exactly the
    count drawn (0 where none is) when the bridges drawn solve the puzzle."""
    top = puzzle.rules.max_bridges
    complete = bool(bridges) and frozenset(bridges) in bruteforce.solutions_of(puzzle)
    domains = {pair: (0,) if complete else tuple(range(top + 1)) for pair in pairs_of(puzzle)}
    for drawn in bridges:
        domains[drawn.ends] = (drawn.count,) if complete else tuple(range(drawn.count, top + 1))
    return domains


def check_steps(puzzle: Puzzle, walk: Walkthrough, domains: dict) -> dict:
    """Replays the steps from ``domains``, checking each against the state before it; returns
    the counts left after the last."""
    domains = dict(domains)
    for number, step in enumerate(walk.steps):
        where = f"step {number}: {step}"
        assert all(cell in puzzle.islands for cell in step.reason), where
        assert list(step.reason) == sorted(set(step.reason)), where
        assert step.bridges == tuple(sorted(set(step.bridges))), where
        if step.pair is None:  # a contradiction at islands with no neighbours
            assert (step.before, step.bridges) == ((), ()), where
            assert assignment(puzzle, domains, step.reason, step.connectivity) is None, where
            for cell in step.reason:
                fewer = [other for other in step.reason if other != cell]
                assert assignment(puzzle, domains, fewer, step.connectivity) is not None, where
            continue
        a, b = step.pair
        assert a < b and step.pair in domains, where
        assert step.before == domains[step.pair], where
        assert set(step.bridges) < set(step.before), where
        ruled_out = set(step.before) - set(step.bridges)
        question = (step.connectivity, step.pair, ruled_out)
        assert assignment(puzzle, domains, step.reason, *question) is None, f"{where}: insufficient"
        for cell in step.reason:
            fewer = [other for other in step.reason if other != cell]
            witness = assignment(puzzle, domains, fewer, *question)
            assert witness is not None, f"{where}: {cell} is not needed"
        domains[step.pair] = step.bridges
    return domains


def brute_solutions(puzzle: Puzzle) -> list[dict]:
    """The brute-force solutions, each as a count for every pair."""
    found = bruteforce.solutions_of(puzzle)
    pairs = pairs_of(puzzle)
    solutions = []
    for solution in sorted(found, key=sorted):
        counts = {((r1, c1), (r2, c2)): k for r1, c1, r2, c2, k in solution}
        solutions.append({pair: counts.get(pair, 0) for pair in pairs})
    return solutions


def verify(puzzle: Puzzle, bridges=()) -> Walkthrough:
    """Walks ``puzzle`` through from ``bridges`` (lower bounds), checks every step and the
    outcome against the brute-force solutions that keep those bridges."""
    walk = steps(puzzle, Solution.of(bridges) if bridges else None)
    start = start_of(puzzle, bridges)
    left = check_steps(puzzle, walk, start)
    assert walk.possible == left
    solutions = [s for s in brute_solutions(puzzle) if all(s[p] in start[p] for p in start)]
    for solution in solutions:  # no step removes a count a solution uses
        assert all(step.pair is None or solution[step.pair] in step.bridges for step in walk.steps)
    if walk.status != "contradiction":  # (every pair decided, for a puzzle with none)
        assert (walk.status == "solved") == all(len(counts) == 1 for counts in left.values())
    if not solutions:
        assert walk.status == "contradiction"
        assert walk.steps and walk.steps[-1].bridges == ()
        assert walk.conflict == walk.steps[-1].reason
    elif len(solutions) == 1:
        assert walk.status == "solved"
        (solution,) = solutions
        expected = Solution.of(bridge(*pair, k) for pair, k in solution.items() if k)
        assert walk.solution == expected
    else:
        # No step follows: every count left is used by some solution.
        assert walk.status == "stuck"
        used = {pair: tuple(sorted({s[pair] for s in solutions})) for pair in start}
        assert walk.possible == used
        assert set(walk.open) == {pair for pair, counts in used.items() if len(counts) > 1}
    if walk.difficulty is not None:
        assert 0 <= walk.difficulty.score <= 1
        assert walk.difficulty.band == band_of(walk.difficulty.score)
    return walk


# ---------------------------------------------------------------------------- puzzles


@st.composite
def variant_puzzles(
    draw, max_bridges: int = 2, no_loops: bool = False, unnumbered: bool = False, layout=None
):
    """Grids and islands from ``small_puzzles``; half of them (all with ``layout``) renumbered
    from a random layout under the rules asked for (0..K bridges a pair, a forest for no loops),
    so that many are solvable; with ``unnumbered`` some islands lose their number."""
    rows, cols, islands = draw(small_puzzles(max_side=4, max_islands=7))
    if layout or draw(st.booleans()):
        degree = dict.fromkeys(islands, 0)
        group = {cell: cell for cell in islands}
        used: set = set()
        for a, b in draw(st.permutations(bruteforce.neighbour_pairs(rows, cols, degree))):
            k = draw(st.integers(0, max_bridges))
            between = bruteforce._between(a, b)
            if not k or between & used or (no_loops and group[a] == group[b]):
                continue
            used |= between
            degree[a] += k
            degree[b] += k
            joined, into = group[a], group[b]
            group = {cell: into if g == joined else g for cell, g in group.items()}
        islands = {cell: degree[cell] or draw(st.integers(1, 4)) for cell in islands}
    if unnumbered:
        islands = {cell: None if draw(st.integers(0, 2)) == 0 else n for cell, n in islands.items()}
    puzzle = Puzzle(rows, cols, islands, rules=Rules(max_bridges, no_loops))
    assume(len(pairs_of(puzzle)) <= MAX_PAIRS)
    return puzzle


# ---------------------------------------------------------------------------- every step


@given(small_puzzles(max_side=4, max_islands=7))
@settings(max_examples=150, deadline=None)
def test_every_step_follows_from_a_minimal_reason_and_the_walk_ends_as_brute_force_says(case):
    puzzle = Puzzle(*case)
    assume(len(pairs_of(puzzle)) <= MAX_PAIRS)
    verify(puzzle)


@pytest.mark.parametrize(
    "max_bridges, no_loops, unnumbered",
    [(1, False, False), (3, False, False), (2, True, False), (2, False, True), (3, True, True)],
)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_step_under_the_variants(max_bridges, no_loops, unnumbered, data):
    verify(data.draw(variant_puzzles(max_bridges, no_loops, unnumbered)))


def test_an_unsolvable_pair_ends_in_a_contradiction():
    # Two 3s with one pair between them: at most 2 bridges there.
    walk = verify(Puzzle(1, 3, {(0, 0): 3, (0, 2): 3}))
    assert walk.status == "contradiction"


def test_an_island_whose_number_its_decided_pairs_miss_is_a_contradiction():
    # The 1 decides the only pair; the 2 at its other end then has 1 bridge, not 2.
    walk = verify(Puzzle(1, 2, {(0, 0): 1, (0, 1): 2}))
    assert walk.status == "contradiction"


@pytest.mark.parametrize(
    "rows, cols, islands",
    [(1, 1, {(0, 0): 1}), (2, 2, {(0, 0): 1, (1, 1): 1})],
    ids=["alone", "two-apart"],
)
def test_islands_without_neighbours_are_a_contradiction(rows, cols, islands):
    assert verify(Puzzle(rows, cols, islands)).status == "contradiction"


# ---------------------------------------------------------------------------- a player's bridges


@st.composite
def solvable_with_bridges(draw):
    """A solvable puzzle and some bridges of one of its solutions, each with at most the
    count that solution has."""
    rules = draw(st.sampled_from([Rules(), Rules(1), Rules(3), Rules(no_loops=True)]))
    unnumbered = draw(st.booleans())
    puzzle = draw(variant_puzzles(rules.max_bridges, rules.no_loops, unnumbered, layout=True))
    solutions = brute_solutions(puzzle)
    assume(solutions)
    solution = draw(st.sampled_from(solutions))
    bridged = [pair for pair, k in solution.items() if k]
    chosen = draw(st.lists(st.sampled_from(bridged), unique=True)) if bridged else []
    drawn = [bridge(*pair, draw(st.integers(1, solution[pair]))) for pair in chosen]
    return puzzle, drawn


@given(solvable_with_bridges())
# Most random layouts are unsolvable or too big for the enumeration and are filtered out, by
# design: a busy machine must not turn that into a failed health check.
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_bridges_of_a_solution_never_lead_to_a_contradiction(case):
    puzzle, drawn = case
    assert verify(puzzle, drawn).status != "contradiction"


def test_a_given_bridge_between_islands_that_are_not_neighbours_is_refused():
    puzzle = Puzzle(1, 3, {(0, 0): 1, (0, 1): 2, (0, 2): 1})
    for ends in [((0, 0), (0, 2)), ((0, 1), (1, 1)), ((0, 0), (1, 1))]:
        with pytest.raises(PuzzleError, match="neighbouring"):
            steps(puzzle, Solution.of([bridge(*ends, 1)]))


# ---------------------------------------------------------------------------- one step, and again


@given(small_puzzles(max_side=4, max_islands=7))
@settings(max_examples=60, deadline=None)
def test_the_next_move_is_the_first_step_and_walks_repeat(case):
    puzzle = Puzzle(*case)
    assume(len(pairs_of(puzzle)) <= MAX_PAIRS)
    whole, again, first = steps(puzzle), steps(puzzle), steps(puzzle, limit=1)
    assert again.steps == whole.steps and again.status == whole.status
    assert first.steps == whole.steps[:1]
    finished = whole.status in ("solved", "contradiction") and len(whole.steps) <= 1
    assert first.status == (whole.status if finished or not whole.steps else "unfinished")


# ---------------------------------------------------------------------------- bundled puzzles


def test_the_new_york_times_puzzle_is_walked_to_its_solution(puzzles):
    puzzle = read(puzzles / "nyt-2022-04-03.json")
    walk = steps(puzzle)
    assert walk.status == "solved" and walk.open == {}
    assert walk.solution == solve(puzzle).solutions[0]
    assert steps(puzzle).steps == walk.steps


def test_the_prolog_puzzle_with_two_solutions_is_stuck():
    walk = verify(read(PROLOG))
    assert walk.status == "stuck" and walk.solution is None and walk.open


# ---------------------------------------------------------------------------- difficulty


@pytest.mark.parametrize(
    "islands",
    [{(0, 0): 3, (0, 2): 3}, {(0, 0): 1, (0, 1): 2}, {(0, 0): 1, (0, 2): None, (2, 2): 5}],
)
def test_the_difficulty_of_a_puzzle_with_no_solution_is_refused(islands):
    with pytest.raises(Unsolvable) as refused:
        difficulty(Puzzle(3, 3, islands))
    assert isinstance(refused.value, PuzzleError) and refused.value.status is Status.CANNOT_ANSWER


@given(small_puzzles(max_side=4, max_islands=7))
@settings(max_examples=80, deadline=None)
def test_only_a_puzzle_with_one_solution_has_a_difficulty_and_its_score_lies_in_its_band(case):
    puzzle = Puzzle(*case)
    assume(len(pairs_of(puzzle)) <= MAX_PAIRS)
    found = brute_solutions(puzzle)
    if len(found) != 1:
        with pytest.raises(SeveralSolutions if found else Unsolvable):
            difficulty(puzzle)
        return
    rated = difficulty(puzzle)
    assert 0 <= rated.score <= 1 and rated.band in BANDS
    assert rated.band == band_of(rated.score)


def test_a_puzzle_with_two_solutions_has_no_difficulty():
    with pytest.raises(SeveralSolutions) as refused:
        difficulty(read(PROLOG))
    assert refused.value.status is Status.CANNOT_ANSWER and refused.value.verdict == "multiple"
    assert str(refused.value) == (
        f"{PROLOG}: several solutions: only a puzzle with exactly one has a difficulty"
    )
    walk = steps(read(PROLOG))
    assert walk.status == "stuck" and walk.difficulty is None


def test_generating_for_a_difficulty_discards_puzzles_with_several_solutions():
    with pytest.raises(GenerationError, match="2 with several solutions") as failed:
        generate(25, seed=1, difficulty="expert", attempts=2)
    assert failed.value.status is Status.CANNOT_ANSWER
    made = generate(25, seed=1, difficulty=(0, 1), attempts=20)  # any score: a unique one
    assert solve(made.puzzle, models=2).status == "unique"


# ---------------------------------------------------------------------------- the commands


def test_the_walkthrough_command_prints_checked_steps_as_json(puzzles):
    nyt = puzzles / "nyt-2022-04-03.json"
    result = run("steps", nyt, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["status"] == "solved" and document["checked"] is True
    assert {b[:4]: b[4] for b in map(tuple, document["solution"]["bridges"])} == {
        (*b.ends[0], *b.ends[1]): b.count for b in solve(read(nyt)).solutions[0].bridges
    }
    for step in document["steps"]:
        r1, c1, r2, c2 = step["pair"]
        assert (r1, c1) < (r2, c2) and step["bridges"] == sorted(step["bridges"])
        assert set(step["bridges"]) < set(step["before"]) and step["text"]
    assert document["difficulty"]["band"] in ("easy", "medium", "hard", "expert")
    first = json.loads(run("steps", nyt, "-n", 1, "--format", "json").output)
    assert first["status"] == "unfinished" and first["steps"] == document["steps"][:1]
    assert first["difficulty"] is None


def test_the_text_walkthrough_numbers_steps_and_draws_the_board(puzzles):
    result = run("steps", puzzles / "nyt-2022-04-03.json")
    assert result.exit_code == 0
    assert "Step 1: " in result.output and "solved: " in result.output
    assert result.output.count("Step ") == len(steps(read(puzzles / "nyt-2022-04-03.json")).steps)
    stuck = run("steps", puzzles / "prolog-5x5.txt")
    assert stuck.exit_code == 1 and "stuck after" in stuck.output
    assert "(0, 0)-(0, 2): 0 or 1" in stuck.output  # a pair the two solutions differ on
    assert "difficulty" not in stuck.output  # several solutions: no rating


def test_a_contradiction_names_the_islands_in_conflict():
    result = run("steps", "-", "--format", "json", input="1.2\n")
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert document["status"] == "contradiction" and document["steps"][-1]["bridges"] == []
    assert document["conflict"] and document["difficulty"] is None
    refused = run("difficulty", "-", input="1.2\n")
    assert refused.exit_code == 1
    assert refused.stdout == (
        "unsolvable: no solution; only a puzzle with exactly one solution has a difficulty\n"
    )
    document = json.loads(run("difficulty", "-", "--format", "json", input="1.2\n").stdout)
    assert document["status"] == "unsolvable" and document["score"] is None


def test_given_bridges_start_the_walkthrough(puzzles):
    nyt = puzzles / "nyt-2022-04-03.json"
    answer = solve(read(nyt)).solutions[0]
    drawn = json.dumps({"bridges": [list(answer.bridges[0])]})
    document = json.loads(run("steps", nyt, "--given", drawn, "--format", "json").output)
    assert document["status"] == "solved"
    assert all(
        s["pair"] != [*answer.bridges[0].ends[0], *answer.bridges[0].ends[1]]
        or 0 not in s["before"]
        for s in document["steps"]
    )
    wrong = run("steps", nyt, "--given", '{"bridges": [[0, 0, 3, 3, 1]]}')
    assert wrong.exit_code == 2 and wrong.output.count("\n") == 1
    assert "does not join two neighbouring islands" in wrong.output


def test_svg_pictures_go_to_a_folder_and_are_not_overwritten(tmp_path, puzzles):
    nyt = puzzles / "nyt-2022-04-03.json"
    assert run("steps", nyt, "--format", "svg").exit_code == 2  # no folder
    out = tmp_path / "walk"
    result = run("steps", nyt, "--format", "svg", "--out", out)
    assert result.exit_code == 0, result.output
    pictures = sorted(out.iterdir())
    assert len(pictures) == len(steps(read(nyt)).steps)
    assert pictures[0].name == "step-001.svg" and "<svg" in pictures[0].read_text()
    before = pictures[0].read_text()
    pictures[0].write_text("mine")
    again = run("steps", nyt, "--format", "svg", "--out", out)
    assert again.exit_code == 2 and "file exists" in again.output
    assert pictures[0].read_text() == "mine"
    assert run("steps", nyt, "--format", "svg", "--out", out, "--force").exit_code == 0
    assert pictures[0].read_text() == before


def test_the_difficulty_command(puzzles):
    result = run("difficulty", puzzles / "nyt-2022-04-03.json", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.output)["band"] == "easy"
    assert json.loads(result.output)["status"] == "rated"


def test_the_difficulty_command_says_a_puzzle_with_two_solutions_has_none(puzzles):
    result = run("difficulty", puzzles / "prolog-5x5.txt")
    assert result.exit_code == 1 and result.stderr == ""
    assert result.stdout.splitlines() == [
        "multiple: several solutions; only a puzzle with exactly one solution has a difficulty "
        "(`hashi-asp unique` shows where two differ)"
    ]
    result = run("difficulty", puzzles / "prolog-5x5.txt", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["status"] == "multiple"
    assert [document[key] for key in ("score", "band", "steps", "finished")] == [None] * 4


# ---------------------------------------------------------------------------- progress


def test_a_walkthrough_tells_its_progress_after_each_step():
    puzzle = read("7x7m2:4a4a2a2w2k4c3a1")
    told = []
    walk = steps(puzzle, on_step=told.append)
    pairs = len(walk.possible)
    assert all(progress.pairs == pairs and not progress.rating for progress in told)
    assert [progress.steps for progress in told] == list(range(1, len(walk.steps) + 1))
    for number, progress in enumerate(told, 1):  # the pairs left open after each step
        assert progress.decided == pairs - len(steps(puzzle, limit=number).open)
    assert told[-1].decided == pairs
    # One walkthrough: the rating counts the steps shown, and a difficulty walks the same one.
    assert walk.difficulty.steps == len(walk.steps)
    alone = []
    assert difficulty(puzzle, on_step=alone.append) == walk.difficulty
    assert all(progress.rating for progress in alone)
    assert [(p.steps, p.decided) for p in alone] == [(p.steps, p.decided) for p in told]


def on_a_terminal(*args) -> tuple[int, str, str]:
    """The installed command with its standard error on a pseudo-terminal of 24 lines of 150
    characters, as in a terminal window (tqdm told to draw every update), and its standard
    output in a file (never a full pipe): exit code, standard output, and what the terminal was
    sent."""
    command = Path(sys.executable).parent / "hashi-asp"
    main_end, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 150, 0, 0))
    environment = {**os.environ, "TQDM_MININTERVAL": "0", "TQDM_MINITERS": "1"}
    with tempfile.TemporaryFile() as output:
        with subprocess.Popen(
            [command, *map(str, args)], stdout=output, stderr=terminal, env=environment
        ) as process:
            os.close(terminal)
            seen = b""
            while True:
                try:
                    chunk = os.read(main_end, 65536)
                except OSError:  # EIO: the command has closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
            code = process.wait(timeout=120)
        os.close(main_end)
        output.seek(0)
        return code, output.read().decode(), seen.decode(errors="replace")


def test_difficulty_and_steps_show_their_progress_on_a_terminal(puzzles):
    nyt = puzzles / "nyt-2022-04-03.json"
    puzzle = read(nyt)
    walk = steps(puzzle)
    pairs = len(walk.possible)

    def line(stage: str, steps: int) -> str:  # the last state of a progress line
        return rf"\r{stage}: 100%\|[^\r]*\| {pairs}/{pairs} pairs decided \[[^\r]*, {steps} steps\]"

    code, output, shown = on_a_terminal("difficulty", nyt)
    assert code == 0 and output.startswith("0.00 (easy")
    assert re.search(line("rating", walk.difficulty.steps), shown), shown
    code, output, shown = on_a_terminal("steps", nyt, "--brief")
    assert code == 0 and output.count("\n") == len(walk.steps) + 2
    assert re.search(line("walking", len(walk.steps)), shown), shown
    assert "rating" not in shown  # the walkthrough shown is the one rated: no second walk
    # Not on a terminal: nothing on standard error.
    assert run("difficulty", nyt).stderr == run("steps", nyt, "--brief").stderr == ""


# ---------------------------------------------------------------------------- a person's order

TATHAM_LEVELS = Path(__file__).parent / "puzzles" / "tatham-levels.txt"
WALKTHROUGHS_DOC = Path(__file__).parents[1] / "docs" / "walkthroughs.md"


def tatham_levels() -> dict[int, list[str]]:
    """The committed puzzles of Simon Tatham's generator by his level (0 easy .. 2 hard)."""
    levels: dict[int, list[str]] = {}
    level = -1
    for line in TATHAM_LEVELS.read_text().splitlines():
        if line.startswith("# level d"):
            level = int(line.removeprefix("# level d"))
        elif line and not line.startswith("#"):
            levels.setdefault(level, []).append(line)
    return levels


def test_the_doc_table_is_the_catalogue():
    lines = WALKTHROUGHS_DOC.read_text().splitlines()
    start = lines.index("| technique | level | reason | example sentence |")
    table = []
    for text in lines[start + 2 :]:
        if not text.startswith("|"):
            break
        table.append(text)
    assert table == techniques.table()


def test_the_finder_stages_follow_the_catalogue_and_levels_only_rise():
    stages = techniques.stages()
    names = [name for stage in stages for name in sorted(stage.names)]
    assert sorted(names) == sorted(t.name for t in techniques.CATALOGUE)
    order = [techniques.LEVELS.index(stage.level) for stage in stages]
    assert order == sorted(order)
    # Every argument from connectivity after everything of up to two islands without it.
    first = next(i for i, stage in enumerate(stages) if stage.connectivity)
    assert all(
        stage.islands is not None and stage.islands <= 2 and not stage.connectivity
        for stage in stages[:first]
    )


def replayed(puzzle: Puzzle):
    """The walkthrough's steps, each with the finder's board just before it."""
    walk = steps(puzzle)
    board = Finder(puzzle, starting_counts(puzzle, Play()))
    index = puzzle.geometry.index
    for step in walk.steps:
        yield step, board
        pair = pair_index(puzzle.geometry, *step.pair)
        mask = sum(1 << k for k in step.bridges)
        reason = tuple(index[cell] for cell in step.reason)
        board.apply(Found(reason, step.connectivity, pair, mask))


def ran(board: Finder, stage: techniques.Stage):
    """What a stage of the finder (not the whole board's) finds on ``board``."""
    if stage.finding is techniques.Finding.RULES:
        return board.rules_stage(stage)
    return board.islands_stage(stage)


@pytest.mark.parametrize(
    "source", ["7x7m2:4a4a2a2w2k4c3a1", "nyt-2022-04-03.json", *tatham_levels()[2]]
)
def test_no_step_uses_a_later_technique_while_an_earlier_one_applies(source, puzzles):
    puzzle = read(puzzles / source) if source.endswith(".json") else read(source)
    stages = techniques.stages()
    for step, board in replayed(puzzle):
        position = next(i for i, stage in enumerate(stages) if step.technique in stage.names)
        for stage in stages[:position]:
            assert ran(board, stage) is None, (step.text, stage.name)
        assert step.level == techniques.named(step.technique).level


@pytest.mark.parametrize("level", [0, 1, 2])
def test_tatham_easy_and_medium_puzzles_need_no_connectivity_and_rate_at_his_level(level):
    for game_id in tatham_levels()[level]:
        walk = steps(read(game_id))
        assert walk.status == "solved"
        if level < 2:
            assert not any(step.connectivity for step in walk.steps), game_id
            assert walk.difficulty.band == BANDS[level], game_id
        else:
            assert walk.difficulty.band in ("hard", "expert"), game_id


def test_the_difficulty_counts_the_steps_shown_and_each_step_has_its_level(puzzles):
    for source in [puzzles / "nyt-2022-04-03.json", "7x7m2:4a4a2a2w2k4c3a1"]:
        shown = json.loads(run("steps", source, "--format", "json").output)
        rated = json.loads(run("difficulty", source, "--format", "json").output)
        levels = [step["level"] for step in shown["steps"]]
        assert rated["steps"] == shown["difficulty"]["steps"]
        assert rated["steps"] == {band: levels.count(band) for band in BANDS}
        assert sum(rated["steps"].values()) == len(shown["steps"])
        for step in shown["steps"]:
            assert step["level"] == techniques.named(step["technique"]).level
        text = run("steps", source, "--brief").output.splitlines()
        counted = re.search(r"steps: (\d+) easy, (\d+) medium, (\d+) hard, (\d+) expert", text[-1])
        assert sum(map(int, counted.groups())) == len(text) - 2
