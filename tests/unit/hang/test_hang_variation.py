"""Hang detection outside the ideal telemetry: NVML only, storage NICs, real waiter frames,
dead nodes, one-node jobs, rank-0 saves without hooks, logs-only jobs (issue 14)."""

from __future__ import annotations

from hang_kit import WAIT, Episode, Job, at, lifecycle, run, stream, verdicts, votes

from producers.simulator import FleetConfig, Variation, simulate
from producers.simulator import scenarios as sc
from schemas import Event, GpuSample, HangVerdict, NetPort, NetSample, StackSample
from streams.hang import HangSettings
from streams.hang.probes import metrics_idle
from streams.hang.state import to_us
from tests.bench.hang_eval import detect, detect_emitted, route, true_time_of
from tests.unit.hang.test_hang_probes import feed

JOB = Job()
HANG = (Episode("hang", 300, sources=(5,)),)
REAL_WAIT = ("main (train.py:1)", "train_step (train.py:41)", "item (torch/_tensor.py:1072)",
             "_local_scalar_dense (<built-in>)")


def _nvml_only(events: list[Event]) -> list[Event]:
    """The same stream as seen by NVML only: no SM activity."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, GpuSample):
            e = e.model_copy(update={"gpus": tuple(g.model_copy(update={"sm_active": None}) for g in e.gpus)})
        out.append(e)
    return out


def _with_storage_port(events: list[Event]) -> list[Event]:
    """Add a storage NIC that moves 300 MB/s whatever the job does."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, NetSample):
            moved = int(to_us(e.event_time) / 1e6 * 3e8)
            storage = NetPort(device="mlx5_9", port=1, state="ACTIVE", tx_bytes_total=moved,
                              rx_bytes_total=moved, symbol_errors_total=0, link_downed_total=0,
                              rcv_errors_total=0)
            e = e.model_copy(update={"ports": (*e.ports, storage)})
        out.append(e)
    return out


def _real_waiters(events: list[Event]) -> list[Event]:
    return [e.model_copy(update={"frames": REAL_WAIT}) if isinstance(e, StackSample) and e.frames == WAIT else e
            for e in events]


def test_nvml_only_spin_is_read_from_power_against_the_gpus_own_peak() -> None:
    s = HangSettings()
    hung = feed(_nvml_only(stream(JOB, 400, HANG)))
    assert metrics_idle(hung, to_us(at(360)), s).value is True
    healthy = feed(_nvml_only(stream(JOB, 400)))
    assert metrics_idle(healthy, to_us(at(400)), s).value is False
    (verdict,) = verdicts(run(_nvml_only(stream(JOB, 600, HANG))))
    assert verdict.signals.metrics_idle is True and verdict.source_ranks == (5,)


def test_a_storage_port_that_keeps_moving_does_not_veto_flat_rdma() -> None:
    s = HangSettings()
    hung = feed(_with_storage_port(stream(JOB, 400, HANG)))
    assert metrics_idle(hung, to_us(at(360)), s).value is True


def test_real_waiter_frames_are_found_by_similarity_and_localise_the_source() -> None:
    (verdict,) = verdicts(run(_real_waiters(stream(JOB, 600, HANG))))
    assert verdict.signals.stacks_frozen is True
    found = {f.method: f.ranks for f in verdict.localization}
    assert found["stack_outlier"] == (5,) and verdict.source_nodes == (JOB.node(5),)


def test_a_dead_node_is_named_by_its_silence_and_onset_is_its_last_report() -> None:
    job = Job(nodes=4, gpus=4)
    dead = job.node(12)  # node-0004, ranks 12..15
    events = [e for e in stream(job, 700, (Episode("hang", 400, sources=(12, 13, 14, 15)),))
              if not (getattr(e, "node_id", None) == dead and e.event_time >= at(400))]
    (verdict,) = verdicts(run(events))
    assert verdict.source_nodes == (dead,)
    assert {f.method: f.ranks for f in verdict.localization}["node_silence"] == (12, 13, 14, 15)
    assert at(395) <= verdict.onset_time <= at(401)
    assert verdict.event_time >= verdict.detected_at and verdict.event_time <= at(400 + 60)


