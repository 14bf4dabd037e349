"""Round 3 (brief D3): host-side faults, stalls, checkpoints and the per-job guard.

Storage errors while a checkpoint is saved, the host OOM killer, a kernel soft lockup or hung
task on one node (and the same lines while the job is fine), a hang in a one-node job, a hang
while an asynchronous checkpoint is written, a degrading node while training progresses (a
checkpoint_now opportunity) and after the job stopped progressing (futile), and serial node
losses in one job within the hour (the per-job guard, scaled to the job's size).
"""

from __future__ import annotations

from dataclasses import replace

from producers.simulator import Variation
from producers.simulator import scenarios as sc
from producers.simulator.scenarios import HangSource
from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun, Json, iso, simulated
from tests.bench.fleet_oracle import Need, Situation
from tests.bench.fleet_situations.base import (
    R_IMPLICIT,
    R_NODE_ERROR,
    R_NODE_FAULT,
    R_NOT_SINGLE,
    R_ONE_NODE,
    R_REPEAT,
    Slot,
    job_rng,
    merge,
    noise,
    restart,
    span,
    spare_restart,
    xid_failure,
    xid_windows,
)
from tests.bench.fleet_situations.round3_base import R_CHECKPOINT, checkpoint_times, stalled_windows, xid154_line

R_ANY_NODE = "the node's own fault (explicit: block_scope cluster) or its hang (implicit: block_scope task)"


def _storage_failure(job: JobRun, at: float, attempt: int, until: float | None) -> list[str]:
    """Storage errors while a checkpoint is written: NFS/Lustre kernel lines on 1-4 nodes, the
    writer's I/O error, torchrun's failure, ``failed``; the attempt dies until ``until``."""
    rng = job_rng(job)
    job.cut(at, until)
    said = []
    for node in rng.sample(job.nodes, min(len(job.nodes), rng.randint(1, 4))):
        text = fl.pick("storage_fs", rng)[1]
        job.log(at + rng.uniform(0, 5), None, node, "kernel", text, deliver_s=rng.uniform(1, 30))
        said.append(f"{node} t={at:.0f}s kernel: {text[:80]}")
    text = fl.pick("storage_write", rng)[1]
    job.log(at + 6, 0, job.nodes[0], "training", text, rng.choice((attempt, None)))
    said.append(f"rank 0 t={at + 6:.0f}s: {text[:80]}")
    job.log(at + 11, 0, job.nodes[0], "training", fl.pick("elastic", rng)[1], attempt)
    job.lifecycle(at + 15, attempt, "failed", detail="rank 0 exited with code 1")
    return said


def storage_checkpoint(slot: Slot) -> tuple[JobRun, Situation]:
    """Storage errors during a checkpoint save. Async variant: the background save fails and
    training goes on. Fatal variant: the save kills the job, restarted in place; in half of
    them the storage fails again at attempt 1's save. Blame storage: no node action, no
    stop_job (not job-blamed); a restart of a job that is still training is a doubt."""
    rng = slot.rng
    fatal = rng.random() < 0.6
    variation = slot.variation() if fatal else Variation(async_checkpoint=True)
    job = slot.run(noise(slot), variation)
    ckpts = checkpoint_times(job, 250, 1100) or [rng.uniform(400, 800)]
    at = ckpts[0] + rng.uniform(3, 20)
    if not fatal:
        rng2 = job_rng(job)
        for node in rng2.sample(job.nodes, min(len(job.nodes), rng2.randint(1, 4))):
            job.log(at + rng2.uniform(0, 5), None, node, "kernel", fl.pick("storage_fs", rng2)[1])
        text = fl.pick("storage_write", rng2)[1]
        job.log(at + 6, 0, job.nodes[0], "training", text)
        job.drop(lambda e: not (e["schema"] == "job_event/v1" and e["kind"] == "checkpoint_completed"
                                and iso(job.at(at)) < e["event_time"] < iso(job.at(at + 200))))
        return job, Situation("storage_checkpoint", job.job_id, f"async save fails t={at:.0f}s, training goes on",
                              slot.nodes, destructive_doubt=True, events=[f"t={at:.0f}s storage errors; {text[:80]}"])
    said = _storage_failure(job, at, 0, at + 90)
    restart(job, at + 30, 1, 60)
    sit = Situation("storage_checkpoint", job.job_id, f"save kills attempt 0 t={at:.0f}s", slot.nodes,
                    no_checkpoint=[span(job, at + 15, at + 90)])
    if rng.random() < 0.5:
        at2 = at + 90 + rng.uniform(200, 500)
        said += _storage_failure(job, at2, 1, None)
        sit.no_checkpoint.append(span(job, at2 + 15))
        sit.variant += f", again in attempt 1 t={at2:.0f}s"
    sit.events = said
    return job, sit


