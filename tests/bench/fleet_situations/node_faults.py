"""Round 3 (brief D3): node faults the first tables lack, each randomised in its conditions.

A lemon node (corrected errors above any sane per-day threshold), Xid 154 with each GPU
recovery action, GSP timeouts and errors, fatal and non-fatal NVLink/NVSwitch errors, an HCA
fault, a node that fails again right after its repair (flapping), a job-blamed graphics-engine
Xid once, and a node whose clock is skewed.
"""

from __future__ import annotations

from producers.simulator import Variation
from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun, iso
from tests.bench.fleet_oracle import Need, Situation
from tests.bench.fleet_situations.base import (
    R_NIC,
    R_NODE_ERROR,
    R_NODE_FAULT,
    Slot,
    cascade,
    merge,
    noise,
    port_down,
    restart,
    span,
    xid_failure,
    xid_windows,
)
from tests.bench.fleet_situations.round3_base import (
    NO_JOB_HARM,
    R_FLAPPING,
    R_LEMON,
    RECOVERY,
    fatal_windows,
    node_failure,
    shift_node_events,
    xid154_line,
)

CORRECTED_POOLS = ("mce_corrected", "xid63", "xid94", "aer_corrected", "xid92")


def lemon(slot: Slot) -> tuple[JobRun, Situation]:
    """30-60 corrected/contained errors on one node within 25 min (one kind or mixed); the job
    trains on: drain_reboot_nodes + notify for that node, nothing that takes it from the job."""
    rng = slot.rng
    job = slot.run(noise(slot))
    node = rng.choice(job.nodes)
    kinds = CORRECTED_POOLS if rng.random() < 0.5 else (rng.choice(CORRECTED_POOLS),)
    count = rng.randint(30, 60)
    for at in sorted(rng.uniform(120, 1650) for _ in range(count)):
        pool, gpu = rng.choice(kinds), rng.randrange(slot.gpus)
        text = fl.xid_line(92, gpu, None, rng) if pool == "xid92" else fl.pick(pool, rng, gpu)[1]
        job.log(at, None, node, "kernel", text)
    said = [f"{node}: {count} corrected errors ({', '.join(kinds)}) between t=120s and t=1650s"]
    return job, Situation("lemon_node", job.job_id, said[0], slot.nodes, culprits=frozenset({node}),
                          needs=[Need("drain_reboot_nodes", R_LEMON, frozenset({node})), Need("notify", R_LEMON)],
                          forbid=NO_JOB_HARM, broken=False, events=said)


def xid154(slot: Slot) -> tuple[JobRun, Situation]:
    """Xid 154 with one of NVML's recovery actions on one GPU; the job keeps training.

    1 GPU Reset Required (reset_gpu) and 2 Node Reboot Required (reboot_node): replace + drain;
    4 Drain and Reset: replace (drain allowed); 3 Drain P2P: the node may be taken, nothing is
    required (the contract has no row for it); 0 (back to None): nothing to do at all."""
    rng = slot.rng
    job = slot.run(noise(slot))
    action, pos, gpu, at = rng.randrange(5), rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(400, 900)
    node = job.nodes[pos]
    text = xid154_line(gpu, action)
    job.log(at, None, node, "kernel", text, deliver_s=rng.uniform(1, 60))
    sit = Situation("xid154", job.job_id, f"action {action} ({RECOVERY[action]}) on {node}", slot.nodes,
                    events=[f"{node} t={at:.0f}s {text} (job keeps training)"])
    if action == 0:
        sit.healthy = True
        return job, sit
    sit.culprits = frozenset({node})
    if action in (1, 2, 4):
        sit.needs.append(Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0))
    if action in (1, 2):
        sit.needs.append(Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({node}), None, 0))
    return job, sit


