"""The benchmark command: one checked row per puzzle, Table 1 grouping, honest failures."""

import csv
import io
import json
import re
import shutil

import pytest
from click.testing import CliRunner
from conftest import PUZZLES, loose_encoding, run

from hashi_asp import Program, PuzzleError
from hashi_asp.cli import main
from hashi_asp.study.bench import COLUMNS, bench, bench_one, puzzle_files, summary
from hashi_asp.study.database import Database

COELHO = PUZZLES / "coelho"


@pytest.fixture
def sample(tmp_path):
    """Four bundled Coelho instances (two groups of 100 islands, two of 200)."""
    folder = tmp_path / "coelho"
    folder.mkdir()
    for name in (
        "Hs_16_100_25_00_001.has",
        "Hs_16_100_75_15_001.has",
        "Hs_24_200_25_00_001.has",
        "Hs_24_200_75_15_001.has",
    ):
        shutil.copy(COELHO / name, folder / name)
    return folder


def test_every_row_is_solved_checked_and_timed(sample):
    rows = bench([sample])
    assert [row.status for row in rows] == ["solved"] * 4
    assert [row.islands for row in rows] == [100, 100, 200, 200]
    for row in rows:
        assert row.seconds == pytest.approx(
            row.read_seconds + row.ground_seconds + row.solve_seconds
        )
        assert row.choices >= 0 and row.conflicts >= 0 and not row.error


def test_summary_groups_like_table_1_for_dataset_names(sample):
    text = summary(bench([sample]))
    lines = text.splitlines()
    assert lines[0].split() == [
        "islands",
        "beta%",
        "alpha%",
        "count",
        "mean",
        "s",
        "median",
        "s",
        "max",
        "s",
        "failed",
    ]
    groups = [line.split()[:4] for line in lines[1:5]]
    assert groups == [
        ["100", "25", "0", "1"],
        ["100", "75", "15", "1"],
        ["200", "25", "0", "1"],
        ["200", "75", "15", "1"],
    ]
    assert lines[5].split()[:4] == ["100", "all", "all", "2"]
    assert lines[-1].startswith("4 puzzles (4 solved); total ")


def test_summary_groups_by_island_count_otherwise(puzzles):
    text = summary(bench([puzzles / "prolog-5x5.txt", puzzles / "nyt-2022-04-03.json"]))
    assert text.splitlines()[0].split()[:2] == ["islands", "count"]
    assert [line.split()[:2] for line in text.splitlines()[1:3]] == [["7", "2"], ["all", "2"]]


def test_unique_gives_verdicts(puzzles):
    rows = bench([puzzles / "prolog-5x5.txt", puzzles / "nyt-2022-04-03.json"], unique_verdict=True)
    assert [(row.file.split("/")[-1], row.status) for row in rows] == [
        ("nyt-2022-04-03.json", "unique"),
        ("prolog-5x5.txt", "multiple"),
    ]


def test_a_failed_check_is_a_failed_row_not_a_fast_one(tmp_path):
    # Without its connectivity test the encoding has three answers for this square of 2s, and
    # only the ring of single bridges is a solution: any two answers include a wrong one.
    puzzle = tmp_path / "square.txt"
    puzzle.write_text("22\n22\n")
    row = bench_one(puzzle, program=Program(encoding=loose_encoding(tmp_path)), unique_verdict=True)
    assert row.status == "invalid"
    assert "disconnected: 2 components" in row.error


def test_unreadable_files_are_error_rows_and_exit_1(tmp_path, puzzles):
    (tmp_path / "bad.txt").write_text("2.x\n")
    shutil.copy(puzzles / "nyt-2022-04-03.json", tmp_path)
    result = run("bench", tmp_path)
    assert result.exit_code == 1
    assert "1 error" in result.stdout and "1 solved" in result.stdout
    assert "bad.txt:1:3: unexpected character 'x'" in result.stderr


def test_csv_and_json_reports(tmp_path, sample):
    result = run("bench", sample, "--csv", tmp_path / "rows.csv", "--json", tmp_path / "rows.json")
    assert result.exit_code == 0, result.stderr
    table = list(csv.DictReader(io.StringIO((tmp_path / "rows.csv").read_text())))
    assert tuple(table[0]) == COLUMNS and len(table) == 4
    assert all(row["status"] == "solved" for row in table)
    document = json.loads((tmp_path / "rows.json").read_text())
    assert [entry["file"] for entry in document] == [row["file"] for row in table]


def test_worker_processes_give_the_same_verdicts(sample):
    assert [row.status for row in bench([sample], jobs=2)] == ["solved"] * 4


def test_the_last_line_adds_up_the_puzzles_and_gives_the_elapsed_time(sample, tmp_path):
    result = run("bench", sample, "--jobs", "2", "--csv", tmp_path / "rows.csv")
    assert result.exit_code == 0, result.stderr
    table = (tmp_path / "rows.csv").read_text().splitlines()
    total = sum(float(row["seconds"]) for row in csv.DictReader(table))
    last = re.fullmatch(
        r"4 puzzles \(4 solved\); total ([0-9.]+) s, ([0-9.]+) s elapsed",
        result.stdout.splitlines()[-1],
    )
    assert last, result.stdout
    assert float(last[1]) == pytest.approx(total, abs=0.01)
    assert float(last[2]) > 0


def test_time_limit_gives_unknown_rows_and_exit_3(tmp_path, puzzles):
    shutil.copy(COELHO / "Hs_16_100_50_10_001.has", tmp_path)  # about 20 000 solutions
    # A verdict needs the search to go on after the first solution; the limit stops it there.
    result = run("bench", tmp_path, "--unique", "--time-limit", "0.000001")
    assert result.exit_code == 3
    assert "1 puzzle (1 unknown)" in result.stdout


def test_paths_that_do_not_exist_are_refused():
    result = run("bench", "no/such/folder")
    assert result.exit_code == 2
    assert result.stderr.startswith("hashi-asp: no/such/folder: no such file or directory")
    with pytest.raises(PuzzleError, match="no such file or directory"):
        puzzle_files(["no/such/folder"])


def test_bench_is_a_study_of_one_variant(sample, tmp_path):
    """The same runs as `study run` makes: the same searches, to the conflict."""
    rows = bench([sample], jobs=2, program=Program(connectivity="tree"))
    database = tmp_path / "study.db"
    done = CliRunner().invoke(
        main, ["study", "run", str(database), str(sample), "--variant", "t=--connectivity tree"]
    )
    assert done.exit_code == 0, done.stderr
    recorded = {r.instance: r for r in Database(database).records()}
    assert [(row.status, row.conflicts, row.choices) for row in rows] == [
        (recorded[row.file].status, recorded[row.file].conflicts, recorded[row.file].choices)
        for row in rows
    ]
