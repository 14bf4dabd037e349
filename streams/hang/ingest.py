"""Folding telemetry into the per-job state: one small function per event kind.

Every function mutates the state it is given and never looks at the wall clock; buffers are
pruned to the vote window of the event's own time, so memory stays bounded however long
the job runs.
"""

from __future__ import annotations

import re
from collections import deque

from schemas import CollectiveProgress, GpuSample, LogLine, NetSample, StackSample, StepProgress
from streams.hang.pauses import learn_pause
from streams.hang.settings import HangSettings
from streams.hang.skew import clocks_known, job_time_us
from streams.hang.state import (
    MAX_POINTS,
    AttemptState,
    GpuPoint,
    JobState,
    NetPoint,
    Snapshot,
    StackRun,
    last_activity_us,
    seconds,
    to_us,
)

JOB_LOG_SOURCES = ("training", "nccl")
TAG = re.compile(r"\d+")
NCCL_WARNING = "NCCL WARN"
"""NCCL prints its warnings from its error and retry paths ("NCCL WARN NET/IB : Got completion
from peer ... status=12", "NCCL WARN Call to recv failed ..."), and keeps printing them while a
collective it cannot complete hangs: a job's only lines then are no sign that it progresses."""
STACK_DUMP = re.compile(
    r'^\s*File "[^"]*", line \d+|\(most recent call (?:first|last)\):?\s*$|^Timeout \(\d+:\d\d:\d\d(?:\.\d+)?\)!$'
)
"""Lines of a Python stack dump: faulthandler.dump_traceback_later(repeat=True), a common hang
watchdog, prints "Timeout (0:05:00)!", "Thread 0x... (most recent call first):" and '  File
"...", line N in wait' from a process that is stuck; a traceback is a process failing."""


def _no_progress(event: LogLine) -> bool:
    """Whether a job's line says nothing about its progress: an NCCL warning, a stack dump."""
    if event.source == "nccl":
        return NCCL_WARNING in event.line
    line = event.line
    if 'File "' not in line and "most recent call" not in line and not line.startswith("Timeout ("):
        return False  # the common case, without a regex
    return STACK_DUMP.search(line) is not None


def is_io(frames: tuple[str, ...], settings: HangSettings) -> bool:
    """Whether a stack (outermost first) does checkpoint I/O: an I/O marker in any frame."""
    lowered = "\n".join(frames).lower()
    return any(marker in lowered for marker in settings.io_markers)


def seen(state: JobState, node: str | None, now_us: int) -> None:
    """Record that ``node`` reported at ``now_us`` (any source: node silence)."""
    if node is None or not state.places(node):
        return
    last = state.run.node_seen_us.get(node)
    if last is None or now_us > last:
        state.run.node_seen_us[node] = now_us


def restart_floor(run: AttemptState, now_us: int) -> None:
    """Start counting evidence afresh at ``now_us``: older silence and stack runs are explained."""
    run.floor_us = now_us
    for stack in run.stacks.values():
        stack.sig = ""
        stack.length = 0


def _quiet_ended(state: JobState, now_us: int, settings: HangSettings, progress: bool) -> None:
    """A quiet period (no log, no step) just ended with activity: record it in the job's
    history and, like the end of a hooked phase, restart the evidence floor (what the quiet
    phase left behind, a barrier still in flight, idle GPUs, does not count afterwards).

    A quiet period the job announced (its last line said "evaluating", "saving checkpoint")
    is kept under that phase's kind, an unannounced one under ``quiet``: only unannounced
    pauses lengthen the logs-only solo window, announced ones have their own phase budget. If
    the quiet period localised to some ranks (and was not declared a hang), its shape is
    learned (``pauses.py``), if the job ended it by ``progress`` (a step, or a line that does
    not just end a phase) or reports no steps: in a job that reports steps, a save's end line
    alone (an asynchronous writer saying it is done while the loop hangs) teaches no shape. Nothing is learnt from the wait for the first
    step (that is initialisation) nor before the nodes' clock offsets are known (``skew.py``):
    a node a minute behind that reports first makes a minute's pause.
    """
    run = state.run
    last = last_activity_us(state)
    shape, run.quiet_ranks = run.quiet_ranks, None
    if last is None:
        return
    gap_s = (now_us - last) / 1e6
    if gap_s < settings.log_silence_s / 2:
        return
    starting = state.phase == "init" or (run.saw_steps and run.max_step is None)
    if not starting and clocks_known(state):
        kept = state.history.setdefault(run.phase_line or "quiet", [])
        kept.append(gap_s)
        del kept[: max(0, len(kept) - settings.phase_history)]
        if shape and not run.verdict_open and (progress or not run.saw_steps):
            learn_pause(state, shape, gap_s)
    restart_floor(run, now_us)


