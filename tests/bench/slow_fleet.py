"""An independent fleet generator for the slow-node detector (issue 14, item 6).

It shares no code or assumptions with ``producers.simulator`` or the detector: it builds one
synchronous data/pipeline-parallel job per case from its own physics, with the traps that made
the old detector replace healthy nodes:

- structure present from the start: the last pipeline stage computes 1.1-1.4x longer, half the
  nodes are an older GPU model (1.2-1.5x slower, other power and temperature), some nodes carry
  structurally less RDMA traffic, and every node has a storage NIC whose traffic is tiny and
  bursty (so the weakest port of all is always a storage port);
- 4-GPU nodes (ranks = GPUs); no ``compute_ms`` at all; ``step_time_ms`` is the same on every rank (synchronous); half the
  jobs report ``comm_wait_ms``, 60 % report ``sm_active`` (the others only ``util_pct``, which
  NCCL's spinning kernels keep near 100 % on waiting GPUs too);
- evaluation phases (no steps, uneven GPU load), checkpoints (lifecycle events, storage burst),
  restarts (a new attempt whose first steps are slow, unevenly per node) and hangs (steps stop,
  a ``hang_verdict`` a minute later, then a restart);
- occasional power-cap throttling (SwPowerCap) on random healthy GPUs, and rare one-step
  stalls (1.5-3x) of a random rank;
- jobs of 2-64 nodes with 0.5-4 % per-step noise, drawn independently of the detector;
- real stragglers of 1.15-2x appearing mid-run: thermal throttling, a degraded NIC rail, or a
  noisy neighbour slowing the node's kernels.

Truths are (node, onset) pairs. The generator is deterministic for a seed. Events are built
with ``model_construct`` (already valid by construction) to keep 2,000 node-hours fast.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal

from schemas import (
    Event,
    GpuSample,
    GpuStats,
    HangSignals,
    HangVerdict,
    JobEvent,
    NetPort,
    NetSample,
    Placement,
    StepProgress,
)

START = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)
Cause = Literal["none", "thermal", "nic", "neighbour"]
Phase = Literal["init", "train", "eval", "ckpt", "hung", "down"]
TICK_S = 10.0
GPUS = 4


@dataclass(frozen=True)
class FleetCase:
    """One job: size, structure, telemetry options, disturbances and the straggler (if any)."""

    seed: int
    nodes: int
    duration_s: float
    cause: Cause = "none"
    slowdown: float = 1.0
    onset_s: float = 0.0
    restart_at_s: float | None = None
    hang_at_s: float | None = None
    noise: float = 0.015
    """Relative per-step jitter of a rank's compute (and, scaled, of the GPU and NIC readings)."""


@dataclass(frozen=True)
class Truth:
    """A real straggler: node and onset."""

    node_id: str
    onset: datetime


@dataclass
class Node:
    """Static traits of one node."""

    name: str
    base: float
    stage_last: bool
    old_model: bool
    rdma_share: float
    rails: int
    idle_w: float
    max_w: float
    temp0: float
    powercap: float


@dataclass
class Run:
    """Generated events (event-time order), truths and per-node structural labels."""

    events: list[Event]
    truths: list[Truth]
    labels: dict[str, list[str]]
    phases: list[tuple[float, float, str]] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)
    """Job-wide conditions: ``pipeline``, ``mixed_gpu``, ``comm_wait`` or ``step_time_only``,
    ``sm_active`` or ``power_only``, ``restart``, ``hang`` (no job reports ``compute_ms`` and
    every node has a storage NIC)."""


def _t(s: float) -> datetime:
    return START + timedelta(seconds=s)