def _host_oom(job: JobRun, at: float, attempt: int, until: float | None) -> list[str]:
    """The kernel OOM killer kills one rank's process (kernel line, sometimes Slurm's report),
    torchrun's failure, ``failed``; the attempt dies until ``until``."""
    rng = job_rng(job)
    rank = rng.randrange(len(job.nodes) * job.gpus)
    node = job.node_of(rank)
    job.cut(at, until)
    text = fl.pick("host_oom", rng)[1]
    job.log(at, None, node, "kernel", text, deliver_s=rng.uniform(1, 40))
    said = [f"attempt {attempt} {node} t={at:.0f}s kernel: {text[:90]}"]
    if rng.random() < 0.5:
        job.log(at + 2, None, node, "system", fl.pick("oom_slurm", rng)[1])
    job.log(at + 5, 0, job.nodes[0], "training", fl.pick("elastic", rng)[1], attempt)
    job.lifecycle(at + 10, attempt, "failed", detail=f"rank {rank} killed by signal 9")
    return said


def host_oom(slot: Slot) -> tuple[JobRun, Situation]:
    """The host OOM killer (blame job) kills a rank; once (attempt 1 healthy: no node action, no
    stop_job) or again in attempt 1 (the same job-blamed root cause twice: stop_job + notify)."""
    rng = slot.rng
    job = slot.run(noise(slot))
    at = rng.uniform(400, 700)
    said = _host_oom(job, at, 0, at + 90)
    restart(job, at + 30, 1, 60)
    sit = Situation("host_oom", job.job_id, "once", slot.nodes, no_checkpoint=[span(job, at, at + 90)])
    if rng.random() < 0.5:
        at2 = at + 90 + rng.uniform(200, 500)
        said += _host_oom(job, at2, 1, None)
        sit.no_checkpoint.append(span(job, at2))
        sit.variant = "attempts 0 and 1"
        sit.needs = [Need("stop_job", R_REPEAT, attempt=1), Need("notify", R_REPEAT)]
        sit.stop_attempts = frozenset({1})
    sit.events = said
    return job, sit


def lockup(slot: Slot) -> tuple[JobRun, Situation]:
    """A kernel soft lockup / hung task on one node: its ranks stop, the others wait (sometimes
    the watchdog kills the job 700 s later). The node's fault or hang source: replace it."""
    rng = slot.rng
    pos, at = rng.randrange(slot.nodes), rng.uniform(400, 900)
    ranks = tuple(range(pos * slot.gpus, (pos + 1) * slot.gpus))
    duration = rng.choice((None, 700.0))
    job = slot.run(noise(slot) + [sc.Hang(job=0, at_s=at, source="single", ranks=ranks, duration_s=duration)])
    node = job.nodes[pos]
    said = []
    for k in range(rng.randint(1, 3)):
        text = fl.pick("lockup", rng)[1]
        job.log(at + 25 + 120 * k, None, node, "kernel", text, deliver_s=rng.uniform(0, 30))
        said.append(f"{node} t={at + 25 + 120 * k:.0f}s {text[:90]}")
    return job, Situation("lockup", job.job_id, f"{node} ranks {ranks[0]}-{ranks[-1]} stop, watchdog={duration}",
                          slot.nodes, culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_ANY_NODE, frozenset({node}), None, 0)],
                          events=[f"{node} ranks stop t={at:.0f}s", *said], **stalled_windows(job, at, slot.step_s))


