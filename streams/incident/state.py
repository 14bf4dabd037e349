"""Per-job state of the incident stage, with an exact JSON round trip (``dump``/``load``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@dataclass
class Member:
    """One fault of an incident: what root-cause selection and ``nodes`` need to know."""

    fault_id: str
    first_seen: datetime
    last_seen: datetime
    tier: int
    node_id: str | None
    category: str
    blame: str
    link: bool = False
    """A network link/port/NIC fault (blame network, or family ``comm`` when blamed on a node)."""

    def dump(self) -> list[Any]:
        """JSON-ready data of this member."""
        return [self.fault_id, _iso(self.first_seen), _iso(self.last_seen), self.tier, self.node_id,
                self.category, self.blame, self.link]

    @classmethod
    def load(cls, data: list[Any]) -> Member:
        """The member :meth:`dump` saved."""
        return cls(data[0], datetime.fromisoformat(data[1]), datetime.fromisoformat(data[2]),
                   int(data[3]), data[4], data[5], data[6], bool(data[7]))


@dataclass
class Open:
    """An incident that may still grow; ``published`` is the last view that was emitted."""

    incident_id: str
    attempt: int
    members: dict[str, Member] = field(default_factory=dict)
    last_seen: datetime | None = None
    published: str | None = None
    """Fingerprint (root, cascade, nodes, last_seen) of the last emitted ``Incident``."""

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this incident."""
        return {"id": self.incident_id, "attempt": self.attempt,
                "members": [m.dump() for m in self.members.values()],
                "last_seen": _iso(self.last_seen), "published": self.published}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Open:
        """The incident :meth:`dump` saved."""
        members = [Member.load(m) for m in data["members"]]
        return cls(data["id"], int(data["attempt"]), {m.fault_id: m for m in members},
                   _time(data["last_seen"]), data["published"])


@dataclass
class IncidentState:
    """Everything the incident stage remembers about one job."""

    job_id: str | None = None
    cluster: str | None = None
    clock: datetime | None = None
    """The latest event time seen: publishes settled incidents and prunes old ones."""
    attempt_starts: dict[int, datetime] = field(default_factory=dict)
    """attempt -> earliest event time of a job_event of that attempt (its start)."""
    incidents: dict[str, Open] = field(default_factory=dict)
    """Open incidents in creation order."""
    fault_incident: dict[str, str] = field(default_factory=dict)
    """fault_id -> incident_id of every remembered member."""

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this state."""
        return {"job_id": self.job_id, "cluster": self.cluster, "clock": _iso(self.clock),
                "attempt_starts": {str(k): _iso(v) for k, v in self.attempt_starts.items()},
                "incidents": [i.dump() for i in self.incidents.values()]}

    @classmethod
    def load(cls, data: dict[str, Any]) -> IncidentState:
        """The state :meth:`dump` saved (the fault index is rebuilt from the members)."""
        incidents = [Open.load(i) for i in data["incidents"]]
        state = cls(data["job_id"], data["cluster"], _time(data["clock"]),
                    {int(k): datetime.fromisoformat(v) for k, v in data["attempt_starts"].items()},
                    {i.incident_id: i for i in incidents})
        state.fault_incident = {f: i.incident_id for i in incidents for f in i.members}
        return state
