"""Healthy jobs and their look-alikes: nothing in the contract may touch them."""

from __future__ import annotations

from producers.simulator import scenarios as sc
from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun
from tests.bench.fleet_oracle import Situation
from tests.bench.fleet_situations.base import Slot, noise, restart, sbe_rise


def healthy(slot: Slot) -> tuple[JobRun, Situation]:
    """A healthy job: checkpoints, sometimes a long checkpoint, per-node heterogeneity."""
    extra: list[sc.Scenario] = []
    if slot.rng.random() < 0.5:
        extra.append(sc.LongCheckpoint(job=0, at_s=slot.rng.uniform(300, 1200), duration_s=slot.rng.uniform(60, 240)))
    job = slot.run(noise(slot) + extra)
    return job, Situation("healthy", job.job_id, f"{len(extra)} long checkpoint(s)", slot.nodes, healthy=True)


def lookalike_eval(slot: Slot) -> tuple[JobRun, Situation]:
    """A healthy job with a long evaluation phase (no steps for minutes, uneven GPU load)."""
    dur = slot.rng.uniform(120, 420)
    job = slot.run(noise(slot) + [sc.LongEval(job=0, at_s=slot.rng.uniform(400, 1000), duration_s=dur)])
    return job, Situation("lookalike_eval", job.job_id, f"eval {dur:.0f}s", slot.nodes, healthy=True)


def _structural(job: JobRun, slow_nodes: set[str], factor: float) -> None:
    """From the start, ranks on ``slow_nodes`` compute ``factor`` x longer and the whole
    synchronous job steps ``factor`` x slower (the others wait in communication)."""
    for e in job.events:
        if e["schema"] != "step_progress/v1":
            continue
        step = e["step_time_ms"] * factor
        compute = e.get("compute_ms")
        if compute is not None and e["node_id"] in slow_nodes:
            compute *= factor
        e["step_time_ms"] = round(step, 3)
        if compute is not None:
            e["compute_ms"] = round(min(compute, step), 3)
            e["comm_wait_ms"] = round(step - e["compute_ms"], 3)


def lookalike_pipeline(slot: Slot) -> tuple[JobRun, Situation]:
    """A pipeline-parallel job whose last stage (>= 2 nodes) computes 1.2-1.4x longer from the start."""
    job = slot.run(noise(slot))
    stage = max(2, slot.nodes // 4)
    factor = slot.rng.uniform(1.2, 1.4)
    _structural(job, set(job.nodes[-stage:]), factor)
    return job, Situation("lookalike_pipeline", job.job_id, f"last stage {stage} nodes x{factor:.2f}", slot.nodes,
                          healthy=True)


def lookalike_mixed(slot: Slot) -> tuple[JobRun, Situation]:
    """Mixed GPU models: a third of the nodes (>= 2) are an older model, 1.15-1.3x slower from the start."""
    job = slot.run(noise(slot))
    old = slot.rng.sample(job.nodes, max(2, slot.nodes // 3))
    factor = slot.rng.uniform(1.15, 1.3)
    _structural(job, set(old), factor)
    return job, Situation("lookalike_mixed", job.job_id, f"{len(old)} older-model nodes x{factor:.2f}", slot.nodes,
                          healthy=True)


def corrected(slot: Slot) -> tuple[JobRun, Situation]:
    """Corrected/contained errors only (EDAC CE, Xid 63/92/94 contained, AER corrected, SBE counts)
    on one or two nodes, a few each (below any lemon threshold); training goes on."""
    rng = slot.rng
    job = slot.run(noise(slot))
    said = []
    for node in rng.sample(job.nodes, min(len(job.nodes), rng.choice((1, 2)))):
        for _ in range(rng.randint(1, 3)):
            pool = rng.choice(("mce_corrected", "xid63", "xid94", "aer_corrected", "xid92"))
            gpu = rng.randrange(slot.gpus)
            text = fl.xid_line(92, gpu, None, rng) if pool == "xid92" else fl.pick(pool, rng, gpu)[1]
            at = rng.uniform(200, 1500)
            job.log(at, None, node, "kernel", text)
            said.append(f"{node} t={at:.0f}s {pool}: {text[:90]}")
    node, gpu, since = rng.choice(job.nodes), rng.randrange(slot.gpus), rng.uniform(200, 900)
    sbe_rise(job, node, gpu, since, rng.randint(1, 5))
    said.append(f"{node} gpu{gpu} ecc_sbe_total rising from t={since:.0f}s")
    return job, Situation("corrected", job.job_id, "; ".join(s.split(":")[0] for s in said), slot.nodes,
                          healthy=True, events=said)

def preempted(slot: Slot) -> tuple[JobRun, Situation]:
    """A healthy job preempted by the scheduler (failed, no fault line) and restarted: nothing to do."""
    rng = slot.rng
    job = slot.run(noise(slot))
    at = rng.uniform(400, 900)
    job.cut(at, at + 150)
    job.lifecycle(at, 0, "failed", detail="preempted by a higher-priority job (SIGTERM)")
    restart(job, at + 60, 1, 90)
    return job, Situation("preempted", job.job_id, f"preempted t={at:.0f}s, healthy attempt 1", slot.nodes,
                          healthy=True, events=[f"failed (preempted) t={at:.0f}s, restarting t={at + 60:.0f}s"])
