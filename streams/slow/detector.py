"""The slow-node detector: per job, persistent changes no peer shares, one output per episode.

Key: ``job_id``. The shell feeds every event of one job in event-time order: ``step_progress``
and ``job_event`` of the job, the ``gpu_sample`` / ``net_sample`` of the job's nodes, and the
``hang_verdict`` outputs of the hang stage. Other events are ignored. Events are folded into grid-aligned event-time windows of
``window_s``; when event time leaves a window it is evaluated (:mod:`streams.slow.episodes`).
Outputs are :class:`schemas.SlowNode` events keyed by ``job_id``, one per episode of a node,
whose ``event_id`` equals ``outlier_id = derived_id("slow_node", job_id, node_id, episode
start)``, so replays reproduce them. Late events (older than the open window) are folded into
the open window: they are still valid observations of the same job.

A window is judged only when the job trained steadily through it (:meth:`_steady`): no
checkpoint or phase change in it, no open hang, the attempt's first ``warmup_steps`` steps
behind, and no gap between step advances longer than ``max_step_gap`` times the job's
typical gap (evaluation, a stall, a hang not yet confirmed). A window that closes with the
job's next advance overdue (its last advance longer ago than its typical gap) may hold the
first seconds of a hang, which look steady at that point, but show the hang's GPUs and NICs,
not the training's: its samples wait (``JobState.pending``, with every later window, to keep
the order) for the job's next advance, which judges them (an outlier is detected then), and
are dropped by a hang verdict or a restart. Jobs that never report steps are judged on node
telemetry alone, when the window closes.
"""

from __future__ import annotations

import math
from datetime import datetime

from schemas import Event, GpuSample, HangVerdict, JobEvent, NetSample, StepProgress
from streams.core.detector import JsonData
from streams.core.dispatch import kinds
from streams.slow.episodes import gather_window, judge_window
from streams.slow.robust import median
from streams.slow.settings import SlowSettings
from streams.slow.state import JobState

_CONSUMED = kinds(JobEvent, HangVerdict, StepProgress, GpuSample, NetSample)
RESET_KINDS = frozenset({"scheduled", "finished", "cancelled"})
RESTART_KINDS = frozenset({"restarting", "failed"})
PHASE_KINDS = frozenset({"initialized", "running", "checkpoint_started", "checkpoint_completed"})
GAPS_KEPT = 15
"""Recent gaps between step advances kept to know the job's typical reporting gap."""
MIN_GAPS = 3
"""Gaps needed before the typical gap (and so any steady window) is known."""


