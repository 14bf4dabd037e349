"""Shared fixtures: a real Kafka broker for the session, isolated namespaces, a worker process.

The broker is Apache Kafka started by ``deploy.local_kafka`` on a free port with a temporary
data directory, once per test session. Set ``FAULTLINE_TEST_KAFKA_BOOTSTRAP`` to use an
already running broker instead. Unit tests (tests/unit) never touch it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from schemas.settings import KafkaSettings

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def kafka_bootstrap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bootstrap address of a real broker that lives for the whole test session."""
    given = os.environ.get("FAULTLINE_TEST_KAFKA_BOOTSTRAP")
    if given:
        yield given
        return
    from deploy.local_kafka import LocalKafka, LocalKafkaSettings

    settings = LocalKafkaSettings(port=0, data_dir=tmp_path_factory.mktemp("kafka"))
    with LocalKafka(settings) as broker:
        yield broker.bootstrap


@pytest.fixture
def kafka(kafka_bootstrap: str) -> KafkaSettings:
    """Settings for a fresh random namespace on the session broker, with every topic created."""
    from deploy.local_kafka import create_registry_topics

    settings = KafkaSettings(bootstrap_servers=kafka_bootstrap, namespace=f"t{uuid.uuid4().hex[:10]}.")
    create_registry_topics(settings)
    return settings


class WorkerProcess:
    """A ``faultline worker`` subprocess on a namespace; its log is kept for assertions."""

    def __init__(self, kafka: KafkaSettings, log_path: Path, app_id: str | None = None,
                 instance_id: str | None = None, extra_args: tuple[str, ...] = ()) -> None:
        self.kafka = kafka
        self.log_path = log_path
        self.app_id = app_id or f"{kafka.namespace}w{uuid.uuid4().hex[:6]}"
        cmd = [sys.executable, "-m", "streams.cli", "--bootstrap", kafka.bootstrap_servers,
               "--namespace", kafka.namespace, "worker", "--loglevel", "info", "--app-id", self.app_id]
        if instance_id:
            cmd += ["--instance-id", instance_id]
        cmd += list(extra_args)
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout_s: float = 90.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited {self.proc.returncode}:\n{self.tail()}")
            if b"Worker]: Ready" in self.log_path.read_bytes():
                return
            time.sleep(0.5)
        raise RuntimeError(f"worker not ready after {timeout_s}s:\n{self.tail()}")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self, n: int = 60) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture
def worker(kafka: KafkaSettings, tmp_path: Path) -> Iterator[WorkerProcess]:
    """A running pipeline worker on the test's namespace."""
    proc = WorkerProcess(kafka, tmp_path / "worker.log")
    try:
        proc.wait_ready()
        yield proc
    finally:
        proc.stop()


Messages = list[tuple[str | None, bytes]]


def consume_topic(kafka: KafkaSettings, topic: str, *, until: int | None = None,
                  timeout_s: float = 60.0, idle_s: float = 5.0,
                  stop_when: Callable[[Messages], bool] | None = None) -> Messages:
    """Read (key, value) pairs of a registry topic from the beginning.

    Stops when ``stop_when(messages so far)`` holds (the condition a test waits for; then
    silence never ends the wait), when ``until`` messages were read, when nothing new arrived
    for ``idle_s`` after at least one message (only without ``stop_when``), or at ``timeout_s``.
    """
    from confluent_kafka import Consumer

    consumer = Consumer(kafka.confluent(**{"group.id": f"read-{uuid.uuid4().hex}",
                                           "auto.offset.reset": "earliest", "enable.auto.commit": False}))
    consumer.subscribe([kafka.topic(topic)])
    out: list[tuple[str | None, bytes]] = []
    deadline = time.monotonic() + timeout_s
    last = time.monotonic()
    try:
        while time.monotonic() < deadline and (until is None or len(out) < until):
            if stop_when is not None and out and stop_when(out):
                break
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                if out and until is None and stop_when is None and time.monotonic() - last > idle_s:
                    break
                continue
            key = msg.key().decode() if msg.key() else None
            out.append((key, msg.value()))
            last = time.monotonic()
    finally:
        consumer.close()
    return out


@pytest.fixture
def consume() -> object:
    """The :func:`consume_topic` helper, as a fixture."""
    return consume_topic


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/integration is marked ``integration`` and under tests/e2e ``e2e``,
    whether or not its module says so, so ``-m "not integration and not e2e"`` is the unit suite."""
    for item in items:
        parts = Path(str(item.fspath)).relative_to(REPO).parts
        if parts[:2] == ("tests", "integration"):
            item.add_marker(pytest.mark.integration)
        elif parts[:2] == ("tests", "e2e"):
            item.add_marker(pytest.mark.e2e)
