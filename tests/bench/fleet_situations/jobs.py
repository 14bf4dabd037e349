"""The job's own errors and the restarts: once, repeated, different, non-consecutive, after a
cascade, and a restart that does not bring the job back."""

from __future__ import annotations

from datetime import datetime

from producers.simulator import scenarios as sc
from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun
from tests.bench.fleet_oracle import Need, Situation
from tests.bench.fleet_situations.base import (
    ERROR_LEVEL_XIDS,
    FATAL_XIDS,
    R_NODE_ERROR,
    R_NODE_FAULT,
    R_NOT_SINGLE,
    R_ONE_NODE,
    R_REPEAT,
    R_RESTART_FAILED,
    USER_POOLS,
    Slot,
    merge,
    noise,
    restart,
    span,
    spare_restart,
    user_failure,
    xid_failure,
    xid_windows,
)
from tests.bench.fleet_situations.hardware import fabric


def _user(slot: Slot, name: str) -> tuple[JobRun, Situation]:
    rng = slot.rng
    job = slot.run(noise(slot))
    first = "cuda_oom" if name == "oom" else rng.choice(USER_POOLS)
    at = rng.uniform(400, 700)
    said = user_failure(job, first, at, 0, late_copy=rng.random() < 0.6, until=at + 90)
    restart(job, at + 30, 1, 60)
    sit = Situation(name, job.job_id, first, slot.nodes, no_checkpoint=[span(job, at, at + 90)])
    if name in ("user_repeat", "user_different"):
        second = first if name == "user_repeat" else rng.choice([p for p in USER_POOLS if p != first])
        at2 = at + 90 + rng.uniform(200, 500)
        said += user_failure(job, second, at2, 1, late_copy=False)
        sit.no_checkpoint.append(span(job, at2))
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

def cascade_then_user(slot: Slot) -> tuple[JobRun, Situation]:
    """Attempt 0: Xid 79 on one node, CUDA 'illegal memory access' on peers (cascade, 'CUDA
    errors on peers'); attempt 1 (node swapped): the job's own illegal memory access once.
    Not the same job-blamed root cause twice: no stop_job."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos = rng.randrange(slot.nodes)
    node = job.nodes[pos]
    at = rng.uniform(400, 600)
    said = xid_failure(job, 79, pos, rng.randrange(slot.gpus), at, 0, until=at + 180)
    peers = [r for r in range(slot.nodes * slot.gpus) if job.node_of(r) != node]
    for rank in rng.sample(peers, min(2, len(peers))):
        _, text = fl.pick("illegal_memory", rng)
        job.log(at + rng.uniform(1, 6), rank, job.node_of(rank), "training", text, rng.choice((0, None)))
        said.append(f"attempt 0 peer rank {rank}: {text[:80]} (cascade of the Xid 79)")
    resumed = spare_restart(job, slot, node, at + 120, 1)
    at2 = resumed + rng.uniform(200, 500)
    said += user_failure(job, "illegal_memory", at2, 1, late_copy=False)
    return job, Situation("cascade_then_user", job.job_id, f"xid 79 on {node} + peer CUDA errors, then own bug",
                          slot.nodes + 1, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0)],
                          no_checkpoint=[span(job, at, at + 180), span(job, at2)], events=said)


def user_nonconsecutive(slot: Slot) -> tuple[JobRun, Situation]:
    """The job's own error in attempt 0, a hardware fault in attempt 1, the same own error in
    attempt 2: not 'two consecutive attempts', no stop_job."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pool = rng.choice(USER_POOLS)
    at = rng.uniform(300, 400)
    said = user_failure(job, pool, at, 0, late_copy=False, until=at + 90)
    restart(job, at + 30, 1, 60)
    pos = rng.randrange(slot.nodes)
    node, xid = job.nodes[pos], rng.choice(FATAL_XIDS)
    at1 = at + 90 + rng.uniform(150, 300)
    said += xid_failure(job, xid, pos, rng.randrange(slot.gpus), at1, 1, until=at1 + 180)
    resumed = spare_restart(job, slot, node, at1 + 120, 2)
    at2 = resumed + rng.uniform(150, 300)
    said += user_failure(job, pool, at2, 2, late_copy=False)
    needs = [Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 1)]
    if xid in ERROR_LEVEL_XIDS:
        needs.append(Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({node}), None, 1))
    return job, Situation("user_nonconsecutive", job.job_id, f"{pool}; xid {xid} on {node}; {pool}", slot.nodes + 1,
                          culprits=frozenset({node}), needs=needs, events=said,
                          **merge({"no_checkpoint": [span(job, at, at + 90), span(job, at2)], "checkpoint_doubt": []},
                                   xid_windows(job, xid, at1, at1 + 180)))

def failed_restart(slot: Slot) -> tuple[JobRun, Situation]:
    """A cause whose row is restart_in_place; the restarted attempt never progresses."""
    if slot.nodes >= 4 and slot.rng.random() < 0.5:
        return _fabric_failed_restart(slot)
    rng = slot.rng
    at = rng.uniform(400, 700)
    job = slot.run(noise(slot) + [sc.Hang(job=0, at_s=at, source="uniform")])
    restart = at + 480
    step = job.last_step(at)
    job.lifecycle(restart, 1, "restarting", detail="restart in place")
    job.lifecycle(restart + 40, 1, "running", step=step)
    rule = R_ONE_NODE if slot.nodes == 1 else R_NOT_SINGLE
    return job, Situation("failed_restart", job.job_id, f"uniform hang t={at:.0f}s, restart t={restart:.0f}s stays hung",
                          slot.nodes, needs=[Need("restart_in_place", rule, attempt=0),
                                             Need("resubmit_job", R_RESTART_FAILED, attempt=1)],
                          resubmit_attempts=frozenset({1}), no_checkpoint=[span(job, at)],
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
