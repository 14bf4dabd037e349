"""How fast each node of a job computes over time: heterogeneity, jitter and slow nodes.

A step of a synchronous job takes the slowest rank's compute time plus a small
communication cost; a NIC-degraded node adds communication time for everyone. Factors
are multiplicative on the nominal compute time (1.0 = nominal, 1.25 = 25 % slower).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from producers.simulator.scenarios import Heterogeneity, Scenario, SlowNode

COMPUTE_SHARE = 0.92
"""Share of a nominal step spent computing; the rest is communication that cannot overlap."""


@dataclass(frozen=True)
class Slowdown:
    """One slow node of a job: from ``at_ms`` its ``cause`` makes it ``factor`` times slower."""

    node_pos: int
    at_ms: int
    factor: float
    cause: str


@dataclass(frozen=True)
class SpeedModel:
    """Per-node compute factors of one job over time, and the noise of its steps."""

    step_ms: float
    node_factors: tuple[float, ...]
    step_jitter: float
    rank_noise: float
    spike_prob: float
    slowdowns: tuple[Slowdown, ...]

    @property
    def compute_base_ms(self) -> float:
        """Nominal compute time of one step on one rank."""
        return self.step_ms * COMPUTE_SHARE

    @property
    def comm_base_ms(self) -> float:
        """Nominal non-overlapped communication time of one step."""
        return self.step_ms * (1 - COMPUTE_SHARE)

    def active(self, ms: int, cause: str) -> list[Slowdown]:
        """The slowdowns of ``cause`` in effect at ``ms``."""
        return [s for s in self.slowdowns if s.cause == cause and ms >= s.at_ms]

    def compute_factor(self, node_pos: int, ms: int) -> float:
        """Compute-time factor of the job's node ``node_pos`` at ``ms`` (thermal slowdowns)."""
        factor = self.node_factors[node_pos]
        for slow in self.active(ms, "thermal"):
            if slow.node_pos == node_pos:
                factor *= slow.factor
        return factor

    def max_factor(self, ms: int) -> float:
        """The slowest node's compute factor at ``ms``: it sets the pace of the whole job."""
        factor = max(self.node_factors)
        for slow in self.active(ms, "thermal"):
            factor = max(factor, self.node_factors[slow.node_pos] * slow.factor)
        return factor

    def comm_extra_ms(self, ms: int) -> float:
        """Extra communication time per step caused by NIC-degraded nodes at ``ms``."""
        return sum(self.step_ms * (s.factor - 1) for s in self.active(ms, "nic"))

    def throughput(self, ms: int) -> float:
        """Nominal step time over the current step time: scales the job's RDMA byte rate."""
        current = self.compute_base_ms * self.max_factor(ms) + self.comm_base_ms
        return self.step_ms / (current + self.comm_extra_ms(ms))

    def is_slow(self, node_pos: int, ms: int, cause: str) -> bool:
        """True if node ``node_pos`` suffers a slowdown of ``cause`` at ``ms``."""
        return any(s.node_pos == node_pos for s in self.active(ms, cause))


def build_speed(scenarios: Sequence[Scenario], nodes: int, step_ms: float,
                rng: random.Random) -> SpeedModel:
    """The speed model of one job from its Heterogeneity and SlowNode scenarios.

    Without Heterogeneity every node runs at 1.0 with small jitter (healthy default).
    Raises ``ValueError`` if a SlowNode names a node position outside the job.
    """
    hetero = [s for s in scenarios if isinstance(s, Heterogeneity)]
    factors = tuple(1.0 for _ in range(nodes))
    jitter, spikes = 0.005, 0.0
    if hetero:
        spread = hetero[-1].spread
        factors = tuple(1.0 + rng.uniform(-spread, spread) for _ in range(nodes))
        jitter, spikes = max(0.005, spread / 4), hetero[-1].spike_prob
    slows = tuple(_slowdown(s, nodes) for s in scenarios if isinstance(s, SlowNode))
    return SpeedModel(step_ms, factors, jitter, 0.003, spikes, slows)


def _slowdown(scenario: SlowNode, nodes: int) -> Slowdown:
    if not 0 <= scenario.node < nodes:
        raise ValueError(f"SlowNode node {scenario.node} outside the job's {nodes} nodes")
    return Slowdown(scenario.node, int(round(scenario.at_s * 1000)), scenario.slowdown,
                    scenario.cause)
