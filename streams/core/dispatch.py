"""Dispatch on an event's kind in one dict lookup.

A detector that tests each event against a chain of kinds (``isinstance`` after
``isinstance``) pays for every test, for every event of the job, most of which it ignores.
:class:`KindTable` answers the same question with one lookup by the event's exact class,
remembering the answer for classes it was not given (a subclass gets the entry of its first
listed base, as the ``isinstance`` chain it replaces would give it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

V = TypeVar("V")


class KindTable(dict[type, V]):
    """``entries`` (class, value) in priority order; ``default`` for a class none of them matches.

    A dict by exact class, so a lookup of a known class is one C-level dict lookup (no Python
    call); a class seen for the first time is resolved by :meth:`__missing__` and remembered."""

    def __init__(self, entries: Iterable[tuple[type, V]], default: V) -> None:
        super().__init__()
        self._entries = tuple(entries)
        self._default = default
        for kind, value in self._entries:
            self.setdefault(kind, value)

    def __missing__(self, kind: type) -> V:
        """The value of the first entry ``kind`` is a subclass of, else the default."""
        value = next((v for base, v in self._entries if issubclass(kind, base)), self._default)
        self[kind] = value
        return value


def kinds(*classes: type) -> KindTable[bool]:
    """A membership test: ``table[type(event)]`` is ``isinstance(event, classes)``."""
    return KindTable(((c, True) for c in classes), False)
