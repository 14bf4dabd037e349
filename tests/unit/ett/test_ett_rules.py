"""One test per rule of ETT.md, on small hand-made lifecycles (times in seconds from T0)."""

from __future__ import annotations

from ett_kit import (
    assert_tiles,
    at,
    decision,
    fault,
    gpu,
    incident,
    job,
    run,
    spans,
    step,
    steps,
    verdict,
)

from schemas import EttInterval, Event
from streams.ett import EttDetector, EttSettings


def _started(ranks: int = 4) -> list[Event]:
    """Submitted at 0, scheduled at 30, initialized at 40, running at 50 (from step 0)."""
    return [job("submitted", 0, ranks=0), job("scheduled", 30, ranks=ranks), job("initialized", 40),
            job("running", 50, step=0)]


def test_scheduling_initialization_productive_and_idle_tail_of_a_finished_job() -> None:
    events = [*_started(), *steps(51, 100), job("finished", 400)]
    out = run(events)
    assert spans(out) == [("scheduling", 0, 30, 0), ("initialization", 30, 50, 0),
                          ("productive", 50, 150, 0), ("idle", 150, 400, 0)]
    assert_tiles(out, 0, 400)
    assert {iv.gpus for iv in out} == {4}
    assert {iv.cause_id for iv in out} == {None}


def test_every_interval_is_stamped_at_its_end_with_a_deterministic_id() -> None:
    events = [*_started(), *steps(51, 10), job("finished", 100)]
    first, second = run(events), run(events)
    assert [iv.event_id for iv in first] == [iv.event_id for iv in second]
    assert all(iv.event_time == iv.end for iv in first)
    assert all(iv.job_id == "j1" and iv.cluster == "c1" for iv in first)


def test_restart_in_place_without_scheduled_is_initialization_from_the_restart() -> None:
    events = [*_started(), *steps(51, 10), job("restarting", 100, attempt=1),
              job("running", 130, attempt=1, step=10), *steps(131, 10, first=11), job("finished", 200, attempt=1)]
    attempt1 = [s for s in spans(run(events)) if s[3] == 1]
    assert attempt1[0] == ("initialization", 100, 130, 1)
    assert all(kind != "scheduling" for kind, start, _, _ in attempt1 if start < 130)


def test_gpus_of_a_restart_in_place_are_the_previous_placement() -> None:
    events = [*_started(ranks=8), *steps(51, 10), job("restarting", 100, attempt=1),
              job("running", 130, attempt=1, step=10), *steps(131, 10, first=11), job("finished", 200, attempt=1)]
    assert {iv.gpus for iv in run(events)} == {8}


def test_checkpoint_beats_productive() -> None:
    events = [*_started(), *steps(51, 100), job("checkpoint_started", 155), job("checkpoint_completed", 165),
              *steps(170, 10, first=101), job("finished", 179)]
    assert spans(run(events)) == [("scheduling", 0, 30, 0), ("initialization", 30, 50, 0),
                                  ("productive", 50, 155, 0), ("checkpoint", 155, 165, 0),
                                  ("productive", 165, 179, 0)]


def test_long_blocking_checkpoint_turns_the_rest_of_its_gap_idle() -> None:
    # Steps stop at 150 and resume at 300: a 150 s gap is over the 60 s floor, so the parts of
    # the gap outside the checkpoint are idle.
    events = [*_started(), *steps(51, 100), job("checkpoint_started", 160), job("checkpoint_completed", 290),
              *steps(300, 10, first=101), job("finished", 309)]
    assert spans(run(events))[2:] == [("productive", 50, 150, 0), ("idle", 150, 160, 0), ("checkpoint", 160, 290, 0),
                                      ("idle", 290, 300, 0), ("productive", 300, 309, 0)]


def test_checkpoint_never_completed_runs_to_the_attempt_end_and_beats_detection() -> None:
    events = [*_started(), *steps(51, 100), job("checkpoint_started", 170), verdict(200),
              job("restarting", 300, attempt=1)]
    out = run(events, flush_at=300)
    attempt0 = [s for s in spans(out) if s[3] == 0]
    # detected at the verdict (200), but the checkpoint claims 170 -> 300 over detection and scheduling
    assert attempt0[-2:] == [("detection", 150, 170, 0), ("checkpoint", 170, 300, 0)]


