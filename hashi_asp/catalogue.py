"""The names of a catalogue (the commands, the notations), read from it whenever they are
looked at: an entry registered at run time is among them, in every option's choices and every
list that shows them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload


class Names(Sequence[str]):
    """The names ``listed()`` gives, in its order, asked for at each look; ``contains(name)``,
    when given, answers ``name in`` without listing them all (where listing costs more: the
    study tasks load every command's module).  Equal to any sequence of the same names."""

    def __init__(
        self, listed: Callable[[], list[str]], contains: Callable[[object], bool] | None = None
    ):
        self._listed = listed
        self._contains = contains

    def _names(self) -> list[str]:
        return list(self._listed())

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        if self._contains is not None:
            return self._contains(name)
        return name in self._names()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Names, list, tuple)):
            return self._names() == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        # By the names, as equality goes: an option's choices are part of its command's
        # declaration, by which the command line keeps the click command it made; an entry
        # registered or gone makes another declaration, and the click command is made again.
        return hash(tuple(self._names()))

    def __repr__(self) -> str:
        return repr(self._names())
