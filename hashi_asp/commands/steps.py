"""``steps``: a walkthrough, one step at a time, each with its reason, checked."""

from __future__ import annotations

import atexit
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from ..status import Question
from .declaration import FLAG, INT, Command, Given, Option, Outcome, Printed, Reader, lines
from .hint import GIVEN, pictured, read_state
from .shared_options import (
    FORCE,
    OUT_FOLDER,
    READING,
    formats,
    prepare_folder,
    read_puzzle,
    time_limit,
    walking,
)

if TYPE_CHECKING:
    from ..puzzle import Puzzle
    from ..walkthrough import Walkthrough, Walkthroughs
    from .output import Look


def steps(given: Given) -> Outcome:
    from ..errors import PuzzleError
    from ..files import write_output
    from ..walkthrough import steps

    board, out = given.puzzle, given.out
    if (given.format == "svg") != (out is not None):
        raise PuzzleError("--format svg writes pictures: give it --out FOLDER, and only it")
    with walking(given, "walking") as show:
        walk = steps(
            board,
            given.drawn,
            limit=given.limit,
            time_limit=given.deadline,
            on_step=show,
            kept=kept_walkthroughs() if given.hooks.keeps else None,
        )
    written = 0
    if out is not None:
        pictures = step_pictures(board, walk)
        prepare_folder(given, out, [name for name, _ in pictures])
        for name, picture in pictures:
            write_output(out / name, picture.encode("utf-8"), force=given.force)
        written = len(pictures)

    def printed() -> Printed:
        if out is not None:
            verdict = steps_verdict(walk, given.look)
            return Printed(pictured(given) + lines(verdict + f"\n{written} pictures in {out}"))
        text = steps_text(board, walk, given.look, brief=given.brief)
        return Printed(pictured(given) + lines(text))

    return Outcome.of(
        walk.status,
        Question.FIND,
        walk.stopped,
        document=lambda: steps_json(board, walk),
        printed=printed,
        result=walk,
    )


def kept_walkthroughs() -> Walkthroughs:
    """The walkthroughs this process keeps for Next step, for a front that runs command after
    command (:attr:`~.declaration.Hooks.keeps`, a server): those of the
    :data:`~hashi_asp.walkthrough.kept.KEPT` puzzles used last, made at the first use, shared
    by every thread."""
    with _keeping:
        if not _kept:
            from ..walkthrough import Walkthroughs

            _kept.append(Walkthroughs())
            # Let go of them before the interpreter takes its modules apart (their groundings
            # are freed through a module's queue, gone by then).
            atexit.register(_kept.clear)
        return _kept[0]


_kept: list[Walkthroughs] = []
_keeping = threading.Lock()


def read_given(given: Given, reader: Reader) -> None:
    """The puzzle, then --given."""
    read_puzzle(given, reader)
    given.values["drawn"] = read_state(given, reader, "continuing from")


# ---------------------------------------------------------------------------- its output


def steps_text(
    puzzle: Puzzle, walk: Walkthrough, look: Look | None = None, *, brief: bool = False
) -> str:
    """Each step numbered, with its sentence, the counts it leaves and the board after it (the
    step's pair and its reason's islands marked); then how the walkthrough ended.  ``brief``:
    one line per step, no boards."""
    from ..drawing import draw
    from ..puzzle import pair_name
    from .output import TEXT

    look = look or TEXT
    if brief:
        numbered = [f"{n:3d}. {step.text}." for n, step in enumerate(walk.steps, 1)]
        return "\n".join([*numbered, ""]) + steps_verdict(walk, look)
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


def _counts_or_one(taken: tuple[int, ...]) -> str:
    from .output import counts

    return "none" if not taken else str(taken[0]) if len(taken) == 1 else counts(taken)


def steps_verdict(walk: Walkthrough, look: Look | None = None) -> str:
    """How the walkthrough ended, and the difficulty when it ran to its end."""
    from ..puzzle import cell_name, pair_name, plural
    from .output import TEXT, counts, difficulty_line, stopped

    done = plural(len(walk.steps), "step")
    open_pairs = walk.open
    listed = "".join(f"\n  {pair_name(*pair)}: {counts(ks)}" for pair, ks in open_pairs.items())
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
        "mistaken": "mistaken: no solution keeps to the state given, so no step is built on it "
        "(hint --given names the bridges and marks no solution has)",
    }.get(walk.status, f"unknown: {stopped(walk.timed_out, (look or TEXT).signal)} after {done}")
    rated = f"\ndifficulty: {difficulty_line(walk.difficulty)}" if walk.difficulty else ""
    return verdict + rated


def steps_json(puzzle: Puzzle, walk: Walkthrough) -> dict:
    """The document ``steps --format json`` prints (``given``: the player's state it started
    from, when one was given)."""
    given = {"given": walk.given.to_json()} if walk.given is not None else {}
    return {
        "status": walk.status,
        "steps": [step.to_json() for step in walk.steps],
        "open": [[*a, *b, list(ks)] for (a, b), ks in walk.open.items()],
        "conflict": None if walk.conflict is None else [list(cell) for cell in walk.conflict],
        "solution": walk.solution.to_json() if walk.solution else None,
        "difficulty": walk.difficulty.to_json() if walk.difficulty else None,
        "checked": walk.checked,
        "timed_out": walk.timed_out,
        **given,
        "puzzle": puzzle.to_json(),
    }


def detail(walk: Walkthrough) -> dict:
    """What a study's row keeps of a walkthrough: its steps, its largest reason, the steps that
    needed connectivity, and the difficulty when it ran to its end."""
    return {
        "steps": len(walk.steps),
        "largest_reason": max((len(step.reason) for step in walk.steps), default=0),
        "connectivity_steps": sum(step.connectivity for step in walk.steps),
        "difficulty": walk.difficulty.to_json() if walk.difficulty else None,
    }


def step_pictures(puzzle: Puzzle, walk: Walkthrough) -> list[tuple[str, str]]:
    """One SVG picture per step, as (file name, picture): :meth:`Walkthrough.pictures`."""
    return [(f"step-{n:03d}.svg", picture) for n, picture in enumerate(walk.pictures(), 1)]


COMMAND = Command(
    "steps",
    """Walk through PUZZLE one step at a time, from the empty board or a player's state --given
    (bridges drawn, pairs ruled out, counts narrowed by the steps applied): each step narrows
    the bridge counts of one pair of islands, with the smallest set of island numbers that
    forces it (and whether it needs all islands connected), easiest first; each is confirmed by
    clingo before it is shown.  -n 1 is the next move: with each step applied (its counts added
    to "narrowed"), the next -n 1 gives the walkthrough's next step.  --format svg writes one
    picture per step into --out.  Ends with the difficulty when solved; a terminal shows the
    progress on stderr.  Exit 0 when solved (or after the -n steps asked), 1 when stuck (several
    solutions), in a contradiction (none) or mistaken (no solution keeps to --given), 3 at the
    time limit.""",
    (
        *READING,
        GIVEN,
        Option("steps", INT, "Stop after N steps.", low=1, short="-n", dest="limit"),
        formats("text", "unicode", "json", "svg", help="Boards as text, JSON, or SVG pictures."),
        replace(OUT_FOLDER, help="SVG folder."),
        Option("brief", FLAG, "One line per step, no boards.", default=False),
        replace(FORCE, help="Replace pictures that exist in --out."),
        time_limit("Stop after this long, keeping the steps found."),
    ),
    steps,
    prepare=read_given,
    asks=Question.FIND,
    detail=detail,
)