def test_productive_gap_limit_is_the_60s_floor_for_fast_steps() -> None:
    events = [*_started(), *steps(51, 10), step(120, 11), step(200, 12), step(201, 13), job("finished", 201)]
    # 60 -> 120 is a 60 s gap (productive), 120 -> 200 is 80 s (idle).
    assert spans(run(events))[2:] == [("productive", 50, 120, 0), ("idle", 120, 200, 0), ("productive", 200, 201, 0)]


def test_productive_gap_limit_is_ten_median_steps_for_slow_steps() -> None:
    # 20 s steps: the limit is 200 s, so a 150 s gap stays productive and a 250 s gap is idle.
    events = [*_started(), *steps(50, 5, every=20.0), step(280, 6, 20_000), step(530, 7, 20_000),
              job("finished", 530)]
    assert spans(run(events))[2:] == [("productive", 50, 280, 0), ("idle", 280, 530, 0)]


def test_first_gap_after_running_uses_the_floor() -> None:
    events = [*_started(), step(130, 1, 20_000), step(150, 2, 20_000), job("finished", 150)]
    assert spans(run(events))[2:] == [("idle", 50, 130, 0), ("productive", 130, 150, 0)]


def test_a_step_is_done_at_its_first_report_on_any_rank() -> None:
    events = [*_started(), *steps(51, 10, ranks=4), step(70, 5, rank=3), job("finished", 60)]
    assert spans(run(events))[2:] == [("productive", 50, 60, 0)]


def _failing_at(t_fail: float, *extra: Event) -> list[Event]:
    """Steps 1..100 done 51..150, then ``extra``, a failure at ``t_fail``, a resubmission at 400."""
    return [*_started(), *steps(51, 100), *extra, job("failed", t_fail),
            job("submitted", 400, attempt=1), job("scheduled", 420, attempt=1, ranks=4),
            job("running", 450, attempt=1, step=100), *steps(451, 10, first=101), job("finished", 460, attempt=1)]


def test_detection_from_failed_then_scheduling_until_the_resubmission() -> None:
    out = run(_failing_at(200))
    assert spans(out)[2:] == [("productive", 50, 150, 0), ("detection", 150, 200, 0), ("scheduling", 200, 400, 0),
                              ("scheduling", 400, 420, 1), ("initialization", 420, 450, 1),
                              ("productive", 450, 460, 1)]
    assert_tiles(out, 0, 460)


def test_detection_from_a_hang_verdict() -> None:
    out = spans(run(_failing_at(300, verdict(190))))
    assert ("detection", 150, 190, 0) in out and ("scheduling", 190, 400, 0) in out


def test_detection_from_a_decision_but_not_from_checkpoint_now_or_notify() -> None:
    events = _failing_at(300, decision(170, "checkpoint_now", did="d0"), decision(175, "notify", did="dn"),
                         decision(180, "replace_nodes", did="d1"))
    out = spans(run(events))
    assert ("detection", 150, 180, 0) in out and ("scheduling", 180, 400, 0) in out


def test_earliest_signal_wins_and_signals_before_the_last_step_do_not_count() -> None:
    events = [*_started(), *steps(51, 50), verdict(90, vid="early"), *steps(101, 50, first=51),
              decision(190, did="d1"), verdict(210, vid="late"), job("failed", 300), job("finished", 310)]
    out = run(events)
    assert ("detection", 150, 190, 0) in spans(out)
    assert {iv.cause_id for iv in out if iv.kind == "detection"} == {"d1"}


def test_verdict_arriving_right_after_the_failure_it_precedes_is_honoured() -> None:
    # The hang stage evaluates a grid point when the next event arrives: the verdict stamped
    # at 180 is produced by the 'failed' event at 200 and reaches the ETT stage after it.
    events = [*_started(), *steps(51, 100), job("failed", 200), verdict(180), gpu(205), job("finished", 210)]
    assert ("detection", 150, 180, 0) in spans(run(events))


