"""The chaos scenarios; each returns one :class:`Row` of the table (targets: issue 13 item 6).

Targets: 0 lost, 0 duplicated, 0 changed, ids identical to replay, 0 crashes, recovery <= 10 s.
Recovery is measured from the restart (the process launch, so it includes Python and Faust
start-up) to the first input committed again by the consumer group: an upper bound of "first
event processed", late by at most the worker's commit interval.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from confluent_kafka import Producer

from deploy.local_kafka import LocalKafka
from schemas import DeadLetter, Decision, Event, LogLine, decode, encode, topic_for
from schemas.registry import BY_NAME, DERIVED_TOPICS, TELEMETRY_TOPICS
from schemas.settings import KafkaSettings
from tests.chaos.fuzz import Message, fuzz
from tests.chaos.harness import (
    READY,
    TABLE_OF,
    Feed,
    Fleet,
    Proc,
    chdb_ids,
    committed_total,
    compare,
    end_total,
    journal,
    make_fleet,
    read_derived,
    start_actuator,
    start_sink,
    start_worker,
    wait_advance,
    wait_until,
)

RECOVERY_TARGET_S = 10.0


@dataclass
class Env:
    """Where a scenario runs: a fresh namespace on a real broker, a work directory, and the broker
    itself when the harness owns it (needed only to stop and start it)."""

    kafka: KafkaSettings
    workdir: Path
    broker: LocalKafka | None = None
    speed: float = 5.0


@dataclass
class Row:
    """One line of the chaos table."""

    scenario: str
    events_in: int = 0
    streamed: int = 0
    replayed: int = 0
    lost: int = 0
    extra: int = 0
    duplicated: int = 0
    changed: int = 0
    dead_letters: int = 0
    crashes: int = 0
    recovery_s: float | None = None
    failures: list[str] = field(default_factory=list)
    """Scenario-specific checks that failed (chDB rows, journal, silent drops, ...)."""
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        within = self.recovery_s is None or self.recovery_s <= RECOVERY_TARGET_S
        return not (self.lost or self.extra or self.duplicated or self.changed or self.crashes
                    or self.failures) and within


class Run:
    """The processes of one scenario; every one is stopped at the end and crashes are counted."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.app_id = f"{env.kafka.namespace}pipeline"
        self.procs: list[Proc] = []

    def worker(self, instance_id: str, wait: bool = True) -> Proc:
        proc = start_worker(self.env.kafka, self.env.workdir, self.app_id, instance_id, wait=wait)
        self.procs.append(proc)
        return proc

    def add(self, proc: Proc) -> Proc:
        self.procs.append(proc)
        return proc

    def worker_committed(self) -> int:
        return committed_total(self.env.kafka, self.app_id, TELEMETRY_TOPICS)

    def finish(self, row: Row) -> Row:
        row.crashes = sum(p.crashed() for p in self.procs)
        for proc in self.procs:
            if proc.crashed():
                row.notes.append(f"{proc.name} died: {proc.tail(5)!r}")
            proc.stop()
        traces = sum(p.tracebacks() for p in self.procs)
        if traces:
            row.notes.append(f"{traces} tracebacks in process logs ({self.env.workdir})")
        return row


def _streamed_row(name: str, env: Env, fleet: Fleet, feed: Feed, row: Row | None = None) -> Row:
    """Wait for the feed, read the derived topics and fill the comparison columns."""
    feed.join(900)
    row = row or Row(name)
    row.events_in = feed.sent
    if feed.error is not None:
        row.failures.append(f"producer: {feed.error}")
    observed = read_derived(env.kafka, fleet.expected)
    result = compare(observed, fleet.expected)
    row.streamed, row.replayed = result.streamed, result.replayed
    row.lost, row.extra, row.changed = len(result.lost), len(result.extra), len(result.changed)
    row.duplicated = result.duplicated
    row.dead_letters = len(observed.dead_letters)
    for label, ids in (("lost", result.lost), ("extra", result.extra), ("changed", result.changed)):
        if ids:
            row.notes.append(f"{label}: {len(ids)} ids, e.g. {ids[:3]}")
    row.notes.extend(f"changed {d}" for d in result.differences)
    return row


