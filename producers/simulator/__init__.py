"""Fleet simulator and fault injector: deterministic, seeded, on a simulated clock.

    from producers.simulator import FleetConfig, simulate, Truth
    from producers.simulator import scenarios as sc
    run = simulate(FleetConfig(nodes=8, duration_s=1800, seed=7),
                   [sc.Hang(job=0, at_s=600, source="single")])
    run.events  # every telemetry and lifecycle event, sorted by (event_time, event_id)
    run.truth   # what was injected, where and when it really started

The simulator is pure (``schemas`` + standard library); ``output`` writes files.
"""

from producers.simulator import scenarios
from producers.simulator.config import FleetConfig, JobLayout, layouts
from producers.simulator.engine import Simulation, iter_events
from producers.simulator.output import read_truth, write_jsonl, write_truth
from producers.simulator.run import Run, simulate
from producers.simulator.truth import Truth
from producers.simulator.variation import Variation, parse_variation

__all__ = ["FleetConfig", "JobLayout", "Run", "Simulation", "Truth", "Variation", "iter_events",
           "layouts", "parse_variation", "read_truth", "scenarios", "simulate", "write_jsonl",
           "write_truth"]
