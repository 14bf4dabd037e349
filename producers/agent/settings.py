"""The agent's one frozen settings model, built once by ``agent_main`` and passed down.

Default intervals (event-driven sources poll their file descriptors at ``tail_poll_s``):

    GPU (NVML)                 gpu_interval_s    5 s
    RDMA/IB ports (sysfs)      net_interval_s    5 s
    stacks (py-spy)            stack_interval_s  30 s (and on SIGUSR1 / trigger file)
    kernel log (/dev/kmsg)     continuous: polled every tail_poll_s (0.5 s)
    training logs              continuous: polled every tail_poll_s (0.5 s)
    Xid events (NVML)          continuous: a thread blocked in nvmlEventSetWait_v2
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

FsyncPolicy = Literal["always", "interval", "never"]


class AgentSettings(BaseModel):
    """Everything ``faultline agent`` needs; paths under ``host_root`` are resolved by :meth:`host`."""

    model_config = ConfigDict(frozen=True)

    cluster: str = Field(default="default", min_length=1)
    node_id: str = Field(min_length=1)
    host_root: Path = Path("/")
    state_dir: Path = Path("/var/lib/faultline-agent")

    gpu: bool = True
    xid_events: bool = True
    net: bool = True
    kmsg: Literal["kmsg", "journald", "off"] = "kmsg"
    stacks: bool = True

    gpu_interval_s: float = Field(default=5.0, gt=0)
    net_interval_s: float = Field(default=5.0, gt=0)
    stack_interval_s: float = Field(default=30.0, gt=0)
    tail_poll_s: float = Field(default=0.5, gt=0)
    backoff_initial_s: float = Field(default=1.0, gt=0)
    backoff_max_s: float = Field(default=300.0, gt=0)

    dcgm_exporter_url: str | None = None
    """A local dcgm-exporter ``/metrics`` URL for DCGM_FI_PROF_SM_ACTIVE when NVML GPM is unavailable."""
    kmsg_path: Path | None = None
    """Default ``<host_root>/dev/kmsg``; a regular file or FIFO in the same format also works."""

    log_dirs: tuple[Path, ...] = ()
    """torchrun ``--log-dir`` roots: ``<dir>/<run_id>/attempt_<N>/<local_rank>/{stdout,stderr}.log``."""
    job_id: str | None = None
    node_rank: int | None = Field(default=None, ge=0)
    nproc_per_node: int | None = Field(default=None, ge=1)

    stack_match: tuple[str, ...] = ("train",)
    """A process is a training process when its cmdline contains one of these substrings."""
    stack_trigger_file: Path | None = None
    py_spy: str = "py-spy"
    py_spy_timeout_s: float = Field(default=10.0, gt=0)

    spool_max_bytes: int = Field(default=256 * 1024 * 1024, ge=1024)
    spool_segment_bytes: int = Field(default=8 * 1024 * 1024, ge=256)
    spool_fsync: FsyncPolicy = "interval"
    spool_fsync_interval_s: float = Field(default=1.0, gt=0)
    send_batch: int = Field(default=5000, ge=1)
    """Records handed to librdkafka at once; the rest wait on disk (bounds memory during outages)."""

    metrics_port: int | None = Field(default=9403, ge=0, le=65535)

    def host(self, path: str) -> Path:
        """``path`` (absolute, e.g. ``/sys/class/infiniband``) under the host root."""
        return self.host_root / path.lstrip("/")

    @property
    def kmsg_file(self) -> Path:
        """The kernel log device (or stand-in file) to read."""
        return self.kmsg_path or self.host("/dev/kmsg")

    @property
    def spool_dir(self) -> Path:
        return self.state_dir / "spool"
