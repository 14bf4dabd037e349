"""The ClickHouse sink's rows/s into chDB, where its time goes, and the bare-insert ceiling (issue 16).

    python -m tests.bench.sink_bench [--rows N] [--mix votes|kinds]

One run, one real broker, one chDB path. Prints, for the same rows:

- the sink end to end (Kafka -> chDB, start-up and group join included, its idle exit not)
  and in steady state (rows inserted between its first and last flush over that time);
- where the sink's time went (``SinkCounters``: consume, decode, insert, commit);
- the same messages read by a bare confluent consumer (no decoding: the broker's ceiling here);
- the same rows inserted bare with clickhouse-connect, row-oriented (a list of rows, column
  types looked up by the driver) and column-oriented (``Store.insert_columns``, the sink's
  own insert path), only the insert call timed;
- the CPU time per row of the sink's steps without Kafka (decode, columns, insert), and of
  the whole sink process during its run.

``--mix votes`` is hang votes only (what ``tests.bench.ratios`` uses); ``--mix kinds`` is
hang votes, verdicts, slow nodes, faults, decisions and ETT intervals in equal parts.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from schemas import (
    Decision,
    EttInterval,
    Event,
    Fault,
    HangSignals,
    HangVerdict,
    HangVote,
    Localization,
    Reason,
    SlowNode,
    encode,
)
from schemas.settings import KafkaSettings
from sinks.clickhouse.mapping import columns, group_columns, spec_for, to_row
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.sink import (
    CONSUME_MAX_MESSAGES,
    FAST,
    ClickHouseSink,
    SinkCounters,
    decode_value,
    tune_gc_for_batches,
)
from sinks.clickhouse.store import Store, connect

T0 = datetime(2026, 11, 22, tzinfo=UTC)
IDLE_EXIT_S = 2.0


def votes(n: int) -> list[Event]:
    """``n`` hang votes of 50 jobs, one a second (the shape of ``tests.bench.ratios``)."""
    return [HangVote(event_id=f"v{i}", event_time=T0 + timedelta(seconds=i), cluster="c", job_id=f"j{i % 50}",
                     attempt=0, window_start=T0, window_end=T0 + timedelta(seconds=i),
                     signals=HangSignals(log_silent=i % 7 == 0), votes=i % 3, hang=False) for i in range(n)]


def kinds(n: int) -> list[Event]:
    """``n`` derived events, six kinds in turn, with distinct ids and realistic field sizes."""
    makers: list[Callable[[int, datetime], Event]] = [_vote, _verdict, _slow, _fault, _decision, _ett]
    return [makers[i % len(makers)](i, T0 + timedelta(milliseconds=10 * i)) for i in range(n)]


def _vote(i: int, at: datetime) -> Event:
    return HangVote(event_id=f"hv{i}", event_time=at, cluster="c", job_id=f"j{i % 40}", attempt=i % 3,
                    window_start=at - timedelta(seconds=30), window_end=at,
                    signals=HangSignals(log_silent=i % 5 == 0, metrics_idle=False), votes=1, hang=False)


def _verdict(i: int, at: datetime) -> Event:
    return HangVerdict(event_id=f"v{i}", verdict_id=f"v{i}", event_time=at, cluster="c", job_id=f"j{i % 40}",
                       attempt=0, onset_time=at - timedelta(seconds=60), detected_at=at,
                       signals=HangSignals(log_silent=True, collective_stalled=True), source_ranks=(i % 64,),
                       source_nodes=(f"node-{i % 512:04d}",),
                       localization=(Localization(method="collective_lag", ranks=(i % 64,), detail=f"seq {i}"),),
                       confidence=0.9)


def _slow(i: int, at: datetime) -> Event:
    return SlowNode(event_id=f"s{i}", outlier_id=f"s{i}", event_time=at, cluster="c", job_id=f"j{i % 40}",
                    node_id=f"node-{i % 512:04d}", ranks=(8 * (i % 64), 8 * (i % 64) + 1), metric="compute_ms",
                    value=150.0 + i % 9, baseline=100.0, slowdown=1.5, score=6.0, windows=3, detected_at=at)


def _fault(i: int, at: datetime) -> Event:
    return Fault(event_id=f"f{i}", fault_id=f"f{i}", event_time=at, cluster="c", node_id=f"node-{i % 512:04d}",
                 category="gpu_xid", family="gpu", level="fault", blame="node", rule_id="xid79",
                 evidence=f"NVRM: Xid (PCI:0000:{i % 256:02x}:00): 79, GPU has fallen off the bus.",
                 first_seen=at, count=1 + i % 4)


def _decision(i: int, at: datetime) -> Event:
    return Decision(event_id=f"d{i}", decision_id=f"d{i}", event_time=at, cluster="c", job_id=f"j{i % 40}",
                    attempt=0, issued_at=at, action="replace_nodes", nodes=(f"node-{i % 512:04d}",),
                    block_scope="task", policy_rule="explicit_node_fault",
                    reason=Reason(kind="explicit_fault", category="gpu_xid", cause_ids=(f"f{i - 1}",)))


def _ett(i: int, at: datetime) -> Event:
    return EttInterval(event_id=f"e{i}", event_time=at, cluster="c", job_id=f"j{i % 40}", attempt=0,
                       kind="productive", start=at - timedelta(seconds=10), end=at)


@dataclass
class SinkRun:
    """One sink run: its end-to-end seconds (idle exit excluded), its CPU seconds, the counters
    at each flush with the time it ended, and the final counters."""

    elapsed_s: float
    cpu_s: float
    flushes: list[tuple[float, SinkCounters]]
    counters: SinkCounters

    def steady_rate(self) -> float:
        """Rows per second between the first and the last flush (0 with fewer than two flushes)."""
        if len(self.flushes) < 2:
            return 0.0
        (t1, first), (t2, last) = self.flushes[0], self.flushes[-1]
        return (last.inserted - first.inserted) / (t2 - t1)

    def steady_seconds(self) -> dict[str, float]:
        """Seconds per stage between the first and the last flush (start-up left out)."""
        first, last = self.flushes[0][1], self.flushes[-1][1]
        return {name: getattr(last, f"{name}_s") - getattr(first, f"{name}_s")
                for name in ("poll", "decode", "insert", "commit")}


def run_sink(kafka: KafkaSettings, ch: ClickHouseSettings) -> SinkRun:
    """Run the sink until it idles; the time of each flush is taken as it happens."""
    flushes: list[tuple[float, SinkCounters]] = []

    def progress(counters: SinkCounters) -> None:
        flushes.append((time.perf_counter(), counters))

    started, cpu = time.perf_counter(), time.process_time()
    counters = ClickHouseSink(kafka, ch, "sink-bench").run(idle_exit_s=IDLE_EXIT_S, progress=progress)
    return SinkRun(time.perf_counter() - started - IDLE_EXIT_S, time.process_time() - cpu, flushes, counters)


def bare_inserts(store: Store, events: list[Event]) -> dict[str, float]:
    """Rows/s of clickhouse-connect inserting ``events`` into ``store``, row- and column-oriented.

    Only the insert calls are timed: the rows and columns are built beforehand.
    """
    rates: dict[str, float] = {}
    grouped = group_columns(events, 1)
    rows = {spec: [to_row(spec, e, 1) for e in events if spec_for(e) is spec] for spec in grouped}
    started = time.perf_counter()
    for spec, data in rows.items():
        names = [c.name for c in columns(spec)]
        store._client.insert(spec.table, data, column_names=names, database=store.database)
    rates["rows"] = len(events) / (time.perf_counter() - started)
    started = time.perf_counter()
    for spec, cols in grouped.items():
        store.insert_columns(spec, cols)
    rates["columns"] = len(events) / (time.perf_counter() - started)
    return rates


def consume_rate(kafka: KafkaSettings, total: int) -> float:
    """Messages per second a bare confluent consumer reads from the derived topics (from the start)."""
    from confluent_kafka import Consumer

    from schemas.registry import DERIVED_TOPICS

    consumer = Consumer(kafka.confluent(**{"group.id": "bare-consumer", "auto.offset.reset": "earliest",
                                           "enable.auto.commit": False}))
    consumer.subscribe([kafka.topic(t) for t in DERIVED_TOPICS])
    seen, started = 0, None
    deadline = time.monotonic() + 300
    while seen < total and time.monotonic() < deadline:
        batch = consumer.consume(num_messages=5_000, timeout=0.5)
        if batch and started is None:
            started = time.perf_counter()  # from the first message: group join excluded
        seen += sum(1 for m in batch if m.error() is None)
    elapsed = time.perf_counter() - (started or time.perf_counter())
    consumer.close()
    return seen / elapsed if elapsed > 0 else 0.0


def cpu_per_row(store: Store, events: list[Event]) -> dict[str, float]:
    """CPU microseconds per row of the sink's three steps without Kafka, measured one after another.

    ``decode`` is the sink's decoding of the wire bytes (``FAST.decode_many`` over what one
    ``consume`` call returns: msgspec mirrors; ``sink.decode_value`` for what they do not take),
    ``columns`` ``mapping.group_columns``,
    ``insert`` ``Store.insert_columns`` (chDB's own threads included: process CPU time).
    """
    values = [encode(e) for e in events]
    started = time.process_time()
    step = CONSUME_MAX_MESSAGES
    mirrors = [m for i in range(0, len(values), step) for m in FAST.decode_many(values[i:i + step])]
    decoded = [m if m is not None else decode_value(v)[0] for v, m in zip(values, mirrors, strict=True)]
    decode_s = time.process_time() - started
    started = time.process_time()
    grouped = group_columns(decoded, 1)
    columns_s = time.process_time() - started
    started = time.process_time()
    for spec, cols in grouped.items():
        store.insert_columns(spec, cols)
    insert_s = time.process_time() - started
    return {name: secs * 1e6 / len(events) for name, secs in
            (("decode", decode_s), ("columns", columns_s), ("insert", insert_s))}


def bench(rows: int, mix: str) -> list[str]:
    """Produce ``rows`` events, sink them, insert them bare; the report's lines."""
    from deploy.local_kafka import LocalKafka, LocalKafkaSettings
    from producers.kafka import EventProducer
    from streams.topics import create_topics

    events = votes(rows) if mix == "votes" else kinds(rows)
    with tempfile.TemporaryDirectory() as tmp, LocalKafka(LocalKafkaSettings(port=0, data_dir=Path(tmp))) as broker:
        kafka = KafkaSettings(bootstrap_servers=broker.bootstrap, namespace="sinkbench.")
        create_topics(kafka)
        with EventProducer(kafka) as producer:
            producer.send_all(events)
        ch = ClickHouseSettings(dsn=f"chdb://{tmp}/ch", database="bench_sink", query_server=False)
        run = run_sink(kafka, ch)
        if run.counters.inserted != rows:  # an early idle exit would otherwise read as a fast sink
            raise RuntimeError(f"the sink inserted {run.counters.inserted:,} of {rows:,} rows before idling out")
        consumed = consume_rate(kafka, rows)
        store = connect(ch.model_copy(update={"database": "bench_bare"}))
        try:
            store.migrate()
            bare = bare_inserts(store, events)
            cpu = cpu_per_row(store, events)
        finally:
            store.close()
    return _report(rows, mix, run, bare, cpu, consumed)


def _report(rows: int, mix: str, run: SinkRun, bare: dict[str, float], cpu: dict[str, float],
            consumed: float) -> list[str]:
    c = run.counters
    steady = run.steady_rate()
    share = run.steady_seconds()
    busy = sum(share.values())
    stages = ", ".join(f"{name} {secs:.2f} s ({secs / busy:.0%})" for name, secs in share.items())
    steps = ", ".join(f"{name} {us:.1f} us" for name, us in cpu.items())
    return [
        f"sink: {steady:,.0f} rows/s steady vs a bare clickhouse-connect insert {bare['columns']:,.0f} rows/s "
        f"-> {steady / bare['columns']:.1%} ({rows:,} rows, {mix}; Kafka -> chDB, {c.flushes} flushes)",
        f"  sink end to end, start-up and group join included: {rows / run.elapsed_s:,.0f} rows/s",
        f"  sink wall time between its first and last flush: {stages}",
        f"  bare inserts of the same rows: {bare['rows']:,.0f} rows/s row-oriented (list of rows), "
        f"{bare['columns']:,.0f} rows/s column-oriented (Store.insert_columns)",
        f"  bare confluent consumer of the same messages (no decoding): {consumed:,.0f} messages/s",
        f"  CPU per row without Kafka: {steps} -> at most {1e6 / sum(cpu.values()):,.0f} rows/s per core",
        f"  sink process CPU: {run.cpu_s * 1e6 / rows:.1f} us per row (all threads, start-up included)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.sink_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--mix", choices=["votes", "kinds"], default="votes")
    args = parser.parse_args(argv)
    tune_gc_for_batches()  # as `faultline sink` does
    for line in bench(args.rows, args.mix):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
