"""One simulated job as plain JSON events, and the edits the decision fleets make to it.

A :class:`JobRun` is one ``producers.simulator`` run of a single job, re-addressed into the
fleet (its nodes and job id renumbered, its start shifted) and held as JSON dicts, so the
fleet generator can add real log lines, cut a failed attempt's telemetry, start new attempts
and degrade counters without touching the simulator. Each event may carry a private
``_deliver_s`` (seconds after its event time at which it reaches the file); it is removed
when the fleet is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from producers.simulator import FleetConfig, Truth, simulate
from producers.simulator.scenarios import Scenario
from schemas import encode

Json = dict[str, Any]
DENSE = frozenset({"step_progress/v1", "stack_sample/v1", "collective_progress/v1"})
"""Kinds only a live training process emits."""


def iso(t: datetime) -> str:
    """RFC 3339 UTC with milliseconds, as the contract writes times."""
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def parse(text: str) -> datetime:
    """The aware datetime of a contract time string."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class JobRun:
    """A job's events in the fleet: ``nodes`` in rank order, ``gpus`` per node, ``start``."""

    job_id: str
    nodes: list[str]
    gpus: int
    start: datetime
    events: list[Json]
    truth: list[Truth]
    pid_base: int = 4000
    _ids: int = field(default=0)

    def at(self, s: float) -> datetime:
        """The time ``s`` seconds after the job's simulated run began."""
        return self.start + timedelta(seconds=s)

    def node_of(self, rank: int) -> str:
        """The node rank ``rank`` runs on."""
        return self.nodes[rank // self.gpus]

    def new_id(self) -> str:
        """A fresh, deterministic event id for an added event."""
        self._ids += 1
        return f"d2-{self.job_id}-{self._ids:06d}"

    def add(self, schema: str, s: float, deliver_s: float = 0.0, **fields: Any) -> Json:
        """Append an event of kind ``schema`` (``log_line``, ``job_event``...) at ``s`` seconds."""
        event: Json = {"schema": f"{schema}/v1", "event_id": self.new_id(), "event_time": iso(self.at(s)),
                       "cluster": "sim", **fields}
        if deliver_s:
            event["_deliver_s"] = deliver_s
        self.events.append(event)
        return event

    def log(self, s: float, rank: int | None, node: str, source: str, line: str,
            attempt: int | None = None, deliver_s: float = 0.0, job: bool = True) -> Json:
        """Append a log line; kernel/system lines carry no job id (they come from the node)."""
        own = job and source in ("training", "nccl")
        return self.add("log_line", s, deliver_s, node_id=node, job_id=self.job_id if own else None,
                        rank=rank if own else None, source=source, line=line, attempt=attempt if own else None)

    def lifecycle(self, s: float, attempt: int, kind: str, step: int | None = None,
                  detail: str | None = None, placement: bool = False) -> Json:
        """Append a job_event; ``placement`` adds every rank's node (for ``scheduled``)."""
        ranks = [{"rank": r, "node_id": self.node_of(r)} for r in range(len(self.nodes) * self.gpus)]
        return self.add("job_event", s, job_id=self.job_id, attempt=attempt, kind=kind,
                        placement=ranks if placement else [], step=step, detail=detail)

    def drop(self, keep: Callable[[Json], bool]) -> None:
        """Keep only the events ``keep`` accepts."""
        self.events = [e for e in self.events if keep(e)]

    def cut(self, s0: float, s1: float | None = None, nodes: Iterable[str] | None = None) -> None:
        """Remove the live process's events (dense kinds, own training/nccl lines, the
        simulator's lifecycle) of the job in [s0, s1): the attempt is dead there."""
        t0, t1 = iso(self.at(s0)), iso(self.at(s1)) if s1 is not None else "9999"
        only = set(nodes) if nodes is not None else None

        def keep(e: Json) -> bool:
            if not (t0 <= e["event_time"] < t1) or e.get("job_id") != self.job_id or e["event_id"].startswith("d2-"):
                return True
            if only is not None and e.get("node_id") not in only:
                return True
            return e["schema"] not in DENSE and e["schema"] not in ("log_line/v1", "job_event/v1")
        self.drop(keep)

    def last_step(self, s: float) -> int:
        """The highest step reported by rank 0 before ``s`` (0 if none)."""
        t = iso(self.at(s))
        steps = [e["step"] for e in self.events if e["schema"] == "step_progress/v1" and e["rank"] == 0
                 and e["event_time"] < t]
        return max(steps, default=0)

    def settle_attempts(self) -> None:
        """Give the simulator's own lifecycle events (checkpoint hooks, ``finished``) the attempt
        in effect at their time: the simulator knows only attempt 0, the added restarts more."""
        starts = sorted((e["event_time"], e["attempt"]) for e in self.events if e["schema"] == "job_event/v1"
                        and e["event_id"].startswith("d2-") and e["kind"] == "restarting")
        for e in self.events:
            if e["schema"] == "job_event/v1" and not e["event_id"].startswith("d2-"):
                e["attempt"] = max((a for t, a in starts if t <= e["event_time"]), default=0)

    def rename_node(self, old: str, new: str, from_s: float) -> None:
        """From ``from_s`` on, the rank slots of ``old`` run on ``new`` (a replaced node)."""
        t = iso(self.at(from_s))
        for e in self.events:
            if e["event_time"] >= t and e.get("node_id") == old:
                e["node_id"] = new
        self.nodes = [new if n == old else n for n in self.nodes]


def simulated(config: FleetConfig, scenarios: list[Scenario], job_index: int, node_offset: int) -> JobRun:
    """Simulate one job (``config.jobs == 1``) and re-address it as job ``job_index`` on
    fleet nodes ``node_offset+1 ..``; raises ``ValueError`` for a misfit config."""
    run = simulate(config, scenarios)
    node_rx, job_rx = re.compile(r"node-(\d{4})"), re.compile(r"job-0000")
    job_id = f"job-{job_index:04d}"

    def readdress(text: str) -> str:
        text = node_rx.sub(lambda m: f"node-{int(m[1]) + node_offset:04d}", text)
        return job_rx.sub(job_id, text)
    events = [json.loads(readdress(encode(e).decode())) for e in run.events]
    nodes = [f"node-{i + 1 + node_offset:04d}" for i in range(config.nodes)]
    truth = [Truth(t.kind, job_id, tuple(readdress(n) for n in t.node_ids), t.ranks, t.onset, t.end, t.category,
                   t.detail) for t in run.truth]
    return JobRun(job_id, nodes, config.gpus_per_node, config.start_utc, events, truth)
