"""``decide_all``: the policy and the guards over a plain list of events, for tests and replay.

It does what the streaming shell does, in one process: sorts the events by event time
(stable), routes each to its job's policy state (a fault without ``job_id`` goes to the job
whose latest placement contains its node; a fault matching no job is dropped, as the shell
does), feeds the proposed decisions and the job events to the guard state of their cluster,
and at the end flushes every job at the last event time.
"""

from __future__ import annotations

from collections.abc import Iterable

from schemas import Decision, Event, Fault, HangVerdict, JobEvent, SlowNode, StepProgress
from streams.decide.guard_state import ClusterState
from streams.decide.guards import GuardDetector
from streams.decide.policy import PolicyDetector
from streams.decide.settings import GuardSettings, PolicySettings
from streams.decide.state import JobState

_JOB_KINDS = (JobEvent, StepProgress, Fault, HangVerdict, SlowNode)


class _Chain:
    def __init__(self, policy: PolicyDetector, guards: GuardDetector) -> None:
        self.policy, self.guards = policy, guards
        self.jobs: dict[str, JobState] = {}
        self.clusters: dict[str, ClusterState] = {}
        self.node_job: dict[str, str] = {}
        self.out: list[Decision] = []

    def route(self, event: Event) -> str | None:
        job_id = getattr(event, "job_id", None)
        if job_id is None and isinstance(event, Fault) and event.node_id:
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
        state = self.jobs.get(job_id) or self.policy.initial()
        state, proposed = self.policy.step(state, event)
        self.jobs[job_id] = state
        for decision in proposed:
            self.guard(decision)

    def guard(self, event: Event) -> None:
        state = self.clusters.get(event.cluster) or self.guards.initial()
        state, final = self.guards.step(state, event)
        self.clusters[event.cluster] = state
        self.out += [d for d in final if isinstance(d, Decision)]

    def flush(self, events: list[Event]) -> None:
        if not events:
            return
        now = events[-1].event_time
        for job_id, state in self.jobs.items():
            state, proposed = self.policy.flush(state, now)
            self.jobs[job_id] = state
            for decision in proposed:
                self.guard(decision)


def decide_all(events: Iterable[Event], policy: PolicySettings | None = None,
               guards: GuardSettings | None = None) -> list[Decision]:
    """The final decisions (after the guards) for ``events``, in the order they were issued."""
    ordered = sorted(events, key=lambda e: e.event_time)
    chain = _Chain(PolicyDetector(policy), GuardDetector(guards))
    for event in ordered:
        chain.feed(event)
    chain.flush(ordered)
    return chain.out
