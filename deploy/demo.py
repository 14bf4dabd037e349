"""``make demo``: the whole pipeline on a simulated fleet, then what it found.

Starts a private Kafka broker, a Faust worker, the ClickHouse sink (chDB) and a dry-run
actuator; streams a simulated fleet with injected faults through them; waits until the
derived topics fall quiet; stops everything it started; and prints what was detected
against the injected ground truth plus a few SQL results read back from ClickHouse.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from deploy.local_kafka import LocalKafka, LocalKafkaSettings, create_registry_topics
from schemas.registry import DERIVED_TOPICS
from schemas.settings import KafkaSettings

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / ".data" / "demo"
DSN = f"chdb://{DATA / 'clickhouse'}"
"""The demo's own ClickHouse store, new every run, so the report shows this run only."""


def say(message: str) -> None:
    print(message, flush=True)


def fleet() -> tuple[Any, Any]:
    """The simulated fleet of the demo: 4 jobs on 16 nodes (128 GPUs), 30 minutes, 5 faults."""
    from producers.simulator import FleetConfig
    from producers.simulator import scenarios as sc

    # The simulated clock starts now, so the dry-run actuator finds the decisions unexpired.
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    config = FleetConfig(nodes=16, jobs=4, duration_s=1800, seed=2026, cluster="demo", start=start)
    scenarios = [
        sc.Hang(job=0, at_s=900, source="single"),
        sc.SlowNode(job=1, node=2, at_s=400, slowdown=1.3, cause="thermal"),
        sc.Xid(node=9, gpu=3, xid=79, at_s=1100),
        sc.Xid(node=10, gpu=1, xid=13, at_s=600, repeats=200, interval_s=0.2),
        sc.Oom(job=3, rank=5, at_s=1500),
        sc.LongCheckpoint(job=3, at_s=650, duration_s=360),
    ]
    return config, scenarios


