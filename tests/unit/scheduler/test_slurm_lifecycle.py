"""Slurm records -> job views -> job_events: each transition once, EVENTS.md attempt numbering."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from slurm_records import T0, record, record_v23

from producers.hooks.sinks import ListSink
from producers.scheduler.lifecycle import LifecycleTracker
from producers.scheduler.slurm import JobFilter, SlurmError, placement_of, view_of
from producers.scheduler.watch import SlurmWatcher
from schemas import JobEvent, decode, encode

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def ts(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def run(polls: list[list[dict[str, Any]]], **watcher: Any) -> tuple[list[JobEvent], SlurmWatcher]:
    """Feed one recorded squeue listing per poll; returns every event sent, in order."""
    feed = iter(polls)
    clock = iter(NOW + timedelta(seconds=5 * i) for i in range(1000))
    sink = ListSink()
    w = SlurmWatcher(LifecycleTracker("eos", emit_running=watcher.pop("emit_running", True)), sink,
                     lambda: next(feed), clock=lambda: next(clock), **watcher)
    for _ in polls:
        w.poll_once()
    return sink.events, w  # type: ignore[return-value]  # only JobEvents are sent


def summary(events: list[JobEvent]) -> list[tuple[str, int]]:
    return [(e.kind, e.attempt) for e in events]


def test_placement_is_block_wise_over_the_expanded_nodes() -> None:
    assert [(p.rank, p.node_id) for p in placement_of("node[001-002]", 5)] == [
        (0, "node001"), (1, "node001"), (2, "node001"), (3, "node002"), (4, "node002")]
    assert [(p.rank, p.node_id) for p in placement_of("gpu[1-2]", 2, ranks_per_node=8)][7:9] == [
        (7, "gpu1"), (8, "gpu2")]
    assert len(placement_of("n[1-4]", 0)) == 4 and placement_of("", 4) == ()


def test_a_job_that_runs_and_completes() -> None:
    running = record(7, "RUNNING", nodes="node[001-002]", tasks=2, start=T0 + 10)
    events, _ = run([[record(7, "PENDING", start=T0 + 999)], [running], [running],
                     [record(7, "COMPLETING", nodes="node[001-002]", tasks=2, start=T0 + 10)],
                     [record(7, "COMPLETED", nodes="node[001-002]", tasks=2, start=T0 + 10, end=T0 + 70)]])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("finished", 0)]
    submitted, scheduled, running_ev, finished = events
    assert submitted.event_time == ts(T0) and scheduled.event_time == ts(T0 + 10)
    assert running_ev.event_time == ts(T0 + 10) and finished.event_time == ts(T0 + 70)
    assert [(p.rank, p.node_id) for p in scheduled.placement] == [(0, "node001"), (1, "node002")]
    assert {e.job_id for e in events} == {"7"} and {e.cluster for e in events} == {"eos"}
    assert all(decode(encode(e)).to_wire() == e.to_wire() for e in events)


@pytest.mark.parametrize(("state", "kind"), [
    ("FAILED", "failed"), ("NODE_FAIL", "failed"), ("TIMEOUT", "failed"), ("OUT_OF_MEMORY", "failed"),
    ("CANCELLED", "cancelled"), ("COMPLETED", "finished")])
def test_terminal_states_seen_without_the_run_fill_in_scheduled_and_running(state: str, kind: str) -> None:
    events, _ = run([[record(8, state, nodes="node003", start=T0 + 5, end=T0 + 9, exit_code=9 if kind == "failed" else 0,
                             reason="NonZeroExitCode" if kind == "failed" else "None")]])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), (kind, 0)]
    if kind == "failed":
        assert events[-1].detail is not None and state in events[-1].detail and "exit_code=9" in events[-1].detail


def test_cancelled_while_pending_never_ran() -> None:
    events, _ = run([[record(9, "PENDING")], [record(9, "CANCELLED", start=T0 + 3, end=T0 + 3)]])
    assert summary(events) == [("submitted", 0), ("cancelled", 0)]


def test_a_requeue_is_a_restarting_with_the_new_attempt_then_a_new_placement() -> None:
    first = record(11, "RUNNING", nodes="node[001-002]", tasks=2, start=T0 + 10)
    polls = [[first],
             [record(11, "COMPLETING", nodes="node001", tasks=2, restart_cnt=1, start=T0 + 10)],  # teardown
             [record(11, "PENDING", restart_cnt=1, reason="BeginTime", start=T0 + 500)],
             [record(11, "PENDING", restart_cnt=1, reason="BeginTime", start=T0 + 500)],
             [record(11, "RUNNING", nodes="node[003-004]", tasks=2, restart_cnt=1, start=T0 + 130)],
             [record(11, "CANCELLED", nodes="node[003-004]", tasks=2, restart_cnt=1, start=T0 + 130, end=T0 + 200)]]
    events, _ = run(polls)
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                               ("scheduled", 1), ("running", 1), ("cancelled", 1)]
    assert events[3].event_time == NOW + timedelta(seconds=5)  # the poll that saw the requeue
    assert [p.node_id for p in events[4].placement] == ["node003", "node004"]


def test_requeued_state_without_a_grown_restart_count_still_opens_one_attempt() -> None:
    running = record(12, "RUNNING", nodes="node001", start=T0 + 1)
    events, _ = run([[running], [record(12, "REQUEUED")], [record(12, "REQUEUED")],
                     [record(12, "PENDING", restart_cnt=1)], [record(12, "RUNNING", nodes="node002", restart_cnt=1,
                                                                     start=T0 + 50)]])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                               ("scheduled", 1), ("running", 1)]


def test_configuring_is_scheduled_and_running_follows_at_observation_time() -> None:
    events, _ = run([[record(13, "CONFIGURING", nodes="node001", start=T0 + 4)],
                     [record(13, "RUNNING", nodes="node001", start=T0 + 4)]])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0)]
    assert events[1].event_time == ts(T0 + 4) and events[2].event_time == NOW + timedelta(seconds=5)


def test_running_can_be_left_to_the_training_hook() -> None:
    events, _ = run([[record(14, "RUNNING", nodes="node001", start=T0 + 4)]], emit_running=False)
    assert summary(events) == [("submitted", 0), ("scheduled", 0)]


def test_the_23_dialect_reads_the_same() -> None:
    events, _ = run([[record_v23(15, ["PENDING"])],
                     [record_v23(15, ["RUNNING"], nodes="node[001-002]", tasks=4, start=T0 + 2)],
                     [record_v23(15, ["PENDING", "REQUEUED"], restart_cnt=1)],
                     [record_v23(15, ["COMPLETED"], nodes="node001", tasks=4, restart_cnt=1, start=T0 + 9,
                                 end=T0 + 20)]])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                               ("scheduled", 1), ("running", 1), ("finished", 1)]
    assert len(events[1].placement) == 4


def test_filters_bad_records_failed_polls_and_vanished_jobs() -> None:
    def failing() -> list[dict[str, Any]]:
        raise SlurmError("slurmctld down")

    good = record(20, "RUNNING", nodes="node001", start=T0, name="train")
    other = record(21, "RUNNING", nodes="node001", start=T0, name="notebook")
    bad = {**record(22, "RUNNING", nodes="node[1-"), "name": "train"}
    weird = {**record(23, "ZOMBIE"), "name": "train"}
    events, w = run([[good, other, bad, weird], [], [], []], job_filter=JobFilter(names=frozenset({"train"})))
    assert {e.job_id for e in events} == {"20"}
    assert w.stats.bad_records == 2 and w.tracker.vanished == 1 and "20" not in w.tracker.jobs
    broken = SlurmWatcher(LifecycleTracker("eos"), ListSink(), failing)
    assert broken.poll_once() == [] and broken.stats.poll_errors == 1


def test_event_ids_are_stable_across_watcher_restarts() -> None:
    polls = [[record(30, "RUNNING", nodes="node001", start=T0)]]
    a, _ = run(polls)
    b, _ = run(polls)
    assert [e.event_id for e in a] == [e.event_id for e in b] and len({e.event_id for e in a}) == 3


def test_a_restart_seen_late_never_puts_the_new_attempt_before_it() -> None:
    early = T0 - 7200  # a start time the watcher reports only after NOW
    events, _ = run([[record(41, "RUNNING", nodes="node001", start=early - 60)],
                     [record(41, "RUNNING", nodes="node002", restart_cnt=1, start=early)]])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                               ("scheduled", 1), ("running", 1)]
    assert events[3].event_time == NOW + timedelta(seconds=5)
    assert ts(early) < NOW and events[4].event_time == events[5].event_time == events[3].event_time


def test_nothing_follows_the_end_of_an_attempt() -> None:
    done = record(40, "COMPLETED", start=T0, end=T0 + 5)  # ended without nodes: finished only
    events, _ = run([[done], [record(40, "RUNNING", nodes="node001", start=T0)], [done]])
    assert summary(events) == [("submitted", 0), ("finished", 0)]


def test_view_rejects_unknown_states() -> None:
    with pytest.raises(ValueError, match="job_state"):
        view_of(record(1, "SOMETHING"))
