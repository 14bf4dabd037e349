"""Which job an event belongs to: the node -> job map kept from ``jobs.lifecycle`` placements.

Node-keyed telemetry (GPU and network samples, kernel faults) carries no job; a job's
detectors need it all the same. ``Placements`` remembers, from each ``scheduled`` event,
which job runs on which node, and forgets a node when its job finishes or is cancelled
(a failed job keeps its nodes: faults that explain the failure still belong to it).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
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
)

JOB_KEYED = (JobEvent, StepProgress, StackSample, CollectiveProgress)
NODE_KEYED = (GpuSample, NetSample)


@dataclass
class Placements:
    """node_id -> job_id, maintained from lifecycle events.

    ``job_of_node`` is a plain dict in replay and a view of a Faust global table in the
    streaming shell; either way the same lookups apply.
    """

    job_of_node: MutableMapping[str, str] = field(default_factory=dict)

    def observe(self, event: JobEvent) -> dict[str, str | None]:
        """Apply a lifecycle event; returns the node -> job changes (None = removed)."""
        changes: dict[str, str | None] = {}
        if event.kind in ("scheduled", "restarting") and event.placement:
            for place in event.placement:
                changes[place.node_id] = event.job_id
        elif event.kind in ("finished", "cancelled"):
            for node, job in self.job_of_node.items():
                if job == event.job_id:
                    changes[node] = None
        self.apply(changes)
        return changes

    def apply(self, changes: dict[str, str | None]) -> None:
        """Apply changes produced by :meth:`observe` (possibly in another process)."""
        for node, job in changes.items():
            if job is None:
                self.job_of_node.pop(node, None)
            else:
                self.job_of_node[node] = job

    def dump(self) -> dict[str, Any]:
        return {"job_of_node": dict(self.job_of_node)}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Placements:
        return cls(dict(data.get("job_of_node", {})))


def job_of(event: Event, placements: Placements) -> str | None:
    """The job whose detectors must see ``event``, or None if it belongs to no job."""
    if isinstance(event, JOB_KEYED):
        return event.job_id
    if isinstance(event, LogLine):
        return event.job_id if event.source in ("training", "nccl") else None
    if isinstance(event, NODE_KEYED):
        return placements.job_of_node.get(event.node_id)
    if isinstance(event, Fault):
        if event.job_id:
            return event.job_id
        return placements.job_of_node.get(event.node_id) if event.node_id else None
    return None


def classify_key(event: Event) -> str | None:
    """The state key of the classifier for a log line: its topic and message key."""
    if not isinstance(event, LogLine):
        return None
    if event.source in ("kernel", "system"):
        return f"kernel|{event.node_id}"
    return f"log|{event.job_id or event.node_id}"