def gsp(slot: Slot) -> tuple[JobRun, Situation]:
    """GSP timeouts (Xid 119, 1-3 of them 45 s apart, sometimes after heartbeat lines) or a GSP
    error (Xid 120) on one GPU; its rank dies; level error, action reset_gpu: replace + drain."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, gpu, at = rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(400, 900)
    node, xid = job.nodes[pos], rng.choice((119, 119, 120))
    lines = []
    if rng.random() < 0.5:
        lines.append((0.0, "kernel", fl.pick("gsp_heartbeat", rng)[1]))
    for k in range(rng.randint(1, 3) if xid == 119 else 1):
        lines.append((5.0 + 45 * k, "kernel", fl.pick(f"xid{xid}", rng, gpu)[1]))
    said = node_failure(job, pos, gpu, at, 0, lines, "RuntimeError: CUDA error: unknown error")
    failed_at = at + lines[-1][0] + 50
    return job, Situation("gsp", job.job_id, f"xid {xid} x{len(lines)} line(s) on {node}", slot.nodes,
                          culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0),
                                 Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({node}), None, 0)],
                          events=said, **fatal_windows(job, at, failed_at, None))


def nvlink(slot: Slot) -> tuple[JobRun, Situation]:
    """A fatal NVLink/NVSwitch error (Xid 149 'Fatal', NVSwitch SXid 'Fatal') on one node and
    the rank's CUDA NVLink error; the job fails: replace that node (drain allowed)."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, gpu, at = rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(400, 900)
    node = job.nodes[pos]
    lines = [(0.0, "kernel", fl.pick("nvlink_fatal", rng, gpu)[1])]
    if rng.random() < 0.5:
        lines.append((rng.uniform(0.1, 2), "kernel", fl.pick("nvlink_fatal", rng, gpu)[1]))
    said = node_failure(job, pos, gpu, at, 0, lines, fl.pick("nvlink_cuda", rng)[1])
    failed_at = at + max(dt for dt, _, _ in lines) + 50
    return job, Situation("nvlink", job.job_id, f"fatal NVLink on {node}", slot.nodes, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0)],
                          events=said, **fatal_windows(job, at, failed_at, None))


def nvlink_nonfatal(slot: Slot) -> tuple[JobRun, Situation]:
    """Non-fatal NVLink/NVSwitch lines and rising NVLink CRC counters on one node; training goes
    on. The contract lists no such 'corrected' error, so a destructive decision is a doubt."""
    rng = slot.rng
    job = slot.run(noise(slot))
    node, gpu, at = rng.choice(job.nodes), rng.randrange(slot.gpus), rng.uniform(300, 900)
    said = []
    for k in range(rng.randint(1, 4)):
        text = fl.pick("nvlink_nonfatal", rng, gpu)[1]
        job.log(at + 60 * k, None, node, "kernel", text)
        said.append(f"{node} t={at + 60 * k:.0f}s {text[:90]}")
    _crc_rise(job, node, gpu, at, rng.randint(1, 20))
    return job, Situation("nvlink_nonfatal", job.job_id, f"non-fatal NVLink on {node}", slot.nodes,
                          destructive_doubt=True, culprits=frozenset({node}), events=said)


def _crc_rise(job: JobRun, node: str, gpu: int, since_s: float, per_sample: int) -> None:
    t, added = iso(job.at(since_s)), 0
    for e in job.events:
        if e["schema"] == "gpu_sample/v1" and e["node_id"] == node and e["event_time"] >= t:
            added += per_sample
            for g in e["gpus"]:
                if g["index"] == gpu:
                    g["nvlink_crc_errors_total"] += added