class Proc:
    """A child process of the demo with its log in the demo folder."""

    def __init__(self, name: str, args: Sequence[str]) -> None:
        self.name = name
        self.log_path = DATA / f"{name}.log"
        self.proc = subprocess.Popen([sys.executable, "-m", "streams.cli", *args], cwd=REPO,
                                     stdout=open(self.log_path, "wb"), stderr=subprocess.STDOUT)

    def wait_for(self, marker: bytes, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited early; see {self.log_path}")
            if marker in self.log_path.read_bytes():
                return
            time.sleep(0.5)
        raise RuntimeError(f"{self.name} not ready after {timeout_s}s; see {self.log_path}")

    def stop(self, timeout_s: float = 60) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


SPEED = 10.0
"""How much faster than real time the simulated fleet is streamed. A fleet emits telemetry
in real time; one worker on a 2-core machine (broker, sink and producer beside it) keeps
the event-time skew between its inputs within bounds at about this pace; faster, or on a
busy machine, silences that are only processing lag can look like hangs (`faultline replay`
has no such limit)."""


def produce(kafka: KafkaSettings, events: Sequence[Any]) -> None:
    """Publish the fleet's events at SPEED x real time, with a progress line every 10%."""
    from producers.kafka import EventProducer, send_paced

    step = max(len(events) // 10, 1)
    with EventProducer(kafka) as producer:
        for start in range(0, len(events), step):
            chunk = events[start:start + step]
            send_paced(producer, chunk, SPEED)
            done = start + len(chunk)
            say(f"      produced {done:>9,}/{len(events):,} events "
                f"(event time {chunk[-1].event_time:%H:%M:%S}, {SPEED:.0f}x real time)")


PERIODIC = frozenset({"hangs.votes"})
"""Derived topics written on a clock, not on findings: a hang vote per job every 5 s of the jobs
stage's clock, which runs on at wall pace once the input stops (a job that fell silent is still
evaluated). Their messages are counted but never keep the demo waiting."""


def settle(kafka: KafkaSettings, quiet_s: float = 20, timeout_s: float = 900) -> dict[str, int]:
    """Count derived messages until no finding (a message of a topic not in :data:`PERIODIC`)
    arrived for ``quiet_s``; returns counts per topic."""
    from confluent_kafka import Consumer

    consumer = Consumer(kafka.confluent(**{"group.id": f"demo-watch-{uuid.uuid4().hex}",
                                           "auto.offset.reset": "earliest"}))
    consumer.subscribe([kafka.topic(t) for t in DERIVED_TOPICS])
    counts: dict[str, int] = {}
    last = started = time.monotonic()
    shown = 0.0
    while time.monotonic() - last < quiet_s and time.monotonic() - started < timeout_s:
        msg = consumer.poll(0.5)
        if msg is not None and not msg.error():
            name = str(msg.topic())[len(kafka.namespace):]
            counts[name] = counts.get(name, 0) + 1
            if name not in PERIODIC:
                last = time.monotonic()
        if time.monotonic() - shown > 5:
            shown = time.monotonic()
            say("      derived so far: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none yet"))
    consumer.close()
    return counts


def main(argv: list[str] | None = None) -> int:
    """Run the demo; exits 0 when every step ran (whatever was detected)."""
    from producers.simulator import simulate

    shutil.rmtree(DATA, ignore_errors=True)
    DATA.mkdir(parents=True)
    say("[1/6] starting Apache Kafka (KRaft, single node) ...")
    with LocalKafka(LocalKafkaSettings(port=0, data_dir=DATA / "kafka"), progress=lambda m: say(f"      {m}")) as broker:
        kafka = KafkaSettings(bootstrap_servers=broker.bootstrap)
        create_registry_topics(kafka)
        config, scenarios = fleet()
        say(f"[2/6] simulating {config.nodes} nodes x {config.gpus_per_node} GPUs, {config.jobs} jobs, "
            f"{config.duration_s / 60:.0f} min, {len(scenarios)} injected incidents ...")
        run = simulate(config, scenarios)
        run.write_jsonl(DATA / "events.jsonl")
        run.write_truth(DATA / "truth.json")
        say(f"      {len(run.events):,} events -> {DATA / 'events.jsonl'}")
        procs = _start(kafka)
        try:
            say(f"[4/6] streaming the fleet through Kafka -> Faust -> ClickHouse at {SPEED:.0f}x real time ...")
            produce(kafka, run.events)
            say("[5/6] waiting for the pipeline to settle ...")
            counts = settle(kafka)
        finally:
            for proc in reversed(procs):
                proc.stop()
    say("[6/6] results")
    from deploy.demo_report import report, write_html

    report(DSN, run.truth, counts)
    say(f"\nEverything started by the demo is stopped. Explore the results:\n"
        f"  .venv/bin/faultline sql --dsn {DSN} \"SELECT category, count() FROM faultline.faults FINAL GROUP BY category\"\n"
        f"  .venv/bin/faultline replay {DATA / 'events.jsonl'} -o derived.jsonl")
    say("\nHTML report (open it in a browser):")
    return write_html(DSN, DATA / "report.html")


def _start(kafka: KafkaSettings) -> list[Proc]:
    say("[3/6] starting the Faust worker, the ClickHouse sink and a dry-run actuator ...")
    common = ["--bootstrap", kafka.bootstrap_servers, "--namespace", kafka.namespace]
    worker = Proc("worker", [*common, "worker", "--loglevel", "info"])
    sink = Proc("sink", ["sink", "--bootstrap", kafka.bootstrap_servers, "--namespace", kafka.namespace,
                         "--dsn", DSN])
    actuator = Proc("actuator", ["actuate", "--bootstrap", kafka.bootstrap_servers, "--namespace",
                                 kafka.namespace, "--actuator", "dry-run", "--store", str(DATA / "applied.db")])
    worker.wait_for(b"Worker]: Ready")
    return [worker, sink, actuator]


if __name__ == "__main__":
    raise SystemExit(main())
