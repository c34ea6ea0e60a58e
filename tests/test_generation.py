"""Generation: the Coelho et al. steps as asked, reproducible by seed, solvable by construction,
unique when asked (proven by separate runs), the variants, the difficulty measure, the command."""

import json
import math
import re
from fractions import Fraction

import bruteforce
import pytest
from conftest import run

from hashi_asp import Puzzle, PuzzleError, Rules, check, notations, read, read_solutions, solve
from hashi_asp.difficulty import band_of, rate
from hashi_asp.generation import GenerationError, batch, default_size, file_name, generate
from hashi_asp.notations.has import write as format_has
from hashi_asp.status import Status
from hashi_asp.walkthrough import SeveralSolutions, difficulty, steps


def brute(puzzle: Puzzle, max_bridges: int = 2) -> set:
    return bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands), max_bridges)


def as_set(solution) -> frozenset:
    return frozenset(tuple(b) for b in solution.bridges)


# ---------------------------------------------------------------------------- reproducibility

# The reproducibility contract: these arguments must give exactly this puzzle and solution, on
# every machine and Python version.  A change to the generator's random stream (another draw,
# another order, randrange instead of random) breaks it; if that change is intended, it changes
# every published seed, so update the pin and say so in the release notes.
PINNED = (12, 5, 6), {"alpha": 0.25, "beta": 0.5, "seed": 2024}
PINNED_PUZZLE = """\
5 6 12
 0  0  0  0  2  0
 3  5  0  6  6  3
 4  8  2  0  0  0
 0  0  0  0  0  0
 0  4  0  5  0  2
"""
PINNED_SOLUTION = [
    (0, 4, 1, 4, 2),
    (1, 0, 1, 1, 1),
    (1, 0, 2, 0, 2),
    (1, 1, 1, 3, 2),
    (1, 1, 2, 1, 2),
    (1, 3, 1, 4, 2),
    (1, 3, 4, 3, 2),
    (1, 4, 1, 5, 2),
    (1, 5, 4, 5, 1),
    (2, 0, 2, 1, 2),
    (2, 1, 2, 2, 2),
    (2, 1, 4, 1, 2),
    (4, 1, 4, 3, 2),
    (4, 3, 4, 5, 1),
]


def test_a_pinned_seed_gives_the_pinned_puzzle():
    made = generate(*PINNED[0], **PINNED[1])
    assert format_has(made.puzzle) == PINNED_PUZZLE
    assert [tuple(b) for b in made.solution.bridges] == PINNED_SOLUTION


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    first, again = (generate(60, 14, 14, seed=5) for _ in range(2))
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)
    assert generate(60, 14, 14, seed=6).puzzle != first.puzzle


def test_unique_generation_is_reproducible_too():
    first, again = (generate(40, 11, 11, seed=3, unique=True) for _ in range(2))
    assert (first.puzzle, first.solution, first.repair_rounds) == (
        again.puzzle,
        again.solution,
        again.repair_rounds,
    )


# ---------------------------------------------------------------------------- the four steps


@pytest.mark.parametrize(
    "islands, rows, cols, alpha, beta",
    [
        (2, 1, 2, 0, 0),
        (2, 1, 2, 0, 1),
        (30, 8, 10, 0.1, 0.5),
        (100, 16, 16, 0.15, 0.25),
        (200, 24, 24, 0.05, 0.75),
        (120, 12, 30, 0.1, 0.5),
    ],
)
def test_size_islands_and_bridges_as_asked(islands, rows, cols, alpha, beta):
    made = generate(islands, rows, cols, alpha, beta, seed=11)
    puzzle = made.puzzle
    assert (puzzle.rows, puzzle.cols, len(puzzle.islands)) == (rows, cols, islands)
    # Step 1 builds a tree (islands - 1 bridges); step 2 adds floor(alpha * islands) more.
    assert made.extra_bridges == math.floor(Fraction(str(alpha)) * islands)
    assert len(made.solution.bridges) == islands - 1 + made.extra_bridges
    assert check(puzzle, made.solution) == []


