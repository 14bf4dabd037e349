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

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

DEFAULT_IO_MARKERS: tuple[str, ...] = (
    "save",
    "checkpoint",
    "serializ",
    "write",
    "fsync",
    "flush",
)
"""Case-insensitive substrings of a frame that mean "this rank does checkpoint I/O".

Only used to recognise a checkpoint from what ranks do (``torch.save``,
``torch.distributed.checkpoint``, Megatron's ``save_checkpoint``, file writes), never to
recognise waiters: waiters are found by similarity (the large group whose identical stack
stopped moving), whatever framework's frames they sit in.
"""

DEFAULT_PHASE_LOG_MARKERS: tuple[str, ...] = (
    "saving checkpoint",
    "saving model checkpoint",
    "saving the checkpoint",
    "preparing to save checkpoint",
    "saving current state to",
    "is about to be saved",
    "saving model to",
    "evaluating",
    "running evaluation",
    "validation",
)
"""Case-insensitive substrings of a training log line that announce a quiet phase, from the
frameworks' own log calls: Megatron-LM "saving checkpoint at iteration N" and "evaluating on
validation set"; Hugging Face Trainer "Saving model checkpoint to DIR" and "***** Running
Evaluation *****"; DeepSpeed's checkpoint engines "[Torch] Checkpoint TAG is about to be
saved!"; Lightning's ModelCheckpoint (verbose) "..., saving model to PATH"; torchtitan
"Saving the checkpoint (or staging if async is enabled)."; fairseq "Preparing to save
checkpoint for epoch N @ M updates" and "begin validation on ..."; Accelerate's save_state
"Saving current state to DIR"; torchtune "Saving checkpoint. This may take some time. ...".
A phase announced by the job's last line is explained like a hooked one. A marker naming
evaluation or validation ("eval", "valid") announces an evaluation, any other a checkpoint."""


