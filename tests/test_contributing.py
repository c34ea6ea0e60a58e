"""docs/contributing.md's recipes are the run-time tests' own: every example it shows is a piece
of the file it says it is from, each recipe names two files and the test that follows it, and
that test exists and uses the example's module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGE = (REPO / "docs" / "contributing.md").read_text()
EXAMPLES = re.findall(r"```\w+\n# from (\S+)\n(.*?)```", PAGE, re.S)
RECIPES = dict(re.findall(r"^### (Adding a \w+)\n(.*?)(?=^##)", PAGE, re.S | re.M))


def test_the_page_has_the_four_recipes_each_with_its_examples():
    assert sorted(RECIPES) == [
        "Adding a command",
        "Adding a formulation",
        "Adding a notation",
        "Adding a technique",
    ]
    for name, text in RECIPES.items():
        assert re.search(r"\btwo files\b|\bTwo files\b", text), name
        assert "# from tests/" in text, name


@pytest.mark.parametrize("source, example", EXAMPLES, ids=[s for s, _ in EXAMPLES])
def test_every_example_is_a_piece_of_its_file(source, example):
    assert example in (REPO / source).read_text()


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_every_recipe_names_a_run_time_test_that_uses_its_example(name):
    text = RECIPES[name]
    tests = set(re.findall(r"tests/(test_\w+\.py)", text))
    assert tests, name
    sources = {Path(source).stem for source, _ in EXAMPLES if f"# from {source}" in text}
    for test in tests:
        assert (REPO / "tests" / test).is_file(), test
    uses = "".join((REPO / "tests" / test).read_text() for test in tests)
    for source in sources - {Path(test).stem for test in tests}:
        assert source in uses, (name, source)