def test_verdict_of_another_attempt_is_not_this_attempts_detection() -> None:
    out = spans(run(_failing_at(300, verdict(190, attempt=3))))
    assert ("detection", 150, 300, 0) in out


def test_restart_without_failed_detects_at_the_restart() -> None:
    events = [*_started(), *steps(51, 100), job("restarting", 250, attempt=1), job("running", 260, attempt=1, step=100),
              *steps(261, 5, first=101), job("finished", 266, attempt=1)]
    out = spans(run(events))
    assert ("detection", 150, 250, 0) in out
    assert not any(kind == "scheduling" and att == 0 and start >= 150 for kind, start, _, att in out)


def test_recompute_after_a_restart_that_resumed_below_the_highest_step() -> None:
    # Steps up to 100 were done; the checkpoint covers step 60; the new attempt redoes 61..99
    # and reaches step 100 at 650.
    events = [*_started(), *steps(51, 100), job("failed", 160), job("restarting", 200, attempt=1),
              job("running", 230, attempt=1, step=60), *steps(611, 40, first=61), *steps(651, 10, first=101),
              job("finished", 660, attempt=1)]
    out = spans(run(events))
    assert ("recompute", 230, 650, 1) in out
    assert out[-1] == ("productive", 650, 660, 1)


def test_no_recompute_when_resumed_at_the_highest_step() -> None:
    events = [*_started(), *steps(51, 100), job("failed", 160), job("restarting", 200, attempt=1),
              job("running", 230, attempt=1, step=100), *steps(231, 10, first=101), job("finished", 240, attempt=1)]
    assert all(kind != "recompute" for kind, *_ in spans(run(events)))


def test_detection_beats_recompute() -> None:
    events = [*_started(), *steps(51, 100), job("restarting", 200, attempt=1), job("running", 230, attempt=1, step=50),
              *steps(231, 10, first=51), job("failed", 300, attempt=1), job("finished", 310, attempt=1)]
    assert spans(run(events))[-3:] == [("recompute", 230, 240, 1), ("detection", 240, 300, 1),
                                       ("scheduling", 300, 310, 1)]


def test_failed_with_no_later_attempt_ends_the_lifetime() -> None:
    events = [*_started(), *steps(51, 100), job("failed", 200)]
    out = run(events)
    assert_tiles(out, 0, 200)
    assert spans(out)[-1] == ("detection", 150, 200, 0)


def test_an_attempt_that_never_ran_has_no_detection() -> None:
    events = [*_started(), *steps(51, 10), job("restarting", 100, attempt=1), job("failed", 130, attempt=1),
              job("restarting", 160, attempt=2), job("running", 170, attempt=2, step=10), *steps(171, 5, first=11),
              job("finished", 176, attempt=2)]
    attempt1 = [s for s in spans(run(events)) if s[3] == 1]
    assert attempt1 == [("initialization", 100, 130, 1), ("scheduling", 130, 160, 1)]


def test_cause_id_decision_beats_verdict_at_the_same_time() -> None:
    events = _failing_at(300, verdict(180, vid="v9"), decision(180, did="d9"))
    out = run(events)
    late = [iv for iv in out if iv.kind in ("detection", "scheduling") and iv.attempt == 0 and iv.start >= at(150)]
    assert {iv.cause_id for iv in late} == {"d9"}


def test_cause_id_of_a_failure_is_the_incident_root_else_the_first_fault_after_onset() -> None:
    with_incident = run(_failing_at(200, fault(160, fid="f-cascade"), incident(170, root="f-root")))
    assert {iv.cause_id for iv in with_incident if iv.kind == "detection"} == {"f-root"}
    with_faults = run(_failing_at(200, fault(120, fid="f-before"), fault(160, fid="f-a"), fault(170, fid="f-b")))
    assert {iv.cause_id for iv in with_faults if iv.kind == "detection"} == {"f-a"}
    error_only = run(_failing_at(200, fault(160, fid="f-err", level="error")))
    assert {iv.cause_id for iv in error_only if iv.kind == "detection"} == {None}


