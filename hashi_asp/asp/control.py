"""The one owner of ``clingo.Control``: a puzzle grounded with its program, then searched as often
as a capability needs, with one deadline, Ctrl-C, and every model checked before it is used.

- :func:`ground` loads the program's files and the puzzle's facts and grounds them, in a thread
  of its own so that Ctrl-C and a deadline stop the wait at once (:mod:`..stopping`);
- :meth:`Grounded.search` runs clingo's search and hands each model to a callback as it comes,
  honouring the deadline and Ctrl-C and keeping whatever was already seen;
- :meth:`Grounded.solution` decodes a model and has the independent checker pass it;
- :meth:`Grounded.minimal_core` shrinks a set of assumptions with no model to a minimal one;
- :meth:`Grounded.optimise` finds an answer of least cost under the program's ``#minimize``, and
  :meth:`Grounded.add_parts` adds facts and rules between searches (a question asked again with
  more known).
"""

from __future__ import annotations

import importlib
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import clingo

from ..checking import Violation, check
from ..puzzle import Puzzle, Solution
from ..status import Stop
from ..stopping import POLL_SECONDS, Deadline, Stopped, left_behind, uninterruptible
from . import interface
from .interface import EncodingError, InvalidAnswer, Program
from .interrupting import asking

T = TypeVar("T")

# Solver settings measured on the Coelho et al. set, on 1 000 to 100 000 islands and on 2 000
# islands with few doubled bridges, where the search (not grounding) takes the time:
# - clasp's "trendy" configuration (glucose-style restarts, SAT preprocessing): 14 puzzles of
#   2 000 islands with a quarter of the bridges doubled took 10.0 s instead of 16.5 s with the
#   default configuration; the Coelho set the same; 10 000 and 100 000 islands with most
#   bridges doubled 5-7 % slower (the preprocessing);
# - --sign-def=pos tries drawing a line before leaving it out (in a puzzle most neighbours are
#   joined), only as the first try: a fixed preference (a #heuristic sign under the Domain
#   heuristic, used before) took 51.7 s on those 14 puzzles;
# - one round of failed-literal detection before the first choice finds the bridges that are
#   forced or impossible at the start; on 100 000 islands it cuts the choices tenfold (every
#   such bridge found later by a conflict sends the search back to the start).
CANCEL_SECONDS = 0.25
"""How long a search's caller waits for clingo to stop it at the deadline's end: a search stops
within milliseconds, but clasp's preprocessing of a large program does not look (at 10 000
islands under ``--connectivity flow``, over a minute), and is then left behind."""

SOLVER_OPTIONS = ("--configuration=trendy", "--sign-def=pos", "--lookahead=hybrid,1")


@dataclass
class SearchEnd:
    """How a search ended: ``exhausted`` (nothing left to find), ``stopped`` at its deadline's
    end (:class:`~hashi_asp.stopping.Stop`: the time limit, a signal, its caller), or neither:
    the callback asked to stop."""

    exhausted: bool
    stopped: Stop | None = None
    seconds: float = 0.0
    core: list[int] | None = None  # no model under the assumptions: the ones clingo blamed

    @property
    def cut_short(self) -> bool:
        """Stopped at the deadline's end: what was found is not all there is."""
        return self.stopped is not None


@dataclass
class Optimum:
    """What :meth:`Grounded.optimise` found: the shown atoms of the best answer (None if none
    was found), its cost, and whether it is ``proven`` optimal (the search was exhausted); no
    answer with an exhausted search means there is none (``search.exhausted``)."""

    symbols: list[clingo.Symbol] | None
    cost: int | None
    proven: bool
    search: SearchEnd


@dataclass
class Core:
    """A set of assumptions with no model: ``literals``, ``minimal`` when dropping any one of
    them lets a model appear; ``cut`` is the search the deadline or a signal cut short while it
    was being shrunk (then it is not proven minimal)."""

    literals: list[int]
    minimal: bool
    cut: SearchEnd | None = None


def judge_options(options: Iterable[str]) -> None:
    """clingo judges its own options, with its own message (raised as an
    :class:`~hashi_asp.asp.interface.EncodingError`), before any work is done."""
    options = list(options)
    if options:
        try:
            clingo.Control(options)
        except RuntimeError as error:
            raise EncodingError(f"clingo options {' '.join(options)!r}: {error}") from None


def judge_program(program: Program) -> None:
    """:func:`judge_options` on the program's clingo options and on each variant's."""
    judge_options(program.options)
    for variant in program.variants:
        judge_options(variant.split()[1:])


