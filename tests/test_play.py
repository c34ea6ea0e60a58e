"""A player's state (hashi_asp.play): bridges drawn, pairs ruled out and counts narrowed, in the
one form the page, ``--given`` and the API share.

A complete drawing is decided; pressing "next step" again and again (each step applied to the
state as the page applies it) gives exactly the steps of one whole walkthrough and ends solved;
marks and narrowed counts are taken; a state that cannot be is refused on one line (exit 2;
400 from the real server); and the mistakes hint names agree with a brute-force enumeration.
"""

import json

import bruteforce
import pytest
from conftest import PIGEONS, PROLOG, run, small_puzzles
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import post

from hashi_asp import Bridge, Puzzle, PuzzleError, Rules, Solution, bridge, hint, read, solve
from hashi_asp.asp.interface import Program
from hashi_asp.generation import generate
from hashi_asp.play import Play
from hashi_asp.reasoning import mistakes
from hashi_asp.walkthrough import steps

WALK = "7x7m2:4a4a2a2w2k4c3a1"  # the README's puzzle: ten islands, nine pairs, one solution


def applied(play: Play, step, drawn: bool = True, appended: bool = True) -> Play:
    """``play`` with ``step`` applied as the page applies it: its counts added to ``narrowed``
    (``appended`` after an earlier entry of its pair, else in its place), and with ``drawn``
    the bridges it makes certain drawn and a pair it empties ruled out."""
    pair, counts = step["pair"], step["bridges"]
    ends = ((pair[0], pair[1]), (pair[2], pair[3]))
    narrowed = [entry for entry in play.narrowed if appended or entry[0] != ends]
    narrowed.append((ends, tuple(counts)))
    bridges, ruled_out = list(play.bridges), list(play.ruled_out)
    if drawn and counts and counts[0]:
        bridges = [b for b in bridges if b.ends != ends] + [bridge(*ends, counts[0])]
    if drawn and counts == [0] and ends not in ruled_out:
        ruled_out.append(ends)
    return Play(tuple(bridges), tuple(ruled_out), tuple(narrowed))


def next_step(puzzle: Puzzle, play: Play) -> dict:
    """What ``steps -n 1`` gives from ``play``, as its JSON document (the library's walk)."""
    from hashi_asp.commands.steps import steps_json

    return steps_json(puzzle, steps(puzzle, play, limit=1))


# ---------------------------------------------------------------------------- a complete drawing


def test_a_complete_drawing_is_decided_by_steps_and_hint(tmp_path):
    full = tmp_path / "FULL.json"
    full.write_text(run("solve", WALK, "--format", "json").stdout)
    walked = run("steps", WALK, "--given", full, "-n", "1")
    assert walked.exit_code == 0, walked.output
    assert walked.stdout.startswith("solved: 0 steps")
    document = json.loads(run("steps", WALK, "--given", full, "-n", "1", "--format", "json").stdout)
    assert (document["status"], document["steps"], document["open"]) == ("solved", [], [])
    (solution,) = json.loads(full.read_text())["solutions"]
    assert document["given"] == {**solution, "ruled_out": [], "narrowed": []}
    hinted = run("hint", WALK, "--given", full)
    assert hinted.exit_code == 0
    assert hinted.stdout.rstrip().endswith(
        "unique: all 9 pairs of neighbours are decided: exactly 1 solution extending the drawn "
        "bridges"
    )
    document = json.loads(run("hint", WALK, "--given", full, "--format", "json").stdout)
    assert document["undecided"] == [] and document["forced"] == []
    assert document["mistakes"] == {
        "bridges": [],
        "ruled_out": [],
        "exhausted": True,
        "solvable": True,
    }
    # Exactly its counts: no pair can take one bridge more.
    puzzle = read(WALK)
    drawn = Play.of(solve(puzzle).solutions[0])
    counts = drawn.counts(puzzle)
    assert all(len(ks) == 1 for ks in counts.values())
    assert {pair: ks[0] for pair, ks in counts.items() if ks[0]} == drawn.drawn.counts()


def test_a_complete_drawing_with_steps_applied_is_decided_where_the_walkthrough_stops():
    """Two islands without numbers: one bridge or two. The walkthrough says "at least one" and
    is stuck; a drawing of one bridge with that step applied is a complete one: solved."""
    puzzle = Puzzle(1, 2, {(0, 0): None, (0, 1): None})
    pair = ((0, 0), (0, 1))
    assert steps(puzzle).status == "stuck"
    play = Play((bridge(*pair, 1),), narrowed=((pair, (1, 2)),))
    walk = steps(puzzle, play)
    assert (walk.status, walk.steps, walk.possible) == ("solved", [], {pair: (1,)})


