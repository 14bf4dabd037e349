"""The slow-node detector on hand-built synchronous jobs (no simulator needed)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from slow_synth import START, Factor, Job, gpu_sample, net_sample, node_name, run_detector

from schemas import Event, JobEvent, LogLine, SlowNode, StepProgress, derived_id
from streams.slow import SlowNodeDetector, SlowSettings
from streams.slow.episodes import _ready_metric
from streams.slow.track import NodeTrack


def slow_from(node: int, at_s: float, factor: float = 1.25, until_s: float = 1e9) -> Factor:
    """A factor function: ``node`` is ``factor`` times slower in [at_s, until_s)."""
    return lambda n, t: factor if n == node and at_s <= t < until_s else 1.0


def latency_s(out: SlowNode, onset_s: float) -> float:
    return (out.detected_at - START).total_seconds() - onset_s


@pytest.mark.parametrize("nodes", [8, 16, 64])
def test_a_125x_node_is_caught_within_two_minutes(nodes: int) -> None:
    out = run_detector(Job(nodes=nodes, duration_s=600, factor=slow_from(3, 300)).events())
    assert [o.node_id for o in out] == [node_name(3)]
    assert 0 <= latency_s(out[0], 300) <= 120
    assert out[0].metric == "compute_ms"
    assert out[0].slowdown == pytest.approx(1.25, abs=0.03)
    assert out[0].windows >= 3


def test_one_slow_rank_is_aggregated_to_its_node() -> None:
    def factor(n: int, t: float) -> float:
        return 1.0

    job = Job(nodes=8, duration_s=600, factor=factor)
    events = job.events()
    slowed: list[Event] = []
    for e in events:  # rank 19 (node 2, GPU 3) computes 30 % slower from 300 s
        late = (e.event_time - START).total_seconds() >= 300
        if isinstance(e, StepProgress) and e.rank == 19 and late and e.compute_ms is not None:
            e = e.model_copy(update={"compute_ms": e.compute_ms * 1.3})
        slowed.append(e)
    out = run_detector(slowed)
    assert [(o.node_id, o.ranks) for o in out] == [(node_name(2), (19,))]


def test_a_short_slowdown_does_not_persist_enough() -> None:
    # 1.4x for 30 s: at most two windows, below 3 of 4
    out = run_detector(Job(nodes=8, duration_s=600, factor=slow_from(5, 305, 1.4, 335)).events())
    assert out == []


def test_sparse_reporting_still_catches_a_slow_node_and_ignores_spikes() -> None:
    # one report per rank every 20 steps: each window holds one fresh report per rank
    slow = run_detector(Job(nodes=8, every=20, duration_s=700, factor=slow_from(3, 300)).events())
    assert [o.node_id for o in slow] == [node_name(3)]
    assert latency_s(slow[0], 300) <= 150
    noisy = Job(nodes=16, every=20, duration_s=900, spike_prob=0.02, jitter=0.02)
    assert run_detector(noisy.events()) == []


def test_single_step_spikes_are_not_news() -> None:
    out = run_detector(Job(nodes=16, duration_s=900, spike_prob=0.01, jitter=0.02).events())
    assert out == []


def test_stable_heterogeneity_is_silent() -> None:
    levels = [0.88, 0.95, 1.0, 1.0, 1.05, 1.1, 1.15, 0.92]
    out = run_detector(Job(nodes=8, duration_s=1200, factor=lambda n, t: levels[n],
                           jitter=0.015, spike_prob=0.005).events())
    assert out == []


def test_a_node_slow_from_the_start_is_its_baseline_not_news() -> None:
    # a pipeline's last stage or an older GPU model: 1.35x from minute one is structure
    out = run_detector(Job(nodes=8, duration_s=900, factor=slow_from(2, 0, 1.35)).events())
    assert out == []


def test_pipeline_stages_and_mixed_gpus_are_baseline_and_a_later_straggler_is_caught() -> None:
    # nodes 6-7: last stage 1.3x; nodes 0-3: older GPUs 1.4x; node 1 slows 1.25x at 500 s
    base = [1.4, 1.4, 1.4, 1.4, 1.0, 1.0, 1.3, 1.3]

    def factor(n: int, t: float) -> float:
        return base[n] * (1.25 if n == 1 and t >= 500 else 1.0)

    out = run_detector(Job(nodes=8, duration_s=800, factor=factor, jitter=0.015).events())
    assert [o.node_id for o in out] == [node_name(1)]
    assert 0 <= latency_s(out[0], 500) <= 120
    assert out[0].slowdown == pytest.approx(1.25, abs=0.05)


def test_heterogeneous_node_slowing_down_is_caught() -> None:
    levels = [0.95, 1.04, 1.0, 0.97, 1.03, 1.0, 0.96, 1.05]

    def factor(n: int, t: float) -> float:
        return levels[n] * (1.25 if n == 0 and t >= 400 else 1.0)

    out = run_detector(Job(nodes=8, duration_s=700, factor=factor, jitter=0.0125).events())
    assert [o.node_id for o in out] == [node_name(0)]
    assert latency_s(out[0], 400) <= 120


def test_one_output_per_episode_and_a_new_one_after_recovery() -> None:
    def factor(n: int, t: float) -> float:
        return 1.3 if n == 1 and (200 <= t < 600 or 900 <= t < 1200) else 1.0

    out = run_detector(Job(nodes=8, duration_s=1300, factor=factor).events())
    assert [o.node_id for o in out] == [node_name(1), node_name(1)]
    assert out[0].outlier_id != out[1].outlier_id
    assert 0 <= latency_s(out[0], 200) <= 120
    assert 0 <= latency_s(out[1], 900) <= 120


def test_ids_are_deterministic_and_name_the_episode_start() -> None:
    job = Job(nodes=8, duration_s=600, factor=slow_from(3, 300))
    first, second = run_detector(job.events()), run_detector(job.events())
    assert [o.outlier_id for o in first] == [o.outlier_id for o in second]
    out = first[0]
    assert out.event_id == out.outlier_id
    # the id names the start of the episode's first suspect window (a 20 s boundary
    # between the onset and the detection)
    starts = [START + timedelta(seconds=20 * k) for k in range(14, 30)]
    ids = {derived_id("slow_node", "job-0000", out.node_id, t): t for t in starts}
    assert out.outlier_id in ids
    assert START + timedelta(seconds=280) <= ids[out.outlier_id] < out.detected_at


def test_step_time_minus_wait_localises_without_compute() -> None:
    job = Job(nodes=8, duration_s=600, compute=False, factor=slow_from(3, 300))
    out = run_detector(job.events())
    assert [(o.node_id, o.metric) for o in out] == [(node_name(3), "busy_ms")]
    assert latency_s(out[0], 300) <= 120


def test_step_time_alone_is_the_same_everywhere_and_blames_no_one() -> None:
    events = [e.model_copy(update={"comm_wait_ms": None}) if isinstance(e, StepProgress) else e
              for e in Job(nodes=8, duration_s=600, compute=False,
                           factor=slow_from(3, 300)).events()]
    assert run_detector(events) == []


def test_dump_load_round_trip_behaves_the_same() -> None:
    events = Job(nodes=8, duration_s=600, factor=slow_from(3, 300)).events()
    detector = SlowNodeDetector()
    state, out = detector.initial(), []
    for i, event in enumerate(events):
        if i % 500 == 0:
            state = detector.load(json.loads(json.dumps(detector.dump(state))))
        state, emitted = detector.step(state, event)
        out.extend(emitted)
    assert [o.event_id for o in out] == [o.event_id for o in run_detector(events)]
    assert out


def test_waiting_windows_survive_a_dump_and_load() -> None:
    """Reports every 30 s: windows often close with the next report overdue and wait for it;
    a state saved and loaded while they wait decides the same."""
    job = Job(nodes=8, duration_s=900, step_ms=1500.0, every=20, factor=slow_from(3, 300, 1.4))
    events = job.events()
    for k in range(180):
        events.extend(gpu_sample(n, 5.0 * k, temp=80.0 if n == 3 and k >= 60 else 60.0) for n in range(8))
    events.sort(key=lambda e: e.event_time)
    detector = SlowNodeDetector()
    state, out, saved_waiting = detector.initial(), [], 0
    for event in events:
        if state.pending:
            saved_waiting += 1
            state = detector.load(json.loads(json.dumps(detector.dump(state))))
        state, emitted = detector.step(state, event)
        out.extend(emitted)
    assert saved_waiting > 0
    assert [(o.event_id, o.detected_at) for o in out] == [(o.event_id, o.detected_at) for o in run_detector(events)]
    assert [o.node_id for o in out] == [node_name(3)]


def test_flush_is_idempotent_and_other_events_are_ignored() -> None:
    detector = SlowNodeDetector()
    events = Job(nodes=8, duration_s=330, factor=slow_from(3, 0, 1.5)).events()
    state = detector.initial()
    for event in events:
        state, _ = detector.step(state, event)
    log = LogLine(event_id="l", event_time=events[-1].event_time, cluster="test", source="training",
                  line="hello")
    before = detector.dump(state)
    state, out = detector.step(state, log)
    assert out == [] and detector.dump(state) == before
    later = events[-1].event_time + timedelta(seconds=60)
    state, first = detector.flush(state, later)
    state, again = detector.flush(state, later)
    assert again == []
    closed = state.closed
    state, _ = detector.step(state, events[-1])  # a straggling event of the closed window
    assert closed is not None and state.window == closed + 1


def test_a_restart_keeps_levels_and_a_new_placement_forgets_them() -> None:
    events = Job(nodes=8, duration_s=600, factor=slow_from(3, 0, 1.4)).events()
    restart = JobEvent(event_id="r", event_time=events[-1].event_time, cluster="test",
                       job_id="job-0000", attempt=1, kind="restarting")
    detector = SlowNodeDetector()
    state = detector.initial()
    for event in events:
        state, _ = detector.step(state, event)
    state, _ = detector.step(state, restart)
    assert state.window is None and state.attempt == 1 and state.max_step == -1
    assert state.tracks[node_name(3)].level("compute_ms")
    assert all(not t.verdicts and t.episode is None for t in state.tracks.values())
    again = Job(nodes=8).scheduled().model_copy(update={"attempt": 1})
    state, _ = detector.step(state, again)
    assert state.tracks == {}


def _gpu_run(thermal_node: int, at_s: float, temp_hot: float, throttle: int) -> list[SlowNode]:
    events: list[Event] = [Job(nodes=8, duration_s=600).scheduled()]
    for k in range(120):
        t = 5.0 * k
        for n in range(8):
            hot = n == thermal_node and t >= at_s
            events.append(gpu_sample(n, t, temp=temp_hot if hot else 66.0 + n * 0.5,
                                     power=450.0 if hot else 640.0,
                                     throttle=throttle if hot else 0))
    return run_detector(events)


def test_thermal_throttling_is_flagged_from_gpu_samples_alone() -> None:
    out = _gpu_run(4, 300, 88.0, 0x40)
    assert [o.node_id for o in out] == [node_name(4)]
    assert out[0].metric in ("throttle", "temp_c")
    assert latency_s(out[0], 300) <= 120


def test_a_node_throttling_from_the_start_is_flagged_a_warmer_one_is_not() -> None:
    # issue 14 (slow_fleet_eval seed 16): a 1.7x thermal straggler that began throttling soon
    # after a restart, before its baseline was learnt, taught it that throttling was its normal.
    # A hardware or thermal slowdown is never a node's normal; running warmer (rack position)
    # or held at its power cap (SwPowerCap, not a slowdown bit) is
    out = _gpu_run(4, 0, 88.0, 0x40)
    assert [o.node_id for o in out] == [node_name(4)] and out[0].metric == "throttle"
    assert _gpu_run(4, 0, 80.0, 0) == []
    assert _gpu_run(4, 0, 80.0, 0x4) == []


def test_power_alone_does_not_open_an_episode() -> None:
    out = _gpu_run(4, 300, 66.0, 0)
    assert out == []


def _net_run(reset_node: int | None, degraded: int | None) -> list[SlowNode]:
    events: list[Event] = [Job(nodes=8, duration_s=600).scheduled()]
    totals = [10**12] * 8
    for k in range(120):
        t = 5.0 * k
        for n in range(8):
            rate = 0.3e9 if n == degraded and t >= 300 else 1.0e9
            totals[n] += int(rate * 5)
            if n == reset_node and k == 60:
                totals[n] = int(rate * 5)  # the counters restart from zero
            events.append(net_sample(n, t, totals[n]))
    return run_detector(events)


def _checkpoint_run(with_lifecycle: bool) -> list[SlowNode]:
    """Three nodes keep writing the checkpoint (RDMA busy on other ports, slow rail) for a
    minute after the others: a phase effect, announced by the job's lifecycle events."""
    job = Job(nodes=8, duration_s=600)
    events: list[Event] = [job.scheduled()]
    totals = [10**12] * 8
    for k in range(120):
        t = 5.0 * k
        if with_lifecycle and k in (60, 72):
            events.append(JobEvent(
                event_id=f"ckpt-{k}", event_time=job.t(t - 0.5), cluster="test",
                job_id=job.job_id, attempt=0, step=300,
                kind="checkpoint_started" if k == 60 else "checkpoint_completed"))
        for n in range(8):
            totals[n] += int((0.01e9 if n < 3 and 300 <= t < 360 else 1.0e9) * 5)
            events.append(net_sample(n, t, totals[n]))
    return run_detector(events)