def test_extra_bridges_that_do_not_fit_are_left_out():
    # Three islands in a row of three cells form a path: no cycle fits.
    made = generate(3, 1, 3, alpha=1, beta=0, seed=1)
    assert made.extra_bridges == 0 and len(made.solution.bridges) == 2


def test_floor_of_alpha_times_islands_is_exact():
    # 0.29 * 100 is 28.999999999999996 in floating point; the generator means 29.
    assert generate(100, 17, 17, alpha=0.29, seed=1).extra_bridges == 29


@pytest.mark.parametrize("beta", [0.0, 0.25, 0.5, 0.75, 1.0])
def test_share_of_double_bridges_is_about_beta(beta):
    made = [generate(400, 34, 34, 0.1, beta, seed=seed) for seed in (1, 2)]
    bridges = [b for m in made for b in m.solution.bridges]
    share = sum(b.count == 2 for b in bridges) / len(bridges)
    # About 880 bridges: a binomial share has a standard deviation of at most 0.017.
    assert abs(share - beta) < 0.06


def test_generated_puzzles_solve_and_the_hidden_solution_checks():
    for seed in range(1, 6):
        for islands, alpha, beta in ((20, 0.1, 0.5), (100, 0.15, 0.75), (150, 0.0, 0.25)):
            made = generate(islands, alpha=alpha, beta=beta, seed=seed)
            assert check(made.puzzle, made.solution) == []
            result = solve(made.puzzle)
            assert result.status == "solved" and check(made.puzzle, result.solutions[0]) == []


def test_islands_may_be_adjacent_as_in_the_coelho_instances():
    puzzle = generate(100, 16, 16, seed=1).puzzle
    assert any((r, c + 1) in puzzle.islands for r, c in puzzle.islands)


def test_default_size_follows_the_coelho_density():
    assert default_size(100) == (17, 17)
    assert default_size(200) == (24, 24)  # as in the dataset: 24, 29 and 34
    assert default_size(300) == (30, 30)
    assert default_size(400) == (34, 34)
    for islands in (1, 2, 10, 1000, 10_000, 100_000):
        rows, cols = default_size(islands)
        assert islands <= rows * cols and rows == cols


def test_default_size_holds_its_islands():
    for islands in (2, 3, 10, 50, 1000, 3000):
        made = generate(islands, seed=4)
        assert len(made.puzzle.islands) == islands


# ---------------------------------------------------------------------------- boards too small


def test_more_islands_than_cells_is_refused_at_once():
    with pytest.raises(
        GenerationError, match="a 3x2 board has 6 cells: it cannot hold 7 islands"
    ) as caught:
        generate(7, 2, 3)
    assert caught.value.status is Status.BAD_INPUT


def test_a_board_too_crowded_for_the_construction_stops_with_a_message():
    # 30 islands on 36 cells: step 1 always runs out of free cells first.
    with pytest.raises(
        GenerationError,
        match=r"the 6x6 board cannot hold 30 islands: in 5 "
        r"attempts .* after at most \d+ islands",
    ) as caught:
        generate(30, 6, 6, seed=1, attempts=5)
    assert caught.value.status is Status.BAD_INPUT


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"alpha": 1.5}, "--alpha must be between 0 and 1"),
        ({"islands": 1}, "--islands must be at least 2"),
        ({"beta": -0.1}, "--beta must be between 0 and 1"),
        ({"alpha": "x"}, "--alpha must be a number"),
        (
            {"rules": Rules(no_loops=True), "alpha": 0.1},
            "--no-loops builds a tree: --alpha must be 0",
        ),
        ({"rules": Rules(max_bridges=1), "beta": 0.5}, "--beta must be 0"),
        ({"difficulty": "tricky"}, "unknown difficulty 'tricky'"),
        ({"difficulty": (0.5, 0.2)}, "difficulty range"),
    ],
)
def test_bad_arguments(arguments, message):
    arguments = {"islands": 10, "rows": 5, "cols": 5, **arguments}
    with pytest.raises(GenerationError, match=message):
        generate(**arguments)


