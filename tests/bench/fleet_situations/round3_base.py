"""What the round-3 situations (brief D3) add to ``base``: their contract rows and fault edits.

Written blind (brief D3): from TAXONOMY.md, EVENTS.md, the NVIDIA Xid catalog and NVML's GPU
recovery actions (Xid 154: 0 None, 1 GPU Reset Required, 2 Node Reboot Required, 3 Drain P2P,
4 Drain and Reset), before reading the policy code.
"""

from __future__ import annotations

from datetime import timedelta

from tests.bench import fleet_lines as fl
from tests.bench.fleet_jobs import JobRun, Json, iso, parse
from tests.bench.fleet_situations.base import cascade, job_rng

R_LEMON = ("corrected or contained errors: no node action; more than a threshold per node per 24 h (a lemon node) "
           "-> drain_reboot_nodes + notify")
R_FLAPPING = "a node that fails again soon after repair is flagged as flapping (cluster block + notify)"
R_CHECKPOINT = ("training still progressing and the cause will stop it -> checkpoint_now first (triggered "
                "checkpoint), then the action below")
NO_JOB_HARM = frozenset({"replace_nodes", "restart_in_place", "stop_job", "resubmit_job"})
"""A lemon node is drained (``drain_reboot_nodes`` + ``notify``); nothing may take it from the running job."""
RECOVERY = {0: "None", 1: "GPU Reset Required", 2: "Node Reboot Required", 3: "Drain P2P", 4: "Drain and Reset"}
"""NVML GPU recovery actions as Xid 154 prints them."""


def xid154_line(gpu: int, action: int) -> str:
    """Xid 154 in the driver's format; action 0 is a recovery back to None (from GPU Reset Required)."""
    before, after = (1, 0) if action == 0 else (0, action)
    return (f"NVRM: Xid (PCI:0000:{fl.BUS_IDS[gpu % len(fl.BUS_IDS)]}:00): 154, GPU recovery action changed "
            f"from 0x{before:x} ({RECOVERY[before]}) to 0x{after:x} ({RECOVERY[after]})")


def node_failure(job: JobRun, pos: int, gpu: int, at: float, attempt: int, node_lines: list[tuple[float, str, str]],
                 rank_line: str | None, until: float | None = None) -> list[str]:
    """A fault on the job's node ``pos`` kills its rank ``gpu``: ``node_lines`` (seconds after
    ``at``, source, text; kernel/system lines delivered 3-60 s late), the rank's own line,
    cascades on peers, torchrun's failure and ``failed`` 50 s later; the attempt dies (no
    live-process event until ``until``)."""
    rng, node = job_rng(job), job.nodes[pos]
    rank = pos * job.gpus + gpu
    job.cut(at, until)
    said = []
    for dt, source, text in node_lines:
        own = source in ("training", "nccl")
        job.log(at + dt, rank if own else None, node, source, text, attempt if own else None,
                deliver_s=0.0 if own else rng.uniform(3, 60))
        said.append(f"{node} t={at + dt:.0f}s {source}: {text[:100]}")
    last = at + max((dt for dt, _, _ in node_lines), default=0.0)
    if rank_line is not None:
        job.log(last + rng.uniform(0.2, 2), rank, node, "training", rank_line, rng.choice((attempt, None)))
    said += cascade(job, last, node, rng.choice((attempt, None)), rng.randint(1, 5))
    _, text = fl.pick("elastic", rng)
    job.log(last + 45, 0, job.nodes[0], "training", text, attempt)
    job.lifecycle(last + 50, attempt, "failed", detail=f"rank {rank} exited with code 1")
    return said


def fatal_windows(job: JobRun, at: float, failed_at: float, until: float | None) -> Json:
    """A fault that kills its rank within seconds: checkpoint_now is a doubt until the job is
    reported failed (D2 doubt 1), then forbidden until the next attempt runs (``until``)."""
    end = iso(job.at(until)) if until is not None else "9999"
    return {"no_checkpoint": [(iso(job.at(failed_at)), end)],
            "checkpoint_doubt": [(iso(job.at(at)), iso(job.at(failed_at)))]}


def shift_node_events(job: JobRun, since_index: int, node: str, skew_s: float) -> None:
    """Give the events added from ``since_index`` on that come from ``node`` the node's skewed clock."""
    for e in job.events[since_index:]:
        if e.get("node_id") == node:
            e["event_time"] = iso(parse(e["event_time"]) + timedelta(seconds=skew_s))


def checkpoint_times(job: JobRun, lo_s: float, hi_s: float) -> list[float]:
    """Seconds (after the job's start) of the simulator's ``checkpoint_started`` hooks in [lo, hi)."""
    out = []
    for e in job.events:
        if e["schema"] == "job_event/v1" and e["kind"] == "checkpoint_started":
            s = (parse(e["event_time"]) - job.start).total_seconds()
            if lo_s <= s < hi_s:
                out.append(s)
    return sorted(out)


def stalled_windows(job: JobRun, stop_s: float, step_s: float) -> Json:
    """Checkpoint windows when training stops at ``stop_s``: until 'a step done within max(60 s,
    5 x median step time)' no longer holds the contract still calls the job progressing (a
    checkpoint_now is a doubt there, the hang not being visible yet); after it, 'never for a hang'."""
    grace = stop_s + max(60.0, 5 * step_s)
    return {"no_checkpoint": [(iso(job.at(grace)), "9999")],
            "checkpoint_doubt": [(iso(job.at(stop_s)), iso(job.at(grace)))]}