def test_an_incomplete_drawing_is_a_lower_bound():
    puzzle = read(WALK)
    answer = solve(puzzle).solutions[0]
    some = Play(answer.bridges[1:])
    counts = some.counts(puzzle)
    for b in some.bridges:
        assert counts[b.ends] == tuple(range(b.count, 3))
    assert steps(puzzle, some).status == "solved"


# ---------------------------------------------------------------------------- next step, again


@st.composite
def generated(draw):
    """A generated puzzle of 6 to 30 islands under the standard rules or a variant's (several
    solutions now and then: the walkthrough then ends stuck)."""
    rules = draw(st.sampled_from([Rules(), Rules(max_bridges=3), Rules(no_loops=True)]))
    islands = draw(st.integers(6, 30))
    seed = draw(st.integers(1, 10_000))
    return generate(islands, seed=seed, rules=rules, alpha=0 if rules.no_loops else None).puzzle


@given(generated(), st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_next_step_again_and_again_is_the_whole_walkthrough(puzzle, random):
    whole = steps(puzzle)
    play, shown = Play(), []
    while True:
        document = next_step(puzzle, play)
        assert len(document["steps"]) <= 1
        if not document["steps"]:
            break
        (step,) = document["steps"]
        assert (step["pair"], step["bridges"]) not in [(s["pair"], s["bridges"]) for s in shown]
        shown.append(step)
        if document["status"] != "unfinished":
            break
        # Applied as the page does, or as counts alone; a pair narrowed again added or replaced.
        play = applied(play, step, drawn=random.random() < 0.5, appended=random.random() < 0.5)
    assert shown == [s.to_json() for s in whole.steps]
    assert document["status"] == whole.status


def test_next_step_on_the_command_line_ends_solved_without_a_repeat(tmp_path):
    """The README's puzzle pressed through with ``steps -n 1 --given STATE``: step 4 ("no bridge
    to (0, 4)") came back for ever when only the bridges drawn were sent."""
    whole = json.loads(run("steps", WALK, "--format", "json").stdout)
    state, shown = tmp_path / "state.json", []
    play = Play()
    for _ in range(len(whole["steps"]) + 1):
        state.write_text(json.dumps(play.to_json()))
        result = run("steps", WALK, "--given", state, "-n", "1", "--format", "json")
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        shown += document["steps"]
        if document["status"] == "solved":
            break
        play = applied(play, document["steps"][0])
    assert document["status"] == "solved"
    assert shown == whole["steps"]
    assert document["given"] == play.to_json()


# ---------------------------------------------------------------------------- marks and counts


def test_a_ruled_out_pair_takes_away_the_step_it_makes_unnecessary():
    puzzle = read(WALK)
    whole = steps(puzzle)
    empty = next(s for s in whole.steps if s.bridges == (0,))  # "no bridge to (0, 4)"
    marked = steps(puzzle, Play(ruled_out=(empty.pair,)))
    assert marked.status == "solved"
    assert empty.pair not in [s.pair for s in marked.steps]
    assert len(marked.steps) < len(whole.steps)
    assert marked.possible[empty.pair] == (0,)
    assert Play(ruled_out=(empty.pair,)).counts(puzzle)[empty.pair] == (0,)


def test_narrowed_counts_are_taken_and_intersected():
    puzzle = read(WALK)
    whole = steps(puzzle)
    first = whole.steps[0]  # a double bridge: (0, 0)-(0, 2) takes 2
    at_least = Play(narrowed=((first.pair, (1, 2)),))
    walk = steps(puzzle, at_least)
    assert all(set(s.before) <= {1, 2} for s in walk.steps if s.pair == first.pair)
    assert walk.status == "solved"
    twice = Play(narrowed=((first.pair, (1, 2)), (first.pair, (0, 2))))
    assert twice.counts(puzzle)[first.pair] == (2,)
    assert first.pair not in [s.pair for s in steps(puzzle, twice).steps]
    drawn = Play((bridge(*first.pair, 1),), narrowed=((first.pair, (0, 1)),))
    assert drawn.counts(puzzle)[first.pair] == (1,)


def test_the_state_is_read_back_as_written():
    puzzle = read(WALK)
    text = (
        '{"bridges": [[0, 2, 0, 0, 2]], "ruled_out": [[0, 4, 0, 2]],'
        ' "narrowed": [[0, 0, 6, 0, [2, 1]], [0, 0, 6, 0, [2]]]}'
    )
    play = Play.from_json(json.loads(text), puzzle)
    assert play.to_json() == {
        "bridges": [[0, 0, 0, 2, 2]],
        "ruled_out": [[0, 2, 0, 4]],
        "narrowed": [[0, 0, 6, 0, [1, 2]], [0, 0, 6, 0, [2]]],
    }
    assert Play.from_json(play.to_json(), puzzle) == play
    built = Play(  # built in Python: the same, each pair's cells in reading order
        (Bridge(0, 2, 0, 0, 2),),
        (((0, 4), (0, 2)),),
        ((((6, 0), (0, 0)), (2, 1)), (((0, 0), (6, 0)), (2,))),
    )
    assert built == play
    assert Play.from_json({}, puzzle) == Play()
    assert Play.from_json([[0, 0, 0, 2, 1]], puzzle) == Play((bridge((0, 0), (0, 2), 1),))
    assert Play.from_json({"solutions": [{"bridges": [[0, 0, 0, 2, 1]]}]}, puzzle).bridges


# ---------------------------------------------------------------------------- refused


BAD = [
    (
        '{"bridges": [[0, 0, 4, 4, 1]]}',
        "<text>:1:14: bridge (0, 0)-(4, 4) does not join two neighbouring islands",
    ),
    (
        '{"ruled_out": [[0, 0, 0, 4]]}',
        "<text>:1:16: ruled-out pair (0, 0)-(0, 4) does not join two neighbouring islands",
    ),
    (
        '{"bridges": [[0, 0, 0, 2, 2]], "ruled_out": [[0, 0, 0, 2]]}',
        "<text>:1:46: pair (0, 0)-(0, 2) is left no bridge count: drawn with 2 and ruled out",
    ),
    (
        '{"bridges": [], "moves": []}',
        "<text>:1:26: unknown key 'moves': a player's state has bridges, ruled_out and narrowed",
    ),
    (
        '{"bridges": [[0, 0, 0, 2, 1], [0, 2, 0, 0, 2]]}',
        "<text>:1:31: bridge (0, 0)-(0, 2) is given twice",
    ),
    (
        '{"ruled_out": [[0, 2, 0, 4], [0, 2, 0, 4]]}',
        "<text>:1:30: ruled-out pair (0, 2)-(0, 4) is given twice",
    ),
    (
        '{"bridges": [[0, 0, 0, 2, 3]]}',
        "<text>:1:14: bridge (0, 0)-(0, 2) has 3 bridges; allowed 1..2",
    ),
    (
        '{"narrowed": [[0, 0, 0, 2, [0, 5]]]}',
        "<text>:1:15: narrowed pair (0, 0)-(0, 2): count 5 is not in 0..2",
    ),
    (
        '{"narrowed": [[0, 0, 0, 2, [0]], [0, 0, 0, 2, [2]]]}',
        "<text>:1:34: pair (0, 0)-(0, 2) is left no bridge count: narrowed to 0 and narrowed to 2",
    ),
]


@pytest.mark.parametrize("command", ["steps", "hint"])
@pytest.mark.parametrize(("state", "said"), BAD)
def test_a_state_that_cannot_be_is_refused_on_one_line(command, state, said):
    result = run(command, WALK, "--given", state)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"hashi-asp: {said}\n"


def test_a_mistake_in_a_file_is_located_there(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(
        '{\n  "bridges": [[0, 0, 0, 2, 2]],\n  "ruled_out": [\n    [0, 0, 0, 2]\n  ]\n}'
    )
    result = run("steps", WALK, "--given", state)
    assert result.exit_code == 2
    assert result.stderr == (
        f"hashi-asp: {state}:4:5: pair (0, 0)-(0, 2) is left no bridge count: drawn with 2 and "
        "ruled out\n"
    )
    with pytest.raises(PuzzleError, match=r"^pair \(0, 0\)-\(0, 2\) is left no bridge count"):
        Play((bridge((0, 0), (0, 2), 2),), ((((0, 0), (0, 2))),)).counts(read(WALK))


@pytest.mark.parametrize("command", ["steps", "hint"])
def test_the_api_takes_the_state_and_refuses_one_that_cannot_be(server, command):
    state = {"bridges": [[0, 0, 0, 2, 2]], "ruled_out": [[0, 2, 0, 4]], "narrowed": []}
    status, document = post(server.url, command, {"puzzle": WALK, "given": state})
    assert status == 200, document
    assert document["given"] == state
    for text, said in BAD:
        status, document = post(server.url, command, {"puzzle": WALK, "given": json.loads(text)})
        assert status == 400 and set(document) == {"error"}, (text, document)
        # (The body's value is read as the JSON text json.dumps makes of it.)
        assert document["error"].startswith("given:1:"), document
        assert document["error"].split(": ", 1)[1] == said.split(": ", 1)[1], document


def test_next_step_over_the_api_ends_solved_without_a_repeat(server):
    _, whole = post(server.url, "steps", {"puzzle": WALK})
    play, shown = Play(), []
    for _ in range(len(whole["steps"]) + 1):
        body = {"puzzle": WALK, "given": play.to_json(), "steps": 1}
        status, document = post(server.url, "steps", body)
        assert status == 200, document
        shown += document["steps"]
        if document["status"] == "solved":
            break
        play = applied(play, document["steps"][0])
    assert document["status"] == "solved" and shown == whole["steps"]


# ---------------------------------------------------------------------------- mistakes


@st.composite
def states(draw):
    """A small puzzle and a state on it: bridges drawn on some pairs of neighbours, others ruled
    out (each pair at most once)."""
    rows, cols, islands = draw(small_puzzles(max_side=4, max_islands=7))
    puzzle = Puzzle(rows, cols, islands)
    pairs = [bridge(a, z, 0).ends for a, z in bruteforce.neighbour_pairs(rows, cols, islands)]
    marked = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    kinds = [draw(st.integers(0, 2)) for _ in marked]  # 0: ruled out, else that many drawn
    drawn = tuple(bridge(*pair, k) for pair, k in zip(marked, kinds) if k)
    ruled_out = tuple(pair for pair, k in zip(marked, kinds) if not k)
    return puzzle, Play(drawn, ruled_out)


@given(states())
@settings(max_examples=120, deadline=None)
def test_mistakes_are_the_entries_no_solution_has(case):
    puzzle, play = case
    everything = bruteforce.solutions_of(puzzle)
    counts = [{(r1, c1, r2, c2): k for r1, c1, r2, c2, k in s} for s in everything]

    def count(solution: dict, pair) -> int:
        return solution.get((*pair[0], *pair[1]), 0)

    found = hint(puzzle, play).mistakes
    assert found.exhausted and found.solvable == bool(everything)
    assert found.bridges == [
        b for b in play.bridges if not any(count(s, b.ends) >= b.count for s in counts)
    ]
    assert found.ruled_out == [
        pair for pair in play.ruled_out if not any(count(s, pair) == 0 for s in counts)
    ]
    assert mistakes(puzzle, play) == found


def test_mistakes_on_the_command_line():
    state = {"bridges": [[2, 4, 4, 4, 1], [0, 0, 0, 2, 1]], "ruled_out": [[4, 0, 4, 4]]}
    given_state = ["--given", json.dumps(state)]
    result = run("hint", PROLOG, *given_state)
    assert result.exit_code == 1
    assert (
        "mistakes: no solution has (2, 4)-(4, 4) with 1 or more, nor (4, 0)-(4, 4) without a "
        "bridge\n"
    ) in result.stdout
    document = json.loads(run("hint", PROLOG, *given_state, "--format", "json").stdout)
    assert document["mistakes"] == {
        "bridges": [[2, 4, 4, 4, 1]],
        "ruled_out": [[4, 0, 4, 4]],
        "exhausted": True,
        "solvable": True,
    }
    assert document["conflict"] in ([[2, 4, 4, 4, 1]], [[4, 0, 4, 4]])
    fine = run("hint", PROLOG, "--given", '{"bridges": [[0, 0, 0, 2, 1]]}')
    assert "mistakes: none, each bridge drawn and pair ruled out is in some solution\n" in (
        fine.stdout
    )
    unsolvable = run("hint", "-", "--given", "[[0, 0, 0, 2, 1]]", input="1.2\n")
    assert "mistakes: none to name, the puzzle itself has no solution\n" in unsolvable.stdout


def test_mistakes_cut_short_by_the_time_limit_say_so():
    busy = Program(additions=[PIGEONS])  # no search under it ends
    play = Play.of(Solution.of([bridge((0, 0), (0, 2), 1)]))
    found = mistakes(read(PROLOG), play, busy, time_limit=0.5)
    assert not found.exhausted and found.timed_out and found.solvable is None
    given = ["--given", "[[0, 0, 0, 2, 1]]"]
    result = run("hint", PROLOG, "--add", PIGEONS, *given, "--time-limit", "1")
    assert result.exit_code == 3
    assert (
        "mistakes: none found, time limit reached before each bridge drawn and pair ruled out "
        "was asked\n"
    ) in result.stdout
    document = json.loads(
        run(
            "hint", PROLOG, "--add", PIGEONS, *given, "--time-limit", "1", "--format", "json"
        ).stdout
    )
    assert document["mistakes"] == {
        "bridges": [],
        "ruled_out": [],
        "exhausted": False,
        "solvable": None,
    }


def test_hint_says_its_verdict_within_the_players_state_when_it_has_marks():
    """With pairs ruled out, the verdict is not only about extending the bridges drawn."""
    state = '{"bridges": [[0, 0, 0, 2, 1]], "ruled_out": [[4, 0, 4, 4]]}'
    marked = run("hint", PROLOG, "--given", state)
    drawn = run("hint", PROLOG, "--given", '{"bridges": [[0, 0, 0, 2, 1]]}')
    assert marked.stdout.rstrip().splitlines()[-1].endswith("within the player's state")
    assert drawn.stdout.rstrip().splitlines()[-1].endswith("extending the drawn bridges")
