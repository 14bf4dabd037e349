"""Which job (and which cluster) an event belongs to: the only routing code of the pipeline.

Node-keyed telemetry (GPU and network samples, kernel faults) carries no job; a job's
detectors need it all the same. Routing is two pure stages of the declared topology
(``streams.topology``), so the Faust worker and ``faultline replay`` route alike:

- :class:`LifecycleFanout` (keyed by job) turns each ``job_event`` into one per-node copy
  on ``placements.feed`` (keyed by node, carrying only that node's ranks). It remembers the
  job's nodes so a ``finished`` event reaches all of them. (The guards get the lifecycle
  from the job pipeline, in event-time order with the job's decisions.)
- :class:`NodeRouter` (keyed by node) reads ``placements.feed`` together with the node's
  samples and faults, which are partitioned by the same key (co-partitioned: every worker
  holds the placements of exactly the nodes whose telemetry it reads), and forwards each
  sample to ``jobs.feed`` keyed by the node's job. A sample that arrives before its node's
  placement waits in a small bounded buffer and is forwarded when the placement comes, so
  the result does not depend on which topic a worker happened to read first.

A node belongs to a job from its ``scheduled``/``restarting`` placement until the job
``finished`` or was ``cancelled`` (a failed job keeps its nodes: faults that explain the
failure still belong to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from schemas import (
    CollectiveProgress,
    Event,
    Fault,
    GpuSample,
    JobEvent,
    LogLine,
    NetSample,
    StackSample,
    StepProgress,
    decode,
)
from streams.core.detector import Forward, JsonData, Output

JOB_KEYED = (JobEvent, StepProgress, StackSample, CollectiveProgress)
NODE_KEYED = (GpuSample, NetSample)
ENDS_PLACEMENT = frozenset({"finished", "cancelled"})
SETS_PLACEMENT = frozenset({"scheduled", "restarting"})

PENDING_PER_NODE = 64
"""Samples of a node without a placement kept for when its placement arrives (~2.5 min of
GPU + network samples at 5 s). Older ones are dropped and counted: an idle node's samples
belong to no job."""


# --- keys -------------------------------------------------------------------------------

def job_key(topic: str, event: Event, message_key: str | None) -> str | None:
    """The job whose state an event of a job-keyed topic updates, or None (not a job's)."""
    if topic == "jobs.feed":
        return message_key
    if isinstance(event, JOB_KEYED):
        return event.job_id
    if isinstance(event, LogLine):
        return event.job_id if event.source in ("training", "nccl") else None
    return None


def classify_key(topic: str, event: Event, message_key: str | None) -> str | None:
    """The classifier's state key of a log line: its stream (job or node) and source kind."""
    if not isinstance(event, LogLine):
        return None
    if event.source in ("kernel", "system"):
        return f"kernel|{event.node_id}"
    return f"log|{event.job_id or event.node_id}"


def message_key(topic: str, event: Event, key: str | None) -> str | None:
    """The message key itself (stages whose input is already keyed by their state key)."""
    return key


def lifecycle_key(topic: str, event: Event, key: str | None) -> str | None:
    """Job events by job; nothing else."""
    return event.job_id if isinstance(event, JobEvent) else None


# --- lifecycle fan-out ------------------------------------------------------------------

@dataclass
class JobNodes:
    """The nodes of one job's current placement."""

    nodes: list[str] = field(default_factory=list)


class LifecycleFanout:
    """Per-node placements and per-cluster lifecycle copies of a job's events (module doc)."""

    name = "lifecycle"

    def initial(self) -> JobNodes:
        return JobNodes()

    def step(self, state: JobNodes, event: Event) -> tuple[JobNodes, Sequence[Output]]:
        if not isinstance(event, JobEvent):
            return state, []
        out: list[Output] = []
        if event.kind in SETS_PLACEMENT and event.placement:
            by_node: dict[str, list[Any]] = {}
            for place in event.placement:
                by_node.setdefault(place.node_id, []).append(place)
            released = [n for n in state.nodes if n not in by_node]
            state.nodes = sorted(by_node)
            out += [Forward("placements.feed", node, event.model_copy(update={"placement": tuple(places)}))
                    for node, places in sorted(by_node.items())]
            out += [Forward("placements.feed", node, _ended(event)) for node in released]
        elif event.kind in ENDS_PLACEMENT:
            out += [Forward("placements.feed", node, event.model_copy(update={"placement": ()}))
                    for node in state.nodes]
            state.nodes = []
        return state, out

    def flush(self, state: JobNodes, now: datetime) -> tuple[JobNodes, Sequence[Output]]:
        return state, []

    def dump(self, state: JobNodes) -> JsonData:
        return {"nodes": state.nodes}

    def load(self, data: JsonData) -> JobNodes:
        return JobNodes(list(data.get("nodes", [])))


def _ended(event: JobEvent) -> JobEvent:
    """A node left the job's placement on a restart: tell it as if the job ended there."""
    return event.model_copy(update={"kind": "finished", "placement": ()})


# --- node router ------------------------------------------------------------------------

@dataclass
class NodeState:
    """One node's current job and its samples waiting for a placement."""

    job: str | None = None
    pending: list[Event] = field(default_factory=list)
    dropped: int = 0


class NodeRouter:
    """Forwards a node's samples and job-less faults to its job's ``jobs.feed`` (module doc)."""

    name = "route"

    def __init__(self, pending_per_node: int = PENDING_PER_NODE) -> None:
        self.pending_per_node = pending_per_node

    def initial(self) -> NodeState:
        return NodeState()

    def step(self, state: NodeState, event: Event) -> tuple[NodeState, Sequence[Output]]:
        if isinstance(event, JobEvent):
            return state, self._placement(state, event)
        if isinstance(event, Fault) and event.job_id:
            return state, [Forward("jobs.feed", event.job_id, event)]
        if not isinstance(event, (*NODE_KEYED, Fault)):
            return state, []
        if state.job is not None:
            return state, [Forward("jobs.feed", state.job, event)]
        state.pending.append(event)
        if len(state.pending) > self.pending_per_node:
            del state.pending[0]
            state.dropped += 1
        return state, []

    def _placement(self, state: NodeState, event: JobEvent) -> list[Output]:
        if event.kind in SETS_PLACEMENT and event.placement:
            state.job = event.job_id
            waiting = [e for e in state.pending if e.event_time >= event.event_time]
            state.pending = []
            return [Forward("jobs.feed", event.job_id, e) for e in waiting]
        if event.kind in ENDS_PLACEMENT and state.job == event.job_id:
            state.job = None
        return []

    def flush(self, state: NodeState, now: datetime) -> tuple[NodeState, Sequence[Output]]:
        return state, []

    def dump(self, state: NodeState) -> JsonData:
        return {"job": state.job, "dropped": state.dropped,
                "pending": [e.to_wire() for e in state.pending]}

    def load(self, data: JsonData) -> NodeState:
        import json

        pending = [decode(json.dumps(w)) for w in data.get("pending", [])]
        return NodeState(data.get("job"), [e for e in pending if e.KIND != "dead_letter"],
                         int(data.get("dropped", 0)))