def baseline(env: Env) -> Row:
    """No fault injected: what the streaming path gives on this machine (the reference row)."""
    fleet = make_fleet(env.workdir)
    run = Run(env)
    run.worker("w1")
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    return run.finish(_streamed_row("baseline", env, fleet, feed))


def worker_kill(env: Env) -> Row:
    """1. kill -9 of the worker mid-stream, restart with the same --app-id and --instance-id."""
    fleet = make_fleet(env.workdir)
    run = Run(env)
    first = run.worker("w1")
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    feed.wait_sent(len(fleet.events) * 4 // 10)
    first.kill9()
    before = run.worker_committed()
    restarted = time.monotonic()
    run.worker("w1", wait=False)
    recovery = wait_advance(run.worker_committed, before, restarted)
    row = _streamed_row("worker-kill", env, fleet, feed)
    row.recovery_s = recovery
    return run.finish(row)


def burst_kill(env: Env) -> Row:
    """1b. kill -9 of the worker in the middle of a 200-line Xid burst (the issue's repro): the
    burst must still be one fault counted exactly 200, as in replay."""
    fleet = make_fleet(env.workdir, xid_lines=200)
    burst = [i for i, e in enumerate(fleet.events) if isinstance(e, LogLine) and "Xid" in e.line]
    run = Run(env)
    first = run.worker("w1")
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    feed.wait_sent(burst[len(burst) // 2])
    first.kill9()
    before = run.worker_committed()
    restarted = time.monotonic()
    run.worker("w1", wait=False)
    recovery = wait_advance(run.worker_committed, before, restarted)
    row = _streamed_row("burst-kill", env, fleet, feed)
    row.recovery_s = recovery
    row.notes.append(f"killed after {burst[len(burst) // 2]} of {len(fleet.events)} events, mid-burst")
    return run.finish(row)


def backlog(env: Env, workers: int = 1) -> Row:
    """1c. The whole fleet is on the broker before the worker starts, which then drains it at
    full speed (every recovery is such a catch-up): the answers must be replay's. With
    ``workers`` > 1 they start together in one group and share the partitions (scale-out: the
    re-keying hops between them included)."""
    fleet = make_fleet(env.workdir)
    feed = Feed(env.kafka, fleet.events, speed=1e9)
    feed.start()
    feed.join(900)
    run = Run(env)
    started = time.monotonic()
    procs = [run.worker(f"w{i + 1}", wait=False) for i in range(workers)]
    for proc in procs:
        proc.wait_log(READY)
    name = "backlog" if workers == 1 else f"backlog-{workers}"
    row = _streamed_row(name, env, fleet, feed)
    row.notes.append(f"{len(fleet.events)} events produced before {workers} worker(s) started; "
                     f"answers read {time.monotonic() - started:.0f} s after their start")
    return run.finish(row)


def sink_kill(env: Env) -> Row:
    """2. kill -9 of the ClickHouse sink mid-stream, restart: chDB FINAL ids equal replay's ids."""
    fleet = make_fleet(env.workdir)
    run = Run(env)
    run.worker("w1")
    dsn, group = f"chdb://{env.workdir / 'chdb'}", f"{env.kafka.namespace}clickhouse-sink"

    def sunk() -> int:
        return committed_total(env.kafka, group, DERIVED_TOPICS)

    sink = run.add(start_sink(env.kafka, env.workdir, dsn, group))
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    feed.wait_sent(len(fleet.events) // 2)
    wait_until(lambda: sunk() > 0, 60)
    sink.kill9()
    before = sunk()
    restarted = time.monotonic()
    sink = run.add(start_sink(env.kafka, env.workdir, dsn, group))
    recovery = wait_advance(sunk, before, restarted)
    row = _streamed_row("sink-kill", env, fleet, feed)
    row.recovery_s = recovery
    if not wait_until(lambda: sunk() >= end_total(env.kafka, DERIVED_TOPICS), 120):
        row.failures.append("sink did not commit every derived message within 120 s")
    if sink.stop() != 0:
        row.failures.append(f"sink exit code {sink.proc.returncode}: {sink.tail(5)}")
    _check_chdb(row, fleet, dsn)
    return run.finish(row)


def sink_kill_direct(env: Env) -> Row:
    """2b. kill -9 of the sink between two halves of replay's derived events, published straight
    to the derived topics (no worker: the short subset of ``make test``)."""
    fleet = make_fleet(env.workdir)
    derived = list(fleet.replayed)
    run = Run(env)
    dsn, group = f"chdb://{env.workdir / 'chdb'}", f"{env.kafka.namespace}clickhouse-sink"

    def sunk() -> int:
        return committed_total(env.kafka, group, DERIVED_TOPICS)

    sink = run.add(start_sink(env.kafka, env.workdir, dsn, group))
    half = len(derived) // 2
    send_raw(env.kafka, [(topic_for(e).name, encode(e)) for e in derived[:half]], keys=[_key(e) for e in derived[:half]])
    row = Row("sink-kill-direct", events_in=len(derived), replayed=len(fleet.expected))
    if not wait_until(lambda: sunk() > 0, 120):
        row.failures.append("the sink committed nothing within 120 s")
    sink.kill9()
    before = sunk()
    rest = derived[half:]
    send_raw(env.kafka, [(topic_for(e).name, encode(e)) for e in rest], keys=[_key(e) for e in rest])
    restarted = time.monotonic()
    sink = run.add(start_sink(env.kafka, env.workdir, dsn, group))
    row.recovery_s = wait_advance(sunk, before, restarted)
    if not wait_until(lambda: sunk() >= end_total(env.kafka, DERIVED_TOPICS), 120):
        row.failures.append("sink did not commit every derived message within 120 s")
    if sink.stop() != 0:
        row.failures.append(f"sink exit code {sink.proc.returncode}: {sink.tail(5)}")
    _check_chdb(row, fleet, dsn)
    row.streamed = sum(len(t["final_ids"]) for t in chdb_ids(dsn).values())
    return run.finish(row)


def _key(event: Event) -> str | None:
    return topic_for(event).key_of(event)


def _check_chdb(row: Row, fleet: Fleet, dsn: str) -> None:
    tables = chdb_ids(dsn)
    for topic, (table, column) in TABLE_OF.items():
        wanted = {str(getattr(e, column)) for e in fleet.replayed if topic_for(e).name == topic}
        final_ids = tables[table]["final_ids"]
        lost, extra = wanted - set(final_ids), set(final_ids) - wanted
        doubled = len(final_ids) - len(set(final_ids))
        if lost or extra or doubled:
            row.failures.append(f"chDB {table}: {len(lost)} lost, {len(extra)} extra, {doubled} doubled (FINAL)")
        row.notes.append(f"chDB {table}: {len(final_ids)} FINAL / {tables[table]['rows']} rows, replay {len(wanted)}")


def actuator_kill(env: Env) -> Row:
    """3. kill -9 of the actuator mid-stream, restart: every decision applied exactly once."""
    fleet = make_fleet(env.workdir)
    run = Run(env)
    run.worker("w1")
    group = f"{env.kafka.namespace}actuator"
    actuator = run.add(start_actuator(env.kafka, env.workdir, group, delay_s=2.0))
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    row = Row("actuator-kill")
    if not wait_until(lambda: len(journal(env.workdir)) >= 1, 600):
        row.failures.append("no decision applied before the kill")
    actuator.kill9()
    row.notes.append(f"killed after {len(journal(env.workdir))} applied, {feed.sent}/{len(fleet.events)} sent")
    before = committed_total(env.kafka, group, ["decisions"])
    restarted = time.monotonic()
    run.add(start_actuator(env.kafka, env.workdir, group, delay_s=0.0))
    pending = end_total(env.kafka, ["decisions"]) > before
    recovery = wait_advance(lambda: committed_total(env.kafka, group, ["decisions"]), before, restarted,
                            timeout_s=120 if pending else 1)
    row = _streamed_row("actuator-kill", env, fleet, feed, row)
    row.recovery_s = recovery
    wanted = {e.decision_id for e in fleet.replayed if isinstance(e, Decision) and not (e.guard and e.guard.refused)}
    wait_until(lambda: set(journal(env.workdir)) >= wanted, 60)
    applied = Counter(journal(env.workdir))
    missing, unexpected = wanted - set(applied), set(applied) - wanted
    twice = [k for k, n in applied.items() if n > 1]
    if missing or unexpected or twice:
        row.failures.append(f"journal: {len(missing)} missing, {len(unexpected)} unexpected, {len(twice)} applied twice")
    row.notes.append(f"journal: {len(applied)} decisions applied, replay has {len(wanted)} unrefused")
    return run.finish(row)


def broker_restart(env: Env) -> Row:
    """4. broker stop/start mid-stream; the idempotent producer keeps going."""
    if env.broker is None:
        raise RuntimeError("broker-restart needs a broker the harness owns (not FAULTLINE_TEST_KAFKA_BOOTSTRAP)")
    fleet = make_fleet(env.workdir)
    run = Run(env)
    run.worker("w1")
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    feed.wait_sent(len(fleet.events) * 4 // 10)
    before = run.worker_committed()
    env.broker.stop()
    time.sleep(3)  # an outage, not a blip: the producer and the worker must notice the broker gone
    env.broker.start()
    restarted = time.monotonic()
    recovery = wait_advance(run.worker_committed, before, restarted)
    row = _streamed_row("broker-restart", env, fleet, feed)
    row.recovery_s = recovery
    return run.finish(row)


def join_leave(env: Env) -> Row:
    """5. a second worker joins mid-stream (same app id), and leaves again later."""
    fleet = make_fleet(env.workdir)
    run = Run(env)
    run.worker("w1")
    feed = Feed(env.kafka, fleet.events, env.speed)
    feed.start()
    feed.wait_sent(len(fleet.events) * 3 // 10)
    before = run.worker_committed()
    joined = time.monotonic()
    second = run.worker("w2", wait=False)
    join_s = wait_advance(run.worker_committed, before, joined)
    second.wait_log(b"Worker]: Ready", 120)
    feed.wait_sent(len(fleet.events) * 65 // 100)
    before = run.worker_committed()
    left = time.monotonic()
    second.stop()
    leave_s = wait_advance(run.worker_committed, before, left)
    row = _streamed_row("join-leave", env, fleet, feed)
    row.recovery_s = None if join_s is None or leave_s is None else max(join_s, leave_s)
    row.notes.append(f"recovery after join {join_s}, after leave {leave_s}")
    return run.finish(row)


# --- 6. fuzz -------------------------------------------------------------------------------


def _valid_samples(fleet: Fleet) -> tuple[list[Message], list[Message]]:
    """Valid (topic, value) inputs of every input topic, and valid decisions."""
    by_topic: dict[str, list[Message]] = {}
    for event in fleet.events:
        by_topic.setdefault(topic_for(event).name, []).append((topic_for(event).name, encode(event)))
    inputs = [m for msgs in by_topic.values() for m in msgs[:50]]
    decisions = [("decisions", encode(e)) for e in fleet.replayed if isinstance(e, Decision)]
    return inputs, decisions


def send_raw(kafka: KafkaSettings, messages: list[Message],
             keys: list[str | None] | None = None) -> list[tuple[str, int, int]]:
    """Produce raw values (keyed by ``keys``, else spread over partitions); (physical topic,
    partition, offset) of each, in order."""
    where: list[tuple[str, int, int] | None] = [None] * len(messages)
    producer = Producer(kafka.confluent(**{"enable.idempotence": True, "linger.ms": 20,
                                           "message.max.bytes": 1_000_000}))

    def delivered(index: int) -> Callable[[object, object], None]:
        def report(err: object, msg: object) -> None:
            if err is None:
                where[index] = (msg.topic(), msg.partition(), msg.offset())  # type: ignore[attr-defined]
        return report

    for i, (topic, value) in enumerate(messages):
        while True:
            try:
                key = f"fuzz-{i % 97}" if keys is None else keys[i]
                producer.produce(kafka.topic(topic), value=value, key=key, on_delivery=delivered(i))
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    remaining = producer.flush(120)
    if remaining:
        raise RuntimeError(f"{remaining} fuzz messages undelivered")
    missing = [i for i, w in enumerate(where) if w is None]
    if missing:
        raise RuntimeError(f"{len(missing)} fuzz messages failed delivery, e.g. #{missing[0]}")
    return [w for w in where if w is not None]


def _dead_lettered(kafka: KafkaSettings, letters: list[DeadLetter]) -> set[tuple[str, int, int]]:
    out = set()
    for letter in letters:
        physical = letter.source_topic
        if not physical.startswith(kafka.namespace) and physical in BY_NAME:
            physical = kafka.topic(physical)
        out.add((physical, letter.partition, letter.offset))
    return out


def fuzz_run(env: Env, count: int = 10_000, decisions: bool = True, name: str = "fuzz") -> Row:
    """6. ``count`` fuzzed inputs over every input topic (and decisions, read by the actuator):
    every one the decoder rejects is dead-lettered, nothing crashes, and a good event after them
    is processed."""
    from tests.conftest import consume_topic

    fleet = make_fleet(env.workdir, duration_s=120, tail_s=0)
    run = Run(env)
    run.worker("w1")
    inputs, valid_decisions = _valid_samples(fleet)
    topics = list(TELEMETRY_TOPICS)
    messages = fuzz(inputs, topics, count * 9 // 10 if decisions else count)
    if decisions:
        run.add(start_actuator(env.kafka, env.workdir, f"{env.kafka.namespace}actuator", delay_s=0.0))
        messages += fuzz(valid_decisions, ["decisions"], count - len(messages), seed=80)
    row = Row(name, events_in=len(messages))
    where = send_raw(env.kafka, messages)
    must = {w for w, (_, value) in zip(where, messages, strict=True) if isinstance(decode(value), DeadLetter)}
    row.notes.append(f"{len(must)} of {len(messages)} rejected by schemas.decode")

    letters: list[DeadLetter] = []
    found: set[tuple[str, int, int]] = set()
    read = [0]

    def read_letters(raw: list[tuple[str | None, bytes]]) -> bool:
        fresh = [e for _, v in raw[read[0]:] if isinstance(e := decode(v), DeadLetter)]
        read[0] = len(raw)  # decode each message once: the topic holds thousands
        letters.extend(fresh)
        found.update(_dead_lettered(env.kafka, fresh))
        return must <= found

    consume_topic(env.kafka, "deadletter", stop_when=read_letters, timeout_s=300)
    row.dead_letters = len(letters)
    silent = must - found
    if silent:
        row.failures.append(f"{len(silent)} rejected inputs never dead-lettered, e.g. {sorted(silent)[:3]}")
    good = _good_line(fleet)
    send_raw(env.kafka, [("telemetry.kernel", encode(good))])
    got = consume_topic(env.kafka, "faults.classified", timeout_s=120,
                        stop_when=lambda raw: any(getattr(decode(v), "node_id", None) == good.node_id for _, v in raw))
    if not any(getattr(decode(v), "node_id", None) == good.node_id for _, v in got):
        row.failures.append("the good event after the fuzz was not classified within 120 s")
    return run.finish(row)


def _good_line(fleet: Fleet) -> LogLine:
    """An Xid 79 kernel line of the fleet on a node no fuzzed input names."""
    line = next(e for e in fleet.events if isinstance(e, LogLine) and "Xid" in e.line)
    return line.model_copy(update={"event_id": str(uuid.uuid4()), "node_id": "chaos-good-node"})


SCENARIOS: dict[str, Callable[[Env], Row]] = {
    "baseline": baseline,
    "worker-kill": worker_kill,
    "burst-kill": burst_kill,
    "backlog": backlog,
    "backlog-2": lambda env: backlog(env, workers=2),
    "sink-kill": sink_kill,
    "actuator-kill": actuator_kill,
    "broker-restart": broker_restart,
    "join-leave": join_leave,
    "fuzz": fuzz_run,
    "sink-kill-direct": sink_kill_direct,
}
