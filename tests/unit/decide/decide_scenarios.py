"""Randomised fault scenarios with their allowed and required decisions (an evaluation oracle).

Each generator draws a job (1-64 nodes, step time 0.5-40 s, start time), a situation from the
restart policy table (TAXONOMY.md) and varied timings (cascade spread, lines printed before
the kernel line, lines delivered late, noise on other nodes), writes it as real-format log
lines and lifecycle events, and states which decisions are *allowed* (anything else is
forbidden) and which are *required*. The oracle is written from the table, not from the
policy's output. ``python tests/unit/decide/decide_scenarios.py --seeds 300`` prints the counts.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decide_events import T0, gpu_samples, hang, job, steps  # noqa: E402
from decide_lines import kline, run_lines, tline  # noqa: E402

from schemas import Decision, Event, JobEvent  # noqa: E402
from streams.decide import GuardSettings  # noqa: E402

Key = tuple[str, tuple[str, ...]]
"""(action, nodes) of a decision."""

DESTRUCTIVE = frozenset({"replace_nodes", "drain_reboot_nodes", "restart_in_place", "stop_job"})
GUARDS = GuardSettings(max_cluster_share=1.0, max_nodes_per_cluster=1000)
"""A roomy cluster: the evaluation judges the policy, the guards have their own tests."""


@dataclass
class Scenario:
    """Events of one job and what the table says about them."""

    kind: str
    events: list[Event]
    until: float
    allowed: set[Key] = field(default_factory=set)
    required: set[Key] = field(default_factory=set)
    healthy_nodes: set[str] = field(default_factory=set)
    """Nodes with corrected errors only, or none: no destructive action may name them."""
    healthy_job: bool = False
    delays: dict[str, float] = field(default_factory=dict)
    """event_id -> seconds it is delivered after its event time (late lines); others on time."""

    def arrivals(self) -> list[Event]:
        """The events in delivery order: by event time plus delay (stable), with the first node's
        GPU samples every 5 s (periodic telemetry keeps event time moving, as in production)."""
        def arrival(e: Event) -> float:
            return e.event_time.timestamp() + self.delays.get(e.event_id, 0.0)
        jobs = [e for e in self.events if isinstance(e, JobEvent) and e.placement]
        first = jobs[0] if jobs else None
        heartbeat = gpu_samples((first.event_time - T0).total_seconds(), self.until,
                                node=first.placement[0].node_id) if first else []
        return sorted([*self.events, *heartbeat], key=arrival)


def _pci(rng: random.Random) -> str:
    return f"0000:{rng.choice(['18', '3b', '5e', '86', 'af', 'd8'])}:00"


def _xid(rng: random.Random, number: int, text: str) -> str:
    stamp = f"[{rng.uniform(1000, 900000):.6f}] " if rng.random() < 0.7 else "kernel: "
    return f"{stamp}NVRM: Xid (PCI:{_pci(rng)}): {number}, pid={rng.choice([0, rng.randint(1000, 99999)])}, {text}"


def corrected_line(rng: random.Random) -> str:
    """A corrected or contained error line in one of several real formats."""
    return rng.choice([
        _xid(rng, 92, "High single-bit ECC error rate"),
        _xid(rng, 63, "Row remapping event"),
        _xid(rng, 94, "Contained ECC error"),
        f"EDAC MC{rng.randint(0, 3)}: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#{rng.randint(0, 7)}_DIMM#0 "
        f"(channel:1 slot:0 page:0x{rng.randint(1, 9999):x} offset:0x0 grain:32 syndrome:0x0)",
        "mce: [Hardware Error]: Machine check events logged",
    ])


NCCL_LINES = [
    "{h}:{p}:{q} [{r}] NCCL WARN NET/IB : Got completion from peer 10.0.0.{o}<45678> with error 12, opcode 0, "
    "len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.{o}",
    "[rank{r}]:[E1122 08:00:11.000 ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum={p}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
    "600005 milliseconds before timing out.",
]
CASCADE_LINES = [
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    "RuntimeError: CUDA error: unspecified launch failure",
]
OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {g}.00 GiB. GPU {r} has a total "
       "capacity of 79.10 GiB of which 1.19 GiB is free.")
PORT_DOWN = "infiniband mlx5_{d}: port 1 state changed to DOWN"


def _nccl(rng: random.Random, rank: int) -> str:
    return rng.choice(NCCL_LINES).format(h=f"g{rank:03d}", p=rng.randint(100, 9999), q=rng.randint(100, 9999),
                                         r=rank, o=rng.randint(2, 250))


@dataclass
class Job:
    """A drawn job: its nodes, start, step period and events so far."""

    nodes: list[str]
    start: float
    period: float
    events: list[Event] = field(default_factory=list)

    def run(self, until: float, attempt: int = 0, from_s: float | None = None) -> None:
        """Steps of rank 0 from ``from_s`` (default: start + period) to ``until``."""
        begin = from_s if from_s is not None else self.start + self.period
        self.events += [s.model_copy(update={"event_id": f"{s.event_id}-{attempt}"})
                        for s in steps(begin, until, every=self.period, node=self.nodes[0])]


def _job(rng: random.Random, min_nodes: int = 1) -> Job:
    size = rng.choice([n for n in (1, 2, 4, 8, 16, 32, 64) if n >= min_nodes])
    nodes = [f"g{i:03d}" for i in range(size)]
    start = rng.uniform(0, 600)
    period = rng.choice([0.5, 1.0, 2.5, 8.0, 20.0, 40.0])
    j = Job(nodes, start, period)
    j.events += [job("scheduled", start, nodes=nodes), job("running", start + 5)]
    return j


def _cascade(rng: random.Random, j: Job, around: float, skip: str | None, attempt: int | None = None,
             spread: float = 20.0) -> list[Event]:
    """NCCL errors and launcher lines from up to 8 surviving ranks, some before ``around``."""
    ranks = [i for i, n in enumerate(j.nodes) if n != skip][:8]
    out: list[Event] = []
    for rank in ranks:
        s = around + rng.uniform(-5, spread)
        out.append(tline(s, j.nodes[rank], rank, _nccl(rng, rank), source="nccl", attempt=attempt))
        if rng.random() < 0.5:
            out.append(tline(s + rng.uniform(0, 5), j.nodes[rank], rank, rng.choice(CASCADE_LINES), attempt=attempt))
    return out


def _noise(rng: random.Random, j: Job, t0: float, t1: float, exclude: str | None = None) -> list[Event]:
    """0-3 corrected errors on random nodes (never enough for a lemon)."""
    nodes = [n for n in j.nodes if n != exclude] or j.nodes
    return [kline(rng.uniform(t0, t1), rng.choice(nodes), corrected_line(rng)) for _ in range(rng.randint(0, 3))]


# -- scenario kinds ------------------------------------------------------------------------------


def healthy(rng: random.Random) -> Scenario:
    j = _job(rng)
    end = j.start + rng.uniform(600, 5000)
    j.run(end)
    j.events += _noise(rng, j, j.start, end)
    return Scenario("healthy", j.events, end + 60, healthy_nodes=set(j.nodes), healthy_job=True)


def gpu_lost(rng: random.Random) -> Scenario:
    j = _job(rng, 2)
    t = j.start + rng.uniform(120, 3000)
    bad = rng.choice(j.nodes)
    j.run(t + rng.uniform(-10, 0))
    kernel_delay = rng.choice([0.0, rng.uniform(0, 10)])  # the kernel line may come after the ranks' errors
    xid = kline(t + kernel_delay, bad, _xid(rng, 79, "GPU has fallen off the bus."))
    j.events += [xid, *_cascade(rng, j, t, bad)]
    shipped = rng.uniform(0, 5) if rng.random() < 0.7 else rng.uniform(5, 45)  # node agent shipping delay
    noisy = [n for n in j.nodes if n != bad]
    if noisy and rng.random() < 0.5:  # a corrected error elsewhere, up to 2 min before or after
        j.events.append(kline(t + rng.uniform(-120, 120), rng.choice(noisy), corrected_line(rng)))
    j.events.append(job("failed", t + rng.uniform(25, 60)))
    key = (bad,)
    return Scenario("gpu_lost", j.events, t + 600,
                    allowed={("replace_nodes", key), ("drain_reboot_nodes", key)},
                    required={("replace_nodes", key)}, healthy_nodes=set(noisy), delays={xid.event_id: shipped})


def job_bug_repeats(rng: random.Random) -> Scenario:
    j = _job(rng)
    t0 = j.start + rng.uniform(60, 2000)
    j.run(t0 - 1)
    j.events += [tline(t0, rng.choice(j.nodes), 0, OOM.format(g=rng.randint(1, 8), r=0), attempt=None),
                 *_cascade(rng, j, t0 + 1, None), job("failed", t0 + rng.uniform(20, 40))]
    t_restart = t0 + rng.uniform(60, 300)
    j.events.append(job("restarting", t_restart, attempt=1))
    t1 = t_restart + rng.uniform(120, 1500)
    j.run(t1 - 1, attempt=1, from_s=t_restart + 30)
    j.events += [tline(t1, rng.choice(j.nodes), 0, OOM.format(g=rng.randint(1, 8), r=0), attempt=1),
                 *_cascade(rng, j, t1 + 1, None, attempt=1)]
    return Scenario("job_bug_repeats", j.events, t1 + 300, allowed={("stop_job", ()), ("notify", ())},
                    required={("stop_job", ())})


def two_hardware_faults(rng: random.Random) -> Scenario:
    j = _job(rng, 2)
    t0 = j.start + rng.uniform(60, 1500)
    a, b = rng.sample(j.nodes, 2)
    j.run(t0 - 1)
    first_cascade = _cascade(rng, j, t0, a)
    j.events += [kline(t0, a, _xid(rng, 79, "GPU has fallen off the bus.")), *first_cascade,
                 job("failed", t0 + 30)]
    t_restart = t0 + rng.uniform(120, 600)
    spare = f"s{rng.randint(0, 99):02d}"
    nodes = [spare if n == a else n for n in j.nodes]
    j.events.append(job("scheduled", t_restart, attempt=1, nodes=nodes))
    t1 = t_restart + rng.uniform(300, 1500)
    j.run(t1 - 1, attempt=1, from_s=t_restart + 30)
    j.events += [kline(t1, b, _xid(rng, 48, "Double Bit ECC Error")), *_cascade(rng, j, t1, b, attempt=1)]
    # Xid 79 and Xid 48 both end the CUDA context: no checkpoint is allowed for either
    allowed: set[Key] = {(act, (n,)) for act in ("replace_nodes", "drain_reboot_nodes") for n in (a, b)}
    stragglers = rng.sample(first_cascade, min(2, len(first_cascade)))  # delivered during attempt 1
    return Scenario("two_hardware_faults", j.events, t1 + 600, allowed=allowed,
                    required={("replace_nodes", (a,)), ("replace_nodes", (b,))},
                    delays={e.event_id: t_restart - t0 + rng.uniform(1, 60) for e in stragglers})


def late_cascade_after_restart(rng: random.Random) -> Scenario:
    j = _job(rng)
    t0 = j.start + rng.uniform(60, 1500)
    j.run(t0 - 1)
    rank_node = rng.choice(j.nodes)
    j.events += [tline(t0, rank_node, 0, OOM.format(g=2, r=0)), job("failed", t0 + 3)]
    t_restart = t0 + rng.uniform(5, 30)
    j.events.append(job("restarting", t_restart, attempt=1))
    j.run(t_restart + 2000, attempt=1, from_s=t_restart + 40)
    late = [tline(t0 + 1, rank_node, 0, OOM.format(g=2, r=0)).model_copy(update={"event_id": "late-oom"}),
            tline(t0 + 2, j.nodes[0], 0, CASCADE_LINES[0]).model_copy(update={"event_id": "late-elastic"})]
    j.events += late
    delay = t_restart - t0 + rng.uniform(5, 60)  # delivered after the restarted attempt began
    return Scenario("late_cascade", j.events, t_restart + 2100, healthy_job=True,
                    delays={e.event_id: delay for e in late})


def port_down_one_node(rng: random.Random) -> Scenario:
    j = _job(rng, 2)
    t = j.start + rng.uniform(60, 2000)
    bad = rng.choice(j.nodes)
    j.run(t + rng.uniform(-5, 60))
    j.events += [kline(t, bad, PORT_DOWN.format(d=rng.randint(0, 7))), *_cascade(rng, j, t + 2, bad)]
    key = (bad,)
    return Scenario("port_down_one_node", j.events, t + 600,
                    allowed={("replace_nodes", key), ("checkpoint_now", ())},
                    required={("replace_nodes", key)}, healthy_nodes={n for n in j.nodes if n != bad})


def nccl_only(rng: random.Random) -> Scenario:
    j = _job(rng, 2)
    t = j.start + rng.uniform(60, 2000)
    j.run(t - rng.uniform(0, 120))
    j.events += _cascade(rng, j, t, None, spread=40)
    return Scenario("nccl_only", j.events, t + 600,
                    allowed={("restart_in_place", ()), ("checkpoint_now", ())},
                    required={("restart_in_place", ())}, healthy_nodes=set(j.nodes))


def hang_then_restart_fails(rng: random.Random) -> Scenario:
    j = _job(rng, 2)
    t = j.start + rng.uniform(100, 2000)
    j.run(t - rng.uniform(30, 200))
    j.events.append(hang(t, []))
    t_restart = t + rng.uniform(20, 120)
    j.events += [job("restarting", t_restart, attempt=1), job("running", t_restart + rng.uniform(20, 90), attempt=1)]
    t2 = t_restart + rng.uniform(150, 800)
    j.events.append(hang(t2, [], attempt=1))
    return Scenario("restart_fails", j.events, t2 + 60,
                    allowed={("restart_in_place", ()), ("resubmit_job", ())},
                    required={("restart_in_place", ()), ("resubmit_job", ())}, healthy_nodes=set(j.nodes))


def one_node_deadlock(rng: random.Random) -> Scenario:
    j = Job(["g000"], rng.uniform(0, 600), rng.choice([1.0, 5.0, 30.0]))
    j.events += [job("scheduled", j.start, nodes=j.nodes), job("running", j.start + 5)]
    t = j.start + rng.uniform(100, 3000)
    j.run(t - rng.uniform(30, 120))
    j.events.append(hang(t, []))
    return Scenario("one_node_deadlock", j.events, t + 120, allowed={("restart_in_place", ())},
                    required={("restart_in_place", ())}, healthy_nodes=set(j.nodes))


def lemon(rng: random.Random) -> Scenario:
    j = _job(rng)
    node = rng.choice(j.nodes)
    times = sorted(j.start + rng.uniform(0, 80_000) for _ in range(rng.randint(10, 16)))
    j.run(times[-1] + 10)
    j.events += [kline(s, node, corrected_line(rng)) for s in times]
    j.events += _noise(rng, j, j.start, times[-1], exclude=node)
    return Scenario("lemon", j.events, times[-1] + 60,
                    allowed={("drain_reboot_nodes", (node,)), ("notify", (node,))},
                    required={("drain_reboot_nodes", (node,)), ("notify", (node,))},
                    healthy_nodes={n for n in j.nodes if n != node})


KINDS: list[Callable[[random.Random], Scenario]] = [
    healthy, gpu_lost, job_bug_repeats, two_hardware_faults, late_cascade_after_restart,
    port_down_one_node, nccl_only, hang_then_restart_fails, one_node_deadlock, lemon,
]


# -- judging -------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """The judgement of one scenario's decisions."""

    correct: int = 0
    forbidden: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    destructive_on_healthy: int = 0
    stop_without_repeat: int = 0


