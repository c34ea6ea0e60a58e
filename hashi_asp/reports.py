"""Every document a command prints, built from the library's results: the text a person reads
and the JSON a program reads.  The command line prints them; a web page can return the same JSON.

Text functions return lines without a final newline; JSON functions return plain dicts (turned
into text by :func:`~hashi_asp.notations.json.dumps`).  Colour comes from a :class:`Palette`:
plain by default, and the command line passes one that colours for a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .drawing import draw, svg
from .puzzle import Puzzle, Solution, bridge, cell_name, pair_name, plural
from .status import Stop

if TYPE_CHECKING:
    # Only their types are needed here: a command imports the modules it runs (clingo, the
    # generator, the benchmark's statistics), and every other command's start-up is spared them.
    from .checking import Violation
    from .difficulty import Difficulty
    from .fixing import Edit, Fix
    from .generation import Generated
    from .reasoning import Explanation, Hint
    from .solving import Result
    from .walkthrough import Walkthrough


@dataclass(frozen=True)
class Palette:
    """How marked characters are shown: ``highlight`` for the islands and bridges a report points
    at, ``undecided`` for a pair whose bridges differ between solutions (drawn as ``?``)."""

    highlight: Callable[[str], str] = str
    undecided: Callable[[str], str] = lambda text: "?"


PLAIN = Palette()


@dataclass(frozen=True)
class Look:
    """How a text report is drawn: ``style`` of the drawings (``text`` or ``unicode``), the
    ``palette`` of marks, and ``signal``, the word for a stop by signal (``interrupted`` or
    ``terminated``; a stop by the time limit says so itself)."""

    style: str = "text"
    palette: Palette = PLAIN
    signal: str = "interrupted"


TEXT = Look()


def _counts(words: Iterable[int]) -> str:
    """``0, 1 or 2``."""
    *first, last = (str(k) for k in words)
    return ", ".join(first) + " or " + last


def _stopped(timed_out: bool, signal: str) -> str:
    """Why a search ended early: its time limit, or the signal (``interrupted``, ``terminated``)."""
    return "time limit reached" if timed_out else signal


# ---------------------------------------------------------------------------- solve


def solution_text(
    puzzle: Puzzle, solution: Solution, number: int, *, numbered: bool, style: str = "text"
) -> str:
    """One solution as ``solve`` prints it as it is found: drawn (then a blank line), or as
    ``bridge/5`` facts."""
    if style == "facts":
        return f"% solution {number}\n" + solution_facts(solution)
    heading = f"Solution {number}:\n" if numbered else ""
    return heading + draw(puzzle, solution, style) + "\n"


def solution_file(puzzle: Puzzle, solution: Solution, notation: str) -> str:
    """A solution as a file of its own: ``svg``, a picture; ``pzprv3``, the file puzz.link's
    editor opens, with the bridges drawn."""
    if notation == "svg":
        return svg(puzzle, solution)
    from .notations import puzzlink

    return puzzlink.format_pzprv3(puzzle, solution)


def solution_facts(solution: Solution) -> str:
    """A solution as ``bridge/5`` facts, the encoding's output predicate."""
    from .asp import interface

    return " ".join(interface.bridge_atom(b.ends, b.count) + "." for b in solution.bridges)


def solve_text(
    puzzle: Puzzle, result: Result, models: int, *, stats: bool = False, look: Look = TEXT
) -> str:
    """What ``solve`` prints after the solutions: why there is none (if so), the closing line
    (verdict, count, whether the search space was exhausted) and, with ``stats``, clingo's."""
    found = len(result.solutions)
    count = "no solution" if found == 0 else plural(found, "solution")
    if result.exhausted:
        how = "search exhausted"
    elif result.timed_out:
        how = "time limit reached, search not exhausted"
    elif result.stopped is not None:
        how = f"{look.signal}, search not exhausted"
    else:
        how = f"stopped after {models} as asked (-n 0 finds all)"
    lines = [f"{result.status}: {count}; {how}"]
    lines += [f"{key}: {value}" for key, value in result.stats.items()] if stats else []
    return _explained(puzzle, result.explanation, look) + "\n".join(lines)


def result_json(puzzle: Puzzle, result: Result, *, stats: bool = False) -> dict:
    """The document ``solve --format json`` prints (and ``unique``'s, with ``differences``)."""
    document: dict = {
        "status": result.status,
        "exhausted": result.exhausted,
        "count": len(result.solutions),
        "timed_out": result.timed_out,
        "solutions": [s.to_json() for s in result.solutions],
        "puzzle": puzzle.to_json(),
    }
    if stats:
        document["stats"] = result.stats
    return _with_explanation(document, puzzle, result.explanation)


