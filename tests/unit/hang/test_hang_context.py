"""Lifecycle context: checkpoints, evaluation and data loading are traps, not hangs."""

from __future__ import annotations

from hang_kit import Episode, Job, at, lifecycle, run, stream, verdicts, votes

from schemas import Event, LogLine
from streams.hang import HangSettings
from streams.hang.localize import Source
from streams.hang.pauses import is_pause
from streams.hang.state import JobState

JOB = Job()


def test_long_checkpoint_with_lifecycle_is_not_a_hang() -> None:
    out = run(stream(JOB, 1200, (Episode("checkpoint", 300, 580),)))
    assert not verdicts(out)
    assert all(v.votes == 0 for v in votes(out))


def test_long_checkpoint_without_lifecycle_events_is_not_a_hang() -> None:
    out = run(stream(JOB, 1200, (Episode("checkpoint", 300, 580, lifecycle=False),)))
    assert not verdicts(out)
    assert all(v.votes == 0 for v in votes(out))  # I/O frames: a save explains itself


def test_checkpoint_budget_stays_below_the_watchdog() -> None:
    # changed: a 20-min save is no longer explained for 30 min; budgets end before 600 s
    s = HangSettings()
    for hooks in (True, False):
        out = run(stream(JOB, 1500, (Episode("checkpoint", 300, 1400, lifecycle=hooks),)), s)
        (verdict,) = verdicts(out)
        assert at(300 + s.checkpoint_budget_s) <= verdict.detected_at < at(300 + s.watchdog_s), hooks


def test_asynchronous_checkpoint_never_masks_a_hang() -> None:
    events: list[Event] = stream(JOB, 700, (Episode("hang", 400, sources=(2,)),))
    events.append(lifecycle(JOB, "checkpoint_started", 380))  # steps still advance after it
    out = run(sorted(events, key=lambda e: (e.event_time, e.event_id)))
    (verdict,) = verdicts(out)
    assert verdict.detected_at <= at(400 + 60)


def test_a_launcher_without_running_hooks_is_watched_once_steps_flow() -> None:
    events = [e for e in stream(JOB, 700, (Episode("hang", 400, sources=(2,)),))
              if not (e.KIND == "job_event" and getattr(e, "kind", "") == "running")]
    (verdict,) = verdicts(run(events))
    assert verdict.detected_at <= at(400 + 60)


def test_long_eval_and_data_loading_are_not_hangs() -> None:
    for kind in ("eval", "dataload"):
        out = run(stream(JOB, 2000, (Episode(kind, 300, 1500),)))
        assert not verdicts(out), kind


def test_silence_after_a_checkpoint_counts_from_its_end() -> None:
    # 10 min silent checkpoint, then training resumes: no stale silence must carry over
    out = run(stream(JOB, 1200, (Episode("checkpoint", 300, 900),)))
    after = [v for v in votes(out) if v.window_end > at(900)]
    assert after and all(v.signals.log_silent is False for v in after)


def test_hang_inside_a_checkpoint_is_caught_when_stacks_show_a_hang() -> None:
    # changed: the hook is a hint; waiters frozen outside I/O around a non-writer contradict it
    settings = HangSettings(checkpoint_budget_s=120, phase_overrun_factor=3)
    events: list[Event] = stream(JOB, 1500, (Episode("checkpoint", 200, 230),
                                             Episode("hang", 400, sources=(2,))))
    events.append(lifecycle(JOB, "checkpoint_started", 400))
    out = run(sorted(events, key=lambda e: (e.event_time, e.event_id)), settings)
    (verdict,) = verdicts(out)
    assert at(400) < verdict.detected_at <= at(400 + 60)