def _kind(marker: str) -> str:
    """The phase a marker names: an evaluation if it says so ("eval", "valid"), else a save."""
    return "eval" if "eval" in marker or "valid" in marker else "checkpoint"


def _ended(line: str, settings: HangSettings) -> str | None:
    """The phase kind a line says has ended ("saved checkpoint", "validation loss"), or None."""
    lowered = line.lower()
    return next((_kind(m) for m in settings.phase_end_markers if m in lowered), None)


def _tag(line: str) -> str | None:
    """The first number of a line (the iteration a save or evaluation announces), if any."""
    found = TAG.search(line)
    return found.group(0) if found else None


def _other_tag(run: AttemptState, line: str) -> bool:
    """Whether an end line names another iteration than the open announcement did."""
    tag = _tag(line)
    return run.phase_tag is not None and tag is not None and tag != run.phase_tag


def _follow_phase(run: AttemptState, announced: str | None, ended: str | None) -> None:
    """Update the announced phase from the job's latest training line: an announcement opens
    (or nests in) a phase, its end line closes one level, any other line means the loop runs."""
    run.save_hook_done = False
    if announced is not None:
        run.phase_depth = run.phase_depth + 1 if announced == run.phase_line else 1
        run.phase_line = announced
    elif ended is not None and ended == run.phase_line and run.phase_depth > 1:
        run.phase_depth -= 1
    else:
        run.phase_line, run.phase_depth = None, 0


def _announced(line: str, settings: HangSettings) -> str | None:
    lowered = line.lower()
    if _ended(lowered, settings) is not None:
        return None
    for marker in settings.phase_log_markers:
        if marker in lowered:
            return _kind(marker)
    return None


def on_log(state: JobState, event: LogLine, now_us: int, settings: HangSettings) -> None:
    """Record a training/NCCL line as a sign of life; kernel/system lines, NCCL's warnings
    (:data:`NCCL_WARNING`) and stack dumps (:data:`STACK_DUMP`) say nothing.

    The latest training line may announce a quiet phase (``phase_line``). A line ending a
    phase ("saved checkpoint") other than the announced one, in a job that reports steps, is
    no sign of life and changes no phase: an asynchronous save's writer reports completion
    whether the training loop runs, evaluates or hangs; the loop shows progress by its steps.
    For a job that reports no steps, a line after a verdict closes the hang episode. A line of a
    node whose clock is off the job's (``skew.py``) counts at the job's time of the line.
    """
    seen(state, event.node_id, now_us)
    if event.source not in JOB_LOG_SOURCES or _no_progress(event):
        return
    now_us = job_time_us(state, event.node_id, now_us)
    run = state.run
    ended = _ended(event.line, settings)
    if run.saw_steps and ended is not None and (ended != run.phase_line or _other_tag(run, event.line)):
        return  # a background write reporting completion, not the end of the announced pause
    if run.last_log_us is None or now_us > run.last_log_us:
        _quiet_ended(state, now_us, settings, progress=ended is None)
        if run.last_log_us is not None:
            run.log_gaps.append(now_us - run.last_log_us)
        run.last_log_us = now_us
    latest = run.last_log_us
    if event.source == "training" and (latest is None or now_us >= latest):  # ties: "saved" then "evaluating"
        announced = _announced(event.line, settings)
        state.announces_saves |= announced == "checkpoint"
        _follow_phase(run, announced, ended)
        if run.phase_line is not None and ended is None:
            run.phase_tag = _tag(event.line)
    if run.verdict_open and not run.saw_steps and run.verdict_us is not None and now_us > run.verdict_us:
        run.verdict_open = False  # a job without step reports shows progress by logging again