def test_node_metrics_are_not_judged_while_the_job_checkpoints() -> None:
    assert len(_checkpoint_run(with_lifecycle=False)) == 3  # the guard is what keeps it quiet
    assert _checkpoint_run(with_lifecycle=True) == []


def test_a_counter_reset_is_not_a_slow_node() -> None:
    assert _net_run(reset_node=2, degraded=None) == []


def test_a_degraded_nic_is_flagged_from_rdma_rates() -> None:
    out = _net_run(reset_node=None, degraded=6)
    assert [(o.node_id, o.metric) for o in out] == [(node_name(6), "rdma_rate")]
    assert out[0].slowdown == pytest.approx(0.3, abs=0.05)


def test_settings_validate_persistence() -> None:
    with pytest.raises(ValueError):
        SlowSettings(persistence=5, span=4)


def _with_gap(events: list[Event], gap_from_s: float, gap_s: float) -> list[Event]:
    """Stop all step reports in [gap_from_s, gap_from_s + gap_s) (evaluation, a hang)."""
    def inside(e: Event) -> bool:
        t = (e.event_time - START).total_seconds()
        return isinstance(e, StepProgress) and gap_from_s <= t < gap_from_s + gap_s
    return [e for e in events if not inside(e)]


def test_gpu_load_during_an_evaluation_gap_is_not_judged() -> None:
    # 90 s without steps while node 5's GPUs run hot (uneven evaluation load): not a straggler
    events = _with_gap(Job(nodes=8, duration_s=900).events(), 400, 90)
    for k in range(180):
        t = 5.0 * k
        for n in range(8):
            hot = n == 5 and 400 <= t < 490
            events.append(gpu_sample(n, t, temp=85.0 if hot else 60.0,
                                     throttle=0x20 if hot else 0))
    events.sort(key=lambda e: e.event_time)
    assert run_detector(events) == []
    # the same heat during training is caught
    steady = Job(nodes=8, duration_s=900).events()
    for k in range(180):
        t = 5.0 * k
        for n in range(8):
            hot = n == 5 and t >= 400
            steady.append(gpu_sample(n, t, temp=85.0 if hot else 60.0, throttle=0x20 if hot else 0))
    steady.sort(key=lambda e: e.event_time)
    assert [o.node_id for o in run_detector(steady)] == [node_name(5)]


