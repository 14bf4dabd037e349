"""A bounded on-disk queue of outgoing messages: append-only segment files plus an ack cursor.

Every event the agent emits for Kafka is first appended here (write-ahead), then sent from
here in order; the sender acknowledges a prefix once Kafka confirmed delivery. So a broker
outage or an agent restart loses nothing: whatever was not acknowledged is still on disk.

Layout of ``directory``::

    seg-<first seq, 20 digits>.log   one record per line: JSON [topic, key] TAB value-JSON
    cursor                           the highest acknowledged sequence number (atomic rename)

Durability (``fsync`` policy): records are written with ``os.write`` (no user-space buffer),
so a crash of the agent process loses nothing under any policy. Against power loss:
``always`` fsyncs every append; ``interval`` (default) fsyncs at most every
``fsync_interval_s`` (the sender also syncs when due), so up to that much can be lost;
``never`` leaves it to the kernel's writeback (~30 s). A torn last line found on start is cut.

Bound: when the segments exceed ``max_bytes`` the oldest segment is deleted even if it holds
unsent records (drop oldest: the newest telemetry is the most useful); the dropped unsent
records are counted in ``faultline_agent_spool_dropped``. Acknowledged segments are deleted.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from producers.agent.metrics import AgentMetrics
from producers.agent.settings import FsyncPolicy


@dataclass(frozen=True)
class Record:
    seq: int
    topic: str
    key: str | None
    value: bytes


@dataclass
class _Segment:
    first: int
    path: Path
    size: int
    count: int


def _encode(topic: str, key: str | None, value: bytes) -> bytes:
    # The value is compact JSON: it never holds a raw newline (JSON escapes control characters).
    return json.dumps([topic, key]).encode() + b"\t" + value + b"\n"


def _decode(seq: int, line: bytes) -> Record:
    head, _, value = line.partition(b"\t")
    topic, key = json.loads(head)
    return Record(seq, topic, key, value)


class Spool:
    """Thread-safe: one thread appends, another reads forward and acknowledges."""

    def __init__(self, directory: Path, metrics: AgentMetrics, *, max_bytes: int = 256 * 1024 * 1024,
                 segment_bytes: int = 8 * 1024 * 1024, fsync: FsyncPolicy = "interval",
                 fsync_interval_s: float = 1.0) -> None:
        self.directory = directory
        self.metrics = metrics
        self.max_bytes = max_bytes
        self.segment_bytes = max(min(segment_bytes, max_bytes // 4), 1)
        self.fsync = fsync
        self.fsync_interval_s = fsync_interval_s
        self.lock = threading.Lock()
        directory.mkdir(parents=True, exist_ok=True)
        self.segments = self._recover()
        self.next_seq = self.segments[-1].first + self.segments[-1].count if self.segments else 0
        self.acked = max(self._load_cursor(), (self.segments[0].first - 1) if self.segments else -1)
        self._fd: int | None = None
        self._dirty = False
        self._synced_at = time.monotonic()
        self._read_seg, self._read_off, self._read_seq = self._locate(self.acked + 1)
        self._gauges()

    # -- recovery ---------------------------------------------------------------------
    def _recover(self) -> list[_Segment]:
        segments = []
        for path in sorted(self.directory.glob("seg-*.log")):
            data = path.read_bytes()
            if data and not data.endswith(b"\n"):  # torn write at a crash: cut the partial record
                data = data[: data.rfind(b"\n") + 1]
                with open(path, "r+b") as handle:
                    handle.truncate(len(data))
            segments.append(_Segment(int(path.stem[4:]), path, len(data), data.count(b"\n")))
        return segments

    def _load_cursor(self) -> int:
        try:
            return int((self.directory / "cursor").read_text().strip())
        except (OSError, ValueError):
            return -1

    def _locate(self, seq: int) -> tuple[int, int, int]:
        """(segment index, byte offset, seq) of the first record at or after ``seq``."""
        for index, seg in enumerate(self.segments):
            if seq < seg.first + seg.count:
                skip = max(seq - seg.first, 0)
                with open(seg.path, "rb") as handle:
                    offset = sum(len(handle.readline()) for _ in range(skip))
                return index, offset, seg.first + skip
        return len(self.segments), 0, self.next_seq

    # -- writing ----------------------------------------------------------------------
    def append(self, records: list[tuple[str, str | None, bytes]]) -> None:
        """Append records (physical topic, key, value) durably per the fsync policy."""
        if not records:
            return
        data = b"".join(_encode(*r) for r in records)
        with self.lock:
            if not self.segments or self.segments[-1].size >= self.segment_bytes:
                self._roll()
            self._open_tail()
            assert self._fd is not None
            os.write(self._fd, data)
            seg = self.segments[-1]
            seg.size += len(data)
            seg.count += len(records)
            self.next_seq += len(records)
            self._dirty = True
            if self.fsync == "always":
                self._sync()
            self._enforce_bound()
            self._gauges()
        self.sync_if_due()

    def _roll(self) -> None:
        if self._fd is not None:
            self._sync()
            os.close(self._fd)
        path = self.directory / f"seg-{self.next_seq:020d}.log"
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.segments.append(_Segment(self.next_seq, path, 0, 0))
        self._fsync_dir()

    def _open_tail(self) -> None:
        if self._fd is None and self.segments:
            self._fd = os.open(self.segments[-1].path, os.O_WRONLY | os.O_APPEND)

    def _enforce_bound(self) -> None:
        dropped = False
        while len(self.segments) > 1 and sum(s.size for s in self.segments) > self.max_bytes:
            oldest = self.segments.pop(0)
            last = oldest.first + oldest.count - 1
            unsent = max(last - max(self.acked, oldest.first - 1), 0)
            self.metrics.spool_dropped.inc(unsent)
            self.acked = max(self.acked, last)
            oldest.path.unlink(missing_ok=True)
            self._forget_first_segment()
            dropped = True
        if dropped:
            self._write_cursor()

    def _forget_first_segment(self) -> None:
        """Shift the read position after the first segment was removed."""
        self._read_seg -= 1
        if self._read_seg < 0:  # the reader was inside (or at the end of) the removed segment
            self._read_seg, self._read_off, self._read_seq = 0, 0, self.segments[0].first

    def sync_if_due(self) -> None:
        """fsync pending writes when the ``interval`` policy says so (called by both threads)."""
        if self.fsync == "interval" and self._dirty and time.monotonic() - self._synced_at >= self.fsync_interval_s:
            with self.lock:
                self._sync()

    def _sync(self) -> None:
        if self._fd is not None and self._dirty and self.fsync != "never":
            os.fsync(self._fd)
        self._dirty = False
        self._synced_at = time.monotonic()

    def _fsync_dir(self) -> None:
        if self.fsync != "never":
            fd = os.open(self.directory, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    # -- reading and acknowledging ----------------------------------------------------
    def read(self, limit: int) -> list[Record]:
        """Up to ``limit`` records after the last one read, in order (each record is read once)."""
        out: list[Record] = []
        with self.lock:
            while len(out) < limit and self._read_seg < len(self.segments):
                seg = self.segments[self._read_seg]
                if self._read_seq >= seg.first + seg.count:
                    if self._read_seg == len(self.segments) - 1:
                        break
                    self._read_seg, self._read_off, self._read_seq = self._read_seg + 1, 0, self.segments[self._read_seg + 1].first
                    continue
                with open(seg.path, "rb") as handle:
                    handle.seek(self._read_off)
                    while len(out) < limit and self._read_seq < seg.first + seg.count:
                        line = handle.readline()
                        out.append(_decode(self._read_seq, line[:-1]))
                        self._read_off += len(line)
                        self._read_seq += 1
        return out

    def ack(self, seq: int) -> None:
        """Every record up to ``seq`` was delivered: persist the cursor, delete finished segments."""
        with self.lock:
            if seq <= self.acked:
                return
            self.acked = seq
            while len(self.segments) > 1 and self.segments[0].first + self.segments[0].count - 1 <= seq:
                self.segments.pop(0).path.unlink(missing_ok=True)
                self._forget_first_segment()
            self._write_cursor()
            self._gauges()

    def _write_cursor(self) -> None:
        tmp = self.directory / "cursor.tmp"
        tmp.write_text(str(self.acked))
        os.replace(tmp, self.directory / "cursor")

    def depth(self) -> int:
        """Records appended and not yet acknowledged (or dropped)."""
        return self.next_seq - self.acked - 1

    def _gauges(self) -> None:
        self.metrics.spool_records.set(self.depth())
        self.metrics.spool_bytes.set(sum(s.size for s in self.segments))

    def close(self) -> None:
        with self.lock:
            if self._fd is not None:
                self._sync()
                os.close(self._fd)
                self._fd = None
