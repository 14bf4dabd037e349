"""Stack collector: py-spy dumps of the node's training processes -> ``stack_sample``.

Training processes are found under ``<host_root>/proc``: the cmdline contains one of
``stack_match`` and the environment names a rank (``RANK``, else ``LOCAL_RANK`` with the
configured node rank and processes per node). The launcher itself (torchrun) has no rank
and is skipped. The job id is the configured one, else from the process environment:
``FAULTLINE_JOB_ID``, then ``SLURM_JOB_ID``, then ``TORCHELASTIC_RUN_ID`` (the order the
training hooks use, so both name the same job).

Each process is dumped with ``py-spy dump --pid PID --json`` (needs ptrace: root or
CAP_SYS_PTRACE); the main thread (``os_thread_id == pid``) is kept and its frames, which
py-spy lists innermost first, are reversed to outermost first as ``"function (file:line)"``.

Runs every ``stack_interval_s`` and on demand: :meth:`request` (wired to SIGUSR1) or the
``stack_trigger_file`` appearing (it is removed when served).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from producers.agent.base import Clock, new_event_id, utc_now
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import StackSample


@dataclass(frozen=True)
class TrainingProcess:
    pid: int
    rank: int
    job_id: str


def frames_of(dump: list[dict[str, Any]], pid: int) -> tuple[str, ...]:
    """The main thread's frames of a py-spy JSON dump, outermost first."""
    if not dump:
        return ()
    main = next((t for t in dump if t.get("os_thread_id") == pid),
                next((t for t in dump if t.get("thread_name") == "MainThread"), dump[0]))
    frames = main.get("frames") or []
    return tuple(f"{f.get('name', '?')} ({f.get('filename', '?')}:{f.get('line', 0)})" for f in reversed(frames))


def _environ(raw: bytes) -> dict[str, str]:
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


class StackCollector:
    """Finds training processes and dumps their main-thread stacks."""

    name = "stacks"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.interval_s = settings.stack_interval_s
        self.metrics = metrics
        self.clock = clock
        self.proc = settings.host("/proc")
        self._requested = False

    def request(self) -> None:
        """Ask for a dump at the next poll (safe to call from a signal handler)."""
        self._requested = True

    def wanted(self) -> bool:
        """True when a dump was requested by signal or trigger file since the last round."""
        trigger = self.settings.stack_trigger_file
        return self._requested or (trigger is not None and trigger.exists())

    def collect(self) -> list[Event]:
        self._requested = False
        if self.settings.stack_trigger_file is not None:
            self.settings.stack_trigger_file.unlink(missing_ok=True)
        # All ranks are dumped at once: one round costs the slowest dump, not their sum, and
        # the samples describe (nearly) the same moment, which the stack-outlier test compares.
        at = self.clock()
        started = [(t, self._start(t)) for t in self.training_processes()]
        deadline = time.monotonic() + self.settings.py_spy_timeout_s
        out: list[Event] = []
        for target, proc in started:
            sample = self._finish(target, proc, at, deadline) if proc is not None else None
            if sample is not None:
                out.append(sample)
        return out

    def training_processes(self) -> list[TrainingProcess]:
        """Processes whose cmdline matches and whose environment gives a rank and a job."""
        found = []
        me = os.getpid()
        for entry in os.scandir(self.proc):
            if not entry.name.isdigit() or int(entry.name) == me:
                continue
            try:
                cmdline = (self.proc / entry.name / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if not any(m in cmdline for m in self.settings.stack_match) or "py-spy" in cmdline:
                    continue
                env = _environ((self.proc / entry.name / "environ").read_bytes())
            except OSError:
                continue  # exited meanwhile, or not ours to read
            target = self._identify(int(entry.name), env)
            if target is not None:
                found.append(target)
        return found

    def _identify(self, pid: int, env: Mapping[str, str]) -> TrainingProcess | None:
        s = self.settings
        rank: int | None = None
        if env.get("RANK", "").isdigit():
            rank = int(env["RANK"])
        elif env.get("LOCAL_RANK", "").isdigit() and s.node_rank is not None and s.nproc_per_node is not None:
            rank = s.node_rank * s.nproc_per_node + int(env["LOCAL_RANK"])
        job = s.job_id or env.get("FAULTLINE_JOB_ID") or env.get("SLURM_JOB_ID") or env.get("TORCHELASTIC_RUN_ID")
        return TrainingProcess(pid, rank, job) if rank is not None and job else None

    def _start(self, target: TrainingProcess) -> subprocess.Popen[str] | None:
        cmd = [self.settings.py_spy, "dump", "--pid", str(target.pid), "--json"]
        try:
            return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        except OSError as exc:
            self.metrics.source_errors.labels("stacks", type(exc).__name__).inc()
            return None

    def _finish(self, target: TrainingProcess, proc: subprocess.Popen[str], at: datetime,
                deadline: float) -> StackSample | None:
        try:
            stdout, _ = proc.communicate(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            self.metrics.source_errors.labels("stacks", "py-spy timeout").inc()
            return None
        if proc.returncode != 0:
            self.metrics.source_errors.labels("stacks", f"py-spy exit {proc.returncode}").inc()
            return None
        try:
            frames = frames_of(json.loads(stdout), target.pid)
        except (ValueError, AttributeError, TypeError):
            self.metrics.source_errors.labels("stacks", "py-spy output").inc()
            return None
        return StackSample(event_id=new_event_id(), event_time=at, cluster=self.settings.cluster,
                           node_id=self.settings.node_id, job_id=target.job_id, rank=target.rank,
                           pid=target.pid, frames=frames)