def on_step(state: JobState, event: StepProgress, now_us: int, settings: HangSettings) -> None:
    """Record training progress; progress past a verdict's step closes the hang episode.

    The node's own report time feeds the clock-offset estimate (``skew.py``); the job's
    progress is timed at the job's time of the report (its own less the node's offset): a node
    a minute behind that reports a step first must not date the job's progress a minute back.
    """
    run = state.run
    seen(state, event.node_id, now_us)
    run.saw_steps = True
    run.step_ms.append(event.step_time_ms)
    latest = run.node_step.get(event.node_id)
    if latest is None or event.step > latest[0]:
        run.node_step[event.node_id] = (event.step, now_us)
    now_us = job_time_us(state, event.node_id, now_us)
    if run.max_step is None or event.step > run.max_step:
        _quiet_ended(state, now_us, settings, progress=True)
        if run.last_progress_us is not None and now_us > run.last_progress_us:
            run.progress_gaps.append(now_us - run.last_progress_us)
        run.max_step = event.step
        run.last_progress_us = now_us
    if run.verdict_open and run.verdict_step is not None and event.step > run.verdict_step:
        run.verdict_open = False


def on_stack(state: JobState, event: StackSample, now_us: int, settings: HangSettings) -> None:
    """Extend or restart the rank's run of identical stacks."""
    sig = "\n".join(event.frames)
    seen(state, event.node_id, now_us)
    current = state.run.stacks.get(event.rank)
    if current is not None and current.sig == sig and current.length > 0:
        current.length += 1
        current.last_us = max(current.last_us, now_us)
        return
    state.run.stacks[event.rank] = StackRun(sig=sig, start_us=now_us, length=1, last_us=now_us,
                                            io=is_io(event.frames, settings))


def on_collective(state: JobState, event: CollectiveProgress, now_us: int, settings: HangSettings) -> None:
    """Keep the latest snapshot of (rank, communicator)."""
    seen(state, event.node_id, now_us)
    since = to_us(event.in_flight_since) if event.in_flight_since is not None else None
    state.run.colls[(event.rank, event.comm_group)] = Snapshot(
        t_us=now_us,
        enqueued=event.last_enqueued_seq,
        completed=event.last_completed_seq,
        op=event.in_flight_op,
        since_us=since,
    )


def on_gpu(state: JobState, event: GpuSample, now_us: int, settings: HangSettings) -> None:
    """Append each GPU's util/SM/power to its rank (local index = position among the node's
    ranks) and keep each rank's peak busy power (the NVML-only spin test compares to it)."""
    ranks = state.ranks_of(event.node_id)
    seen(state, event.node_id, now_us)
    run = state.run
    horizon_us = now_us - seconds(settings.window_s)
    for gpu in event.gpus:
        if gpu.index >= len(ranks):
            continue
        rank = ranks[gpu.index]
        points = run.gpu.setdefault(rank, deque(maxlen=MAX_POINTS))
        points.append((now_us, gpu.util_pct, gpu.sm_active, gpu.power_w))
        _prune(points, horizon_us)
        if gpu.util_pct >= settings.util_busy_pct and gpu.power_w > run.power_peak_w.get(rank, 0.0):
            run.power_peak_w[rank] = gpu.power_w


def on_net(state: JobState, event: NetSample, now_us: int, settings: HangSettings) -> None:
    """Append each port's RDMA bytes (tx + rx) to its own series; ignores unplaced nodes."""
    if not state.ranks_of(event.node_id):
        return
    seen(state, event.node_id, now_us)
    horizon_us = now_us - seconds(settings.window_s)
    for port in event.ports:
        key = f"{event.node_id}|{port.device}:{port.port}"
        points = state.run.net.setdefault(key, deque(maxlen=MAX_POINTS))
        points.append((now_us, port.tx_bytes_total + port.rx_bytes_total))
        _prune(points, horizon_us)


def node_of_port(key: str) -> str:
    """The node id of a ``node|device:port`` series key."""
    return key.split("|", 1)[0]


def _prune(points: deque[GpuPoint] | deque[NetPoint], horizon_us: int) -> None:
    """Drop the points older than ``horizon_us`` (the vote window's start)."""
    while points and points[0][0] < horizon_us:
        points.popleft()


def prune_stale(state: JobState, now_us: int, settings: HangSettings) -> None:
    """Forget collective snapshots older than the window (ranks that stopped reporting)."""
    horizon = now_us - seconds(settings.window_s)
    for key in [k for k, s in state.run.colls.items() if s.t_us < horizon]:
        del state.run.colls[key]

