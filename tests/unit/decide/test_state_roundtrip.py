"""``load(dump(s))`` behaves exactly like ``s``, through JSON, for the policy and the guards."""

from __future__ import annotations

import json
from typing import Any

from decide_events import fault, hang, job, running_job, slow, steps

from schemas import Decision, Event
from streams.core.chain import Stages
from streams.decide import GuardDetector, PolicyDetector
from streams.incident import IncidentDetector


def scenario() -> list[Event]:
    return [*running_job(until=100), fault(105, "n2"), slow(110, "n3"), hang(300, []),
            job("restarting", 320, attempt=1), job("checkpoint_started", 330, attempt=1),
            fault(340, "n1", "cuda_oom", "error", "job", attempt=1),
            fault(350, "n4", "gpu_nvlink", "error", attempt=1), *steps(360, 400),
            *[fault(400 + 10 * i, "n2", "hardware_mce", "error", action="none") for i in range(10)],
            job("failed", 1300, attempt=1)]


class JobStages:
    """Incident stage then policy, as one detector (what the per-job pipeline runs)."""

    def __init__(self) -> None:
        self.stages = Stages([IncidentDetector(), PolicyDetector()])

    def initial(self) -> list[Any]:
        return self.stages.initial()

    def step(self, state: list[Any], event: Event) -> tuple[list[Any], list[Event]]:
        return state, [e for e in self.stages.step(state, event) if isinstance(e, Decision)]

    def dump(self, state: list[Any]) -> list[Any]:
        return self.stages.dump(state)

    def load(self, data: list[Any]) -> list[Any]:
        return self.stages.load(data)


def run(detector: Any, events: list[Event], reload_each_step: bool) -> list[Event]:
    state, out = detector.initial(), []
    for event in events:
        if reload_each_step:
            state = detector.load(json.loads(json.dumps(detector.dump(state))))
        state, emitted = detector.step(state, event)
        out += emitted
    return out


def test_policy_state_survives_dump_load_at_every_step() -> None:
    policy = JobStages()
    straight = run(policy, scenario(), reload_each_step=False)
    assert len(straight) >= 5
    assert run(policy, scenario(), reload_each_step=True) == straight


def test_guard_state_survives_dump_load_at_every_step() -> None:
    proposed = run(JobStages(), scenario(), reload_each_step=False)
    events = sorted([*proposed, *[e for e in scenario() if e.KIND == "job_event"]],
                    key=lambda e: e.event_time)
    guards = GuardDetector()
    straight = run(guards, events, reload_each_step=False)
    assert straight
    assert run(guards, events, reload_each_step=True) == straight


def test_flush_is_idempotent_for_one_now() -> None:
    policy = PolicyDetector()
    state = policy.initial()
    for event in [*running_job(until=100), hang(300, [])]:
        state, _ = policy.step(state, event)
    late = hang(5000, []).event_time
    state, first = policy.flush(state, late)
    state, second = policy.flush(state, late)
    assert [d.action for d in first if isinstance(d, Decision)] == ["resubmit_job"] and second == []


def test_unrelated_events_are_ignored() -> None:
    policy, guards = PolicyDetector(), GuardDetector()
    d = policy.initial()
    proposed = run(JobStages(), [*running_job(until=100), fault(105, "n2")], False)
    assert policy.step(d, proposed[0]) == (d, [])
    assert guards.step(guards.initial(), steps(0, 0)[0])[1] == []