def judge(scenario: Scenario, decisions: list[Decision]) -> Verdict:
    """Each decision is correct when the table allows it for the scenario, else forbidden."""
    v = Verdict()
    made = {(d.action, d.nodes) for d in decisions}
    for d in decisions:
        key = (d.action, d.nodes)
        if key in scenario.allowed:
            v.correct += 1
        else:
            v.forbidden.append(f"{d.action} {list(d.nodes)} ({d.policy_rule})")
        if d.action in DESTRUCTIVE and (scenario.healthy_job or set(d.nodes) & scenario.healthy_nodes):
            v.destructive_on_healthy += 1
        if d.action == "stop_job" and scenario.kind != "job_bug_repeats":
            v.stop_without_repeat += 1
    v.missing = [f"{a} {list(n)}" for a, n in sorted(scenario.required - made)]
    return v


def draw(seed: int) -> Scenario:
    """The scenario of ``seed`` (kind and timings drawn from it)."""
    rng = random.Random(seed)
    return rng.choice(KINDS)(rng)


def evaluate(seeds: range) -> tuple[Counter[str], list[str]]:
    """Counts over ``seeds`` and one line per problem found."""
    counts: Counter[str] = Counter()
    problems: list[str] = []
    for seed in seeds:
        scenario = draw(seed)
        decisions, _ = run_lines(scenario.arrivals(), until=scenario.until, guards=GUARDS, in_order=True)
        v = judge(scenario, decisions)
        counts["scenarios"] += 1
        counts[f"kind.{scenario.kind}"] += 1
        counts["decisions"] += len(decisions)
        counts["correct"] += v.correct
        counts["forbidden"] += len(v.forbidden)
        counts["missing"] += len(v.missing)
        counts["destructive_on_healthy"] += v.destructive_on_healthy
        counts["stop_without_repeat"] += v.stop_without_repeat
        if v.forbidden or v.missing:
            problems.append(f"seed {seed} {scenario.kind}: forbidden {v.forbidden} missing {v.missing}")
    return counts, problems


def main(argv: list[str]) -> int:
    """``--seeds N`` (default 300) ``--first K`` (default 10_000): print the counts."""
    args = dict(zip(argv[::2], argv[1::2], strict=False))
    first, n = int(args.get("--first", 10_000)), int(args.get("--seeds", 300))
    counts, problems = evaluate(range(first, first + n))
    for line in problems[:20]:
        print(line)
    for key in sorted(counts):
        print(f"{key:32s} {counts[key]}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
