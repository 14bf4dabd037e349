"""Small builders of the events the policy consumes (test helpers, no I/O)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from schemas import (
    Event,
    Fault,
    GpuSample,
    GpuStats,
    HangSignals,
    HangVerdict,
    JobEvent,
    NetPort,
    NetSample,
    Placement,
    SlowNode,
    StepProgress,
    derived_id,
)
from schemas.jobs import JobEventKind

T0 = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    """T0 + ``seconds``."""
    return T0 + timedelta(seconds=seconds)


def job(kind: JobEventKind, s: float, job_id: str = "j1", attempt: int = 0,
        nodes: Iterable[str] = (), cluster: str = "c1") -> JobEvent:
    """A job_event; ``nodes`` become the placement (one rank per node)."""
    placement = tuple(Placement(rank=i, node_id=n) for i, n in enumerate(nodes))
    return JobEvent(event_id=f"je-{job_id}-{kind}-{s}-{attempt}", event_time=at(s), cluster=cluster,
                    job_id=job_id, attempt=attempt, kind=kind, placement=placement)


def steps(start: float, end: float, job_id: str = "j1", every: float = 10.0, node: str = "n1",
          cluster: str = "c1") -> list[StepProgress]:
    """Rank-0 steps every ``every`` seconds in [start, end]."""
    out, s, n = [], start, 0
    while s <= end:
        out.append(StepProgress(event_id=f"sp-{job_id}-{s}", event_time=at(s), cluster=cluster,
                                job_id=job_id, node_id=node, rank=0, step=n, step_time_ms=every * 1000))
        s, n = s + every, n + 1
    return out


def fault(s: float, node: str | None, category: str = "gpu_memory_ecc", level: str = "fault",
          blame: str = "node", job_id: str | None = "j1", count: int = 1, attempt: int | None = None,
          cluster: str = "c1", fid: str | None = None, action: str | None = None) -> Fault:
    """A classified fault first seen at ``s``."""
    fault_id = fid or derived_id("fault", node or job_id, category, at(s))
    return Fault(event_id=fault_id, event_time=at(s), cluster=cluster, fault_id=fault_id,
                 node_id=node, job_id=job_id, category=category, family="test", level=level,  # type: ignore[arg-type]  # literal from a str parameter
                 blame=blame, rule_id="test", evidence="test line", first_seen=at(s),  # type: ignore[arg-type]  # literal from a str parameter
                 count=count, attempt=attempt, action=action)


def gpu_samples(start: float, end: float, node: str = "n1", every: float = 5.0,
                cluster: str = "c1") -> list[GpuSample]:
    """A node agent's GPU samples every ``every`` seconds in [start, end] (one idle GPU): the
    periodic telemetry that keeps a job's event time moving while nothing else happens."""
    gpu = GpuStats(index=0, util_pct=0.0, mem_used_bytes=0, temp_c=40.0, power_w=60.0, ecc_sbe_total=0,
                   ecc_dbe_total=0, nvlink_crc_errors_total=0, pcie_replay_total=0, throttle_reasons=0)
    out, s = [], start
    while s <= end:
        out.append(GpuSample(event_id=f"gs-{node}-{s}", event_time=at(s), cluster=cluster, node_id=node,
                             gpus=(gpu,)))
        s += every
    return out


TWO_SIGNALS = HangSignals(log_silent=True, stacks_frozen=True)


def hang(s: float, nodes: Iterable[str], job_id: str = "j1", attempt: int = 0,
         confidence: float = 0.9, cluster: str = "c1", signals: HangSignals = TWO_SIGNALS) -> HangVerdict:
    """A hang verdict detected at ``s`` localised to ``nodes``, seen by ``signals``."""
    vid = derived_id("hang_verdict", job_id, attempt, at(s))
    return HangVerdict(event_id=vid, event_time=at(s), cluster=cluster, verdict_id=vid,
                       job_id=job_id, attempt=attempt, onset_time=at(s - 120), detected_at=at(s),
                       signals=signals, source_nodes=tuple(nodes),
                       confidence=confidence)


def slow(s: float, node: str, windows: int = 5, job_id: str = "j1", cluster: str = "c1") -> SlowNode:
    """A slow-node outlier on ``node`` that persisted ``windows`` windows."""
    oid = derived_id("slow_node", job_id, node, at(s))
    return SlowNode(event_id=oid, event_time=at(s), cluster=cluster, outlier_id=oid, job_id=job_id,
                    node_id=node, metric="compute_ms", value=150.0, baseline=100.0, slowdown=1.5,
                    score=6.0, windows=windows, detected_at=at(s))


def running_job(nodes: Iterable[str] = ("n1", "n2", "n3", "n4"), job_id: str = "j1",
                until: float = 100.0, cluster: str = "c1") -> list[Event]:
    """A job scheduled on ``nodes`` at 0, running from 5 and stepping every 10 s until ``until``."""
    return [job("scheduled", 0, job_id, nodes=nodes, cluster=cluster),
            job("running", 5, job_id, cluster=cluster),
            *steps(10, until, job_id, cluster=cluster)]


def port_samples(node: str, down_at: float | None, start: float = 5.0, end: float = 400.0, every: float = 10.0,
                 device: str = "mlx5_0", cluster: str = "c1", never_active: bool = False) -> list[NetSample]:
    """A node agent's RDMA port samples every ``every`` seconds: the port ACTIVE (or DOWN all
    along if ``never_active``: unused), and from ``down_at`` on DOWN with link_downed_total + 1."""
    out, s = [], start
    while s <= end:
        down = down_at is not None and s >= down_at
        port = NetPort(device=device, port=1, state="DOWN" if down or never_active else "ACTIVE",
                       tx_bytes_total=int(s) * 10**9, rx_bytes_total=int(s) * 10**9, symbol_errors_total=0,
                       link_downed_total=1 if down else 0, rcv_errors_total=0)
        out.append(NetSample(event_id=f"ns-{node}-{s}", event_time=at(s), cluster=cluster, node_id=node,
                             ports=(port,)))
        s += every
    return out
