"""The training hooks: events they build, and their promise never to block or crash training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hook_kit import BlockingSink, FlakySink, make_hooks, sent

from producers import hooks as module
from producers.hooks import HookSettings, settings_from_env
from schemas import DeadLetter, JobEvent, StepProgress, decode, encode


def test_step_carries_the_identity_and_timings_and_survives_the_wire() -> None:
    hooks = make_hooks(rank=5)
    hooks.step(41, 812.5, compute_ms=700.0, comm_wait_ms=112.5)
    [event] = sent(hooks)
    assert isinstance(event, StepProgress)
    assert (event.job_id, event.node_id, event.rank, event.cluster) == ("job-7", "node003", 5, "c1")
    assert (event.step, event.step_time_ms, event.compute_ms, event.comm_wait_ms) == (41, 812.5, 700.0, 112.5)
    assert decode(encode(event)).to_wire() == event.to_wire()
    assert hooks.counters()["sent"] == 1


def test_bad_values_are_counted_not_raised() -> None:
    hooks = make_hooks()
    hooks.step(-1, 10.0)
    hooks.step(3, float("-inf"))
    hooks.job_event("exploded")  # an unknown kind, as a buggy caller could pass
    assert sent(hooks) == []
    counts = hooks.counters()
    assert counts["error.step"] == 2 and counts["error.exploded"] == 1


def test_a_full_queue_drops_and_counts_without_blocking() -> None:
    sink = BlockingSink()
    hooks = make_hooks(queue_size=2, sink=sink)
    hooks.step(0, 1.0)
    assert sink.entered.wait(10)  # the sender holds event 0 inside the sink: the queue is empty
    for step in range(1, 10):
        hooks.step(step, 1.0)
    counts = hooks.counters()
    assert counts["dropped_full"] == 7 and counts["submitted"] == 3
    sink.release.set()
    hooks.close()
    assert [e.step for e in sink.events] == [0, 1, 2]


def test_sink_failures_are_counted_and_sending_goes_on() -> None:
    sink = FlakySink(failures=2, fail_close=True)
    hooks = make_hooks(sink=sink)
    for step in range(5):
        hooks.step(step, 1.0)
    hooks.close()
    counts = hooks.counters()
    assert counts["send_errors"] == 2 and counts["sent"] == 3 and counts["close_errors"] == 1
    assert [e.step for e in sink.events] == [2, 3, 4]
    hooks.step(9, 1.0)  # after close: refused and counted, not raised
    assert hooks.counters()["error.submit_after_close"] == 1


def test_checkpoint_wraps_the_save_on_rank_zero_only() -> None:
    zero, one = make_hooks(rank=0), make_hooks(rank=1)
    for hooks in (zero, one):
        with hooks.checkpoint(step=1000):
            pass
    events = sent(zero)
    assert [(e.kind, e.step, e.attempt) for e in events if isinstance(e, JobEvent)] == [
        ("checkpoint_started", 1000, 2), ("checkpoint_completed", 1000, 2)]
    assert sent(one) == []


def test_checkpoint_every_rank_when_configured() -> None:
    hooks = make_hooks(rank=3, checkpoint_all_ranks=True)
    with hooks.checkpoint(step=5):
        pass
    assert len(sent(hooks)) == 2


def test_a_failing_save_propagates_and_completes_nothing() -> None:
    hooks = make_hooks()
    with pytest.raises(OSError, match="disk full"), hooks.checkpoint(step=7):
        raise OSError("disk full")
    assert [e.kind for e in sent(hooks)] == ["checkpoint_started"]


def test_step_timer_measures_and_reports_only_completed_steps() -> None:
    hooks = make_hooks()
    with hooks.timer(3) as t:
        sum(range(20000))
        t.comm_wait_ms = 0.5
    with pytest.raises(ZeroDivisionError), hooks.timer(4):
        _ = 1 / 0
    [event] = sent(hooks)
    assert isinstance(event, StepProgress)
    assert event.step == 3 and event.step_time_ms > 0 and event.comm_wait_ms == 0.5


def test_running_reports_the_resumed_step() -> None:
    hooks = make_hooks()
    hooks.running(resumed_from_step=1200)
    [event] = sent(hooks)
    assert isinstance(event, JobEvent) and (event.kind, event.step, event.attempt) == ("running", 1200, 2)


def test_module_api_before_and_after_init(tmp_path: Path) -> None:
    module.shutdown()
    before = module.counters()["uninitialised_calls"]
    module.step(1, 2.0)
    with module.timer(2), module.checkpoint(3):
        pass
    assert module.counters()["uninitialised_calls"] == before + 3
    out = tmp_path / "events.jsonl"
    module.init(HookSettings(job_id="j1", node_id="n1", rank=0), output=str(out))
    module.running(0)
    module.step(1, 2.0)
    with module.timer(2):
        pass
    module.shutdown()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["schema"] for line in lines] == ["job_event/v1", "step_progress/v1", "step_progress/v1"]
    assert not any(isinstance(decode(json.dumps(line)), DeadLetter) for line in lines)
    assert module.current() is None


def test_settings_from_a_slurm_and_torchrun_environment() -> None:
    env = {"SLURM_JOB_ID": "4242", "SLURMD_NODENAME": "gpu017", "RANK": "13", "SLURM_PROCID": "1",
           "SLURM_RESTART_COUNT": "2", "TORCHELASTIC_RESTART_COUNT": "0", "SLURM_CLUSTER_NAME": "eos"}
    s = settings_from_env(env)
    assert (s.job_id, s.node_id, s.rank, s.attempt, s.cluster) == ("4242", "gpu017", 13, 2, "eos")
    assert settings_from_env(env, job_id="mine", rank=0).job_id == "mine"
    assert settings_from_env({"FAULTLINE_JOB_ID": "x"}).node_id  # falls back to the host name
    with pytest.raises(ValueError, match="job_id"):
        settings_from_env({})
