"""The situations of the decision fleets (brief D2): one job each, with the contract's verdict.

Every builder takes a :class:`Slot` (where and how big the job is, its seeded generator) and
returns the job's events (:class:`~tests.bench.fleet_jobs.JobRun`) and its
:class:`~tests.bench.fleet_oracle.Situation`. The expectations quote TAXONOMY.md's restart
policy table. Those of the first commit were written before reading the policy code (brief D2,
blindness rules); ``preempted``, ``user_nonconsecutive``, ``cascade_then_user`` and ``nic_counters``
were added after reading it, their expectations still taken from the contract text only.
Times are seconds after the job's simulated start; every run lasts ``DURATION_S``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from producers.simulator import FleetConfig, Variation
from producers.simulator import scenarios as sc
from producers.simulator.config import DEFAULT_START
from producers.simulator.scenarios import HangSource, SlowCause
from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun, Json, iso, simulated
from tests.bench.fleet_oracle import Need, Situation

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


def _noise(slot: Slot) -> list[sc.Scenario]:
    return [sc.Heterogeneity(job=0, spread=slot.rng.uniform(0.01, 0.05))] if slot.rng.random() < 0.7 else []


def healthy(slot: Slot) -> tuple[JobRun, Situation]:
    """A healthy job: checkpoints, sometimes a long checkpoint, per-node heterogeneity."""
    extra: list[sc.Scenario] = []
    if slot.rng.random() < 0.5:
        extra.append(sc.LongCheckpoint(job=0, at_s=slot.rng.uniform(300, 1200), duration_s=slot.rng.uniform(60, 240)))
    job = slot.run(_noise(slot) + extra)
    return job, Situation("healthy", job.job_id, f"{len(extra)} long checkpoint(s)", slot.nodes, healthy=True)


def lookalike_eval(slot: Slot) -> tuple[JobRun, Situation]:
    """A healthy job with a long evaluation phase (no steps for minutes, uneven GPU load)."""
    dur = slot.rng.uniform(120, 420)
    job = slot.run(_noise(slot) + [sc.LongEval(job=0, at_s=slot.rng.uniform(400, 1000), duration_s=dur)])
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
    job = slot.run(_noise(slot))
    stage = max(2, slot.nodes // 4)
    factor = slot.rng.uniform(1.2, 1.4)
    _structural(job, set(job.nodes[-stage:]), factor)
    return job, Situation("lookalike_pipeline", job.job_id, f"last stage {stage} nodes x{factor:.2f}", slot.nodes,
                          healthy=True)


def lookalike_mixed(slot: Slot) -> tuple[JobRun, Situation]:
    """Mixed GPU models: a third of the nodes (>= 2) are an older model, 1.15-1.3x slower from the start."""
    job = slot.run(_noise(slot))
    old = slot.rng.sample(job.nodes, max(2, slot.nodes // 3))
    factor = slot.rng.uniform(1.15, 1.3)
    _structural(job, set(old), factor)
    return job, Situation("lookalike_mixed", job.job_id, f"{len(old)} older-model nodes x{factor:.2f}", slot.nodes,
                          healthy=True)


def corrected(slot: Slot) -> tuple[JobRun, Situation]:
    """Corrected/contained errors only (EDAC CE, Xid 63/92/94 contained, AER corrected, SBE counts)
    on one or two nodes, a few each (below any lemon threshold); training goes on."""
    rng = slot.rng
    job = slot.run(_noise(slot))
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
    _sbe_rise(job, node, gpu, since, rng.randint(1, 5))
    said.append(f"{node} gpu{gpu} ecc_sbe_total rising from t={since:.0f}s")
    return job, Situation("corrected", job.job_id, "; ".join(s.split(":")[0] for s in said), slot.nodes,
                          healthy=True, events=said)


def _sbe_rise(job: JobRun, node: str, gpu: int, since_s: float, per_sample: int) -> None:
    t, added = iso(job.at(since_s)), 0
    for e in job.events:
        if e["schema"] == "gpu_sample/v1" and e["node_id"] == node and e["event_time"] >= t:
            added += per_sample
            for g in e["gpus"]:
                if g["index"] == gpu:
                    g["ecc_sbe_total"] += added


def _cascade(job: JobRun, at: float, culprit: str, attempt: int | None, count: int) -> list[str]:
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


def _xid_failure(job: JobRun, xid: int, pos: int, gpu: int, at: float, attempt: int,
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
    said += _cascade(job, at, node, rng.choice((attempt, None)), rng.randint(2, 6))
    src, text = fl.pick("elastic", rng)
    job.log(at + 45, 0, job.nodes[0], "training", text, attempt)
    job.lifecycle(at + 50, attempt, "failed", detail=f"rank {rank} exited with code 1")
    return said


def _xid_windows(job: JobRun, xid: int, at: float, until: float | None) -> Json:
    """The checkpoint windows of a fatal Xid at ``at`` until the next attempt runs (``until``):
    79 loses the GPU at once; the others kill the rank within seconds (a doubt) and the job is
    reported failed 50 s later (``_xid_failure``)."""
    end = iso(job.at(until)) if until is not None else "9999"
    if xid == 79:
        return {"no_checkpoint": [(iso(job.at(at)), end)], "checkpoint_doubt": []}
    return {"no_checkpoint": [(iso(job.at(at + 50)), end)], "checkpoint_doubt": [(iso(job.at(at)), iso(job.at(at + 50)))]}


def _merge(a: Json, b: Json) -> Json:
    return {k: [*a.get(k, []), *b.get(k, [])] for k in ("no_checkpoint", "checkpoint_doubt")}


def _span(job: JobRun, at: float, until: float | None = None) -> tuple[str, str]:
    return iso(job.at(at)), iso(job.at(until)) if until is not None else "9999"


def hw_fault(slot: Slot) -> tuple[JobRun, Situation]:
    """A real hardware fault (Xid 79/48/74/119/154) on one node with cascades on its peers."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    xid, pos, gpu, at = rng.choice(FATAL_XIDS + (154,)), rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(500, 900)
    node = job.nodes[pos]
    needs = [Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0)]
    if xid in ERROR_LEVEL_XIDS:
        needs.append(Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({node}), None, 0))
    if xid == 154:
        text = fl.xid_line(154, gpu, None, rng)
        job.log(at, None, node, "kernel", text, deliver_s=rng.uniform(3, 60))
        said, windows = [f"{node} t={at:.0f}s {text[:100]} (job keeps training)"], {}
    else:
        beyond = rng.random() < 0.35
        said = _xid_failure(job, xid, pos, gpu, at, 0, beyond)
        windows = _xid_windows(job, xid, at, None)
    return job, Situation("hw_fault", job.job_id, f"xid {xid} on {node}" + (" NVRM line >300s late" if xid != 154 and beyond else ""), slot.nodes, culprits=frozenset({node}),
                          needs=needs, events=said, **windows)