def lockup_benign(slot: Slot) -> tuple[JobRun, Situation]:
    """The same hung-task / soft-lockup lines (other processes) on one node while the job trains
    on unaffected: no cause the contract names; a destructive decision is a doubt."""
    rng = slot.rng
    job = slot.run(noise(slot))
    node = rng.choice(job.nodes)
    said = []
    for _ in range(rng.randint(1, 3)):
        at, text = rng.uniform(200, 1500), fl.pick("lockup", rng)[1]
        job.log(at, None, node, "kernel", text)
        said.append(f"{node} t={at:.0f}s {text[:90]}")
    return job, Situation("lockup_benign", job.job_id, f"{len(said)} line(s) on {node}", slot.nodes,
                          destructive_doubt=True, culprits=frozenset({node}), events=said)


def hang_one_node(slot: Slot) -> tuple[JobRun, Situation]:
    """A one-node job whose ranks all freeze alike (sometimes the watchdog fires 700 s later):
    restart_in_place, no replacement."""
    one = replace(slot, nodes=1)
    rng = one.rng
    at = rng.uniform(400, 900)
    duration = rng.choice((None, 700.0))
    job = one.run(noise(one) + [sc.Hang(job=0, at_s=at, source="uniform", duration_s=duration)])
    return job, Situation("hang_one_node", job.job_id, f"{one.gpus} ranks freeze t={at:.0f}s watchdog={duration}", 1,
                          needs=[Need("restart_in_place", R_ONE_NODE, attempt=0)], resubmit_attempts=frozenset({0}),
                          no_checkpoint=[span(job, at)], events=[f"uniform hang t={at:.0f}s"])


def hang_async_checkpoint(slot: Slot) -> tuple[JobRun, Situation]:
    """A hang that starts while an asynchronous checkpoint is written (60-180 s background save):
    one source rank (replace its node, task) or everyone alike (restart_in_place)."""
    small = replace(slot, nodes=min(slot.nodes, 8))
    rng = small.rng
    base = noise(small)
    config = small.config(Variation(async_checkpoint=True))
    config = replace(config, checkpoint_every_s=300.0, checkpoint_duration_s=rng.uniform(60, 180))
    probe = simulated(config, base, small.index, small.node_offset)
    at = (checkpoint_times(probe, 250, 1300) or [600.0])[0] + rng.uniform(3, 40)
    source: HangSource = "single" if small.nodes > 1 and rng.random() < 0.6 else "uniform"
    job = simulated(config, [*base, sc.Hang(job=0, at_s=at, source=source)], small.index, small.node_offset)
    sit = Situation("hang_async_checkpoint", job.job_id, f"{source} hang t={at:.0f}s during an async save", small.nodes,
                    no_checkpoint=[span(job, at)], events=[f"{source} hang t={at:.0f}s"])
    if source == "single":
        truth = next(t for t in job.truth if t.kind == "hang")
        sit.culprits = frozenset(truth.node_ids)
        sit.needs = [Need("replace_nodes", R_IMPLICIT, sit.culprits, "task", 0)]
    else:
        sit.needs = [Need("restart_in_place", R_ONE_NODE if small.nodes == 1 else R_NOT_SINGLE, attempt=0)]
        sit.resubmit_attempts = frozenset({0})
    return job, sit


def _degrading_line(job: JobRun, node: str, gpu: int, at: float) -> tuple[str, bool]:
    """A line saying the node's GPU must go (device plugin 'unhealthy', Xid 154 reset/reboot);
    returns it and whether its action is reset/reboot (drain required)."""
    rng = job_rng(job)
    if rng.random() < 0.4:
        text = fl.pick("device_unhealthy", rng)[1]
        job.log(at, None, node, "system", text, deliver_s=rng.uniform(1, 20))
        return text, False
    text = xid154_line(gpu, rng.choice((1, 2)))
    job.log(at, None, node, "kernel", text, deliver_s=rng.uniform(1, 20))
    return text, True


