"""Each probe: hang symptom (True), activity (False) and no data (None)."""

from __future__ import annotations

from hang_kit import Episode, Job, at, lifecycle, stream

from schemas import Event, LogLine
from streams.hang import HangDetector, HangSettings
from streams.hang.gpu import waiting_in_collective
from streams.hang.probes import collective_stalled, log_silent, metrics_idle, stacks_frozen
from streams.hang.state import JobState, to_us

JOB = Job()
HANG = (Episode("hang", 300, sources=(5,)),)


def feed(events: list[Event], settings: HangSettings | None = None) -> JobState:
    detector = HangDetector(settings)
    state = detector.initial()
    for event in events:
        state, _ = detector.step(state, event)
    return state


def only(events: list[Event], *kinds: str) -> list[Event]:
    """The events of these kinds, plus all job events (for the placement)."""
    return [e for e in events if e.KIND in kinds or e.KIND == "job_event"]


def test_log_silent_true_after_silence_false_while_logging_none_without_logs() -> None:
    s = HangSettings()
    hung = feed(stream(JOB, 400, HANG))
    assert log_silent(hung, to_us(at(370)), s).value is True
    assert log_silent(hung, to_us(at(340)), s).value is False  # 40 s < 45 s
    healthy = feed(stream(JOB, 400))
    assert log_silent(healthy, to_us(at(400)), s).value is False
    assert log_silent(feed(only(stream(JOB, 400), "gpu_sample")), to_us(at(400)), s).value is None


def test_log_silence_adapts_to_a_job_that_logs_rarely() -> None:
    s = HangSettings(log_silence_s=10, log_gap_factor=3)
    lines: list[Event] = [lifecycle(JOB, "scheduled", 0), lifecycle(JOB, "running", 1)]
    lines += [LogLine(event_id=f"l{i}", event_time=at(10 + 20 * i), cluster="t", job_id=JOB.job_id,
                      source="training", line="x") for i in range(5)]
    state = feed(lines, s)
    assert log_silent(state, to_us(at(90 + 30)), s).value is False  # 30 s < 3 x 20 s
    assert log_silent(state, to_us(at(90 + 61)), s).value is True


def test_metrics_idle_true_in_hang_false_when_computing_none_without_gpu_or_rdma() -> None:
    s = HangSettings()
    hung = feed(stream(JOB, 400, HANG))
    probe = metrics_idle(hung, to_us(at(360)), s)
    assert probe.value is True and probe.onset_us is not None
    assert abs(probe.onset_us - to_us(at(300))) <= 5_000_000
    assert metrics_idle(feed(stream(JOB, 400)), to_us(at(400)), s).value is False
    # nodes without RDMA counters rely on the GPUs alone (changed: was no data)
    no_net = feed(only(stream(JOB, 400, HANG), "gpu_sample"))
    assert metrics_idle(no_net, to_us(at(360)), s).value is True
    # nodes with RDMA counters only vote from their compute rails (issue 14; was no data)
    no_gpu = feed(only(stream(JOB, 400, HANG), "net_sample"))
    assert metrics_idle(no_gpu, to_us(at(360)), s).value is True
    assert metrics_idle(feed(only(stream(JOB, 400), "net_sample")), to_us(at(400)), s).value is False
    assert metrics_idle(feed(only(stream(JOB, 400, HANG), "log_line")), to_us(at(360)), s).value is None


def test_metrics_idle_false_in_evaluation_where_sms_compute() -> None:
    s = HangSettings()
    state = feed(stream(JOB, 400, (Episode("eval", 200, 500),)))
    assert metrics_idle(state, to_us(at(400)), s).value is False


def test_stacks_frozen_true_when_all_ranks_stuck_mostly_in_communication() -> None:
    s = HangSettings()
    hung = feed(stream(JOB, 400, HANG))
    assert stacks_frozen(hung, to_us(at(340)), s).value is True
    short = feed(stream(JOB, 312, HANG))
    assert stacks_frozen(short, to_us(at(312)), s).value is False  # only 3 samples frozen
    assert stacks_frozen(feed(stream(JOB, 400)), to_us(at(400)), s).value is False
    assert stacks_frozen(feed(only(stream(JOB, 400), "gpu_sample")), to_us(at(400)), s).value is None


def test_stacks_frozen_by_similarity_not_frame_names_except_checkpoint_io() -> None:
    # changed: waiters are found by similarity, so any frozen majority votes (the vote, not
    # the probe, tells an evaluation from a hang: its GPUs compute, its collectives complete)
    s = HangSettings()
    for kind in ("eval", "dataload"):
        state = feed(stream(JOB, 400, (Episode(kind, 200, 500),)))
        assert stacks_frozen(state, to_us(at(400)), s).value is True, kind
    saving = feed(stream(JOB, 400, (Episode("checkpoint", 200, 500, lifecycle=False),)))
    assert stacks_frozen(saving, to_us(at(400)), s).value is False  # I/O frames: a save
    assert stacks_frozen(saving, to_us(at(400)), s, relaxed=True).value is True


def test_collective_stalled_after_30_s_in_flight() -> None:
    s = HangSettings()
    hung = feed(stream(JOB, 400, HANG))
    probe = collective_stalled(hung, to_us(at(335)), s)
    assert probe.value is True and probe.onset_us == to_us(at(300))
    early = feed(stream(JOB, 326, HANG))
    assert collective_stalled(early, to_us(at(326)), s).value is False
    assert collective_stalled(feed(stream(JOB, 400)), to_us(at(400)), s).value is False
    assert collective_stalled(feed(only(stream(JOB, 400), "gpu_sample")), to_us(at(400)), s).value is None


def test_stale_data_is_no_data() -> None:
    s = HangSettings()
    state = feed(stream(JOB, 400))
    late = to_us(at(400 + 120))
    assert collective_stalled(state, late, s).value is None
    assert stacks_frozen(state, late, s).value is None
    assert metrics_idle(state, late, s).value is None


def test_jobs_with_long_steps_get_proportionally_longer_limits() -> None:
    s = HangSettings(step_factor=2.0)
    state = feed(stream(JOB, 345, HANG))
    assert collective_stalled(state, to_us(at(345)), s).value is True
    state.run.step_ms.extend([40_000.0] * 40)  # 40 s steps: 80 s before a stall counts
    assert collective_stalled(state, to_us(at(345)), s).value is False
    assert stacks_frozen(state, to_us(at(345)), s).value is False
    assert metrics_idle(state, to_us(at(345)), s).value is False


def test_a_rank_waits_in_a_collective_when_its_own_gpu_spun_for_the_idle_window() -> None:
    # the waiters (rank 0 among them) spin; the source (rank 5) idles; 20 s of spinning is not yet enough
    s = HangSettings()
    for until_s, waiting in ((340, True), (320, False)):
        state = feed(only(stream(JOB, until_s, HANG), "gpu_sample"))
        assert waiting_in_collective(state, 0, s) is waiting, until_s
        assert waiting_in_collective(state, 5, s) is False
    healthy = feed(only(stream(JOB, 400), "gpu_sample"))
    assert waiting_in_collective(healthy, 0, s) is False
    assert waiting_in_collective(healthy, 99, s) is False  # no samples
