"""Kernel log collector: ``/dev/kmsg`` records -> ``log_line`` (source kernel or system).

Record format (Documentation/ABI/testing/dev-kmsg)::

    6,1234,5678901,-[,caller=T42];NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.
     SUBSYSTEM=pci
     DEVICE=+pci:0000:3b:00.0

``prio`` = facility * 8 + level; facility 0 (kern) -> source ``kernel``, others ``system``.

Time: the record's timestamp is the kernel's ``local_clock()`` in microseconds since boot,
which, like ``CLOCK_MONOTONIC`` and unlike ``CLOCK_BOOTTIME``, stops during suspend. So the
wall time of boot is ``CLOCK_REALTIME - CLOCK_MONOTONIC`` (taken once, when the reader opens),
and a record's time is that plus its timestamp. Using ``CLOCK_BOOTTIME`` instead would shift
every record after a suspend by the time slept (servers rarely suspend, then both agree).

Exactly once across restarts: the last sequence number handed to the output is saved, with
the boot id, in ``<state_dir>/kmsg.json`` by :meth:`KmsgCollector.commit` (called by the
runner after the output accepted the events). On start, records up to it are skipped; a new
boot id resets it. A jump in sequence numbers (the ring buffer overwrote records before we
read them; the device answers EPIPE) is reported as a notice line and counted in
``faultline_agent_kmsg_lost_records``.

``path`` may be a regular file or a FIFO holding records in the same format, one record
per line plus its continuation lines (tests replay recorded kernel logs that way).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from producers.agent.base import new_event_id, notice
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import LogLine

READ_SIZE = 16384
"""Larger than the kernel's biggest record (CONSOLE_EXT_LOG_MAX 8 KiB), so a read never gets EINVAL."""


@dataclass(frozen=True)
class KmsgRecord:
    """One parsed record: ``props`` are the KEY=VALUE continuation lines."""

    facility: int
    level: int
    seq: int
    ts_us: int
    message: str
    props: dict[str, str] = field(default_factory=dict)


def parse_record(text: str) -> KmsgRecord | None:
    """Parse one record (header line + continuation lines); None if the header is malformed."""
    head, _, rest = text.partition("\n")
    prefix, sep, message = head.partition(";")
    fields = prefix.split(",")
    if not sep or len(fields) < 4:
        return None
    try:
        prio, seq, ts_us = int(fields[0]), int(fields[1]), int(fields[2])
    except ValueError:
        return None
    props = {}
    for line in rest.split("\n"):
        key, eq, value = line.strip().partition("=")
        if line.startswith(" ") and eq:
            props[key] = value
    return KmsgRecord(prio >> 3, prio & 7, seq, ts_us, message, props)


def boot_wall_time() -> datetime:
    """Wall time of boot on ``local_clock()``'s scale (see the module docstring)."""
    offset_s = time.clock_gettime(time.CLOCK_REALTIME) - time.clock_gettime(time.CLOCK_MONOTONIC)
    return datetime.fromtimestamp(offset_s, UTC)


class KmsgSource:
    """Reads raw records without blocking from /dev/kmsg (one record per read) or a stand-in file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.device = stat.S_ISCHR(os.fstat(self.fd).st_mode)
        self._buffer = b""
        self.overruns = 0

    def read(self) -> list[str]:
        """Every complete record available now."""
        return self._read_device() if self.device else self._read_stream()

    def _read_device(self) -> list[str]:
        out: list[str] = []
        while True:
            try:
                chunk = os.read(self.fd, READ_SIZE)
            except BlockingIOError:
                return out
            except OSError as exc:
                if exc.errno != errno.EPIPE:
                    raise
                self.overruns += 1  # records were overwritten; the next read resumes after them
                continue
            if not chunk:
                return out
            out.append(chunk.decode("utf-8", errors="replace").rstrip("\n"))

    def _read_stream(self) -> list[str]:
        while True:
            try:
                chunk = os.read(self.fd, READ_SIZE)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._buffer += chunk
        complete, _, self._buffer = self._buffer.rpartition(b"\n")
        records: list[str] = []
        for line in complete.decode("utf-8", errors="replace").split("\n") if complete else []:
            if line.startswith(" "):
                # A continuation line; one whose header came in an earlier read only carries
                # KEY=VALUE properties, which no event uses: it is dropped, not an error.
                if records:
                    records[-1] += "\n" + line
            elif line:
                records.append(line)
        return records

    def close(self) -> None:
        os.close(self.fd)


class KmsgCollector:
    """Turns new kernel records into log lines; sequence numbers persisted by :meth:`commit`."""

    name = "kmsg"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, boot_wall: datetime | None = None,
                 boot_id: str | None = None) -> None:
        self.settings = settings
        self.interval_s = settings.tail_poll_s
        self.metrics = metrics
        self.state_path = settings.state_dir / "kmsg.json"
        self.boot_wall = boot_wall
        self.boot_id = boot_id if boot_id is not None else _read_boot_id(settings)
        self.last_seq = self._load()
        self._pending_seq = self.last_seq
        self.source: KmsgSource | None = None

    def _load(self) -> int | None:
        try:
            state = json.loads(self.state_path.read_text())
        except (OSError, ValueError):
            return None
        if state.get("boot_id") != self.boot_id:
            return None  # a reboot restarts the sequence at 0
        seq = state.get("seq")
        return int(seq) if isinstance(seq, int) else None

    def collect(self) -> list[Event]:
        """Log lines for records after the last committed one, plus a notice per gap."""
        if self.source is None:
            self.source = KmsgSource(self.settings.kmsg_file)
            self.boot_wall = self.boot_wall or boot_wall_time()
        overruns = self.source.overruns
        out: list[Event] = []
        for raw in self.source.read():
            record = parse_record(raw)
            if record is None:
                self.metrics.source_errors.labels("kmsg", "malformed record").inc()
                continue
            out.extend(self._accept(record))
        if self.source.overruns > overruns and not out:
            out.append(self._notice("kmsg read overrun (EPIPE): records lost, count unknown"))
        return out

    def _accept(self, record: KmsgRecord) -> list[Event]:
        last = self._pending_seq
        if last is not None and record.seq <= last:
            return []  # sent before a restart
        out: list[Event] = []
        if last is not None and record.seq > last + 1:
            lost = record.seq - last - 1
            self.metrics.kmsg_gaps.inc(lost)
            out.append(self._notice(f"kmsg sequence gap: {lost} kernel log records lost "
                                    f"(seq {last + 1}..{record.seq - 1}, ring buffer overrun)"))
        self._pending_seq = record.seq
        assert self.boot_wall is not None
        out.append(LogLine(event_id=new_event_id(), event_time=self.boot_wall + timedelta(microseconds=record.ts_us),
                           cluster=self.settings.cluster, node_id=self.settings.node_id,
                           source="kernel" if record.facility == 0 else "system", line=record.message))
        return out

    def _notice(self, text: str) -> Event:
        return notice(self.settings.cluster, self.settings.node_id, text)

    def commit(self) -> None:
        """Persist the last sequence number handed on (atomic rename; called after the output took it)."""
        if self._pending_seq is None or self._pending_seq == self.last_seq:
            return
        self.state_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"boot_id": self.boot_id, "seq": self._pending_seq}))
        os.replace(tmp, self.state_path)
        self.last_seq = self._pending_seq

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
            self.source = None


def _read_boot_id(settings: AgentSettings) -> str:
    try:
        return settings.host("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""
