"""The slow-node detector: per job, group-consistency outliers that persist, one per episode.

Key: ``job_id``. The shell feeds every event of one job in event-time order: ``step_progress``
and ``job_event`` of the job, and the ``gpu_sample`` / ``net_sample`` of the job's nodes.
Other events are ignored. Events are folded into grid-aligned event-time windows of
``window_s``; when event time leaves a window it is evaluated (:mod:`streams.slow.episodes`).
Outputs are :class:`schemas.SlowNode` events keyed by ``job_id``, one per episode of a node,
whose ``event_id`` equals ``outlier_id = derived_id("slow_node", job_id, node_id, episode
start)``, so replays reproduce them. Late events (older than the open window) are folded into
the open window: they are still valid observations of the same job.
"""

from __future__ import annotations

import math
from datetime import datetime

from schemas import Event, GpuSample, JobEvent, NetSample, StepProgress
from streams.core.detector import JsonData
from streams.slow.episodes import close_window
from streams.slow.settings import SlowSettings
from streams.slow.state import JobState

RESET_KINDS = frozenset({"scheduled", "restarting", "failed", "finished", "cancelled"})
PHASE_KINDS = frozenset({"initialized", "running", "checkpoint_started", "checkpoint_completed"})


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
        if isinstance(event, JobEvent):
            self._lifecycle(state, event)
            return state, []
        if not isinstance(event, StepProgress | GpuSample | NetSample):
            return state, []
        state.cluster = state.cluster or event.cluster
        out = self._advance(state, event.event_time)
        if isinstance(event, StepProgress):
            self._add_step(state, event)
        elif isinstance(event, GpuSample):
            self._add_gpu(state, event)
        else:
            self._add_net(state, event)
        return state, list(out)

    def flush(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        """Evaluate the open window if ``now`` is past its end; idempotent for the same ``now``."""
        if state.window is None or self._index(now) <= state.window:
            return state, []
        out = close_window(state, self.settings, state.window)
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
        out = close_window(state, self.settings, state.window)
        state.window = index
        return list(out)

    def _lifecycle(self, state: JobState, event: JobEvent) -> None:
        """Track identity and attempt; a new placement, restart or end forgets node history."""
        state.job_id = state.job_id or event.job_id
        state.cluster = state.cluster or event.cluster
        state.attempt = max(state.attempt, event.attempt)
        if event.kind in RESET_KINDS:
            state.reset()
        if event.kind in PHASE_KINDS:
            state.busy = event.kind == "checkpoint_started"
            state.disturbed = True
        if event.kind == "scheduled":
            state.placement = {}
            for p in event.placement:
                state.placement.setdefault(p.node_id, []).append(p.rank)

    def _add_step(self, state: JobState, event: StepProgress) -> None:
        state.job_id = state.job_id or event.job_id
        state.see(event.node_id, event.rank)
        cap = self.settings.max_samples
        state.steps.add(event.node_id, event.rank, event.step_time_ms, event.compute_ms, cap)

    def _add_gpu(self, state: JobState, event: GpuSample) -> None:
        if not event.gpus:
            return
        cap, mask, node = self.settings.max_samples, self.settings.throttle_mask, event.node_id
        gpus = event.gpus
        state.nodes.add("temp_c", node, max(g.temp_c for g in gpus), cap)
        state.nodes.add("power_w", node, min(g.power_w for g in gpus), cap)
        throttled = any(g.throttle_reasons & mask for g in gpus)
        state.nodes.add("throttle", node, 1.0 if throttled else 0.0, cap)
        sm = [g.sm_active if g.sm_active is not None else g.util_pct / 100 for g in gpus]
        state.nodes.add("sm_active", node, min(sm), cap)

    def _add_net(self, state: JobState, event: NetSample) -> None:
        rates = state.counters.rate(event)
        if rates is not None:
            cap = self.settings.max_samples
            state.nodes.add("rdma_rate", event.node_id, rates.weakest_bps, cap)
            state.nodes.add("port_errors", event.node_id, rates.errors_per_s, cap)
