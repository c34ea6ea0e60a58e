"""A race of variants: several ways of searching one puzzle, each in a worker process of its own
on the machine's cores; the first to give what was asked wins and the others are stopped.

A variant is a formulation of the catalogue and clingo options (``"tree"``,
``"reach --configuration=jumpy"``).  ``--connectivity race`` races :func:`variants`: the one
``auto`` picks for the puzzle first, then the others the catalogue lists for a race
(:func:`hashi_asp.asp.race_variants`), as many as the process may use cores
(``os.sched_getaffinity``); ``Program(variants=...)`` (``--variant``) names them instead, and
then all of them run.

- Each worker grounds and searches as a plain search does (:mod:`.control`), checks every
  answer with the independent checker and sends its outcome back through a pipe; the parent
  checks the winner's solutions once more before it keeps them.
- The winner is the first whose search ended with a verdict: a solution (or two, or all, as
  many as asked), or the whole search space exhausted.  A race of whole enumerations is as
  correct as one (each worker searches the same puzzle under the same rules), so ``unique`` and
  ``count`` race too.
- The losers are ended with SIGTERM and reaped before :func:`race` returns.  A worker also ends
  on its own when the parent goes away (it watches a pipe only the parent holds), so none
  outlives a parent that was killed.
- The time limit goes to every worker, which stops its search at the deadline and reports what
  it found; a stop of the parent's deadline (Ctrl-C, SIGTERM, its caller) ends the workers at
  once (they ignore Ctrl-C, which the terminal sends to the whole group), and the race reports
  the best it had, saying why it stopped.
- Workers are forked from the calling process only while it runs a single thread (so no lock
  can be held: the command line, which has not run clingo yet); otherwise they start from a
  fork server that has imported clingo once (``forkserver``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..checking import check
from ..cores import cores
from ..puzzle import Puzzle, Solution
from ..status import Stop
from ..stopping import POLL_SECONDS, Deadline, Stopped
from . import AUTO, FORMULATIONS, LNS, Formulation, race_variants
from .enumeration import enumerate_solutions, plan
from .interface import EncodingError, InvalidAnswer, Program
from .sweep import FORCE, SIDE, SIDES

GRACE_SECONDS = 2.0
"""How long past the deadline the parent waits for the workers' own reports before ending them
(a worker stops its search at the deadline; grounding it leaves behind)."""


@dataclass
class VariantOutcome:
    """One worker's search: the solutions kept (or only counted), whether the search space was
    exhausted, why the deadline cut it short (if it did); clingo's statistics and the variant's
    name."""

    variant: str
    found: int
    solutions: list[Solution]
    exhausted: bool
    stopped: Stop | None
    stats: dict = field(default_factory=dict)

    def decisive(self, models: int) -> bool:
        """Whether it gives what was asked: ``models`` solutions (0: all), or none left."""
        return self.exhausted or (models > 0 and self.found >= models)


@dataclass
class Race:
    """What :func:`race` returns: the winner's outcome (or the best a cut-short race had:
    the most solutions), and why the race stopped before a winner (if it did)."""

    outcome: VariantOutcome
    stopped: Stop | None = None


def variants(
    program: Program, puzzle: Puzzle, workers: int | None = None, models: int = 0
) -> list[Program]:
    """The programs raced for ``puzzle``: the program's own variants if it names any, else the
    one ``auto`` picks first (for ``models`` solutions: the neighbourhood search for a first
    solution of a giant) and then the others of the catalogue's race
    (:func:`hashi_asp.asp.race_variants`, complete ones), ``workers`` in all (the cores by
    default, at least 2).  A user's replacement encoding keeps its own connectivity: only the
    formulations that add nothing to it are raced (the tree is added to an encoding that leaves
    it out)."""
    names = list(program.variants)
    if not names:
        planned = plan(replace(program, connectivity=AUTO), puzzle, models).first
        first = planned.connectivity
        names = [first, *(v for v in race_variants() if v != first)]
        if first == LNS and planned.constants.get(FORCE) == "yes":
            # (which side a sweep has fewer dead ends from is chance: both, on two cores)
            side = planned.constants.get(SIDE, SIDES[0])
            names[0] = f"{LNS} -c {FORCE}=yes -c {SIDE}={side}"
            other = SIDES[1] if side == SIDES[0] else SIDES[0]
            names.insert(1, f"{LNS} -c {FORCE}=yes -c {SIDE}={other}")
        if program.encoding is not None:
            names = [name for name in names if not FORMULATIONS[name.split()[0]].completes]
        names = names[: max(2, workers or cores())]
    return [variant(program, name) for name in names]


def variant(program: Program, name: str) -> Program:
    """``program`` with the connectivity, constants (``-c NAME=VALUE``) and clingo options of
    variant ``name``; the program's own constants and clingo options replace the variant's of
    the same name."""
    connectivity, *words = name.split()
    constants: dict[str, str] = {}
    options = []
    while words:  # (-c NAME=VALUE: a constant of the encoding, as on the command line)
        word = words.pop(0)
        if word == "-c" and words and "=" in words[0]:
            constant, _, value = words.pop(0).partition("=")
            constants[constant] = value
        else:
            options.append(word)
    given = {option.split("=")[0] for option in program.options}
    mine = tuple(option for option in options if option.split("=")[0] not in given)
    return replace(
        program,
        connectivity=connectivity,
        constants={**constants, **program.constants},
        options=(*mine, *program.options),
        variants=(),
    )


def name_of(program: Program) -> str:
    constants = [f"-c {name}={value}" for name, value in program.constants.items()]
    return " ".join([program.connectivity, *constants, *program.options])


def race(
    puzzle: Puzzle,
    models: int,
    program: Program,
    deadline: Deadline,
    *,
    keep: bool = True,
    verify: bool = True,
) -> Race:
    """Search ``puzzle`` with every variant of ``program`` at once (:func:`variants`) for up to
    ``models`` solutions (0: all), each kept if ``keep`` and checked if ``verify``; the first
    decisive outcome wins.  Every worker has ended when this returns, however it returns.
    Raises the first worker's error (an encoding that does not load, an answer that breaks the
    rules)."""
    import multiprocessing

    raced = variants(program, puzzle, models=models)
    if multiprocessing.current_process().daemon:
        # A worker of a pool (bench --jobs N) may not start processes: the jobs use the cores
        # already, so the first variant searches here alone.
        alone = _search(puzzle, models, raced[0], deadline, keep, verify)
        return Race(alone, alone.stopped)
    outcomes = _raced(puzzle, models, raced, deadline, keep, verify)
    return _judged(puzzle, models, raced, outcomes, deadline)


def _raced(
    puzzle: Puzzle,
    models: int,
    raced: Sequence[Program],
    deadline: Deadline,
    keep: bool,
    verify: bool,
) -> list[VariantOutcome]:
    """The outcomes of a worker per variant of ``raced``, in the order they came, until one is
    decisive, the deadline's end (and :data:`GRACE_SECONDS` past it) or a stop; every worker
    has ended and been reaped when this returns, however it returns."""
    context = _context()
    workers: list[tuple[Any, Any, Any]] = []  # process, its results, the parent's lifeline
    catalogue = dict(FORMULATIONS)  # with any formulation added at run time
    outcomes: list[VariantOutcome] = []
    try:
        for each in raced:
            question = (puzzle, models, each, deadline.remaining(), keep, verify)
            workers.append(_started(context, question, workers, catalogue))
        _collect(workers, models, deadline, outcomes)
    except KeyboardInterrupt:
        deadline.interrupt()
    finally:
        _stop([process for process, _, _ in workers])
        for _, results, lifeline in workers:
            results.close()
            lifeline.close()
    return outcomes


def _started(
    context: Any,
    question: tuple[Puzzle, int, Program, float | None, bool, bool],
    workers: list[tuple[Any, Any, Any]],
    catalogue: dict[str, Formulation],
) -> tuple[Any, Any, Any]:
    """A worker started on ``question`` (the puzzle, the models asked for, the variant's
    program, the seconds left, whether to keep and to check the answers) with the parent's
    ``catalogue``: its process, the pipe its results come through, and its lifeline (the end
    the parent holds).  ``workers`` are those started before it."""
    program = question[2]
    results, sent = context.Pipe(duplex=False)
    watched, lifeline = context.Pipe(duplex=False)
    # A forked worker holds copies of the parent's ends, which it closes: else its own
    # lifeline would never close, nor a pipe of an earlier worker's.
    forked = context.get_start_method() == "fork"
    parents = [end.fileno() for _, *ends in workers for end in ends] * forked
    parents += [results.fileno(), lifeline.fileno()] * forked
    process = context.Process(
        target=_work,
        args=(*question, sent, watched, parents, catalogue),
        name=f"hashi-asp race: {name_of(program)}",
    )
    process.start()
    sent.close()
    watched.close()
    return process, results, lifeline


def _collect(
    workers: list[tuple[Any, Any, Any]],
    models: int,
    deadline: Deadline,
    outcomes: list[VariantOutcome],
) -> None:
    """The workers' outcomes added to ``outcomes`` as they come, until one is decisive, every
    worker has reported (or died without a word), a stop other than the time limit, or
    :data:`GRACE_SECONDS` past the deadline's end.  A worker's error is raised."""
    from multiprocessing.connection import wait

    waiting: dict[Any, Any] = {results: process for process, results, _ in workers}
    while waiting:
        ready: list[Any] = wait(list(waiting), POLL_SECONDS)
        for results in ready:
            del waiting[results]
            try:
                kind, value = results.recv()
            except EOFError:  # the worker died without a word (killed, out of memory)
                continue
            if kind == "error":
                raise value
            assert isinstance(value, VariantOutcome)
            outcomes.append(value)
            if value.decisive(models):
                waiting.clear()
                break
        stopped = deadline.stopped
        if stopped is not None and stopped is not Stop.TIME:
            break  # a signal, or the caller: the workers are ended now
        if deadline.end is not None and time.perf_counter() > deadline.end + GRACE_SECONDS:
            break


def _judged(
    puzzle: Puzzle,
    models: int,
    raced: Sequence[Program],
    outcomes: list[VariantOutcome],
    deadline: Deadline,
) -> Race:
    """The race's result from its outcomes: the winner's (:func:`_best`), its solutions checked
    once more here, and why the race stopped where none was decisive."""
    outcome = _best(outcomes, models, raced)
    if not outcome.decisive(models):  # every worker stopped at the deadline, or was ended there
        outcome.stopped = deadline.stopped or Stop.TIME
    for number, solution in enumerate(outcome.solutions, 1):  # the parent's own check
        violations = check(puzzle, solution)
        if violations:
            raise InvalidAnswer(number, violations)
    return Race(outcome, None if outcome.decisive(models) else outcome.stopped)


def _best(outcomes: list[VariantOutcome], models: int, raced: Sequence[Program]) -> VariantOutcome:
    """The first decisive outcome, else the one with the most solutions."""
    for outcome in outcomes:
        if outcome.decisive(models):
            return outcome
    if outcomes:
        return max(outcomes, key=lambda outcome: outcome.found)
    return VariantOutcome(", ".join(map(name_of, raced)), 0, [], False, None, _no_stats())


def _no_stats() -> dict:
    return {"ground_seconds": 0.0, "solve_seconds": 0.0, "choices": 0, "conflicts": 0}


def _stop(processes: list[Any]) -> None:
    """End every worker still running (SIGTERM: clingo needs no clean-up) and reap them all."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join()


