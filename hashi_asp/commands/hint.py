"""``hint``: what every solution has, where solutions differ, and what bridges drawn so far
force."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..status import Question
from .declaration import BRIDGES, Command, Given, Option, Outcome, Printed, Reader, lines
from .shared_options import SEARCHING, formats, read_program

if TYPE_CHECKING:
    from ..puzzle import Puzzle
    from ..reasoning import Hint
    from .output import Look

GIVEN = Option(
    "given",
    BRIDGES,
    "The player's state: bridges drawn, pairs ruled out, counts narrowed (JSON), or bridges "
    "as `check` reads them.",
    metavar="STATE",
)
"""--given: a player's state (``hint``, ``steps``): :mod:`hashi_asp.play`."""


def hint(given: Given) -> Outcome:
    from ..reasoning import hint

    board = given.puzzle
    search = {"program": given.program, "time_limit": given.deadline, "explained": True}
    found = hint(board, given.drawn, **search)
    return Outcome.of(
        found.status,
        Question.FIND,
        found.stopped,
        document=lambda: hint_json(board, found),
        printed=lambda: Printed(pictured(given) + lines(hint_text(board, found, given.look))),
        result=found,
    )


def read_given(given: Given, reader: Reader) -> None:
    """The program and the puzzle, then --given."""
    read_program(given, reader)
    given.values["drawn"] = read_state(given, reader)


def read_state(given: Given, reader: Reader, doing: str = "checking") -> object:
    """The player's state --given holds, judged against the puzzle read; without --given, the
    bridges drawn in the picture the puzzle was read from (:func:`drawn_in_picture`, said to
    be what the command is ``doing``); or None."""
    argument = given.values["given"]
    if argument is not None:
        return reader.play(argument, "given", given.puzzle)
    return drawn_in_picture(given, doing)


def drawn_in_picture(given: Given, doing: str) -> object:
    """The bridges drawn in the picture the puzzle was read from, as the player's state (None:
    not a picture, or none drawn), judged against the puzzle; ``given.values["pictured"]``
    says it in one line for the text report (``checking the 7 bridges drawn in the picture,
    between 5 pairs of islands``, with the word ``doing``).  A drawing that is no player's
    state (more lines between two islands than the rules allow) is refused, naming the
    pair."""
    from ..errors import PuzzleError
    from ..play import Play
    from ..puzzle import plural

    puzzle = given.puzzle
    reading = puzzle.reading
    if reading is None or not reading.bridges:
        return None
    play = Play(reading.bridges)
    try:
        play.counts(puzzle)
    except PuzzleError as wrong:
        raise PuzzleError(
            f"the bridges drawn in the picture are no player's state: {wrong.message} "
            "(--given '{}' starts from the empty board)",
            puzzle.source,
        ) from None
    lines_drawn = sum(b.count for b in play.bridges)
    given.values["pictured"] = (
        f"{doing} the {plural(lines_drawn, 'bridge')} drawn in the picture, "
        f"between {plural(len(play.bridges), 'pair')} of islands"
    )
    return play


def pictured(given: Given) -> str:
    """The line that says the player's state is the picture's bridges, with its newline (or
    nothing)."""
    said = given.values.get("pictured")
    return f"{said}\n" if said else ""


# ---------------------------------------------------------------------------- its output


def hint_text(puzzle: Puzzle, found: Hint, look: Look | None = None) -> str:
    """What the bridges drawn allow, and what every solution has: the decided bridges drawn,
    ``?`` on each pair whose bridges differ, those pairs listed with the counts they take; why
    there is no solution (if so); the verdict."""
    from .output import TEXT, explained

    look = look or TEXT
    why = explained(puzzle, found.explanation, look)
    mistakes = _mistakes_line(found, look) + "\n" if found.mistakes is not None else ""
    return _hint_body(puzzle, found, look) + why + mistakes + _hint_verdict(found, look)


def _mistakes_line(found: Hint, look: Look) -> str:
    """The bridges drawn and pairs ruled out that no solution has, each on its own; said to be
    all of them only when every one was asked about."""
    from ..puzzle import pair_name
    from .output import stopped

    listed = found.mistakes
    assert listed is not None
    named = [
        *(f"{pair_name(*b.ends)} with {b.count} or more" for b in listed.bridges),
        *(f"{pair_name(*pair)} without a bridge" for pair in listed.ruled_out),
    ]
    cut = stopped(listed.timed_out, look.signal)
    if listed.solvable is False:
        return "mistakes: none to name, the puzzle itself has no solution"
    if named:
        rest = "" if listed.exhausted else f" ({cut}: the rest not asked)"
        return f"mistakes: no solution has {', nor '.join(named)}{rest}"
    if listed.exhausted:
        return "mistakes: none, each bridge drawn and pair ruled out is in some solution"
    return f"mistakes: none found, {cut} before each bridge drawn and pair ruled out was asked"


