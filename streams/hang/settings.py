"""Every threshold of the hang detector, with the public knowledge each default rests on.

Built once at the entry point and passed down (STYLE.md 4). The defaults come from how
training jobs hang in public reports, not from the simulator: PyTorch's ProcessGroupNCCL
watchdog aborts a collective after 600 s by default (Megatron-LM raises it to 30 min),
ByteRobust declares a hang after 10 min of zero RDMA traffic, nvidia-resiliency-ext's
in-job watchdog waits minutes for a heartbeat, and Baidu Baige votes over four independent
signals in a short window. faultline must beat all of them (detection within ~60 s), so
each probe fires after ~30-60 s of a symptom that a healthy step (0.1-10 s) never shows
for that long, and the vote needs two independent probes so that one misleading signal
(a silent evaluation loop, a quiet checkpoint) never convicts a job on its own.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_COMM_MARKERS: tuple[str, ...] = (
    "nccl",
    "all_reduce",
    "allreduce",
    "all_gather",
    "allgather",
    "reduce_scatter",
    "reducescatter",
    "all_to_all",
    "alltoall",
    "broadcast",
    "barrier",
    "c10d",
    "processgroup",
    "isend",
    "irecv",
    "p2p",
)
"""Case-insensitive substrings of a frame that mean "this rank waits in communication".

