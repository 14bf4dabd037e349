"""Training log collector: tails torchrun's per-rank log files -> ``log_line``.

Layout (``torchrun --log-dir DIR``)::

    DIR/<run_id>/attempt_<N>/<local_rank>/{stdout,stderr}.log

gives ``attempt`` = N, and ``rank`` = node_rank * nproc_per_node + local_rank when both are
configured (else null: a wrong global rank would blame the wrong peer). ``job_id`` is the
configured one, else the run id. Lines that are NCCL's own (``NCCL INFO|WARN|ERROR``) get
source ``nccl``, the rest ``training``.

Rotation and truncation: a new inode at the path means the file was rotated: the old file
is read to its end first, then the new one from the start; a size below the read offset
means truncation: reading restarts at 0. Offsets (with inodes) are saved by :meth:`commit`
in ``<state_dir>/logs.json`` so a restarted agent continues where it stopped.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from producers.agent.base import Clock, new_event_id, utc_now
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import LogLine

LAYOUT = re.compile(r"(?P<run>[^/]+)/attempt_(?P<attempt>\d+)/(?P<local_rank>\d+)/(?:stdout|stderr)\.log$")
NCCL = re.compile(r"\bNCCL (?:INFO|WARN|ERROR|TRACE)\b")
IDLE_CLOSE_S = 300.0
"""A followed file that has not grown for this long is closed (its position kept)."""
MAX_LINE_BYTES = 65536
"""A longer line without a newline is sent in pieces of this size (bounded memory)."""


MKDTEMP_SUFFIX = re.compile(r"^(?P<run>.+)_[a-z0-9_]{8}$")
"""torchrun's log directory is ``tempfile.mkdtemp(prefix=f"{rdzv_run_id}_")``: the run id plus
``_`` and eight random characters (``[a-z0-9_]``)."""


def run_id(directory: str) -> str:
    """The rendezvous run id of a torchrun log directory name (its mkdtemp suffix removed)."""
    match = MKDTEMP_SUFFIX.match(directory)
    return match["run"] if match else directory


@dataclass
class _Tail:
    path: Path
    run: str
    attempt: int
    local_rank: int
    inode: int = -1
    offset: int = 0
    handle: BinaryIO | None = None
    partial: bytes = b""
    last_data_s: float | None = None


class LogTailer:
    """Follows every file of the layout under the configured log directories."""

    name = "logs"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, clock: Clock = utc_now,
                 idle_close_s: float = IDLE_CLOSE_S) -> None:
        self.settings = settings
        self.idle_close_s = idle_close_s
        self.interval_s = settings.tail_poll_s
        self.metrics = metrics
        self.clock = clock
        self.state_path = settings.state_dir / "logs.json"
        self.tails: dict[Path, _Tail] = {}
        self._saved = self._load()
        self._committed: dict[str, list[int]] = {}

    def _load(self) -> dict[str, tuple[int, int]]:
        try:
            raw = json.loads(self.state_path.read_text())
            return {path: (int(v[0]), int(v[1])) for path, v in raw.items()}
        except (OSError, ValueError, TypeError, IndexError, AttributeError):
            return {}

    def collect(self) -> list[Event]:
        """New complete lines of every followed file."""
        self._discover()
        out: list[Event] = []
        for tail in list(self.tails.values()):
            try:
                out.extend(self._lines(tail, data) for data in self._read(tail))
            except OSError as exc:
                self.metrics.source_errors.labels("logs", f"{type(exc).__name__}").inc()
        return out

    def _discover(self) -> None:
        for root in self.settings.log_dirs:
            for path in root.glob("*/attempt_*/*/std*.log"):
                match = LAYOUT.search(path.as_posix())
                if match and path not in self.tails:
                    self.tails[path] = _Tail(path, run_id(match["run"]), int(match["attempt"]),
                                             int(match["local_rank"]))

    def _read(self, tail: _Tail) -> list[bytes]:
        """Complete lines newly available in ``tail`` (rotation and truncation handled)."""
        try:
            st = os.stat(tail.path)
        except FileNotFoundError:
            return self._drain(tail, close=True)  # rotated away, not yet recreated
        chunks: list[bytes] = []
        if tail.handle is not None and st.st_ino != tail.inode:
            chunks += self._drain(tail, close=True)
        if tail.handle is None:
            if st.st_ino == tail.inode and st.st_size == tail.offset:
                return chunks  # closed while idle and still unchanged
            self._open(tail, st.st_ino)
        elif st.st_size < tail.offset:
            assert tail.handle is not None
            tail.handle.seek(0)
            tail.offset, tail.partial = 0, b""
        lines = self._drain(tail, close=False)
        self._close_if_idle(tail, bool(lines))
        return chunks + lines

    def _close_if_idle(self, tail: _Tail, read_something: bool) -> None:
        """Close files that stopped growing (old attempts), so descriptors do not pile up.

        The position is kept; the file is reopened there if it grows or changes again.
        """
        now = time.monotonic()
        if read_something or tail.partial or tail.last_data_s is None:
            tail.last_data_s = now
        elif now - tail.last_data_s >= self.idle_close_s and tail.handle is not None:
            self._saved[str(tail.path)] = (tail.inode, tail.offset)
            tail.handle.close()
            tail.handle = None

    def _open(self, tail: _Tail, inode: int) -> None:
        tail.handle = open(tail.path, "rb")  # noqa: SIM115 - kept open across rounds to follow the inode
        tail.inode = inode
        saved = self._saved.pop(str(tail.path), None)
        tail.offset = saved[1] if saved is not None and saved[0] == inode else 0
        tail.handle.seek(tail.offset)
        tail.partial = b""

    def _drain(self, tail: _Tail, close: bool) -> list[bytes]:
        if tail.handle is None:
            return []
        data = tail.partial + tail.handle.read()
        *lines, tail.partial = data.split(b"\n")
        while len(tail.partial) >= MAX_LINE_BYTES:
            lines.append(tail.partial[:MAX_LINE_BYTES])
            tail.partial = tail.partial[MAX_LINE_BYTES:]
        tail.offset = tail.handle.tell() - len(tail.partial)
        if close:
            if tail.partial:  # the rotated file is finished: its unterminated last line is complete
                lines.append(tail.partial)
            tail.handle.close()
            tail.handle, tail.partial = None, b""
        return [line.rstrip(b"\r") for line in lines]

    def _lines(self, tail: _Tail, data: bytes) -> LogLine:
        text = data.decode("utf-8", errors="replace")
        s = self.settings
        rank = (s.node_rank * s.nproc_per_node + tail.local_rank
                if s.node_rank is not None and s.nproc_per_node is not None else None)
        return LogLine(event_id=new_event_id(), event_time=self.clock(), cluster=s.cluster, node_id=s.node_id,
                       job_id=s.job_id or tail.run, rank=rank, attempt=tail.attempt,
                       source="nccl" if NCCL.search(text) else "training", line=text)

    def commit(self) -> None:
        """Persist (inode, offset) of every open file, atomically."""
        state = {str(t.path): [t.inode, t.offset] for t in self.tails.values() if t.handle is not None}
        state.update({p: list(v) for p, v in self._saved.items()})
        if state == self._committed:
            return
        self.state_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state))
        os.replace(tmp, self.state_path)
        self._committed = state

    def close(self) -> None:
        for tail in self.tails.values():
            if tail.handle is not None:
                tail.handle.close()
                tail.handle = None