def _hint_body(puzzle: Puzzle, found: Hint, look: Look) -> str:
    from ..drawing import draw
    from ..puzzle import Solution, bridge, pair_name
    from .output import counts

    if found.illegal:
        listed = "".join(f"  - {failed.message}\n" for failed in found.illegal)
        return f"The drawn bridges break the rules:\n{listed}\n"
    conflict = found.conflict
    if conflict is not None and not conflict.empty and found.given is not None:
        proof = "" if found.minimal else " (not proven minimal: time limit)"
        listed = "".join(
            [
                *(f"  {pair_name(*b.ends)}: {b.count}\n" for b in conflict.bridges),
                *(f"  {pair_name(*pair)}: ruled out\n" for pair in conflict.ruled_out),
                *(f"  {pair_name(*pair)}: {counts(ks)}\n" for pair, ks in conflict.narrowed),
            ]
        )
        pairs = [
            *(b.ends for b in conflict.bridges),
            *conflict.ruled_out,
            *(pair for pair, _ in conflict.narrowed),
        ]
        marks = dict.fromkeys(pairs, look.palette.highlight)
        drawing = draw(puzzle, found.given.drawn, look.style, marks=marks)
        return (
            f"The drawn bridges cannot be completed: no solution has all of these together{proof}:"
            f"\n{listed}\n{drawing}\n\n"
        )
    if found.status not in ("unique", "multiple"):
        return ""
    text = ""
    undecided = found.undecided
    forced = found.forced if found.given is not None else []
    if found.complete:
        text += "The drawn bridges already solve the puzzle.\n\n"
    elif found.given is not None:
        text += f"The drawn bridges can be completed; they force {len(forced)} more:\n"
        for b in forced:
            options = undecided.get(b.ends)
            at_least = f"at least {b.count} ({counts(options)})" if options else str(b.count)
            text += f"  {pair_name(*b.ends)}: {at_least}\n"
        text += "\n"
    # Decided pairs drawn as they are in every solution; undecided ones as '?'.
    shown = Solution.of([*found.cautious, *(bridge(*pair, 1) for pair in undecided)])
    marks = {
        **{b.ends: look.palette.highlight for b in forced},
        **dict.fromkeys(undecided, look.palette.undecided),
    }
    text += draw(puzzle, shown, look.style, marks=marks) + "\n\n"
    if undecided:
        text += "Pairs whose bridges differ between solutions "
        text += f"({len(undecided)}; the counts they take):\n"
        text += "".join(f"  {pair_name(*pair)}: {counts(ks)}\n" for pair, ks in undecided.items())
        text += "\n"
    return text


def _hint_verdict(found: Hint, look: Look) -> str:
    from .output import stopped

    pairs = len(found.options)
    given = found.given
    if given is None:
        extending = ""
    elif given.ruled_out or given.narrowed:  # more than bridges: the marks and steps hold too
        extending = " within the player's state"
    else:
        extending = " extending the drawn bridges"
    if found.status == "unique":
        return f"unique: all {pairs} pairs of neighbours are decided: exactly 1 solution{extending}"
    if found.status == "multiple":
        return (
            f"multiple: {pairs - len(found.undecided)} of {pairs} pairs of neighbours are the "
            f"same in every solution{extending}, {len(found.undecided)} differ"
        )
    if found.status == "unsolvable":
        return f"unsolvable: no solution{extending}"
    cut = stopped(found.timed_out, look.signal)
    return f"unknown: {cut} before the consequences were complete"


def hint_json(puzzle: Puzzle, found: Hint) -> dict:
    """The document ``hint --format json`` prints."""
    from .output import violation_json, with_explanation

    document: dict = {
        "status": found.status,
        "exhausted": found.exhausted,
        "timed_out": found.timed_out,
        "cautious": [list(b) for b in found.cautious],
        "brave_only": [list(b) for b in found.brave if len(found.options[b.ends]) > 1],
        "empty": [[*a, *b] for a, b in found.empty],
        "undecided": [[*a, *b, list(ks)] for (a, b), ks in found.undecided.items()],
        "solutions": [found.solution.to_json()] if found.solution else [],
    }
    if found.given is not None:
        document.update(
            {
                "given": found.given.to_json(),
                "forced": [list(b) for b in found.forced] if found.options else [],
                "illegal": [violation_json(v) for v in found.illegal],
                "conflict": None if found.conflict is None else found.conflict.entries(),
                "minimal": found.minimal,
                "mistakes": found.mistakes.to_json() if found.mistakes is not None else None,
            }
        )
    document["puzzle"] = puzzle.to_json()
    return with_explanation(document, puzzle, found.explanation)


COMMAND = Command(
    "hint",
    """Draw the bridges every solution of PUZZLE has, '?' where solutions differ, and list
    those pairs of islands with the counts they take.  --given takes a player's state: the
    bridges drawn, each a lower bound (a single bridge may still become a double) unless they
    solve the puzzle, the pairs ruled out and the counts steps narrowed.  Then only solutions
    that keep to it count, and the bridges it forces are listed, or a minimal part of it that
    cannot all stay; and its mistakes, the bridges drawn and pairs ruled out that no solution
    has.  Exit 0 if there is a solution (keeping to --given), 1 if not, 3 if the time limit
    came first.""",
    (*SEARCHING, GIVEN, formats("text", "unicode", "json")),
    hint,
    prepare=read_given,
    asks=Question.FIND,
)
