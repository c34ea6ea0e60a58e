"""``unique``: whether a puzzle has exactly one solution; for two, where they differ and one
edit that leaves one; for none, why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..status import Question
from .declaration import FLAG, Command, Given, Option, Outcome, Printed, lines
from .shared_options import SEARCHING, formats, read_program

if TYPE_CHECKING:
    from ..difficulty import Difficulty
    from ..fixing import Fix
    from ..puzzle import Puzzle
    from ..solving import Result
    from .output import Look


def unique(given: Given) -> Outcome:
    from ..reviewing import review

    board = given.puzzle
    asked = {"rate": given.rate, "propose": given.propose}
    reviewed = review(board, program=given.program, time_limit=given.deadline, **asked)
    result, found = reviewed.result, reviewed.fix
    sought, rated, seconds = reviewed.sought, reviewed.difficulty, reviewed.proposal_seconds

    def printed() -> Printed:
        text = unique_text(
            board, result, given.look, fix=found, sought=sought, rated=rated, seconds=seconds
        )
        return Printed(lines(text))

    return Outcome.of(
        result.status,
        Question.ONE,
        result.stopped,
        document=lambda: unique_json(
            board, result, fix=found, sought=sought, rated=rated, seconds=seconds
        ),
        printed=printed,
        result=result,
    )


# ---------------------------------------------------------------------------- its output


def unique_text(
    puzzle: Puzzle,
    result: Result,
    look: Look | None = None,
    *,
    fix: Fix | None = None,
    sought: bool = False,
    rated: Difficulty | None = None,
    seconds: float | None = None,
) -> str:
    """The solutions found (the differing pairs marked), where two solutions differ and the
    smallest region of them, the ``fix`` (from :func:`hashi_asp.fixing.fix`, searched for
    ``seconds``; with ``sought``, None says none was found), why there is none (if so), the
    verdict, and the difficulty when ``rated``."""
    from ..drawing import draw
    from ..puzzle import pair_name
    from .output import TEXT, difficulty_line, explained, stopped

    look = look or TEXT
    marks = {d.pair: look.palette.highlight for d in result.differences}
    blocks = []
    for number, solution in enumerate(result.solutions, 1):
        heading = f"Solution {number}:\n" if len(result.solutions) > 1 else ""
        blocks.append(heading + draw(puzzle, solution, look.style, marks=marks) + "\n\n")
    if result.differences:
        blocks.append(
            f"The two solutions differ at {len(result.differences)} pairs of islands "
            "(bridges in solution 1, in solution 2):\n"
            + "".join(
                f"  {pair_name(*d.pair)}: {d.first}, {d.second}\n" for d in result.differences
            )
            + "\n"
        )
        blocks.append(_fix_text(result, fix, sought, seconds))
    cut = stopped(result.timed_out, look.signal)
    verdict = {
        "unique": "unique: exactly 1 solution; search exhausted",
        "multiple": "multiple: at least 2 solutions (the search stops at 2; "
        "`hashi-asp count` counts them)",
        "unsolvable": "unsolvable: no solution; search exhausted",
        "solved": f"solved: 1 solution found; {cut} before a second was ruled out",
    }.get(result.status, f"unknown: {cut} before any solution was found")
    rating = f"\ndifficulty: {difficulty_line(rated)}" if rated is not None else ""
    return "".join(blocks) + explained(puzzle, result.explanation, look) + verdict + rating


def _fix_text(result: Result, fix: Fix | None, sought: bool, seconds: float | None) -> str:
    """The smallest region where the two solutions differ, and the fix (or that none was
    found, when one was sought); a fix not proven the fewest says that its search stopped
    short and that ``fix`` with more time searches on."""
    from ..puzzle import pair_name
    from ..solving import region
    from .fix import fix_words

    where = ", ".join(pair_name(*d.pair) for d in region(result.differences))
    text = [f"The smallest region where they differ (pairs sharing islands): {where}"]
    if fix is not None and fix.status == "fixed":
        text.append(f"To make it unique (checked): {fix_words(fix)}")
        if not fix.fewest:
            text.append(stopped_short(fix, seconds))
    elif fix is not None and fix.status == "no fix found":
        text.append("No edits leave one solution (proven).")
    elif sought:
        text.append(
            "No fix was found in the time allowed; `hashi-asp fix` searches longer and "
            "can change the solution (--free)."
        )
    return "\n".join(text) + "\n\n"


def stopped_short(fix: Fix, seconds: float | None) -> str:
    """What a proposal not proven the fewest says: where it stopped, and what finds fewer."""
    from ..puzzle import plural

    spent = f"after {seconds:g} s, " if seconds is not None else ""
    limit = f" --time-limit {seconds:g}" if seconds is not None else ""
    return (
        f"This proposal stopped short {spent}as `hashi-asp fix{limit}` would: the fewest edits "
        f"are not proven (at least {plural(fix.lower_bound, 'edit')}), and more may be "
        "needless. `hashi-asp fix` with more time (say --time-limit 60) searches on for a fix "
        "with fewer edits and proves the fewest where it finishes."
    )


def unique_json(
    puzzle: Puzzle,
    result: Result,
    *,
    fix: Fix | None = None,
    sought: bool = False,
    rated: Difficulty | None = None,
    seconds: float | None = None,
) -> dict:
    """The document ``unique --format json`` prints: ``result_json``'s, with the
    ``differences``, the smallest ``region`` of them, the ``fix`` when given or sought (see
    :func:`unique_fix_json`), and the ``difficulty`` when ``rated``."""
    from ..solving import region
    from .solve import result_json

    document = result_json(puzzle, result)
    explanation = document.pop("explanation", None)
    document["differences"] = [list(d) for d in result.differences]
    document["region"] = [[*a, *b] for a, b in (d.pair for d in region(result.differences))]
    if fix is not None or sought:
        document["fix"] = None if fix is None else unique_fix_json(fix, seconds)
    if rated is not None:
        document["difficulty"] = rated.to_json()
    return {**document, **({"explanation": explanation} if explanation else {})}


def unique_fix_json(fix: Fix, seconds: float | None = None) -> dict | None:
    """unique's ``fix``: the fix's document (:func:`.fix.fix_json`), and for a fix of one edit
    its ``kind``, ``cell``, new ``number`` and ``old`` number as before; the document of a
    proof that no edits will do (``no fix found``); None when none was found in the time.  A
    fix's document adds ``stopped_short`` (true: not proven the fewest, its search stopped at
    its time, and ``fix`` with more time searches on) and ``seconds``, the time its search
    had (as ``fix --time-limit``)."""
    from .fix import fix_json

    if fix.status == "no fix found":
        return fix_json(fix)
    if fix.status != "fixed":
        return None
    document = {**fix_json(fix), "stopped_short": not fix.fewest, "seconds": seconds}
    if len(fix.edits) == 1:
        edit = fix.edits[0]
        document = {
            "kind": edit.kind,
            "cell": list(edit.cell),
            "number": edit.new,
            "old": edit.old,
            **document,
        }
    return document


COMMAND = Command(
    "unique",
    """Decide whether PUZZLE has exactly one solution, by searching for two: for two, draw both,
    list the pairs of islands where they differ, name the smallest region of them and propose
    the fewest edits that leave one solution, as `fix` finds them in a short time (checked
    first); for none,
    say why.  --difficulty rates a unique puzzle (as `difficulty`).  Exit 0 unique, 1 multiple,
    4 unsolvable, 3 time limit before a verdict.""",
    (
        *SEARCHING,
        formats("text", "unicode", "json"),
        Option(
            "difficulty",
            FLAG,
            "Also rate a unique puzzle's difficulty.",
            default=False,
            dest="rate",
        ),
        Option(
            "propose",
            FLAG,
            "Propose a fix for several solutions (up to 2 s), or not.  [propose]",
            default=True,
            negative="no-propose",
        ),
    ),
    unique,
    prepare=read_program,
    asks=Question.ONE,
)
