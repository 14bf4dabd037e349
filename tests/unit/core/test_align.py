"""The input aligner: event-time order across a partition group, bounded waits, bounded memory."""

from __future__ import annotations

import random

from streams.align import ALWAYS, FetchGate, InputAligner


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
    that has not delivered yet is waited for from the agent's first record on."""
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=2.0, first_read_s=3.0)
    aligner.assign({("samples", 0), ("placements", 0)}, now_s=0.0)
    aligner.start(30.0)
    aligner.add(("samples", 0), 100, "sample", now_s=30.0)
    assert aligner.pop(32.99) is None
    assert aligner.pop(33.0) == "sample"


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


class _Broker:
    """A supply: the high watermark of each partition (what a consumer's fetches reported)."""

    def __init__(self) -> None:
        self.highwater: dict[tuple[str, int], int] = {}

    def pending(self, where: tuple[str, int], next_offset: int | None) -> bool:
        return self.highwater.get(where, 0) > (next_offset or 0)


def test_a_partition_known_to_hold_more_records_is_waited_for_past_idle() -> None:
    """KIP-695's rule: a dry partition whose high watermark is past what was read has records
    on the way (a fetch round behind), so the head waits for them, not for ``idle_s``; one
    that is at its high watermark is waited for ``idle_s`` only; a supply that never comes is
    given up after ``stall_s``."""
    broker = _Broker()
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0, stall_s=20.0, supply=broker)
    aligner.assign({("gpu", 0), ("log", 0)}, now_s=0.0)
    aligner.add(("gpu", 0), 10, "gpu@10", now_s=0.0, offset=0)
    aligner.add(("log", 0), 10, "log@10", now_s=0.0, offset=0)
    assert _drain(aligner, 0.0) == ["gpu@10", "log@10"]
    aligner.add(("log", 0), 50, "log@50", now_s=0.0, offset=1)
    broker.highwater[("gpu", 0)] = 5  # four more samples exist
    assert aligner.pop(1.0) is None and aligner.pop(19.9) is None
    aligner.add(("gpu", 0), 40, "gpu@40", now_s=19.9, offset=1)
    assert _drain(aligner, 19.9) == ["gpu@40"]  # then dry again, still known to hold more
    assert aligner.pop(39.8) is None
    assert aligner.pop(39.9) == "log@50"  # stall_s after the wait began: no longer believed
    broker.highwater[("gpu", 0)] = 2  # caught up: only idle_s
    aligner.add(("log", 0), 60, "log@60", now_s=40.0, offset=2)
    aligner.add(("gpu", 0), 45, "gpu@45", now_s=40.0, offset=1)
    assert _drain(aligner, 40.0) == ["gpu@45"]
    assert aligner.next_due_s(40.0) == 41.0


def test_a_hop_written_by_a_stage_behind_holds_its_reader_until_the_stage_passes() -> None:
    """The route stage of this process re-keys samples onto the feed its reader reads with the
    job's own topics: while route still holds input earlier than the reader's next record (less
    the slack), the empty feed may still get earlier records, however long that takes."""
    route: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0)
    route.assign({("gpu", 0)}, now_s=0.0)
    jobs: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0, stall_s=100.0, upstream={"feed": [route]})
    jobs.assign({("feed", 0), ("log", 0)}, now_s=0.0)
    for t in (10, 20, 30):
        route.add(("gpu", 0), t, f"gpu@{t}", now_s=0.0)
        jobs.add(("log", 0), t + 5, f"log@{t + 5}", now_s=0.0)
    jobs.add(("feed", 0), 5, "feed@5", now_s=0.0)
    assert _drain(jobs, 0.0) == ["feed@5"]
    assert jobs.pop(50.0) is None  # long past idle_s: route still holds gpu@10
    assert route.pop(50.0) == "gpu@10"
    assert jobs.pop(50.0) is None  # gpu@10 is being processed: it may still write feed@10
    jobs.add(("feed", 0), 10, "feed@10", now_s=50.0)
    route.done()
    assert _drain(jobs, 50.0) == ["feed@10"]
    assert jobs.pop(50.9) is None  # route is past 15 now, but another process may write the feed
    assert _drain(jobs, 51.0) == ["log@15"]  # idle_s after it ran dry
    assert jobs.pop(60.0) is None  # log@25: route holds gpu@20 again
    assert route.pop(60.0) == "gpu@20"
    route.done()
    assert route.pop(60.0) == "gpu@30"
    route.done()
    assert _drain(jobs, 60.0) == ["log@25", "log@35"]  # route is through, the feed long idle
    assert route.frontier_us(60.0) == ALWAYS


