"""The input aligner: event-time order across a partition group, bounded waits, bounded memory."""

from __future__ import annotations

import random

from streams.align import InputAligner


def _drain(aligner: InputAligner[str], now_s: float) -> list[str]:
    out: list[str] = []
    while (item := aligner.pop(now_s)) is not None:
        out.append(item)
    return out


def test_a_group_waits_for_a_dry_partition_then_releases_in_event_time_order() -> None:
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0)
    aligner.assign({("stack", 0), ("feed", 0)}, now_s=0.0)
    for t in (10, 20, 30):
        aligner.add(("stack", 0), t, f"stack@{t}", now_s=0.1)
    assert aligner.pop(0.2) is None  # feed may still deliver earlier records
    aligner.add(("feed", 0), 15, "feed@15", now_s=0.3)
    aligner.add(("feed", 0), 25, "feed@25", now_s=0.3)
    assert _drain(aligner, 0.4) == ["stack@10", "feed@15", "stack@20", "feed@25"]  # then feed ran dry
    assert aligner.next_due_s(0.4) == 1.4
    assert aligner.pop(1.3) is None
    assert _drain(aligner, 1.4) == ["stack@30"]
    assert aligner.held == 0


def test_a_dry_partition_holds_back_only_records_later_than_it_reached() -> None:
    """Live, partitions run dry at about the present: a record no later than what every dry
    partition last delivered goes at once, across topics and partition numbers alike."""
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0)
    aligner.assign({("a", 0), ("b", 0), ("c", 1)}, now_s=0.0)
    aligner.add(("a", 0), 10, "a@10", now_s=0.0)
    aligner.add(("c", 1), 5, "c@5", now_s=0.0)
    aligner.add(("b", 0), 20, "b@20", now_s=0.0)
    aligner.add(("b", 0), 30, "b@30", now_s=0.0)
    assert _drain(aligner, 0.0) == ["c@5"]  # c ran dry at 5: 10 waits for it
    assert _drain(aligner, 1.0) == ["a@10"]  # c waited for; then a ran dry at 10
    aligner.add(("a", 0), 25, "a@25", now_s=1.5)
    aligner.add(("c", 1), 22, "c@22", now_s=1.5)
    aligner.add(("c", 1), 27, "c@27", now_s=1.5)
    assert _drain(aligner, 1.5) == ["b@20", "c@22", "a@25"]  # each no later than the others' heads
    assert aligner.next_due_s(1.5) == 2.5  # 27 waits for a (dry at 25 since 1.5)
    assert _drain(aligner, 2.5) == ["c@27"]
    assert _drain(aligner, 3.5) == ["b@30"]
    lone: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=5.0)
    lone.assign({("guards", 0)}, now_s=0.0)
    lone.add(("guards", 0), 1, "g", now_s=0.0)
    assert lone.pop(0.0) == "g"  # a partition never waits for itself


def test_a_full_aligner_releases_whatever_is_missing() -> None:
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=60.0, max_held=3)
    aligner.assign({("a", 0), ("b", 0)}, now_s=0.0)
    for t in range(5):
        aligner.add(("a", 0), t, f"a{t}", now_s=0.0)
    assert _drain(aligner, 0.0) == ["a0", "a1", "a2"]  # below max_held, then it waits for b again
    assert aligner.held == 2


def test_clear_and_reassignment_forget_buffered_records() -> None:
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0)
    aligner.assign({("a", 0), ("b", 0), ("a", 1)}, now_s=0.0)
    aligner.add(("a", 1), 1, "x", now_s=0.0)
    aligner.assign({("a", 0), ("b", 0)}, now_s=0.0)  # partition 1 went to another worker
    assert aligner.held == 0 and aligner.next_due_s(0.0) is None
    aligner.add(("a", 0), 1, "y", now_s=0.0)
    aligner.clear()
    assert aligner.held == 0 and _drain(aligner, 10.0) == []


def test_any_arrival_interleaving_gives_the_merged_event_time_order() -> None:
    """Three topics of one partition, each in event-time order, arrive in random chunks (a
    backlog's fetches) at one wall instant: the records come out merged by event time,
    whatever the interleaving, because a group never passes a partition that ran dry."""
    rng = random.Random(7)
    topics = {name: sorted(rng.sample(range(10_000), 200)) for name in ("log", "stack", "feed")}
    merged = sorted(t for times in topics.values() for t in times)
    for _ in range(20):
        aligner: InputAligner[int] = InputAligner(slack_s=0.0, idle_s=1.0)
        aligner.assign({(name, 0) for name in topics}, now_s=0.0)
        cursors = dict.fromkeys(topics, 0)
        out: list[int] = []
        while unread := [n for n in topics if cursors[n] < len(topics[n])]:
            name = rng.choice(unread)
            chunk = topics[name][cursors[name]:cursors[name] + rng.randint(1, 80)]
            for t in chunk:
                aligner.add((name, 0), t, t, now_s=0.0)
            cursors[name] += len(chunk)
            out += _drain(aligner, 0.0)
        now_s = 0.0
        while aligner.held:  # the end: each partition that runs dry is waited for, then passed
            now_s += 1.0
            out += _drain(aligner, now_s)
        assert out == merged


def test_the_wait_for_an_assigned_partition_starts_with_the_first_record() -> None:
    """A worker recovers its tables between the assignment and its first fetch: a partition
    that has not delivered yet is waited for from the agent's first record on, longer for an
    upstream stage's topic when the agent starts on a backlog."""
    for catching_up, waits_s in ((True, 3.0), (False, 1.0)):
        aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=2.0, first_idle_s={"placements": 3.0})
        aligner.assign({("samples", 0), ("placements", 0)}, now_s=0.0)
        aligner.start(30.0, catching_up=catching_up)
        aligner.add(("samples", 0), 100, "sample", now_s=30.0)
        assert aligner.pop(30.0 + waits_s - 0.01) is None
        assert aligner.pop(30.0 + waits_s) == "sample"


def test_live_reading_never_waits_for_a_partition_within_the_slack() -> None:
    """A sporadic partition (a log that fell silent) read live: by the time the stream is
    ``slack_s`` of event time past it, ``idle_s`` of wall time has passed and it is idle."""
    aligner: InputAligner[str] = InputAligner(idle_s=3.0, slack_s=30.0)
    aligner.assign({("log", 0), ("stack", 0)}, now_s=0.0)
    aligner.add(("log", 0), 0, "log@0", now_s=0.0)
    aligner.add(("stack", 0), 0, "stack@0", now_s=0.0)
    assert _drain(aligner, 0.0) == ["log@0", "stack@0"]
    for second in range(1, 120):  # real time: one stack sample per second, the log silent
        aligner.add(("stack", 0), second * 1_000_000, f"stack@{second}", now_s=float(second))
        assert _drain(aligner, float(second)) == [f"stack@{second}"]
    backlog: InputAligner[str] = InputAligner(idle_s=3.0, slack_s=30.0)
    backlog.assign({("feed", 0), ("stack", 0)}, now_s=0.0)
    backlog.add(("feed", 0), 0, "feed@0", now_s=0.0)
    for second in range(0, 120):  # a backlog: two minutes of stacks read at once, the feed behind
        backlog.add(("stack", 0), second * 1_000_000, f"stack@{second}", now_s=0.0)
    out = _drain(backlog, 0.0)
    assert out[0] == "feed@0" and out[-1] == "stack@30"  # then it waits for the feed