def test_hang_inside_a_hooked_checkpoint_without_stacks_is_caught_at_its_budget() -> None:
    settings = HangSettings(checkpoint_budget_s=120, phase_overrun_factor=3)
    events: list[Event] = [e for e in stream(JOB, 1500, (Episode("checkpoint", 200, 230),
                                                         Episode("hang", 400, sources=(2,))))
                           if e.KIND != "stack_sample"]
    events.append(lifecycle(JOB, "checkpoint_started", 400))
    out = run(sorted(events, key=lambda e: (e.event_time, e.event_id)), settings)
    (verdict,) = verdicts(out)
    budget = max(120, 3 * 30)
    assert at(400 + budget) <= verdict.detected_at <= at(400 + budget + 10)


def test_initialisation_explains_silence_until_its_budget() -> None:
    # changed: the init budget (300 s) stays below the watchdog instead of 30 min
    s = HangSettings()
    events: list[Event] = [lifecycle(JOB, "scheduled", 0)]
    events += [e for e in stream(JOB, 500, (Episode("hang", 0, sources=(1,)),)) if e.KIND != "job_event"]
    out = run(sorted(events, key=lambda e: (e.event_time, e.event_id)), s)
    assert all(v.votes == 0 for v in votes(out) if v.window_end <= at(s.init_budget_s))
    (verdict,) = verdicts(out)
    assert at(s.init_budget_s) < verdict.detected_at <= at(s.init_budget_s + 10)


def test_checkpoint_stuck_in_io_forever_is_a_hang_once_it_overruns() -> None:
    # changed: a save the stacks show gets seen_save_budget_s (8 min), not the 5-min floor
    settings = HangSettings()
    out = run(stream(JOB, 1200, (Episode("checkpoint", 200, 230), Episode("checkpoint", 400))), settings)
    (verdict,) = verdicts(out)
    assert at(400 + settings.seen_save_budget_s) <= verdict.detected_at <= at(400 + settings.seen_save_budget_s + 10)
    assert verdict.detected_at < at(400 + settings.watchdog_s)
    assert verdict.signals.stacks_frozen and verdict.signals.log_silent
    assert verdict.source_nodes == ()  # everyone is stuck alike: not single-point


def test_a_save_seen_in_the_stacks_may_outlast_the_checkpoint_floor() -> None:
    # a 6.5-min save of every rank (a large model on a loaded file system), no hook, no log
    # line: the stacks show the ranks writing, so only the watchdog bounds it (hang_eval
    # --wide seed 5: a 278 s save followed at once by the periodic one was restarted in place)
    settings = HangSettings()
    out = run(stream(JOB, 1200, (Episode("checkpoint", 200, 230), Episode("checkpoint", 400, 790, lifecycle=False))),
              settings)
    assert 390 > settings.checkpoint_budget_s and not verdicts(out)


def test_a_save_that_begins_as_the_previous_one_completes_keeps_the_job_in_its_checkpoint() -> None:
    # the next save's start reported before the previous save's completion, in the same instant
    # the second is a rank-0 save (the others wait in a barrier: a stalled collective), no stacks
    events = [e for e in stream(JOB, 700, (Episode("checkpoint", 300, 400), Episode("rank0_save", 400, 480)))
              if e.KIND != "stack_sample"]
    completed = next(i for i, e in enumerate(events) if getattr(e, "kind", "") == "checkpoint_completed")
    events.insert(completed, lifecycle(JOB, "checkpoint_started", 400))
    events.append(lifecycle(JOB, "checkpoint_completed", 480, step=2))
    out = run(sorted(events, key=lambda e: e.event_time))  # stable: the start stays first
    assert not verdicts(out)


def test_a_duplicated_checkpoint_start_does_not_outlive_its_completion() -> None:
    events = [e for e in stream(JOB, 900, (Episode("checkpoint", 300, 400), Episode("hang", 420, sources=(2,))))
              if e.KIND != "stack_sample"]
    events.append(lifecycle(JOB, "checkpoint_started", 300))  # the same hook delivered twice
    (verdict,) = verdicts(run(sorted(events, key=lambda e: e.event_time)))
    assert verdict.detected_at <= at(420 + 60)