# ---------------------------------------------------------------------------- unique


def unique_text(
    puzzle: Puzzle,
    result: Result,
    look: Look = TEXT,
    *,
    fix: Fix | None = None,
    sought: bool = False,
    rated: Difficulty | None = None,
) -> str:
    """The solutions found (the differing pairs marked), where two solutions differ and the
    smallest region of them, the ``fix`` (from :func:`hashi_asp.fixing.fix`; with
    ``sought``, None says none was found), why there is none (if so), the verdict, and the
    difficulty when ``rated``."""
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
        blocks.append(_fix_text(result, fix, sought))
    stopped = _stopped(result.timed_out, look.signal)
    verdict = {
        "unique": "unique: exactly 1 solution; search exhausted",
        "multiple": "multiple: at least 2 solutions (the search stops at 2; "
        "`hashi-asp count` counts them)",
        "unsolvable": "unsolvable: no solution; search exhausted",
        "solved": f"solved: 1 solution found; {stopped} before a second was ruled out",
    }.get(result.status, f"unknown: {stopped} before any solution was found")
    rating = f"\ndifficulty: {difficulty_line(rated)}" if rated is not None else ""
    return "".join(blocks) + _explained(puzzle, result.explanation, look) + verdict + rating


def _fix_text(result: Result, fix: Fix | None, sought: bool) -> str:
    """The smallest region where the two solutions differ, and the fix (or that none was
    found, when one was sought)."""
    from .solving import region

    where = ", ".join(pair_name(*d.pair) for d in region(result.differences))
    lines = [f"The smallest region where they differ (pairs sharing islands): {where}"]
    if fix is not None and fix.status == "fixed":
        lines.append(f"To make it unique (checked): {fix_words(fix)}")
    elif sought:
        lines.append(
            "No fix was found in the time allowed; `hashi-asp fix` searches longer and "
            "can change the solution (--free)."
        )
    return "\n".join(lines) + "\n\n"


def fix_words(fix: Fix) -> str:
    """The fix's edits in a sentence, with what becomes of solution 1 (the kept solution)."""
    edits = "; ".join(edit.words() for edit in fix.edits)
    kept = "solution 1 (its bridges split at new islands) is then the only solution"
    if fix.free:
        kept = "the solution then changes"
    fewest = "the fewest edits" if fix.fewest else f"at least {plural(fix.lower_bound, 'edit')}"
    return f"{edits}; {kept} ({fewest})"


def unique_json(
    puzzle: Puzzle,
    result: Result,
    *,
    fix: Fix | None = None,
    sought: bool = False,
    rated: Difficulty | None = None,
) -> dict:
    """The document ``unique --format json`` prints: ``result_json``'s, with the
    ``differences``, the smallest ``region`` of them, the ``fix`` when given or sought, and
    the ``difficulty`` when ``rated``."""
    from .solving import region

    document = result_json(puzzle, result)
    explanation = document.pop("explanation", None)
    document["differences"] = [list(d) for d in result.differences]
    document["region"] = [[*a, *b] for a, b in (d.pair for d in region(result.differences))]
    if fix is not None or sought:
        document["fix"] = None if fix is None else unique_fix_json(fix)
    if rated is not None:
        document["difficulty"] = rated.to_json()
    return {**document, **({"explanation": explanation} if explanation else {})}


def unique_fix_json(fix: Fix) -> dict | None:
    """unique's ``fix``: the fix's document (:func:`fix_json`), and for a fix of one edit its
    ``kind``, ``cell``, new ``number`` and ``old`` number as before; None without a fix."""
    if fix.status != "fixed":
        return None
    document = fix_json(fix)
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


# ---------------------------------------------------------------------------- fix


def edit_json(edit: Edit) -> dict:
    """An edit: ``cell``, ``from`` (null adds an island), ``to`` (null removes one) and
    ``kind`` (``add``, ``remove``, ``change``: an island without a number given one has ``from``
    null too)."""
    return {"cell": list(edit.cell), "from": edit.old, "to": edit.new, "kind": edit.kind}


def fix_json(fix: Fix) -> dict:
    """The document ``fix --format json`` prints: ``status``, ``edits``, ``fewest``,
    ``lower_bound``, the fixed ``puzzle`` (JSON notation) and its only ``solution`` (null
    without a fix), the ``kept`` solution and the ``mode``; ``keeping`` says why free mode
    followed by default (``impossible``: proven that no fix keeps the first solution; ``not
    found``: none found in keep mode's share of the time), else null."""
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


