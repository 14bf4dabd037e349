"""Checks that scenarios fit the fleet they are injected into, before anything runs."""

from __future__ import annotations

from collections.abc import Sequence

from producers.simulator.builder import resolve_node
from producers.simulator.config import FleetConfig, node_id
from producers.simulator.scenarios import SCENARIO_TYPES, Hang, Oom, Scenario, SlowNode, Xid


def _check_job(config: FleetConfig, scenario: Scenario) -> None:
    job = getattr(scenario, "job", None)
    if job is not None and not 0 <= job < config.jobs:
        raise ValueError(f"{scenario}: job {job} outside 0..{config.jobs - 1}")


def _check_ranks(config: FleetConfig, scenario: Scenario) -> None:
    world = config.job_nodes * config.gpus_per_node
    ranks: tuple[int, ...] = ()
    if isinstance(scenario, Oom):
        ranks = (scenario.rank,)
    elif isinstance(scenario, Hang) and scenario.ranks is not None:
        ranks = scenario.ranks
    if any(not 0 <= r < world for r in ranks):
        raise ValueError(f"{scenario}: rank outside 0..{world - 1}")
    if isinstance(scenario, Hang) and scenario.source == "two" and config.job_nodes < 2:
        raise ValueError(f"{scenario}: a two-source hang needs a job of at least 2 nodes")
    if isinstance(scenario, Hang) and scenario.dead_node is not None and \
            not 0 <= scenario.dead_node < config.job_nodes:
        raise ValueError(f"{scenario}: dead_node outside 0..{config.job_nodes - 1}")
    if isinstance(scenario, SlowNode) and not 0 <= scenario.node < config.job_nodes:
        raise ValueError(f"{scenario}: node outside 0..{config.job_nodes - 1}")


def _check_xid(config: FleetConfig, scenario: Xid) -> None:
    valid = {node_id(i) for i in range(config.nodes)}
    if resolve_node(scenario.node) not in valid:
        raise ValueError(f"{scenario}: no such node")
    if not 0 <= scenario.gpu < config.gpus_per_node:
        raise ValueError(f"{scenario}: gpu outside 0..{config.gpus_per_node - 1}")


def check_scenarios(config: FleetConfig, scenarios: Sequence[Scenario]) -> None:
    """Raise ``ValueError`` naming the first scenario that does not fit ``config``."""
    for s in scenarios:
        if not isinstance(s, SCENARIO_TYPES):
            raise ValueError(f"not a scenario: {s!r}")
        _check_job(config, s)
        _check_ranks(config, s)
        if isinstance(s, Xid):
            _check_xid(config, s)