def test_nothing_is_judged_while_a_hang_verdict_is_open() -> None:
    from schemas import HangSignals, HangVerdict

    job = Job(nodes=8, duration_s=900)
    events = job.events()
    hang = HangVerdict(event_id="h", event_time=job.t(400), cluster="test", verdict_id="h",
                       job_id=job.job_id, attempt=0, onset_time=job.t(380),
                       detected_at=job.t(400), signals=HangSignals(), confidence=0.9)
    for k in range(180):  # node 2 idles hot while the job is hung (samples keep coming)
        t = 5.0 * k
        for n in range(8):
            events.append(gpu_sample(n, t, temp=84.0 if n == 2 and t >= 380 else 60.0))
    events = [e for e in events if not (isinstance(e, StepProgress) and e.event_time >= job.t(380))]
    events = sorted([*events, hang], key=lambda e: e.event_time)
    assert run_detector(events) == []


def test_the_minute_before_a_hang_verdict_is_not_judged() -> None:
    """A job reporting every 30 s hangs at 600 s and its verdict comes 60 s later; node 2
    idles hot from the onset (temperature and power: two evidence families). The windows
    after the onset close within the steady gap of the last advance (2 x 30 s), but those
    closing with the next report overdue wait for an advance that never comes: they are
    never judged, and no slow node is raised in the hang's first minute."""
    from schemas import HangSignals, HangVerdict

    job = Job(nodes=8, duration_s=900, step_ms=1500.0, every=20)
    events = [e for e in job.events() if not (isinstance(e, StepProgress) and e.event_time > job.t(600))]
    for k in range(int(700 / 5)):
        t = 5.0 * k
        for n in range(8):
            idle = n == 2 and t > 600
            events.append(gpu_sample(n, t, temp=84.0 if idle else 60.0, power=250.0 if idle else 600.0))
    hang = HangVerdict(event_id="h", event_time=job.t(660), cluster="test", verdict_id="h",
                       job_id=job.job_id, attempt=0, onset_time=job.t(600),
                       detected_at=job.t(660), signals=HangSignals(), confidence=0.9)
    events = sorted([*events, hang], key=lambda e: e.event_time)
    assert run_detector(events) == []
    without_hang = [e for e in events if e is not hang and e.event_time <= job.t(699)]
    assert run_detector(without_hang) == []  # a stall with no verdict yet: nothing judged either