def hca(slot: Slot) -> tuple[JobRun, Situation]:
    """An HCA fault on one node (mlx5 command timeouts / 'local catastrophic error', its port
    sometimes DOWN), NCCL IB errors on its ranks, cascades; the job fails: 'HCA health' is the
    node-local NIC row: replace that node, block_scope cluster."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, at = rng.randrange(slot.nodes), rng.uniform(400, 900)
    node = job.nodes[pos]
    job.cut(at)
    said = []
    for k in range(rng.randint(1, 2)):
        text = fl.pick("hca_kernel", rng)[1]
        job.log(at + k * 0.5, None, node, "kernel", text, deliver_s=rng.uniform(1, 40))
        said.append(f"{node} t={at:.0f}s kernel: {text[:90]}")
    if rng.random() < 0.5:
        job.log(at + 1, pos * slot.gpus, node, "nccl", fl.pick("hca_nccl", rng)[1], rng.choice((0, None)))
    if rng.random() < 0.5:
        port_down(job, node, rng.randrange(4), at, None, rng.randint(0, 20))
        said.append(f"{node} port DOWN from t={at:.0f}s")
    for rank in range(pos * slot.gpus, pos * slot.gpus + min(2, slot.gpus)):
        job.log(at + rng.uniform(1, 6), rank, node, "nccl", fl.pick("ib_completion", rng)[1], rng.choice((0, None)))
    said += cascade(job, at, node, None, rng.randint(1, 4))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: unhandled system error")
    return job, Situation("hca", job.job_id, f"HCA fault on {node}", slot.nodes, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NIC, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[span(job, at + 60)], events=said)


def flapping(slot: Slot) -> tuple[JobRun, Situation]:
    """Xid 79/48 on a node; after its repair (4 min) the scheduler places the job on it again and
    it fails again within minutes: attempt 0 replace; attempt 1 'flapping (cluster block + notify)'."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, xa, xb = rng.randrange(slot.nodes), rng.choice((79, 48)), rng.choice((79, 48))
    node, at = job.nodes[pos], rng.uniform(300, 500)
    said = xid_failure(job, xa, pos, rng.randrange(slot.gpus), at, 0, until=at + 300)
    restart(job, at + 240, 1, 60)
    job.lifecycle(at + 245, 1, "scheduled", placement=True, detail=f"{node} back from repair")
    at2 = at + 300 + rng.uniform(120, 400)
    said += xid_failure(job, xb, pos, rng.randrange(slot.gpus), at2, 1)
    return job, Situation("flapping", job.job_id, f"xid {xa} then xid {xb} on {node} after repair", slot.nodes,
                          culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0),
                                 Need("replace_nodes", R_FLAPPING, frozenset({node}), "cluster", 1),
                                 Need("notify", R_FLAPPING, attempt=1)],
                          events=said, **merge(xid_windows(job, xa, at, at + 300), xid_windows(job, xb, at2, None)))


def engine_xid_once(slot: Slot) -> tuple[JobRun, Situation]:
    """A graphics-engine Xid (13/31/43: blame job) and the rank's illegal memory access once;
    attempt 1 runs healthy: no node action, no stop_job."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, gpu, at = rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(400, 700)
    lines = [(0.0, "kernel", fl.pick("xid_engine", rng, gpu)[1])]
    said = node_failure(job, pos, gpu, at, 0, lines, fl.pick("illegal_memory", rng)[1], until=at + 120)
    restart(job, at + 60, 1, 60)
    return job, Situation("engine_xid_once", job.job_id, f"{lines[0][2][:60]} on {job.nodes[pos]}", slot.nodes,
                          no_checkpoint=[span(job, at, at + 120)], events=said)


def skewed_clock(slot: Slot) -> tuple[JobRun, Situation]:
    """One node's clock is 20-200 s off (either way). Half the time a lost GPU (Xid 79/48) on
    that node, a quarter on another node, a quarter nothing: replace the faulty node only."""
    rng = slot.rng
    skew_pos, skew = rng.randrange(slot.nodes), rng.choice((-1, 1)) * rng.uniform(20, 200)
    job = slot.run(noise(slot), Variation(skew_node=skew_pos, skew_s=skew))
    skewed, draw = job.nodes[skew_pos], rng.random()
    variant = f"{skewed} clock {skew:+.0f}s"
    if draw < 0.25:
        return job, Situation("skewed_clock", job.job_id, variant + ", no fault", slot.nodes, healthy=True)
    pos = skew_pos if draw < 0.75 else rng.choice([p for p in range(slot.nodes) if p != skew_pos])
    xid, at, mark = rng.choice((79, 48)), rng.uniform(400, 900), len(job.events)
    said = xid_failure(job, xid, pos, rng.randrange(slot.gpus), at, 0)
    shift_node_events(job, mark, skewed, skew)
    if skew < 0:
        # the dead process's own events from the skewed node carry times before ``at``: cut them too
        job.cut(at + skew, None, nodes=[skewed])
    node = job.nodes[pos]
    return job, Situation("skewed_clock", job.job_id, variant + f", xid {xid} on {node}", slot.nodes,
                          culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0)],
                          events=said, **xid_windows(job, xid, at, None))
