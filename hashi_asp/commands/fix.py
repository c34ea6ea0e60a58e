"""``fix``: the fewest edits (islands added, removed or renumbered) that leave a puzzle with
exactly one solution, keeping the solution the author meant unless ``--free``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .. import notations
from ..difficulty import BANDS
from ..errors import HashiError
from ..status import Question
from .check import one_set
from .declaration import (
    BRIDGES,
    CHOICE,
    FLAG,
    INT,
    Command,
    Given,
    Option,
    Outcome,
    Printed,
    Reader,
    lines,
)
from .shared_options import READING, TIME_LIMIT, formats, read_puzzle

if TYPE_CHECKING:
    from ..fixing import Edit, Fix
    from .output import Look


def fix(given: Given) -> Outcome:
    from ..fixing import fix

    board = given.puzzle
    count, band = given.values.get("alternatives"), given.values.get("band")
    offered = bool(count or band)
    found = fix(
        board,
        keep=given.kept,
        free=given.free,
        time_limit=given.deadline,
        alternatives=count or 0,
        band=band,
    )

    def printed() -> Printed:
        written = None
        if found.puzzle is not None:
            notation = given.to or input_notation(given)
            try:
                written = notations.write(found.puzzle, notation)
            except HashiError:  # the notation cannot hold it (its rules): JSON can
                written = notations.write(found.puzzle, "json")
        return Printed(lines(fix_text(found, written, given.look, offered=offered)))

    return Outcome.of(
        found.status,
        Question.ONE,
        found.stopped,
        document=lambda: fix_json(found, offered=offered),
        printed=printed,
        result=found,
    )


def input_notation(given: Given) -> str:
    """The notation PUZZLE was written in (``--notation``, else recognised again)."""
    chosen = given.values.get("notation")
    if chosen:
        return str(chosen)
    argument = str(given.argument)
    try:
        if notations.is_text(argument) or not os.path.isfile(argument):
            return notations.detect(argument)
        with open(argument, encoding="utf-8", errors="replace") as file:
            return notations.detect(file.read(1_000_000), argument)
    except (OSError, StopIteration, HashiError):
        return "json"


def read_kept(given: Given, reader: Reader) -> None:
    """The puzzle, then --keep: the solution to keep (not with --free)."""
    from ..errors import PuzzleError

    read_puzzle(given, reader)
    given.values["kept"] = one_set(given.values["keep"], reader, "keep")
    if given.values["kept"] is not None and given.values["free"]:
        raise PuzzleError("--keep and --free exclude each other: --free may change the solution")


# ---------------------------------------------------------------------------- its output


def edit_json(edit: Edit) -> dict:
    """An edit: ``cell``, ``from`` (null adds an island), ``to`` (null removes one) and
    ``kind`` (``add``, ``remove``, ``change``: an island without a number given one has ``from``
    null too)."""
    return {"cell": list(edit.cell), "from": edit.old, "to": edit.new, "kind": edit.kind}


def fix_json(fix: Fix, *, offered: bool = False) -> dict:
    """The document ``fix --format json`` prints: ``status``, ``edits``, ``fewest``,
    ``lower_bound``, the fixed ``puzzle`` (JSON notation) and its only ``solution`` (null
    without a fix), the ``kept`` solution and the ``mode``; ``keeping`` says why no fix keeps
    the solution (free mode followed by default, or none with ``--keep``): ``impossible``,
    proven that none does; ``not found``, none found in keep mode's time; else null.

    ``offered`` (``--alternatives``, ``--difficulty``) adds the fixed puzzle's ``difficulty``
    (as ``difficulty`` rates it; null if not rated in time), the ``band`` asked for, how many
    fixes found were left ``outside`` it, and the ``alternatives``: the fixes offered, the
    fewest edits first, the fix itself first, each a document like this one with its
    ``difficulty``."""
    document = _fix_document(fix)
    if offered:
        document["difficulty"] = fix.difficulty.to_json() if fix.difficulty else None
        document["band"] = fix.band
        document["outside"] = fix.outside
        document["alternatives"] = [
            {
                **_fix_document(other),
                "difficulty": other.difficulty.to_json() if other.difficulty else None,
            }
            for other in fix.alternatives
        ]
    return document


def _fix_document(fix: Fix) -> dict:
    return {
        "status": fix.status,
        "edits": [edit_json(edit) for edit in fix.edits],
        "fewest": fix.fewest,
        "lower_bound": fix.lower_bound,
        "puzzle": fix.puzzle.to_json() if fix.puzzle is not None else None,
        "solution": fix.solution.to_json() if fix.solution is not None else None,
        "kept": fix.kept.to_json() if fix.kept is not None and not fix.free else None,
        "mode": "free" if fix.free else "keep",
        "keeping": fix.keeping,
    }


KEEPING_WORDS = {
    "impossible": "no fix keeps solution 1 (proven), so the solution then changes",
    "not found": "no fix keeping solution 1 was found in half the time, so the solution then "
    "changes",
}
"""What the sentence of a fix says of solution 1 when free mode followed keep mode."""


def fix_words(fix: Fix) -> str:
    """The fix's edits in a sentence, with what becomes of solution 1 (the kept solution)."""
    from ..puzzle import plural

    edits = "; ".join(edit.words() for edit in fix.edits)
    kept = "solution 1 (its bridges split at new islands) is then the only solution"
    if fix.free:
        kept = KEEPING_WORDS.get(fix.keeping or "", "the solution then changes")
    fewest = "the fewest edits" if fix.fewest else f"at least {plural(fix.lower_bound, 'edit')}"
    return f"{edits}; {kept} ({fewest})"