def fix_verdict(fix: Fix, look: Look = TEXT) -> str:
    """The last line of ``fix``."""
    stopped = _stopped(fix.stopped is Stop.TIME, look.signal)
    if fix.status == "fixed":
        edits = plural(len(fix.edits), "edit")
        if fix.fewest:
            return f"fixed: {edits}, proven fewest"
        why = f"; {stopped}" if fix.stopped is not None else ""
        return f"fixed: {edits}, fewest not proven (at least {fix.lower_bound}{why})"
    if fix.status == "unique":
        return "unique: exactly 1 solution already; nothing to fix"
    if fix.status == "no fix found":
        kinds = "any edits" if fix.free else "edits that keep the solution (try --free)"
        return f"no fix found: no {kinds} leave one solution"
    if fix.status == "unsolvable":
        return "unsolvable: no solution to keep; search exhausted"
    needs = plural(fix.lower_bound, "edit")
    return f"unknown: {stopped} before a fix was found (a fix needs at least {needs})"


def fix_text(fix: Fix, written: str | None, look: Look = TEXT) -> str:
    """The edits, the fixed puzzle as ``written`` (in the input's notation or ``--to``), its
    only solution drawn with the edited islands marked, and the verdict."""
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
    return "".join(blocks) + fix_verdict(fix, look)


# ---------------------------------------------------------------------------- count


def count_text(result: Result, look: Look = TEXT) -> str:
    if result.exhausted:
        return f"{plural(result.count, 'solution')}; search exhausted"
    stopped = _stopped(result.timed_out, look.signal)
    seconds = result.stats["solve_seconds"]
    return f"at least {plural(result.count, 'solution')} ({stopped} after {seconds:.1f} s)"


def count_json(puzzle: Puzzle, result: Result, *, checked: bool) -> dict:
    return {
        "status": result.status,
        "count": result.count,
        "exhausted": result.exhausted,
        "timed_out": result.timed_out,
        "checked": checked,
        "seconds": result.stats["solve_seconds"],
        "puzzle": puzzle.to_json(),
    }


# ---------------------------------------------------------------------------- hint


def hint_text(puzzle: Puzzle, found: Hint, look: Look = TEXT) -> str:
    """What the bridges drawn allow, and what every solution has: the decided bridges drawn,
    ``?`` on each pair whose bridges differ, those pairs listed with the counts they take; why
    there is no solution (if so); the verdict."""
    why = _explained(puzzle, found.explanation, look)
    return _hint_body(puzzle, found, look) + why + _hint_verdict(found, look)


def _hint_body(puzzle: Puzzle, found: Hint, look: Look) -> str:
    if found.illegal:
        listed = "".join(f"  - {failed.message}\n" for failed in found.illegal)
        return f"The drawn bridges break the rules:\n{listed}\n"
    if found.conflict:
        proof = "" if found.minimal else " (not proven minimal: time limit)"
        listed = "".join(f"  {pair_name(*b.ends)}: {b.count}\n" for b in found.conflict)
        marks = {b.ends: look.palette.highlight for b in found.conflict}
        drawing = draw(puzzle, found.given, look.style, marks=marks)
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
            at_least = f"at least {b.count} ({_counts(options)})" if options else str(b.count)
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
        text += "".join(f"  {pair_name(*pair)}: {_counts(ks)}\n" for pair, ks in undecided.items())
        text += "\n"
    return text


def _hint_verdict(found: Hint, look: Look) -> str:
    pairs = len(found.options)
    extending = " extending the drawn bridges" if found.given is not None else ""
    if found.status == "unique":
        return f"unique: all {pairs} pairs of neighbours are decided: exactly 1 solution{extending}"
    if found.status == "multiple":
        return (
            f"multiple: {pairs - len(found.undecided)} of {pairs} pairs of neighbours are the "
            f"same in every solution{extending}, {len(found.undecided)} differ"
        )
    if found.status == "unsolvable":
        return f"unsolvable: no solution{extending}"
    stopped = _stopped(found.timed_out, look.signal)
    return f"unknown: {stopped} before the consequences were complete"


def hint_json(puzzle: Puzzle, found: Hint) -> dict:
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
                "conflict": None if found.conflict is None else [list(b) for b in found.conflict],
                "minimal": found.minimal,
            }
        )
    document["puzzle"] = puzzle.to_json()
    return _with_explanation(document, puzzle, found.explanation)


# ---------------------------------------------------------------------------- steps


