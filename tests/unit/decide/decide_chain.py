"""``decide_all``: the incident stage, the policy and the guards over a plain list of events.

It does what the streaming shell does, in one process: sorts the events by event time
(stable), routes each to its job's stages (incident -> policy, as in the per-job pipeline; a
fault without ``job_id`` goes to the job whose latest placement contains its node; a fault
matching no job is dropped, as the shell does), feeds the proposed decisions and the job events
to the guard state of their cluster, and at the end flushes every job at the last event time.
``run_all`` also returns the incidents.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from schemas import (
    Decision,
    Event,
    Fault,
    GpuSample,
    HangVerdict,
    Incident,
    JobEvent,
    NetSample,
    SlowNode,
    StepProgress,
)
from streams.core.chain import Stages
from streams.decide.guard_state import ClusterState
from streams.decide.guards import GuardDetector
from streams.decide.policy import PolicyDetector
from streams.decide.settings import GuardSettings, PolicySettings
from streams.incident import IncidentDetector, IncidentSettings

_JOB_KINDS = (JobEvent, StepProgress, Fault, HangVerdict, SlowNode, GpuSample, NetSample)


class _Chain:
    def __init__(self, stages: Stages, guards: GuardDetector) -> None:
        self.stages, self.guards = stages, guards
        self.jobs: dict[str, list[Any]] = {}
        self.clusters: dict[str, ClusterState] = {}
        self.node_job: dict[str, str] = {}
        self.out: list[Decision] = []
        self.incidents: list[Incident] = []

    def route(self, event: Event) -> str | None:
        job_id = getattr(event, "job_id", None)
        if job_id is None and isinstance(event, (Fault, GpuSample, NetSample)) and event.node_id:
            return self.node_job.get(event.node_id)
        return job_id

    def track_placement(self, event: JobEvent) -> None:
        for p in event.placement:
            self.node_job[p.node_id] = event.job_id
        if event.kind in ("finished", "cancelled"):
            self.node_job = {n: j for n, j in self.node_job.items() if j != event.job_id}

    def feed(self, event: Event) -> None:
        if isinstance(event, JobEvent):
            self.track_placement(event)
            self.guard(event)
        job_id = self.route(event) if isinstance(event, _JOB_KINDS) else None
        if job_id is None:
            return
        states = self.jobs.setdefault(job_id, self.stages.initial())
        self.collect(self.stages.step(states, event))

    def collect(self, outputs: list[Event]) -> None:
        for item in outputs:
            if isinstance(item, Incident):
                self.incidents.append(item)
            elif isinstance(item, Decision):
                self.guard(item)

    def guard(self, event: Event) -> None:
        state = self.clusters.get(event.cluster) or self.guards.initial()
        state, final = self.guards.step(state, event)
        self.clusters[event.cluster] = state
        self.out += [d for d in final if isinstance(d, Decision)]

    def flush(self, events: list[Event], until: datetime | None) -> None:
        if not events:
            return
        now = max(events[-1].event_time, until or events[-1].event_time)
        for states in self.jobs.values():
            self.collect(self.stages.flush(states, now))


def run_all(events: Iterable[Event], policy: PolicySettings | None = None,
            guards: GuardSettings | None = None,
            incident: IncidentSettings | None = None,
            until: datetime | None = None, in_order: bool = False) -> tuple[list[Decision], list[Incident]]:
    """The final decisions (after the guards) in the order they were issued, and the incidents;
    the stages are flushed at the last event time, or at ``until`` when that is later.
    ``in_order``: feed the events as given (their arrival order, late ones late) instead of
    sorting them by event time."""
    ordered = list(events) if in_order else sorted(events, key=lambda e: e.event_time)
    stages = Stages([IncidentDetector(incident), PolicyDetector(policy)])
    chain = _Chain(stages, GuardDetector(guards))
    for event in ordered:
        chain.feed(event)
    chain.flush(sorted(ordered, key=lambda e: e.event_time), until)
    return chain.out, chain.incidents


def decide_all(events: Iterable[Event], policy: PolicySettings | None = None,
               guards: GuardSettings | None = None,
               incident: IncidentSettings | None = None, until: datetime | None = None) -> list[Decision]:
    """The final decisions (after the guards) for ``events``, in the order they were issued."""
    return run_all(events, policy, guards, incident, until)[0]
