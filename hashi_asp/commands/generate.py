"""``generate``: puzzles made by the method of Coelho et al. (2019), optionally unique or of a
difficulty, written to standard output or into a folder."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import notations, stopping
from ..generation import DEFAULT_ATTEMPTS
from ..puzzle import MAX_BRIDGES_LIMIT
from ..status import Status
from .declaration import (
    CHOICE,
    FLAG,
    FLOAT,
    INT,
    TEXT,
    Command,
    Given,
    Option,
    OptionError,
    Outcome,
)
from .shared_options import FORCE, JOBS, OUT_FOLDER, SCHEDULER, prepare_folder, time_limit

if TYPE_CHECKING:
    from ..generation import Generated


def generate(given: Given) -> Outcome:
    from .. import generation
    from ..errors import PuzzleError
    from ..puzzle import Rules

    count, folder = given.count, given.out
    made: list[tuple] = []  # the puzzles written whole: said however the command ends
    try:
        if given.with_solution and folder is None:
            raise PuzzleError("--solution needs --out")
        options = {
            name: given.values[name]
            for name in ("size", "alpha", "beta", "seed", "difficulty", "unique", "attempts")
        }
        rules = Rules(given.max_bridges, given.no_loops)
        if given.jobs or given.scheduler:  # made on a study's executors, handed on in order
            names, puzzles = _elsewhere(given, rules, options)
        else:
            names, puzzles = generation.batch(
                given.islands,
                count,
                notation=given.notation,
                rules=rules,
                time_limit=given.deadline,
                **options,
            )
        if folder is not None:
            solutions = [generation.solution_name(name) for name in names] * given.with_solution
            prepare_folder(given, folder, names + solutions)
        keeping = {"with_solution": given.with_solution, "force": given.force}
        for name, puzzle, text in puzzles:
            with stopping.deferred():  # a signal waits until the puzzle is whole and counted
                if folder is None:
                    given.hooks.show(("\n" if made else "") + text)
                else:
                    generation.keep(folder, name, puzzle, text, **keeping)
                made.append((name, puzzle, text))
            if not given.quiet:
                line = generated_line(puzzle, name) + "\n"
                given.hooks.note(line) if folder is None else given.hooks.show(line)
    except stopping.Stopped as stop:
        finished = f"{len(made)} of {count} puzzles finished"
        if not made or not stop.why.by_signal:
            raise stopping.Stopped(f"{stop}: {finished}", stop.why) from None
        given.hooks.note(f"hashi-asp: {stop.why.value}: {finished}\n")
        status = stop.why.status(answered=True)
    else:
        status = Status.OK

    def document() -> dict:
        name, puzzle, text = made[0]
        return generated_json(puzzle, name, notations.named(given.notation).name, text)

    return Outcome(status, document=document, result=made)


def _elsewhere(given: Given, rules: Any, options: dict[str, Any]) -> tuple[list[str], Any]:
    """The puzzles made by --jobs local processes or on the --scheduler's cluster."""
    from ..generation import Making
    from ..workers.executors import executor
    from ..workers.puzzles import in_order

    if given.jobs and given.scheduler:
        raise OptionError("--jobs is for local processes, --scheduler for a cluster: not both")
    size, alpha, beta, seed = (options.pop(name) for name in ("size", "alpha", "beta", "seed"))
    difficulty = options.pop("difficulty")
    asked = (given.islands, given.count, size, alpha, beta, seed, given.notation, difficulty)
    making = Making.of(*asked, rules, options)
    where = executor(given.jobs or 1, given.scheduler, refused=OptionError)
    return list(making.names), in_order(making, where, given.deadline)


# ---------------------------------------------------------------------------- its output


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


COMMAND = Command(
    "generate",
    """Generate puzzles with the method of Coelho, Laporte, Lindbeck & Vidal (2019): grow a tree
    of islands joined by bridges, add floor(alpha * islands) extra bridges, make each bridge
    double with probability beta (with --max-bridges K, 2..K), write each island's bridge count
    and erase the bridges.  The same options give the same puzzles on every machine.

    -n is the number of islands in each puzzle; --count the number of puzzles (puzzle i uses
    seed + i).  They go to standard output, or with --out to files named like the Coelho et al.
    dataset (with --solution, the hidden solution beside each).  --difficulty takes easy, medium
    or hard, a score X (at least) or a range X-Y, from 0 to 1.  A notation that cannot record
    --max-bridges or --no-loops (has, grid, puzzlink, pzprv3) is refused.
    """,
    (
        Option(
            "islands",
            INT,
            "Islands in each puzzle; the number of puzzles is --count.",
            low=2,
            short="-n",
            required=True,
        ),
        Option("size", TEXT, "Board [default: by the number of islands].", metavar="WxH"),
        Option("alpha", FLOAT, "Extra bridges per island [0.1; 0 with --no-loops].", low=0, high=1),
        Option(
            "beta", FLOAT, "Chance a bridge is double [0.5; 0 if --max-bridges 1].", low=0, high=1
        ),
        Option("seed", INT, "Random seed [default: 1].", default=1, low=0),
        Option("count", INT, "Puzzles [default: 1].", default=1, low=1),
        OUT_FOLDER,
        Option(
            "format",
            CHOICE,
            "Notation.",
            default="has",
            choices=notations.WRITABLE,
            dest="notation",
        ),
        replace(FORCE, help="Replace files that exist in --out."),
        Option(
            "solution",
            FLAG,
            "Also NAME.solution.json.",
            default=False,
            dest="with_solution",
        ),
        Option("unique", FLAG, "Repair each puzzle until it has one solution.", default=False),
        Option("difficulty", TEXT, "easy, medium, hard, or scores.", metavar="BAND|X|X-Y"),
        Option(
            "max-bridges",
            INT,
            "Most bridges between two islands.",
            default=2,
            low=1,
            high=MAX_BRIDGES_LIMIT,
        ),
        Option("no-loops", FLAG, "Variant without cycles: build a tree.", default=False),
        Option(
            "attempts",
            INT,
            f"Layouts per puzzle [{DEFAULT_ATTEMPTS}].",
            default=DEFAULT_ATTEMPTS,
            low=1,
        ),
        Option("quiet", FLAG, "No summary line per puzzle.", short="-q", default=False),
        time_limit("Stop after this long (all puzzles together), keeping the puzzles finished."),
        replace(JOBS, help="Make the puzzles in N local processes [this one]."),
        SCHEDULER,
    ),
    generate,
)
