"""Next step read off a kept walkthrough (hashi_asp.walkthrough.kept), and a state that agrees
with no solution (the ``mistaken`` ending, hashi_asp.reasoning.agreement).

With a store of walkthroughs, as the server keeps them, pressing Next step again and again
(each step applied as the page applies it) gives exactly the steps of one whole walkthrough,
in its order: from the empty board, after an undo (a state met before, answered without
walking), with two games of one puzzle interleaved, with a state off the walkthrough, and once
the store has dropped the puzzle's walkthrough for another's.  A state no solution keeps to is
``mistaken``, with no step, whatever steps are kept; whether a state agrees is checked against
a brute-force enumeration of the solutions.
"""

import json
import threading
from random import Random

import bruteforce
from conftest import run, small_puzzles
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_play import WALK, applied, generated

from hashi_asp import Puzzle, bridge, read
from hashi_asp.commands.steps import steps_json
from hashi_asp.play import Play
from hashi_asp.reasoning import agreement
from hashi_asp.walkthrough import Walkthroughs, steps

UNSOLVABLE = "2 . 1 . .\n. . . . .\n4 . 3 . 1\n. . . . .\n1 . . . 2\n"  # commands.md's


def pressed(puzzle: Puzzle, play: Play, store: Walkthroughs | None) -> dict:
    """Next step from ``play``, as ``steps -n 1`` documents it, read off ``store``."""
    return steps_json(puzzle, steps(puzzle, play, limit=1, kept=store))


def game(puzzle: Puzzle, store: Walkthroughs, most: int) -> tuple[list[dict], list[Play], dict]:
    """Next step pressed from the empty board until the end (at most ``most`` presses): the
    steps, the state before each press, and the last document."""
    play, shown, states = Play(), [], []
    for _ in range(most):
        states.append(play)
        document = pressed(puzzle, play, store)
        shown += document["steps"]
        if document["status"] != "unfinished" or not document["steps"]:
            break
        play = applied(play, document["steps"][0])
    return shown, states, document


# ---------------------------------------------------------------------------- kept walkthroughs


def test_a_game_read_off_the_store_is_the_walkthrough_and_a_state_met_before_walks_nothing():
    puzzle = read(WALK)
    whole = steps(puzzle)
    store = Walkthroughs(4)
    shown, states, last = game(puzzle, store, len(whole.steps) + 2)
    assert shown == [s.to_json() for s in whole.steps] and last["status"] == "solved"
    kept = store.held(puzzle)
    assert kept is not None and len(kept.found) == len(whole.steps)
    checker = kept.checker
    # Every state of the game again (an undo, a reload): the same step, nothing walked again.
    for number, play in enumerate(states):
        document = pressed(puzzle, play, store)
        assert document["steps"] == [whole.steps[number].to_json()]
    assert store.held(puzzle) is kept and kept.checker is checker
    assert len(kept.found) == len(whole.steps)


def test_the_store_walks_on_only_as_far_as_the_state_asks():
    puzzle = read(WALK)
    whole = steps(puzzle)
    store = Walkthroughs(4)
    play = Play()
    for step in whole.steps[:5]:  # five steps applied elsewhere (another server, a reload)
        play = applied(play, step.to_json())
    document = pressed(puzzle, play, store)
    assert document["steps"] == [whole.steps[5].to_json()]
    assert len(store.held(puzzle).found) == 6  # walked to the state once, and one step on


def test_two_games_of_one_puzzle_interleaved_each_get_the_walkthrough():
    puzzle = read(WALK)
    whole = [s.to_json() for s in steps(puzzle).steps]
    store = Walkthroughs(4)
    games = [(Play(), []), (Play(), [])]
    while any(len(shown) < len(whole) for _, shown in games):
        for i, (play, shown) in enumerate(games):
            # The second game presses every other round: the two are at different steps.
            ahead = len(games[0][1]) < len(whole) and len(games[0][1]) % 2
            if len(shown) == len(whole) or (i and ahead):
                continue
            document = pressed(puzzle, play, store)
            shown += document["steps"]
            games[i] = (applied(play, document["steps"][0]), shown)
    assert all(shown == whole for _, shown in games)
    assert len(store) == 1