def _context() -> Any:
    """How workers start: forked from this process while it runs one thread only (nothing else
    can then hold a lock, and fork costs milliseconds); else from a fork server that has
    imported this module (and clingo) once, as a process that ran clingo (whose threads may
    hold locks) must not fork; spawned where neither is possible."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _threads() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def _threads() -> int:
    """This process's threads, clingo's own included (Linux: /proc), or 0 if unknown."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


# ---------------------------------------------------------------------------- in a worker


def _work(
    puzzle: Puzzle,
    models: int,
    program: Program,
    seconds: float | None,
    keep: bool,
    verify: bool,
    results: Any,
    lifeline: Any,
    parents: list[int],
    catalogue: dict[str, Formulation],
) -> None:
    """A worker: Ctrl-C is the parent's to handle, SIGTERM ends it at once; it ends too when
    the parent goes away (its end of ``lifeline`` closes); its outcome (or error) goes into
    ``results``.  ``parents`` are the parent's ends of the pipes, inherited by a fork;
    ``catalogue`` the parent's formulations (a worker from the fork server imported its own)."""
    FORMULATIONS.update(catalogue)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for descriptor in parents:
        with contextlib.suppress(OSError):
            os.close(descriptor)
    threading.Thread(target=_orphaned, args=(lifeline,), daemon=True).start()
    deadline = Deadline(seconds)
    try:
        message: tuple[str, Any] = (
            "outcome",
            _search(puzzle, models, program, deadline, keep, verify),
        )
    except Exception as error:  # handed to the parent, which raises it
        message = ("error", error)
    try:
        results.send(message)
    except Exception as error:  # an error that cannot be pickled: its message
        results.send(("error", EncodingError(f"{name_of(program)}: {error}")))
    results.close()
    os._exit(0)  # clingo's threads, or grounding left behind, need no waiting for