def _nodes(rng: random.Random, n: int) -> list[Node]:
    stages = rng.choice([1, 2, 4, 4, 8]) if n >= 8 else 1
    per_stage = max(1, n // stages)
    old = set(rng.sample(range(n), n // 2)) if rng.random() < 0.6 else set()
    old_f, last_f = rng.uniform(1.2, 1.5), rng.uniform(1.1, 1.4)
    out = []
    for i in range(n):
        last = stages > 1 and i // per_stage >= stages - 1
        f = (last_f if last else 1.0) * (old_f if i in old else 1.0) * rng.uniform(0.98, 1.02)
        share = rng.uniform(0.5, 0.8) if rng.random() < 0.15 else 1.0
        out.append(Node(
            name=f"gn{rng.randrange(100, 999)}-{i:03d}", base=f, stage_last=last,
            old_model=i in old, rdma_share=share, rails=rng.choice([4, 8]) if i == 0 else 0,
            idle_w=70.0 if i in old else 90.0, max_w=400.0 if i in old else 700.0,
            temp0=rng.uniform(52, 66), powercap=0.3 if rng.random() < 0.1 else 0.0))
    for node in out:
        node.rails = out[0].rails
    return out


def _phases(rng: random.Random, case: FleetCase) -> list[tuple[float, float, Phase]]:
    """The job's timeline: init, then training interleaved with evals and checkpoints, hangs
    and restarts (each restart followed by init)."""
    out: list[tuple[float, float, Phase]] = [(0.0, rng.uniform(20, 60), "init")]
    t = out[0][1]
    next_eval = t + rng.uniform(300, 900)
    next_ckpt = t + rng.uniform(400, 800)
    events: list[tuple[float, str]] = sorted(
        (at, kind) for at, kind in ((case.restart_at_s, "down"), (case.hang_at_s, "hung"))
        if at is not None)
    while t < case.duration_s:
        nxt = max(t, min([next_eval, next_ckpt, case.duration_s] + [e[0] for e in events]))
        if nxt > t:
            out.append((t, nxt, "train"))
            t = nxt
        if events and events[0][0] <= t + 1e-9:
            _, kind = events.pop(0)
            if kind == "hung":
                hung = rng.uniform(240, 480)
                out.append((t, t + hung, "hung"))
                t += hung
            down = rng.uniform(60, 180)
            out += [(t, t + down, "down"), (t + down, t + down + rng.uniform(30, 90), "init")]
            t = out[-1][1]
        elif t >= next_eval - 1e-9:
            d = rng.uniform(30, 120)
            out.append((t, t + d, "eval"))
            t, next_eval = t + d, t + d + rng.uniform(400, 1200)
        elif t >= next_ckpt - 1e-9:
            d = rng.uniform(10, 45)
            out.append((t, t + d, "ckpt"))
            t, next_ckpt = t + d, t + d + rng.uniform(500, 900)
    return [(a, min(b, case.duration_s), k) for a, b, k in out if a < case.duration_s]


class _Gen:
    """Mutable generation state of one case."""

    def __init__(self, case: FleetCase) -> None:
        self.case = case
        self.rng = random.Random(case.seed)
        rng = self.rng
        self.nodes = _nodes(rng, case.nodes)
        self.job = f"job-{case.seed % 100000:05d}"
        self.step_ms = rng.uniform(600, 2500)
        self.comm_frac = rng.uniform(0.1, 0.3)
        self.every = rng.choice([5, 10, 10, 20])
        self.report_wait = rng.random() < 0.5
        self.report_sm = rng.random() < 0.6
        self.victim = rng.randrange(case.nodes) if case.cause != "none" else -1
        self.bad_rail = rng.randrange(self.nodes[0].rails)
        self.rail_frac = rng.uniform(0.25, 0.6)
        self.err_rate = rng.choice([0.0, rng.uniform(0.2, 3.0)])
        self.culprit = rng.randrange(case.nodes)
        self.spike_prob = rng.choice([0.0, 0.002, 0.01])
        self.warm = [rng.uniform(1.0, 2.5) for _ in self.nodes]
        self.tx = {(n.name, p): rng.randrange(10**9, 10**12) for n in self.nodes
                   for p in range(n.rails + 1)}
        self.errs = {n.name: 0.0 for n in self.nodes}
        self.events: list[Event] = []
        self.attempt, self.step, self.attempt_step0 = 0, 0, 0
        self.busy = [0.0] * case.nodes
        self.step_s = self.step_ms / 1000

    def slow(self, i: int, t: float) -> float:
        """The straggler's factor on its compute (thermal, neighbour) at time ``t``."""
        c = self.case
        return c.slowdown if i == self.victim and t >= c.onset_s and c.cause != "nic" else 1.0

    def nic_slow(self, t: float) -> float:
        c = self.case
        return c.slowdown if c.cause == "nic" and t >= c.onset_s else 1.0


def _emit_job(g: _Gen, t: float, kind: str, step: int | None = None,
              placement: tuple[Placement, ...] = ()) -> None:
    g.events.append(JobEvent.model_construct(
        schema="job_event/v1", event_id=f"{g.job}-{kind}-{t:.3f}", event_time=_t(t),
        cluster="indep", job_id=g.job, attempt=g.attempt, kind=kind, placement=placement,
        step=step, detail=None))


def _spike(g: _Gen) -> float:
    """A rare one-step stall of one rank (data loader, page fault): 1.5-3x, then gone."""
    return g.rng.uniform(1.5, 3.0) if g.rng.random() < g.spike_prob else 1.0


def _train_step(g: _Gen, t: float) -> float:
    """One synchronous step starting at ``t``: reports, returns its duration in seconds."""
    rng, warm_left = g.rng, g.step - g.attempt_step0 < 30
    comps = []
    for i, n in enumerate(g.nodes):
        w = g.warm[i] if warm_left and g.attempt > 0 else 1.0
        comps.append(g.step_ms * (1 - g.comm_frac) * n.base * g.slow(i, t) * w
                     * (1 + rng.gauss(0, g.case.noise)) * _spike(g))
    comm = g.step_ms * g.comm_frac * (1 + abs(rng.gauss(0, 2 * g.case.noise)))
    total = max(comps) + comm
    total = total * g.nic_slow(t)
    g.busy = [c / total for c in comps]
    g.step += 1
    if g.step % g.every == 0:
        for i, n in enumerate(g.nodes):
            wait = total - comps[i]
            for gpu in range(GPUS):
                rank = i * GPUS + gpu
                g.events.append(StepProgress.model_construct(
                    schema="step_progress/v1", event_id=f"{g.job}-{g.attempt}-{rank}-{g.step}",
                    event_time=_t(t + total / 1000 + rng.uniform(0, 0.05)), cluster="indep",
                    job_id=g.job, node_id=n.name, rank=rank, step=g.step,
                    step_time_ms=total * (1 + rng.gauss(0, 0.002)), compute_ms=None,
                    comm_wait_ms=max(0.0, wait * (1 + rng.gauss(0, 1.3 * g.case.noise))) if g.report_wait
                    else None))
    return total / 1000


def _gpu(g: _Gen, i: int, t: float, phase: str) -> GpuSample:
    rng, n = g.rng, g.nodes[i]
    hot = g.case.cause == "thermal" and i == g.victim and t >= g.case.onset_s
    if phase == "train":
        busy = g.busy[i]
    elif phase == "eval":
        busy = rng.uniform(0.3, 0.95)
    elif phase == "hung":
        busy = 0.0 if i == g.culprit else 0.03
    else:
        busy = 0.02
    stats = []
    for k in range(GPUS):
        b = min(1.0, max(0.0, busy * (1 + rng.gauss(0, 2 * g.case.noise))))
        jit = 2.7 * g.case.noise
        power = n.idle_w + (n.max_w - n.idle_w) * b * (0.8 if hot else 1.0) * rng.uniform(1 - jit, 1 + jit)
        temp = n.temp0 + 20 * b + (rng.uniform(12, 20) if hot else 0) + rng.gauss(0, 0.7)
        throttle = 0
        if hot and rng.random() < 0.85:
            throttle |= rng.choice([0x20, 0x40, 0x60])
        if n.powercap and b > 0.5 and rng.random() < n.powercap:
            throttle |= 0x4
        util = 0.0 if (phase == "hung" and i == g.culprit) else (
            min(100.0, 97 + rng.uniform(0, 3)) if phase in ("train", "hung") else 100 * b)
        stats.append(GpuStats.model_construct(
            index=k, util_pct=util, sm_active=round(b * 0.9, 4) if g.report_sm else None,
            mem_used_bytes=60 * 2**30, temp_c=temp, power_w=power, ecc_sbe_total=0,
            ecc_dbe_total=0, xid_last=None, nvlink_crc_errors_total=0, pcie_replay_total=0,
            throttle_reasons=throttle))
    return GpuSample.model_construct(
        schema="gpu_sample/v1", event_id=f"{g.job}-gpu-{i}-{t:.1f}", event_time=_t(t + rng.uniform(0, 1)),
        cluster="indep", node_id=n.name, gpus=tuple(stats))


def _net(g: _Gen, i: int, t: float, phase: str) -> NetSample:
    rng, n = g.rng, g.nodes[i]
    rail_bps = 0.0
    if phase == "train":
        rail_bps = 3.0e9 * n.rdma_share / g.nic_slow(t) * rng.uniform(1 - 2 * g.case.noise, 1 + 2 * g.case.noise)
    elif phase == "eval":
        rail_bps = 0.05e9 * rng.uniform(0.5, 1.5)
    storage = (2.0e9 if phase == "ckpt" else 0.02e9) * rng.uniform(0.1, 2.0)
    degraded = g.case.cause == "nic" and i == g.victim and t >= g.case.onset_s
    if degraded:
        g.errs[n.name] += g.err_rate * TICK_S
    ports = []
    for p in range(n.rails + 1):
        rate = storage if p == n.rails else rail_bps
        if degraded and p == g.bad_rail:
            rate *= g.rail_frac
        g.tx[(n.name, p)] += int(rate * TICK_S)
        total = g.tx[(n.name, p)]
        errs = int(g.errs[n.name]) if degraded and p == g.bad_rail else 0
        ports.append(NetPort.model_construct(
            device=f"mlx5_{p}", port=1, state="ACTIVE", tx_bytes_total=total // 2,
            rx_bytes_total=total - total // 2, symbol_errors_total=errs, link_downed_total=0,
            rcv_errors_total=0))
    return NetSample.model_construct(
        schema="net_sample/v1", event_id=f"{g.job}-net-{i}-{t:.1f}", event_time=_t(t + rng.uniform(0, 1)),
        cluster="indep", node_id=n.name, ports=tuple(ports))


def _hang_verdict(g: _Gen, onset: float, at: float) -> HangVerdict:
    culprit = g.nodes[g.culprit].name
    return HangVerdict.model_construct(
        schema="hang_verdict/v1", event_id=f"{g.job}-hang-{onset:.0f}", event_time=_t(at),
        cluster="indep", verdict_id=f"{g.job}-hang-{onset:.0f}", job_id=g.job,
        attempt=g.attempt, onset_time=_t(onset), detected_at=_t(at),
        signals=HangSignals(log_silent=True, metrics_idle=True), source_ranks=(g.culprit * GPUS,),
        source_nodes=(culprit,), localization=(), confidence=0.9)


def _phase_at(phases: Sequence[tuple[float, float, str]], t: float) -> str:
    for a, b, k in phases:
        if a <= t < b:
            return k
    return "down"


def _lifecycle(g: _Gen, prev: str, phase: str, t: float) -> None:
    if phase == "ckpt":
        _emit_job(g, t, "checkpoint_started", g.step)
    if prev == "ckpt":
        _emit_job(g, t, "checkpoint_completed", g.step)
    if phase == "down":
        _emit_job(g, t, "failed")
        g.attempt += 1
        _emit_job(g, t + 1, "restarting")
    if phase == "train" and prev == "init":
        g.attempt_step0 = g.step
        _emit_job(g, t, "running", g.step)


def generate(case: FleetCase) -> Run:
    """All events of one case in event-time order, its truths and node labels."""
    g = _Gen(case)
    phases = _phases(g.rng, case)
    placement = tuple(Placement(rank=i * GPUS + k, node_id=n.name)
                      for i, n in enumerate(g.nodes) for k in range(GPUS))
    _emit_job(g, 0.0, "scheduled", placement=placement)
    _emit_job(g, 0.5, "initialized")
    t, next_tick, prev = 1.0, TICK_S, "init"
    while t < case.duration_s:
        phase = _phase_at(phases, t)
        if phase != prev:
            _lifecycle(g, prev, phase, t)
            if phase == "hung":
                g.events.append(_hang_verdict(g, t, t + g.rng.uniform(45, 90)))
            prev = phase
        dt = _train_step(g, t) if phase == "train" else 1.0
        while next_tick <= t + dt:
            if phase != "down":
                for i in range(case.nodes):
                    g.events += [_gpu(g, i, next_tick, phase), _net(g, i, next_tick, phase)]
            next_tick += TICK_S
        t += dt
    g.events.sort(key=lambda e: e.event_time)
    truths = [] if case.cause == "none" else [Truth(g.nodes[g.victim].name, _t(case.onset_s))]
    labels = {n.name: [x for x, on in (("last_stage", n.stage_last), ("old_gpu", n.old_model),
                                       ("low_rdma", n.rdma_share < 1), ("powercap", n.powercap > 0))
                       if on] for n in g.nodes}
    traits = [name for name, on in (
        ("pipeline", any(n.stage_last for n in g.nodes)), ("mixed_gpu", any(n.old_model for n in g.nodes)),
        ("comm_wait" if g.report_wait else "step_time_only", True),
        ("sm_active" if g.report_sm else "power_only", True),
        ("restart", case.restart_at_s is not None), ("hang", case.hang_at_s is not None)) if on]
    return Run(g.events, truths, labels, [(a, b, k) for a, b, k in phases], traits)


def phase_of(run: Run, when: datetime) -> str:
    """The phase of the job at ``when`` (for labelling false positives)."""
    return _phase_at(run.phases, (when - START).total_seconds())


def draw_slow(n: int, seed: int) -> list[FleetCase]:
    """``n`` straggler cases of 2-64 nodes: onset 8-20 min into a 25-35 min job, 1.15-2x
    (every fourth exactly 1.25x), random cause and noise (0.5-4 % per step); a third with a
    restart and a sixth with a hang before the onset or after it."""
    rng = random.Random(seed * 7919 + 1)
    out = []
    for i in range(n):
        duration = rng.uniform(1500, 2100)
        onset = rng.uniform(480, 1200)
        cause: Cause = rng.choice(["thermal", "nic", "neighbour"])
        slowdown = 1.25 if i % 4 == 0 else rng.uniform(1.15, 2.0)
        restart = rng.uniform(200, 1800) if rng.random() < 0.33 else None
        hang = rng.uniform(200, 1800) if rng.random() < 0.17 else None
        out.append(FleetCase(rng.randrange(1 << 30), rng.randint(2, 64), duration, cause,
                             round(slowdown, 3), round(onset, 1), restart, hang,
                             round(rng.uniform(0.005, 0.04), 4)))
    return out


def draw_healthy(n: int, seed: int, duration_s: float = 3600.0) -> list[FleetCase]:
    """``n`` healthy jobs of one hour and 2-64 nodes: heterogeneity, evals, checkpoints, noise
    of 0.5-4 % per step; a third restart and a sixth hang."""
    rng = random.Random(seed * 104729 + 2)
    out = []
    for _ in range(n):
        restart = rng.uniform(300, duration_s - 600) if rng.random() < 0.33 else None
        hang = rng.uniform(300, duration_s - 900) if rng.random() < 0.17 else None
        out.append(FleetCase(rng.randrange(1 << 30), rng.randint(2, 64), duration_s,
                             restart_at_s=restart, hang_at_s=hang,
                             noise=round(rng.uniform(0.005, 0.04), 4)))
    return out
