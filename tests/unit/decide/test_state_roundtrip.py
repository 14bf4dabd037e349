"""``load(dump(s))`` behaves exactly like ``s``, through JSON, for the policy and the guards."""

from __future__ import annotations

import json
from typing import Any

from decide_events import fault, hang, job, running_job, slow, steps

from schemas import Decision, Event
from streams.decide import GuardDetector, PolicyDetector


def scenario() -> list[Event]:
    return [*running_job(until=100), fault(105, "n2"), slow(110, "n3"), hang(300, []),
            job("restarting", 320, attempt=1), job("checkpoint_started", 330, attempt=1),
            fault(340, "n1", "cuda_oom", "error", "job", attempt=1),
            fault(350, "n4", "gpu_nvlink", "error", attempt=1), *steps(360, 400),
            job("failed", 1300, attempt=1)]


def run(detector: Any, events: list[Event], reload_each_step: bool) -> list[Event]:
    state, out = detector.initial(), []
    for event in events:
        if reload_each_step:
            state = detector.load(json.loads(json.dumps(detector.dump(state))))
        state, emitted = detector.step(state, event)
        out += emitted
    return out


def test_policy_state_survives_dump_load_at_every_step() -> None:
    policy = PolicyDetector()
    straight = run(policy, scenario(), reload_each_step=False)
    assert len(straight) >= 5
    assert run(policy, scenario(), reload_each_step=True) == straight


def test_guard_state_survives_dump_load_at_every_step() -> None:
    proposed = run(PolicyDetector(), scenario(), reload_each_step=False)
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
    proposed = run(policy, [*running_job(until=100), fault(105, "n2")], False)
    assert policy.step(d, proposed[0]) == (d, [])
    assert guards.step(guards.initial(), steps(0, 0)[0])[1] == []
