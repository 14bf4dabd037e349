"""Localisation: single and two sources named, uniform freeze and disagreement name nobody."""

from __future__ import annotations

from collections import deque

from hang_kit import Episode, Job, run, stream, verdicts

from schemas import Localization
from streams.hang import HangSettings
from streams.hang.localize import Finding, combine, gpu_idle_outlier, stack_outlier
from streams.hang.stackview import StackView
from streams.hang.state import JobState, StackRun

JOB = Job(nodes=4, gpus=4)


def test_single_source_is_named_exactly_by_all_three_methods() -> None:
    (verdict,) = verdicts(run(stream(JOB, 600, (Episode("hang", 300, sources=(9,)),))))
    assert verdict.source_ranks == (9,)
    assert verdict.source_nodes == (JOB.node(9),)
    assert {f.method: f.ranks for f in verdict.localization} == {
        "collective_lag": (9,), "gpu_idle_outlier": (9,), "stack_outlier": (9,), "node_silence": ()}
    assert verdict.confidence >= 0.9


def test_two_sources_on_two_nodes() -> None:
    (verdict,) = verdicts(run(stream(JOB, 600, (Episode("hang", 300, sources=(1, 14)),))))
    assert verdict.source_ranks == (1, 14)
    assert verdict.source_nodes == (JOB.node(1), JOB.node(14))


def test_uniform_freeze_names_no_source() -> None:
    (verdict,) = verdicts(run(stream(JOB, 600, (Episode("hang", 300),))))
    assert verdict.source_nodes == () and verdict.source_ranks == ()
    assert verdict.confidence == 0.0
    assert all(not f.ranks for f in verdict.localization)


def test_too_many_culprits_is_not_single_point() -> None:
    (verdict,) = verdicts(run(stream(JOB, 600, (Episode("hang", 300, sources=tuple(range(8))),))))
    assert verdict.source_nodes == ()


def test_a_whole_node_stalled_in_a_two_node_job_is_named_by_the_causal_method_and_the_spinning_waiters() -> None:
    """All 8 ranks of one node stop (host, data loader): its half of the job never enters the
    all-reduce the other half waits in. Two halves of frozen stacks cannot say which is odd, so
    the stack method does not judge; the flight recorder's lag names the node, and so does the
    idle-GPU method, because every other GPU spins in the collective's wait (only waiters do)."""
    job = Job(nodes=2, gpus=8)
    (verdict,) = verdicts(run(stream(job, 600, (Episode("hang", 300, sources=tuple(range(8, 16))),))))
    assert verdict.source_nodes == (job.node(8),)
    found = {f.method: f.ranks for f in verdict.localization}
    assert found["collective_lag"] == tuple(range(8, 16))
    assert found["gpu_idle_outlier"] == tuple(range(8, 16)) and found["stack_outlier"] == ()


def _gpu_state(job: Job, kinds: dict[int, tuple[float, float, float]], until_s: int = 60) -> JobState:
    """A job state whose rank r reports (util %, sm_active, power W) = kinds[r] every 5 s."""
    state = JobState(job_id="j", placement={r: job.node(r) for r in job.ranks})
    for rank, (util, sm, power) in kinds.items():
        state.run.gpu[rank] = deque((t * 1_000_000, util, sm, power) for t in range(0, until_s + 1, 5))
        state.run.power_peak_w[rank] = 650.0
    return state


def test_an_idle_half_is_named_only_when_the_busy_half_spins() -> None:
    """Half idle, half busy in a two-node job: the idle half is the source when the busy half
    spins (a collective's wait); when the busy half computes, the sides may be either (waiters
    in a CPU barrier idle their GPUs while a culprit's kernel runs) and nobody is named."""
    job, s = Job(nodes=2, gpus=4), HangSettings()
    idle, spin, compute = (0.0, 0.0, 100.0), (100.0, 0.04, 250.0), (97.0, 0.75, 650.0)
    spinning = _gpu_state(job, {r: idle if r < 4 else spin for r in job.ranks})
    assert gpu_idle_outlier(spinning, 60_000_000, s).found.ranks == (0, 1, 2, 3)
    computing = _gpu_state(job, {r: idle if r < 4 else compute for r in job.ranks})
    assert gpu_idle_outlier(computing, 60_000_000, s).found.ranks == ()


