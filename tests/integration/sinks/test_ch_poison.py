"""No poison pills in the sink: every hostile value becomes a dead letter, then a good event lands."""

from __future__ import annotations

from ch_sink_helpers import every_kind, produce, random_name, read_topic

from schemas import DeadLetter, decode
from schemas.settings import KafkaSettings
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.sink import ClickHouseSink
from sinks.clickhouse.store import connect
from tests.hostile import over_kafka


def test_hostile_values_are_dead_lettered_and_the_next_event_lands(kafka: KafkaSettings,
                                                                  ch: ClickHouseSettings) -> None:
    hostile = over_kafka()
    produce(kafka, [], [("faults.classified", value) for value in hostile])
    good = next(e for e in every_kind(1) if e.KIND == "fault")
    produce(kafka, [good])
    counters = ClickHouseSink(kafka, ch, random_name("g")).run(idle_exit_s=3.0)
    letters = [d for raw in read_topic(kafka, "deadletter", expect=len(hostile)) if isinstance(d := decode(raw), DeadLetter)]
    assert len(letters) == len(hostile) and counters.dead_lettered >= len(hostile)
    assert all(len(raw) < 1_000_000 for raw in read_topic(kafka, "deadletter", expect=len(hostile)))
    store = connect(ch)
    try:
        _, rows = store.query(f"SELECT count() FROM `{ch.database}`.`faults` FINAL")
        assert int(rows[0][0]) >= 1, "the good event after the hostile ones did not land"
    finally:
        store.command(f"DROP DATABASE IF EXISTS `{ch.database}`")
        store.close()
