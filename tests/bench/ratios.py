"""Throughput ratios measured side by side in one run (``make bench``; issue: a 100,000-GPU fleet).

Absolute rates swing with whatever else the machine runs; a ratio of two things measured one
after the other on the same input is steadier. Each part prints its two rates and the ratio:

1. ``faultline replay`` against a bare ``json.loads`` loop over the same file;
2. the Faust worker end to end (first message produced to its consumer group's committed
   offsets reaching the end of every input topic) against a plain confluent consumer reading
   the same topics from the same broker;
3. the ClickHouse sink (Kafka -> chDB) against a bare clickhouse-connect insert of the same rows
   into the same chDB;
4. the largest job the job pipeline keeps up with in real time (nodes), and its state record:
   values, the largest, bytes per snapshot and the time to load it (``--part job``).

    python -m tests.bench.ratios [--part replay|worker|sink|job] [--events N]
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _fleet_file(directory: Path, nodes: int, duration_s: float, jobs: int = 4) -> Path:
    from producers.simulator import FleetConfig, simulate
    from producers.simulator import scenarios as sc

    run = simulate(FleetConfig(nodes=nodes, jobs=jobs, duration_s=duration_s, seed=7, cluster="bench"),
                   [sc.Hang(job=0, at_s=duration_s / 2, source="single"),
                    sc.Xid(node=1, gpu=0, xid=13, at_s=60, repeats=200, interval_s=0.2)])
    path = directory / f"fleet-{nodes}.jsonl"
    run.write_jsonl(path)
    return path


def replay_ratio(directory: Path) -> str:
    """Replay events/s against json.loads over the same file."""
    from streams.replay import replay

    path = _fleet_file(directory, nodes=32, duration_s=900)
    lines = path.read_bytes().splitlines()
    started = time.perf_counter()
    for line in lines:
        json.loads(line)
    raw_rate = len(lines) / (time.perf_counter() - started)
    started = time.perf_counter()
    result = replay(path, io.BytesIO())
    rate = result.events / (time.perf_counter() - started)
    return (f"replay: {rate:,.0f} events/s vs json.loads {raw_rate:,.0f} lines/s -> {rate / raw_rate:.1%} "
            f"({result.events:,} events, {result.derived:,} derived; start-up included)")


def ett_overhead(directory: Path, rounds: int = 3) -> str:
    """CPU time of the job pipeline with and without the ETT stage, interleaved rounds (best of each)."""
    from schemas import decode
    from streams import topology
    from streams.core.topology import LocalRunner
    from streams.ett.detector import EttDetector
    from streams.settings import DetectionSettings

    path = _fleet_file(directory, nodes=16, duration_s=900)
    events = [e for line in path.read_bytes().splitlines() if (e := decode(line)).KIND != "dead_letter"]
    settings = DetectionSettings()
    full = topology.build(settings)
    without_stages = [d for d in topology.job_stages(settings) if not isinstance(d, EttDetector)]
    without = topology.Topology(tuple(
        s if s.name != "jobs" else topology.Stage(s.name, s.inputs, s.key, topology.JobPipeline(
            without_stages, settings.lateness_s, settings.max_skew_s, settings.path_skew_s, settings.dead_node_s),
            s.outputs, s.redirect)
        for s in full.stages))
    best = {"with": float("inf"), "without": float("inf")}
    for _ in range(rounds):
        for name, built in (("with", topology.build(settings)), ("without", without)):
            runner = LocalRunner(built)
            started = time.process_time()
            for event in events:
                runner.feed(event)
            runner.flush(events[-1].event_time)
            best[name] = min(best[name], time.process_time() - started)
    extra = best["with"] / best["without"] - 1
    return (f"ETT stage: {extra:+.1%} CPU time on the whole chain ({len(events):,} events; best of {rounds} "
            f"interleaved rounds: {best['with']:.2f} s with, {best['without']:.2f} s without)")


def job_capacity(max_nodes: int = 1024) -> str:
    """The largest job (nodes x 8 GPUs) whose events the job pipeline processes faster than it
    emits them, and its state record (``streams.state_record``) per job size: values and the
    largest of them, bytes written by a snapshot (the first, and one ~12 s of event time later
    that skips the parts already stored), and the time to load it back (a restart's recovery)."""
    from producers.simulator import FleetConfig, simulate
    from streams import topology
    from streams.core.topology import LocalRunner

    lines = []
    largest = 0
    for nodes in (64, 128, 256, 512, 1024):
        if nodes > max_nodes:
            break
        duration_s = 120.0
        run = simulate(FleetConfig(nodes=nodes, jobs=1, nodes_per_job=nodes, duration_s=duration_s, seed=3,
                                   cluster="cap"), [])
        runner = LocalRunner(topology.build())
        record = _JobRecord()
        elapsed = 0.0
        for i, event in enumerate(run.events):
            started = time.perf_counter()
            runner.feed(event)
            elapsed += time.perf_counter() - started
            if i in (len(run.events) * 9 // 10, len(run.events) - 1):  # two snapshots ~12 s apart
                record.snapshot(runner, i)
        produced_rate = len(run.events) / duration_s
        rate = len(run.events) / elapsed
        keeps_up = rate >= produced_rate
        largest = nodes if keeps_up else largest
        lines.append(f"  {nodes:5d} nodes: emits {produced_rate:,.0f} events/s, processed {rate:,.0f} events/s "
                     f"({rate / produced_rate:.2f}x real time); {record.summary()}")
        if not keeps_up:
            break
    return "\n".join([f"largest job kept up with in real time: {largest} nodes", *lines])


class _Changelog(dict[str, Any]):
    """What ``StateTable`` uses of a Faust table, recording the changelog values it writes."""

    def __init__(self) -> None:
        super().__init__()
        self.data = self
        self.sent: list[tuple[str, int]] = []
        """(key, value bytes) of every changelog message (0: a tombstone)."""

    def send_changelog(self, partition: int, key: str, value: str | None, value_serializer: str | None = None) -> None:
        self.sent.append((key, len(value or "")))


class _JobRecord:
    """A job's state saved through a ``StateTable`` (as the worker saves it), then loaded back."""

    def __init__(self) -> None:
        from streams import topology
        from streams.settings import DetectionSettings
        from streams.state_table import StateTable

        self.detector = topology.job_pipeline(DetectionSettings())
        self.changelog = _Changelog()
        self.table = StateTable(self.changelog, self.detector, every_s=10)  # type: ignore[arg-type]
        self.snapshots: list[list[tuple[str, int]]] = []
        self.key = ""
        self.snapshot_cpu_s = 0.0

    def snapshot(self, runner: Any, offset: int) -> None:
        """Save the job's live state as the worker does (dump, split, write the new parts)."""
        from streams.shell import Message

        self.key, state = next((key, v) for (stage, key), v in runner.states.items() if stage == "jobs")
        before = len(self.changelog.sent)
        started = time.process_time()
        self.table.get(self.key)
        self.table.put(self.key, state, Message("in", 0, offset, self.key, b""), [], datetime.now(UTC), True)
        self.table.sweep(0, datetime.now(UTC), self.key, force=True)
        self.snapshot_cpu_s = time.process_time() - started
        self.snapshots.append(self.changelog.sent[before:])

    def summary(self) -> str:
        from streams.state_record import unpack_state
        from streams.state_table import StateTable

        started, started_cpu = time.perf_counter(), time.process_time()
        StateTable(self.changelog, self.detector, every_s=10).get(self.key)  # type: ignore[arg-type]
        load_s, load_cpu_s = time.perf_counter() - started, time.process_time() - started_cpu
        head = unpack_state(self.changelog[self.key])
        values = [len(v) for v in self.changelog.values()]
        first, later = (sum(size for _, size in sent) for sent in self.snapshots)
        rewritten = sum(1 for key, size in self.snapshots[1] if size and key != self.key)
        parts = len(head.get("parts", ()))
        return (f"state {sum(values) / 1e6:.2f} MB packed in {len(values)} values, largest {max(values) / 1e6:.3f} MB; "
                f"snapshot writes {first / 1e6:.2f} MB, a later one {later / 1e6:.2f} MB "
                f"({parts - rewritten} of {parts} parts unchanged) in {self.snapshot_cpu_s:.2f} s CPU; "
                f"load {load_s:.2f} s ({load_cpu_s:.2f} s CPU)")


def worker_ratio(events: int) -> str:
    """The Faust worker end to end against a plain consumer of the same topics, with its
    processing guarantee (effectively once) and without it (at least once), side by side."""
    from confluent_kafka import Consumer, TopicPartition

    from deploy.local_kafka import LocalKafka, LocalKafkaSettings
    from producers.kafka import EventProducer
    from schemas import decode
    from schemas.registry import TELEMETRY_TOPICS
    from schemas.settings import KafkaSettings
    from streams.topics import create_topics

    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, LocalKafka(LocalKafkaSettings(port=0, data_dir=Path(tmp))) as broker:
        path = _fleet_file(Path(tmp), nodes=16, duration_s=max(60.0, events / 150))
        fleet = [decode(line) for line in path.read_bytes().splitlines()][:events]
        plain = 0.0
        for guarantee in ("effectively_once", "at_least_once"):  # each on its own copy of the topics
            kafka = KafkaSettings(bootstrap_servers=broker.bootstrap, namespace=f"ratio-{guarantee}.")
            app_id = f"{kafka.namespace}pipeline"
            create_topics(kafka, app_id)
            with EventProducer(kafka) as producer:
                producer.send_all(fleet)  # type: ignore[arg-type]
            topics = [kafka.topic(t) for t in TELEMETRY_TOPICS]
            consumer = Consumer(kafka.confluent(**{"group.id": uuid.uuid4().hex, "auto.offset.reset": "earliest"}))
            ends = {(t, p): _high_watermark(consumer, TopicPartition(t, p))
                    for t in topics for p in range(kafka.partitions)}
            total = sum(ends.values())
            if not plain:
                consumer.subscribe(topics)
                started, seen = time.perf_counter(), 0
                while seen < total:
                    msg = consumer.poll(0.5)
                    seen += msg is not None and not msg.error()
                plain = total / (time.perf_counter() - started)
            consumer.close()
            log = Path(tmp) / f"worker-{guarantee}.log"
            started = time.perf_counter()
            worker = subprocess.Popen([sys.executable, "-m", "streams.cli", "--bootstrap", broker.bootstrap,
                                       "--namespace", kafka.namespace, "worker", "--app-id", app_id,
                                       "--processing-guarantee", guarantee],
                                      cwd=REPO, stdout=open(log, "wb"), stderr=subprocess.STDOUT)
            try:
                _wait_committed(kafka, app_id, ends, timeout_s=900)
                elapsed = time.perf_counter() - started
            finally:
                worker.terminate()
                worker.wait(60)
            rate = total / elapsed
            lines.append(f"  {guarantee}: {rate:,.0f} events/s -> {rate / plain:.1%} of the plain consumer")
    return "\n".join([f"worker end to end vs a plain consumer {plain:,.0f} events/s ({total:,} events, worker "
                      "start-up included, one worker on the broker's machine):", *lines])


def _high_watermark(consumer: Any, where: Any, timeout_s: float = 60.0) -> int:
    """The partition's end offset, asked again while the broker is still electing its leader
    (a topic created a moment ago answers NOT_LEADER_FOR_PARTITION for a while)."""
    from confluent_kafka import KafkaException

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return int(consumer.get_watermark_offsets(where, timeout=10)[1])
        except KafkaException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _wait_committed(kafka: object, group: str, ends: dict[tuple[str, int], int], timeout_s: float) -> None:
    from confluent_kafka import Consumer, KafkaException, TopicPartition

    consumer = Consumer(kafka.confluent(**{"group.id": group, "enable.auto.commit": False}))  # type: ignore[attr-defined]
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            try:
                offsets = consumer.committed([TopicPartition(t, p) for t, p in ends], timeout=10)
            except KafkaException:  # the group coordinator is still loading or moving: ask again
                time.sleep(0.5)
                continue
            if all(o.offset >= ends[(o.topic, o.partition)] or ends[(o.topic, o.partition)] == 0 for o in offsets):
                return
            time.sleep(0.5)
        raise TimeoutError("the worker did not reach the end of its inputs")
    finally:
        consumer.close()


SINK_STEADY_ROWS = 400_000
"""Fewest rows the sink part sinks: its steady rate is taken between its first and last flush
(20,000 rows each), and 100,000 rows give only four intervals, over which two runs of the same
code differ by +-10% on this machine; 400,000 give nineteen."""


def sink_ratio(rows: int) -> str:
    """The sink (Kafka -> chDB) against a bare insert of the same rows into the same chDB
    (``tests/bench/sink_bench.py``: steady rate, bare row- and column-oriented inserts, CPU per row),
    on at least :data:`SINK_STEADY_ROWS` rows."""
    from sinks.clickhouse.sink import tune_gc_for_batches
    from tests.bench.sink_bench import bench

    tune_gc_for_batches()  # as `faultline sink` does
    return "\n".join(bench(max(rows, SINK_STEADY_ROWS), "votes"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.ratios", description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["replay", "ett", "worker", "sink", "job", "all"], default="all")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--max-nodes", type=int, default=1024)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        parts = {"replay": lambda: replay_ratio(Path(tmp)), "ett": lambda: ett_overhead(Path(tmp)),
                 "job": lambda: job_capacity(args.max_nodes),
                 "worker": lambda: worker_ratio(args.events), "sink": lambda: sink_ratio(args.events)}
        for name, part in parts.items():
            if args.part in (name, "all"):
                print(part(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