def test_one_node_uniform_freeze_names_no_node_and_says_restart_in_place() -> None:
    job = Job(nodes=1, gpus=8)
    (verdict,) = verdicts(run(stream(job, 600, (Episode("hang", 300),))))
    assert verdict.source_nodes == () and verdict.source_ranks == ()
    (uniform,) = [f for f in verdict.localization if f.method == "uniform"]
    assert "only node" in uniform.detail and "restart in place" in uniform.detail


def test_rank0_save_without_hooks_is_a_checkpoint_not_a_hang() -> None:
    events = [e for e in stream(JOB, 900, (Episode("rank0_save", 300, 540, lifecycle=False),))]
    out = run(events)
    assert not verdicts(out)
    during = [v for v in votes(out) if at(340) <= v.window_end <= at(530)]
    assert during and all(not v.hang for v in during)


def test_rank0_save_that_outlives_its_budget_is_a_hang() -> None:
    s = HangSettings()
    (verdict,) = verdicts(run(stream(JOB, 1200, (Episode("rank0_save", 300, lifecycle=False),)), s))
    # the writer's stacks show its save: seen_save_budget_s, capped by phase_budget_max_s
    assert at(300 + s.checkpoint_budget_s) <= verdict.detected_at <= at(300 + s.phase_budget_max_s + 10)
    assert verdict.detected_at < at(300 + s.watchdog_s)


def test_logs_and_steps_only_decide_alone_over_the_solo_window() -> None:
    s = HangSettings()
    events = [e for e in stream(JOB, 700, HANG) if e.KIND in ("job_event", "log_line", "step_progress")]
    out = run(events)
    assert not verdicts(out)  # nothing arrives after the onset: only the shell's flush can tell
    from streams.hang import HangDetector
    detector, state, found = HangDetector(s), None, []
    state = detector.initial()
    for e in events:
        state, _ = detector.step(state, e)
    for t in range(300, 700, 5):
        state, emitted = detector.flush(state, at(t))
        found += verdicts(emitted)
    (verdict,) = found
    assert at(300 + s.solo_silence_s) <= verdict.detected_at <= at(300 + s.solo_silence_s + 10)
    assert verdict.signals.log_silent is True and verdict.signals.metrics_idle is None


def test_checkpoint_hook_with_steps_advancing_is_asynchronous() -> None:
    events: list[Event] = stream(JOB, 600)
    events.append(lifecycle(JOB, "checkpoint_started", 200))
    out = run(sorted(events, key=lambda e: (e.event_time, e.event_id)))
    assert not verdicts(out)
    late = [v for v in votes(out) if v.window_end >= at(260)]
    assert late and all(v.signals.log_silent is False for v in late)  # not masked: really active


def _skewed_hang(skew_s: float) -> tuple[HangVerdict, ...]:
    """4 nodes x 8 GPUs, node-0002's clock ``skew_s`` off, rank 3 (node-0001) hangs at 700 s."""
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1100, seed=0, cluster="skew",
                         variation=Variation(skew_node=1, skew_s=skew_s))
    events = sorted(route(simulate(config, [sc.Hang(job=0, at_s=700, source="single", ranks=(3,))]).events)
                    ["job-0000"], key=lambda e: e.event_time)  # event-time order, as the reorder buffer releases
    return tuple(detect(events, HangSettings(), until=config.at(config.duration_ms)))


def test_a_node_whose_clock_is_off_is_left_out_and_the_source_still_found() -> None:
    # issue 14: one node 90 s ahead (or behind) made healthy ranks look behind or still busy
    for skew_s in (90.0, -90.0):
        (verdict,) = _skewed_hang(skew_s)
        assert verdict.source_nodes == ("node-0001",), skew_s
        (note,) = [f for f in verdict.localization if f.method == "clock_skew"]
        assert "node-0002 clock " + ("+" if skew_s > 0 else "-") in note.detail