def fix_verdict(fix: Fix, look: Look | None = None) -> str:
    """The last line of ``fix``."""
    from ..puzzle import plural
    from ..status import Stop
    from .output import TEXT, stopped

    cut = stopped(fix.stopped is Stop.TIME, (look or TEXT).signal)
    if fix.status == "fixed":
        edits = plural(len(fix.edits), "edit")
        if fix.fewest:
            return f"fixed: {edits}, proven fewest"
        if fix.band is not None:  # fewer edits may leave the puzzle in another band
            others = f"; {_fixes(fix.outside)} found leave it in another band"
            return (
                f"fixed: {edits} leaving the puzzle {fix.band}, the fewest found that do (a fix "
                f"needs at least {plural(fix.lower_bound, 'edit')}{others})"
            )
        why = f"; {cut}" if fix.stopped is not None else ""
        return f"fixed: {edits}, fewest not proven (at least {fix.lower_bound}{why})"
    if fix.status == "unique":
        return "unique: exactly 1 solution already; nothing to fix"
    if fix.status == "no fix found":
        if fix.free:
            return "no fix found: no edits leave one solution (proven)"
        kept = "edits that keep the solution"
        return f"no fix found: no {kept} leave one solution (proven; try --free)"
    if fix.status == "unsolvable":
        return "unsolvable: no solution to keep; search exhausted"
    needs = plural(fix.lower_bound, "edit")
    if fix.band is not None:  # no fix found that leaves the puzzle in the band
        others = f"; {_fixes(fix.outside)} found leave it in another band"
        why = cut if fix.stopped is not None else "no other fix found"
        return f"unknown: no fix leaving the puzzle {fix.band} found ({why}{others})"
    return f"unknown: {cut} before a fix was found (a fix needs at least {needs})"