def _port_down(job: JobRun, node: str, port: int, at: float, down_for_s: float | None, errors: int) -> None:
    t0 = iso(job.at(at))
    t1 = iso(job.at(at + down_for_s)) if down_for_s is not None else "9999"
    for e in job.events:
        if e["schema"] == "net_sample/v1" and e["node_id"] == node and e["event_time"] >= t0:
            p = e["ports"][port % len(e["ports"])]
            p["link_downed_total"] += 1
            p["symbol_errors_total"] += errors
            if e["event_time"] < t1:
                p["state"] = "DOWN"


def nic_local(slot: Slot) -> tuple[JobRun, Situation]:
    """One node's IB port (or bond link) goes down; its ranks and peers report NCCL errors; the job fails."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    pos, at = rng.randrange(slot.nodes), rng.uniform(500, 900)
    node = job.nodes[pos]
    job.cut(at)
    _port_down(job, node, rng.randrange(4), at, None, rng.randint(0, 50))
    src, text = fl.pick(rng.choice(("ib_port_down", "net_link_down")), rng)
    job.log(at, pos * slot.gpus if src in ("nccl", "training") else None, node, src, text, 0, deliver_s=rng.uniform(0, 30))
    said = [f"{node} port down from t={at:.0f}s (net_sample state DOWN, link_downed+1); {src}: {text[:80]}"]
    for rank in range(pos * slot.gpus, pos * slot.gpus + min(2, slot.gpus)):
        _, t = fl.pick("ib_completion", rng)
        job.log(at + rng.uniform(0.5, 5), rank, node, "nccl", t, rng.choice((0, None)))
    said += _cascade(job, at, node, None, rng.randint(1, 4))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: remote process exited or there was a network error")
    return job, Situation("nic_local", job.job_id, f"port down on {node}", slot.nodes, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NIC, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[_span(job, at + 60)], events=said)


def nic_counters(slot: Slot) -> tuple[JobRun, Situation]:
    """'link_downed rising on one node': one node's port DOWN in net_sample and its ranks' NCCL IB
    errors, no kernel/system line at all; the job fails."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    pos, at = rng.randrange(slot.nodes), rng.uniform(500, 900)
    node = job.nodes[pos]
    job.cut(at)
    _port_down(job, node, rng.randrange(4), at, None, rng.randint(0, 50))
    for rank in range(pos * slot.gpus, pos * slot.gpus + min(2, slot.gpus)):
        _, t = fl.pick("ib_completion", rng)
        job.log(at + rng.uniform(0.5, 5), rank, node, "nccl", t, rng.choice((0, None)))
    said = [f"{node} port DOWN, link_downed+1 from t={at:.0f}s (counters only)"]
    said += _cascade(job, at, node, None, rng.randint(1, 4))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: remote process exited or there was a network error")
    return job, Situation("nic_counters", job.job_id, f"port down on {node}, counters only", slot.nodes,
                          culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NIC, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[_span(job, at + 60)], events=said)


