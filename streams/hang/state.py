"""The hang detector's per-job state and its JSON form.

Times inside the state are integer microseconds since the Unix epoch (UTC): exact, cheap
to compare and JSON-safe, so ``load(dump(s))`` is bit-for-bit the same state. Everything
that grows with time is bounded: sample buffers are pruned to the vote window, stacks are
kept as run-lengths, collectives as the latest snapshot per (rank, communicator).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

JsonData = dict[str, Any]
"""The JSON form of a state (values are JSON types; nested shapes per ``dump_state``)."""
GpuPoint = tuple[int, float, float | None, float]
"""(event time us, util %, SM activity 0-1 or None on NVML-only nodes, power W)."""
NetPoint = tuple[int, int]
"""(event time us, tx + rx bytes of one port)."""
MAX_POINTS = 256
"""Hard cap per buffer, on top of time pruning, in case a producer samples very fast."""
MAX_GAPS = 32
SKEW_ESTIMATES = 6
"""Clock-offset estimates kept per node (their median is the node's offset; see skew.py)."""


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_us(value: datetime) -> int:
    """Microseconds since the epoch of an aware datetime (exact)."""
    if value.tzinfo is None:  # a naive time is local time, as ``astimezone`` reads it
        value = value.astimezone(UTC)
    delta = value - _EPOCH  # aware minus aware compares the UTC instants: no conversion needed
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(value: int) -> datetime:
    """The aware UTC datetime of ``value`` microseconds since the epoch (exact)."""
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=value)


def seconds(value: float) -> int:
    """A duration in seconds as integer microseconds."""
    return int(round(value * 1_000_000))


@dataclass
class StackRun:
    """The trailing run of identical stack samples of one rank; ``io``: checkpoint I/O frames."""

    sig: str
    start_us: int
    length: int
    last_us: int
    io: bool


@dataclass
class Snapshot:
    """The latest collective_progress of one rank in one communicator."""

    t_us: int
    enqueued: int
    completed: int
    op: str | None
    since_us: int | None


@dataclass
class AttemptState:
    """Evidence of the current attempt; replaced wholesale when a new attempt begins."""

    gpu: dict[int, deque[GpuPoint]] = field(default_factory=dict)
    net: dict[str, deque[NetPoint]] = field(default_factory=dict)
    """Per port, keyed ``node|device:port``."""
    power_peak_w: dict[int, float] = field(default_factory=dict)
    """Highest power each rank's GPU drew while busy in this attempt (NVML-only spin test)."""
    stacks: dict[int, StackRun] = field(default_factory=dict)
    colls: dict[tuple[int, str], Snapshot] = field(default_factory=dict)
    node_seen_us: dict[str, int] = field(default_factory=dict)
    """Latest event time any source of each node reported (node silence)."""
    node_step: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Node -> its latest reported step and that report's event time (us)."""
    offsets_s: dict[str, deque[float]] = field(default_factory=dict)
    """Node -> its recent clock-offset estimates in seconds (see ``skew.py``)."""
    skew_us: dict[str, int] = field(default_factory=dict)
    """Node -> its clock offset in us, for the nodes off by more than the tolerance (set at each
    vote from ``offsets_s``): subtracted from their event times to get the job's time."""
    ahead: set[str] = field(default_factory=set)
    """Nodes whose first report lay more than the skew tolerance ahead of the job's newest
    time, until their offset is estimated or the job's time catches up (``skew.py``)."""
    last_log_us: int | None = None
    last_work_us: int | None = None
    """The latest vote at which the job's GPUs were computing (``probes.gpus_computing``): a
    sign of life as good as a log line (an evaluation that prints nothing still computes)."""
    phase_line: str | None = None
    save_hook_done: bool = False
    """A checkpoint hook completed after ``phase_line`` announced a save: that save is over
    (no phase), though the quiet period it began is still filed under its kind."""
    phase_depth: int = 0
    phase_tag: str | None = None
    """The first number of the line that announced ``phase_line`` (its iteration): an end line
    naming another iteration ends some other (background) save, not this pause."""
    """Announcements of ``phase_line`` not yet ended (an asynchronous save still being written
    when a synchronous one is announced: the first end line does not end the second)."""
    """The quiet phase (``checkpoint``/``eval``) the job's latest training line announced."""
    log_gaps: deque[int] = field(default_factory=lambda: deque(maxlen=MAX_GAPS))
    progress_gaps: deque[int] = field(default_factory=lambda: deque(maxlen=MAX_GAPS))
    """Event-time gaps (us) between consecutive step-progress advances (the report cadence)."""
    step_ms: deque[float] = field(default_factory=lambda: deque(maxlen=MAX_GAPS))
    saw_steps: bool = False
    max_step: int | None = None
    last_progress_us: int | None = None
    floor_us: int | None = None
    verdict_open: bool = False
    verdict_step: int | None = None
    verdict_us: int | None = None
    hook_step: int | None = None
    """``max_step`` when the open checkpoint hook began: progress past it means asynchronous."""
    quiet_ranks: tuple[int, ...] | None = None
    """The ranks the current quiet period localised to, if any (see ``pauses.py``)."""
    hook_depth: int = 0
    """Checkpoint hooks begun and not yet completed (a save that begins in the same instant
    the previous one completes may be reported before that completion)."""


