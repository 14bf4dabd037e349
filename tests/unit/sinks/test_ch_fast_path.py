"""The sink's fast decoding, pure parts: mirrors give the same columns as events, bulk batching."""

from __future__ import annotations

from typing import Any

from ch_factories import T0

from schemas import EttInterval, HangSignals, HangVote, dead_letter, encode
from sinks.clickhouse.batch import Batch, Consumed
from sinks.clickhouse.mapping import columns, group_columns, spec_for, to_columns
from sinks.clickhouse.sink import FAST, decode_value


def _vote(i: int) -> HangVote:
    return HangVote(event_id=f"v{i}", event_time=T0, cluster="c", job_id="j", attempt=0, window_start=T0,
                    window_end=T0, signals=HangSignals(log_silent=i % 2 == 0), votes=i % 3, hang=False)


def test_mirrors_give_the_columns_of_their_events(make: Any) -> None:
    events = [make.verdict("v1"), make.decision("d1"), make.decision("d2", guard=None), make.fault("f1"), _vote(1)]
    mirrors = [FAST.decode(encode(e)) for e in events]
    assert all(m is not None for m in mirrors)
    assert group_columns(mirrors, 5) == group_columns(events, 5)  # type: ignore[arg-type]  # checked above
    spec = spec_for(events[0])
    assert spec_for(mirrors[0]) is spec  # type: ignore[arg-type]
    assert to_columns(spec, [mirrors[0]], 1) == to_columns(spec, [events[0]], 1)  # type: ignore[list-item]


def test_events_and_mirrors_of_one_kind_share_a_table_in_input_order() -> None:
    events = [_vote(i) for i in range(4)]
    mixed = [events[0], FAST.decode(encode(events[1])), events[2], FAST.decode(encode(events[3]))]
    grouped = group_columns(mixed, 9)  # type: ignore[arg-type]  # mirrors, not None
    assert list(grouped) == [spec_for(events[0])]
    ids = [c.name for c in columns(spec_for(events[0]))].index("event_id")
    assert grouped[spec_for(events[0])][ids] == ["v0", "v1", "v2", "v3"]
    assert grouped == group_columns(events, 9)


def test_the_sink_decodes_its_kinds_fast_and_the_rest_as_before() -> None:
    vote = encode(_vote(0))
    fast, failed = decode_value(vote)
    assert type(fast).__name__ == "HangVoteMirror" and not failed
    offset = vote.replace(b"2026-11-22T08:00:00.123Z", b"2026-11-22T09:00:00.123+01:00")
    slow, failed = decode_value(offset)
    assert slow == _vote(0) and type(slow) is HangVote and not failed  # pydantic normalised it to UTC
    bad, failed = decode_value(b"not json", "t", 0, 7, "k")
    assert failed and bad.stage == "decode" and bad.offset == 7  # type: ignore[union-attr]  # a DeadLetter


def test_add_all_books_a_batch_as_adding_one_by_one_does() -> None:
    items = []
    for offset in range(10):
        value = b"x" * offset
        event = EttInterval(event_id=f"e{offset}", event_time=T0, cluster="c", job_id="j", attempt=0,
                            kind="idle", start=T0, end=T0)
        failed = offset % 4 == 0
        letter = dead_letter(value, source_topic="t", stage="decode", error="e", offset=offset)
        items.append(Consumed(f"t{offset % 2}", offset % 3, offset, None, value, letter if failed else event, failed))
    one, bulk = Batch(), Batch()
    for item in items:
        one.add(item, now=3.0)
    bulk.add_all(items[:4], now=3.0)
    bulk.add_all(items[4:], now=9.0)
    bulk.add_all([], now=12.0)
    assert bulk == one
    assert bulk.next_offsets[("t1", 0)] == 10 and bulk.started == 3.0 and bulk.value_bytes == 45