DEFAULT_PHASE_END_MARKERS: tuple[str, ...] = (
    "validation loss",
    "saved checkpoint",
    "is ready now",
    "finished saving",
    "saving checkpoint took",
)
"""Case-insensitive substrings of a training log line that end a quiet phase (Megatron's
"validation loss at iteration N | ..." result line and "successfully saved checkpoint from
iteration N", DeepSpeed's "[Torch] Checkpoint TAG is ready now!", torchtitan's "Finished
saving the checkpoint (or staging if async is enabled)in S seconds.", fairseq's and Orbax's
"Finished saving checkpoint to PATH", torchtune's "Saving checkpoint took S secs"): checked
before ``DEFAULT_PHASE_LOG_MARKERS`` ("validation" is in both, and the last four end lines
contain a start marker: read as announcements, they opened a save just as it ended, and a
hang in the steps after it waited for the save's budget)."""


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
    """Minimum probes that must agree when two or more probes have data. Two independent
    symptoms (Baige's rule) rule out the single-signal traps: an evaluation loop is silent
    but busy, a checkpoint is quiet but not waiting in NCCL, a slow data loader idles the
    GPUs but stalls no collective. The quorum adapts to the probes that have data: it is
    ``max(k, a strict majority of them)`` (4 with data: 3; 3: 2; 2: 2), so the probes that
    show activity can outvote the ones that show a symptom; with a single probe (a job that
    reports only logs and step progress) that probe decides alone, over ``solo_silence_s``."""

    solo_silence_s: float = Field(default=50.0, gt=0)
    """Silence needed when log/step progress is the only probe with data. Step progress
    stopping is itself evidence, but alone it cannot tell a hang from a quiet phase the job
    did not announce, so it must outlast five missed 10 s log lines (50 steps of a 1 s loop),
    three of the job's own median gaps and twice its longest earlier unannounced quiet gap
    (its periodic saves, once it has made one), which puts the verdict ~55 s after the onset,
    inside the 60 s target. The price, documented in the README: a job that reports nothing
    but logs and steps, sends no checkpoint hook and saves without saying so, is convicted by
    its first silent save longer than this (90 s before: the same trap, for saves of 90 s+);
    a hook or an announcing line (see DEFAULT_PHASE_LOG_MARKERS) removes it."""

    # --- probe 1: log silence --------------------------------------------------------
    log_silence_s: float = Field(default=45.0, gt=0)
    """No training/NCCL line and no step progress from any rank for this long. Training loops log every step or
    every few steps (seconds; Megatron-style 10 s cadences); 45 s is 4.5 missed lines at a
    10 s cadence and 13x below the 600 s NCCL timeout, so a job that reports only logs and
    DCGM/RDMA (no stacks, no flight recorder) still gets a verdict in ~50 s."""

    log_gap_factor: float = Field(default=3.0, ge=1)
    """A job that logs rarely must also stay silent for this many times its median gap
    between lines, so a job that logs every 30 s (or every 100 iterations) is not called
    silent after one missed line: three in a row (a regular cadence does not skip three
    beats while the loop runs; announced pauses are explained separately). Step reports are
    signs of life too: the cadence is the shorter of the median gap between lines and
    between step-progress advances. (Was 5: a job showing life every 20 s then waited
    100 s, past the 60 s latency target, for no gain on any healthy run we have.)"""

    # --- probe 2: metrics idle pattern ----------------------------------------------
    idle_window_s: float = Field(default=30.0, gt=0)
    """How long RDMA must stay flat while GPUs spin. A healthy step moves gradients at
    least every few seconds; 30 s of zero traffic is 6 DCGM/RDMA samples of nothing."""

    rdma_flat_bps: float = Field(default=1e6, ge=0)
    """A port's RDMA tx+rx rate at or below this counts as flat. Data-parallel training
    moves GB/s per node; 1 MB/s leaves room for keep-alives and management traffic."""

    rail_drop_fraction: float = Field(default=0.02, ge=0, le=1)
    """A port whose rate fell to this share of its own peak in the window is flat too: a
    compute rail drops by orders of magnitude when the collectives stop, whatever its
    keep-alive or checkpoint trickle."""

    rail_majority: float = Field(default=0.5, ge=0, le=1)
    """A node's RDMA is flat when the flat ports carried more than this share of the node's
    peak traffic in the window. The job's collectives (NCCL spreads them over all compute
    rails) are most of a node's RDMA bytes; a storage or GPUDirect Storage NIC keeps moving
    during a hang, and must not veto "RDMA is zero", but carries a minor share."""

    util_busy_pct: float = Field(default=80.0, ge=0, le=100)
    """GPU util at or above this is "busy". NCCL's spinning kernels keep DCGM GPU_UTIL near
    100 % while a collective waits (util counts time with any kernel resident)."""

    sm_idle_max: float = Field(default=0.2, ge=0, le=1)
    """SM activity at or below this while busy means spin-waiting, not computing: an NCCL
    kernel occupies a handful of SMs, real compute keeps SM_ACTIVE well above 0.5."""

    spin_power_fraction: float = Field(default=0.6, ge=0, le=1)
    """Without SM activity (NVML only: ``sm_active`` null) a busy GPU drawing at most this
    share of its own peak busy power in the attempt is spin-waiting: NCCL's spin kernels keep
    util at 100 % on a few SMs and draw a third of a computing GPU's power (a thermally
    throttled GPU still draws ~75 % of its peak: it computes)."""

    util_idle_pct: float = Field(default=10.0, ge=0, le=100)
    """GPU util at or below this is "idle" (nothing launched: e.g. a hung source rank)."""

    compute_veto_fraction: float = Field(default=0.9, gt=0, le=1)
    """Share of the ranks with readable GPU samples that must have computed through the last
    ``idle_window_s`` for the job to count as working, whatever its logs and collectives say:
    an evaluation or a save that never announces itself keeps every GPU computing, a hang
    leaves the waiters spinning in their collective (or idle) within a sample or two."""

    min_spin_fraction: float = Field(default=0.5, ge=0, le=1)
    """Share of ranks that must spin-wait for the idle pattern: in a hang, everybody but the
    one or two culprits waits inside a collective."""

    # --- probe 3: stacks frozen ----------------------------------------------------
    frozen_samples: int = Field(default=6, ge=2)
    """Consecutive identical stack samples per rank. py-spy style dumps every ~5 s make
    this ~30 s; a healthy step moves through forward/backward/optimizer frames in seconds."""

    waiter_fraction: float = Field(default=0.5, ge=0, le=1)
    """Share of the reporting ranks that must share one identical frozen stack (the waiter
    group): a hang leaves the majority blocked at the same point waiting on the culprit,
    whatever that point is called (NCCL returns at once; real waiters block in
    ``synchronize``, ``.item()``, ``Work.wait`` or a barrier)."""

    io_markers: tuple[str, ...] = DEFAULT_IO_MARKERS
    """Frame substrings of checkpoint I/O (see DEFAULT_IO_MARKERS): phase evidence only."""

    phase_log_markers: tuple[str, ...] = DEFAULT_PHASE_LOG_MARKERS
    """Log substrings announcing a quiet phase (see DEFAULT_PHASE_LOG_MARKERS)."""

    phase_end_markers: tuple[str, ...] = DEFAULT_PHASE_END_MARKERS
    """Log substrings ending an announced phase (see DEFAULT_PHASE_END_MARKERS)."""

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

    node_silence_s: float = Field(default=20.0, gt=0)
    """A node none of whose sources (GPU, RDMA, stacks, flight recorder, logs, steps) has
    reported for this long, while the job's other nodes report, has gone silent: a dead
    node is evidence and names the source. 20 s is four missed 5 s samples; its ranks are
    then left out of the other probes instead of voting with stale data for 60 s."""

    skew_tolerance_s: float = Field(default=15.0, gt=0)
    """A node whose clock is off the job's by more than this (estimated from the steps its
    ranks report against the other nodes', ``skew.py``) is left out of the probes and the
    localisation: its evidence describes another moment, and mixed with the others' it names
    the wrong ranks. NTP keeps clocks within milliseconds and the ranks of a synchronous job
    finish a step together; 15 s leaves room for step reports every 10 steps of a 1 s loop."""

    # --- lifecycle context ---------------------------------------------------------
    watchdog_s: float = Field(default=600.0, gt=0)
    """PyTorch ProcessGroupNCCL's default collective timeout. A hang inside a phase would
    be killed by it: every phase budget stays below it (``phase_budget_max_s``)."""

    phase_budget_max_s: float = Field(default=480.0, gt=0)
    """Hard cap of any phase budget: 80 % of the watchdog, so a hang masked by a checkpoint,
    an evaluation or an initialisation is still reported ~2 min before the watchdog fires."""

    checkpoint_budget_s: float = Field(default=300.0, gt=0)
    """Budget of a checkpoint (hooked, announced or learned) before the job has a measured
    history: 5 min covers a rank-0 save of a large model (4 min in issue 14)."""

    quiet_tick_s: float = Field(default=10.0, gt=0)
    """A job none of whose sources has sent anything for this long (on the stream's clock) is
    evaluated by the streaming shell's periodic tick (``HangDetector.tick``): twice
    ``eval_every_s``, so a job whose events still flow is always evaluated by them."""

    seen_save_budget_s: float = Field(default=480.0, gt=0)
    """Budget of a save the stacks show (the writers' latest stacks in checkpoint I/O frames),
    whatever the job's history: the ranks are seen writing, and a save's length varies with the
    model and the storage's load (a shared file system under another job's checkpoint storm
    doubles it), so only the watchdog bounds it (capped by ``phase_budget_max_s``). A save
    stuck in I/O is reported at this budget, ~2 min before the watchdog."""

    init_budget_s: float = Field(default=300.0, gt=0)
    """Same for initialisation and restart (NCCL init, checkpoint load, compilation)."""

    phase_overrun_factor: float = Field(default=4.0, ge=1)
    """From the job's own measured history: a phase may last this many times the longest
    earlier quiet period of the job (never more than ``phase_budget_max_s``)."""

    silent_phase_factor: float = Field(default=1.5, ge=1)
    """A phase during which one of the job's nodes fell silent (every source stopped while the
    others report: ``silence.py``) may last only this many times the job's longest earlier
    phase or quiet period, floor included (with no history, the usual budget): a save or an
    initialisation explains ranks that wait, not a node agent that stopped reporting, and a
    node that dies mid-save leaves the job stuck at the barrier that follows. 1.5 leaves the
    run-to-run spread of one job's saves (same model, same storage: tens of per cent); the
    shorter budget takes two anomalies at once (a silent node and a save past its history)."""

    phase_explains: tuple[str, ...] = (
        "log_silent", "metrics_idle", "stacks_frozen", "collective_stalled",
    )
    """Probes a checkpoint/evaluation/initialisation phase explains: a synchronous save is
    silent, moves no gradients, sits in I/O frames and can hold ranks in a barrier while
    the slowest writer finishes; initialisation (NCCL init, checkpoint load) likewise. A
    phase explains only while the evidence fits it (see ``context.py``): a hooked checkpoint
    during which steps still advance is asynchronous and explains nothing."""

    solo_eval_budget_s: float = Field(default=1800.0, gt=0)
    """Budget of an announced evaluation when log/step progress is the job's only probe with
    data (logs + step progress only). An evaluation's length is set by the job (eval
    iterations x forward time), not bounded by storage like a save, and every collective in
    it completes, so it may legitimately outlast the 600 s watchdog; from logs alone nothing
    tells it from a hang until it ends. Such a job is therefore not convicted inside an
    announced evaluation before Megatron-LM's raised NCCL timeout (30 min) or
    ``phase_overrun_factor`` x its own longest earlier evaluation, whichever is longer; a
    collective that really hangs in it is aborted by the framework's own watchdog first
    (the job fails, which the classifier sees). Jobs with any richer probe keep the
    ``phase_budget_max_s`` cap: their GPUs/RDMA/stacks show an evaluation computing."""

    phase_history: int = Field(default=16, ge=1)
    """Earlier phase durations kept per phase kind for the overrun rule."""

    # --- localisation -------------------------------------------------------------
    max_source_fraction: float = Field(default=0.25, ge=0, le=1)
    """A method naming more than this share of the ranks (and more than two) names no
    source, unless its ranks lie on at most this share of a multi-node job's nodes (at least
    one: a whole node stalled); a hang with more culprits is not single-point, restart in
    place (``localize.py``)."""

    lag_min_groups: int = Field(default=1, ge=1)
    """A rank lags only if behind in this many communicators (or all it belongs to, if
    fewer). One is enough: a hung rank misses the one collective the others wait in (the
    gradient all-reduce of its data-parallel group) while its other communicators are idle
    and level; healthy snapshot skew is filtered by requiring the leaders to be waiting."""

    strong_methods: tuple[str, ...] = ("collective_lag", "node_silence")
    """Methods trusted alone when no other method disagrees: a rank that never entered the
    collective the others wait in is direct, causal evidence (flight-recorder analysis);
    so is a node whose every source stopped at once while the rest of the job waits. Any
    method is also trusted alone when it is the only one with data (e.g. NVML-only nodes
    without stacks or flight recorder: the idle GPU among spinning ones)."""

    @model_validator(mode="after")
    def _budgets_below_watchdog(self) -> Self:
        """Every phase budget must end before the framework watchdog would fire."""
        if self.phase_budget_max_s >= self.watchdog_s:
            raise ValueError("phase_budget_max_s must stay below watchdog_s")
        return self
