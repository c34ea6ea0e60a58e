"""Simon Tatham's Bridges game IDs: ``WxH[mK][L]:DESC``, read and written.

The parameters before the colon are the grid's width and height, ``mK`` the most bridges
between one pair of islands (1..4, default 2) and ``L`` "no loops" (the bridges must form a
tree).  DESC lists the cells in reading order: ``1``..``9`` and ``A``..``G`` (10..16) are
islands, ``a``..``z`` a run of 1..26 water cells.  For example ``7x7m2:4b4b3e2b2r2a3a4a4a4a3c1``.

Tatham's generator settings (``10x10i30e10m2d2``, without ``:DESC``) and random seeds
(``7x7m2#12345``) do not describe a puzzle on their own; they are refused with a message.

As in bridges.c, one function, :func:`validate_game_id`, finds the first problem in an ID
(``validate_params`` and ``validate_desc`` there); the reader trusts what it has passed.
"""

from __future__ import annotations

import re

from ..errors import PuzzleError
from ..puzzle import MAX_CELLS, Cell, Puzzle, Rules
from .lexing import Problem, first_problem, one_line, size, trusted

MAX_BRIDGES = 4  # bridges.c: MAX_BRIDGES
MAX_NUMBER = 16  # the letter G
MIN_SIDE = 3  # bridges.c: "Width and height must be at least 3"

# Anything shaped like "7x7..." or "7..:" is taken for a game ID, so that its reader, not the
# file opener, says what is wrong with it.
# (Written so that no two repetitions can split the same characters between them: a long line
# of digits is rejected in linear time.)
_LOOKS_LIKE = re.compile(
    r"\s*[0-9]+(?:x[0-9]+(?:[A-Za-z][0-9A-Za-z]*)?(?:[:#]\S*)?"
    r"|(?:[A-Za-z][0-9A-Za-z]*)?[:#]\S*)\s*\Z"
)
_PARAMETER = re.compile(r"([xiemd])([0-9]*)|(L)")
_SETTING = re.compile(r"[0-9]+(?:x[0-9]+)?(?:[iemd][0-9]+|L)*\Z")  # "10x10i30e10m2d2"


def is_game_id(text: str) -> bool:
    """Whether one-line ``text`` looks like a game ID (or a parameter string, or a seed)."""
    return "\n" not in text.strip() and bool(_LOOKS_LIKE.match(text))


def _bad(message: str, column: int | None = None) -> Problem:
    """A problem in a game ID, which is one line: its column is enough."""
    return Problem(message, None, column)


def validate_game_id(game_id: str, max_number: int | None = None) -> Problem | None:
    """The first problem in ``game_id`` as (message, 1-based column), or None if it is valid.
    Island numbers may go up to ``max_number`` (default: 4 times the ID's own ``mK``)."""
    return first_problem(lambda: _read(game_id, max_number), inline=game_id)


def parse_game_id(text: str, source: str = "<tatham>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands, max_bridges, no_loops = trusted(
        lambda: _read(text, max_number), source, inline=text
    )
    return Puzzle(rows, cols, dict(islands), source, Rules(max_bridges, no_loops))


def _read(text: str, max_number: int | None):
    game_id, _, offset = one_line(text)
    if not game_id:
        raise _bad("empty game ID: expected WxH[mK][L]:DESCRIPTION")
    if "\n" in game_id:
        raise _bad(
            "a Tatham game ID is one line, WxH[mK][L]:DESCRIPTION; this text has "
            f"{game_id.count(chr(10)) + 1} lines",
            offset + 1,
        )
    separator = re.search(r"[:#]", game_id)
    if separator is None:
        if _SETTING.match(game_id):
            raise _bad(
                f"{game_id[:40]!r} is a Bridges generator setting, not a puzzle: a game "
                "ID is PARAMETERS:DESCRIPTION (`sgt-bridges --generate 1 PARAMETERS` "
                "makes one)",
                offset + 1,
            )
        raise _bad(
            f"{game_id[:40]!r} is not a Tatham game ID: expected WxH[mK][L]:DESCRIPTION", offset + 1
        )
    if separator.group() == "#":
        raise _bad(
            "a random-seed ID (PARAMETERS#SEED) names a puzzle only through Tatham's "
            "generator; give the game ID (PARAMETERS:DESCRIPTION) instead",
            offset + separator.start() + 1,
        )
    parameters, description = game_id[: separator.start()], game_id[separator.end() :]
    cols, rows, max_bridges, no_loops = _parameters(parameters, offset)
    limit = max_number or 4 * max_bridges
    islands = _description(description, rows, cols, limit, max_bridges, offset + separator.end())
    return rows, cols, islands, max_bridges, no_loops