Taken from the names PyTorch/NCCL use for collectives and their waits (``c10d``,
``ProcessGroupNCCL``, ``ncclAllReduce``, ``torch.distributed.barrier``, Megatron's p2p
``isend``/``irecv``), not from one simulator's strings. Bare ``wait`` is deliberately not a
marker: a data loader blocked in ``threading.Condition.wait`` is not a collective; a
collective's ``Work.wait`` frame sits next to a c10d/NCCL frame, which the marker catches.
"""


class HangSettings(BaseModel):
    """The hang detector's configuration; every field has a documented default.

    Durations are seconds of event time; fractions are in [0, 1].
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    # --- the vote -------------------------------------------------------------------
    window_s: float = Field(default=300.0, gt=0)
    """Sliding vote window and retention horizon. 5 min is half PyTorch's 600 s NCCL
    timeout: long enough to hold every probe's evidence (the longest default probe needs
    45 s) and the ~minute of healthy history localisation compares against, short enough
    to keep per-job memory small (Baige votes over a window of this order)."""

    eval_every_s: float = Field(default=5.0, gt=0)
    """Vote cadence on a fixed event-time grid. DCGM, py-spy and flight-recorder samples
    arrive every ~5 s; evaluating faster would re-read the same data."""

    k: int = Field(default=2, ge=1, le=4)
    """Probes that must agree. Two independent symptoms (Baige's rule) rule out the
    single-signal traps: an evaluation loop is silent but busy, a checkpoint is quiet but
    not waiting in NCCL, a slow data loader idles the GPUs but stalls no collective."""

    # --- probe 1: log silence --------------------------------------------------------
    log_silence_s: float = Field(default=45.0, gt=0)
    """No training/NCCL line from any rank for this long. Training loops log every step or
    every few steps (seconds; Megatron-style 10 s cadences); 45 s is 4.5 missed lines at a
    10 s cadence and 13x below the 600 s NCCL timeout, so a job that reports only logs and
    DCGM/RDMA (no stacks, no flight recorder) still gets a verdict in ~50 s."""

    log_gap_factor: float = Field(default=5.0, ge=1)
    """A job that logs rarely must also stay silent for this many times its median gap
    between lines, so a job that logs every 30 s (or every 100 iterations) is not called
    silent after one missed line."""

    # --- probe 2: metrics idle pattern ----------------------------------------------
    idle_window_s: float = Field(default=30.0, gt=0)
    """How long RDMA must stay flat while GPUs spin. A healthy step moves gradients at
    least every few seconds; 30 s of zero traffic is 6 DCGM/RDMA samples of nothing."""

    rdma_flat_bps: float = Field(default=1e6, ge=0)
    """A node's RDMA tx+rx rate at or below this counts as flat. Data-parallel training
    moves GB/s per node; 1 MB/s leaves room for keep-alives and management traffic."""

    util_busy_pct: float = Field(default=80.0, ge=0, le=100)
    """GPU util at or above this is "busy". NCCL's spinning kernels keep DCGM GPU_UTIL near
    100 % while a collective waits (util counts time with any kernel resident)."""

    sm_idle_max: float = Field(default=0.2, ge=0, le=1)
    """SM activity at or below this while busy means spin-waiting, not computing: an NCCL
    kernel occupies a handful of SMs, real compute keeps SM_ACTIVE well above 0.5."""

    util_idle_pct: float = Field(default=10.0, ge=0, le=100)
    """GPU util at or below this is "idle" (nothing launched: e.g. a hung source rank)."""

    min_spin_fraction: float = Field(default=0.5, ge=0, le=1)
    """Share of ranks that must spin-wait for the idle pattern: in a hang, everybody but the
    one or two culprits waits inside a collective."""

    # --- probe 3: stacks frozen ----------------------------------------------------
    frozen_samples: int = Field(default=6, ge=2)
    """Consecutive identical stack samples per rank. py-spy style dumps every ~5 s make
    this ~30 s; a healthy step moves through forward/backward/optimizer frames in seconds."""

    comm_wait_fraction: float = Field(default=0.5, ge=0, le=1)
    """Share of the frozen ranks that must sit in a communication frame: a hang leaves the
    majority waiting on the culprit, whereas long evaluation, data loading or checkpoint
    writes freeze the stack in compute or I/O frames."""

    comm_markers: tuple[str, ...] = DEFAULT_COMM_MARKERS
    """Frame substrings that mean "waiting in communication" (see DEFAULT_COMM_MARKERS)."""

    comm_frame_depth: int = Field(default=3, ge=1)
    """How many innermost frames are searched for a marker: the wait is at the top of the
    stack; an outer frame named after communication (a training loop helper) is not."""

    # --- probe 4: collective stalled -------------------------------------------------
    collective_stall_s: float = Field(default=30.0, gt=0)
    """A collective in flight this long is stalled. Healthy collectives take ms to a few
    seconds; 30 s is 20x below the 600 s PyTorch watchdog timeout."""

    collective_min_fraction: float = Field(default=0.5, ge=0, le=1)
    """Share of the reporting ranks that must be stalled: a hung collective blocks every
    rank but its culprits, while one slow rank in a healthy job blocks nobody for 30 s."""

    step_factor: float = Field(default=2.0, ge=0)
    """Collective stall, idle pattern and frozen stacks must also outlast this many median
    step times of the job (from step_progress): a job whose steps take minutes spends tens
    of seconds in one collective or frame legitimately. With ~1 s steps it changes nothing."""

    stale_s: float = Field(default=60.0, gt=0)
    """A sample older than this is no evidence (no data), e.g. from a dead node agent.
    60 s tolerates collectors sampling every 30 s that miss one sample."""

    # --- lifecycle context ---------------------------------------------------------
    checkpoint_budget_s: float = Field(default=1800.0, gt=0)
    """A checkpoint explains silence and idleness for at least this long. 30 min is
    Megatron-LM's distributed timeout, the longest public default for a healthy save."""

    init_budget_s: float = Field(default=1800.0, gt=0)
    """Same for initialisation and restart (NCCL init, checkpoint load, compilation)."""

    phase_overrun_factor: float = Field(default=4.0, ge=1)
    """A phase lasting longer than this many times its longest earlier occurrence in the
    job (and longer than its budget) is not explained any more: it is hung."""

    phase_explains: tuple[str, ...] = (
        "log_silent", "metrics_idle", "stacks_frozen", "collective_stalled",
    )
    """Probes a checkpoint/initialisation/restart phase explains: a synchronous save is
    silent, moves no gradients, sits in I/O frames and can hold ranks in a barrier while
    the slowest writer finishes; initialisation (NCCL init, checkpoint load) likewise."""

    phase_history: int = Field(default=16, ge=1)
    """Earlier phase durations kept per phase kind for the overrun rule."""

    # --- localisation -------------------------------------------------------------
    max_source_fraction: float = Field(default=0.25, ge=0, le=1)
    """A method naming more than this share of the ranks (and more than two) names no
    source: a hang with that many culprits is not single-point, restart in place."""

    lag_min_groups: int = Field(default=1, ge=1)
    """A rank lags only if behind in this many communicators (or all it belongs to, if
    fewer). One is enough: a hung rank misses the one collective the others wait in (the
    gradient all-reduce of its data-parallel group) while its other communicators are idle
    and level; healthy snapshot skew is filtered by requiring the leaders to be waiting."""

    strong_methods: tuple[str, ...] = ("collective_lag",)
    """Methods trusted alone when no other method disagrees: a rank that never entered the
    collective the others wait in is direct, causal evidence (flight-recorder analysis)."""
