"""What every situation family shares: the contract rows quoted, the job slot, and the edits
that inject a fault (real lines, cascades, cut telemetry, restarts, port and ECC counters).

Times are seconds after the job's simulated start; every run lasts ``DURATION_S``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from producers.simulator import FleetConfig, Variation
from producers.simulator import scenarios as sc
from producers.simulator.config import DEFAULT_START
from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun, Json, iso, simulated
from tests.bench.fleet_oracle import Situation

DURATION_S = 1800.0
R_NODE_FAULT = "root cause on one node, blame node -> replace_nodes [that node], block_scope cluster"
R_NODE_ERROR = "level error, action reset_gpu/reboot_node -> replace_nodes [that node] cluster, plus drain_reboot_nodes [that node]"
R_NIC = "node-local NIC or port fault -> replace_nodes [that node], block_scope cluster"
R_FABRIC = "fabric-wide network fault (several nodes' ports, a switch) -> restart_in_place + notify"
R_IMPLICIT = "single node, implicit (hang source or persistent slow node) -> replace_nodes [that node], block_scope task"
R_NOT_SINGLE = "not single-point (hang with no localisation, several nodes) -> restart_in_place"
R_ONE_NODE = "a one-node job whose ranks all froze alike -> restart_in_place"
R_RESTART_FAILED = "a restart_in_place did not bring the job back to progress -> resubmit_job (reason restart_failed)"
R_REPEAT = "the same job-blamed root cause in two consecutive attempts -> stop_job + notify"
FATAL_XIDS = (79, 48, 74, 119)
ERROR_LEVEL_XIDS = frozenset({119, 154})
"""Xids whose category is level ``error`` with a reset/reboot action: 119 (gpu_gsp_timeout, catalog
RESET_GPU) and 154 (gpu_reset_required, its own 'GPU Reset Required'); 74 is level error too but its
catalog bucket is a workflow, so drain is allowed there, not required (see D2_findings.md)."""
CUDA_AFTER_XID = {79: "RuntimeError: CUDA error: unknown error",
                  48: "RuntimeError: CUDA error: uncorrectable ECC error encountered",
                  74: "RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution",
                  119: "RuntimeError: CUDA error: unknown error"}
USER_POOLS = ("nccl_user_error", "process_crash", "illegal_memory", "cuda_oom")


@dataclass
class Slot:
    """Where a job goes: its fleet index, first node number - 1, size, GPUs, step time, seed."""

    index: int
    node_offset: int
    nodes: int
    gpus: int
    step_s: float
    rng: random.Random

    def config(self, variation: Variation | None = None) -> FleetConfig:
        """The simulator settings of this job (one job on all its nodes, a seeded start)."""
        start = DEFAULT_START + timedelta(seconds=self.rng.uniform(0, 120))
        return FleetConfig(nodes=self.nodes, gpus_per_node=self.gpus, jobs=1, duration_s=DURATION_S,
                           seed=self.rng.randrange(1 << 30), step_time_s=self.step_s, start=start,
                           checkpoint_every_s=self.rng.choice((300.0, 600.0, 900.0)),
                           variation=variation or self.variation())

    def variation(self) -> Variation:
        """A mild telemetry variation of real fleets (never a clock skew: not this brief's subject)."""
        return self.rng.choice((Variation(), Variation(sm_active=False), Variation(announce=False),
                                Variation(async_checkpoint=True), Variation(checkpoint_writer="rank0"),
                                Variation(waiter_frames="real"), Variation(storage_port=True)))

    def run(self, scenarios: list[sc.Scenario], variation: Variation | None = None) -> JobRun:
        """Simulate the job with ``scenarios``."""
        return simulated(self.config(variation), scenarios, self.index, self.node_offset)


Builder = Callable[[Slot], tuple[JobRun, Situation]]


def noise(slot: Slot) -> list[sc.Scenario]:
    return [sc.Heterogeneity(job=0, spread=slot.rng.uniform(0.01, 0.05))] if slot.rng.random() < 0.7 else []



def sbe_rise(job: JobRun, node: str, gpu: int, since_s: float, per_sample: int) -> None:
    t, added = iso(job.at(since_s)), 0
    for e in job.events:
        if e["schema"] == "gpu_sample/v1" and e["node_id"] == node and e["event_time"] >= t:
            added += per_sample
            for g in e["gpus"]:
                if g["index"] == gpu:
                    g["ecc_sbe_total"] += added


def cascade(job: JobRun, at: float, culprit: str, attempt: int | None, count: int) -> list[str]:
    """Real NCCL cascade lines on ``count`` peer ranks (other nodes than ``culprit``)."""
    rng, said = job_rng(job), []
    peers = [r for r in range(len(job.nodes) * job.gpus) if job.node_of(r) != culprit]
    for rank in rng.sample(peers, min(count, len(peers))):
        src, text = fl.pick(rng.choice(("cascade_nccl", "cascade_remote", "cascade_timeout")), rng)
        t = at + rng.uniform(1, 40)
        job.log(t, rank, job.node_of(rank), src if src in ("nccl", "training") else "nccl", text, attempt)
        said.append(f"cascade rank {rank} ({job.node_of(rank)}) t={t:.0f}s: {text[:80]}")
    return said


_RNGS: dict[str, random.Random] = {}


def job_rng(job: JobRun) -> random.Random:
    """The job's own generator for added lines (seeded by the job's first event id)."""
    return _RNGS.setdefault(job.job_id + job.events[0]["event_id"], random.Random(job.events[0]["event_id"]))


def xid_failure(job: JobRun, xid: int, pos: int, gpu: int, at: float, attempt: int,
                 beyond_window: bool = False, until: float | None = None) -> list[str]:
    """Xid ``xid`` on the job's node ``pos``: the NVRM line delivered late (``beyond_window``:
    later than replay's 300 s reorder window, as after a node agent's spool is flushed), the CUDA
    error of the rank, cascades on peers, torchrun's failure and ``failed``; the attempt dies
    (no live-process event until ``until``, when the next attempt runs; None: never again)."""
    rng, node = job_rng(job), job.nodes[pos]
    rank = pos * job.gpus + gpu
    job.cut(at, until)
    late = rng.uniform(310, 420) if beyond_window else rng.uniform(3, 90)
    text = fl.xid_line(xid, gpu, 4000 + rank, rng)
    job.log(at, None, node, "kernel", text, deliver_s=late)
    said = [f"{node} t={at:.0f}s (delivered {late:.0f}s late) {text[:100]}"]
    job.log(at + rng.uniform(0.2, 2), rank, node, "training", CUDA_AFTER_XID[xid], rng.choice((attempt, None)))
    said += cascade(job, at, node, rng.choice((attempt, None)), rng.randint(2, 6))
    src, text = fl.pick("elastic", rng)
    job.log(at + 45, 0, job.nodes[0], "training", text, attempt)
    job.lifecycle(at + 50, attempt, "failed", detail=f"rank {rank} exited with code 1")
    return said


def xid_windows(job: JobRun, xid: int, at: float, until: float | None) -> Json:
    """The checkpoint windows of a fatal Xid at ``at`` until the next attempt runs (``until``):
    79 loses the GPU at once; the others kill the rank within seconds (a doubt) and the job is
    reported failed 50 s later (``_xid_failure``)."""
    end = iso(job.at(until)) if until is not None else "9999"
    if xid == 79:
        return {"no_checkpoint": [(iso(job.at(at)), end)], "checkpoint_doubt": []}
    return {"no_checkpoint": [(iso(job.at(at + 50)), end)], "checkpoint_doubt": [(iso(job.at(at)), iso(job.at(at + 50)))]}


def merge(a: Json, b: Json) -> Json:
    return {k: [*a.get(k, []), *b.get(k, [])] for k in ("no_checkpoint", "checkpoint_doubt")}


def span(job: JobRun, at: float, until: float | None = None) -> tuple[str, str]:
    return iso(job.at(at)), iso(job.at(until)) if until is not None else "9999"



def port_down(job: JobRun, node: str, port: int, at: float, down_for_s: float | None, errors: int) -> None:
    t0 = iso(job.at(at))
    t1 = iso(job.at(at + down_for_s)) if down_for_s is not None else "9999"
    for e in job.events:
        if e["schema"] == "net_sample/v1" and e["node_id"] == node and e["event_time"] >= t0:
            p = e["ports"][port % len(e["ports"])]
            p["link_downed_total"] += 1
            p["symbol_errors_total"] += errors
            if e["event_time"] < t1:
                p["state"] = "DOWN"



def user_failure(job: JobRun, pool: str, at: float, attempt: int, late_copy: bool,
                  until: float | None = None) -> list[str]:
    """The job's own error on one rank, torchrun's failure, ``failed``; the attempt dies (no
    live-process event until ``until``, when the next attempt runs; None: never again)."""
    rng = job_rng(job)
    rank = rng.randrange(len(job.nodes) * job.gpus)
    job.cut(at, until)
    src, text = fl.pick(pool, rng, rank % job.gpus)
    src = src if src in ("nccl", "training") else "training"
    job.log(at, rank, job.node_of(rank), src, text, rng.choice((attempt, None)))
    said = [f"attempt {attempt} t={at:.0f}s rank {rank} {pool}: {text[:90]}"]
    if late_copy:
        other = rng.randrange(len(job.nodes) * job.gpus)
        job.log(at + 1.5, other, job.node_of(other), src, text, None, deliver_s=400)
        said.append(f"attempt {attempt} copy on rank {other} t={at + 1.5:.0f}s delivered 400s late (no attempt field)")
    e_src, e_text = fl.pick("elastic", rng)
    job.log(at + 5, 0, job.nodes[0], "training", e_text, attempt)
    job.lifecycle(at + 10, attempt, "failed", detail=f"rank {rank} exited with code 1")
    return said


def restart(job: JobRun, at: float, attempt: int, resume_after_s: float) -> None:
    """torchrun restarts the job in place as ``attempt``: restarting, then running after ``resume_after_s``."""
    step = job.last_step(at)
    job.cut(at, at + resume_after_s)
    job.lifecycle(at, attempt, "restarting", detail="restart in place")
    job.lifecycle(at + resume_after_s, attempt, "running", step=step)



def spare_restart(job: JobRun, slot: Slot, old: str, at: float, attempt: int, nth: int = 1) -> float:
    """The scheduler restarts the job as ``attempt`` at ``at`` with ``old`` swapped for the
    ``nth`` spare node; returns when the new attempt runs."""
    spare = f"node-{slot.node_offset + slot.nodes + nth:04d}"
    step = job.last_step(at)
    job.rename_node(old, spare, at)
    job.cut(at, at + 60)
    job.lifecycle(at, attempt, "restarting", detail="resubmitted without " + old)
    job.lifecycle(at + 5, attempt, "scheduled", placement=True)
    job.lifecycle(at + 60, attempt, "running", step=step)
    return at + 60
