"""The chaos harness: a fleet and its replay, processes to break, a paced feed, a comparison.

Nothing here is mocked: processes are the real ``faultline`` commands on a real broker, the
expected output is ``faultline replay`` (``streams.replay.replay``) of the very input streamed.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, KafkaException, TopicPartition

from producers.kafka import EventProducer
from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import DeadLetter, Event, Fault, Incident, decode, encode, topic_for
from schemas.settings import KafkaSettings
from streams.replay import replay

REPO = Path(__file__).resolve().parents[2]
COMPARED = ("faults.classified", "hangs.verdicts", "nodes.outliers", "incidents", "decisions")
"""Derived topics whose events must be identical (ids and final content) to replay's."""
TABLE_OF = {"faults.classified": ("faults", "fault_id"), "hangs.verdicts": ("hang_verdicts", "verdict_id"),
            "nodes.outliers": ("slow_nodes", "outlier_id"), "incidents": ("incidents", "incident_id"),
            "decisions": ("decisions", "decision_id")}
"""ClickHouse table and dedup column of each compared topic (sinks/clickhouse/mapping.py)."""
READY = b"Worker]: Ready"
STARTED: list[Proc] = []
"""Every process the harness started, so a failing scenario still leaves none behind (stop_all)."""


# --- the input and what replay derives from it -------------------------------------------


@dataclass
class Fleet:
    """A simulated fleet's events, the JSON-lines file they were written to, and replay's output."""

    events: list[Event]
    path: Path
    replayed: list[Event]
    """Replay's derived events that land on the :data:`COMPARED` topics, in output order."""

    @property
    def expected(self) -> dict[str, str]:
        """Derived id -> wire form of its final version, per replay."""
        return final(self.replayed)


def make_fleet(workdir: Path, duration_s: float = 300.0, start: datetime | None = None,
               tail_s: float = 240.0, xid_lines: int = 20, nodes: int = 8, jobs: int = 2) -> Fleet:
    """``nodes`` x 8 GPUs in ``jobs`` jobs of equal size (default 8 nodes, 2 jobs of 4): a hang in
    job 0, a slow node in job 1, an Xid 79 burst of ``xid_lines`` lines, one every 0.5 s, on node 5.

    The faults fall in the first ``duration_s``; the fleet then runs ``tail_s`` more, so that the
    event time of the stream itself passes every quiet window (a burst closes 180 s after its
    last line) and the streaming worker reaches the final answers replay gives at its end.
    ``start`` defaults to 30 s ago so that decisions are not expired for an actuator acting now.
    """
    begin = start or (datetime.now(UTC) - timedelta(seconds=30)).replace(microsecond=0)
    run = simulate(FleetConfig(nodes=nodes, jobs=jobs, nodes_per_job=nodes // jobs, duration_s=duration_s + tail_s, seed=13,
                               cluster="chaos", start=begin),
                   [sc.Hang(job=0, at_s=duration_s / 2, source="single"),
                    sc.SlowNode(job=1, node=1, at_s=duration_s / 4, slowdown=1.4),
                    sc.Xid(node=5, gpu=2, xid=79, at_s=duration_s / 3, repeats=xid_lines, interval_s=0.5)])
    path = workdir / "fleet.jsonl"
    run.write_jsonl(path)
    out = io.BytesIO()
    replay(path, out)
    derived = [decode(line) for line in out.getvalue().splitlines()]
    kept = [e for e in derived if isinstance(e, Event) and not isinstance(e, DeadLetter)
            and topic_for(e).name in COMPARED]
    return Fleet(events=list(run.events), path=path, replayed=kept)


def final(events: Sequence[Event]) -> dict[str, str]:
    """Id -> wire form of the version a consumer keeps: a fault's highest ``count``, an
    incident's latest ``last_seen``, otherwise the last one read (per key, Kafka keeps order)."""
    out: dict[str, Event] = {}
    for event in events:
        old = out.get(event.event_id)
        if isinstance(old, Fault) and isinstance(event, Fault) and old.count >= event.count:
            continue
        if isinstance(old, Incident) and isinstance(event, Incident) and old.last_seen > event.last_seen:
            continue
        out[event.event_id] = event
    return {k: encode(v).decode() for k, v in out.items()}


