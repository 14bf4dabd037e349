"""Dispatch on an event's kind in one dict lookup.

Event models are pydantic classes, whose metaclass is an ``ABCMeta``: every ``isinstance``
against them goes through the ABC machinery. A detector that tests each event against a chain
of kinds pays that several times per event, for every event of the job, most of which it
ignores. :class:`KindTable` answers the same question with one lookup by the event's exact
class, remembering the answer for classes it was not given (a subclass gets the entry of its
first listed base, as the ``isinstance`` chain it replaces would give it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

V = TypeVar("V")


class KindTable(Generic[V]):
    """``entries`` (class, value) in priority order; ``default`` for a class none of them matches."""

    def __init__(self, entries: Iterable[tuple[type, V]], default: V) -> None:
        self._entries = tuple(entries)
        self._default = default
        self._memo: dict[type, V] = {}
        for kind, value in self._entries:
            self._memo.setdefault(kind, value)

    def __getitem__(self, kind: type) -> V:
        """The value of the first entry ``kind`` is a subclass of, else the default."""
        try:
            return self._memo[kind]
        except KeyError:
            value = next((v for base, v in self._entries if issubclass(kind, base)), self._default)
            self._memo[kind] = value
            return value


def kinds(*classes: type) -> KindTable[bool]:
    """A membership test: ``table[type(event)]`` is ``isinstance(event, classes)``."""
    return KindTable(((c, True) for c in classes), False)
