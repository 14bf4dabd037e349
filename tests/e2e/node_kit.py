"""A fixture GPU node for end-to-end tests: a host root, RDMA traffic, and its processes.

The host root is a copy of tests/data/agent/sysfs (what ``faultline agent --host-root``
reads as ``/sys``) with ``proc`` linked to the real ``/proc``, as a container sees the host's
``/proc`` mounted under ``/host``: the agent finds the real training process there and dumps
it with py-spy. :class:`RdmaTraffic` makes the compute rails' counters move like a training
job's gradient traffic until a stop file appears (the job hung), then leaves them frozen.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from confluent_kafka import Consumer, TopicPartition

from schemas import Event, decode
from schemas.settings import KafkaSettings

REPO = Path(__file__).resolve().parents[2]
SYSFS_FIXTURE = REPO / "tests" / "data" / "agent" / "sysfs"
IB = Path("sys/class/infiniband")
WORD_BYTES = 4
"""IB ``port_xmit_data``/``port_rcv_data`` count 4-byte words."""


def make_host_root(root: Path) -> Path:
    """Copy the sysfs fixture to ``root`` and link ``root/proc`` to the real ``/proc``."""
    shutil.copytree(SYSFS_FIXTURE, root)
    (root / "proc").symlink_to("/proc")
    return root


def _bump(path: Path, amount: int) -> None:
    """Add ``amount`` to the counter in ``path``, replacing the file atomically (a reader
    never sees a half-written number)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{int(path.read_text().strip() or 0) + amount}\n")
    os.replace(tmp, path)


class RdmaTraffic:
    """Moves the ACTIVE ports' tx/rx counters by ``bytes_per_s`` each (per direction) until
    ``stop_file`` exists; after that nothing changes (a hung job moves no gradients)."""

    def __init__(self, host_root: Path, stop_file: Path, bytes_per_s: int = 2_000_000_000,
                 tick_s: float = 0.25) -> None:
        self.ports = [p for p in sorted((host_root / IB).glob("*/ports/*")) if "ACTIVE" in (p / "state").read_text()]
        self.stop_file = stop_file
        self.bytes_per_tick = int(bytes_per_s * tick_s)
        self.tick_s = tick_s
        self.ticks = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rdma-traffic", daemon=True)

    def start(self) -> RdmaTraffic:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._done.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._done.wait(self.tick_s) and not self.stop_file.exists():
            for port in self.ports:
                self._tick(port)
            self.ticks += 1

    def _tick(self, port: Path) -> None:
        if (port / "counters" / "port_xmit_data").exists():
            for name in ("port_xmit_data", "port_rcv_data"):
                _bump(port / "counters" / name, self.bytes_per_tick // WORD_BYTES)
        else:
            for name in ("tx_bytes", "rx_bytes"):
                _bump(port / "hw_counters" / name, self.bytes_per_tick)


def faultline(*args: str, log: Path | None = None, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A ``faultline`` subprocess (this interpreter), output to ``log`` (else inherited)."""
    out = open(log, "ab") if log is not None else None  # noqa: SIM115 - the child keeps its own copy
    try:
        return subprocess.Popen([sys.executable, "-m", "streams.cli", *args], cwd=REPO, env=env,
                                stdout=out, stderr=subprocess.STDOUT if out is not None else None)
    finally:
        if out is not None:
            out.close()


def stop(proc: subprocess.Popen[bytes], timeout_s: float = 30.0) -> int:
    """SIGTERM, then SIGKILL after ``timeout_s``; returns the exit code."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def read_everything(kafka: KafkaSettings, topics: tuple[str, ...], timeout_s: float = 60.0) -> list[tuple[str, Event]]:
    """Every event on ``topics`` up to their current end offsets, as (logical topic, event).

    The end offsets are taken first, then each partition is read until it reaches its own:
    "everything produced so far", not "whatever arrived before a quiet spell". Raises
    TimeoutError if the partitions cannot be read to their end within ``timeout_s``.
    """
    consumer = Consumer(kafka.confluent(**{"group.id": f"read-all-{uuid.uuid4().hex}",
                                           "enable.auto.commit": False}))
    try:
        meta = consumer.list_topics(timeout=30)
        ends: dict[tuple[str, int], int] = {}
        for topic in topics:
            for partition in meta.topics[kafka.topic(topic)].partitions:
                low, high = consumer.get_watermark_offsets(TopicPartition(kafka.topic(topic), partition), timeout=30)
                if high > low:
                    ends[(kafka.topic(topic), partition)] = high
        consumer.assign([TopicPartition(t, p, 0) for t, p in ends])
        return _read_to(consumer, kafka, ends, timeout_s)
    finally:
        consumer.close()


def _read_to(consumer: Consumer, kafka: KafkaSettings, ends: dict[tuple[str, int], int],
             timeout_s: float) -> list[tuple[str, Event]]:
    out: list[tuple[str, Event]] = []
    pending = dict(ends)
    deadline = time.monotonic() + timeout_s
    while pending:
        if time.monotonic() > deadline:
            raise TimeoutError(f"partitions not read to their end: {pending}")
        msg = consumer.poll(0.5)
        if msg is None or msg.error():
            continue
        topic, offset, value = str(msg.topic()), msg.offset(), msg.value()
        key = (topic, msg.partition() or 0)
        if key in pending and offset is not None and value is not None and offset < pending[key]:
            out.append((topic.removeprefix(kafka.namespace), decode(value)))
            if offset + 1 >= pending[key]:
                del pending[key]
    return out
