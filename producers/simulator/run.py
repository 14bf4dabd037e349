"""A finished, in-memory simulated run: its events and its ground truth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from producers.simulator import output
from producers.simulator.config import FleetConfig
from producers.simulator.engine import Simulation
from producers.simulator.scenarios import Scenario
from producers.simulator.truth import Truth
from schemas import Event


@dataclass(frozen=True)
class Run:
    """Events sorted by ``(event_time, event_id)`` and the truth of what was injected."""

    config: FleetConfig
    events: list[Event]
    truth: list[Truth]

    def meta(self) -> dict[str, Any]:
        """A JSON-ready summary of the run's settings, stored beside the truth."""
        c = self.config
        return {"cluster": c.cluster, "seed": c.seed, "nodes": c.nodes, "jobs": c.jobs,
                "gpus_per_node": c.gpus_per_node, "duration_s": c.duration_s,
                "start": c.start_utc.isoformat().replace("+00:00", "Z"),
                "events": len(self.events)}

    def write_jsonl(self, path: str | Path) -> int:
        """Write the events as JSON lines; returns how many."""
        return output.write_jsonl(self.events, path)

    def write_truth(self, path: str | Path) -> None:
        """Write the ground truth as a JSON document (see ``output.write_truth``)."""
        output.write_truth(self.truth, path, self.meta())


def simulate(config: FleetConfig, scenarios: Sequence[Scenario] = ()) -> Run:
    """Run the whole simulation in memory. Raises ``ValueError`` for misfit scenarios."""
    sim = Simulation(config, scenarios)
    return Run(config, list(sim.events()), list(sim.truth))