# ---------------------------------------------------------------------------- uniqueness


def test_unique_puzzles_have_one_solution_by_a_separate_exhaustive_solve():
    for islands, seed in ((100, 1), (100, 2), (60, 3)):
        made = generate(islands, seed=seed, unique=True, verify=False)
        result = solve(made.puzzle, models=0)  # a fresh control, the plain encoding
        assert result.status == "unique" and result.exhausted
        assert result.solutions == [made.solution]
        assert made.repair_rounds >= 0 and made.repairs >= 0


def test_small_unique_puzzles_agree_with_brute_force():
    # Brute force shares no code with the package or clingo.
    for seed in range(12):
        made = generate(7, 4, 5, alpha=0.2, beta=0.5, seed=seed, unique=True, verify=False)
        assert brute(made.puzzle) == {as_set(made.solution)}


def test_repairs_are_counted_on_an_ambiguous_start():
    made = generate(100, 16, 16, 0.15, 0.5, seed=2, unique=True)
    # A random 100-island puzzle is almost never unique; this one needed repairs.
    assert made.repair_rounds >= 1 and made.repairs >= made.repair_rounds


# ---------------------------------------------------------------------------- variants


def test_max_bridges_three():
    made = generate(200, 24, 24, 0.1, 0.5, seed=3, rules=Rules(max_bridges=3))
    counts = {b.count for b in made.solution.bridges}
    assert counts == {1, 2, 3}  # "double" draws 2..3
    assert made.puzzle.rules == Rules(max_bridges=3)  # the puzzle carries its rules
    assert check(made.puzzle, made.solution) == []
    # The standard rules forbid the triples.
    assert check(made.puzzle.with_rules(max_bridges=2), made.solution) != []
    assert solve(made.puzzle).status == "solved"


def test_max_bridges_three_unique():
    made = generate(40, 10, 10, seed=5, rules=Rules(max_bridges=3), unique=True, verify=False)
    result = solve(made.puzzle.with_rules(max_bridges=3), models=0)
    assert result.status == "unique" and result.solutions == [made.solution]


def test_no_loops_builds_a_tree_and_its_unique_form_has_one_tree_solution():
    made = generate(60, seed=2, rules=Rules(no_loops=True), alpha=0)
    assert len(made.solution.bridges) == 59
    unique = generate(60, seed=2, rules=Rules(no_loops=True), alpha=0, unique=True, verify=False)
    assert unique.puzzle.rules.no_loops
    result = solve(unique.puzzle, models=0)
    assert result.status == "unique" and result.solutions == [unique.solution]
    assert len(unique.solution.bridges) == 59


# ---------------------------------------------------------------------------- difficulty


def test_difficulty_of_known_puzzles(puzzles):
    nyt = difficulty(read(puzzles / "nyt-2022-04-03.json"))
    assert (nyt.score, nyt.band, nyt.finished) == (0.0, "easy", True)
    assert nyt.tiers[0] == nyt.steps > 0  # every step of the easiest walkthrough is easy
    with pytest.raises(SeveralSolutions):  # two solutions: no difficulty
        difficulty(read(puzzles / "prolog-5x5.txt"))


def test_bands():
    scores = (0.0, 0.24, 0.25, 0.49, 0.5, 0.75, 1.0)
    assert [band_of(s) for s in scores] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "expert",
        "expert",
    ]


def test_the_score_grows_with_the_steps_at_the_top_tier():
    assert rate([0, 0, 1], True).score < rate([0, 1, 1], True).score < 0.5
    assert rate([0, 2], True).band == "hard" and rate([0, 0], False).band == "expert"
    assert (rate([], True).score, rate([], True).band) == (0.0, "easy")


def test_easy_means_easy_steps_alone_solve_it():
    made = generate(20, seed=1, unique=True, difficulty="easy")
    assert made.difficulty.score == 0 and made.difficulty.band == "easy"
    assert solve(made.puzzle, models=0).status == "unique"
    walk = steps(made.puzzle, checked=False)
    assert walk.status == "solved" and walk.solution == made.solution


