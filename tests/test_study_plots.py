"""``hashi-asp study plot``: the figures are SVG that parses, with one group of points per
variant (``variant-NAME``, one marker each), and their counts are the database's."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import processes
import pytest
from conftest import PIGEONS, PROLOG
from studies import COELHO, rows

pytest.importorskip("matplotlib", reason="the plot extra: pip install 'hashi-asp[plot]'")

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """Three variants over five instances: reach and tree solve every one, stuck (the pigeons
    added) none within its second."""
    folder = tmp_path_factory.mktemp("plots")
    database = folder / "plots.db"
    paths = [*sorted(COELHO.glob("Hs_24_200_*_001.has"))[:4], PROLOG]
    variants = ["--variant", "reach=--connectivity reach", "--variant", "tree=--connectivity tree"]
    variants += ["--variant", f"stuck=--add {PIGEONS}"]
    done = processes.run("study", "run", database, *paths, *variants, "--time-limit", "1")
    assert done.returncode == 0, done.stderr
    return database


def points(svg: ElementTree.Element, group: str) -> int:
    """The markers in the group with id ``group``."""
    (found,) = [g for g in svg.iter(f"{SVG}g") if g.get("id") == group]
    return len(list(found.iter(f"{SVG}use")))


def series(svg: ElementTree.Element) -> list[str]:
    return [g.get("id") for g in svg.iter(f"{SVG}g") if (g.get("id") or "").startswith("variant-")]


def solved(database, variant: str) -> int:
    statuses = {"solved", "unique", "multiple", "unsolvable"}
    return sum(row["variant"] == variant and row["status"] in statuses for row in rows(database))


def test_cactus_and_scaling_have_one_series_per_variant_with_the_databases_counts(study, tmp_path):
    cactus, scaling = tmp_path / "cactus.svg", tmp_path / "scaling.svg"
    done = processes.run("study", "plot", study, "--cactus", cactus, "--scaling", scaling)
    assert done.returncode == 0, done.stderr
    for figure in (cactus, scaling):
        svg = ElementTree.parse(figure).getroot()
        assert series(svg) == ["variant-reach", "variant-tree", "variant-stuck"]
        for name in ("reach", "tree", "stuck"):
            assert points(svg, f"variant-{name}") == solved(study, name)
    assert solved(study, "reach") == 5 and solved(study, "stuck") == 0


def test_the_scatter_plot_has_a_point_per_cell_both_ran(study, tmp_path):
    figure = tmp_path / "scatter.svg"
    done = processes.run("study", "plot", study, "--scatter", "reach,stuck", figure)
    assert done.returncode == 0, done.stderr
    assert points(ElementTree.parse(figure).getroot(), "pairs") == 5
    png = tmp_path / "scatter.png"
    assert processes.run("study", "plot", study, "--scatter", "tree,reach", png).returncode == 0
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scatter", "reach,nope", "x.svg"], "--scatter: no variant 'nope' in the study"),
        (["--scatter", "reach", "x.svg"], "--scatter 'reach': expected two variants, A,B"),
        (["--cactus", "x.pdf"], "x.pdf: a figure is a .svg or .png file"),
        ([], "name a figure: --cactus FILE, --scatter A,B FILE or --scaling FILE"),
    ],
)
def test_a_figure_that_cannot_be_drawn_is_one_line(study, tmp_path, args, message):
    done = processes.run("study", "plot", study, *args, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())