@dataclass
class JobState:
    """Everything the detector knows about one job.

    ``phase`` is one of ``none`` (no lifecycle seen), ``init`` (scheduled/restarting until
    running), ``train``, ``checkpoint`` or ``terminal`` (failed/finished/cancelled: no vote).
    ``history`` maps a phase to its earlier durations in seconds (most recent last); the
    ``quiet`` entry keeps the job's earlier quiet periods (no log, no step) that ended with
    progress, whatever caused them. ``pauses`` maps the ranks such a quiet period localised to
    (``"0"``, ``"0,8"``) to its longest duration in seconds: the job's own pause shapes.
    """

    job_id: str | None = None
    cluster: str | None = None
    attempt: int = 0
    placement: dict[int, str] = field(default_factory=dict)
    """Rank -> node; replaced whole when the lifecycle changes it, never edited in place."""
    phase: str = "none"
    phase_since_us: int | None = None
    history: dict[str, list[float]] = field(default_factory=dict)
    pauses: dict[str, float] = field(default_factory=dict)
    next_eval_us: int | None = None
    last_us: int | None = None
    announces_saves: bool = False
    """The job has announced a save (a ``checkpoint_started`` hook or a training line saying it
    saves): its saves are announced, so an unannounced quiet period is not one (``pauses.py``)."""
    saves_in_background: bool = False
    """A hooked save of the job ran while its loop made progress: its saves are asynchronous
    (a job's checkpointing mode is its configuration), so no hooked save masks the loop."""
    run: AttemptState = field(default_factory=AttemptState)
    _by_node: tuple[dict[int, str], dict[str, tuple[int, ...]]] | None = field(
        default=None, init=False, repr=False, compare=False)
    """``placement`` inverted (node -> its ranks), and the placement it was built from: every
    event asks about its node, and scanning the placement would cost O(ranks) per event."""

    def ranks_of(self, node: str) -> tuple[int, ...]:
        """The ranks placed on ``node`` in rank order (local GPU index = position)."""
        return self._nodes().get(node, ())

    def places(self, node: str) -> bool:
        """Whether ``node`` holds a rank of the placement."""
        return node in self._nodes()

    def _nodes(self) -> dict[str, tuple[int, ...]]:
        # ``placement`` is replaced whole, never edited in place: a new dict means a new index
        if self._by_node is None or self._by_node[0] is not self.placement:
            ranks: dict[str, list[int]] = {}
            for rank, node in sorted(self.placement.items()):
                ranks.setdefault(node, []).append(rank)
            self._by_node = (self.placement, {n: tuple(r) for n, r in ranks.items()})
        return self._by_node[1]


def last_activity_us(state: JobState) -> int | None:
    """The latest training/NCCL log line, step progress or vote that found the GPUs computing
    (``last_work_us``) of the attempt (None if none)."""
    run = state.run
    marks = [t for t in (run.last_log_us, run.last_progress_us, run.last_work_us) if t is not None]
    return max(marks) if marks else None


def dump_state(state: JobState) -> JsonData:
    """The JSON-ready form of ``state`` (see :func:`load_state`)."""
    return {
        "job_id": state.job_id,
        "cluster": state.cluster,
        "attempt": state.attempt,
        "placement": [[r, n] for r, n in sorted(state.placement.items())],
        "phase": state.phase,
        "phase_since_us": state.phase_since_us,
        "history": {k: list(v) for k, v in sorted(state.history.items())},
        "pauses": dict(sorted(state.pauses.items())),
        "next_eval_us": state.next_eval_us,
        "last_us": state.last_us,
        "announces_saves": state.announces_saves,
        "saves_in_background": state.saves_in_background,
        "run": _dump_run(state.run),
    }