def test_cause_id_is_null_outside_detection_and_post_detection_scheduling() -> None:
    out = run(_failing_at(300, verdict(190, vid="v1")))
    for iv in out:
        expected = "v1" if iv.attempt == 0 and iv.kind in ("detection", "scheduling") and iv.start >= at(150) else None
        assert iv.cause_id == expected, iv


def test_a_running_job_keeps_its_open_tail_and_flush_is_idempotent() -> None:
    detector = EttDetector()
    state = detector.initial()
    out: list[Event] = []
    for event in [*_started(), *steps(51, 100)]:
        state, produced = detector.step(state, event)
        out.extend(produced)
    state, first = detector.flush(state, at(211))
    state, again = detector.flush(state, at(211))
    assert again == []
    emitted = spans(iv for iv in [*out, *first] if isinstance(iv, EttInterval))
    assert emitted[-1] == ("productive", 50, 150, 0)  # closed: no step within 60 s of 150
    state, later = detector.flush(state, at(5000))
    assert later == []  # the stretch after step 100 has no known kind while the job runs


def test_productive_run_is_not_closed_while_the_next_step_may_still_come() -> None:
    detector = EttDetector()
    state = detector.initial()
    for event in [*_started(), *steps(51, 100)]:
        state, _ = detector.step(state, event)
    state, out = detector.flush(state, at(210))  # exactly 60 s after the last step
    assert all(isinstance(iv, EttInterval) and iv.kind != "productive" for iv in out)


def test_intervals_are_cut_on_the_grid_so_none_crosses_midnight() -> None:
    # T0 is 08:00 UTC: a job from 23:00 to 01:00 with 100 s steps (limit 1000 s: all productive).
    day_s = 16 * 3600
    events = [job("submitted", day_s - 3600), job("scheduled", day_s - 3600, ranks=2),
              job("running", day_s - 3600, step=0), *steps(day_s - 3500, 71, every=100.0),
              job("finished", day_s + 3600)]
    out = run(events, EttSettings(split_every_s=1800))
    assert_tiles(out, day_s - 3600, day_s + 3600)
    grid_us = 1800 * 1_000_000
    for iv in out:
        start_us, end_us = (int(t.timestamp() * 1_000_000) for t in (iv.start, iv.end))
        assert start_us // grid_us == (end_us - 1) // grid_us, iv  # never crosses a grid line
    cut = [(iv.kind, iv.start.time().isoformat(), iv.end.time().isoformat()) for iv in out]
    assert ("productive", "23:30:00", "00:00:00") in cut and ("productive", "00:00:00", "00:30:00") in cut


def test_flush_times_do_not_change_any_interval() -> None:
    events = [*_started(), *steps(51, 100), gpu(300), job("checkpoint_started", 320), verdict(350), gpu(380),
              job("failed", 400), job("restarting", 450, attempt=1), job("running", 460, attempt=1, step=50),
              *steps(461, 80, first=51), job("finished", 600, attempt=1)]
    once = run(events)
    detector = EttDetector()
    state = detector.initial()
    every: list[Event] = []
    for event in events:
        state, produced = detector.step(state, event)
        every.extend(produced)
        state, produced = detector.flush(state, event.event_time)
        every.extend(produced)
    assert sorted(iv.event_id for iv in once) == sorted(e.event_id for e in every)
    assert sorted(iv.model_dump_json() for iv in once) == sorted(e.model_dump_json() for e in every)


def test_inputs_contradicting_the_lifecycle_are_counted_not_applied() -> None:
    detector = EttDetector()
    state = detector.initial()
    events = [*_started(), *steps(51, 10), job("running", 70), job("restarting", 80, attempt=1),
              job("checkpoint_started", 85, attempt=0), job("finished", 90, attempt=1), job("failed", 95, attempt=1)]
    out: list[Event] = []
    for event in events:
        state, produced = detector.step(state, event)
        out.extend(produced)
    assert state.ignored == 3
    assert_tiles([iv for iv in out if isinstance(iv, EttInterval)], 0, 90)


