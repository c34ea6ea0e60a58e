"""A technique of the tests' own, added at run time by tests/test_added_technique.py: two
neighbouring islands of 1, where there are other islands, get no bridge between them (joined,
they would be closed off from the others: all islands must be connected).  One module, and its
registration in the catalogue, :func:`hashi_asp.walkthrough.techniques.register`: found by its
own function of the board, before the catalogue's first technique."""

from __future__ import annotations

from hashi_asp.walkthrough import techniques
from hashi_asp.walkthrough.board import Board, Found


def neighbouring_ones(board: Board) -> Found | None:
    """The first pair of two islands of 1 that may still get a bridge, and may get none: no
    bridge there (a contradiction where it has one already)."""
    if len(board.cells) <= 2:
        return None
    for p, (a, b) in enumerate(board.ends):
        if board.number[a] == board.number[b] == 1 and board.domain[p] > 1:
            return Found((a, b), True, p, board.domain[p] & 1)
    return None


TECHNIQUE = techniques.Technique(
    "ones-apart",
    "easy",
    0,
    True,
    "2 islands, connectivity",
    lambda w: (
        f"{w.islands}, joined, would be closed off from the other islands: {w.what} "
        f"{w.between()} (all islands must be connected)"
    ),
    "the 1 at (0, 0) and the 1 at (0, 2), joined, would be closed off from the other islands: "
    "no bridge between (0, 0) and (0, 2) (all islands must be connected)",
    find=neighbouring_ones,
)


def register() -> techniques.Technique:
    """The technique, in the catalogue before its first one."""
    return techniques.register(TECHNIQUE, before=techniques.CATALOGUE[0].name)