def _run(sig: str, samples: int) -> StackRun:
    return StackRun(sig=sig, start_us=0, length=samples, last_us=samples * 10_000_000, io=False)


def test_stacks_judge_only_once_a_majority_of_waiters_froze() -> None:
    """The first waiters to freeze are a few (they reach their wait a sample apart): until half
    the ranks froze alike, or when two halves differ, the stack method covers nobody and so
    vetoes no other method; a frozen majority with one odd rank names it and covers everyone."""
    s, state = HangSettings(), _state()
    few = {r: _run("wait", s.frozen_samples if r < 3 else 2) for r in JOB.ranks} | {9: _run("odd", 8)}
    early = stack_outlier(state, StackView(few, (0, 1, 2), (9,)), s)
    assert early.covered == frozenset() and early.found.ranks == ()
    halves = {r: _run("wait" if r < 8 else "odd", 8) for r in JOB.ranks}
    tie = stack_outlier(state, StackView(halves, tuple(range(8)), tuple(range(8, 16))), s)
    assert tie.covered == frozenset() and tie.found.ranks == ()
    most = {r: _run("odd" if r == 9 else "wait", 8) for r in JOB.ranks}
    named = stack_outlier(state, StackView(most, tuple(r for r in JOB.ranks if r != 9), (9,)), s)
    assert named.found.ranks == (9,) and named.covered == frozenset(JOB.ranks)


def test_a_whole_node_stalled_among_four_is_named_by_every_method() -> None:
    (verdict,) = verdicts(run(stream(JOB, 600, (Episode("hang", 300, sources=(4, 5, 6, 7)),))))
    assert verdict.source_nodes == (JOB.node(4),)
    assert verdict.confidence >= 0.9


def _state() -> JobState:
    return JobState(job_id="j", placement={r: JOB.node(r) for r in JOB.ranks})


def _f(method: str, *ranks: int, data: bool = True, sees: tuple[int, ...] | None = None) -> Finding:
    covered = frozenset(JOB.ranks if sees is None else sees) if data else frozenset()
    return Finding(Localization(method=method, ranks=ranks), covered)


def test_combination_rule() -> None:
    s = HangSettings()
    lag, gpu5 = _f("collective_lag", 5), _f("gpu_idle_outlier", 5)
    gpu6 = _f("gpu_idle_outlier", 6)  # same node as 5
    gpu12 = _f("gpu_idle_outlier", 12)
    stack_none = _f("stack_outlier")
    assert combine(_state(), (lag, gpu5, stack_none), s).nodes == (JOB.node(5),)
    assert combine(_state(), (lag, gpu6, stack_none), s).nodes == (JOB.node(5),)  # node-level
    assert combine(_state(), (lag, gpu12, stack_none), s).nodes == ()  # disagree
    alone = combine(_state(), (lag, _f("gpu_idle_outlier"), stack_none), s)
    assert alone.nodes == (JOB.node(5),) and alone.confidence == 0.6  # one strong method
    weak = combine(_state(), (_f("collective_lag"), gpu5, stack_none), s)
    assert weak.nodes == ()  # one weak method alone is not enough while others have data
    only = combine(_state(), (_f("collective_lag", data=False), gpu5, _f("stack_outlier", data=False)), s)
    assert only.nodes == (JOB.node(5),)  # NVML-only, no stacks, no flight recorder: trusted alone
    silent = combine(_state(), (_f("collective_lag"), _f("gpu_idle_outlier"), stack_none,
                                _f("node_silence", 12, 13, 14, 15)), s)
    assert silent.nodes == (JOB.node(12),)  # a dead node is named by its silence


