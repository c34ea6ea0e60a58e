"""The derived data every layer shares: a puzzle's geometry, against tests/bruteforce.py."""

import bruteforce
from conftest import small_puzzles
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle


@st.composite
def crowded_puzzles(draw):
    """Grids up to 12 square with up to 40 islands: many pairs, many crossings."""
    return draw(small_puzzles(max_side=12, max_islands=40))


@given(st.one_of(small_puzzles(), crowded_puzzles()))
@settings(max_examples=300, deadline=None)
def test_geometry_agrees_with_brute_force(case):
    rows, cols, islands = case
    geometry = Puzzle(rows, cols, islands).geometry
    expected = bruteforce.neighbour_pairs(rows, cols, islands)
    assert geometry.pairs == expected
    between = [bruteforce._between(a, b) for a, b in expected]
    for p, (a, b) in enumerate(expected):
        assert set(geometry.between(p)) == between[p]
        assert geometry.horizontal(p) == (a[0] == b[0])
        # Two pairs cross where their bridges would share a water cell, and nowhere else.
        crossing = {q for q in range(len(expected)) if q != p and between[p] & between[q]}
        assert sorted(geometry.crossing[p]) == sorted(crossing), (a, b)
    for cell in islands:
        seen = sorted({b if a == cell else a for a, b in expected if cell in (a, b)})
        assert geometry.neighbours(cell) == seen