def ground(
    puzzle: Puzzle,
    program: Program = Program(),
    *,
    extra: Iterable[str] = (),
    text: str = "",
    parts: Sequence[tuple[str, Sequence[clingo.Symbol]]] = (("base", ()),),
    models: int = 1,
    project: bool = False,
    brave: bool = False,
    options: Iterable[str] = (),
    deadline: Deadline | None = None,
) -> Grounded:
    """Load the program's files, the bundled encodings named in ``extra`` (``relax.lp`` ...),
    the puzzle's facts and ``text`` (further facts) into clingo, and ground ``parts``.

    ``models`` answers to find per search (0 = all), ``project`` counts answers as sets of shown
    atoms (an encoding with helper choices cannot then report one solution twice), ``brave``
    enumerates brave consequences; the program's ``options`` and ``options`` are further clingo
    options, replacing the defaults of the same name.  At the deadline's end grounding is left
    behind in its thread, and :class:`~hashi_asp.stopping.Stopped` raised.  A program of
    ``auto`` connectivity is resolved as for a complete search (:func:`.interface.chosen`),
    for the questions asked of a grounding besides enumerations (hint, explanations, fixes,
    a walkthrough's checks); an enumeration hands it the formulation it planned."""
    deadline = Deadline.of(deadline)
    program = interface.chosen(program, puzzle)
    wanted = [
        f"--models={models}",
        *(["--project=show"] if project else []),
        *(["--enum-mode=brave"] if brave else []),
        *program.options,
        *options,
    ]
    # clingo refuses an option given twice: the caller's choice replaces the default.
    defaults = [
        option
        for option in SOLVER_OPTIONS
        if not any(given.split("=")[0] == option.split("=")[0] for given in wanted)
    ]
    files = [*program.files(), *map(interface.encoding_path, extra)]
    words = interface.read_rules(files)  # every file loadable; the names they use
    messages: list[str] = []
    try:  # a bad option of the program's: clingo's own message, as judge_options gives it
        control = clingo.Control(
            [*defaults, *interface.constant_arguments(puzzle, program, words), *wanted],
            logger=lambda code, message: messages.append(message),
        )
    except RuntimeError as error:
        raise EncodingError(f"clingo options {' '.join(program.options)!r}: {error}") from None
    propagator = made_propagator(program, puzzle)
    if propagator is not None:  # the formulation leaves connectivity to it
        control.register_propagator(propagator)
    facts = interface.facts(puzzle) + text
    started = time.perf_counter()

    def load_and_ground() -> None:
        for path in files:
            try:
                control.load(str(path))
            except RuntimeError as error:
                raise EncodingError(load_error(messages, error, path)) from None
        try:
            control.add("base", [], facts)
        except RuntimeError:
            raise EncodingError(interface.first_error(messages, "puzzle facts rejected")) from None
        try:
            control.ground(list(parts))
        except RuntimeError:
            raise EncodingError(interface.first_error(messages, "grounding failed")) from None

    uninterruptible(load_and_ground, deadline, "clingo was grounding")
    return Grounded(control, puzzle, time.perf_counter() - started, propagator)


def load_error(messages: list[str], error: RuntimeError, path: Any) -> str:
    """Why clingo could not load ``path``, on one line: the first error its logger reported
    (a syntax error, with file, line and column), else the error it raised, which says some
    reasons only there (``#script (python)`` in a clingo without Python: "FILE:1:1-3:6: error:
    python support not available"), else that it could not, with what it raised."""
    raised = " ".join(str(error).split())
    if any("error:" in message for message in messages) or "error:" not in raised:
        reason = f"{path}: cannot load" + (f" ({raised})" if raised else "")
        return interface.first_error(messages, reason)
    return raised


def made_propagator(program: Program, puzzle: Puzzle) -> Any:
    """The propagator the program's formulation needs, made for ``puzzle`` (its module is
    imported only then), or None."""
    named = program.formulation.propagator
    if named is None:
        return None
    module, _, name = named.partition(":")
    return getattr(importlib.import_module(module), name)(puzzle)


@dataclass
class Enumeration:
    """What an enumeration found (:func:`hashi_asp.asp.enumeration.enumerate_solutions`): how
    many answers, those kept, how the search ended, and clingo's statistics."""

    found: int
    solutions: list[Solution]
    search: SearchEnd
    stats: dict


