"""KindTable answers what an isinstance chain would, subclasses included, in one lookup."""

from __future__ import annotations

from schemas import Event, Fault, GpuSample, JobEvent, LogLine
from streams.core.dispatch import KindTable, kinds


class _TaggedLine(LogLine):
    """A subclass no table lists: it must be treated as a LogLine."""


def test_a_listed_kind_gets_its_entry_and_an_unlisted_one_the_default() -> None:
    table = KindTable([(JobEvent, "job"), (LogLine, "log")], "other")
    assert [table[k] for k in (JobEvent, LogLine, GpuSample, Fault)] == ["job", "log", "other", "other"]


def test_a_subclass_gets_the_entry_of_its_first_listed_base_like_isinstance() -> None:
    table = KindTable([(LogLine, "log"), (Event, "event")], None)
    assert table[_TaggedLine] == "log" and table[GpuSample] == "event"
    assert table[_TaggedLine] == "log"  # remembered, same answer


def test_kinds_is_isinstance() -> None:
    consumed = kinds(JobEvent, LogLine)
    for kind in (JobEvent, LogLine, _TaggedLine, GpuSample, Fault):
        assert consumed[kind] == issubclass(kind, (JobEvent, LogLine)), kind
