"""Hangs and slow nodes: a single source, no single source, a persistently slow node."""

from __future__ import annotations

from producers.simulator import scenarios as sc
from producers.simulator.scenarios import HangSource, SlowCause
from tests.bench.fleet_jobs import JobRun
from tests.bench.fleet_oracle import Need, Situation
from tests.bench.fleet_situations.base import R_IMPLICIT, R_NOT_SINGLE, R_ONE_NODE, Slot, noise, span


def hang_single(slot: Slot) -> tuple[JobRun, Situation]:
    """One rank (or a dead node) stops; the others wait; sometimes the watchdog then kills the job."""
    rng = slot.rng
    at = rng.uniform(400, 900)
    dead = rng.randrange(slot.nodes) if rng.random() < 0.3 else None
    duration = rng.choice((None, 700.0))
    job = slot.run(noise(slot) + [sc.Hang(job=0, at_s=at, source="single", dead_node=dead, duration_s=duration)])
    truth = next(t for t in job.truth if t.kind == "hang")
    culprits = frozenset(truth.node_ids)
    return job, Situation("hang_single", job.job_id,
                          f"source {sorted(culprits)} ranks {list(truth.ranks)} dead_node={dead} watchdog={duration}",
                          slot.nodes, culprits=culprits,
                          needs=[Need("replace_nodes", R_IMPLICIT, culprits, "task", 0)],
                          no_checkpoint=[span(job, at)], events=[f"hang from t={at:.0f}s"])


def hang_spread(slot: Slot) -> tuple[JobRun, Situation]:
    """No single source: everyone freezes alike (also one-node jobs) or two ranks on two nodes stop."""
    rng = slot.rng
    at = rng.uniform(400, 900)
    source: HangSource = "uniform" if slot.nodes == 1 or rng.random() < 0.5 else "two"
    job = slot.run(noise(slot) + [sc.Hang(job=0, at_s=at, source=source)])
    rule = R_ONE_NODE if slot.nodes == 1 else R_NOT_SINGLE
    truth = next(t for t in job.truth if t.kind == "hang")
    return job, Situation("hang_spread", job.job_id, f"{source} sources {list(truth.node_ids)}", slot.nodes,
                          needs=[Need("restart_in_place", rule, attempt=0)], no_checkpoint=[span(job, at)],
                          resubmit_attempts=frozenset({0}),
                          events=[f"{source} hang from t={at:.0f}s"])


def slow(slot: Slot) -> tuple[JobRun, Situation]:
    """One node becomes 1.2-1.5x slower mid-run (thermal or NIC) and stays so."""
    rng = slot.rng
    pos, at, factor = rng.randrange(slot.nodes), rng.uniform(300, 700), rng.uniform(1.2, 1.5)
    cause: SlowCause = "thermal" if rng.random() < 0.5 else "nic"
    job = slot.run(noise(slot) + [sc.SlowNode(job=0, node=pos, at_s=at, slowdown=factor, cause=cause)])
    node = job.nodes[pos]
    return job, Situation("slow_node", job.job_id, f"{node} x{factor:.2f} {cause} from t={at:.0f}s", slot.nodes,
                          culprits=frozenset({node}), needs=[Need("replace_nodes", R_IMPLICIT, frozenset({node}), "task", 0)],
                          events=[f"{node} slow x{factor:.2f} from t={at:.0f}s"])
