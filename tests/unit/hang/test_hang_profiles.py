"""Availability profiles of issue 14 beyond the ideal fleet: a job whose node agent reads RDMA
counters only (no GPU samples) still votes from its compute rails; a logs + step progress job
is not convicted inside a long announced evaluation, and its announced pauses do not lengthen
its solo window for the hang that follows."""

from __future__ import annotations

from datetime import timedelta

from hang_kit import Episode, Job, at, lifecycle, run, stream, verdicts

from producers.simulator import FleetConfig, Variation, simulate
from producers.simulator import scenarios as sc
from schemas import Event, HangVerdict, LogLine, StepProgress
from streams.hang import HangDetector, HangSettings
from streams.hang.probes import log_silent, metrics_idle, rdma_idle
from streams.hang.state import to_us
from tests.bench.hang_eval import detect, route
from tests.unit.hang.test_hang_probes import feed

JOB = Job()
HANG = (Episode("hang", 300, sources=(5,)),)


def _rdma_logs(events: list[Event]) -> list[Event]:
    """What a job whose nodes report RDMA counters, logs and steps (no GPU, stacks, FR) sends."""
    return [e for e in events if e.KIND in ("job_event", "log_line", "step_progress", "net_sample")]


def _logs_steps(events: list[Event]) -> list[Event]:
    return [e for e in events if e.KIND in ("job_event", "log_line", "step_progress")]


def _line(s: float, text: str) -> LogLine:
    return LogLine(event_id=f"phase-{s}", event_time=at(s), cluster="t", job_id=JOB.job_id,
                   node_id=JOB.node(0), rank=0, source="training", line=text)


def _with_flush(events: list[Event], until_s: float, settings: HangSettings | None = None) -> list[HangVerdict]:
    """Run the detector like the streaming shell: events, and a flush every 5 s of event time."""
    detector = HangDetector(settings)
    state, out, flushed_s = detector.initial(), [], 0.0
    for event in events:
        while at(flushed_s + 5) < event.event_time:
            flushed_s += 5
            state, emitted = detector.flush(state, at(flushed_s))
            out += emitted
        state, emitted = detector.step(state, event)
        out += emitted
    while flushed_s < until_s:
        flushed_s += 5
        state, emitted = detector.flush(state, at(flushed_s))
        out += emitted
    return verdicts(out)


def test_rdma_counters_alone_vote_when_no_gpu_sample_arrives() -> None:
    s = HangSettings()
    hung = feed(_rdma_logs(stream(JOB, 400, HANG)))
    assert rdma_idle(hung, to_us(at(340)), s).value is True
    assert metrics_idle(hung, to_us(at(340)), s).value is True  # no GPU: RDMA decides
    assert metrics_idle(hung, to_us(at(310)), s).value is False  # flat for 10 s only
    healthy = feed(_rdma_logs(stream(JOB, 400)))
    assert metrics_idle(healthy, to_us(at(400)), s).value is False
    (verdict,) = _with_flush(_rdma_logs(stream(JOB, 500, HANG)), 500)
    assert verdict.signals.metrics_idle is True and verdict.signals.stacks_frozen is None
    assert verdict.signals.log_silent is True
    assert at(300) < verdict.detected_at <= at(300 + s.log_silence_s + 15)  # two probes: no solo window


def test_rails_that_never_moved_are_no_evidence() -> None:
    s = HangSettings()
    events = [e for e in _rdma_logs(stream(JOB, 400)) if e.KIND != "net_sample"]
    events += [e for e in stream(JOB, 400, (Episode("hang", 0),)) if e.KIND == "net_sample"]  # ports never move
    state = feed(sorted(events, key=lambda e: (e.event_time, e.event_id)))
    assert rdma_idle(state, to_us(at(400)), s).value is None


def test_logs_only_job_is_not_convicted_inside_a_long_announced_evaluation() -> None:
    s = HangSettings()
    long_eval = (Episode("eval", 300, 1300),)  # 1000 s: beyond the 480 s cap and the 600 s watchdog
    events = _logs_steps(stream(JOB, 1500, long_eval))
    events += [_line(300.1, "evaluating on validation set at iteration 290 (100 iterations) ..."),
               _line(1300.1, " validation loss at iteration 290 | lm loss value: 2.1E+00 |")]
    assert _with_flush(sorted(events, key=lambda e: (e.event_time, e.event_id)), 1500, s) == []
    richer = HangSettings(solo_eval_budget_s=s.phase_budget_max_s)  # the cap richer profiles keep
    assert _with_flush(sorted(events, key=lambda e: (e.event_time, e.event_id)), 1500, richer)