def test_a_difficulty_range_is_met_or_reported():
    made = generate(100, seed=1, unique=True, difficulty=(0.1, 0.6))
    assert 0.1 <= made.difficulty.score <= 0.6
    with pytest.raises(
        GenerationError, match="no puzzle with difficulty easy in 2 attempts"
    ) as caught:
        generate(300, seed=1, difficulty="easy", attempts=2)  # ambiguous puzzles are never easy
    assert caught.value.status is Status.CANNOT_ANSWER


# ---------------------------------------------------------------------------- names, formats


def test_file_names_follow_the_dataset():
    assert file_name(16, 16, 100, 0.05, 0.25, 1) == "Hs_16_100_25_05_001.has"
    assert file_name(10, 20, 50, 0.1, 0.5, 1234, "json") == "Hs_20x10_50_50_10_1234.json"
    assert file_name(5, 5, 9, 0, 1, 7, "grid") == "Hs_5_9_100_00_007.txt"


def test_any_registered_notation_works():
    made = generate(10, 5, 5, seed=1)
    written = set()
    for notation in notations.NOTATIONS:
        names, puzzles = batch(10, size="5x5", seed=1, notation=notation)
        assert names == [file_name(5, 5, 10, 0.1, 0.5, 1, notation)]
        try:
            expected = notations.write(made.puzzle, notation)
        except PuzzleError as refused:  # e.g. a Tatham ID cannot hold touching islands
            with pytest.raises(PuzzleError, match=re.escape(refused.message)):
                next(puzzles)
        else:
            name, again, text = next(puzzles)
            assert (name, again.puzzle, text) == (names[0], made.puzzle, expected)
            written.add(notation)
    assert {"has", "grid", "json"} <= written
    with pytest.raises(PuzzleError, match="unknown notation 'nope'"):
        batch(10, size="5x5", seed=1, notation="nope")


# ---------------------------------------------------------------------------- the command


def test_generate_prints_a_has_puzzle_and_a_summary_on_stderr():
    result = run(
        "generate", "--islands", 12, "--size", "6x5", "--alpha", 0.25, "--beta", 0.5, "--seed", 2024
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == PINNED_PUZZLE
    assert result.stderr.startswith("Hs_6x5_12_50_25_2024.has: 12 islands on 6x5, 14 bridges")


def test_generate_count_writes_named_files_and_never_overwrites(tmp_path):
    out = tmp_path / "set"
    result = run(
        "generate", "-n", 30, "--count", 3, "--seed", 7, "--unique", "--out", out, "--solution"
    )
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "Hs_10_30_50_10_007.has",
        "Hs_10_30_50_10_007.solution.json",
        "Hs_10_30_50_10_008.has",
        "Hs_10_30_50_10_008.solution.json",
        "Hs_10_30_50_10_009.has",
        "Hs_10_30_50_10_009.solution.json",
    ]
    assert "unique after" in result.stdout and result.stdout.count("\n") == 3
    for seed in (7, 8, 9):
        puzzle = read(out / f"Hs_10_30_50_10_{seed:03d}.has")
        # Each file is the puzzle its seed gives alone.
        assert puzzle.islands == generate(30, seed=seed, unique=True).puzzle.islands
        [hidden] = read_solutions(out / f"Hs_10_30_50_10_{seed:03d}.solution.json")
        assert solve(puzzle, models=0).solutions == [hidden]
        checked = run(
            "check",
            out / f"Hs_10_30_50_10_{seed:03d}.has",
            out / f"Hs_10_30_50_10_{seed:03d}.solution.json",
        )
        assert checked.exit_code == 0

    before = (out / "Hs_10_30_50_10_008.has").read_bytes()
    again = run("generate", "-n", 30, "--count", 3, "--seed", 6, "--out", out)
    assert again.exit_code == 2
    assert (
        again.stderr == f"hashi-asp: {out / 'Hs_10_30_50_10_007.has'}: file exists "
        "(use --force to replace it)\n"
    )
    assert not (out / "Hs_10_30_50_10_006.has").exists()  # refused before writing anything
    assert (out / "Hs_10_30_50_10_008.has").read_bytes() == before
    forced = run("generate", "-n", 30, "--count", 3, "--seed", 6, "--out", out, "--force", "-q")
    assert forced.exit_code == 0 and forced.stdout == ""
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_generate_formats(tmp_path):
    result = run("generate", "-n", 10, "--format", "json", "-q")
    document = json.loads(result.stdout)
    assert len(document["islands"]) == 10
    result = run("generate", "-n", 10, "--format", "txt", "--out", tmp_path, "-q")
    assert result.exit_code == 0
    [written] = tmp_path.iterdir()
    assert written.suffix == ".txt" and len(read(written).islands) == 10