def fabric(slot: Slot) -> tuple[JobRun, Situation]:
    """A switch fault: ports of several nodes (>= 3, >= half) flap, NCCL IB errors everywhere; the job fails."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    hit = rng.sample(job.nodes, max(3, slot.nodes // 2))
    at = rng.uniform(500, 900)
    job.cut(at)
    port = rng.randrange(4)
    for node in hit:
        _port_down(job, node, port, at + rng.uniform(0, 3), rng.uniform(5, 20), rng.randint(100, 5000))
        rank = job.nodes.index(node) * slot.gpus + rng.randrange(slot.gpus)
        s, t = fl.pick(rng.choice(("ib_completion", "ib_async_port_error")), rng)
        job.log(at + rng.uniform(1, 10), rank, node, "nccl", t, rng.choice((0, None)))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: unhandled system error")
    return job, Situation("fabric", job.job_id, f"{len(hit)} nodes' port {port} flap", slot.nodes,
                          needs=[Need("restart_in_place", R_FABRIC, attempt=0), Need("notify", R_FABRIC, attempt=0)],
                          resubmit_attempts=frozenset({0}), cascade_is_evidence=True,
                          no_checkpoint=[_span(job, at + 60)], events=[f"ports flap on {sorted(hit)} t={at:.0f}s"])


def _user_failure(job: JobRun, pool: str, at: float, attempt: int, late_copy: bool,
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


def _restart(job: JobRun, at: float, attempt: int, resume_after_s: float) -> None:
    """torchrun restarts the job in place as ``attempt``: restarting, then running after ``resume_after_s``."""
    step = job.last_step(at)
    job.cut(at, at + resume_after_s)
    job.lifecycle(at, attempt, "restarting", detail="restart in place")
    job.lifecycle(at + resume_after_s, attempt, "running", step=step)


def _user(slot: Slot, name: str) -> tuple[JobRun, Situation]:
    rng = slot.rng
    job = slot.run(_noise(slot))
    first = "cuda_oom" if name == "oom" else rng.choice(USER_POOLS)
    at = rng.uniform(400, 700)
    said = _user_failure(job, first, at, 0, late_copy=rng.random() < 0.6, until=at + 90)
    _restart(job, at + 30, 1, 60)
    sit = Situation(name, job.job_id, first, slot.nodes, no_checkpoint=[_span(job, at, at + 90)])
    if name in ("user_repeat", "user_different"):
        second = first if name == "user_repeat" else rng.choice([p for p in USER_POOLS if p != first])
        at2 = at + 90 + rng.uniform(200, 500)
        said += _user_failure(job, second, at2, 1, late_copy=False)
        sit.no_checkpoint.append(_span(job, at2))
        sit.variant = f"{first} then {second}"
        if name == "user_repeat":
            sit.needs = [Need("stop_job", R_REPEAT, attempt=1), Need("notify", R_REPEAT)]
            sit.stop_attempts = frozenset({1})
    sit.events = said
    return job, sit


def user_once(slot: Slot) -> tuple[JobRun, Situation]:
    """The job's own error once (attempt 0), then a healthy attempt 1; a late copy of the error."""
    return _user(slot, "user_once")