def test_a_rank0_save_after_an_unannounced_evaluation_gets_its_own_budget() -> None:
    # a 400 s evaluation (ranks computing, stacks moving, nothing in the log) then a 100 s rank-0
    # save: the save's budget counts from when the ranks froze in it, not from the evaluation
    out = run(stream(JOB, 1200, (Episode("eval", 300, 700), Episode("rank0_save", 700, 800))))
    assert not verdicts(out)


def _bare(events: list[Event]) -> list[Event]:
    """No stacks: a job whose only sign of a save would be its hooks or log lines."""
    return [e for e in events if e.KIND != "stack_sample"]


def test_a_rank0_writer_without_hooks_announcements_or_stacks_is_not_convicted_for_its_own_saves() -> None:
    # issue 14: without hooks a 4-minute rank-0 save looked like a hang on rank 0 and its node was replaced.
    # Rank 0 writes 30 s every 300 s (learned), then once for 200 s: the same shape, explained.
    saves = (Episode("rank0_save", 200, 230), Episode("rank0_save", 500, 530), Episode("rank0_save", 800, 1000))
    assert not verdicts(run(_bare(stream(JOB, 1300, saves))))
    assert not verdicts(run(_bare(stream(JOB, 1300, saves[2:]))))  # the first save: rank 0 is where jobs save


def test_a_job_that_announces_its_saves_gets_no_writer_doubt_when_rank0_hangs() -> None:
    # hang_eval --wide seed 1 #14: the job's saves are hooked (or printed); rank 0 then hung with
    # no hook and no line, and was given a save's budget (312 s). A job that announces its saves
    # announces every one: an unannounced quiet period on rank 0 is no save.
    printed = LogLine(event_id="l-save", event_time=at(200.5), cluster="t", job_id=JOB.job_id, node_id=JOB.node(0),
                      rank=0, source="training", line="Saving checkpoint at iteration 190 to /ckpt/iter_190")
    for hooked in (True, False):
        episodes = (Episode("checkpoint", 200, 230, lifecycle=hooked), Episode("hang", 800, sources=(0,)))
        events = _bare(stream(JOB, 1300, episodes)) + ([] if hooked else [printed])
        (verdict,) = verdicts(run(sorted(events, key=lambda e: e.event_time)))
        assert verdict.source_ranks == (0,) and verdict.detected_at <= at(800 + 60), hooked


def test_a_pause_shape_is_learned_from_the_job_itself() -> None:
    # rank 5 stalls the job for 30 s twice (e.g. a periodic host-side task), then for 200 s
    stalls = (Episode("hang", 200, 230, sources=(5,)), Episode("hang", 500, 530, sources=(5,)),
              Episode("hang", 800, 1000, sources=(5,)))
    assert not verdicts(run(_bare(stream(JOB, 1300, stalls))))
    (unlearned,) = verdicts(run(_bare(stream(JOB, 1300, stalls[2:]))))
    assert unlearned.source_ranks == (5,) and unlearned.detected_at <= at(800 + 60)


def test_a_hang_elsewhere_in_a_job_with_learned_pauses_is_reported_within_a_minute() -> None:
    episodes = (Episode("rank0_save", 200, 230), Episode("rank0_save", 500, 530), Episode("hang", 800, sources=(5,)))
    (verdict,) = verdicts(run(_bare(stream(JOB, 1300, episodes))))
    assert verdict.detected_at <= at(800 + 60) and verdict.source_ranks == (5,)


def test_a_hang_of_the_usual_writer_is_reported_at_the_checkpoint_budget() -> None:
    s = HangSettings()
    episodes = (Episode("rank0_save", 200, 230), Episode("rank0_save", 500, 530), Episode("rank0_save", 800))
    (verdict,) = verdicts(run(_bare(stream(JOB, 1500, episodes)), s))
    assert at(800 + s.checkpoint_budget_s) <= verdict.detected_at <= at(800 + s.checkpoint_budget_s + 30)
    assert verdict.source_ranks == (0,)


