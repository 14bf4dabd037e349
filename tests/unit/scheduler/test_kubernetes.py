"""Kubernetes Pods/Jobs -> job_events, and the list/watch loop that relists after 410 Gone.

No API server can run here: the objects are dicts in the API's JSON shape and the watch is a
recorded sequence of events (including a 410 both as an ERROR event and as an exception).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from kube_objects import RecordedSource, job, pod

from producers.scheduler.kubernetes import (
    FollowStats,
    Gone,
    KubeState,
    KubeTranslator,
    follow,
    pod_rank,
)
from producers.scheduler.lifecycle import LifecycleTracker
from schemas import JobEvent

NOW = datetime(2026, 11, 23, 10, 5, tzinfo=UTC)


def translator() -> KubeTranslator:
    return KubeTranslator(KubeState(), LifecycleTracker("k8s"))


def feed(tr: KubeTranslator, steps: list[tuple[str, str, dict[str, Any]]]) -> list[JobEvent]:
    return [e for kind, etype, obj in steps for e in tr.on_event(kind, etype, obj, NOW)]


def summary(events: list[JobEvent]) -> list[tuple[str, int]]:
    return [(e.kind, e.attempt) for e in events]


def test_indexed_job_lifecycle_with_a_replaced_pod() -> None:
    tr = translator()
    events = tr.on_list("Job", [job()], NOW)
    events += tr.on_list("Pod", [pod("llm-7-0-a", "p0", 0), pod("llm-7-1-a", "p1", 1)], NOW)
    events += feed(tr, [
        ("Pod", "MODIFIED", pod("llm-7-0-a", "p0", 0, node="gpu-a")),                   # one placed: pending
        ("Pod", "MODIFIED", pod("llm-7-1-a", "p1", 1, node="gpu-b", scheduled_s=7)),    # both: scheduled
        ("Pod", "MODIFIED", pod("llm-7-0-a", "p0", 0, node="gpu-a", phase="Running")),
        ("Pod", "MODIFIED", pod("llm-7-1-a", "p1", 1, node="gpu-b", phase="Running")),  # running
        ("Pod", "MODIFIED", pod("llm-7-1-a", "p1", 1, node="gpu-b", phase="Failed")),
        ("Pod", "ADDED", pod("llm-7-1-b", "p1b", 1)),                                    # replacement: attempt 1
        ("Pod", "DELETED", pod("llm-7-1-a", "p1", 1, node="gpu-b", phase="Failed")),
        ("Pod", "MODIFIED", pod("llm-7-1-b", "p1b", 1, node="gpu-c", phase="Running", scheduled_s=40)),
        ("Job", "MODIFIED", job(condition="Complete")),
    ])
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                               ("scheduled", 1), ("running", 1), ("finished", 1)]
    assert events[0].event_time == datetime(2026, 11, 23, 10, 0, 0, tzinfo=UTC)  # the Job's creation
    assert events[1].event_time == datetime(2026, 11, 23, 10, 0, 7, tzinfo=UTC)  # the last pod placed
    assert [(p.rank, p.node_id) for p in events[1].placement] == [(0, "gpu-a"), (1, "gpu-b")]
    assert [(p.rank, p.node_id) for p in events[4].placement] == [(0, "gpu-a"), (1, "gpu-c")]
    assert {e.job_id for e in events} == {"llm-7"}


def test_a_container_restart_in_place_is_a_new_attempt_and_failure_ends_it() -> None:
    tr = translator()
    running = [pod(f"w{i}", f"u{i}", None, node=f"n{i}", phase="Running", env_rank=i) for i in range(2)]
    events = tr.on_list("Job", [job()], NOW) + tr.on_list("Pod", running, NOW)
    events += feed(tr, [("Pod", "MODIFIED", pod("w1", "u1", None, node="n1", phase="Running", restarts=1,
                                                env_rank=1)),
                        ("Job", "MODIFIED", job(condition="Failed"))])
    # a restart in place: no scheduled for attempt 1 (ETT.md), running when it was seen
    assert summary(events) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                               ("running", 1), ("failed", 1)]
    assert events[4].event_time == NOW and events[-1].detail == "BackoffLimitExceeded"


def test_deleting_the_job_cancels_it_and_explicit_attempts_win() -> None:
    tr = translator()
    events = tr.on_list("Job", [job(attempt=3)], NOW)
    events += feed(tr, [("Job", "DELETED", job(attempt=3))])
    assert summary(events) == [("submitted", 3), ("cancelled", 3)]


def test_rank_sources() -> None:
    assert pod_rank(pod("a", "1", 4)) == 4
    explicit = pod("b", "2", 4)
    explicit["metadata"]["annotations"]["faultline.io/rank"] = "9"
    assert pod_rank(explicit) == 9
    assert pod_rank(pod("c", "3", None, node="n", env_rank=5)) == 5
    assert pod_rank(pod("d", "4", None)) is None


def test_follow_relists_after_410_and_rewatches_after_a_timeout() -> None:
    p0, p1 = pod("w-0", "u0", 0, node="n0", phase="Running", rv=11), pod("w-1", "u1", 1, node="n1", rv=12)
    gone_event = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 410, "reason": "Expired",
                  "message": "too old resource version: 10 (15)"}
    source = RecordedSource(
        lists=[([p0], "10"), ([p0, p1], "20"), ([p1], "30")],
        watches=[[("ADDED", p1), ("ERROR", gone_event)],                        # 410 as an event
                 [("BOOKMARK", {"metadata": {"resourceVersion": "25"}})],      # ends: re-watch from 25
                 [("MODIFIED", {**p0, "metadata": {**p0["metadata"], "resourceVersion": "26"}}), Gone("410")],
                 []])                                                           # after relist 3: ends
    lists: list[list[str]] = []
    events: list[tuple[str, str]] = []
    pauses: list[float] = []
    stats = follow(source, lambda items: lists.append([i["metadata"]["name"] for i in items]),
                   lambda t, o: events.append((t, o["metadata"]["name"])), lambda: source.done, FollowStats(),
                   pause=pauses.append)
    assert lists == [["w-0"], ["w-0", "w-1"], ["w-1"]]
    assert events == [("ADDED", "w-1"), ("MODIFIED", "w-0")]
    assert source.watched_from == ["10", "20", "25", "30", "30"]
    assert (stats.lists, stats.gone, stats.events) == (3, 2, 2)
    assert pauses == [1.0, 1.0, 1.0]  # after the bookmark-only watch and the two empty ones: no busy loop


def test_a_relist_after_410_catches_deletions_missed_while_disconnected() -> None:
    tr = translator()
    placed = [pod(f"w{i}", f"u{i}", i, node=f"n{i}", phase="Running") for i in range(2)]
    before = tr.on_list("Job", [job()], NOW) + tr.on_list("Pod", placed, NOW)
    assert summary(before) == [("submitted", 0), ("scheduled", 0), ("running", 0)]
    after = tr.on_list("Job", [], NOW)  # the Job was deleted while the watch was down
    assert summary(after) == [("cancelled", 0)]
