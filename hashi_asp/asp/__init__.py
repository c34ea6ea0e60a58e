"""The only code that knows clingo, and the catalogue of connectivity formulations.

- :mod:`.predicates`: every predicate that passes between Python and the encodings, declared
  once (name, arguments, encodings, roles): the one place that knows their names.
- :mod:`.interface`: what clingo is given (the encoding's files, the puzzle as facts, the rules
  as constants) and what comes back (answer sets as solutions, pair states).
- :mod:`.control`: the one owner of ``clingo.Control``: ground a puzzle, search it with a
  deadline and Ctrl-C, hand each model on as it comes (checked before anyone sees it), shrink
  unsatisfiable cores, report statistics.
- :mod:`.interrupting`: the questions asked of clingo in the caller's thread, interrupted at
  their deadline.
- :mod:`.connectivity`: connectivity as lazy cuts, a clingo propagator.
- :mod:`.neighbourhood`: the neighbourhood search for a first solution of a giant (``lns``),
  a candidate mended round by round; :mod:`.sweep`: its first candidate drawn window by window.
- :mod:`.enumeration`: the one enumeration behind every search for answers, and the one place
  it resolves ``auto`` (for a first solution of a giant, the neighbourhood search first).
- :mod:`.portfolio`: a race of formulations and clingo options in worker processes.

This module itself holds the catalogue, :data:`FORMULATIONS`: every way hashi-asp can state
that all islands are connected, one :class:`Formulation` each, and the ``auto`` rule that picks
one per puzzle (:func:`auto`).  The ``--connectivity`` choices, their help, the choices the
JSON API serves, the variants ``--variant`` accepts and the race runs, which files clingo
loads, whether an enumeration is projected, which propagator is registered, and the table in
docs/encoding.md all read it.  It imports no clingo, so that the command line can offer the
choices without loading it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import catalogue

if TYPE_CHECKING:
    from ..puzzle import Puzzle


@dataclass(frozen=True)
class Formulation:
    """One way of stating connectivity.

    ``files`` are the encodings clingo loads, in order: bundled ones by name
    (``encodings/NAME``), others by path; a user's ``--encoding`` replaces the first, so that
    the first is the rules the others complete (``hashi.lp``, the whole encoding, or
    ``bridges.lp``, every rule but connectivity).  ``auxiliary`` names the atoms it adds
    besides the bridges (``parent/4``), none of them shown.  ``projected``: enumerations are
    counted as sets of shown atoms (clingo's ``--project=show``), which a formulation that
    chooses atoms besides the bridges needs (one solution would otherwise come as several
    answers); only one whose other atoms all follow from the bridges may leave it off, to save
    projection's cost.  ``propagator`` is ``"module:Class"``, a clingo propagator made with the
    puzzle and registered before grounding.  ``raceable``: ``--variant`` may name it;
    ``race`` are the clingo options (``""``: none) it runs with in a race that names no
    variants, most useful first.  ``complete``: it searches the whole space, so it can count,
    decide uniqueness and prove there is no solution; one that is not (``lns``) finds a first
    solution or none, and a race runs it for first solutions only, beside a complete one.
    ``description`` is one line for menus and the docs."""

    name: str
    files: tuple[str, ...]
    description: str
    auxiliary: tuple[str, ...] = ()
    projected: bool = True
    propagator: str | None = None
    raceable: bool = True
    race: tuple[str, ...] = ()
    complete: bool = True

    @property
    def completes(self) -> bool:
        """Whether it adds to its first file (more files, or a propagator): then a user's
        ``--encoding`` must leave connectivity out; else the first file states it itself."""
        return len(self.files) > 1 or self.propagator is not None


PLAIN = "reach"
"""The formulation of the whole encoding, ``hashi.lp``, what plain clingo runs: what ``auto`` is
with a user's encoding, and what ``auto`` and ``race`` load before they are resolved."""
LNS = "lns"  # the neighbourhood search for first solutions (:mod:`.neighbourhood`)
AUTO = "auto"  # the formulation :func:`auto` picks for the puzzle
RACE = "race"  # several variants at once in worker processes (:mod:`.portfolio`)
MODES = (AUTO, RACE)

FORMULATIONS: dict[str, Formulation] = {
    formulation.name: formulation
    for formulation in (
        Formulation(
            PLAIN,
            ("hashi.lp",),
            "reachability from the first island (what plain clingo runs)",
            auxiliary=("reach/2",),
            projected=False,
            race=("--configuration=jumpy", "", "--configuration=handy"),
        ),
        Formulation(
            "tree",
            ("bridges.lp", "tree.lp"),
            "a spanning tree of parent links under clasp's acyclicity check",
            auxiliary=("parent/4",),
            race=("", "--configuration=handy"),
        ),
        Formulation(
            "lazy",
            ("bridges.lp",),
            "cuts a propagator adds when a candidate falls apart",
            projected=False,
            propagator="hashi_asp.asp.connectivity:LazyConnectivity",
        ),
        Formulation(
            "flow",
            ("bridges.lp", "flow.lp"),
            "a flow of one unit from every island to the first, along bridges",
            auxiliary=("flow/5",),
        ),
        Formulation(
            LNS,
            ("bridges.lp", "neighbourhood.lp"),
            "first solutions only: parts joined one neighbourhood at a time, or swept in windows",
            auxiliary=("anchored/1", "joined/5", "end/5", "held/2"),
            projected=False,
            complete=False,
        ),
    )
}
"""The catalogue, in the order menus show it.  A formulation added here (or, in a program of
one's own, at run time) is offered everywhere: ``--connectivity``, the JSON API, study
variants, ``--variant`` and the race."""


def raceable() -> list[str]:
    """The names ``--variant`` accepts, in the catalogue's order."""
    return [name for name, each in FORMULATIONS.items() if each.raceable]


def race_variants() -> list[str]:
    """The variants a race draws from after the one :func:`auto` picks, as ``"NAME OPTIONS"``:
    every formulation's first ``race`` options, then every one's second, and so on, so that the
    few workers a machine has run different formulations before one formulation with different
    options.  Each formulation's own order is measured (docs/benchmarks.md, on the hard set);
    the interleaving is not: it gives the first three of the order measured there
    (``reach --configuration=jumpy``, ``tree``, ``reach``) and swaps the last two."""
    lists = [
        [" ".join(f"{name} {options}".split()) for options in each.race]
        for name, each in FORMULATIONS.items()
        if each.raceable
    ]
    return [row[i] for i in range(max(map(len, lists), default=0)) for row in lists if i < len(row)]


def _choices() -> list[str]:
    return [AUTO, *FORMULATIONS, RACE]


def _choices_without_the_race() -> list[str]:
    return [AUTO, *FORMULATIONS]


class Names(catalogue.Names):
    """The ``--connectivity`` choices, read from the catalogue whenever they are looked at (so
    that a formulation added at run time is among them): ``auto``, every formulation, and
    ``race`` unless ``race=False`` (the JSON API's: a request may not start a process per
    core)."""

    def __init__(self, *, race: bool = True):
        super().__init__(_choices if race else _choices_without_the_race)


CONNECTIVITY = Names()
"""How connectivity may be stated: ``auto``, a formulation of :data:`FORMULATIONS`, or
``race``."""


def help_text() -> str:
    """The ``--connectivity`` help: the formulations by name, and what the two modes do."""
    *names, last = FORMULATIONS
    listed = f"{', '.join(names)} or {last}" if names else last
    return f"Connectivity as {listed}; {AUTO}: one per puzzle; {RACE}: several at once."


# ---------------------------------------------------------------------------- auto

FEW_DOUBLES = 1.15
"""Bridges per island (half the numbers' sum over the islands) up to which ``auto`` takes the
tree: a puzzle with no double bridge has 1 + alpha (1.1 for the generator's default), one
with a tenth of them doubled about 1.21.  Measured on the generator's puzzles of 2 000 islands
(docs/benchmarks.md): the tree needs 2.5 times fewer conflicts without doubles, and more as
soon as a tenth are doubled; the Coelho et al. instances have 1.23 to 1.89."""


def auto(puzzle: Puzzle, own_rules: bool = False) -> str:
    """The formulation ``auto`` stands for on ``puzzle``: ``tree`` for puzzles with few double
    bridges (:data:`FEW_DOUBLES`), else ``reach``; with a user's encoding (``own_rules``), the
    one that adds nothing to it, :data:`PLAIN`.  (For a first solution of a giant an
    enumeration takes the neighbourhood search first: :func:`hashi_asp.asp.enumeration.plan`.)"""
    return "tree" if not own_rules and few_doubles(puzzle) else PLAIN


def few_doubles(puzzle: Puzzle, most: float = FEW_DOUBLES) -> bool:
    """Whether ``puzzle`` has few double bridges: at most ``most`` bridges per island, by its
    numbers (half their sum over the islands)."""
    numbers = sum(n or 1 for n in puzzle.islands.values())
    return numbers <= 2 * most * len(puzzle.islands)