# --- processes --------------------------------------------------------------------------


class Proc:
    """A subprocess with its own log; ``crashed`` is True when it exited without being told to."""

    def __init__(self, name: str, argv: list[str], log_path: Path) -> None:
        self.name = name
        self.log_path = log_path
        self.told_to_exit = False
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(argv, cwd=REPO, stdout=self._log, stderr=subprocess.STDOUT)
        self.started = time.monotonic()
        STARTED.append(self)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def crashed(self) -> bool:
        return self.proc.poll() is not None and not self.told_to_exit

    def wait_log(self, marker: bytes, timeout_s: float = 120.0) -> None:
        """Block until ``marker`` is in the log; RuntimeError if the process exits or time runs out."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if marker in self.log_path.read_bytes():
                return
            if not self.alive():
                raise RuntimeError(f"{self.name} exited {self.proc.returncode}:\n{self.tail()}")
            time.sleep(0.3)
        raise RuntimeError(f"{self.name}: no {marker!r} after {timeout_s}s:\n{self.tail()}")

    def kill9(self) -> None:
        """SIGKILL: no flush, no commit, no goodbye."""
        self.told_to_exit = True
        if self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
        self._log.close()

    def stop(self, timeout_s: float = 60.0) -> int:
        """SIGTERM and wait (SIGKILL after ``timeout_s``); the exit code."""
        self.told_to_exit = True
        if self.alive():
            self.proc.terminate()
        if self.alive():
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        return int(self.proc.returncode)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def tracebacks(self) -> int:
        """How many Python tracebacks the process logged (errors short of a crash)."""
        return self.log_path.read_text(errors="replace").count("Traceback (most recent call last)")


def stop_all() -> None:
    """Stop every process the harness started that still runs."""
    for proc in STARTED:
        if proc.alive():
            proc.stop(timeout_s=20)
    STARTED.clear()


def _cli(kafka: KafkaSettings, *args: str) -> list[str]:
    return [sys.executable, "-m", "streams.cli", "--bootstrap", kafka.bootstrap_servers,
            "--namespace", kafka.namespace, *args]


def start_worker(kafka: KafkaSettings, workdir: Path, app_id: str, instance_id: str, wait: bool = True) -> Proc:
    """``faultline worker`` with a static membership id; a fresh log per start (the ready marker)."""
    log = workdir / f"worker-{instance_id}-{uuid.uuid4().hex[:6]}.log"
    proc = Proc(f"worker {instance_id}", _cli(kafka, "worker", "--loglevel", "info", "--app-id", app_id,
                                              "--instance-id", instance_id), log)
    if wait:
        proc.wait_log(READY)
    return proc


def start_sink(kafka: KafkaSettings, workdir: Path, dsn: str, group: str) -> Proc:
    """``faultline sink`` into an embedded chDB path."""
    log = workdir / f"sink-{uuid.uuid4().hex[:6]}.log"
    # `faultline sink` reads its own --bootstrap/--namespace (the global ones do not reach it)
    argv = _cli(kafka, "sink", "--bootstrap", kafka.bootstrap_servers, "--namespace", kafka.namespace,
                "--dsn", dsn, "--group-id", group, "--instance-id", f"{group}-1")
    return Proc("sink", argv, log)


def start_actuator(kafka: KafkaSettings, workdir: Path, group: str, delay_s: float = 0.5) -> Proc:
    """The dry-run actuator; applied decisions are journaled (fsynced) in ``workdir/journal.jsonl``."""
    argv = [sys.executable, "-m", "sinks.actuators.cli", "--actuator", "dry-run",
            "--bootstrap-servers", kafka.bootstrap_servers, "--namespace", kafka.namespace,
            "--group-id", group, "--store", str(workdir / "applied.sqlite"),
            "--journal", str(workdir / "journal.jsonl"), "--delay-s", str(delay_s), "--session-timeout-ms", "6000"]
    return Proc("actuator", argv, workdir / f"actuator-{uuid.uuid4().hex[:6]}.log")


def journal(workdir: Path) -> list[str]:
    """Decision ids the dry-run actuator applied, one per side effect."""
    path = workdir / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line)["decision_id"] for line in path.read_text().splitlines() if line.strip()]


# --- input --------------------------------------------------------------------------------


class Feed(threading.Thread):
    """Sends events in order at ``speed`` x their event-time pace through the idempotent producer."""

    def __init__(self, kafka: KafkaSettings, events: Sequence[Event], speed: float = 5.0) -> None:
        super().__init__(daemon=True)
        self.kafka = kafka
        self.events = events
        self.speed = speed
        self.sent = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with EventProducer(self.kafka, **{"message.timeout.ms": 600_000}) as producer:
                started = time.monotonic()
                first = self.events[0].event_time
                for event in self.events:
                    ahead = (event.event_time - first).total_seconds() / self.speed - (time.monotonic() - started)
                    if ahead > 0:
                        producer.flush_pending(ahead)
                    producer.send(event)
                    self.sent += 1
                producer.flush(600)
        except BaseException as exc:  # noqa: BLE001 - reported by the scenario, not lost in a thread
            self.error = exc

    def wait_sent(self, count: int, timeout_s: float = 600.0) -> None:
        deadline = time.monotonic() + timeout_s
        while self.sent < count and self.is_alive() and time.monotonic() < deadline:
            time.sleep(0.1)


# --- observation ---------------------------------------------------------------------------


def committed_total(kafka: KafkaSettings, group: str, topics: Sequence[str]) -> int:
    """Sum of ``group``'s committed offsets over every partition of ``topics`` (logical names);
    -1 while the broker cannot say (coordinator moving or loading after a restart)."""
    consumer = Consumer(kafka.confluent(**{"group.id": group, "enable.auto.commit": False}))
    try:
        return _committed(consumer, kafka, topics)
    except KafkaException:
        return -1
    finally:
        consumer.close()


def _committed(consumer: Consumer, kafka: KafkaSettings, topics: Sequence[str]) -> int:
    meta = consumer.list_topics(timeout=10)
    names = [kafka.topic(t) for t in topics]
    parts = [TopicPartition(n, p) for n in names if n in meta.topics for p in meta.topics[n].partitions]
    return sum(tp.offset for tp in consumer.committed(parts, timeout=10) if tp.offset >= 0)


def end_total(kafka: KafkaSettings, topics: Sequence[str]) -> int:
    """Sum of the high watermarks of every partition of ``topics``."""
    consumer = Consumer(kafka.confluent(**{"group.id": f"chaos-{uuid.uuid4().hex}"}))
    try:
        meta = consumer.list_topics(timeout=10)
        total = 0
        for name in (kafka.topic(t) for t in topics):
            for p in meta.topics[name].partitions if name in meta.topics else ():
                total += consumer.get_watermark_offsets(TopicPartition(name, p), timeout=10)[1]
        return total
    finally:
        consumer.close()


def wait_advance(probe: Callable[[], int], baseline: int, since: float, timeout_s: float = 120.0) -> float | None:
    """Seconds from ``since`` (monotonic) until ``probe()`` exceeds ``baseline``; None on timeout."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if probe() > baseline:
            return time.monotonic() - since
        time.sleep(0.25)
    return None