def fix_text(
    fix: Fix, written: str | None, look: Look | None = None, *, offered: bool = False
) -> str:
    """The edits, the fixed puzzle as ``written`` (in the input's notation or ``--to``), its
    only solution drawn with the edited islands marked, the fixes to choose from (with
    ``offered``), and the verdict."""
    from ..drawing import draw
    from .output import TEXT

    look = look or TEXT
    blocks = []
    if fix.edits:
        heading = {
            "impossible": "No fix keeps the first solution (proven); edits that change it:",
            "not found": "No fix keeping the first solution found in half the time; edits that "
            "change it:",
        }.get(fix.keeping or "", "Edits:")
        blocks.append(heading + "\n" + "".join(f"  {e.words()}\n" for e in fix.edits) + "\n")
    if fix.status == "fixed" and written is not None:
        blocks.append("The fixed puzzle:\n" + written.rstrip("\n") + "\n\n")
    if fix.puzzle is not None and fix.solution is not None:
        marks = {edit.cell: look.palette.highlight for edit in fix.edits if edit.kind != "remove"}
        drawn = draw(fix.puzzle, fix.solution, look.style, marks=marks)
        blocks.append("Its only solution:\n" + drawn + "\n\n")  # edits in colour on a terminal
    if offered and fix.status == "fixed":
        blocks.append(alternatives_text(fix))
    return "".join(blocks) + fix_verdict(fix, look)


def _fixes(count: int, other: str = "") -> str:
    return f"{count} {other}fix" + ("es" if count != 1 else "")


def alternatives_text(fix: Fix) -> str:
    """The fixes offered, numbered, the fewest edits first (the one shown above first), each
    with its edits and the difficulty it leaves."""
    from ..puzzle import plural
    from .output import difficulty_line

    band = f" leaving the puzzle {fix.band}" if fix.band else ""
    left = f" ({_fixes(fix.outside, 'other ')} found leave it in another band)"
    lines = [
        f"Fixes to choose from{band}, the fewest edits first, each checked"
        + (left if fix.band and fix.outside else "")
        + ":"
    ]
    for number, other in enumerate(fix.alternatives, 1):
        rated = difficulty_line(other.difficulty) if other.difficulty else "not rated in time"
        edits = "; ".join(edit.words() for edit in other.edits)
        lines.append(f"  {number}. {edits} ({plural(len(other.edits), 'edit')})")
        lines.append(f"     difficulty: {rated}")
    return "\n".join(lines) + "\n\n"


COMMAND = Command(
    "fix",
    """Find the fewest edits that leave PUZZLE with exactly one solution, each fix checked by a
    fresh solve and the independent checker before it is shown.  --keep SOLUTION keeps the
    solution the author meant: an edit is a new island on one of its bridges, numbered twice
    the bridge's count (the bridge is split), or an island without a number given its count.
    --free allows any edit (add, remove or renumber an island) and the solution may change.  By
    default the first solution found is kept, and where no fix keeps it (proven, or none found
    in half the time) the fewest edits that change it are shown, said as such.  The fewest is
    proven where the search finishes; else the best fix found is shown with a lower bound.
    --alternatives K offers up to K fixes to choose from, the fewest edits first (then the
    next size), each checked the same way and rated as `difficulty` rates the fixed puzzle;
    --difficulty BAND keeps only the fixes that leave the puzzle in that band.
    Exit 0 fixed or already unique, 1 no fix keeps the --keep solution, 4 unsolvable, 3 time
    limit before a fix (or before a fix in the --difficulty band); 2 for a --keep that does
    not solve the puzzle.

    SOLUTION is read as `check` reads it: the output of `solve --format json`, or
    {"bridges": [[r1, c1, r2, c2, k], ...]}.""",
    (
        *READING,
        Option("keep", BRIDGES, "The solution to keep, as `check` reads it.", metavar="SOLUTION"),
        Option("free", FLAG, "Allow any edit; the solution may change.", default=False),
        Option(
            "to",
            CHOICE,
            "Write the fixed puzzle in this notation [the input's].",
            choices=notations.WRITABLE,
        ),
        Option(
            "alternatives",
            INT,
            "Offer up to K fixes, the fewest edits first, each checked and rated as "
            "`difficulty` rates it.",
            low=1,
            metavar="K",
        ),
        Option(
            "difficulty",
            CHOICE,
            "Only fixes that leave the puzzle in this band.",
            choices=BANDS,
            dest="band",
            metavar="BAND",
        ),
        formats("text", "unicode", "json"),
        TIME_LIMIT,
    ),
    fix,
    prepare=read_kept,
    asks=Question.ONE,
)