def _line(s: float, text: str) -> LogLine:
    return LogLine(event_id=f"l-{text[:5]}-{s}", event_time=at(s), cluster="t", job_id=JOB.job_id,
                   node_id=JOB.node(0), rank=0, source="training", line=text)


def _hooks(start_s: float, end_s: float) -> list[Event]:
    return [lifecycle(JOB, "checkpoint_started", start_s), lifecycle(JOB, "checkpoint_completed", end_s, step=1)]


def test_a_completed_hook_ends_the_save_the_log_announced() -> None:
    # hang_eval seed 11 #21: the job printed "saving checkpoint", hung at once (its writer's
    # node died), the hook completed 53 s later and no end line ever came: the announced save
    # explained the probes for the whole checkpoint budget (298 s)
    events = _bare(stream(JOB, 1300, (Episode("hang", 300, sources=(5,)),)))
    events += [_line(300, "Saving checkpoint at iteration 290 to /ckpt"), *_hooks(300, 350)]
    (verdict,) = verdicts(run(sorted(events, key=lambda e: e.event_time)))
    assert verdict.detected_at <= at(350 + 60)


def test_a_hooked_save_teaches_no_pause_shape() -> None:
    # hang_eval seed 12 #0: rank 0 wrote the job's hooked saves while the others waited; the
    # quiet periods were learned as rank 0's pause shape, and rank 0's hang after a save
    # waited the checkpoint budget (311 s)
    saves = (Episode("rank0_save", 200, 250), Episode("rank0_save", 500, 550))
    events = stream(JOB, 1300, (*saves, Episode("hang", 800, sources=(0,))))
    events += [*_hooks(200, 250), *_hooks(500, 550)]
    (verdict,) = verdicts(run(sorted(events, key=lambda e: e.event_time)))
    assert verdict.source_ranks == (0,) and verdict.detected_at <= at(800 + 60)


def test_an_asynchronous_writers_end_line_teaches_no_pause_shape() -> None:
    # hang_eval seed 12 #1: ranks hung just after an announced asynchronous save; the writer's
    # "saved" line half a minute later ended the quiet period and taught its shape as a pause, and the
    # hang waited the checkpoint budget (346 s). In a job with steps, an end line is no progress.
    events = stream(JOB, 1300, (Episode("hang", 300, sources=(5,)),))
    events += [_line(299.5, "Saving checkpoint at iteration 290 to /ckpt"),
               _line(327, "Saved checkpoint at iteration 290 to /ckpt")]
    (verdict,) = verdicts(run(sorted(events, key=lambda e: e.event_time)))
    assert verdict.source_ranks == (5,) and verdict.detected_at <= at(327 + 60)


def test_a_pause_keeps_its_explanation_when_its_localisation_turns_inconclusive() -> None:
    # hang_eval seed 13, healthy fleets: a 4-minute rank-0 save of a job without stacks, hooks
    # or announcements was explained as rank 0's pause until one collective snapshot blurred the
    # shape (no rank named), and the healthy job got a restart_in_place
    state = JobState()
    state.run.quiet_ranks = (0,)
    nowhere = Source(ranks=(), nodes=(), findings=(), confidence=0.0)
    elsewhere = Source(ranks=(5,), nodes=("node-0002",), findings=(), confidence=0.9)
    assert is_pause(state, nowhere, stacks_report=False)
    assert not is_pause(state, elsewhere, stacks_report=False)  # other ranks named: new evidence
    state.announces_saves = True  # a job that announces its saves gets no writer's doubt
    assert not is_pause(state, nowhere, stacks_report=False)
    state.pauses["0"] = 60.0  # unless the shape was learned from its own unannounced pauses
    assert is_pause(state, nowhere, stacks_report=False)


def test_a_job_whose_saves_block_keeps_its_hooked_saves_explained() -> None:
    # the same hooks around saves during which no step advances: synchronous, explained
    events: list[Event] = stream(JOB, 800, (Episode("checkpoint", 200, 260), Episode("checkpoint", 400, 470)))
    assert not verdicts(run(events))