def test_announced_pauses_do_not_lengthen_the_solo_window_of_a_later_hang() -> None:
    s = HangSettings()
    episodes = (Episode("eval", 300, 700), Episode("hang", 1000, sources=(5,)))
    events = _logs_steps(stream(JOB, 1300, episodes))
    events += [_line(300.1, "evaluating on validation set at iteration 290 (100 iterations) ..."),
               _line(700.1, " validation loss at iteration 290 | lm loss value: 2.1E+00 |")]
    (verdict,) = _with_flush(sorted(events, key=lambda e: (e.event_time, e.event_id)), 1300, s)
    assert at(1000 + s.solo_silence_s - 5) <= verdict.detected_at <= at(1000 + s.solo_silence_s + 10)


def test_simulated_rdma_only_job_votes_from_its_compute_rails() -> None:
    variation = Variation(gpu_metrics=False, stacks=False, flight_recorder=False, storage_port=True)
    config = FleetConfig(nodes=2, gpus_per_node=8, jobs=1, duration_s=900.0, seed=11, cluster="sim",
                         variation=variation)
    sim = simulate(config, [sc.Hang(job=0, at_s=400.0, source="single")])
    kinds = {e.KIND for e in sim.events}
    assert "net_sample" in kinds and "gpu_sample" not in kinds
    (truth,) = [t for t in sim.truth if t.kind == "hang"]
    (verdict,) = detect(route(sim.events)["job-0000"], HangSettings(), until=config.at(config.duration_ms))
    assert verdict.signals.metrics_idle is True
    assert timedelta(0) <= verdict.event_time - truth.onset <= timedelta(seconds=60)
    healthy = simulate(config, [sc.LongEval(job=0, at_s=300.0, duration_s=400.0)])
    assert detect(route(healthy.events)["job-0000"], HangSettings(), until=config.at(config.duration_ms)) == []


def test_a_background_save_reporting_completion_during_a_hang_does_not_reset_its_silence() -> None:
    s = HangSettings()
    events = _logs_steps(stream(JOB, 700, HANG))
    events += [_line(280.1, "saving checkpoint at iteration 270 to /ckpt/job-0000 in torch_dist format"),
               _line(340.1, "  successfully saved checkpoint from iteration 270 to /ckpt/job-0000")]
    (verdict,) = _with_flush(sorted(events, key=lambda e: (e.event_time, e.event_id)), 700, s)
    assert verdict.detected_at <= at(300 + s.solo_silence_s + 10)  # counted from the last step, not the line


def test_an_asynchronous_checkpoint_hook_ending_during_a_hang_keeps_the_evidence() -> None:
    events: list[Event] = stream(JOB, 600, HANG)
    events += [lifecycle(JOB, "checkpoint_started", 280), lifecycle(JOB, "checkpoint_completed", 340, step=1)]
    (verdict,) = verdicts(run(sorted(events, key=lambda e: (e.event_time, e.event_id))))
    assert verdict.detected_at < at(340)  # steps advanced during the save: its end restarts nothing


def test_silence_is_measured_against_the_faster_of_log_lines_and_step_reports() -> None:
    s = HangSettings()
    events: list[Event] = [lifecycle(JOB, "scheduled", 0), lifecycle(JOB, "running", 1)]
    events += [_line(10 + 30 * i, f"iteration {i}") for i in range(10)]  # a line every 30 s
    events += [StepProgress(event_id=f"p{i}", event_time=at(10 + 5 * i), cluster="t", job_id=JOB.job_id,
                            node_id=JOB.node(0), rank=0, step=i, step_time_ms=500.0) for i in range(55)]
    state = feed(sorted(events, key=lambda e: (e.event_time, e.event_id)))
    last = 10 + 5 * 54  # the last step report, after the last line
    assert log_silent(state, to_us(at(last + s.log_silence_s - 5)), s).value is False
    assert log_silent(state, to_us(at(last + s.log_silence_s + 1)), s).value is True  # not 5 x 30 s


def test_an_evaluation_announced_in_the_same_instant_a_save_ends_is_still_announced() -> None:
    long_eval = (Episode("eval", 300, 1300),)
    events = _logs_steps(stream(JOB, 1500, long_eval))
    events += [_line(290.0, "saving checkpoint at iteration 280 to /ckpt/job-0000 in torch_dist format"),
               _line(300.0, "  successfully saved checkpoint from iteration 280 to /ckpt/job-0000"),
               _line(300.0, "evaluating on validation set at iteration 280 (100 iterations) ..."),
               _line(1300.1, " validation loss at iteration 280 | lm loss value: 2.1E+00 |")]
    ordered = sorted(events, key=lambda e: (e.event_time, e.event_id.replace("phase", "zz")))  # saved line first
    assert _with_flush(ordered, 1500) == []


