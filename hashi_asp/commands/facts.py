"""``facts``: a puzzle as ASP facts, the input of the encoding, for plain clingo."""

from __future__ import annotations

from ..status import Status
from .declaration import Command, Given, Outcome, Printed
from .shared_options import READING, read_puzzle


def facts(given: Given) -> Outcome:
    from ..asp.interface import facts

    text = facts(given.puzzle)
    return Outcome(
        Status.OK,
        document=lambda: {"facts": text, "puzzle": given.puzzle.to_json()},
        printed=lambda: Printed(text),
    )


COMMAND = Command(
    "facts",
    """Print PUZZLE as ASP facts, the input of encodings/hashi.lp: python -m clingo
    encodings/hashi.lp facts.lp runs it (for other than the standard rules, a comment line says
    which -c options to add).""",
    READING,
    facts,
    prepare=read_puzzle,
)