def test_clocks_a_few_seconds_apart_are_not_skew() -> None:
    (verdict,) = _skewed_hang(3.0)
    assert verdict.source_nodes == ("node-0001",)
    assert not [f for f in verdict.localization if f.method == "clock_skew"]


def _emitted(config: FleetConfig, scenarios: list[object]) -> list[tuple[HangVerdict, float]]:
    """Verdicts of job 0 with their emission (wall seconds from the fleet's start), events in
    arrival order through the job pipeline's reorder buffer."""
    events = route(simulate(config, scenarios).events)["job-0000"]  # type: ignore[arg-type]
    start = config.at(0)
    return [(v, (wall - start).total_seconds()) for v, wall in
            detect_emitted(events, HangSettings(), until=config.at(config.duration_ms),
                           true_time=true_time_of(config.variation))]


def test_the_only_logging_node_far_ahead_does_not_make_the_job_look_silent() -> None:
    # issue 14: rank 0 (the only node logging) 100 s ahead in a logs-and-steps job: its clock
    # drove the votes, the others' steps looked 100 s old, and the job was declared hung
    for skew_s in (100.0, -100.0):
        config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1500, seed=3, cluster="skew",
                             variation=Variation(node_metrics=False, stacks=False, flight_recorder=False, hooks=False,
                                                 skew_node=0, skew_s=skew_s))
        assert _emitted(config, [sc.LongEval(job=0, at_s=500, duration_s=300)]) == [], skew_s
        ((verdict, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=900, source="single", ranks=(9,))])
        # logs and steps only: silence for twice the job's longest earlier pause (46 s here),
        # then the jobs stage's tick (lateness and one whole interval behind its clock: 10 s)
        assert 900 <= emitted_s <= 900 + 115, skew_s


def test_a_dead_node_with_stacks_is_reported_within_a_minute_of_wall_time() -> None:
    # issue 14: the reorder buffer waited max_skew (60 s) for a dead node before releasing the
    # others' events, so the verdict's emission came a minute after the onset at best
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1100, seed=5, cluster="dead")
    ((verdict, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=700, dead_node=2)])
    assert verdict.source_nodes == ("node-0003",)
    assert emitted_s - 700 <= 50



def test_a_dead_node_whose_clock_runs_behind_is_still_named_by_its_silence() -> None:
    # hang_eval seed 23 #30: the node that died was the one whose clock ran 92 s behind; left
    # out of the silence judgement for its clock, the hang was localised nowhere (a restart
    # instead of a replacement). Its offset was known: on the job's clock it fell silent.
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1100, seed=5, cluster="dead",
                         variation=Variation(sm_active=False, skew_node=2, skew_s=-92.0))
    ((verdict, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=700, dead_node=2)])
    assert verdict.source_nodes == ("node-0003",)
    assert "node-0003" in {f.method: f.detail for f in verdict.localization}["node_silence"]
    assert emitted_s - 700 <= 60


def test_a_healthy_node_whose_clock_runs_ahead_is_never_silent() -> None:
    # the buffer holds an ahead node's reports until the job's time reaches their stamps: on
    # the job's clock it would look silent for as long as it is ahead
    for skew_s in (90.0, -90.0):
        config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1100, seed=5, cluster="skew",
                             variation=Variation(sm_active=False, skew_node=2, skew_s=skew_s))
        assert _emitted(config, [sc.LongEval(job=0, at_s=500, duration_s=200)]) == [], skew_s

