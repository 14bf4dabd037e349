"""The ETT state stays bounded however long the job runs, and samples cost no state change."""

from __future__ import annotations

import json

from ett_bench import measure, mixed_events
from ett_kit import gpu

from schemas import Event
from streams.core.detector import Detector
from streams.ett import EttDetector, EttState


def _state_size(events: list[Event]) -> int:
    detector = EttDetector()
    state = detector.initial()
    for event in events:
        state, _ = detector.step(state, event)
    return len(json.dumps(detector.dump(state)))


def test_state_size_does_not_grow_with_the_number_of_steps() -> None:
    events = mixed_events(40_000)
    short, long = _state_size(events[:4_000]), _state_size(events)
    assert long <= short * 1.2 + 200, (short, long)


def test_a_sample_with_nothing_due_leaves_the_state_untouched() -> None:
    detector = EttDetector()
    state = detector.initial()
    events = mixed_events(2_000)
    for event in events:
        state, _ = detector.step(state, event)
    before = json.dumps(detector.dump(state))
    state, out = detector.step(state, gpu(60.0))  # earlier than anything due: the fast path
    assert out == [] and json.dumps(detector.dump(state)) == before


def test_bench_stream_emits_intervals() -> None:
    rate, emitted, samples = measure(20_000)
    assert rate > 0 and emitted > 0 and samples > 0


def test_it_is_a_detector_of_the_job_pipeline() -> None:
    detector: Detector[EttState] = EttDetector()  # mypy checks the protocol here
    assert detector.name == "ett" and detector.initial() == EttState()
