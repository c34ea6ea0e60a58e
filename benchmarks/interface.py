"""What the interface between Python and the encodings costs on a large puzzle: writing the
puzzle's facts and reading an answer's bridge/5 atoms, by hashi-asp's declaration
(hashi_asp/asp/predicates.py), by the f-strings and text reading it replaced, and by clorm
(Potassco's object-relational mapping for clingo: `pip install clorm`), each against what clingo
takes to ground the same puzzle and find its first answer.

    hashi-asp generate -n 100000 --seed 1 > big.txt
    python benchmarks/interface.py big.txt

Each figure is processor time (this process's, which runs nothing else meanwhile), the best of
--repeat runs, in milliseconds: on a machine shared with other work, wall-clock times move with
its load, processor times much less.  Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from collections.abc import Callable

from hashi_asp import Solution, bridge, read
from hashi_asp.asp import interface
from hashi_asp.asp.control import ground


def best(work: Callable[[], object], repeat: int) -> float:
    """The least processor time of ``repeat`` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times) * 1000


def f_strings(puzzle) -> str:
    """The facts as hashi-asp wrote them before the declaration: an f-string per fact."""
    lines = [f"rows({puzzle.rows}). cols({puzzle.cols})."]
    lines.extend(
        f"island({r},{c},{'any' if n is None else n})." for (r, c), n in puzzle.islands.items()
    )
    return "\n".join(lines) + "\n"


ATOM = re.compile(r"bridge\((-?\d+),(-?\d+),(-?\d+),(-?\d+),(-?\d+)\)")


def text_read(symbols) -> Solution:
    """An answer's bridges as hashi-asp read them before the declaration: each atom's text."""
    bridges = []
    for text in map(str, symbols):
        if text.startswith("bridge("):
            r1, c1, r2, c2, k = map(int, ATOM.fullmatch(text).groups())
            bridges.append(bridge((r1, c1), (r2, c2), k))
    return Solution.of(bridges)


def symbol_read(symbols) -> Solution:
    """The declaration's reading through clingo's symbol API, argument by argument."""
    from hashi_asp.asp.predicates import BRIDGE

    return Solution.of(bridge((r1, c1), (r2, c2), k) for r1, c1, r2, c2, k in BRIDGE.read(symbols))


def clorm_rows(puzzle, symbols, repeat: int) -> list[tuple[str, str, float]]:
    try:
        from clorm import ConstantField, FactBase, IntegerField, Predicate, combine_fields, unify
    except ImportError:
        print("clorm is not installed (pip install clorm): its rows are left out")
        return []

    class Rows(Predicate, name="rows"):
        h = IntegerField

    class Cols(Predicate, name="cols"):
        w = IntegerField

    class Island(Predicate, name="island"):
        r = IntegerField
        c = IntegerField
        n = combine_fields([IntegerField, ConstantField])

    class Bridge(Predicate, name="bridge"):
        r1 = IntegerField
        c1 = IntegerField
        r2 = IntegerField
        c2 = IntegerField
        k = IntegerField

    def instances() -> list:
        return [
            Rows(puzzle.rows),
            Cols(puzzle.cols),
            *(Island(r, c, "any" if n is None else n) for (r, c), n in puzzle.islands.items()),
        ]

    def bridges() -> Solution:
        found = unify([Bridge], symbols)
        return Solution.of(bridge((b.r1, b.c1), (b.r2, b.c2), b.k) for b in found)

    return [
        (
            "write",
            "clorm: FactBase(...).asp_str()",
            best(lambda: FactBase(instances()).asp_str(), repeat),
        ),
        (
            "write",
            "clorm: the facts' symbols (.raw)",
            best(lambda: [f.raw for f in instances()], repeat),
        ),
        ("read", "clorm: unify([Bridge], symbols)", best(bridges, repeat)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    puzzle = read(args.puzzle)
    # The reference: what clingo takes for the first answer (grounding and search), as in
    # `solve`; its answer's shown atoms are what the readers below read.
    started = time.process_time()
    grounded = ground(puzzle)
    shown: list = []
    search = grounded.search(lambda model: shown.extend(grounded.shown(model)) or False)
    whole = (time.process_time() - started) * 1000
    stats = grounded.statistics(search)
    assert interface.solution(shown) == text_read(shown) == symbol_read(shown)
    assert interface.facts(puzzle).endswith(f_strings(puzzle).split("\n", 1)[1])
    rows = [
        ("write", "f-strings (before)", best(lambda: f_strings(puzzle), args.repeat)),
        (
            "write",
            "declaration: interface.facts",
            best(lambda: interface.facts(puzzle), args.repeat),
        ),
        ("read", "atoms' text (before)", best(lambda: text_read(shown), args.repeat)),
        (
            "read",
            "declaration: interface.solution",
            best(lambda: interface.solution(shown), args.repeat),
        ),
        (
            "read",
            "declaration: BRIDGE.read (symbol API)",
            best(lambda: symbol_read(shown), args.repeat),
        ),
        *clorm_rows(puzzle, shown, args.repeat),
    ]
    print(
        f"{len(puzzle.islands)} islands, {len(shown)} bridges; clingo for the first answer "
        f"{whole:.0f} ms of processor time (wall clock: ground {grounded.ground_seconds:.1f} s, "
        f"search {search.seconds:.1f} s, "
        f"{stats.get('choices')} choices, {stats.get('conflicts')} conflicts); load average "
        f"{load:.2f} at start, {os.getloadavg()[0]:.2f} at end\n"
    )
    print("| what | how | ms | of the solve |")
    print("|---|---|---:|---:|")
    for what, how, ms in rows:
        print(f"| {what} | {how} | {ms:.0f} | {100 * ms / whole:.1f} % |")


if __name__ == "__main__":
    main()
