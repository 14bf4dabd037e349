"""Closing a window: score each metric across the job's nodes, judge, and open or close episodes.

Called by the detector when event time leaves a window (or on flush). For each metric group
with enough nodes reporting, every node is scored against the job's median and judged
(:func:`streams.slow.scoring.is_suspect`); a group in which too many nodes look bad is a
job-wide shift and is skipped. A node without an open episode opens one, and one
``slow_node`` is emitted, when a standalone metric was suspect in ``persistence`` of the
last ``span`` windows (``corroborated_persistence`` when another metric of the node is suspect
in the same window). An episode closes silently after ``recovery_windows`` normal windows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from schemas import SlowNode, derived_id
from streams.slow.robust import group_cv, ratio
from streams.slow.scoring import Observation, Verdict, judge, observe
from streams.slow.settings import SlowSettings
from streams.slow.state import JobState
from streams.slow.track import Episode, NodeTrack
from streams.slow.window import GPU_METRICS, NET_METRICS

# Which metric names an episode after, when several reach persistence in the same window.
PRIORITY = (
    "compute_ms", "step_time_ms", "rdma_rate", "throttle", "temp_c", "power_w", "sm_active",
    "port_errors",
)


@dataclass(frozen=True)
class MetricWindow:
    """One metric's per-node values in the window, plus the slow ranks of step metrics."""

    metric: str
    values: dict[str, float]
    ranks: dict[str, dict[int, float]]


def _enough(state: JobState, settings: SlowSettings, nodes: int) -> bool:
    need = settings.min_coverage * len(state.known_nodes())
    return nodes >= settings.min_nodes and nodes >= need


def _gather(state: JobState, settings: SlowSettings) -> list[MetricWindow]:
    """Per-node values of every metric group ready for a test; consumed buffers are cleared.

    GPU and RDMA samples of a window in which the job checkpointed or changed phase are
    dropped unjudged: the group then measures I/O or a transition, not the nodes."""
    out: list[MetricWindow] = []
    by_rank = state.steps.rank_values(settings.min_reports)
    if _enough(state, settings, len(by_rank)):
        values = {n: max(r.values()) for n, r in by_rank.items() if r}
        out.append(MetricWindow(state.steps.metric(), values, by_rank))
        state.steps.settle(settings.min_reports)
    steady = not (state.busy or state.disturbed)
    state.disturbed = False
    for metric in (*GPU_METRICS, *NET_METRICS):
        values = state.nodes.values(metric)
        dense = state.nodes.samples_per_node(metric) >= settings.min_reports
        if dense and _enough(state, settings, len(values)):
            if steady:
                out.append(MetricWindow(metric, values, {}))
            state.nodes.clear(metric)
    return out


def _judge(
    state: JobState, settings: SlowSettings, mw: MetricWindow, start: float
) -> dict[str, Observation]:
    """Record each node's verdict for one metric; returns the observations (empty if skipped)."""
    rule = settings.rule(mw.metric)
    if rule.max_group_cv is not None and group_cv(mw.values.values()) > rule.max_group_cv:
        return {}
    observations = observe(rule, mw.values)
    verdicts: dict[str, Verdict] = {}
    for node, obs in observations.items():
        track = state.tracks.setdefault(node, NodeTrack())
        hist, levels = track.history(mw.metric), track.level(mw.metric)
        verdicts[node] = judge(rule, obs, hist, levels, len(hist) >= settings.warmup_windows)
    suspects = sum(1 for v in verdicts.values() if v.suspect)
    if suspects >= settings.max_outlier_fraction * len(verdicts):
        return {}
    for node, obs in observations.items():
        track, verdict = state.tracks[node], verdicts[node]
        track.record(mw.metric, start, verdict.suspect, settings.span)
        track.scores[mw.metric] = verdict.score
        if not verdict.suspect and track.episode is None:
            track.learn(mw.metric, obs.deviation, obs.value, settings.baseline_windows)
    return observations


def _ready_metric(track: NodeTrack, settings: SlowSettings) -> str | None:
    """The standalone metric that completes persistence in this window, if any."""
    corroborated = len(track.suspect_now) > 1
    need = settings.corroborated_persistence if corroborated else settings.persistence
    for metric in PRIORITY:
        if metric not in track.suspect_now or not settings.rule(metric).standalone:
            continue
        if track.suspect_count(metric) >= need:
            return metric
    return None


def _slow_ranks(
    state: JobState, node: str, mw: MetricWindow | None, floor: float, centre: float
) -> list[int]:
    """Ranks of ``node`` past the floor on a step metric; all its ranks for node metrics."""
    if mw is None or node not in mw.ranks:
        return state.ranks_of(node)
    slow = [r for r, v in mw.ranks[node].items() if v >= floor * centre]
    return sorted(slow) or state.ranks_of(node)


def _time(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _emit(
    state: JobState, node: str, metric: str, obs: Observation, ranks: list[int], end: float
) -> SlowNode:
    """Open the node's episode and describe it: ``value``/``baseline`` are the node's and the
    job median's values of ``metric`` in the detecting window, ``slowdown`` their ratio (as
    the contract defines it: below 1 for low-is-bad metrics such as ``rdma_rate``, capped at
    100 when the median is 0, e.g. ``throttle``), ``score`` the deciding robust z."""
    track = state.tracks[node]
    start = track.first_suspect(metric)
    oid = derived_id("slow_node", state.job_id, node, _time(start))
    track.episode = Episode(oid, start, metric)
    return SlowNode(
        event_id=oid, event_time=_time(end), cluster=state.cluster or "unknown",
        outlier_id=oid, job_id=state.job_id or "", node_id=node, ranks=tuple(ranks),
        metric=metric, value=obs.value, baseline=obs.centre,
        slowdown=ratio(obs.value, obs.centre), score=track.scores.get(metric, obs.z),
        windows=max(track.streak(metric), 1), detected_at=_time(end), attempt=state.attempt,
    )


def _settle_episode(track: NodeTrack, settings: SlowSettings) -> None:
    """Count quiet windows of an open episode and close it after ``recovery_windows``."""
    episode = track.episode
    if episode is None:
        return
    episode.quiet = 0 if track.suspect_now else episode.quiet + 1
    if episode.quiet >= settings.recovery_windows:
        track.episode = None
        track.forget_verdicts()


def close_window(state: JobState, settings: SlowSettings, index: int) -> list[SlowNode]:
    """Evaluate window ``index`` of ``state``; returns the slow_node events it opens."""
    start, end = index * settings.window_s, (index + 1) * settings.window_s
    windows = _gather(state, settings)
    seen: dict[str, dict[str, Observation]] = {}
    for mw in windows:
        for node, obs in _judge(state, settings, mw, start).items():
            seen.setdefault(node, {})[mw.metric] = obs
    by_metric = {mw.metric: mw for mw in windows}
    out: list[SlowNode] = []
    for node in sorted(seen):
        track = state.tracks[node]
        metric = None if track.episode else _ready_metric(track, settings)
        if metric is not None:
            obs = seen[node][metric]
            found = by_metric.get(metric)
            ranks = _slow_ranks(state, node, found, settings.step.floor, obs.centre)
            out.append(_emit(state, node, metric, obs, ranks, end))
        else:
            _settle_episode(track, settings)
        track.suspect_now.clear()
        track.scores.clear()
    return out
