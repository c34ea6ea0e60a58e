"""All 1440 instances of Coelho, Laporte, Lindbeck & Vidal (2019): a long run, not in the quick
suite.  Run with

    HASHI_COELHO_DIR=../shared/puzzles/coelho pytest -m slow -s
"""

import os
import time
from pathlib import Path

import pytest

from hashi_asp import check, read, solve


@pytest.mark.slow
def test_every_coelho_instance_solves_and_its_answer_checks():
    folder = os.environ.get("HASHI_COELHO_DIR")
    assert folder, "set HASHI_COELHO_DIR to the folder holding the dataset's 100/ 200/ 300/ 400/"
    files = sorted(Path(folder).rglob("*.has"))
    assert len(files) == 1440
    started = time.perf_counter()
    for path in files:
        puzzle = read(path)
        result = solve(puzzle)
        assert result.status == "solved", path.name
        assert check(puzzle, result.solutions[0]) == [], path.name
    print(f"\n1440 Coelho instances solved and checked in {time.perf_counter() - started:.1f} s")