def test_the_first_steps_of_an_attempt_are_warm_up() -> None:
    # node 4 compiles slower: 2x over the first 40 steps of the attempt, then normal
    job = Job(nodes=8, duration_s=600, factor=lambda n, t: 2.0 if n == 4 and t < 40 else 1.0)
    assert run_detector(job.events()) == []
    detector = SlowNodeDetector()
    state = detector.initial()
    for event in job.events()[:1 + 64 * 5]:  # steps 10-50 of 8 x 8 ranks: the clock only
        state, _ = detector.step(state, event)
    assert state.warm_until == 60 and state.max_step == 50 and not state.steps.step


def test_a_quiet_storage_port_never_makes_a_slow_node() -> None:
    events: list[Event] = [Job(nodes=8, duration_s=600).scheduled()]
    totals = [[10**12] * 3 for _ in range(8)]
    for k in range(120):
        t = 5.0 * k
        for n in range(8):
            for p, rate in enumerate((1.0e9, 1.0e9, 2e7 * (1 + (k * (n + 1)) % 7))):
                totals[n][p] += int(rate * 5)
            events.append(net_sample_ports(n, t, totals[n]))
    assert run_detector(events) == []


def net_sample_ports(node: int, t_s: float, totals: list[int]) -> Event:
    from schemas import NetPort, NetSample

    ports = tuple(NetPort(device=f"mlx5_{i}", port=1, state="ACTIVE", tx_bytes_total=v,
                          rx_bytes_total=v, symbol_errors_total=0, link_downed_total=0,
                          rcv_errors_total=0) for i, v in enumerate(totals))
    return NetSample(event_id=f"net-{node}-{t_s}", event_time=START + timedelta(seconds=t_s),
                     cluster="test", node_id=node_name(node), ports=ports)