class SlowNodeDetector:
    """Implements :class:`streams.core.detector.Detector` over :class:`JobState`."""

    name = "slow"

    def __init__(self, settings: SlowSettings | None = None) -> None:
        self.settings = settings or SlowSettings()

    def initial(self) -> JobState:
        """An empty state for a job never seen before."""
        return JobState()

    def step(self, state: JobState, event: Event) -> tuple[JobState, list[Event]]:
        """Fold one event of the job; returns the state and any slow_node it causes."""
        if not _CONSUMED[type(event)]:
            return state, []
        if isinstance(event, JobEvent):
            self._lifecycle(state, event)
            return state, []
        if isinstance(event, HangVerdict):
            self._hang(state, event)
            return state, []
        state.cluster = state.cluster or event.cluster
        out = self._advance(state, event.event_time)
        if isinstance(event, StepProgress):
            self._add_step(state, event)
            out.extend(self._confirm(state, event.event_time.timestamp()))
        elif isinstance(event, GpuSample):
            self._add_gpu(state, event)
        elif isinstance(event, NetSample):
            self._add_net(state, event)
        return state, list(out)

    def flush(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        """Evaluate the open window if ``now`` is past its end; idempotent for the same ``now``."""
        if state.window is None or self._index(now) <= state.window:
            return state, []
        out = self._close(state, state.window)
        state.closed, state.window = state.window, None
        return state, list(out)

    def dump(self, state: JobState) -> JsonData:
        """JSON-ready state (see :meth:`JobState.dump`)."""
        return state.dump()

    def load(self, data: JsonData) -> JobState:
        """The state :meth:`dump` saved."""
        return JobState.load(data)

    def _index(self, when: datetime) -> int:
        return math.floor(when.timestamp() / self.settings.window_s)

    def _advance(self, state: JobState, when: datetime) -> list[Event]:
        """Close the open window when ``when`` lies in a later one. After a flush, events of
        an already closed window go to the next one, so no window is judged twice."""
        index = self._index(when)
        if state.window is None:
            state.window = index if state.closed is None else max(index, state.closed + 1)
            return []
        if index <= state.window:
            return []
        out = self._close(state, state.window)
        state.window = index
        return list(out)

    def _close(self, state: JobState, index: int) -> list[Event]:
        """Close window ``index``: gather its samples (judged only if steady) and start the next
        window's phase flags afresh. They are judged at once unless the job's next advance is
        overdue or earlier windows wait: then once the job advances past the window's end.
        Waiting windows wait through a pause (a save, an evaluation: their samples came before
        it); a hang verdict or a restart drops them."""
        end_s = (index + 1) * self.settings.window_s
        steady = self._steady(state, end_s)
        windows = gather_window(state, self.settings, steady)
        state.disturbed, state.window_gap = False, 0.0
        if not state.reports_steps or (not state.pending and not self._overdue(state, end_s)):
            return list(judge_window(state, self.settings, index, windows))
        if windows:
            state.pending.append((index, windows))
        return []

    @staticmethod
    def _overdue(state: JobState, end_s: float) -> bool:
        """Whether the job's next advance is overdue at ``end_s``: longer ago than its typical gap."""
        return state.last_advance is None or not state.gaps or end_s - state.last_advance > median(state.gaps)

    def _confirm(self, state: JobState, now_s: float) -> list[Event]:
        """Judge the pending windows that ended before the job's last advance (at ``now_s``,
        when their evidence is complete)."""
        if not state.pending or state.last_advance is None:
            return []
        out: list[Event] = []
        window_s = self.settings.window_s
        while state.pending and (state.pending[0][0] + 1) * window_s < state.last_advance:
            index, windows = state.pending.pop(0)
            out.extend(judge_window(state, self.settings, index, windows, now_s))
        return out

    def _steady(self, state: JobState, end_s: float) -> bool:
        """Whether the job trained steadily through the window ending at ``end_s``."""
        if state.busy or state.disturbed or state.hung:
            return False
        if not state.reports_steps:
            return True
        if state.last_advance is None or state.warm_until is None or len(state.gaps) < MIN_GAPS:
            return False
        if state.max_step < state.warm_until:
            return False
        limit = self.settings.max_step_gap * median(state.gaps)
        return max(state.window_gap, end_s - state.last_advance) <= limit

    def _hang(self, state: JobState, event: HangVerdict) -> None:
        """An open hang of the current attempt: nothing is judged until steps advance again."""
        if event.attempt >= state.attempt:
            state.hung, state.hung_step = True, state.max_step
            state.pending = []  # the hang may have begun in them

    def _lifecycle(self, state: JobState, event: JobEvent) -> None:
        """Track identity and attempt. A new placement or the end forgets node history; a
        restart on the same placement keeps each node's learnt levels (stage, GPU model and
        rails do not change with the attempt, and a straggler appearing during the new
        attempt's warm-up must not become its baseline) but forgets verdicts and episodes."""
        state.job_id = state.job_id or event.job_id
        state.cluster = state.cluster or event.cluster
        state.attempt = max(state.attempt, event.attempt)
        if event.kind in RESET_KINDS:
            state.reset()
        elif event.kind in RESTART_KINDS:
            state.reset(keep_levels=True)
        if event.kind in PHASE_KINDS:
            state.busy = event.kind == "checkpoint_started"
            state.disturbed = True
        if event.kind == "running" and event.step is not None:
            state.warm_until = event.step + self.settings.warmup_steps
        if event.kind == "scheduled":
            state.placement = {}
            for p in event.placement:
                state.placement.setdefault(p.node_id, []).append(p.rank)

    def _add_step(self, state: JobState, event: StepProgress) -> None:
        """Advance the job's step clock; keep the report unless the attempt is warming up."""
        state.job_id = state.job_id or event.job_id
        state.see(event.node_id, event.rank)
        state.advance(event.step, event.event_time.timestamp(), GAPS_KEPT)
        if state.warm_until is None:
            state.warm_until = event.step + self.settings.warmup_steps
        if event.step < state.warm_until:
            return
        cap = self.settings.max_samples
        state.steps.add(event.node_id, event.rank, event.step_time_ms, event.compute_ms,
                        event.comm_wait_ms, cap)

    def _add_gpu(self, state: JobState, event: GpuSample) -> None:
        if not event.gpus:
            return
        cap, mask, node = self.settings.max_samples, self.settings.throttle_mask, event.node_id
        gpus = event.gpus
        state.nodes.add("temp_c", node, max(g.temp_c for g in gpus), cap)
        throttled = any(g.throttle_reasons & mask for g in gpus)
        state.nodes.add("throttle", node, 1.0 if throttled else 0.0, cap)
        state.nodes.add("power_w", node, median([g.power_w for g in gpus]), cap)
        sm = [g.sm_active for g in gpus if g.sm_active is not None]
        if sm:  # util_pct is no substitute: NCCL kernels spinning in a wait count as busy
            state.nodes.add("sm_active", node, median(sm), cap)

    def _add_net(self, state: JobState, event: NetSample) -> None:
        count = not (state.busy or state.hung)
        rates = state.counters.rate(event, self.settings.rail_share, count)
        if rates is not None:
            cap = self.settings.max_samples
            if rates.rail_bps is not None:
                state.nodes.add("rdma_rate", event.node_id, rates.rail_bps, cap)
            state.nodes.add("port_errors", event.node_id, rates.errors_per_s, cap)