def _parameters(parameters: str, offset: int) -> tuple[int, int, int, bool]:
    """Width, height, mK and L from bridges.c's parameter string ``W[xH][iN][eN][mK][L][dN]``
    (i, e and d only steer the generator and change nothing in a described puzzle)."""
    width_text = parameters[: len(parameters) - len(parameters.lstrip("0123456789"))]
    if not width_text:
        raise _bad("game ID must start with the grid width", offset + 1)
    values = {"w": size(width_text)}
    position = len(width_text)
    order = "xiemLd"
    last = -1
    while position < len(parameters):
        match = _PARAMETER.match(parameters, position)
        if not match or (match.group(1) and not match.group(2)):
            shown = parameters[position]
            raise _bad(
                f"unexpected {shown!r} in the parameters: expected WxH, then mK (1..4) and L",
                offset + position + 1,
            )
        key = match.group(1) or "L"
        if order.index(key) <= last:
            raise _bad(
                f"parameter {key!r} out of place: the order is WxH[iN][eN][mK][L][dN]",
                offset + position + 1,
            )
        last = order.index(key)
        values[key] = size(match.group(2)) if match.group(2) else True
        if key == "m" and not 1 <= values["m"] <= MAX_BRIDGES:
            raise _bad(
                f"m{match.group(2)}: the most bridges between two islands must be 1..{MAX_BRIDGES}",
                offset + position + 1,
            )
        position = match.end()
    cols, rows = values["w"], values.get("x", values["w"])
    if cols < MIN_SIDE or rows < MIN_SIDE:
        raise _bad(
            f"grid {cols}x{rows}: Tatham's Bridges needs a width and height of at least {MIN_SIDE}",
            offset + 1,
        )
    if rows * cols > MAX_CELLS:
        raise _bad(f"grid {cols}x{rows} exceeds the limit of {MAX_CELLS} cells", offset + 1)
    return cols, rows, values.get("m", 2), bool(values.get("L"))


def _description(
    description: str, rows: int, cols: int, limit: int, max_bridges: int, offset: int
) -> dict[Cell, int]:
    cells = rows * cols
    islands: dict[Cell, int] = {}
    i = 0
    for position, ch in enumerate(description):
        column = offset + position + 1
        if i >= cells:
            raise _bad(
                f"description runs past the last of the {cols}x{rows} = {cells} cells at {ch!r}",
                column,
            )
        if "a" <= ch <= "z":
            i += ord(ch) - ord("a") + 1
            continue
        if "1" <= ch <= "9" or "A" <= ch <= "G":
            number = int(ch) if ch.isdigit() else ord(ch) - ord("A") + 10
        else:
            raise _bad(
                f"unexpected character {ch!r} in the description: expected 1..9 or "
                "A..G for an island, a..z for 1..26 water cells",
                column,
            )
        cell = divmod(i, cols)
        if number > limit:
            why = (
                ""
                if limit != 4 * max_bridges
                else f" (m{max_bridges}: at most {max_bridges} bridges to each of 4 neighbours)"
            )
            raise _bad(f"island number {number} at {cell} out of range 1..{limit}{why}", column)
        # Only cells before this one are known yet: look left and up, as bridges.c does.
        for neighbour in ((cell[0], cell[1] - 1), (cell[0] - 1, cell[1])):
            if neighbour in islands:
                raise _bad(
                    f"islands at {neighbour} and {cell} touch: Tatham's Bridges "
                    "needs water between islands",
                    column,
                )
        islands[cell] = number
        i += 1
    if i < cells:
        raise _bad(
            f"description covers {i} of the {cols}x{rows} = {cells} cells",
            offset + len(description),
        )
    if i > cells:
        raise _bad(
            f"description's last water run goes {i - cells} cell(s) past the end of the grid",
            offset + len(description),
        )
    if len(islands) < 2:
        raise _bad(
            f"description has {len(islands)} island(s); Tatham's Bridges needs at least 2",
            offset + len(description),
        )
    return islands


def format_game_id(puzzle: Puzzle) -> str:
    """The puzzle as a game ID that Tatham's Bridges opens (Game > Specific...), with ``mK``
    always stated, as Bridges writes it.  Raises :class:`PuzzleError` if Bridges cannot hold
    the puzzle."""

    def refuse(reason: str) -> PuzzleError:
        return PuzzleError(f"a Tatham game ID cannot hold this puzzle: {reason}", puzzle.source)

    if puzzle.rows < MIN_SIDE or puzzle.cols < MIN_SIDE:
        raise refuse(
            f"the grid is {puzzle.cols}x{puzzle.rows}; Bridges needs at least {MIN_SIDE}x{MIN_SIDE}"
        )
    if not 1 <= puzzle.rules.max_bridges <= MAX_BRIDGES:
        raise refuse(f"max_bridges={puzzle.rules.max_bridges}; Bridges allows 1..{MAX_BRIDGES}")
    if len(puzzle.islands) < 2:
        raise refuse("it has one island; Bridges needs at least 2")
    for (r, c), number in puzzle.islands.items():
        if number is None:
            raise refuse(f"the island at ({r}, {c}) has no number")
        if number > MAX_NUMBER:
            raise refuse(f"island number {number} at ({r}, {c}) is over {MAX_NUMBER}")
        for neighbour in ((r, c + 1), (r + 1, c)):
            if neighbour in puzzle.islands:
                raise refuse(
                    f"the islands at ({r}, {c}) and {neighbour} touch; Bridges needs "
                    "water between islands"
                )
    description, run = [], 0
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            number = puzzle.islands.get((r, c))
            if number is None:
                if run == 26:
                    description.append("z")
                    run = 0
                run += 1
                continue
            if run:
                description.append(chr(ord("a") + run - 1))
                run = 0
            description.append(str(number) if number < 10 else chr(ord("A") + number - 10))
    if run:
        description.append(chr(ord("a") + run - 1))
    loops = "L" if puzzle.rules.no_loops else ""
    return f"{puzzle.cols}x{puzzle.rows}m{puzzle.rules.max_bridges}{loops}:{''.join(description)}\n"
