"""Explicit node and network faults: Xids on one node, a node's port, a fabric-wide flap."""

from __future__ import annotations

from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun
from tests.bench.fleet_oracle import Need, Situation
from tests.bench.fleet_situations.base import (
    ERROR_LEVEL_XIDS,
    FATAL_XIDS,
    R_FABRIC,
    R_NIC,
    R_NODE_ERROR,
    R_NODE_FAULT,
    Slot,
    cascade,
    merge,
    noise,
    port_down,
    span,
    xid_failure,
    xid_windows,
)


def hw_fault(slot: Slot) -> tuple[JobRun, Situation]:
    """A real hardware fault (Xid 79/48/74/119/154) on one node with cascades on its peers."""
    rng = slot.rng
    job = slot.run(noise(slot))
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
        said = xid_failure(job, xid, pos, gpu, at, 0, beyond)
        windows = xid_windows(job, xid, at, None)
    return job, Situation("hw_fault", job.job_id, f"xid {xid} on {node}" + (" NVRM line >300s late" if xid != 154 and beyond else ""), slot.nodes, culprits=frozenset({node}),
                          needs=needs, events=said, **windows)

def nic_local(slot: Slot) -> tuple[JobRun, Situation]:
    """One node's IB port (or bond link) goes down; its ranks and peers report NCCL errors; the job fails."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, at = rng.randrange(slot.nodes), rng.uniform(500, 900)
    node = job.nodes[pos]
    job.cut(at)
    port_down(job, node, rng.randrange(4), at, None, rng.randint(0, 50))
    src, text = fl.pick(rng.choice(("ib_port_down", "net_link_down")), rng)
    job.log(at, pos * slot.gpus if src in ("nccl", "training") else None, node, src, text, 0, deliver_s=rng.uniform(0, 30))
    said = [f"{node} port down from t={at:.0f}s (net_sample state DOWN, link_downed+1); {src}: {text[:80]}"]
    for rank in range(pos * slot.gpus, pos * slot.gpus + min(2, slot.gpus)):
        _, t = fl.pick("ib_completion", rng)
        job.log(at + rng.uniform(0.5, 5), rank, node, "nccl", t, rng.choice((0, None)))
    said += cascade(job, at, node, None, rng.randint(1, 4))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: remote process exited or there was a network error")
    return job, Situation("nic_local", job.job_id, f"port down on {node}", slot.nodes, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NIC, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[span(job, at + 60)], events=said)


def nic_counters(slot: Slot) -> tuple[JobRun, Situation]:
    """'link_downed rising on one node': one node's port DOWN in net_sample and its ranks' NCCL IB
    errors, no kernel/system line at all; the job fails."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, at = rng.randrange(slot.nodes), rng.uniform(500, 900)
    node = job.nodes[pos]
    job.cut(at)
    port_down(job, node, rng.randrange(4), at, None, rng.randint(0, 50))
    for rank in range(pos * slot.gpus, pos * slot.gpus + min(2, slot.gpus)):
        _, t = fl.pick("ib_completion", rng)
        job.log(at + rng.uniform(0.5, 5), rank, node, "nccl", t, rng.choice((0, None)))
    said = [f"{node} port DOWN, link_downed+1 from t={at:.0f}s (counters only)"]
    said += cascade(job, at, node, None, rng.randint(1, 4))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: remote process exited or there was a network error")
    return job, Situation("nic_counters", job.job_id, f"port down on {node}, counters only", slot.nodes,
                          culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NIC, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[span(job, at + 60)], events=said)


def fabric(slot: Slot) -> tuple[JobRun, Situation]:
    """A switch fault: ports of several nodes (>= 3, >= half) flap, NCCL IB errors everywhere; the job fails."""
    rng = slot.rng
    job = slot.run(noise(slot))
    hit = rng.sample(job.nodes, max(3, slot.nodes // 2))
    at = rng.uniform(500, 900)
    job.cut(at)
    port = rng.randrange(4)
    for node in hit:
        port_down(job, node, port, at + rng.uniform(0, 3), rng.uniform(5, 20), rng.randint(100, 5000))
        rank = job.nodes.index(node) * slot.gpus + rng.randrange(slot.gpus)
        s, t = fl.pick(rng.choice(("ib_completion", "ib_async_port_error")), rng)
        job.log(at + rng.uniform(1, 10), rank, node, "nccl", t, rng.choice((0, None)))
    job.lifecycle(at + 60, 0, "failed", detail="NCCL error: unhandled system error")
    return job, Situation("fabric", job.job_id, f"{len(hit)} nodes' port {port} flap", slot.nodes,
                          needs=[Need("restart_in_place", R_FABRIC, attempt=0), Need("notify", R_FABRIC, attempt=0)],
                          resubmit_attempts=frozenset({0}), cascade_is_evidence=True,
                          no_checkpoint=[span(job, at + 60)], events=[f"ports flap on {sorted(hit)} t={at:.0f}s"])

def two_hw(slot: Slot) -> tuple[JobRun, Situation]:
    """Two different hardware faults on two nodes in two attempts (the first node replaced by a spare)."""
    rng = slot.rng
    job = slot.run(noise(slot))
    xa, xb = rng.sample(FATAL_XIDS, 2)
    pa, pb = rng.sample(range(slot.nodes), 2)
    a, b = job.nodes[pa], job.nodes[pb]
    spare = f"node-{slot.node_offset + slot.nodes + 1:04d}"
    at = rng.uniform(400, 600)
    said = xid_failure(job, xa, pa, rng.randrange(slot.gpus), at, 0, until=at + 180)
    restart = at + 120
    step = job.last_step(at)
    job.rename_node(a, spare, restart)
    job.lifecycle(restart, 1, "restarting", detail="resubmitted without " + a)
    job.lifecycle(restart + 5, 1, "scheduled", placement=True)
    job.lifecycle(restart + 60, 1, "running", step=step)
    at2 = restart + 60 + rng.uniform(300, 600)
    said += xid_failure(job, xb, pb, rng.randrange(slot.gpus), at2, 1)
    needs = [Need("replace_nodes", R_NODE_FAULT, frozenset({a}), "cluster", 0),
             Need("replace_nodes", R_NODE_FAULT, frozenset({b}), "cluster", 1)]
    needs += [Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({n}), None, k)
              for k, (x, n) in enumerate(((xa, a), (xb, b))) if x in ERROR_LEVEL_XIDS]
    return job, Situation("two_hw", job.job_id, f"xid {xa} on {a}, then xid {xb} on {b} (spare {spare})", slot.nodes + 1,
                          culprits=frozenset({a, b}), needs=needs, events=said,
                          **merge(xid_windows(job, xa, at, restart + 60), xid_windows(job, xb, at2, None)))