def _orphaned(lifeline: Any) -> None:
    """End the worker when the parent's end of ``lifeline`` closes (the parent ended)."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv()
    os._exit(1)


def _search(
    puzzle: Puzzle,
    models: int,
    program: Program,
    deadline: Deadline,
    keep: bool,
    verify: bool,
) -> VariantOutcome:
    """One variant's search, as :func:`hashi_asp.solving.solve` does it in one process."""
    name = name_of(program)
    try:
        found = enumerate_solutions(puzzle, program, models, deadline, keep=keep, verify=verify)
        if not found.found and found.search.stopped is None and not program.formulation.complete:
            # A search that proves nothing (the neighbourhood search) and found nothing: as auto
            # does, the complete search auto picks, so that a race of such variants only (a
            # giant swept from both sides on two cores) or one run alone (a pool's worker)
            # still proves that there is none.
            others = {k: v for k, v in program.constants.items() if k not in (SIDE, FORCE)}
            program = plan(
                replace(program, connectivity=AUTO, constants=others), puzzle, models
            ).complete
            name = name_of(program)
            found = enumerate_solutions(puzzle, program, models, deadline, keep=keep, verify=verify)
    except Stopped as stop:
        return VariantOutcome(name, 0, [], False, stop.why, _no_stats())
    search, stats = found.search, {**found.stats, "variant": name}
    return VariantOutcome(
        name, found.found, found.solutions, search.exhausted, search.stopped, stats
    )
