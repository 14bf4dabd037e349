"""Settings of a simulated fleet and its fixed layout (which job runs on which nodes).

Node ids are ``node-0001``.. (1-based), job ids ``job-0000``.. (0-based). Each job gets a
disjoint, contiguous block of ``nodes_per_job`` nodes; rank ``r`` of a job runs on the job's
node ``r // gpus_per_node``, GPU ``r % gpus_per_node``. Nodes left over are idle.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from producers.simulator.variation import Variation

DEFAULT_START = datetime(2026, 11, 22, tzinfo=UTC)


def node_id(index: int) -> str:
    """The id of the fleet's node ``index`` (0-based): ``node_id(0) == "node-0001"``."""
    return f"node-{index + 1:04d}"


def job_id(index: int) -> str:
    """The id of job ``index`` (0-based): ``job_id(0) == "job-0000"``."""
    return f"job-{index:04d}"


@dataclass(frozen=True)
class FleetConfig:
    """Validated settings of one simulated run; every duration is simulated (event) time.

    ``duration_s`` is the length of the run from ``start``; all events have an event time in
    ``[start, start + duration_s)``. ``nodes_per_job`` defaults to ``nodes // jobs``.
    Raises ``ValueError`` on an impossible fleet (e.g. more job nodes than nodes).
    """

    nodes: int
    gpus_per_node: int = 8
    jobs: int = 1
    duration_s: float = 1800.0
    seed: int = 0
    cluster: str = "sim"
    start: datetime = DEFAULT_START
    step_time_s: float = 1.0
    sample_interval_s: float = 5.0
    stack_interval_s: float = 5.0
    collective_interval_s: float = 5.0
    log_interval_s: float = 10.0
    checkpoint_every_s: float = 600.0
    checkpoint_duration_s: float = 30.0
    nodes_per_job: int | None = None
    progress_every_steps: int = 10
    ports_per_node: int = 4
    total_iterations: int = 500_000
    variation: Variation = Variation()
    """How the telemetry departs from the ideal fleet (see variation.py)."""

    def __post_init__(self) -> None:
        if self.nodes < 1 or self.gpus_per_node < 1 or self.jobs < 0:
            raise ValueError("need nodes >= 1, gpus_per_node >= 1, jobs >= 0")
        if self.jobs and self.job_nodes < 1:
            raise ValueError(f"{self.nodes} nodes cannot hold {self.jobs} jobs")
        if self.job_nodes * self.jobs > self.nodes:
            raise ValueError("nodes_per_job * jobs exceeds nodes")
        if self.start.tzinfo is None:
            raise ValueError("start must be an aware datetime")
        positive = (self.duration_s, self.step_time_s, self.sample_interval_s,
                    self.stack_interval_s, self.collective_interval_s, self.log_interval_s,
                    self.checkpoint_every_s, self.progress_every_steps, self.ports_per_node)
        if min(positive) <= 0 or self.checkpoint_duration_s < 0:
            raise ValueError("durations, intervals and counts must be positive")
        skew = self.variation.skew_node
        if skew is not None and skew >= self.nodes:
            raise ValueError(f"skew_node {skew} outside 0..{self.nodes - 1}")

    @property
    def job_nodes(self) -> int:
        """Nodes per job (``nodes_per_job`` or ``nodes // jobs``)."""
        if self.nodes_per_job is not None:
            return self.nodes_per_job
        return self.nodes // self.jobs if self.jobs else 0

    @property
    def start_utc(self) -> datetime:
        """``start`` in UTC, truncated to whole milliseconds (the wire precision)."""
        utc = self.start.astimezone(UTC)
        return utc.replace(microsecond=utc.microsecond // 1000 * 1000)

    @property
    def duration_ms(self) -> int:
        """Length of the run in milliseconds."""
        return int(round(self.duration_s * 1000))

    def at(self, ms: int) -> datetime:
        """The aware UTC datetime ``ms`` milliseconds after the start of the run."""
        return self.start_utc + timedelta(milliseconds=ms)


@dataclass(frozen=True)
class JobLayout:
    """Where one job runs: its nodes in rank order and one rank per GPU."""

    index: int
    job_id: str
    node_ids: tuple[str, ...]
    gpus_per_node: int

    @property
    def world_size(self) -> int:
        """Number of ranks of the job."""
        return len(self.node_ids) * self.gpus_per_node

    def node_of(self, rank: int) -> str:
        """The node id rank ``rank`` runs on."""
        return self.node_ids[rank // self.gpus_per_node]

    def pid(self, rank: int) -> int:
        """The (simulated, stable) process id of rank ``rank``'s training process."""
        return 4000 + (self.index * 7919 + rank * 131) % 60000

    def ranks_on(self, node_pos: int) -> range:
        """The ranks on the job's node at position ``node_pos`` (0-based within the job)."""
        return range(node_pos * self.gpus_per_node, (node_pos + 1) * self.gpus_per_node)


def layouts(config: FleetConfig) -> tuple[JobLayout, ...]:
    """The layout of every job of ``config``: job ``j`` gets nodes ``j*n .. j*n+n-1``."""
    per = config.job_nodes
    return tuple(
        JobLayout(j, job_id(j), tuple(node_id(j * per + k) for k in range(per)),
                  config.gpus_per_node)
        for j in range(config.jobs)
    )