class Grounded:
    """A clingo control holding one grounded puzzle and its rules, ready for any number of
    searches (under different assumptions, or after switching externals)."""

    def __init__(
        self,
        control: clingo.Control,
        puzzle: Puzzle,
        ground_seconds: float,
        propagator: Any = None,
    ):
        self.control = control
        self.puzzle = puzzle
        self.ground_seconds = ground_seconds
        self.propagator = propagator
        self.left_behind = False  # a search that did not stop at once was left to clingo
        if not _freeing_started.is_set():
            _freeing_started.set()
            threading.Thread(
                target=_free, name="hashi-asp: freeing groundings", daemon=True
            ).start()

    def __del__(self) -> None:
        # clingo frees a large grounding slowly (a walkthrough's of 10 000 islands: 0.7 s), and
        # the caller has its answer: the control is freed in a thread of its own.
        _freeing.put(self.__dict__.pop("control", None))

    # ------------------------------------------------------------------ searching

    def search(
        self,
        on_model: Callable[[clingo.Model], bool | None],
        *,
        assumptions: Iterable[int] = (),
        deadline: Deadline | None = None,
    ) -> SearchEnd:
        """Run clingo's search, calling ``on_model`` for each model in this thread (it returns
        False to stop); at the deadline's end (its time, a signal, its caller's stop) hand back
        what was seen, saying why (``SearchEnd.stopped``).  ``assumptions`` are program
        literals; when there is no model under them, ``SearchEnd.core`` holds the ones clingo
        blamed."""
        started = time.perf_counter()
        deadline = Deadline.of(deadline)
        assumed = list(assumptions)
        if deadline.expired() or self.left_behind:  # an ended deadline searches nothing
            return SearchEnd(False, deadline.stopped or Stop.CANCELLED)
        stopped: Stop | None = None
        asked_to_stop = False
        core = None
        # clingo searches in a thread of its own, watched from here: searching in this thread
        # would save a fraction of a millisecond, but Python runs no signal handler while clingo
        # works in it, and a KeyboardInterrupt raised inside one of clingo's callbacks (where a
        # handler would then run) makes clingo end the process.
        handle = self._open(assumed, deadline)
        if handle is None:  # clasp was still preparing the search when the deadline ended
            return SearchEnd(False, deadline.stopped, time.perf_counter() - started)
        closed = False
        try:
            try:
                while True:
                    handle.resume()
                    while not handle.wait(POLL_SECONDS):
                        if deadline.expired():
                            break
                    stopped = deadline.stopped
                    if stopped is not None:
                        break
                    model = handle.model()
                    if model is None:
                        break
                    if on_model(model) is False:
                        asked_to_stop = True
                        break
                    # A fast enumeration never waits, so the clock is read after each model too.
                    stopped = deadline.stopped
                    if stopped is not None:
                        break
            except KeyboardInterrupt:
                deadline.interrupt()
                stopped = deadline.stopped
            if stopped is not None:
                # The caller does not wait for a search that does not stop at once (clasp
                # preprocessing a large program reads no request to stop): it is left to clingo,
                # which closes it when it stops, and this control takes no more searches.
                closed = True
                left = left_behind(lambda: _close(handle), CANCEL_SECONDS, "stopping the search")
                self.left_behind = self.left_behind or left
                return SearchEnd(False, stopped, time.perf_counter() - started)
            if asked_to_stop:
                handle.cancel()
            exhausted = not asked_to_stop and handle.get().exhausted
            if exhausted and assumed and handle.get().unsatisfiable:
                core = list(handle.core())
        finally:
            if not closed:
                handle.__exit__(None, None, None)  # what `with` would do: the search ended
        return SearchEnd(exhausted, stopped, time.perf_counter() - started, core)

    def _open(self, assumed: list[int], deadline: Deadline) -> clingo.SolveHandle | None:
        """Start a search.  clasp prepares it (its preprocessing) before it returns, which takes
        over a minute on some large programs and cannot be interrupted: at the deadline's end it
        is left behind (None), and this control takes no more searches."""
        opened: list[clingo.SolveHandle] = []

        def start() -> None:
            opened.append(_handle(self.control, async_=True, assumptions=assumed))

        try:
            uninterruptible(start, deadline, "preparing the search")
        except Stopped:
            self.left_behind = True
            return None
        return opened[0]

    def attempt(self, assumptions: Iterable[int], deadline: Deadline | None = None) -> SearchEnd:
        """Search for one model under the assumptions: ``exhausted`` means there is none."""
        return self.search(lambda model: False, assumptions=assumptions, deadline=deadline)

    def settle(
        self, assumptions: Iterable[int], deadline: Deadline | None = None
    ) -> list[int] | None:
        """None if there is a model under the assumptions, else the ones clingo blamed (its
        core), found in this thread without polling: for the many small questions that
        propagation alone mostly answers (a step of a walkthrough), where starting and
        watching a search thread would cost more than the search.  At the deadline's end
        clingo is interrupted (:func:`~.interrupting.asking`) and :class:`Stopped` raised."""
        assumed = list(assumptions)

        def ask() -> tuple[list[int] | None, bool]:
            core: list[int] = []
            found = _result(self.control, assumptions=assumed, on_core=core.extend)
            return (None if found.satisfiable else core), found.interrupted

        return self._asked(ask, deadline)

    def count(
        self, assumptions: Iterable[int], limit: int, deadline: Deadline | None = None
    ) -> int:
        """How many models there are under the assumptions, up to ``limit``, found in this
        thread without polling (as :meth:`settle`, and stopped as it is): for many small
        questions that propagation mostly answers."""
        assumed = list(assumptions)

        def ask() -> tuple[int, bool]:
            found = 0
            with _handle(self.control, assumptions=assumed) as handle:
                for _ in handle:
                    found += 1
                    if found >= limit:
                        return found, False
                return found, handle.get().interrupted

        return self._asked(ask, deadline)

    def models(
        self, assumptions: Iterable[int], limit: int, deadline: Deadline | None = None
    ) -> tuple[list[list], bool]:
        """Up to ``limit`` models under the assumptions, as their shown atoms, and whether they
        are all there are; found in this thread, as :meth:`count`."""
        assumed = list(assumptions)

        def ask() -> tuple[tuple[list[list], bool], bool]:
            found: list[list] = []
            with _handle(self.control, assumptions=assumed) as handle:
                for model in handle:
                    found.append(list(model.symbols(shown=True)))
                    if len(found) >= limit:
                        return (found, False), False
                return (found, True), handle.get().interrupted

        return self._asked(ask, deadline)

    def _asked(self, ask: Callable[[], tuple[T, bool]], deadline: Deadline | None) -> T:
        """The answer of ``ask`` (a question to clingo in this thread, which says whether it
        was interrupted), clingo interrupted at the deadline's end; :class:`Stopped` then.  An
        interruption meant for a question that had just ended reaches the next one: that one
        is asked again."""
        while True:
            with asking(self.control, deadline):
                answer, interrupted = ask()
            if not interrupted:
                return answer
            if deadline is not None and deadline.expired():
                raise deadline.reached("asking clingo")

    def minimal_core(
        self,
        core: list[int],
        deadline: Deadline | None = None,
        *,
        fixed: Sequence[int] = (),
        quick: bool = False,
    ) -> Core:
        """Shrink a set of assumptions with no model to a minimal one, by deletion: drop each in
        turn and keep it out if the rest still has no model (then continue from clingo's core of
        the rest, often smaller).  An assumption whose removal lets a model appear stays, and
        stays needed in every subset, so one pass proves the result minimal.  ``fixed``
        assumptions hold in every trial and are never dropped; ``quick`` asks each trial with
        :meth:`settle` (small questions; the deadline is read between them)."""
        kept, i, always = list(core), 0, set(fixed)
        while i < len(kept):
            trial = kept[:i] + kept[i + 1 :]
            if quick:
                try:
                    if Deadline.of(deadline).expired():
                        raise Stopped("the deadline has ended")
                    blamed = self.settle([*fixed, *trial], deadline)
                except Stopped:
                    return Core(kept, False, SearchEnd(False, Deadline.of(deadline).stopped))
                outcome = SearchEnd(blamed is not None, core=blamed)
            else:
                outcome = self.attempt([*fixed, *trial], deadline)
                if outcome.cut_short:
                    return Core(kept, False, outcome)
            if outcome.exhausted:  # the core, less what holds in every trial anyway
                blamed_here = outcome.core and [lit for lit in outcome.core if lit not in always]
                kept = within(blamed_here, trial)
            else:
                i += 1
        return Core(kept, True)

    def optimise(self, deadline: Deadline | None = None) -> Optimum:
        """The answer of least cost (the sum of the program's ``#minimize`` priorities), each
        better answer kept as it comes; ``proven`` when clingo exhausted the search after it.
        The control must be grounded with ``models=0`` and clingo's ``--opt-mode=opt``."""
        best: list[Any] = [None, None]

        def keep(model: clingo.Model) -> bool:
            best[0], best[1] = list(model.symbols(shown=True)), sum(model.cost)
            return True

        outcome = self.search(keep, deadline=deadline)
        return Optimum(best[0], best[1], outcome.exhausted and best[0] is not None, outcome)

    def add_parts(self, parts: Sequence[tuple[str, str, str, Sequence[int]]]) -> None:
        """For each of ``parts`` (name, text, part, arguments): add ``text`` (facts, rules) as
        the part ``name`` and ground it together with the program's part ``part`` for the
        numbers ``arguments`` (its rules then see the facts).  All in one step: each step
        updates the solver, a few milliseconds however small the part."""
        if not parts:
            return
        grounding: list[tuple[str, Sequence[clingo.Symbol]]] = []
        for name, text, part, arguments in parts:
            self.control.add(name, [], text)
            grounding += [(name, []), (part, [clingo.Number(n) for n in arguments])]
        self.control.ground(grounding)

    # ------------------------------------------------------------------ models

    def solution(self, model: clingo.Model, number: int) -> Solution:
        """The model's solution, once the independent checker has passed it; raises
        :class:`~hashi_asp.asp.interface.InvalidAnswer` for one that breaks the rules."""
        try:
            found = interface.solution(model.symbols(shown=True))
            violations = check(self.puzzle, found)
        except ValueError as malformed:
            violations = [Violation("malformed", str(malformed))]
        if violations:
            raise InvalidAnswer(number, violations)
        return found

    @staticmethod
    def shown(model: clingo.Model) -> list[clingo.Symbol]:
        """The model's shown atoms."""
        return list(model.symbols(shown=True))

    def statistics(self, search: SearchEnd) -> dict:
        """Grounding and search times, clingo's choices and conflicts."""
        figures = {
            "ground_seconds": round(self.ground_seconds, 6),
            "solve_seconds": round(search.seconds, 6),
        }
        if self.left_behind:  # clingo is still at work: its figures cannot be read
            return figures
        solvers = self.control.statistics["solving"]["solvers"]
        return {
            **figures,
            "choices": int(solvers["choices"]),
            "conflicts": int(solvers["conflicts"]),
        }

    # ------------------------------------------------------------------ atoms and switches

    def literal(self, symbol: clingo.Symbol) -> int | None:
        """The program literal of an atom, or None if grounding left no such atom."""
        atom = self.control.symbolic_atoms[symbol]
        return None if atom is None else atom.literal

    def atoms(self, name: str, arity: int) -> list[tuple[clingo.Symbol, int]]:
        """Every atom of a predicate with its literal."""
        return [
            (atom.symbol, atom.literal)
            for atom in self.control.symbolic_atoms.by_signature(name, arity)
        ]

    def forbid(self, literals: Iterable[int]) -> None:
        """Rule the literals out for every later search (an integrity constraint each), for
        what is settled for good: the searches after it need not assume it.  Each call updates
        the program clingo holds, so call it seldom, with many literals."""
        with self.control.backend() as backend:
            for literal in literals:
                backend.add_rule([], [literal])

    def limit(self, conflicts: int | None) -> None:
        """End each later search after this many conflicts (None: none), neither exhausted nor
        stopped: a budget, where a deadline is a time."""
        solve = self.control.configuration.solve
        assert isinstance(solve, clingo.Configuration)
        solve.solve_limit = "umax" if conflicts is None else str(conflicts)

    def switch(self, symbol: clingo.Symbol, value: bool | None) -> None:
        """Set an external atom true, false, or free (None)."""
        self.control.assign_external(symbol, value)

    def ground_part(self, parts: Sequence[tuple[str, Sequence[clingo.Symbol]]]) -> None:
        """Ground further parts of the program (small ones: in this thread)."""
        self.control.ground(list(parts))