def steps_text(puzzle: Puzzle, walk: Walkthrough, look: Look = TEXT, *, brief: bool = False) -> str:
    """Each step numbered, with its sentence, the counts it leaves and the board after it (the
    step's pair and its reason's islands marked); then how the walkthrough ended.  ``brief``:
    one line per step, no boards."""
    if brief:
        lines = [f"{n:3d}. {step.text}." for n, step in enumerate(walk.steps, 1)]
        return "\n".join([*lines, ""]) + steps_verdict(walk, look)
    blocks = []
    for number, (step, board) in enumerate(walk.boards(), 1):
        marks: dict = dict.fromkeys(step.reason, look.palette.highlight)
        if step.pair is not None:
            marks[step.pair] = look.palette.highlight
        blocks.append(
            f"Step {number}: {step.text}.\n"
            + (
                f"  {pair_name(*step.pair)}: {_counts_or_one(step.before)} -> "
                f"{_counts_or_one(step.bridges)}\n"
                if step.pair is not None
                else ""
            )
            + draw(puzzle, board, look.style, marks=marks)
            + "\n\n"
        )
    return "".join(blocks) + steps_verdict(walk, look)


def _counts_or_one(counts: tuple[int, ...]) -> str:
    return "none" if not counts else str(counts[0]) if len(counts) == 1 else _counts(counts)


def steps_verdict(walk: Walkthrough, look: Look = TEXT) -> str:
    """How the walkthrough ended, and the difficulty when it ran to its end."""
    done = plural(len(walk.steps), "step")
    open_pairs = walk.open
    listed = "".join(f"\n  {pair_name(*pair)}: {_counts(ks)}" for pair, ks in open_pairs.items())
    verdict = {
        "solved": f"solved: {done}, each forced by its reason",
        "stuck": f"stuck after {done}: no further step follows, the puzzle has several "
        f"solutions from here; pairs still open ({len(open_pairs)}):{listed}",
        "contradiction": f"contradiction after {done}: no solution"
        + (
            f" (the islands in conflict: {', '.join(map(cell_name, walk.conflict))})"
            if walk.conflict
            else ""
        ),
        "unfinished": f"{done} shown, as asked; {plural(len(open_pairs), 'pair')} still open",
    }.get(walk.status, f"unknown: {_stopped(walk.timed_out, look.signal)} after {done}")
    rated = f"\ndifficulty: {difficulty_line(walk.difficulty)}" if walk.difficulty else ""
    return verdict + rated


def difficulty_line(rated: Difficulty) -> str:
    """``0.62 (hard; steps: 40 easy, 3 medium, 2 hard, 0 expert)``."""
    per_band = ", ".join(f"{n} {band}" for band, n in rated.to_json()["steps"].items())
    unfinished = "" if rated.finished else "; the easiest-technique walkthrough does not finish"
    return f"{rated.score:.2f} ({rated.band}; steps: {per_band}{unfinished})"


def unrated_line(status: str) -> str:
    """Why a puzzle has no difficulty, by its ``status`` (as ``unique`` says it)."""
    why = {"multiple": "several solutions", "unsolvable": "no solution"}.get(status, status)
    hint = " (`hashi-asp unique` shows where two differ)" if status == "multiple" else ""
    return f"{status}: {why}; only a puzzle with exactly one solution has a difficulty{hint}"


def difficulty_json(puzzle: Puzzle, rated: Difficulty | None, status: str = "rated") -> dict:
    """The document ``difficulty --format json`` prints: ``status`` ``rated`` and the rating,
    or why there is none (``multiple``, ``unsolvable``) and the rating's fields null."""
    fields = rated.to_json() if rated else dict.fromkeys(("score", "band", "steps", "finished"))
    return {"status": status, **fields, "puzzle": puzzle.to_json()}


def steps_json(puzzle: Puzzle, walk: Walkthrough) -> dict:
    """The document ``steps --format json`` prints."""
    return {
        "status": walk.status,
        "steps": [step.to_json() for step in walk.steps],
        "open": [[*a, *b, list(ks)] for (a, b), ks in walk.open.items()],
        "conflict": None if walk.conflict is None else [list(cell) for cell in walk.conflict],
        "solution": walk.solution.to_json() if walk.solution else None,
        "difficulty": walk.difficulty.to_json() if walk.difficulty else None,
        "checked": walk.checked,
        "timed_out": walk.timed_out,
        "puzzle": puzzle.to_json(),
    }


def step_pictures(puzzle: Puzzle, walk: Walkthrough) -> list[tuple[str, str]]:
    """One SVG picture per step, as (file name, picture): :meth:`Walkthrough.pictures`."""
    return [(f"step-{n:03d}.svg", picture) for n, picture in enumerate(walk.pictures(), 1)]


# ---------------------------------------------------------------------------- explanations


