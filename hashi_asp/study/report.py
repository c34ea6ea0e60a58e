"""A study's report, from its database alone: per variant, the layout of Table 1 of Coelho,
Laporte, Lindbeck & Vidal (2019) (mean and largest seconds by islands, beta and alpha, with
the runs solved), the PAR-2 score, and each pair of variants compared instance by instance.

- *Solved*: the run gave what its task asks: a verdict that answers its command's question
  (:meth:`~hashi_asp.status.Verdict.answers`: any but ``unknown``, ``invalid``, ``memout``
  and ``error``).  ``mean`` and ``max`` are over the solved runs' seconds (``wall``).
- *PAR-2*: the mean over all runs of the seconds, a run not solved counting twice the time
  limit (undefined without one).
- *Pairs*: for variants A and B, the cells (instance, seed) both ran; the speed-up of B is the
  geometric mean of A's seconds over B's on the cells both solved (above 1: B is faster); B
  wins a cell it solved that A did not, or solved faster; it loses the reverse.

Instances named like the Coelho et al. dataset (``Hs_<size>_<n>_<beta%>_<alpha%>_<id>.has``)
are grouped by islands, beta and alpha; any others by islands alone.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from .runs import DATASET_NAME, Record

Item = TypeVar("Item")


def grouped(
    items: Iterable[Item], name: Callable[[Item], str], islands: Callable[[Item], int | None]
) -> tuple[list[str], dict[tuple, list[Item]]]:
    """The grouping of Table 1: the header of its key columns, and the items by key, keys
    sorted: (islands, beta %, alpha %) when every name follows the dataset's pattern, else
    (islands,)."""
    items = list(items)
    matches = [DATASET_NAME.search(Path(name(item)).name) for item in items]
    dataset = bool(items) and all(matches)
    groups: dict[tuple, list[Item]] = {}
    for item, match in zip(items, matches):
        if dataset and match:
            key: tuple = (int(match["n"]), int(match["beta"]), int(match["alpha"]))
        else:
            key = (islands(item) or 0,)
        groups.setdefault(key, []).append(item)
    header = ["islands", "beta%", "alpha%"] if dataset else ["islands"]
    return header, dict(sorted(groups.items()))


# ---------------------------------------------------------------------------- the figures


def summary(records: list[Record], plan: dict | None) -> dict:
    """The report as one JSON document (what ``--format json`` prints); ``plan`` is the
    database's fingerprint of its plan (:meth:`.plan.Plan.fingerprint`)."""
    plan = plan or {}
    names = list(plan.get("variants", {})) or list(dict.fromkeys(r.variant for r in records))
    names += [name for name in dict.fromkeys(r.variant for r in records) if name not in names]
    limit = plan.get("time_limit")
    by_variant = {name: [r for r in records if r.variant == name] for name in names}
    cells = None
    if plan:
        cells = len(plan["instances"]) * len(plan["variants"]) * len(plan["seeds"])
    document: dict[str, Any] = {
        "study": {
            "task": plan.get("task"),
            "seeds": plan.get("seeds"),
            "time_limit": limit,
            "memory_limit": plan.get("memory_limit"),
            "cells": cells,
            "rows": len(records),
        },
        "variants": {name: _variant(rows, limit) for name, rows in by_variant.items()},
        "pairs": [
            _pair(a, b, by_variant[a], by_variant[b], limit)
            for i, a in enumerate(names)
            for b in names[i + 1 :]
        ],
    }
    return document


def _seconds(rows: list[Record]) -> dict:
    solved = [r.wall for r in rows if r.answered]
    return {
        "runs": len(rows),
        "solved": len(solved),
        "mean": round(statistics.fmean(solved), 6) if solved else None,
        "max": round(max(solved), 6) if solved else None,
    }


def _variant(rows: list[Record], limit: float | None) -> dict:
    statuses: dict[str, int] = {}
    for row in rows:
        statuses[row.status] = statuses.get(row.status, 0) + 1
    par2 = None
    if limit is not None and rows:
        par2 = round(statistics.fmean(r.wall if r.answered else 2 * limit for r in rows), 6)
    header, groups = grouped(rows, lambda r: r.instance, lambda r: r.islands)
    table = []
    for key, members in groups.items():
        table.append({**dict(zip(_KEYS[len(header)], key)), **_seconds(members)})
    if len(header) == 3:  # per number of islands, as the dataset's table ends
        for n in sorted({key[0] for key in groups}):
            members = [r for key, group in groups.items() if key[0] == n for r in group]
            table.append({"islands": n, "beta": "all", "alpha": "all", **_seconds(members)})
    memory = [r.memory for r in rows if r.memory is not None]
    return {
        **_seconds(rows),
        "par2": par2,
        "statuses": statuses,
        "checked": sum(r.checked for r in rows),
        "peak_memory": max(memory) if memory else None,
        "groups": table,
    }