def test_one_stalled_sample_per_window_is_not_a_slow_node() -> None:
    # node 4's GPUs are caught mid-stall in one of the two samples of every window from 300 s:
    # a near-instant reading of one step, not a slower node
    events: list[Event] = [Job(nodes=8, duration_s=600).scheduled()]
    for k in range(60):
        t = 10.0 * k
        for n in range(8):
            stalled = n == 4 and t >= 300 and k % 2 == 0
            events.append(gpu_sample(n, t, power=950.0 if stalled else 600.0))
    assert run_detector(events) == []
    # the same node staying that busy is flagged (power is standalone evidence)
    steady: list[Event] = [Job(nodes=8, duration_s=600).scheduled()]
    for k in range(60):
        t = 10.0 * k
        for n in range(8):
            steady.append(gpu_sample(n, t, power=950.0 if n == 4 and t >= 300 else 600.0))
    assert [o.node_id for o in run_detector(steady)] == [node_name(4)]


def test_two_readings_of_one_source_do_not_corroborate_each_other() -> None:
    settings = SlowSettings()
    track = NodeTrack()
    for start in (0.0, 20.0):  # two suspect windows: persistence 3 alone, 2 when corroborated
        for metric in ("sm_active", "power_w", "busy_ms"):
            track.record(metric, start, True, settings.span)
    track.suspect_now = {"sm_active", "power_w"}  # one family: GPU busyness
    assert _ready_metric(track, settings) is None
    track.suspect_now = {"busy_ms", "power_w"}  # the rank's own busy time and its GPUs' power
    assert _ready_metric(track, settings) == "busy_ms"


