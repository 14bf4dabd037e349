"""Kernel log from journald, the alternative to /dev/kmsg (``--kmsg journald``).

Runs ``journalctl -k -o json --follow`` (with ``--directory <host_root>/var/log/journal``
when a host root is set) in a reader thread. Position: the ``__CURSOR`` of the last entry
handed to the output is saved in ``<state_dir>/journal.cursor`` by :meth:`commit` and passed
back as ``--after-cursor`` on start. journalctl's own ``--cursor-file`` is not used because
it writes the cursor of the last entry *printed*, which can be ahead of what the output
accepted when the agent is killed.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from datetime import UTC, datetime
from typing import Any

from producers.agent.base import new_event_id
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import LogLine


def entry_to_line(entry: dict[str, Any], cluster: str, node_id: str) -> LogLine | None:
    """A journal JSON entry as a log line; None when it has no usable message or time."""
    message = entry.get("MESSAGE")
    if isinstance(message, list):  # journalctl prints non-UTF-8 messages as byte arrays
        message = bytes(int(b) & 0xFF for b in message).decode("utf-8", errors="replace")
    stamp = entry.get("__REALTIME_TIMESTAMP")
    if not isinstance(message, str) or not str(stamp).isdigit():
        return None
    facility = str(entry.get("SYSLOG_FACILITY", "0"))
    return LogLine(event_id=new_event_id(), event_time=datetime.fromtimestamp(int(str(stamp)) / 1e6, UTC),
                   cluster=cluster, node_id=node_id, source="kernel" if facility == "0" else "system",
                   line=message.rstrip("\n"))


class JournaldCollector:
    """Follows the kernel messages of the journal; cursor persisted by :meth:`commit`."""

    name = "journald"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, journalctl: str = "journalctl") -> None:
        self.settings = settings
        self.interval_s = settings.tail_poll_s
        self.metrics = metrics
        self.journalctl = journalctl
        self.cursor_path = settings.state_dir / "journal.cursor"
        self._queue: queue.SimpleQueue[tuple[str, LogLine]] = queue.SimpleQueue()
        self._proc: subprocess.Popen[bytes] | None = None
        self._pending: str | None = None

    def command(self) -> list[str]:
        cmd = [self.journalctl, "-k", "-o", "json", "--follow", "--no-pager"]
        if self.settings.host_root != self.settings.host_root.parent:  # not "/"
            cmd += ["--directory", str(self.settings.host("/var/log/journal"))]
        if self.cursor_path.exists():
            cmd.append(f"--after-cursor={self.cursor_path.read_text().strip()}")
        return cmd

    def collect(self) -> list[Event]:
        """Entries read since the last call; (re)starts journalctl, and raises if it exited."""
        if self._proc is not None and self._proc.poll() is not None:
            code, self._proc = self._proc.returncode, None
            raise RuntimeError(f"journalctl exited with {code}")
        if self._proc is None:
            self._proc = subprocess.Popen(self.command(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            threading.Thread(target=self._read, args=(self._proc,), name="journald", daemon=True).start()
        out: list[Event] = []
        while True:
            try:
                cursor, line = self._queue.get_nowait()
            except queue.Empty:
                return out
            out.append(line)
            self._pending = cursor

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            try:
                entry = json.loads(raw)
            except ValueError:
                self.metrics.source_errors.labels("journald", "bad json").inc()
                continue
            line = entry_to_line(entry, self.settings.cluster, self.settings.node_id)
            if line is not None and isinstance(entry.get("__CURSOR"), str):
                self._queue.put((entry["__CURSOR"], line))

    def commit(self) -> None:
        """Persist the cursor of the last entry handed on."""
        if self._pending is None:
            return
        self.cursor_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.cursor_path.with_suffix(".tmp")
        tmp.write_text(self._pending)
        os.replace(tmp, self.cursor_path)
        self._pending = None

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            self._proc.wait(timeout=5)