def test_games_pressed_in_threads_at_once_each_get_the_walkthrough():
    puzzle = read(WALK)
    whole = [s.to_json() for s in steps(puzzle).steps]
    store = Walkthroughs(4)
    got: list[list[dict]] = []
    threads = [
        threading.Thread(target=lambda: got.append(game(puzzle, store, len(whole) + 2)[0]))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == [whole] * 3


def test_a_state_off_the_walkthrough_starts_there_and_keeps_nothing_of_its_own():
    puzzle = read(WALK)
    whole = steps(puzzle)
    empty = next(s for s in whole.steps if s.bridges == (0,))  # "no bridge to (0, 4)", right
    marked = Play(ruled_out=(empty.pair,))
    store = Walkthroughs(4)
    alone = steps(puzzle, marked, limit=1)
    kept = steps(puzzle, marked, limit=1, kept=store)
    assert kept.status == alone.status == "unfinished"
    assert kept.steps == alone.steps
    # The walkthrough from the empty board was walked only to where the state leaves it.
    assert len(store.held(puzzle).found) <= whole.steps.index(empty) + 1
    assert pressed(puzzle, Play(), store)["steps"] == [whole.steps[0].to_json()]


def test_the_store_drops_the_walkthrough_used_least_recently():
    """Two of Simon Tatham's 7x7 puzzles in a store of one."""
    walk, other = read(WALK), read("7x7m2:1a3c3g4e4b2a3b3b1k1b4a3")
    store = Walkthroughs(1)
    for puzzle in (walk, other, walk):
        whole = steps(puzzle)
        shown, _, last = game(puzzle, store, len(whole.steps) + 2)
        assert shown == [s.to_json() for s in whole.steps] and last["status"] == whole.status
        assert len(store) == 1 and store.held(puzzle) is not None
    assert store.held(other) is None


def test_a_walk_stopped_part_way_leaves_nothing_kept():
    puzzle = read(WALK)
    store = Walkthroughs(4)
    walk = steps(puzzle, Play(), limit=1, kept=store, time_limit=0)
    assert walk.stopped is not None and walk.status == "unknown" and walk.steps == []
    assert store.held(puzzle) is None
    assert pressed(puzzle, Play(), store)["status"] == "unfinished"


@given(generated(), st.integers(0, 2**32))
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
def test_pressing_with_undos_reads_the_whole_walkthrough_off_the_store(puzzle, seed):
    random = Random(seed)
    whole = [s.to_json() for s in steps(puzzle).steps]
    store = Walkthroughs(2)
    plays, shown = [Play()], []
    while len(shown) < len(whole):
        if len(plays) > 1 and random.random() < 0.3:  # undo a step: it is given again
            plays.pop()
            shown.pop()
        document = pressed(puzzle, plays[-1], store)
        assert document["steps"] == whole[len(shown) : len(shown) + 1]
        shown += document["steps"]
        plays.append(applied(plays[-1], document["steps"][0], drawn=random.random() < 0.5))
    assert shown == whole


# ---------------------------------------------------------------------------- mistaken


def test_a_mark_no_solution_has_gets_no_step_but_mistaken():
    puzzle = read(WALK)
    first = steps(puzzle).steps[0]  # a double bridge every solution has
    wrong = Play(ruled_out=(first.pair,))
    store = Walkthroughs(4)
    for kept in (None, store):
        walk = steps(puzzle, wrong, limit=1, kept=kept)
        assert (walk.status, walk.steps, walk.difficulty) == ("mistaken", [], None)
        assert walk.possible == wrong.counts(puzzle)
    state = json.dumps(wrong.to_json())
    result = run("steps", WALK, "--given", state, "-n", "1")
    assert result.exit_code == 1
    assert result.stdout.startswith("mistaken: no solution keeps to the state given")
    document = json.loads(run("steps", WALK, "--given", state, "--format", "json").stdout)
    assert (document["status"], document["steps"], document["conflict"]) == ("mistaken", [], None)
    assert document["given"] == wrong.to_json()


def test_a_wrong_bridge_among_steps_applied_is_mistaken():
    """Steps applied, then a double drawn where no solution has a bridge: the page's own steps
    are not built on."""
    puzzle = read(WALK)
    whole = steps(puzzle)
    play = Play()
    for step in whole.steps[:3]:
        play = applied(play, step.to_json())
    empty = next(s for s in whole.steps if s.bridges == (0,))
    wrong = Play((*play.bridges, bridge(*empty.pair, 2)), play.ruled_out, play.narrowed)
    assert steps(puzzle, wrong, limit=1, kept=Walkthroughs(2)).status == "mistaken"


def test_a_state_of_a_puzzle_without_a_solution_is_no_mistake_of_the_players():
    puzzle = read(UNSOLVABLE)
    walk = steps(puzzle, Play(ruled_out=(((0, 0), (0, 2)),)))
    assert walk.status == "contradiction"
    found = agreement(puzzle, Play(ruled_out=(((0, 0), (0, 2)),)))
    assert (found.agrees, found.solvable, found.mistaken) == (False, False, False)


@st.composite
def states(draw):
    """A small puzzle and a state on it: each pair of neighbours left alone, ruled out, drawn
    with one or two bridges, or narrowed."""
    rows, cols, islands = draw(small_puzzles(max_side=4, max_islands=7))
    puzzle = Puzzle(rows, cols, islands)
    pairs = [bridge(a, z, 0).ends for a, z in bruteforce.neighbour_pairs(rows, cols, islands)]
    drawn, ruled_out, narrowed = [], [], []
    for pair in pairs:
        kind = draw(st.sampled_from(["alone", "ruled out", "drawn", "narrowed"]))
        if kind == "ruled out":
            ruled_out.append(pair)
        elif kind == "drawn":
            drawn.append(bridge(*pair, draw(st.integers(1, 2))))
        elif kind == "narrowed":
            counts = draw(st.sets(st.integers(0, 2), min_size=1, max_size=2))
            narrowed.append((pair, tuple(sorted(counts))))
    return puzzle, Play(tuple(drawn), tuple(ruled_out), tuple(narrowed))


@given(states())
@settings(max_examples=100, deadline=None)
def test_a_state_agrees_when_some_solution_keeps_to_it(case):
    puzzle, play = case
    counts = play.counts(puzzle)
    solutions = [
        {((r1, c1), (r2, c2)): k for r1, c1, r2, c2, k in s}
        for s in bruteforce.solutions_of(puzzle)
    ]
    keeping = [s for s in solutions if all(s.get(p, 0) in ks for p, ks in counts.items())]
    found = agreement(puzzle, play)
    assert found.agrees == bool(keeping) and found.solvable == bool(solutions)
    walk = steps(puzzle, play, limit=1)
    assert (walk.status == "mistaken") == (bool(solutions) and not keeping)