def explanation_text(puzzle: Puzzle, why: Explanation, look: Look = TEXT) -> str:
    """Why there is no solution: the counting checks that fail, then the islands whose numbers
    cannot all be met, drawn; a blank line after."""
    lines = ["Why there is no solution:"]
    lines += [f"  - {failed.message}" for failed in why.checks]
    if why.core is None:
        stopped = _stopped(why.timed_out, look.signal)
        lines.append(f"  ({stopped} before a set of islands to blame was found)")
    elif not why.core:
        lines.append(
            "  - even with every island number ignored, no bridges connect all the "
            "islands without crossing"
        )
    else:
        listing = ", ".join(f"{cell_name(cell)} {puzzle.islands[cell]}" for cell in why.core)
        if len(why.core) == 1:
            lines.append(
                f"  - the number of island {listing} cannot be met, whatever the other "
                "islands' numbers"
            )
        else:
            proof = (
                "minimal: without any one of them, the others can be met"
                if why.minimal
                else "not proven minimal: the time limit came first"
            )
            lines.append(
                f"  - these {len(why.core)} island numbers cannot all be met together "
                f"({proof}): {listing}"
            )
        marks = dict.fromkeys(why.core, look.palette.highlight)
        lines += ["", draw(puzzle, None, look.style, marks=marks)]
    return "\n".join(lines) + "\n\n"


def _explained(puzzle: Puzzle, why: Explanation | None, look: Look) -> str:
    return "" if why is None else explanation_text(puzzle, why, look)


def explanation_json(puzzle: Puzzle, why: Explanation) -> dict:
    return {
        "checks": [violation_json(v) for v in why.checks],
        "core": None if why.core is None else [[r, c, puzzle.islands[(r, c)]] for r, c in why.core],
        "minimal": why.minimal,
        "timed_out": why.timed_out,
    }


def _with_explanation(document: dict, puzzle: Puzzle, why: Explanation | None) -> dict:
    if why is not None:
        document["explanation"] = explanation_json(puzzle, why)
    return document


def violation_json(violation: Violation) -> dict:
    """A broken rule as JSON: its rule name, message and cells."""
    return {
        "rule": violation.rule,
        "message": violation.message,
        "cells": [list(cell) for cell in violation.cells],
    }


# ---------------------------------------------------------------------------- check


def check_lines(checked: list[list[Violation]]) -> list[str]:
    """``valid``, or one line per broken rule, for each solution checked."""
    lines = []
    for number, violations in enumerate(checked, 1):
        label = f"solution {number}" if len(checked) > 1 else "solution"
        if not violations:
            lines.append(f"{label}: valid")
        lines += [f"{label}: {violation.message}" for violation in violations]
    return lines


def check_json(puzzle: Puzzle, checked: list[list[Violation]]) -> dict:
    """The document ``check --format json`` prints: each solution's broken rules."""
    return {
        "valid": not any(checked),
        "solutions": [
            {"valid": not violations, "violations": [violation_json(v) for v in violations]}
            for violations in checked
        ],
        "puzzle": puzzle.to_json(),
    }


# ---------------------------------------------------------------------------- generate


def generated_line(generated: Generated, name: str) -> str:
    """One line on what was made: size, bridges, uniqueness repairs, difficulty, time."""
    puzzle, solution = generated.puzzle, generated.solution
    parts = [
        f"{name}: {len(puzzle.islands)} islands on {puzzle.cols}x{puzzle.rows}, "
        f"{len(solution.bridges)} bridges ({generated.double_share:.0%} double)"
    ]
    if generated.repair_rounds == 0:
        parts.append("unique as built")
    elif generated.repair_rounds is not None:
        parts.append(
            f"unique after {generated.repair_rounds} repair rounds ({generated.repairs} changes)"
        )
    if generated.difficulty is not None:
        parts.append(f"difficulty {generated.difficulty.score:.2f} ({generated.difficulty.band})")
    if generated.attempts > 1:
        parts.append(f"{generated.attempts} layouts")
    parts.append(f"{generated.seconds:.2f} s")
    return ", ".join(parts)


def generated_json(generated: Generated, name: str, notation: str, text: str) -> dict:
    """A generated puzzle as the web API returns it: the puzzle in JSON and as ``text`` in
    ``notation``, and how it was made (the hidden solution is left out: it would give the
    puzzle away)."""
    return {
        "name": name,
        "notation": notation,
        "text": text,
        "islands": len(generated.puzzle.islands),
        "bridges": len(generated.solution.bridges),
        "double_share": round(generated.double_share, 4),
        "seed": generated.seed,
        "unique": generated.repair_rounds is not None,
        "difficulty": generated.difficulty.to_json() if generated.difficulty else None,
        "puzzle": generated.puzzle.to_json(),
    }
