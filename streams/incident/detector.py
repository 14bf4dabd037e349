"""The incident stage (pure): one job's faults -> incidents with one root cause and a cascade.

:class:`IncidentDetector` implements :class:`streams.core.detector.Detector` with one
:class:`~streams.incident.state.IncidentState` per ``job_id``. It runs inside the per-job
pipeline after the hang and slow stages and before the policy, and consumes the job's
``JobEvent`` (attempt boundaries) and ``Fault`` events (node faults routed to the job whose
placement holds the node); every other event only advances its event-time clock.

Contract (TAXONOMY.md "Incidents"):

- every fault belongs to one attempt: ``fault.attempt`` when the producer set it, else the
  attempt whose first ``job_event`` is the latest at or before the fault's ``first_seen``, so
  a late line of attempt n is attributed to n even when it arrives during attempt n+1;
- a fault joins the latest incident of its attempt whose start is within ``window_s`` of its
  ``first_seen``; NCCL symptoms and generic cascade lines also join the latest incident of
  their attempt with a stronger root cause up to ``absorb_s`` after it began; corrected /
  informational faults (action ``none``) never join: each is an incident of its own;
- the root cause is the member with the lowest tier (:mod:`streams.incident.severity`), then
  the earliest ``first_seen``, then the smallest id; every other member is cascade;
  ``nodes`` are the nodes of the members in the root cause's tier (several nodes in the
  primary tier = not single-point), except where a storage fault was seen when the root is
  not a storage fault (the shared file system failing says nothing about the node that
  reported it); ``category`` and ``blame`` are the root cause's;
- ``incident_id = derived_id("incident", job_id, attempt, first fault id)``; the incident is
  re-issued with the same id whenever its root, cascade, nodes or ``last_seen`` change;
- an incident whose root is an infrastructure fault is published at once, a link/port fault
  after ``link_settle_s`` (other nodes' ports may follow: a switch); one whose root is the
  job's own error or a symptom waits until event time passes ``first_seen + settle_s`` (the
  kernel line naming the real cause may come later); ``flush(now)`` publishes those settled
  by ``now``;
- ``event_time`` of an incident is when its evidence made it what it is: the later of the
  moment it became ready and its ``last_seen``. It depends on the incident's faults only, not
  on when the job's stream delivered them (a fault's final count arrives late, through the
  classifier's quiet window), so the worker and replay give every version the same time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from schemas import Event, Fault, Incident, JobEvent, derived_id
from streams.core.dispatch import kinds
from streams.incident import severity
from streams.incident.settings import IncidentSettings
from streams.incident.state import IncidentState, Member, Open

_OPENS = kinds(JobEvent, Fault)
"""The kinds that can start an attempt or an incident."""


class IncidentDetector:
    """Groups a job's faults into incidents (see the module docstring)."""

    name = "incident"

    def __init__(self, settings: IncidentSettings | None = None) -> None:
        self.settings = settings or IncidentSettings()
        self._window = timedelta(seconds=self.settings.window_s)
        self._absorb = timedelta(seconds=self.settings.absorb_s)
        self._settle = timedelta(seconds=self.settings.settle_s)
        self._link_settle = timedelta(seconds=self.settings.link_settle_s)

    def initial(self) -> IncidentState:
        """A fresh state for a job never seen before."""
        return IncidentState()

    def dump(self, state: IncidentState) -> dict[str, Any]:
        """JSON-ready data of ``state``."""
        return state.dump()

    def load(self, data: dict[str, Any]) -> IncidentState:
        """The state :meth:`dump` saved."""
        return IncidentState.load(data)

    def step(self, state: IncidentState, event: Event) -> tuple[IncidentState, list[Event]]:
        """Feed one event of this job; returns the state and the incidents (re)published."""
        if isinstance(event, Incident):
            return state, []
        state.cluster = state.cluster or event.cluster
        state.job_id = state.job_id or getattr(event, "job_id", None)
        if state.clock is None or event.event_time > state.clock:
            state.clock = event.event_time
        if not state.incidents and not _OPENS[type(event)]:
            return state, []  # nothing open to publish or prune, nothing to open: most events of a job
        touched: list[Open] = []
        if isinstance(event, JobEvent):
            self._on_job_event(state, event)
        elif isinstance(event, Fault) and state.job_id is not None:
            touched.append(self._on_fault(state, event))
        # Only a touched incident can change, and only a never-published one can become ready
        # as time passes: the others are not looked at (this runs for every event of the job).
        pending = [i for i in state.incidents.values() if i.published is None]
        out = self._publish(state, [*touched, *pending], state.clock)
        self._prune(state)
        return state, out

    def flush(self, state: IncidentState, now: datetime) -> tuple[IncidentState, list[Event]]:
        """Publish the incidents settled by event time ``now``; idempotent for one ``now``."""
        return state, self._publish(state, list(state.incidents.values()), now)

    # -- attempts ------------------------------------------------------------------------

    def _on_job_event(self, state: IncidentState, event: JobEvent) -> None:
        start = state.attempt_starts.get(event.attempt)
        if start is None or event.event_time < start:
            state.attempt_starts[event.attempt] = event.event_time

    def attempt_of(self, state: IncidentState, fault: Fault) -> int:
        """The attempt ``fault`` belongs to: the producer's, else by event time (see module)."""
        if fault.attempt is not None:
            return fault.attempt
        started = [a for a, t in state.attempt_starts.items() if t <= fault.first_seen]
        if started:
            return max(started)
        return min(state.attempt_starts, default=0)

    # -- grouping ------------------------------------------------------------------------

    def _on_fault(self, state: IncidentState, fault: Fault) -> Open:
        last = fault.last_seen or fault.first_seen
        known = state.fault_incident.get(fault.fault_id)
        if known is not None and known in state.incidents:
            incident = state.incidents[known]
            member = incident.members[fault.fault_id]
            member.last_seen = max(member.last_seen, last)
            incident.last_seen = max(incident.last_seen or last, last)
            return incident
        attempt = self.attempt_of(state, fault)
        member = Member(fault.fault_id, fault.first_seen, max(last, fault.first_seen),
                        severity.tier_of(fault), fault.node_id, fault.category, fault.blame,
                        fault.blame == "network" or fault.family == "comm")
        target = None if member.tier == severity.TIER_NOTE else self._target(state, member, attempt)
        if target is None:
            target = Open(derived_id("incident", state.job_id, attempt, fault.fault_id), attempt)
            state.incidents[target.incident_id] = target
        self._join(state, target, member)
        return target

    def _target(self, state: IncidentState, member: Member, attempt: int) -> Open | None:
        for incident in reversed(state.incidents.values()):
            if incident.attempt != attempt or _root(incident).tier == severity.TIER_NOTE:
                continue
            offset = member.first_seen - _start(incident)
            if abs(offset) <= self._window:
                return incident
            symptom = member.tier >= severity.TIER_SYMPTOM
            if symptom and _root(incident).tier < severity.TIER_SYMPTOM and timedelta(0) <= offset <= self._absorb:
                return incident
        return None

    def _join(self, state: IncidentState, incident: Open, member: Member) -> None:
        incident.last_seen = max(incident.last_seen or member.last_seen, member.last_seen)
        full = len(incident.members) >= self.settings.max_faults_per_incident
        if full and member.tier >= _root(incident).tier:
            return  # the cascade list is long enough; the fault still extended last_seen
        incident.members[member.fault_id] = member
        state.fault_incident[member.fault_id] = incident.incident_id

    # -- publication ---------------------------------------------------------------------

    def _publish(self, state: IncidentState, candidates: list[Open], now: datetime) -> list[Event]:
        out: list[Event] = []
        done: set[str] = set()
        for incident in candidates:
            if incident.incident_id in done or not incident.members:
                continue
            done.add(incident.incident_id)
            ready_at = self._ready_at(incident)
            if ready_at > now:
                continue
            event = self._incident(state, incident, min(now, max(ready_at, incident.last_seen or ready_at)))
            mark = _fingerprint(event)
            if mark != incident.published:
                incident.published = mark
                out.append(event)
        return out

    def _ready_at(self, incident: Open) -> datetime:
        root = _root(incident)
        if root.tier == severity.TIER_PRIMARY and root.link:
            return _start(incident) + self._link_settle
        if root.tier <= severity.TIER_CONTAINED or root.tier == severity.TIER_NOTE:
            return _start(incident)
        return _start(incident) + self._settle

    def _incident(self, state: IncidentState, incident: Open, at: datetime) -> Incident:
        root = _root(incident)
        cascade = tuple(sorted(m for m in incident.members if m != root.fault_id))
        nodes = tuple(sorted({m.node_id for m in incident.members.values()
                              if m.tier == root.tier and m.node_id and _names_node(m, root)}))
        return Incident(
            event_id=incident.incident_id, event_time=at, cluster=state.cluster or "unknown",
            incident_id=incident.incident_id, job_id=state.job_id or "", attempt=incident.attempt,
            root_cause=root.fault_id, cascade=cascade, category=root.category,
            blame=root.blame,  # type: ignore[arg-type]  # a Fault's blame, already validated
            nodes=nodes, first_seen=_start(incident), last_seen=incident.last_seen or _start(incident),
        )

    # -- bounds --------------------------------------------------------------------------

    def _prune(self, state: IncidentState) -> None:
        if state.clock is None:
            return
        horizon = state.clock - timedelta(seconds=self.settings.memory_s)
        stale = [i for i, inc in state.incidents.items() if (inc.last_seen or horizon) < horizon]
        excess = len(state.incidents) - len(stale) - self.settings.max_incidents
        if excess > 0:
            alive = [i for i in state.incidents if i not in stale]
            stale += sorted(alive, key=lambda i: state.incidents[i].last_seen or horizon)[:excess]
        for incident_id in stale:
            for fault_id in state.incidents.pop(incident_id).members:
                state.fault_incident.pop(fault_id, None)


def _names_node(member: Member, root: Member) -> bool:
    """Whether ``member`` counts its node among the incident's ``nodes``: a storage fault
    only in a storage incident (a node seeing the file system fail is not a faulty node)."""
    return member.blame != "storage" or root.blame == "storage"


def _root(incident: Open) -> Member:
    return min(incident.members.values(), key=lambda m: (m.tier, m.first_seen, m.fault_id))


def _start(incident: Open) -> datetime:
    return min(m.first_seen for m in incident.members.values())


def _fingerprint(incident: Incident) -> str:
    return "|".join([incident.root_cause or "", ",".join(incident.cascade), ",".join(incident.nodes),
                     incident.last_seen.isoformat()])