_KEYS = {1: ("islands",), 3: ("islands", "beta", "alpha")}


def _pair(a: str, b: str, first: list[Record], second: list[Record], limit: float | None) -> dict:
    theirs = {(r.instance, r.seed): r for r in second}
    common = [(r, theirs[(r.instance, r.seed)]) for r in first if (r.instance, r.seed) in theirs]
    ratios = [
        math.log(x.wall / y.wall)
        for x, y in common
        if x.answered and y.answered and x.wall > 0 and y.wall > 0
    ]
    wins = sum(y.answered and (not x.answered or y.wall < x.wall) for x, y in common)
    losses = sum(x.answered and (not y.answered or x.wall < y.wall) for x, y in common)
    return {
        "a": a,
        "b": b,
        "common": len(common),
        "speedup": round(math.exp(statistics.fmean(ratios)), 4) if ratios else None,
        "wins": wins,
        "losses": losses,
        "ties": len(common) - wins - losses,
    }


# ---------------------------------------------------------------------------- the formats


def text(document: dict, markdown: bool = False) -> str:
    """The report as aligned text tables, or Markdown tables."""
    study = document["study"]
    lines = [_heading(study)]
    for name, variant in document["variants"].items():
        mean, top = _s(variant["mean"]), _s(variant["max"])
        par2 = _s(variant["par2"]) if variant["par2"] is not None else "- (no time limit)"
        statuses = ", ".join(f"{n} {status}" for status, n in sorted(variant["statuses"].items()))
        lines += [
            "",
            f"{'### ' if markdown else ''}variant {name}: {variant['runs']} runs, "
            f"{variant['solved']} solved ({statuses or 'none'}); mean {mean} s, max {top} s, "
            f"PAR-2 {par2}",
            "",
        ]
        lines += _table(_group_rows(variant), markdown)
    if document["pairs"]:
        lines += [
            "",
            f"{'### ' if markdown else ''}pairs: the speed-up of B over A (above 1: B "
            "is faster), geometric mean over the cells both solved; B's wins and losses",
            "",
        ]
        rows = [["A", "B", "cells", "speed-up", "wins", "losses", "ties"]]
        for pair in document["pairs"]:
            speedup = f"{pair['speedup']:.3f}" if pair["speedup"] is not None else "-"
            rows.append(
                [pair["a"], pair["b"], str(pair["common"]), speedup]
                + [str(pair[key]) for key in ("wins", "losses", "ties")]
            )
        lines += _table(rows, markdown)
    return "\n".join(lines)


def _heading(study: dict) -> str:
    limits = []
    if study["time_limit"] is not None:
        limits.append(f"time limit {study['time_limit']:g} s")
    if study["memory_limit"] is not None:
        limits.append(f"memory limit {study['memory_limit']} MB")
    cells = f" of {study['cells']} cells" if study["cells"] is not None else ""
    seeds = study["seeds"] or [1]
    return (
        f"task {study['task'] or '?'}, {study['rows']} rows{cells}, "
        f"seeds {', '.join(map(str, seeds))}" + "".join(f", {limit}" for limit in limits)
    )


def _s(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.4f}"


def _group_rows(variant: dict) -> list[list[str]]:
    groups = variant["groups"]
    dataset = bool(groups) and "beta" in groups[0]
    header = ["islands", "beta%", "alpha%"] if dataset else ["islands"]
    rows = [[*header, "runs", "solved", "mean s", "max s"]]
    keys = ("islands", "beta", "alpha") if dataset else ("islands",)
    for group in [*groups, {"islands": "all", "beta": "", "alpha": "", **_totals(variant)}]:
        numbers = [str(group["runs"]), str(group["solved"]), _s(group["mean"]), _s(group["max"])]
        rows.append([*(str(group[key]) for key in keys), *numbers])
    return rows


def _totals(variant: dict) -> dict:
    return {key: variant[key] for key in ("runs", "solved", "mean", "max")}


def _table(rows: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        return lines + ["| " + " | ".join(row) + " |" for row in rows[1:]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def csv_text(document: dict) -> str:
    """One line per variant and group (and each variant's total, islands ``all``)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["variant", "islands", "beta", "alpha", "runs", "solved", "mean", "max", "par2"]
    )
    for name, variant in document["variants"].items():
        for group in variant["groups"]:
            writer.writerow(
                [name, group["islands"], group.get("beta", ""), group.get("alpha", "")]
                + [_plain(group[key]) for key in ("runs", "solved", "mean", "max")]
                + [""]
            )
        writer.writerow(
            [name, "all", "", ""]
            + [_plain(variant[key]) for key in ("runs", "solved", "mean", "max", "par2")]
        )
    return out.getvalue()


def _plain(value: Any) -> str:
    return "" if value is None else str(value)