def test_other_events_only_advance_event_time() -> None:
    detector = EttDetector()
    state = detector.initial()
    state, out = detector.step(state, gpu(10))
    assert out == [] and state.current is None


def test_resubmission_without_failed_starts_a_new_attempt_and_interrupts_the_old_one() -> None:
    events = [*_started(), *steps(51, 100), job("submitted", 300, attempt=1), job("scheduled", 340, attempt=1, ranks=2),
              job("running", 360, attempt=1, step=100), *steps(361, 10, first=101), job("finished", 370, attempt=1)]
    out = run(events)
    assert spans(out)[2:] == [("productive", 50, 150, 0), ("detection", 150, 300, 0), ("scheduling", 300, 340, 1),
                              ("initialization", 340, 360, 1), ("productive", 360, 370, 1)]
    assert {iv.gpus for iv in out if iv.attempt == 1} == {2}
    assert_tiles(out, 0, 370)


def test_verdict_of_the_old_attempt_arriving_after_the_restart_is_honoured() -> None:
    events = [*_started(), *steps(51, 100), job("restarting", 300, attempt=1), verdict(290, attempt=0),
              job("running", 310, attempt=1, step=100), *steps(311, 5, first=101), job("finished", 316, attempt=1)]
    out = run(events)
    assert ("detection", 150, 290, 0) in spans(out) and ("scheduling", 290, 300, 0) in spans(out)
    assert {iv.cause_id for iv in out if iv.attempt == 0 and iv.start >= at(150)} == {"v1"}


def test_recompute_beats_idle_and_runs_to_the_end_if_the_lost_step_is_never_reached() -> None:
    # The redo has a 300 s stall (idle elsewhere) and the job finishes before reaching step 100.
    events = [*_started(), *steps(51, 100), job("restarting", 200, attempt=1), job("running", 230, attempt=1, step=10),
              *steps(231, 10, first=11), step(541, 21), job("finished", 600, attempt=1)]
    assert spans(run(events))[-1] == ("recompute", 230, 600, 1)


def test_a_job_cancelled_in_the_queue_is_initialization_as_the_table_says() -> None:
    assert spans(run([job("submitted", 0), job("cancelled", 500)])) == [("initialization", 0, 500, 0)]


def test_running_without_a_resume_step_is_not_recompute() -> None:
    events = [*_started(), *steps(51, 100), job("restarting", 200, attempt=1), job("running", 230, attempt=1),
              *steps(231, 10, first=1), job("finished", 240, attempt=1)]
    assert all(kind != "recompute" for kind, *_ in spans(run(events)))


def test_a_late_step_is_applied_at_the_resolved_frontier() -> None:
    events = [*_started(), *steps(51, 10), step(55, 11), step(62, 12), job("finished", 62)]
    out = run(events)
    assert_tiles(out, 0, 62)
    assert spans(out)[2:] == [("productive", 50, 62, 0)]


def test_checkpoint_spans_past_the_cap_merge_and_are_counted() -> None:
    # Three checkpoints in one stretch without a done step, room for two spans: the third is
    # absorbed into the second (90 -> 120 is checkpoint), bounded state at a counted cost.
    detector = EttDetector(EttSettings(max_checkpoint_spans=2))
    state = detector.initial()
    out: list[Event] = []
    events = [*_started(), *steps(51, 10), job("checkpoint_started", 70), job("checkpoint_completed", 80),
              job("checkpoint_started", 90), job("checkpoint_completed", 100), job("checkpoint_started", 110),
              job("checkpoint_completed", 120), step(200, 11), job("finished", 210)]
    for event in events:
        state, produced = detector.step(state, event)
        out.extend(produced)
    intervals = [iv for iv in out if isinstance(iv, EttInterval)]
    assert_tiles(intervals, 0, 210)
    assert ("checkpoint", 70, 80, 0) in spans(intervals) and ("checkpoint", 90, 120, 0) in spans(intervals)
    assert state.ignored == 1