def test_generate_variants_and_difficulty_on_the_command_line():
    result = run(
        "generate",
        "-n",
        30,
        "--max-bridges",
        3,
        "--unique",
        "--difficulty",
        "0-1",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    assert "difficulty" in result.stderr
    puzzle = read(result.stdout)  # the JSON records max_bridges
    assert puzzle.rules == Rules(max_bridges=3)
    assert solve(puzzle, models=0).status == "unique"
    result = run("generate", "-n", 30, "--no-loops", "--unique", "-q", "--format", "json")
    assert result.exit_code == 0
    assert read(result.stdout).rules.no_loops
    assert solve(read(result.stdout), models=0).status == "unique"


def test_generated_rules_travel_with_the_puzzle(tmp_path):
    """A notation that can record the rules records them; the others are refused up front."""
    result = run(
        "generate", "-n", 10, "--no-loops", "--max-bridges", 3, "--seed", 2, "--format", "json"
    )
    assert result.exit_code == 0
    puzzle = tmp_path / "g.json"
    puzzle.write_text(result.stdout)
    counted = run("count", puzzle)
    assert (counted.exit_code, counted.stdout) == (0, "1 solution; search exhausted\n")
    for notation in ("has", "txt", "puzzlink", "pzprv3"):
        refused = run(
            "generate",
            "-n",
            10,
            "--no-loops",
            "--seed",
            2,
            "--format",
            notation,
            "--out",
            tmp_path / "set",
        )
        assert refused.exit_code == 2 and refused.stdout == ""
        assert "cannot record the rules asked for (max_bridges=2, no loops)" in refused.stderr
        assert not (tmp_path / "set").exists()  # refused before anything was made


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["-n", 30, "--size", "6x6"], 2, "hashi-asp: the 6x6 board cannot hold 30 islands"),
        (
            ["-n", 40, "--size", "3x3"],
            2,
            "hashi-asp: a 3x3 board has 9 cells: it cannot hold 40 islands",
        ),
        (["-n", 10, "--no-loops", "--alpha", 0.1], 2, "hashi-asp: --no-loops builds a tree"),
        (
            ["-n", 300, "--difficulty", "easy", "--attempts", 2],
            1,
            "hashi-asp: no puzzle with difficulty easy",
        ),
        (["-n", 10, "--size", "ax3"], 2, "hashi-asp: size 'ax3': expected WxH (e.g. 16x16)"),
        (["-n", 10, "--size", "7" * 5000], 2, "...: a side of more than 9 digits"),
        (["-n", 10, "--difficulty", "2"], 2, "hashi-asp: difficulty '2': scores go from 0 to 1"),
        (["-n", 10, "--solution"], 2, "--solution needs --out"),
        (
            ["-n", 10, "--out", "/proc/hashi-asp-test"],
            2,
            "hashi-asp: /proc/hashi-asp-test: cannot create folder",
        ),
        (["-n", 0], 2, "Invalid value for '-n' / '--islands'"),
    ],
)
def test_generate_errors(args, code, message):
    result = run("generate", *args)
    assert result.exit_code == code
    assert message in result.stderr and "Traceback" not in result.stderr
