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
class FaultInfo:
    """What the policy keeps of a fault it saw, to read an incident's root cause and cascade."""

    category: str
    level: str
    blame: str
    node_id: str | None
    action: str
    """Normalised recommended action (:func:`streams.decide.severity.action_of`)."""
    tier: int
    xid: int | None
    first_seen: datetime
    family: str = ""
    count: int = 1
    """Lines the fault's burst folded so far (its latest publication's ``count``)."""

    @property
    def link(self) -> bool:
        """A network link/port/NIC fault (blamed on the network or, when node-local, on the node)."""
        return self.blame == "network" or self.family == "comm"

    def dump(self) -> list[Any]:
        """JSON-ready data of this fault."""
        return [self.category, self.level, self.blame, self.node_id, self.action, self.tier,
                self.xid, iso(self.first_seen), self.family, self.count]

    @classmethod
    def load(cls, data: list[Any]) -> FaultInfo:
        """The fault :meth:`dump` saved."""
        return cls(data[0], data[1], data[2], data[3], data[4], int(data[5]), data[6], need_iso(data[7]),
                   data[8], int(data[9]) if len(data) > 9 else 1)  # no count in older states


@dataclass
class Acted:
    """The view of an incident the policy last acted on (a re-issue acts only on what changed)."""

    root: str
    nodes: list[str]
    attempt: int
    at: datetime

    def dump(self) -> list[Any]:
        """JSON-ready data of this view."""
        return [self.root, list(self.nodes), self.attempt, iso(self.at)]

    @classmethod
    def load(cls, data: list[Any]) -> Acted:
        """The view :meth:`dump` saved."""
        return cls(data[0], list(data[1]), int(data[2]), need_iso(data[3]))


@dataclass
class JobState:
    """Everything the policy remembers about one job (one state per ``job_id``)."""

    job_id: str | None = None
    cluster: str | None = None
    attempt: int = 0
    nodes: list[str] = field(default_factory=list)
    last_step_at: datetime | None = None
    last_step: int | None = None
    step_times_ms: list[float] = field(default_factory=list)
    """The latest step times (any rank), for the median step time of the progress window."""
    stopped: bool = False
    ended: bool = False
    checkpointing_since: datetime | None = None
    checkpoint_requested_at: datetime | None = None
    seen: dict[str, str] = field(default_factory=dict)
    """cause id (verdict/outlier) -> ISO time it was first acted on."""
    faults: dict[str, FaultInfo] = field(default_factory=dict)
    """fault_id -> what the policy needs of it (recent faults only, bounded)."""
    incidents: dict[str, Acted] = field(default_factory=dict)
    """incident_id -> the view last acted on."""
    minor: dict[str, dict[str, str]] = field(default_factory=dict)
    """node -> {fault_id: ISO first_seen} of corrected/contained errors within the lemon window."""
    minor_counts: dict[str, int] = field(default_factory=dict)
    """fault_id -> lines its burst folded, for the faults of ``minor`` (the lemon count is of errors)."""
    lemons: dict[str, str] = field(default_factory=dict)
    """node -> ISO time it was last reported as a lemon node."""
    acted_nodes: dict[str, int] = field(default_factory=dict)
    """node -> attempt in which the policy already proposed to take it."""
    job_action_attempt: int | None = None
    """Attempt for which a job-wide action (restart, resubmit, stop) was already proposed."""
    job_roots: dict[int, dict[str, str]] = field(default_factory=dict)
    """attempt -> {job-blamed root-cause key: fault_id} of that attempt's incidents."""
    restart: RestartWatch | None = None
    ports: dict[str, list[int]] = field(default_factory=dict)
    """"node/device/port" -> [link_downed_total, 1 if ACTIVE else 0] as last seen in a net_sample."""
    ports_down: dict[str, str] = field(default_factory=dict)
    """node -> ISO time one of its ports last went down (left ACTIVE, or link_downed_total rose)."""

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this state."""
        return {
            "job_id": self.job_id, "cluster": self.cluster, "attempt": self.attempt,
            "nodes": list(self.nodes), "last_step_at": iso(self.last_step_at),
            "last_step": self.last_step, "step_times_ms": list(self.step_times_ms),
            "stopped": self.stopped, "ended": self.ended,
            "checkpointing_since": iso(self.checkpointing_since),
            "checkpoint_requested_at": iso(self.checkpoint_requested_at),
            "seen": dict(self.seen),
            "faults": {k: v.dump() for k, v in self.faults.items()},
            "incidents": {k: v.dump() for k, v in self.incidents.items()},
            "minor": {k: dict(v) for k, v in self.minor.items()}, "lemons": dict(self.lemons),
            "minor_counts": dict(self.minor_counts),
            "acted_nodes": dict(self.acted_nodes),
            "job_action_attempt": self.job_action_attempt,
            "job_roots": {str(k): dict(v) for k, v in self.job_roots.items()},
            "restart": self.restart.dump() if self.restart else None,
            "ports": {k: list(v) for k, v in self.ports.items()}, "ports_down": dict(self.ports_down),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> JobState:
        """The state :meth:`dump` saved."""
        restart = data.get("restart")
        return cls(
            job_id=data["job_id"], cluster=data["cluster"], attempt=int(data["attempt"]),
            nodes=list(data["nodes"]), last_step_at=from_iso(data["last_step_at"]),
            last_step=data["last_step"], step_times_ms=[float(x) for x in data["step_times_ms"]],
            stopped=bool(data["stopped"]), ended=bool(data["ended"]),
            checkpointing_since=from_iso(data["checkpointing_since"]),
            checkpoint_requested_at=from_iso(data["checkpoint_requested_at"]),
            seen=dict(data["seen"]),
            faults={k: FaultInfo.load(v) for k, v in data["faults"].items()},
            incidents={k: Acted.load(v) for k, v in data["incidents"].items()},
            minor={k: dict(v) for k, v in data["minor"].items()}, lemons=dict(data["lemons"]),
            minor_counts={k: int(v) for k, v in data.get("minor_counts", {}).items()},  # absent from older states
            acted_nodes={k: int(v) for k, v in data["acted_nodes"].items()},
            job_action_attempt=data["job_action_attempt"],
            job_roots={int(k): dict(v) for k, v in data["job_roots"].items()},
            restart=RestartWatch.load(restart) if restart else None,
            ports={k: [int(x) for x in v] for k, v in data.get("ports", {}).items()},  # absent from older states
            ports_down=dict(data.get("ports_down", {})),
        )
