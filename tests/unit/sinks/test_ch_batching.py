"""The sink's fast path, pure parts: byte-bounded batches, millisecond ticks, GC policy."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from schemas import dead_letter
from sinks.clickhouse.batch import Batch, Consumed
from sinks.clickhouse.mapping import TABLES, columns, is_time, millisecond_ticks
from sinks.clickhouse.sink import GC_THRESHOLDS, tune_gc_for_batches


def _consumed(offset: int, size: int) -> Consumed:
    value = b"x" * size
    letter = dead_letter(value, source_topic="t", stage="decode", error="e", offset=offset)
    return Consumed("t", 0, offset, None, value, letter, True)


def test_a_batch_is_due_once_its_values_reach_max_bytes() -> None:
    batch = Batch()
    batch.add(_consumed(0, 600), now=0.0)
    assert not batch.due(1000, 60.0, now=0.0, max_bytes=1000)
    batch.add(_consumed(1, 400), now=0.0)
    assert batch.value_bytes == 1000
    assert batch.due(1000, 60.0, now=0.0, max_bytes=1000)
    assert not batch.due(1000, 60.0, now=0.0)  # no byte bound given
    batch.clear()
    assert batch.value_bytes == 0


def test_millisecond_ticks_floor_exactly_like_datetime64_3() -> None:
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    late = datetime(2199, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    values = [epoch, epoch + timedelta(microseconds=1999), late, None]
    assert millisecond_ticks(values) == [0, 1, (late - epoch) // timedelta(microseconds=1) // 1000, None]


def test_every_time_field_is_a_time_column_and_nothing_else() -> None:
    for spec in TABLES:
        for col in columns(spec):
            if col.field_name is None:
                continue
            annotation = str(spec.model.model_fields[col.field_name].annotation)
            assert is_time(col) == ("datetime" in annotation.lower()), (spec.table, col.name)


@pytest.fixture
def restore_gc() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_gc_tuning_raises_the_thresholds(restore_gc: None) -> None:
    gc.set_threshold(700, 10, 10)
    tune_gc_for_batches()
    assert gc.get_threshold() == GC_THRESHOLDS
    assert GC_THRESHOLDS[0] > 700
