"""Closing a window: score each metric across the job's warm nodes, judge, open or close episodes.

The detector gathers a window (:func:`gather_window`) when event time leaves it (or on flush)
and judges it (:func:`judge_window`) then or, if it waits for the job's next step, later. Nothing is judged in a
window in which the job was not training steadily (``JobState.steady``): its samples are
dropped. For each metric group with enough nodes reporting, every node that already has its
own level is scored on its change beyond its peers' change and judged
(:func:`streams.slow.scoring.judge`); nodes still in warm-up only learn their level. A group
in which too many nodes look bad, or whose changes scatter, is a job-wide shift and is
skipped. A two-node job has no median to tell the odd node: each node is judged on its own
readings' change beyond its peer's (:func:`streams.slow.scoring.pair_observations`, on
:data:`~streams.slow.settings.PAIR_METRICS` only). A node without an open episode opens one, and one ``slow_node`` is emitted, when a
standalone metric was suspect in ``persistence`` of the last ``span`` windows
(``corroborated_persistence`` when a metric of another evidence family of the node is suspect
in the same window: SM activity and power, say, are one family).
An episode closes silently after ``recovery_windows`` normal windows.
"""

from __future__ import annotations

from datetime import UTC, datetime

from schemas import SlowNode, derived_id
from streams.slow.robust import median, ratio
from streams.slow.scoring import (
    Observation,
    Verdict,
    instant_positions,
    judge,
    pair_observations,
    positions,
    scattered,
    score_positions,
)
from streams.slow.settings import FAMILIES, PAIR_METRICS, SlowSettings
from streams.slow.state import JobState
from streams.slow.track import Episode, NodeTrack
from streams.slow.window import GPU_METRICS, NET_METRICS, MetricWindow

# Which metric names an episode after, when several reach persistence in the same window.
PRIORITY = (
    "compute_ms", "busy_ms", "step_time_ms", "rdma_rate", "throttle", "temp_c", "sm_active",
    "power_w", "port_errors",
)


def _enough(state: JobState, settings: SlowSettings, nodes: int, metric: str) -> bool:
    """Whether ``nodes`` reporting ``metric`` can be judged: ``min_nodes`` and the coverage,
    or both nodes of a two-node job on a :data:`PAIR_METRICS` metric."""
    known = len(state.known_nodes())
    if nodes < settings.min_nodes:
        return nodes == known == 2 and metric in PAIR_METRICS
    return nodes >= settings.min_coverage * known


def gather_window(state: JobState, settings: SlowSettings, steady: bool) -> list[MetricWindow]:
    """Per-node values of every metric group ready for a test; consumed buffers are cleared.

    Samples of a window in which the job was not training steadily are consumed unjudged."""
    out: list[MetricWindow] = []
    by_rank = state.steps.rank_values(settings.min_reports)
    if _enough(state, settings, len(by_rank), state.steps.metric()):
        values = {n: max(r.values()) for n, r in by_rank.items() if r}
        if steady:
            out.append(MetricWindow(state.steps.metric(), values, by_rank))
        state.steps.settle(settings.min_reports)
    for metric in (*GPU_METRICS, *NET_METRICS):
        values = state.nodes.values(metric, settings.rule(metric).bad)
        dense = state.nodes.samples_per_node(metric) >= settings.min_reports
        if dense and _enough(state, settings, len(values), metric):
            if steady:
                out.append(MetricWindow(metric, values, {}, state.nodes.readings(metric)))
            state.nodes.clear(metric)
    return out


def _levels(state: JobState, mw: MetricWindow) -> dict[str, float]:
    """The own level of every node of the window (its value now while it has none): it
    chooses the node's behavioural peers (same pipeline stage, same GPU model)."""
    out = {}
    for node, value in mw.values.items():
        level = state.tracks.setdefault(node, NodeTrack()).level(mw.metric)
        out[node] = median(level) if level else value
    return out


def _usual(state: JobState, settings: SlowSettings, mw: MetricWindow) -> dict[str, float]:
    """The usual position among its peers of every node of the window that finished its
    warm-up (median of its positions in its recent normal windows)."""
    out = {}
    for node in mw.values:
        track = state.tracks[node]
        if len(track.level(mw.metric)) >= settings.warmup_windows and track.history(mw.metric):
            out[node] = median(track.history(mw.metric))
    return out