def _dump_run(run: AttemptState) -> JsonData:
    return {
        "gpu": [[r, [list(p) for p in pts]] for r, pts in sorted(run.gpu.items())],
        "net": [[n, [list(p) for p in pts]] for n, pts in sorted(run.net.items())],
        "power_peak_w": [[r, w] for r, w in sorted(run.power_peak_w.items())],
        "stacks": [[r, dict(vars(s))] for r, s in sorted(run.stacks.items())],
        "colls": [[r, g, dict(vars(s))] for (r, g), s in sorted(run.colls.items())],
        "node_seen_us": [[n, t] for n, t in sorted(run.node_seen_us.items())],
        "node_step": [[n, st, t] for n, (st, t) in sorted(run.node_step.items())],
        "offsets_s": [[n, list(v)] for n, v in sorted(run.offsets_s.items())],
        "skew_us": [[n, o] for n, o in sorted(run.skew_us.items())],
        "ahead": sorted(run.ahead),
        "last_log_us": run.last_log_us,
        "last_work_us": run.last_work_us,
        "phase_line": run.phase_line,
        "save_hook_done": run.save_hook_done,
        "phase_depth": run.phase_depth,
        "phase_tag": run.phase_tag,
        "hook_step": run.hook_step,
        "hook_depth": run.hook_depth,
        "quiet_ranks": None if run.quiet_ranks is None else list(run.quiet_ranks),
        "log_gaps": list(run.log_gaps),
        "progress_gaps": list(run.progress_gaps),
        "step_ms": list(run.step_ms),
        "saw_steps": run.saw_steps,
        "max_step": run.max_step,
        "last_progress_us": run.last_progress_us,
        "floor_us": run.floor_us,
        "verdict_open": run.verdict_open,
        "verdict_step": run.verdict_step,
        "verdict_us": run.verdict_us,
    }


def load_state(data: JsonData) -> JobState:
    """Rebuild the state :func:`dump_state` saved."""
    return JobState(
        job_id=data["job_id"],
        cluster=data["cluster"],
        attempt=data["attempt"],
        placement={int(r): str(n) for r, n in data["placement"]},
        phase=data["phase"],
        phase_since_us=data["phase_since_us"],
        history={k: [float(x) for x in v] for k, v in data["history"].items()},
        pauses={str(k): float(v) for k, v in data.get("pauses", {}).items()},  # absent from older states
        next_eval_us=data["next_eval_us"],
        last_us=data["last_us"],
        announces_saves=bool(data.get("announces_saves", False)),  # absent from older states
        saves_in_background=bool(data.get("saves_in_background", False)),  # absent from older states
        run=_load_run(data["run"]),
    )


def _load_run(data: JsonData) -> AttemptState:
    run = AttemptState(
        gpu={int(r): deque(((p[0], p[1], p[2], p[3]) for p in pts), maxlen=MAX_POINTS)
             for r, pts in data["gpu"]},
        net={str(n): deque(((p[0], p[1]) for p in pts), maxlen=MAX_POINTS)
             for n, pts in data["net"]},
        power_peak_w={int(r): float(w) for r, w in data["power_peak_w"]},
        stacks={int(r): StackRun(**s) for r, s in data["stacks"]},
        colls={(int(r), str(g)): Snapshot(**s) for r, g, s in data["colls"]},
        node_seen_us={str(n): int(t) for n, t in data["node_seen_us"]},
        node_step={str(n): (int(st), int(t)) for n, st, t in data.get("node_step", [])},  # absent from older states
        offsets_s={str(n): deque((float(x) for x in v), maxlen=SKEW_ESTIMATES) for n, v in data.get("offsets_s", [])},
        skew_us={str(n): int(o) for n, o in data.get("skew_us", [])},  # absent from older states
        ahead={str(n) for n in data.get("ahead", [])},  # absent from older states
    )
    for name in ("last_log_us", "saw_steps", "max_step", "last_progress_us", "floor_us",
                 "verdict_open", "verdict_step", "verdict_us", "phase_line", "hook_step"):
        setattr(run, name, data[name])
    run.phase_depth = int(data.get("phase_depth", 1 if run.phase_line else 0))  # absent from older states
    run.phase_tag = data.get("phase_tag")
    run.save_hook_done = bool(data.get("save_hook_done", False))  # absent from older states
    run.last_work_us = data.get("last_work_us")  # absent from older states
    run.hook_depth = int(data.get("hook_depth", 1 if run.hook_step is not None else 0))  # absent from older states
    quiet = data.get("quiet_ranks")
    run.quiet_ranks = None if quiet is None else tuple(int(r) for r in quiet)
    run.log_gaps.extend(data["log_gaps"])
    run.progress_gaps.extend(data.get("progress_gaps", []))  # absent from states saved before it existed
    run.step_ms.extend(data["step_ms"])
    return run