def test_a_rank0_save_is_no_hang_when_the_writers_clock_is_off() -> None:
    # the writer's node is left out for its clock, so the quiet period localises nowhere: a
    # "uniform" hang, restart_in_place of a healthy job in the middle of its save
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1200, seed=8, cluster="skew",
                         variation=Variation(sm_active=False, stacks=False, flight_recorder=False, hooks=False,
                                             checkpoint_writer="rank0", skew_node=0, skew_s=110.0))
    assert _emitted(config, [sc.LongCheckpoint(job=0, at_s=550, duration_s=235)]) == []


def test_a_uniform_hang_is_reported_at_log_silence_when_the_writers_clock_is_off() -> None:
    # hang_eval seed 10 #38: every rank froze alike, rank 0's node 106 s behind; the quiet
    # period localised nowhere and was taken for rank 0's save (298 s). Rank 0's own samples
    # show its GPU spinning in the collective like every other: it is not writing.
    for skew_s in (110.0, -110.0):
        config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1200, seed=8, cluster="skew",
                             variation=Variation(sm_active=False, stacks=False, flight_recorder=False, hooks=False,
                                                 checkpoint_writer="rank0", skew_node=0, skew_s=skew_s))
        ((verdict, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=700, source="uniform")])
        assert 700 <= emitted_s <= 700 + 90, skew_s  # log silence at this job's cadence, not a save's budget
        assert not verdict.source_nodes


def test_an_unannounced_evaluation_then_a_save_is_no_hang_while_the_gpus_compute() -> None:
    # issue 14 (hang_eval seed 8, healthy fleets): a 6-minute evaluation that prints nothing,
    # then a rank-0 save: the save's collective wait came after 6 minutes of log silence and
    # named both healthy nodes. The GPUs computed all through the evaluation: a sign of life.
    variation = Variation(stacks=False, hooks=False, announce=False, checkpoint_writer="rank0", storage_port=True)
    for seed in (1, 2, 3):
        config = FleetConfig(nodes=2, gpus_per_node=2, jobs=1, duration_s=2000, seed=seed, cluster="eval",
                             checkpoint_every_s=300.0, checkpoint_duration_s=35.0, variation=variation)
        assert _emitted(config, [sc.LongEval(job=0, at_s=1100, duration_s=360)]) == [], seed


def test_silent_saves_of_a_job_with_rdma_counters_and_logs_only_are_no_hangs() -> None:
    # hang_eval --wide seed 2, healthy fleets: a job with RDMA counters and logs only (no GPU
    # samples, stacks or collective progress) that saves for ~50 s every 5 minutes without a
    # hook or a line: flat rails and a silent log, a verdict at every save (62 in 16 job-hours).
    # (A first silent save longer than solo_silence_s, 50 s, still gets one.)
    variation = Variation(gpu_metrics=False, stacks=False, flight_recorder=False, hooks=False, announce=False)
    config = FleetConfig(nodes=2, gpus_per_node=2, jobs=1, duration_s=2400, seed=4, cluster="rdma",
                         checkpoint_every_s=300.0, checkpoint_duration_s=48.0, variation=variation)
    assert _emitted(config, []) == []
    ((_, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=1730, source="single")])
    assert 1730 <= emitted_s <= 1730 + 2 * 48 + 30  # twice its longest silent save


def test_a_save_seen_in_slow_stack_samples_is_no_hang() -> None:
    # hang_eval --wide seed 2, healthy fleets: stacks every 10 s freeze a waiter group only
    # after a minute; RDMA counters (no GPU samples) and a silent log named a 98 s rank-0 save
    # a hang first. The writer's I/O frames and the others' one wait say it at the first sample.
    variation = Variation(gpu_metrics=False, flight_recorder=False, waiter_frames="real", hooks=False, announce=False,
                          checkpoint_writer="rank0", storage_port=True)
    config = FleetConfig(nodes=2, gpus_per_node=2, jobs=1, duration_s=1500, seed=4, cluster="slow-stacks",
                         stack_interval_s=10.0, checkpoint_every_s=600.0, checkpoint_duration_s=25.0,
                         variation=variation)
    assert _emitted(config, [sc.LongCheckpoint(job=0, at_s=1000, duration_s=98)]) == []