def _judge(
    state: JobState, settings: SlowSettings, mw: MetricWindow, start: float
) -> dict[str, Observation]:
    """Record each warm node's verdict for one metric and let normal nodes learn; returns the
    observations (empty if the window was skipped or no node is warm)."""
    rule = settings.rule(mw.metric)
    levels = _levels(state, mw)
    usual = _usual(state, settings, mw)
    pair = len(mw.values) < settings.min_nodes  # a two-node job (see _enough)
    if pair:
        now = {n: rule.neutral for n in mw.values}
        observations = pair_observations(rule, mw.values, {n: levels[n] for n in usual})
        for node, obs in observations.items():
            now[node] = obs.position
    else:
        now, ref = positions(rule, mw.values, usual, settings.min_nodes)
        if mw.samples:
            now = instant_positions(rule, mw.samples, usual, settings.min_nodes)
        observations = {}
        if len(usual) >= settings.min_nodes:
            observations = score_positions(rule, mw.values, now, ref, usual, levels,
                                           settings.peer_band, settings.min_nodes - 1)
        if scattered(rule, observations):
            return {}
    verdicts: dict[str, Verdict] = {
        node: judge(rule, obs, state.tracks[node].history(mw.metric) or [rule.neutral])
        for node, obs in observations.items()
    }
    if not pair and verdicts and sum(v.suspect for v in verdicts.values()) >= (
            settings.max_outlier_fraction * len(verdicts)):
        return {}
    for node, value in mw.values.items():
        track, verdict = state.tracks[node], verdicts.get(node)
        if verdict is not None:
            track.record(mw.metric, start, verdict.suspect, settings.span)
            track.scores[mw.metric] = verdict.score
        if (verdict is None or not verdict.suspect) and track.episode is None:
            position, level = now[node], value
            if rule.never_normal:  # bad is "high" for every such rule
                position, level = min(position, rule.neutral), min(level, rule.neutral)
            track.learn(mw.metric, position, level, settings.baseline_windows)
    return observations


def _ready_metric(track: NodeTrack, settings: SlowSettings) -> str | None:
    """The standalone metric that completes persistence in this window, if any."""
    corroborated = len({FAMILIES[m] for m in track.suspect_now}) > 1
    need = settings.corroborated_persistence if corroborated else settings.persistence
    for metric in PRIORITY:
        if metric not in track.suspect_now or not settings.rule(metric).standalone:
            continue
        if track.suspect_count(metric) >= need:
            return metric
    return None


def _slow_ranks(
    state: JobState, node: str, mw: MetricWindow | None, jump: float, expected: float
) -> list[int]:
    """Ranks of ``node`` at least ``jump`` times the node's expected value on a step metric;
    all its ranks for node metrics (or when no single rank stands out)."""
    if mw is None or node not in mw.ranks:
        return state.ranks_of(node)
    slow = [r for r, v in mw.ranks[node].items() if v >= jump * expected]
    return sorted(slow) or state.ranks_of(node)


def _time(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _emit(
    state: JobState, node: str, metric: str, obs: Observation, ranks: list[int], end: float
) -> SlowNode:
    """Open the node's episode and describe it: ``value`` is the node's value of ``metric``
    in the detecting window and ``baseline`` the value expected of it (its own level moved as
    its peers moved: heterogeneity from the start is no slowdown), ``slowdown`` their ratio
    (below 1 for low-is-bad metrics such as ``rdma_rate``, capped at 100 when the baseline is
    0, e.g. ``throttle``), ``score`` the deciding robust z."""
    track = state.tracks[node]
    start = track.first_suspect(metric)
    oid = derived_id("slow_node", state.job_id, node, _time(start))
    track.episode = Episode(oid, start, metric)
    return SlowNode(
        event_id=oid, event_time=_time(end), cluster=state.cluster or "unknown",
        outlier_id=oid, job_id=state.job_id or "", node_id=node, ranks=tuple(ranks),
        metric=metric, value=obs.value, baseline=obs.expected,
        slowdown=ratio(obs.value, obs.expected), score=track.scores.get(metric, obs.z),
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


def judge_window(state: JobState, settings: SlowSettings, index: int, windows: list[MetricWindow],
                 end_s: float | None = None) -> list[SlowNode]:
    """Judge the gathered ``windows`` of window ``index``: record each warm node's verdicts,
    open episodes; returns the slow_node events opened, detected at ``end_s`` (default the
    window's end: the evidence may be complete only later)."""
    start, end = index * settings.window_s, (index + 1) * settings.window_s
    end = end if end_s is None else max(end, end_s)
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
            ranks = _slow_ranks(state, node, found, settings.step.jump, obs.expected)
            out.append(_emit(state, node, metric, obs, ranks, end))
        else:
            _settle_episode(track, settings)
        track.suspect_now.clear()
        track.scores.clear()
    return out