def test_add_says_whether_a_waiting_processor_must_look_again() -> None:
    """Only a record for a partition with nothing buffered (it was dry: maybe what held the
    head back, maybe the new head) or one that fills the aligner can change what ``pop``
    returns; a record queued behind others of its partition changes neither."""
    aligner: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=1.0, max_held=5)
    aligner.assign({("stack", 0), ("feed", 0)}, now_s=0.0)
    assert aligner.add(("stack", 0), 10, "s10", now_s=0.0)  # was dry
    assert aligner.pop(0.1) is None  # feed may still deliver earlier records
    due = aligner.next_due_s(0.1)
    assert not aligner.add(("stack", 0), 20, "s20", now_s=0.1)  # behind s10: nothing changes
    assert aligner.pop(0.1) is None and aligner.next_due_s(0.1) == due
    assert aligner.add(("feed", 0), 15, "f15", now_s=0.2)  # the dry partition delivers
    assert aligner.add(("stack", 0), 30, "s30", now_s=0.2) is False
    assert aligner.add(("stack", 0), 40, "s40", now_s=0.2)  # the aligner is full
    assert _drain(aligner, 0.3) == ["s10", "f15"]  # then s20 waits for feed, dry at 15


def test_next_due_after_a_held_back_pop_is_what_a_fresh_look_finds() -> None:
    """``next_due_s`` reuses what ``pop`` just found at the same instant; any change forgets it."""
    rng = random.Random(5)
    for _ in range(200):
        looked: InputAligner[int] = InputAligner(slack_s=1.0, idle_s=2.0, max_held=50)
        fresh: InputAligner[int] = InputAligner(slack_s=1.0, idle_s=2.0, max_held=50)
        parts = {("a", 0), ("b", 0), ("c", 1)}
        looked.assign(parts, now_s=0.0)
        fresh.assign(parts, now_s=0.0)
        now_s = 0.0
        for step in range(40):
            now_s += rng.choice((0.0, 0.5, 1.5))
            if rng.random() < 0.6:
                where, t = rng.choice(sorted(parts)), rng.randrange(0, 40_000_000)
                looked.add(where, t, step, now_s)
                fresh.add(where, t, step, now_s)
            popped = looked.pop(now_s)
            assert popped == fresh.pop(now_s)
            if popped is None:
                fresh.done()  # forgets what pop found (nothing is in flight): a fresh look
                assert looked.next_due_s(now_s) == fresh.next_due_s(now_s)
            else:
                looked.done()
                fresh.done()


def test_a_partition_is_paused_once_crowded_in_every_aligner_that_reads_it() -> None:
    """Per-partition flow control: a partition holding its share of the aligner (half of
    ``max_held`` split between the assigned partitions) is not fetched until it holds half of
    that; one read by another agent that keeps it short is never paused (it would starve)."""
    jobs: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=60.0, max_held=16)
    classify: InputAligner[str] = InputAligner(slack_s=0.0, idle_s=60.0, max_held=16)
    jobs.assign({("stack", 0), ("log", 0)}, now_s=0.0)  # share: 16 / (2 * 2) = 4 records
    classify.assign({("log", 0)}, now_s=0.0)
    gate = FetchGate(readers={"stack": [jobs], "log": [jobs, classify]})
    paused = []
    for t in range(4):
        jobs.add(("stack", 0), t, f"s{t}", now_s=0.0)
        paused.append(gate.read(("stack", 0)))
    assert paused == [False, False, False, True] and gate.paused == {("stack", 0)}
    assert not gate.read(("stack", 0))  # already paused
    for t in range(4):
        jobs.add(("log", 0), t, f"l{t}", now_s=0.0)
        classify.add(("log", 0), t, f"l{t}", now_s=0.0)
        classify.pop(0.0)
        assert not gate.read(("log", 0))  # classify keeps it short
    assert not gate.read(("feed", 0))  # a partition no aligner reads
    released = []
    while jobs.held:
        item = jobs.pop(0.0)
        assert item is not None
        if item.startswith("s"):
            released.append(gate.released(("stack", 0), jobs))
    assert released == [False, True, False, False]  # resumed at half the share (2 held)
    assert gate.paused == set()


def test_a_rebalance_resumes_every_paused_partition() -> None:
    aligner: InputAligner[str] = InputAligner(max_held=4)
    aligner.assign({("a", 0)}, now_s=0.0)
    gate = FetchGate(readers={"a": [aligner]})
    for t in range(2):
        aligner.add(("a", 0), t, str(t), now_s=0.0)
    assert gate.read(("a", 0))
    assert gate.clear() == {("a", 0)} and gate.paused == set()