def test_an_end_line_closes_only_its_own_announcement() -> None:
    quiet = _logs_steps(stream(JOB, 400, (Episode("checkpoint", 300, lifecycle=False),)))
    saving = [_line(300.05, "saving checkpoint at iteration 290 (async)"),
              _line(300.1, "saving checkpoint at iteration 290 to /ckpt/job-0000 in torch_dist format")]
    saved = _line(305.0, "  successfully saved checkpoint from iteration 290")
    state = feed(sorted(quiet + saving + [saved], key=lambda e: (e.event_time, e.event_id)))
    assert state.run.phase_line == "checkpoint" and state.run.phase_depth == 1  # the second save goes on
    evaluating = _line(300.6, "evaluating on validation set at iteration 290 (100 iterations) ...")
    state = feed(sorted(quiet + saving + [evaluating, saved], key=lambda e: (e.event_time, e.event_id)))
    assert state.run.phase_line == "eval"  # a save's end does not end an evaluation
    assert state.run.last_log_us == to_us(at(300.6))  # nor is it the loop's progress
    running = _logs_steps(stream(JOB, 400))
    state = feed(sorted(running + saving + [_line(330.05, "  successfully saved checkpoint")],
                        key=lambda e: (e.event_time, e.event_id)))
    assert state.run.phase_line is None  # the loop ran on between the announcement and the end line


def test_an_end_line_naming_another_iteration_ends_a_background_save_not_the_pause() -> None:
    quiet = _logs_steps(stream(JOB, 400, (Episode("checkpoint", 300, lifecycle=False),)))
    lines: list[Event] = [_line(250.0, "saving checkpoint at iteration 240 to /ckpt/job-0000 in torch_dist format"),
             _line(300.1, "saving checkpoint at iteration 290 to /ckpt/job-0000 in torch_dist format"),
             _line(310.0, "  successfully saved checkpoint from iteration 240 to /ckpt/job-0000")]
    state = feed(sorted(quiet + lines, key=lambda e: (e.event_time, e.event_id)))
    assert state.run.phase_line == "checkpoint" and state.run.last_log_us == to_us(at(300.1))
    done = _line(330.0, "  successfully saved checkpoint from iteration 290 to /ckpt/job-0000")
    state = feed(sorted(quiet + lines + [done], key=lambda e: (e.event_time, e.event_id)))
    assert state.run.phase_line is None and state.run.last_log_us == to_us(at(330.0))


def test_other_frameworks_announce_their_saves_and_evaluations() -> None:
    # DeepSpeed's checkpoint engine (runtime/checkpoint_engine/torch_checkpoint_engine.py) and the
    # Hugging Face Trainer (trainer.py) print these lines; a logs-only job that says so is explained
    quiet = _logs_steps(stream(JOB, 400, (Episode("checkpoint", 300, lifecycle=False),)))
    for text, kind in (("[INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step290 is about "
                        "to be saved!", "checkpoint"),
                       ("Saving model checkpoint to /out/checkpoint-290", "checkpoint"),
                       ("***** Running Evaluation *****", "eval")):
        state = feed(sorted(quiet + [_line(300.1, text)], key=lambda e: (e.event_time, e.event_id)))
        assert state.run.phase_line == kind, text
    ready = _line(330.0, "[Rank 0] [Torch] Checkpoint global_step290 is ready now!")
    state = feed(sorted(quiet + [_line(300.1, "[Rank 0] [Torch] Checkpoint global_step290 is about to be saved!"),
                                 ready],
                        key=lambda e: (e.event_time, e.event_id)))
    assert state.run.phase_line is None


def test_more_frameworks_announce_and_end_their_saves() -> None:
    # Format strings of torchtitan (components/checkpoint.py), fairseq (checkpoint_utils.py,
    # trainer.py), Orbax (atomicity), torchtune (recipes) and Accelerate (save_state). The end
    # lines contain a start marker ("saving checkpoint", "saving the checkpoint") and must close
    # the announced save, not open one.
    quiet = _logs_steps(stream(JOB, 400, (Episode("checkpoint", 300, lifecycle=False),)))
    pairs = (
        ("[rank0]:2026-11-27 10:00:00,000 - root - INFO - Saving the checkpoint (or staging if async is enabled).",
         "[rank0]:2026-11-27 10:00:30,000 - root - INFO - Finished saving the checkpoint (or staging if async is "
         "enabled)in 29.87 seconds."),
        ("2026-11-27 10:00:00 | INFO | fairseq.checkpoint_utils | Preparing to save checkpoint for epoch 3 @ 290 "
         "updates",
         "2026-11-27 10:00:30 | INFO | fairseq.trainer | Finished saving checkpoint to /ckpt/checkpoint_last.pt"),
        ("INFO:torchtune.utils._logging:Saving checkpoint. This may take some time. Retrieving full model state "
         "dict...",
         "INFO:torchtune.utils._logging:Saving checkpoint took 29.91 secs"),
        ("INFO:accelerate.accelerator:Saving current state to /out/step_290", None),
        (None, "I1127 10:00:30.000000 140000 atomicity.py:847] [process=0][thread=MainThread] Finished saving "
               "checkpoint (finalized tmp dir) to `/ckpt/290`."),
    )
    for start, end in pairs:
        if start is not None:
            state = feed(sorted(quiet + [_line(300.1, start)], key=lambda e: (e.event_time, e.event_id)))
            assert state.run.phase_line == "checkpoint", start
        if start is not None and end is not None:
            state = feed(sorted(quiet + [_line(300.1, start), _line(330.0, end)],
                                key=lambda e: (e.event_time, e.event_id)))
            assert state.run.phase_line is None, end
        if end is not None:
            alone = feed(sorted(_logs_steps(stream(JOB, 400)) + [_line(300.1, end)],
                                key=lambda e: (e.event_time, e.event_id)))
            assert alone.run.phase_line is None, end  # an end line alone opens nothing


