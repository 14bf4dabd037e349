"""Hand-built events of one synchronous training job, for the slow-node unit tests.

Each rank reports every ``every`` steps; a step lasts ``step_ms`` times the slowest node's
factor (synchronous: everyone waits for the slowest). ``factor(node, t_s)`` gives a node's
compute factor at event time ``t_s`` seconds after the start.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from schemas import (
    Event,
    GpuSample,
    GpuStats,
    JobEvent,
    NetPort,
    NetSample,
    Placement,
    SlowNode,
    StepProgress,
)
from streams.slow import SlowNodeDetector, SlowSettings

START = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
Factor = Callable[[int, float], float]


def node_name(i: int) -> str:
    """Node id of position ``i``."""
    return f"node-{i + 1:04d}"


def flat(_: int, __: float) -> float:
    """Every node at nominal speed."""
    return 1.0


@dataclass
class Job:
    """A synthetic job: size, duration, speed factors and noise."""

    nodes: int = 8
    gpus: int = 8
    duration_s: float = 900.0
    step_ms: float = 1000.0
    every: int = 10
    factor: Factor = flat
    jitter: float = 0.01
    spike_prob: float = 0.0
    compute: bool = True
    seed: int = 1
    job_id: str = "job-0000"
    spikes: dict[tuple[int, int], float] = field(default_factory=dict)

    def t(self, seconds: float) -> datetime:
        """Event time ``seconds`` after the start."""
        return START + timedelta(seconds=seconds)

    def scheduled(self) -> JobEvent:
        """The ``scheduled`` event with the placement, at the start."""
        placement = tuple(
            Placement(rank=n * self.gpus + g, node_id=node_name(n))
            for n in range(self.nodes) for g in range(self.gpus)
        )
        return JobEvent(event_id=f"{self.job_id}-sched", event_time=START, cluster="test",
                        job_id=self.job_id, attempt=0, kind="scheduled", placement=placement)

    def steps(self) -> list[Event]:
        """Step progress of every rank every ``every`` steps, in event-time order."""
        rng = random.Random(self.seed)
        out: list[Event] = []
        t, step = 0.0, 0
        while t < self.duration_s:
            factors = [self.factor(n, t) for n in range(self.nodes)]
            step_ms = self.step_ms * max(factors)
            t += step_ms / 1000
            step += 1
            if step % self.every == 0:
                out.extend(self._reports(rng, step, t, factors, step_ms))
        return out

    def _reports(self, rng: random.Random, step: int, t: float, factors: list[float],
                 step_ms: float) -> list[Event]:
        out: list[Event] = []
        for n, f in enumerate(factors):
            for g in range(self.gpus):
                rank = n * self.gpus + g
                c = 0.92 * self.step_ms * f * (1 + rng.gauss(0, self.jitter))
                if rng.random() < self.spike_prob or (rank, step) in self.spikes:
                    c *= self.spikes.get((rank, step), 3.0)
                out.append(StepProgress(
                    event_id=f"{self.job_id}-{rank}-{step}", event_time=self.t(t), cluster="test",
                    job_id=self.job_id, node_id=node_name(n), rank=rank, step=step,
                    step_time_ms=max(step_ms, c), compute_ms=c if self.compute else None,
                    comm_wait_ms=max(0.0, step_ms - c)))
        return out

    def events(self) -> list[Event]:
        """The scheduled event followed by all step reports."""
        return [self.scheduled(), *self.steps()]


def gpu_sample(node: int, t_s: float, temp: float = 65.0, power: float = 600.0,
               throttle: int = 0, gpus: int = 8) -> GpuSample:
    """A GPU sample of one node with identical GPUs."""
    stats = tuple(
        GpuStats(index=i, util_pct=99.0, sm_active=0.9, mem_used_bytes=1, temp_c=temp,
                 power_w=power, ecc_sbe_total=0, ecc_dbe_total=0, nvlink_crc_errors_total=0,
                 pcie_replay_total=0, throttle_reasons=throttle)
        for i in range(gpus)
    )
    return GpuSample(event_id=f"gpu-{node}-{t_s}", event_time=START + timedelta(seconds=t_s),
                     cluster="test", node_id=node_name(node), gpus=stats)


def net_sample(node: int, t_s: float, total: int, ports: int = 2) -> NetSample:
    """A net sample whose every port has ``total`` tx and ``total`` rx bytes."""
    p = tuple(
        NetPort(device=f"mlx5_{i}", port=1, state="ACTIVE", tx_bytes_total=total,
                rx_bytes_total=total, symbol_errors_total=0, link_downed_total=0,
                rcv_errors_total=0)
        for i in range(ports)
    )
    return NetSample(event_id=f"net-{node}-{t_s}", event_time=START + timedelta(seconds=t_s),
                     cluster="test", node_id=node_name(node), ports=p)


def run_detector(events: Iterable[Event], settings: SlowSettings | None = None) -> list[SlowNode]:
    """Feed ``events`` in order to one job state, flush a minute after the last; the outputs."""
    detector = SlowNodeDetector(settings)
    state = detector.initial()
    out: list[Event] = []
    last = None
    for event in events:
        state, emitted = detector.step(state, event)
        out.extend(emitted)
        last = event.event_time
    if last is not None:
        state, emitted = detector.flush(state, last + timedelta(seconds=60))
        out.extend(emitted)
    assert all(isinstance(e, SlowNode) for e in out)
    return [e for e in out if isinstance(e, SlowNode)]