def test_a_node_busy_while_the_job_waits_on_its_stall_in_one_instant_is_not_news() -> None:
    # from 300 s node 4 stalls for one step in one of the two samples of every window: in
    # that instant its GPUs alone stay busy while every other node idles in the collective
    # waiting for it; the node's own readings are normal at every instant
    events: list[Event] = [Job(nodes=8, duration_s=600).scheduled()]
    for k in range(60):
        t = 10.0 * k
        stall = t >= 300 and k % 2 == 0
        for n in range(8):
            events.append(gpu_sample(n, t, power=300.0 if stall and n != 4 else 600.0))
    assert run_detector(events) == []


def test_a_rail_degraded_across_a_restart_in_place_is_still_a_rail() -> None:
    # the job restarts on the same nodes at 300 s; from then on node 3's first rail carries
    # 30 % of its peers' bytes: too little of the new attempt's traffic to count as a rail
    # if the ports' roles were forgotten with the attempt
    job = Job(nodes=8, duration_s=900)
    events: list[Event] = [job.scheduled()]
    totals = [[10**12] * 3 for _ in range(8)]
    for k in range(180):
        t = 5.0 * k
        if k == 60:
            events += [JobEvent(event_id=f"{kind}-{k}", event_time=job.t(t - 0.5), cluster="test",
                                job_id=job.job_id, attempt=1, kind=kind)
                       for kind in ("failed", "restarting")]
        for n in range(8):
            bad = n == 3 and t >= 300
            for p, rate in enumerate((0.3e9 if bad else 1.0e9, 1.0e9, 2e7)):
                totals[n][p] += int(rate * 5)
            events.append(net_sample_ports(n, t, totals[n]))
    out = run_detector(events)
    assert [(o.node_id, o.metric) for o in out] == [(node_name(3), "rdma_rate")]
    assert latency_s(out[0], 300) <= 120


@pytest.mark.parametrize("slowdown", [1.25, 1.9])
def test_a_straggler_among_three_peers_does_not_hide_behind_them(slowdown: float) -> None:
    # nodes 0-2 one GPU model, 3-4 a slower one: node 0's peers are two nodes, and the
    # median of its peers' peers (two values, one of them node 0) was their mean
    base = [1.0, 1.0, 1.0, 1.4, 1.4]

    def factor(n: int, t: float) -> float:
        return base[n] * (slowdown if n == 0 and t >= 400 else 1.0)

    out = run_detector(Job(nodes=5, duration_s=800, factor=factor, jitter=0.015).events())
    assert [o.node_id for o in out] == [node_name(0)]
    assert 0 <= latency_s(out[0], 400) <= 120


@pytest.mark.parametrize("compute", [True, False])
def test_a_two_node_job_names_the_node_that_slowed_itself(compute: bool) -> None:
    out = run_detector(Job(nodes=2, duration_s=900, compute=compute, factor=slow_from(1, 400)).events())
    assert [(o.node_id, o.metric) for o in out] == [(node_name(1), "compute_ms" if compute else "busy_ms")]
    assert 0 <= latency_s(out[0], 400) <= 120
    assert out[0].slowdown == pytest.approx(1.25, abs=0.03)


@pytest.mark.parametrize("factor", [
    slow_from(0, 0, 1.35),  # slower from the start: its level
    lambda n, t: 1.3 if t >= 400 else 1.0,  # both slow down: a phase
    lambda n, t: 1.3 if n == 0 and t < 400 else 1.0,  # the peer of node 1 gets faster
])
def test_a_two_node_job_blames_no_one_without_a_change_of_its_own(factor: Factor) -> None:
    assert run_detector(Job(nodes=2, duration_s=900, factor=factor).events()) == []


def test_a_noisy_two_node_job_is_silent() -> None:
    job = Job(nodes=2, duration_s=1800, jitter=0.03, spike_prob=0.01)
    assert run_detector(job.events()) == []


def test_a_two_node_job_is_not_judged_on_step_time_alone() -> None:
    events = [e.model_copy(update={"comm_wait_ms": None}) if isinstance(e, StepProgress) else e
              for e in Job(nodes=2, duration_s=900, compute=False, factor=slow_from(1, 400)).events()]
    assert run_detector(events) == []