def test_a_node_that_dies_during_a_save_is_reported_from_the_jobs_save_history() -> None:
    # issue 14 (hang_eval seed 20 #30): a node died right after a hookless, log-announced save
    # began; the save explained the waiting ranks for checkpoint_budget_s (300 s) although the
    # job's saves had taken 50 s: the verdict came 260 s after the node died
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1500, seed=11, cluster="dead",
                         checkpoint_every_s=300, checkpoint_duration_s=50,
                         variation=Variation(stacks=False, hooks=False))
    # rank 0's node (the one that logs) dies 11 s into the save that began at ~924 s: its
    # "successfully saved" line never comes
    ((verdict, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=935, dead_node=0)])
    assert verdict.source_nodes == ("node-0001",)
    assert emitted_s <= 924 + HangSettings().silent_phase_factor * 50 + 15  # was 924 + 300 + 10
    # the same saves with every node alive are no hang
    assert not _emitted(config, [])


def test_a_node_far_ahead_resuming_after_an_evaluation_does_not_make_the_job_look_silent() -> None:
    # issue 14 (hang_eval seed 20 #44): in a logs-and-steps job, a node 88 s ahead resumed its
    # step reports after an announced evaluation; the harness moved the stage clock to that
    # report's time before the worker would have (its stage clock is the newest event time it
    # processed) and ticked a job that was still sending: it looked silent for a minute
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=1800, seed=458325, cluster="eval",
                         checkpoint_every_s=600, checkpoint_duration_s=41.9,
                         variation=Variation(node_metrics=False, stacks=False, flight_recorder=False,
                                             skew_node=1, skew_s=88.06))
    scenarios = [sc.Heterogeneity(job=0, spread=0.076), sc.LongEval(job=0, at_s=409.2, duration_s=312.2)]
    assert not _emitted(config, scenarios)


def test_a_node_ahead_from_the_jobs_first_events_does_not_make_the_job_look_silent() -> None:
    # issue 14: a logs-only job whose node-0002 runs 88 s ahead; its first lines (before it ever
    # reported a step, so before its offset could be estimated) moved the evaluation grid 66 s
    # past the others' newest events, and the job got a log_silent verdict 85 s in
    for seed in (7, 8, 9):
        config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=900, seed=seed, cluster="skew",
                             variation=Variation(node_metrics=False, stacks=False, flight_recorder=False,
                                                 skew_node=1, skew_s=88.0))
        assert not _emitted(config, [])
    # a hang of such a job is still reported
    config = FleetConfig(nodes=4, gpus_per_node=8, jobs=1, duration_s=900, seed=7, cluster="skew",
                         variation=Variation(node_metrics=False, stacks=False, flight_recorder=False,
                                             skew_node=1, skew_s=88.0))
    ((verdict, emitted_s),) = _emitted(config, [sc.Hang(job=0, at_s=500)])
    assert emitted_s - 500 <= 90


def test_a_hooked_rank0_save_of_a_job_that_usually_saves_in_the_background_takes_no_node() -> None:
    """hang_eval --wide 16, healthy fleet 7: a job whose hooked saves ran in the background (its
    hooks therefore mask nothing) saves synchronously once, rank 0 writing while the others wait;
    without stacks, rank 0's idle GPU among spinning ones looked like its hang and its node was
    named. A save hooked right now gives the writer the benefit of the doubt up to the budget."""
    events = [e for e in stream(JOB, 900, (Episode("rank0_save", 300, 540, lifecycle=False),))
              if not isinstance(e, StackSample)]
    events += [lifecycle(JOB, "checkpoint_started", 100), lifecycle(JOB, "checkpoint_completed", 160),
               lifecycle(JOB, "checkpoint_started", 300), lifecycle(JOB, "checkpoint_completed", 540)]
    assert not verdicts(run(sorted(events, key=lambda e: (e.event_time, e.event_id))))