def checkpoint_opportunity(slot: Slot) -> tuple[JobRun, Situation]:
    """A node's GPU must go while training still progresses: checkpoint_now first, then the
    node action (replace, plus drain when the action is reset/reboot)."""
    rng = slot.rng
    job = slot.run(noise(slot))
    pos, gpu, at = rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(400, 900)
    node = job.nodes[pos]
    text, drain = _degrading_line(job, node, gpu, at)
    needs = [Need("checkpoint_now", R_CHECKPOINT, attempt=0),
             Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", 0)]
    if drain:
        needs.append(Need("drain_reboot_nodes", R_NODE_ERROR, frozenset({node}), None, 0))
    return job, Situation("checkpoint_opportunity", job.job_id, f"{node}: {text[:70]}", slot.nodes,
                          culprits=frozenset({node}), needs=needs, events=[f"{node} t={at:.0f}s {text}"])


def checkpoint_futile(slot: Slot) -> tuple[JobRun, Situation]:
    """The node's ranks stopped 2-5 min before the same line: no progress, so no checkpoint_now
    ('never for a hang'); the node goes (its fault or its hang)."""
    rng = slot.rng
    pos, gpu, t0 = rng.randrange(slot.nodes), rng.randrange(slot.gpus), rng.uniform(400, 800)
    ranks = tuple(range(pos * slot.gpus, (pos + 1) * slot.gpus))
    job = slot.run(noise(slot) + [sc.Hang(job=0, at_s=t0, source="single", ranks=ranks)])
    node, at = job.nodes[pos], t0 + rng.uniform(120, 300)
    text, _ = _degrading_line(job, node, gpu, at)
    return job, Situation("checkpoint_futile", job.job_id, f"{node} stops t={t0:.0f}s, then {text[:60]}", slot.nodes,
                          culprits=frozenset({node}),
                          needs=[Need("replace_nodes", R_ANY_NODE, frozenset({node}), None, 0)],
                          events=[f"{node} ranks stop t={t0:.0f}s", f"t={at:.0f}s {text}"],
                          **stalled_windows(job, t0, slot.step_s))


def node_storm(slot: Slot) -> tuple[JobRun, Situation]:
    """A job loses nodes one after another within the hour (Xid 79/48 on 2-3 distinct nodes in
    consecutive attempts, each swapped for a spare). Small jobs (2-4 nodes) lose half or more,
    a 16-node job 2 nodes: every replacement is owed, or refused with the fallback + notify;
    what the per-job guard did is a doubt (its N and P are configurable)."""
    rng = slot.rng
    size = rng.choice((2, 3, 4, 16))
    sized = replace(slot, nodes=size, gpus=4 if size == 16 else slot.gpus)
    job = sized.run(noise(sized))
    lost = 2 if size in (2, 16) else 3
    order = rng.sample(range(size), lost)
    culprits: list[str] = []
    needs: list[Need] = []
    said: list[str] = []
    windows: Json = {"no_checkpoint": [], "checkpoint_doubt": []}
    at = rng.uniform(250, 350)
    for k, pos in enumerate(order):
        node, xid = job.nodes[pos], rng.choice((79, 48))
        last = k == lost - 1
        said += xid_failure(job, xid, pos, rng.randrange(sized.gpus), at, k, until=None if last else at + 180)
        culprits.append(node)
        needs.append(Need("replace_nodes", R_NODE_FAULT, frozenset({node}), "cluster", k))
        windows = merge(windows, xid_windows(job, xid, at, None if last else at + 180))
        if not last:
            at = spare_restart(job, sized, node, at + 120, k + 1, nth=k + 1) + rng.uniform(150, 300)
    return job, Situation("node_storm", job.job_id, f"{size}-node job loses {culprits}", size + lost - 1,
                          culprits=frozenset(culprits), needs=needs, guard_scale=(size, lost), events=said, **windows)
