"""The jobs stage's periodic tick: a job whose every source fell silent is still evaluated.

A hang of a job that reports only logs and step progress stops everything it sends, so no
event of the job would ever make the detector evaluate again (issue 14: hangs on partially
instrumented nodes went unreported). The streaming shell ticks the job pipeline on its stage
clock; what the tick finds is what the job's next event would have found.
"""

from __future__ import annotations

from datetime import timedelta

from hang_kit import Episode, Job, at, lifecycle, stream

from schemas import Event, HangVerdict
from streams.settings import DetectionSettings
from streams.topology import job_pipeline

JOB = Job()
HANG = (Episode("hang", 300, sources=(5,)),)


def _logs_steps(events: list[Event]) -> list[Event]:
    return [e for e in events if e.KIND in ("job_event", "log_line", "step_progress")]


def _fed(events: list[Event]) -> tuple[object, list[Event]]:
    pipeline = job_pipeline(DetectionSettings())
    state, out = pipeline.initial(), []
    for event in sorted(events, key=lambda e: (e.event_time, e.event_id)):
        state, emitted = pipeline.step(state, event)
        out += emitted
    return state, out


def _verdicts(events: list[Event]) -> list[HangVerdict]:
    return [e for e in events if isinstance(e, HangVerdict)]


def test_a_silent_job_is_evaluated_by_the_tick_alone() -> None:
    pipeline = job_pipeline(DetectionSettings())
    state, out = _fed(_logs_steps(stream(JOB, 300, HANG)))  # nothing is sent after the hang
    assert not _verdicts(out)
    found: list[Event] = []
    for s in range(300, 420, 5):
        state, emitted = pipeline.tick(state, at(s))  # type: ignore[arg-type]
        found += emitted
    (verdict,) = _verdicts(found)
    assert verdict.detected_at <= at(300 + 60)


def test_the_tick_finds_what_the_next_event_would_have_found() -> None:
    pipeline = job_pipeline(DetectionSettings())
    events = _logs_steps(stream(JOB, 300, HANG))
    late = lifecycle(JOB, "failed", 500)  # the job's next event, long after
    ticked_state, _ = _fed(events)
    ticked: list[Event] = []
    for s in range(300, 500, 5):
        ticked_state, emitted = pipeline.tick(ticked_state, at(s))  # type: ignore[arg-type]
        ticked += emitted
    replayed_state, stepped = _fed([*events, late])
    _, flushed = pipeline.flush(replayed_state, at(500))  # type: ignore[arg-type]  # replay's end of input
    assert _verdicts(ticked) == _verdicts(stepped + flushed) and len(_verdicts(ticked)) == 1


def test_a_job_whose_events_flow_is_left_to_them() -> None:
    pipeline = job_pipeline(DetectionSettings())
    state, _ = _fed(_logs_steps(stream(JOB, 300, HANG)))
    held = lifecycle(JOB, "checkpoint_started", 330)
    state, _ = pipeline.step(state, held)  # type: ignore[arg-type]
    assert state.buffer.held  # type: ignore[attr-defined]
    state, emitted = pipeline.tick(state, at(335))  # type: ignore[arg-type]
    assert emitted == [] and state.buffer.held  # type: ignore[attr-defined]
    state, emitted = pipeline.tick(state, at(330) + timedelta(seconds=60))  # type: ignore[arg-type]
    assert not state.buffer.held and [e.KIND for e in emitted][:1] == ["job_event"]  # quiet: released in order