def test_a_method_says_nothing_about_nodes_it_cannot_see() -> None:
    """A partially instrumented job: stacks and the flight recorder only on node 0 (ranks 0-3),
    GPU samples everywhere. The idle GPU on node 2 is named; the methods that cannot see node 2
    do not veto it, and where they see they must agree."""
    s = HangSettings()
    node0 = tuple(range(4))
    lag_blind, stack_blind = _f("collective_lag", sees=node0), _f("stack_outlier", sees=node0)
    idle9 = _f("gpu_idle_outlier", 9)
    found = combine(_state(), (lag_blind, idle9, stack_blind), s)
    assert found.nodes == (JOB.node(9),) and found.confidence == 0.6
    stack_sees_9 = _f("stack_outlier", sees=(*node0, 8, 9, 10, 11))
    assert combine(_state(), (lag_blind, idle9, stack_sees_9), s).nodes == ()  # it sees node 2 and names nobody
    lag1 = _f("collective_lag", 1, sees=node0)
    assert combine(_state(), (lag1, _f("gpu_idle_outlier", 1, 9), stack_blind), s).nodes == (JOB.node(1), JOB.node(9))
    assert combine(_state(), (lag1, _f("gpu_idle_outlier", 2, 9), stack_blind), s).nodes == (JOB.node(1), JOB.node(9))
    assert combine(_state(), (lag1, _f("gpu_idle_outlier", 9), stack_blind), s).nodes == ()  # disagree on node 0


def test_the_side_the_stacks_call_odd_must_be_a_minority() -> None:
    """Half the job's stacks frozen in a data loader, half in the all-reduce: either half could be
    the odd one, so the stack method names nobody (it named the waiting half before)."""
    job = Job(nodes=4, gpus=8)
    events = [e for e in stream(job, 600, (Episode("hang", 300, sources=tuple(range(8, 16))),))
              if not (type(e).__name__ == "StackSample" and job.node(getattr(e, "rank", 0)) in (job.node(0), job.node(16)))]
    (verdict,) = verdicts(run(events))
    found = {f.method: f.ranks for f in verdict.localization}
    assert found["stack_outlier"] == ()
    assert verdict.source_nodes == (job.node(8),)


def test_a_waiter_that_reached_the_group_stack_late_is_not_a_source() -> None:
    """Five ranks frozen in one stack for a while, three more just arrived in the same stack
    (a dead node's peers reach the collective at different times): nobody differs."""
    from streams.hang.localize import stack_outlier
    from streams.hang.stackview import stack_view
    from streams.hang.state import StackRun

    s = HangSettings()
    state = _state()
    now_us = 600_000_000
    wait = "train.py:88 step\ndistributed_c10d.py:2501 all_reduce"
    early = now_us - 60_000_000
    for rank in range(5):
        state.run.stacks[rank] = StackRun(wait, early, s.frozen_samples + 4, now_us, False)
    for rank in (5, 6, 7):
        state.run.stacks[rank] = StackRun(wait, now_us - 5_000_000, 1, now_us, False)
    view = stack_view(state, now_us, s, frozenset())
    assert view.group == (0, 1, 2, 3, 4) and view.others == ()
    assert stack_outlier(state, view, s).found.ranks == ()
    state.run.stacks[7] = StackRun("train.py:91 step\ndataloader.py:40 next", now_us - 5_000_000, 1, now_us, False)
    view = stack_view(state, now_us, s, frozenset())
    assert view.others == (7,)
    assert stack_outlier(state, view, s).found.ranks == (7,)


def test_stacks_not_yet_frozen_do_not_veto_the_idle_gpu() -> None:
    """Stacks sampled every 10 s have not frozen yet when the other probes convict: the stack
    method has no waiters to compare with, covers nothing and leaves the idle GPU's node named."""
    from streams.hang.localize import stack_outlier
    from streams.hang.stackview import stack_view
    from streams.hang.state import StackRun

    s = HangSettings()
    state = _state()
    now_us = 600_000_000
    for rank in JOB.ranks:
        state.run.stacks[rank] = StackRun("train.py:88 step\nsync.py:3 wait", now_us - 15_000_000, 2, now_us, False)
    view = stack_view(state, now_us, s, frozenset())
    assert view.group == ()
    stacks = stack_outlier(state, view, s)
    assert stacks.covered == frozenset() and stacks.found.ranks == ()
    found = combine(state, (_f("collective_lag", data=False), _f("gpu_idle_outlier", 5), stacks,
                            _f("node_silence", data=False)), s)
    assert found.nodes == (JOB.node(5),)