def test_a_logs_only_hang_is_reported_while_nccl_keeps_warning() -> None:
    # A collective that cannot complete keeps NCCL retrying and warning (format of NCCL's
    # transport/net_ib.cc and misc/socket.cc warnings); those lines are no progress.
    s = HangSettings()
    warnings = [LogLine(event_id=f"warn-{t}", event_time=at(t), cluster="t", job_id=JOB.job_id, node_id=JOB.node(1),
                        rank=8, source="nccl",
                        line=f"gpu-n1:4242:4301 [0] transport/net_ib.cc:1692 NCCL WARN NET/IB : Got completion from "
                             f"peer 10.0.0.{t % 200} with status=12 opcode=0 len=0 vendor err 129 (Recv)")
                for t in range(305, 700, 10)]
    events = sorted(_logs_steps(stream(JOB, 700, HANG)) + warnings, key=lambda e: (e.event_time, e.event_id))
    (verdict,) = _with_flush(events, 700, s)
    assert (verdict.event_time - at(300)).total_seconds() <= 60


def test_a_logs_only_hang_is_reported_while_a_watchdog_dumps_stacks() -> None:
    # faulthandler.dump_traceback_later(30, repeat=True) prints the stuck process's stacks every
    # 30 s (CPython's Modules/faulthandler.c formats); a dump is no progress.
    s = HangSettings()
    dump = ("Timeout (0:00:30)!", "Thread 0x00007f3a2c9ff700 (most recent call first):",
            '  File "/usr/lib/python3.11/threading.py", line 320 in wait',
            "Current thread 0x00007f3a4e1b2740 (most recent call first):",
            '  File "/opt/conda/lib/python3.11/site-packages/torch/cuda/streams.py", line 95 in synchronize',
            '  File "/workspace/train.py", line 212 in train_step')
    lines = [LogLine(event_id=f"dump-{t}-{i}", event_time=at(t + i * 0.001), cluster="t", job_id=JOB.job_id,
                     node_id=JOB.node(0), rank=0, source="training", line=text)
             for t in range(330, 700, 30) for i, text in enumerate(dump)]
    events = sorted(_logs_steps(stream(JOB, 700, HANG)) + lines, key=lambda e: (e.event_time, e.event_id))
    (verdict,) = _with_flush(events, 700, s)
    assert (verdict.event_time - at(300)).total_seconds() <= 60


def test_a_logs_only_hang_is_reported_within_a_minute() -> None:
    s = HangSettings()
    (verdict,) = _with_flush(_logs_steps(stream(JOB, 700, HANG)), 700, s)
    assert (verdict.event_time - at(300)).total_seconds() <= 60
    assert verdict.signals.log_silent and verdict.source_nodes == ()


def test_a_hang_at_the_start_of_a_background_save_is_not_taken_for_a_synchronous_save() -> None:
    # hang_eval seed 11 #21, --wide seed 5 #5 (logs and steps only): the loop hung right after the
    # hook, before its next step report; the save looked synchronous, and its completion restarted
    # the silence (latency 100-109 s). The job's first save had run in the background.
    s = HangSettings()
    events = _logs_steps(stream(JOB, 800, (Episode("hang", 400.2, sources=(5,)),)))
    events += [lifecycle(JOB, "checkpoint_started", 200), lifecycle(JOB, "checkpoint_completed", 260, step=1),
               lifecycle(JOB, "checkpoint_started", 400), lifecycle(JOB, "checkpoint_completed", 470, step=2)]
    (verdict,) = _with_flush(sorted(events, key=lambda e: (e.event_time, e.event_id)), 800, s)
    assert verdict.detected_at <= at(400 + s.solo_silence_s + 10)