def _close(handle: clingo.SolveHandle) -> None:
    """Stop a search and close it, as leaving its ``with`` block would."""
    handle.cancel()
    handle.__exit__(None, None, None)


def _free() -> None:
    """Free the controls of the groundings no longer used, one after the other, for ever."""
    while True:
        control = _freeing.get()
        del control


_freeing: queue.SimpleQueue[clingo.Control | None] = queue.SimpleQueue()
_freeing_started = threading.Event()  # the thread starts with the first grounding (a process
# with a single thread forks its race's workers at once: see portfolio._context)


def within(core: list[int] | None, assumptions: list[int]) -> list[int]:
    """clingo's core in the assumptions' order, or all the assumptions if it is not a subset."""
    if core is None or not set(core) <= set(assumptions):
        return assumptions
    blamed = set(core)
    return [literal for literal in assumptions if literal in blamed]


def _handle(control: clingo.Control, **options: Any) -> clingo.SolveHandle:
    """``control.solve(yield_=True, ...)``: a handle.  (clingo's type hints before 5.7 give
    every call of ``solve`` a handle or a result; its overloads since say which.)"""
    solve: Any = control.solve
    return solve(yield_=True, **options)


def _result(control: clingo.Control, **options: Any) -> clingo.SolveResult:
    """``control.solve(...)`` without yielding or a thread: the result (as :func:`_handle`)."""
    solve: Any = control.solve
    return solve(**options)