def user_repeat(slot: Slot) -> tuple[JobRun, Situation]:
    """The same job-blamed error in attempts 0 and 1: stop_job + notify."""
    return _user(slot, "user_repeat")


def user_different(slot: Slot) -> tuple[JobRun, Situation]:
    """Two different job-blamed errors in attempts 0 and 1: no stop_job."""
    return _user(slot, "user_different")


def oom(slot: Slot) -> tuple[JobRun, Situation]:
    """CUDA out of memory once, then a healthy attempt 1."""
    return _user(slot, "oom")


def two_hw(slot: Slot) -> tuple[JobRun, Situation]:
    """Two different hardware faults on two nodes in two attempts (the first node replaced by a spare)."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    xa, xb = rng.sample(FATAL_XIDS, 2)
    pa, pb = rng.sample(range(slot.nodes), 2)
    a, b = job.nodes[pa], job.nodes[pb]
    spare = f"node-{slot.node_offset + slot.nodes + 1:04d}"
    at = rng.uniform(400, 600)
    said = _xid_failure(job, xa, pa, rng.randrange(slot.gpus), at, 0, until=at + 180)
    restart = at + 120
    step = job.last_step(at)
    job.rename_node(a, spare, restart)
    job.lifecycle(restart, 1, "restarting", detail="resubmitted without " + a)
    job.lifecycle(restart + 5, 1, "scheduled", placement=True)
    job.lifecycle(restart + 60, 1, "running", step=step)
    at2 = restart + 60 + rng.uniform(300, 600)
    said += _xid_failure(job, xb, pb, rng.randrange(slot.gpus), at2, 1)
    needs = [Need("replace_nodes", R_NODE_FAULT, frozenset({a}), "cluster", 0),
             Need("replace_nodes", R_NODE_FAULT, frozenset({b}), "cluster", 1)]
    needs += [Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({n}), None, k)
              for k, (x, n) in enumerate(((xa, a), (xb, b))) if x in ERROR_LEVEL_XIDS]
    return job, Situation("two_hw", job.job_id, f"xid {xa} on {a}, then xid {xb} on {b} (spare {spare})", slot.nodes + 1,
                          culprits=frozenset({a, b}), needs=needs, events=said,
                          **_merge(_xid_windows(job, xa, at, restart + 60), _xid_windows(job, xb, at2, None)))


def _spare_restart(job: JobRun, slot: Slot, old: str, at: float, attempt: int) -> float:
    """The scheduler restarts the job as ``attempt`` at ``at`` with ``old`` swapped for a spare
    node; returns when the new attempt runs."""
    spare = f"node-{slot.node_offset + slot.nodes + 1:04d}"
    step = job.last_step(at)
    job.rename_node(old, spare, at)
    job.cut(at, at + 60)
    job.lifecycle(at, attempt, "restarting", detail="resubmitted without " + old)
    job.lifecycle(at + 5, attempt, "scheduled", placement=True)
    job.lifecycle(at + 60, attempt, "running", step=step)
    return at + 60


def cascade_then_user(slot: Slot) -> tuple[JobRun, Situation]:
    """Attempt 0: Xid 79 on one node, CUDA 'illegal memory access' on peers (cascade, 'CUDA
    errors on peers'); attempt 1 (node swapped): the job's own illegal memory access once.
    Not the same job-blamed root cause twice: no stop_job."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    pos = rng.randrange(slot.nodes)
    node = job.nodes[pos]
    at = rng.uniform(400, 600)
    said = _xid_failure(job, 79, pos, rng.randrange(slot.gpus), at, 0, until=at + 180)
    peers = [r for r in range(slot.nodes * slot.gpus) if job.node_of(r) != node]
    for rank in rng.sample(peers, min(2, len(peers))):
        _, text = fl.pick("illegal_memory", rng)
        job.log(at + rng.uniform(1, 6), rank, job.node_of(rank), "training", text, rng.choice((0, None)))
        said.append(f"attempt 0 peer rank {rank}: {text[:80]} (cascade of the Xid 79)")
    resumed = _spare_restart(job, slot, node, at + 120, 1)
    at2 = resumed + rng.uniform(200, 500)
    said += _user_failure(job, "illegal_memory", at2, 1, late_copy=False)
    return job, Situation("cascade_then_user", job.job_id, f"xid 79 on {node} + peer CUDA errors, then own bug",
                          slot.nodes + 1, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[_span(job, at, at + 180), _span(job, at2)], events=said)


def user_nonconsecutive(slot: Slot) -> tuple[JobRun, Situation]:
    """The job's own error in attempt 0, a hardware fault in attempt 1, the same own error in
    attempt 2: not 'two consecutive attempts', no stop_job."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    pool = rng.choice(USER_POOLS)
    at = rng.uniform(300, 400)
    said = _user_failure(job, pool, at, 0, late_copy=False, until=at + 90)
    _restart(job, at + 30, 1, 60)
    pos = rng.randrange(slot.nodes)
    node, xid = job.nodes[pos], rng.choice(FATAL_XIDS)
    at1 = at + 90 + rng.uniform(150, 300)
    said += _xid_failure(job, xid, pos, rng.randrange(slot.gpus), at1, 1, until=at1 + 180)
    resumed = _spare_restart(job, slot, node, at1 + 120, 2)
    at2 = resumed + rng.uniform(150, 300)
    said += _user_failure(job, pool, at2, 2, late_copy=False)
    needs = [Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 1)]
    if xid in ERROR_LEVEL_XIDS:
        needs.append(Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({node}), None, 1))
    return job, Situation("user_nonconsecutive", job.job_id, f"{pool}; xid {xid} on {node}; {pool}", slot.nodes + 1,
                          culprits=frozenset({node}), needs=needs, events=said,
                          **_merge({"no_checkpoint": [_span(job, at, at + 90), _span(job, at2)], "checkpoint_doubt": []},
                                   _xid_windows(job, xid, at1, at1 + 180)))


def preempted(slot: Slot) -> tuple[JobRun, Situation]:
    """A healthy job preempted by the scheduler (failed, no fault line) and restarted: nothing to do."""
    rng = slot.rng
    job = slot.run(_noise(slot))
    at = rng.uniform(400, 900)
    job.cut(at, at + 150)
    job.lifecycle(at, 0, "failed", detail="preempted by a higher-priority job (SIGTERM)")
    _restart(job, at + 60, 1, 90)
    return job, Situation("preempted", job.job_id, f"preempted t={at:.0f}s, healthy attempt 1", slot.nodes,
                          healthy=True, events=[f"failed (preempted) t={at:.0f}s, restarting t={at + 60:.0f}s"])


def failed_restart(slot: Slot) -> tuple[JobRun, Situation]:
    """A cause whose row is restart_in_place; the restarted attempt never progresses."""
    if slot.nodes >= 4 and slot.rng.random() < 0.5:
        return _fabric_failed_restart(slot)
    rng = slot.rng
    at = rng.uniform(400, 700)
    job = slot.run(_noise(slot) + [sc.Hang(job=0, at_s=at, source="uniform")])
    restart = at + 480
    step = job.last_step(at)
    job.lifecycle(restart, 1, "restarting", detail="restart in place")
    job.lifecycle(restart + 40, 1, "running", step=step)
    rule = R_ONE_NODE if slot.nodes == 1 else R_NOT_SINGLE
    return job, Situation("failed_restart", job.job_id, f"uniform hang t={at:.0f}s, restart t={restart:.0f}s stays hung",
                          slot.nodes, needs=[Need("restart_in_place", rule, attempt=0),
                                             Need("resubmit_job", R_RESTART_FAILED, attempt=1)],
                          resubmit_attempts=frozenset({1}), no_checkpoint=[_span(job, at)],
                          events=[f"uniform hang from t={at:.0f}s", f"restarting attempt 1 t={restart:.0f}s, no step after"])


def _fabric_failed_restart(slot: Slot) -> tuple[JobRun, Situation]:
    """A fabric flap -> restart_in_place; attempt 1 starts ('running') but never makes a step."""
    job, sit = fabric(slot)
    failed = next(e for e in job.events if e["schema"] == "job_event/v1" and e["kind"] == "failed")
    at = (datetime.fromisoformat(failed["event_time"].replace("Z", "+00:00")) - job.start).total_seconds()
    restart = at + 180
    job.lifecycle(restart, 1, "restarting", detail="restart in place")
    job.lifecycle(restart + 40, 1, "running", step=job.last_step(at))
    sit.name, sit.variant = "failed_restart", "fabric flap, then " + sit.variant + f"; attempt 1 at t={restart:.0f}s never steps"
    sit.needs.append(Need("resubmit_job", R_RESTART_FAILED, attempt=1))
    sit.resubmit_attempts = frozenset({1})
    return job, sit


def hang_single(slot: Slot) -> tuple[JobRun, Situation]:
    """One rank (or a dead node) stops; the others wait; sometimes the watchdog then kills the job."""
    rng = slot.rng
    at = rng.uniform(400, 900)
    dead = rng.randrange(slot.nodes) if rng.random() < 0.3 else None
    duration = rng.choice((None, 700.0))
    job = slot.run(_noise(slot) + [sc.Hang(job=0, at_s=at, source="single", dead_node=dead, duration_s=duration)])
    truth = next(t for t in job.truth if t.kind == "hang")
    culprits = frozenset(truth.node_ids)
    return job, Situation("hang_single", job.job_id,
                          f"source {sorted(culprits)} ranks {list(truth.ranks)} dead_node={dead} watchdog={duration}",
                          slot.nodes, culprits=culprits,
                          needs=[Need("replace_nodes", R_IMPLICIT, culprits, "task", 0)],
                          no_checkpoint=[_span(job, at)], events=[f"hang from t={at:.0f}s"])


def hang_spread(slot: Slot) -> tuple[JobRun, Situation]:
    """No single source: everyone freezes alike (also one-node jobs) or two ranks on two nodes stop."""
    rng = slot.rng
    at = rng.uniform(400, 900)
    source: HangSource = "uniform" if slot.nodes == 1 or rng.random() < 0.5 else "two"
    job = slot.run(_noise(slot) + [sc.Hang(job=0, at_s=at, source=source)])
    rule = R_ONE_NODE if slot.nodes == 1 else R_NOT_SINGLE
    truth = next(t for t in job.truth if t.kind == "hang")
    return job, Situation("hang_spread", job.job_id, f"{source} sources {list(truth.node_ids)}", slot.nodes,
                          needs=[Need("restart_in_place", rule, attempt=0)], no_checkpoint=[_span(job, at)],
                          resubmit_attempts=frozenset({0}),
                          events=[f"{source} hang from t={at:.0f}s"])


def slow(slot: Slot) -> tuple[JobRun, Situation]:
    """One node becomes 1.2-1.5x slower mid-run (thermal or NIC) and stays so."""
    rng = slot.rng
    pos, at, factor = rng.randrange(slot.nodes), rng.uniform(300, 700), rng.uniform(1.2, 1.5)
    cause: SlowCause = "thermal" if rng.random() < 0.5 else "nic"
    job = slot.run(_noise(slot) + [sc.SlowNode(job=0, node=pos, at_s=at, slowdown=factor, cause=cause)])
    node = job.nodes[pos]
    return job, Situation("slow_node", job.job_id, f"{node} x{factor:.2f} {cause} from t={at:.0f}s", slot.nodes,
                          culprits=frozenset({node}), needs=[Need("replace_nodes", R_IMPLICIT, frozenset({node}), "task", 0)],
                          events=[f"{node} slow x{factor:.2f} from t={at:.0f}s"])


SITUATIONS: dict[str, tuple[Builder, int]] = {
    "healthy": (healthy, 1), "lookalike_eval": (lookalike_eval, 1), "lookalike_pipeline": (lookalike_pipeline, 4),
    "lookalike_mixed": (lookalike_mixed, 6), "corrected": (corrected, 1), "hw_fault": (hw_fault, 2),
    "nic_local": (nic_local, 2), "fabric": (fabric, 4), "user_once": (user_once, 1), "user_repeat": (user_repeat, 1),
    "user_different": (user_different, 1), "oom": (oom, 1), "two_hw": (two_hw, 3),
    "failed_restart": (failed_restart, 1), "hang_single": (hang_single, 2), "hang_spread": (hang_spread, 1),
    "slow_node": (slow, 4), "cascade_then_user": (cascade_then_user, 2),
    "user_nonconsecutive": (user_nonconsecutive, 1), "preempted": (preempted, 1),
}
"""Situation name -> (builder, the fewest nodes it needs): one job each in every fleet."""

SUPPLEMENT: dict[str, tuple[Builder, int]] = {"nic_counters": (nic_counters, 2), "fabric": (fabric, 4)}
"""Situations of the supplementary run (``--only``), added after the main run: port counters as
the only evidence of a port fault, and the fabric fault it must be told from."""
"""Situation name -> (builder, the fewest nodes it needs)."""
