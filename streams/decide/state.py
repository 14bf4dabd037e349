"""Per-job state of the restart policy, with an exact JSON round trip (``dump``/``load``).

Kept separate from the rules so that :mod:`streams.decide.policy` reads as the policy only.
Times are aware UTC datetimes in memory and ISO 8601 strings (microsecond precision, so that
``load(dump(s))`` behaves exactly like ``s``) in the dump.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


def iso(value: datetime | None) -> str | None:
    """An exact ISO 8601 text of ``value`` (None stays None)."""
    return None if value is None else value.isoformat()


def from_iso(text: str | None) -> datetime | None:
    """The datetime :func:`iso` wrote (None stays None)."""
    return None if text is None else datetime.fromisoformat(text)


def need_iso(text: str) -> datetime:
    """Like :func:`from_iso` for a value that is never None."""
    return datetime.fromisoformat(text)


@dataclass
class RestartWatch:
    """An issued ``restart_in_place`` waiting for the job to make progress again.

    ``attempt`` is the attempt the restart was issued in; ``restarted_at`` is the event time of
    the first job_event with a higher attempt (the restart became visible).
    """

    decision_id: str
    attempt: int
    issued_at: datetime
    deadline: datetime
    cause_ids: list[str]
    restarted_at: datetime | None = None

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this watch."""
        return {
            "decision_id": self.decision_id, "attempt": self.attempt,
            "issued_at": iso(self.issued_at), "deadline": iso(self.deadline),
            "cause_ids": list(self.cause_ids), "restarted_at": iso(self.restarted_at),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> RestartWatch:
        """The watch :meth:`dump` saved."""
        return cls(
            decision_id=data["decision_id"], attempt=int(data["attempt"]),
            issued_at=need_iso(data["issued_at"]), deadline=need_iso(data["deadline"]),
            cause_ids=list(data["cause_ids"]), restarted_at=from_iso(data["restarted_at"]),
        )


@dataclass
class JobState:
    """Everything the policy remembers about one job (one state per ``job_id``)."""

    job_id: str | None = None
    cluster: str | None = None
    attempt: int = 0
    nodes: list[str] = field(default_factory=list)
    last_step_at: datetime | None = None
    last_step: int | None = None
    stopped: bool = False
    ended: bool = False
    checkpointing_since: datetime | None = None
    checkpoint_requested_at: datetime | None = None
    seen: dict[str, str] = field(default_factory=dict)
    """cause id (fault/verdict/outlier) -> ISO time it was first acted on."""
    recent_node_faults: list[tuple[str, str, str]] = field(default_factory=list)
    """(ISO time, node, fault_id) of node-blamed faults inside the multi-node window."""
    acted_nodes: dict[str, int] = field(default_factory=dict)
    """node -> attempt in which the policy already proposed to take it."""
    job_action_attempt: int | None = None
    """Attempt for which a job-wide action (restart, resubmit, stop) was already proposed."""
    job_faults: dict[str, tuple[int, str]] = field(default_factory=dict)
    """job-blamed category -> (attempt first seen, fault_id)."""
    restart: RestartWatch | None = None

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this state."""
        return {
            "job_id": self.job_id, "cluster": self.cluster, "attempt": self.attempt,
            "nodes": list(self.nodes), "last_step_at": iso(self.last_step_at),
            "last_step": self.last_step, "stopped": self.stopped, "ended": self.ended,
            "checkpointing_since": iso(self.checkpointing_since),
            "checkpoint_requested_at": iso(self.checkpoint_requested_at),
            "seen": dict(self.seen),
            "recent_node_faults": [list(r) for r in self.recent_node_faults],
            "acted_nodes": dict(self.acted_nodes),
            "job_action_attempt": self.job_action_attempt,
            "job_faults": {k: list(v) for k, v in self.job_faults.items()},
            "restart": self.restart.dump() if self.restart else None,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> JobState:
        """The state :meth:`dump` saved."""
        restart = data.get("restart")
        return cls(
            job_id=data["job_id"], cluster=data["cluster"], attempt=int(data["attempt"]),
            nodes=list(data["nodes"]), last_step_at=from_iso(data["last_step_at"]),
            last_step=data["last_step"], stopped=bool(data["stopped"]), ended=bool(data["ended"]),
            checkpointing_since=from_iso(data["checkpointing_since"]),
            checkpoint_requested_at=from_iso(data["checkpoint_requested_at"]),
            seen=dict(data["seen"]),
            recent_node_faults=[(r[0], r[1], r[2]) for r in data["recent_node_faults"]],
            acted_nodes={k: int(v) for k, v in data["acted_nodes"].items()},
            job_action_attempt=data["job_action_attempt"],
            job_faults={k: (int(v[0]), str(v[1])) for k, v in data["job_faults"].items()},
            restart=RestartWatch.load(restart) if restart else None,
        )
