"""The agent's Kafka path through real brokers: nothing lost across a broker outage or an agent restart."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from confluent_kafka import Consumer

from deploy.local_kafka import LocalKafka, LocalKafkaSettings, create_registry_topics, free_port
from producers.agent.metrics import AgentMetrics
from producers.agent.output import KafkaOutput
from producers.agent.spool import Spool
from schemas.settings import KafkaSettings
from schemas.telemetry import LogLine
from tests.conftest import consume_topic

REPO = Path(__file__).parents[3]
FIXTURE = REPO / "tests" / "data" / "agent"


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A private directory outside pytest's basetemp: concurrent pytest sessions of the same
    user prune old ``pytest-of-<user>/pytest-N`` trees, which must not delete a live broker's
    log directory or a spool in the middle of the test."""
    with tempfile.TemporaryDirectory(prefix="faultline-agent-it-") as path:
        yield Path(path)


def _line(n: int) -> LogLine:
    return LogLine(event_id=uuid.uuid4().hex, event_time=datetime.now(UTC), cluster="c", node_id="n1",
                   source="system", line=f"seq {n}")


def _seqs(kafka: KafkaSettings) -> dict[int, list[int]]:
    """Sequence numbers per partition, in offset order."""
    consumer = Consumer(kafka.confluent(**{"group.id": f"read-{uuid.uuid4().hex}", "auto.offset.reset": "earliest",
                                           "enable.auto.commit": False}))
    consumer.subscribe([kafka.topic("telemetry.kernel")])
    out: dict[int, list[int]] = {}
    deadline, last = time.monotonic() + 120, time.monotonic()
    try:
        while time.monotonic() < deadline and not (out and time.monotonic() - last > 8):
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                continue
            out.setdefault(msg.partition() or 0, []).append(int(json.loads(msg.value() or b"")["line"].split()[1]))
            last = time.monotonic()
    finally:
        consumer.close()
    return out


@pytest.mark.integration
def test_no_event_lost_or_reordered_across_a_broker_outage(workdir: Path) -> None:
    broker = LocalKafka(LocalKafkaSettings(port=free_port(), data_dir=workdir / "kafka"))
    broker.start()
    try:
        kafka = KafkaSettings(bootstrap_servers=broker.bootstrap, namespace=f"t{uuid.uuid4().hex[:10]}.")
        create_registry_topics(kafka)
        metrics = AgentMetrics()
        spool = Spool(workdir / "spool", metrics, segment_bytes=4096)
        # At most 50 records in librdkafka's hands: the rest of the outage piles up in the spool.
        output = KafkaOutput(kafka, spool, metrics, send_batch=50)
        emitted = 0
        stop = threading.Event()

        def produce() -> None:
            nonlocal emitted
            while not stop.is_set():
                output.emit([_line(emitted)])
                emitted += 1
                stop.wait(0.02)

        writer = threading.Thread(target=produce)
        writer.start()
        deadline = time.monotonic() + 60
        while metrics.value("faultline_agent_events_sent_total") < 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        broker.stop(timeout_s=3)  # SIGKILL after 3 s: a crash-like outage, and a faster test
        outage_start = time.monotonic()
        while time.monotonic() - outage_start < 10:  # the outage: ~10 s of events go to the spool
            time.sleep(0.2)
        assert spool.depth() > 50  # more than librdkafka holds: the spool carried the outage
        broker.start()
        time.sleep(1)  # keep emitting a little after the restart
        stop.set()
        writer.join()
        assert output.drain(120), f"spool still holds {spool.depth()} records"
        output.close()
        by_partition = _seqs(kafka)
    finally:
        broker.stop(timeout_s=3)
    assert list(by_partition) and len(by_partition) == 1, {p: len(v) for p, v in by_partition.items()}  # one key
    (seqs,) = by_partition.values()
    assert sorted(set(seqs)) == list(range(emitted))  # every event (duplicates allowed: at-least-once)
    assert list(dict.fromkeys(seqs)) == list(range(emitted))  # in order


@pytest.mark.integration
def test_agent_restart_sends_what_it_spooled_while_the_broker_was_away(kafka: KafkaSettings, workdir: Path) -> None:
    base = [sys.executable, "-m", "producers.agent.cli", "--once", "--node-id", "n7",
            "--host-root", str(FIXTURE / "sysfs"), "--kmsg-path", str(FIXTURE / "kmsg.txt"),
            "--state-dir", str(workdir / "state"), "--no-gpu", "--no-stacks", "--metrics-port", "0",
            "--namespace", kafka.namespace]
    unreachable = f"127.0.0.1:{free_port()}"
    first = subprocess.run([*base, "--bootstrap", unreachable], cwd=REPO, capture_output=True, text=True,
                           timeout=180, check=False)
    assert first.returncode == 0, first.stderr
    assert Spool(workdir / "state" / "spool", AgentMetrics()).depth() == 12  # nothing acknowledged, all on disk
    second = subprocess.run([*base, "--bootstrap", kafka.bootstrap_servers], cwd=REPO, capture_output=True,
                            text=True, timeout=180, check=False)
    assert second.returncode == 0, second.stderr
    kernel = consume_topic(kafka, "telemetry.kernel", until=11, timeout_s=60)
    net = consume_topic(kafka, "telemetry.net", until=2, timeout_s=60)
    lines = [json.loads(value)["line"] for _, value in kernel]
    assert len(lines) == 11 and len(set(lines)) == 11  # the 10 records and the gap notice, once each
    assert lines[3].startswith("NVRM: Xid (PCI:0000:3b:00): 79")  # in kernel order
    assert len(net) == 2 and {key for key, _ in kernel + net} == {"n7"}
    assert (workdir / "state" / "spool" / "cursor").read_text() == "12"  # 13 records, all acknowledged
