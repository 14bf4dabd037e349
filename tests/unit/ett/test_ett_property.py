"""Property tests: random lifecycles tile the lifetime, match a whole-history reading of ETT.md,
and come out the same on a second run, with a flush after every event, and across a dump/load."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from ett_kit import at, decision, gpu, job, step, verdict
from ett_oracle import lifecycle, segments
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas import Decision, EttInterval, Event, HangVerdict, JobEvent
from streams.ett import EttDetector, EttSettings

ACTIONS = ["checkpoint_now", "restart_in_place", "replace_nodes", "resubmit_job", "drain_reboot_nodes",
           "stop_job", "notify"]
STEP_GAPS = [0, 1, 1, 1, 2, 5, 30, 59, 61, 90, 300]
CONFIGS = [EttSettings(), EttSettings(split_every_s=120), EttSettings(split_every_s=60, median_window=3)]


class Clock:
    """Event time that only moves forward, so the generated stream is in event-time order."""

    def __init__(self) -> None:
        self.s = 0.0
        self.before = 0.0
        self.n = 0

    def tick(self, by: float) -> float:
        if by > 0:
            self.before = self.s
        self.s += by
        return self.s

    def behind(self) -> float:
        """A time after the second newest event time and not after the newest: where a stage
        stamps what the newest event triggered (a hang verdict on the grid point it passed)."""
        return (self.before + self.s) / 2 if self.s > self.before else self.s

    def uid(self) -> str:
        self.n += 1
        return str(self.n)


@st.composite
def lifecycles(draw: st.DrawFn) -> list[Event]:
    """A job with 1-4 attempts: optional scheduling, runs with step gaps short and long, duplicate
    reports, checkpoints (some never completed), verdicts and decisions, failures, restarts in
    place and resubmissions; the last attempt finishes, is cancelled, fails or keeps running."""
    clock, events, best = Clock(), [], 0
    attempts = draw(st.integers(1, 4))
    for a in range(attempts):
        kind = "submitted" if a == 0 else draw(st.sampled_from(["restarting", "submitted"]))
        events.append(job(kind, clock.s, attempt=a))
        if draw(st.booleans()):
            events.append(job("scheduled", clock.tick(draw(st.integers(0, 40))), attempt=a,
                              ranks=draw(st.integers(1, 8))))
        if draw(st.integers(0, 5)) > 0:
            best = max(best, _run(draw, clock, events, a, best))
        _derived(draw, clock, events, a)
        last = a == attempts - 1
        ending = draw(st.sampled_from(["failed", "next", "failed"] if not last else
                                      ["finished", "cancelled", "failed", "open", "failed_cancelled"]))
        if ending in ("failed", "failed_cancelled"):
            events.append(job("failed", clock.tick(draw(st.integers(0, 100))), attempt=a))
            _derived(draw, clock, events, a)
        clock.tick(draw(st.integers(0, 200)))
        if ending in ("finished", "cancelled"):
            events.append(job(ending, clock.s, attempt=a))
        elif ending == "failed_cancelled":
            events.append(job("cancelled", clock.s, attempt=a))
    return events


def _run(draw: st.DrawFn, clock: Clock, events: list[Event], a: int, best: int) -> int:
    """``running``, then steps with checkpoints and samples in between; returns the highest step."""
    resume = draw(st.integers(0, best + 3)) if a else 0
    events.append(job("running", clock.tick(draw(st.integers(0, 60))), attempt=a, step=resume))
    n, open_ckpt = resume, False
    for _ in range(draw(st.integers(0, 20))):
        n += draw(st.sampled_from([1, 1, 1, 2, 5]))
        t = clock.tick(draw(st.sampled_from(STEP_GAPS)))
        ms = draw(st.sampled_from([400.0, 1000.0, 7000.0, 20000.0]))
        for rank in range(draw(st.integers(1, 3))):
            events.append(step(t, n, ms, rank))
        roll = draw(st.integers(0, 9))
        if roll == 0 and not open_ckpt:
            events.append(job("checkpoint_started", clock.tick(draw(st.integers(0, 5))), attempt=a))
            open_ckpt = True
        elif roll == 1 and open_ckpt:
            events.append(job("checkpoint_completed", clock.tick(draw(st.integers(0, 40))), attempt=a))
            open_ckpt = False
        elif roll == 2:
            events.append(gpu(clock.tick(draw(st.integers(0, 90)))))
        elif roll == 3:
            _derived(draw, clock, events, a)
    return n


def _derived(draw: st.DrawFn, clock: Clock, events: list[Event], a: int) -> None:
    """Maybe a verdict and/or a decision (ties between them possible): half a second later, or
    stamped before the event just generated, as if that event had triggered them."""
    t = clock.behind() if draw(st.booleans()) else clock.tick(0.5)
    if draw(st.booleans()):
        events.append(verdict(t, attempt=draw(st.sampled_from([a, a, a + 1])), vid="v" + clock.uid()))
    if draw(st.booleans()):
        events.append(decision(t, draw(st.sampled_from(ACTIONS)), attempt=a, did="d" + clock.uid()))


def _stream(events: Sequence[Event], config: EttSettings, flush_each: bool = False,
            reload_at: int | None = None) -> list[EttInterval]:
    detector = EttDetector(config)
    state = detector.initial()
    out: list[Event] = []
    for i, event in enumerate(events):
        if i == reload_at:
            state = detector.load(json.loads(json.dumps(detector.dump(state))))
        state, produced = detector.step(state, event)
        out.extend(produced)
        follower = i + 1 < len(events) and isinstance(events[i + 1], (HangVerdict, Decision))
        if flush_each and not follower:
            # A shell flushes between input events; a stage's outputs (verdicts, decisions)
            # reach the ETT stage in the same step as the event that triggered them.
            state, produced = detector.flush(state, event.event_time)
            out.extend(produced)
    # End of input at the newest event time (the last event may be a stage output stamped earlier).
    state, produced = detector.flush(state, max(e.event_time for e in events))
    return [o for o in [*out, *produced] if isinstance(o, EttInterval)]


def _wire(intervals: Sequence[EttInterval]) -> list[str]:
    return sorted(iv.model_dump_json() for iv in intervals)


def _check_tiling(out: Sequence[EttInterval], start: datetime, end: datetime | None) -> None:
    ordered = sorted(out, key=lambda iv: iv.start)
    assert len({iv.event_id for iv in ordered}) == len(ordered), "an interval was emitted twice"
    assert all(iv.start < iv.end for iv in ordered)
    if ordered:
        assert ordered[0].start == start
    for prev, nxt in zip(ordered, ordered[1:], strict=False):
        assert prev.end == nxt.start, f"gap or overlap at {prev.end} / {nxt.start}"
    if end is not None and end > start:
        assert ordered and ordered[-1].end == end, "a finished lifetime is not covered to its end"


def _check_against_oracle(out: Sequence[EttInterval], events: Sequence[Event], config: EttSettings) -> None:
    expected = segments(events, config, max(e.event_time for e in events))
    for iv in out:
        for lo, hi, attempt, kind, cause in expected:
            if lo < iv.end and hi > iv.start:
                assert (iv.attempt, iv.kind, iv.cause_id) == (attempt, kind, cause), (iv, lo, hi)


def _check_maximal(out: Sequence[EttInterval], events: Sequence[Event], config: EttSettings) -> None:
    """Two adjacent intervals of one attempt, kind and cause meet only on a grid line or a failure."""
    failures = {e.event_time for e in events if isinstance(e, JobEvent) and e.kind == "failed"}
    ordered = sorted(out, key=lambda iv: iv.start)
    for prev, nxt in zip(ordered, ordered[1:], strict=False):
        if (prev.attempt, prev.kind, prev.cause_id) == (nxt.attempt, nxt.kind, nxt.cause_id):
            on_grid = int(prev.end.timestamp()) % config.split_every_s == 0 and prev.end.microsecond == 0
            assert on_grid or prev.end in failures, (prev, nxt)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=lifecycles(), config=st.sampled_from(CONFIGS), cut=st.integers(0, 10_000))
def test_random_lifecycles_tile_match_the_contract_and_are_deterministic(
        events: list[Event], config: EttSettings, cut: int) -> None:
    out = _stream(events, config)
    life = lifecycle(events)
    assert life is not None
    _check_tiling(out, life.start, life.end)
    _check_against_oracle(out, events, config)
    _check_maximal(out, events, config)
    assert _wire(_stream(events, config)) == _wire(out)
    assert _wire(_stream(events, config, flush_each=True)) == _wire(out)
    assert _wire(_stream(events, config, reload_at=cut % len(events))) == _wire(out)


def test_generated_lifecycles_reach_every_kind() -> None:
    """The generator is worth something: across examples it produces every kind of interval."""
    seen: set[str] = set()

    @settings(max_examples=60, deadline=None, database=None, derandomize=True)
    @given(events=lifecycles())
    def collect(events: list[Event]) -> None:
        seen.update(iv.kind for iv in _stream(events, EttSettings()))

    collect()
    assert seen == {"productive", "detection", "scheduling", "initialization", "recompute", "checkpoint", "idle"}


def test_dump_load_round_trip_mid_stream_gives_the_same_outputs() -> None:
    events = [job("submitted", 0, ranks=2), job("scheduled", 5, ranks=2), job("running", 10, step=0),
              *[step(10 + i, i) for i in range(1, 50)], job("checkpoint_started", 61), verdict(70),
              job("failed", 80), job("restarting", 90, attempt=1), job("running", 95, attempt=1, step=20),
              *[step(95 + i, 20 + i) for i in range(1, 40)], job("finished", 140, attempt=1)]
    straight = _wire(_stream(events, EttSettings()))
    for cut in range(len(events)):
        assert _wire(_stream(events, EttSettings(), reload_at=cut)) == straight
    assert at(0) in {iv.start for iv in _stream(events, EttSettings())}