def wait_until(condition: Callable[[], bool], timeout_s: float) -> bool:
    """Poll ``condition`` until it holds (True) or ``timeout_s`` passes (False)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return condition()


@dataclass
class Observed:
    """What the derived topics held: every compared event read, and the dead letters."""

    events: list[Event] = field(default_factory=list)
    raw: list[tuple[str, bytes]] = field(default_factory=list)
    dead_letters: list[DeadLetter] = field(default_factory=list)
    complete: bool = False


def read_derived(kafka: KafkaSettings, expected: dict[str, str], timeout_s: float = 180.0,
                 idle_s: float = 5.0) -> Observed:
    """Read the compared topics and ``deadletter`` from the beginning until every expected id has
    its expected final form (then ``idle_s`` more of silence, to catch late duplicates) or time out."""
    consumer = Consumer(kafka.confluent(**{"group.id": f"chaos-read-{uuid.uuid4().hex}",
                                           "auto.offset.reset": "earliest", "enable.auto.commit": False}))
    consumer.subscribe([kafka.topic(t) for t in (*COMPARED, "deadletter")])
    seen = Observed()
    deadline = time.monotonic() + timeout_s
    last_new = checked = time.monotonic()
    try:
        while time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and not msg.error():
                _take(seen, msg.topic() or "", msg.value() or b"")
                last_new = time.monotonic()
            if not seen.complete and time.monotonic() - checked > 1.0:
                checked = time.monotonic()
                got = final(seen.events)
                seen.complete = all(got.get(k) == v for k, v in expected.items())
            if seen.complete and time.monotonic() - last_new > idle_s:
                break
    finally:
        consumer.close()
    return seen


def _take(seen: Observed, topic: str, value: bytes) -> None:
    event = decode(value)
    if topic.endswith("deadletter"):
        if isinstance(event, DeadLetter):
            seen.dead_letters.append(event)
        return
    seen.raw.append((topic, value))
    if isinstance(event, Event) and not isinstance(event, DeadLetter):
        seen.events.append(event)


@dataclass
class Comparison:
    """Streamed vs replayed derived events on the compared topics."""

    streamed: int
    replayed: int
    lost: list[str]
    extra: list[str]
    changed: list[str]
    duplicated: int
    differences: list[str] = field(default_factory=list)
    """For each changed id: its kind and the fields whose values differ (streamed vs replayed)."""


def compare(observed: Observed, expected: dict[str, str]) -> Comparison:
    """Ids lost or extra, ids whose final content differs, and exact re-deliveries (same bytes)."""
    got = final(observed.events)
    wire = [encode(e) for e in observed.events]
    duplicated = len(wire) - len(set(wire))
    changed = sorted(k for k in set(got) & set(expected) if got[k] != expected[k])
    return Comparison(streamed=len(got), replayed=len(expected),
                      lost=sorted(set(expected) - set(got)), extra=sorted(set(got) - set(expected)),
                      changed=changed, duplicated=duplicated,
                      differences=[difference(k, got[k], expected[k]) for k in changed])


def _around_difference(ours: str, theirs: str, width: int = 60) -> str:
    """``...ours... != ...theirs...``, each cut to ``width`` characters from where they part."""
    start = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs)))
    start = max(0, start - width // 3)
    return f"{ours[start:start + width]} != {theirs[start:start + width]}"


def difference(event_id: str, streamed: str, replayed: str) -> str:
    """``kind id: field streamed != replayed, ...`` for one changed id (values cut to 80 chars)."""
    ours, theirs = json.loads(streamed), json.loads(replayed)
    fields = sorted(f for f in set(ours) | set(theirs) if ours.get(f) != theirs.get(f))
    shown = ", ".join(f"{f}: {_around_difference(str(ours.get(f)), str(theirs.get(f)))}" for f in fields)
    return f"{theirs.get('schema', '?')} {event_id[:12]}: {shown}"


_CH_QUERY = """
import json, sys
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import connect
tables = json.loads(sys.argv[2])
store = connect(ClickHouseSettings(dsn=sys.argv[1], query_server=False), readonly=True)
out = {}
for table, column in tables:
    _, rows = store.query(f"SELECT toString({column}) FROM `{store.database}`.`{table}` FINAL")
    _, total = store.query(f"SELECT count() FROM `{store.database}`.`{table}`")
    out[table] = {"final_ids": [r[0] for r in rows], "rows": int(total[0][0])}
print(json.dumps(out))
"""


def chdb_ids(dsn: str) -> dict[str, Any]:
    """Per compared table: ids FINAL and the raw row count, read in a subprocess (chDB opens one
    path per process, and the caller may already hold another)."""
    tables = json.dumps(list(TABLE_OF.values()))
    done = subprocess.run([sys.executable, "-c", _CH_QUERY, dsn, tables], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"chDB query failed: {done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
