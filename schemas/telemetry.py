"""Telemetry inputs of the v1 contract: GPU and network samples, log lines, stacks, collectives."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.envelope import Event, UtcTime


class _Part(BaseModel):
    """A nested, frozen, forward-compatible object inside an event."""

    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)


class GpuStats(_Part):
    """One GPU inside a ``gpu_sample`` (DCGM/NVML field names in the comments of EVENTS.md)."""

    index: int = Field(ge=0)
    util_pct: float = Field(ge=0, le=100)
    sm_active: float | None = Field(default=None, ge=0, le=1)
    mem_used_bytes: int = Field(ge=0)
    temp_c: float
    power_w: float = Field(ge=0)
    ecc_sbe_total: int = Field(ge=0)
    ecc_dbe_total: int = Field(ge=0)
    xid_last: int | None = None
    nvlink_crc_errors_total: int = Field(ge=0)
    pcie_replay_total: int = Field(ge=0)
    throttle_reasons: int = Field(ge=0)


class GpuSample(Event):
    """One sample of every GPU of a node."""

    KIND = "gpu_sample"
    node_id: str = Field(min_length=1)
    gpus: tuple[GpuStats, ...]


class NetPort(_Part):
    """One RDMA/IB port inside a ``net_sample``; ``*_total`` counters are cumulative since boot."""

    device: str
    port: int = Field(ge=0)
    state: str
    tx_bytes_total: int = Field(ge=0)
    rx_bytes_total: int = Field(ge=0)
    symbol_errors_total: int = Field(ge=0)
    link_downed_total: int = Field(ge=0)
    rcv_errors_total: int = Field(ge=0)


class NetSample(Event):
    """One sample of every RDMA port of a node."""

    KIND = "net_sample"
    node_id: str = Field(min_length=1)
    ports: tuple[NetPort, ...]


LogSource = Literal["training", "nccl", "kernel", "system"]


class LogLine(Event):
    """One line of training/NCCL output (``telemetry.log``) or kernel/system log (``telemetry.kernel``)."""

    KIND = "log_line"
    node_id: str | None = None
    job_id: str | None = None
    rank: int | None = Field(default=None, ge=0)
    source: LogSource
    line: str
    attempt: int | None = Field(default=None, ge=0)
    """v1 extension: the job attempt that wrote the line, when the producer knows it."""


class StackSample(Event):
    """A py-spy style dump of a training process's main thread, outermost frame first."""

    KIND = "stack_sample"
    job_id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    rank: int = Field(ge=0)
    pid: int = Field(ge=0)
    frames: tuple[str, ...]


class CollectiveProgress(Event):
    """A periodic flight-recorder style snapshot of one rank in one communicator."""

    KIND = "collective_progress"
    job_id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    rank: int = Field(ge=0)
    comm_group: str
    last_enqueued_seq: int = Field(ge=0)
    last_completed_seq: int = Field(ge=0)
    in_flight_op: str | None = None
    in_flight_since: UtcTime | None = None
