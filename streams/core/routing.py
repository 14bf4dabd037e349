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
  sample to ``jobs.feed`` keyed by the job whose placement held the node at the sample's
  event time. Samples wait a little event time before they are attributed, so a placement
  read after a sample of the same moment still counts: the result does not depend on which
  topic a worker happened to read first.

A node belongs to a job from its ``scheduled``/``restarting`` placement until the job
``finished`` or was ``cancelled`` (a failed job keeps its nodes: faults that explain the
failure still belong to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
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
    format_time,
    parse_time,
)
from streams.core.detector import Forward, JsonData, Output

JOB_KEYED = (JobEvent, StepProgress, StackSample, CollectiveProgress)
NODE_KEYED = (GpuSample, NetSample)
ENDS_PLACEMENT = frozenset({"finished", "cancelled"})
SETS_PLACEMENT = frozenset({"scheduled", "restarting"})

PENDING_PER_NODE = 64
"""Most events of one node waiting to be attributed; beyond it the oldest is attributed at once."""

HOLD_S = 10.0
"""Node event time a node's sample or fault waits before it is attributed to a job: two
sampling intervals, enough for a new placement racing it through the lifecycle stage."""


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
    """One node's placements over event time and its events waiting to be attributed.

    ``history`` holds (since, job or None) in event-time order, the last few placements of
    the node; ``pending`` the node's samples and job-less faults not yet forwarded."""

    history: list[tuple[datetime, str | None]] = field(default_factory=list)
    pending: list[Event] = field(default_factory=list)
    newest: datetime | None = None
    dropped: int = 0

    def job_at(self, moment: datetime) -> str | None:
        """The job whose placement held the node at event time ``moment``."""
        job = None
        for since, owner in self.history:
            if since > moment:
                break
            job = owner
        return job


class NodeRouter:
    """Forwards a node's samples and job-less faults to ``jobs.feed`` of the job that held the
    node at the event's time.

    A node's events wait ``hold_s`` of the node's own event time before they are attributed,
    and events that no known placement covers wait for one (at most ``pending_per_node``,
    then the oldest is dropped and counted: an idle node's samples belong to no job). A
    placement travels through the lifecycle stage while the node's samples come straight,
    so a backlog read at any speed delivers samples before the placement that covers them.
    The placement history then says which job held the node at each event's time. Faults
    that name their job go straight on. A node handed from job A to job B without A's end
    being reported first can have B's first events attributed to A. The learned fallback's
    guesses (``Fault.learned``) stay out of the jobs' pipelines: no incident, decision or
    interruption cause rests on a guess.
    """

    name = "route"

    def __init__(self, hold_s: float = HOLD_S, pending_per_node: int = PENDING_PER_NODE,
                 history_per_node: int = 8) -> None:
        self.hold = timedelta(seconds=hold_s)
        self.pending_per_node = pending_per_node
        self.history_per_node = history_per_node

    def initial(self) -> NodeState:
        return NodeState()

    def step(self, state: NodeState, event: Event) -> tuple[NodeState, Sequence[Output]]:
        if isinstance(event, Fault) and event.learned:
            return state, []  # a learned guess is shown (faults topic), never a job's evidence
        if isinstance(event, Fault) and event.job_id:
            return state, [Forward("jobs.feed", event.job_id, event)]
        if isinstance(event, JobEvent):
            self._placement(state, event)
        elif isinstance(event, (*NODE_KEYED, Fault)):
            state.pending.append(event)
        else:
            return state, []
        if state.newest is None or event.event_time > state.newest:
            state.newest = event.event_time
        out = self._release(state, state.newest - self.hold)
        while len(state.pending) > self.pending_per_node:  # a burst faster than hold_s: attribute now
            out += self._attribute(state, state.pending.pop(0))
        return state, out

    def _placement(self, state: NodeState, event: JobEvent) -> None:
        if event.kind in SETS_PLACEMENT and event.placement:
            state.history.append((event.event_time, event.job_id))
        elif event.kind in ENDS_PLACEMENT and state.job_at(event.event_time) == event.job_id:
            state.history.append((event.event_time, None))
        else:
            return
        state.history.sort(key=lambda entry: entry[0])
        del state.history[:-self.history_per_node]

    def _release(self, state: NodeState, until: datetime) -> list[Output]:
        """Forward what waited long enough and has a job; what has none keeps waiting (its
        placement may still be on its way: a backlog is read much faster than it was made)."""
        ready = [e for e in state.pending if e.event_time <= until and state.job_at(e.event_time)]
        if not ready:
            return []
        state.pending = [e for e in state.pending if not (e.event_time <= until and state.job_at(e.event_time))]
        return [Forward("jobs.feed", str(state.job_at(e.event_time)), e)
                for e in sorted(ready, key=lambda e: e.event_time)]

    def _attribute(self, state: NodeState, event: Event) -> list[Output]:
        """An event pushed out of a full buffer: forwarded if a placement covers it, else
        dropped and counted (a node between jobs: its samples belong to no job)."""
        job = state.job_at(event.event_time)
        if job is None:
            state.dropped += 1
            return []
        return [Forward("jobs.feed", job, event)]

    def flush(self, state: NodeState, now: datetime) -> tuple[NodeState, Sequence[Output]]:
        """Attribute what waited ``hold_s`` as of the stage watermark ``now``; at the end of
        input (``now`` at the end of time) everything, dropping what no placement covers."""
        if now.year < 9999:
            return state, self._release(state, now - self.hold)
        out = self._release(state, now)
        state.dropped += len(state.pending)
        state.pending = []
        return state, out

    def dump(self, state: NodeState) -> JsonData:
        return {"history": [[format_time(t), job] for t, job in state.history], "dropped": state.dropped,
                "newest": format_time(state.newest) if state.newest else None,
                "pending": [e.to_wire() for e in state.pending]}

    def load(self, data: JsonData) -> NodeState:
        import json

        pending = [decode(json.dumps(w)) for w in data.get("pending", [])]
        return NodeState([(parse_time(t), job) for t, job in data.get("history", [])],
                         [e for e in pending if e.KIND != "dead_letter"],
                         parse_time(data["newest"]) if data.get("newest") else None, int(data.get("dropped", 0)))
