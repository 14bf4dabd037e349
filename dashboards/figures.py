"""Plotly figures of the HTML report, one function per plot, from query results.

Each function takes :class:`Result` objects (columns + rows, as the panel queries return
them) and returns a figure, or ``None`` when there is nothing to plot, so the report can
say "no data" instead. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

KIND_COLORS = {
    "productive": "#2ca02c", "checkpoint": "#9467bd", "detection": "#d62728", "scheduling": "#ff7f0e",
    "initialization": "#bcbd22", "recompute": "#8c564b", "idle": "#c7c7c7",
}
LAYOUT: dict[str, Any] = {"template": "plotly_white", "margin": {"l": 60, "r": 20, "t": 40, "b": 40}, "height": 380}


@dataclass(frozen=True)
class Result:
    """One query's result: column names and rows (JSON-ready values)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...] = ()

    def column(self, name: str) -> list[Any]:
        """The values of column ``name``, in row order."""
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


@dataclass(frozen=True)
class JobTimeline:
    """One job's intervals, verdicts and decisions (results of the job drill-down queries)."""

    job_id: str
    intervals: Result
    verdicts: Result
    decisions: Result = field(default_factory=lambda: Result(()))


def _bar(result: Result, x: str, y: str, title: str, *, horizontal: bool = False,
         hover: str | None = None) -> go.Figure | None:
    if not result.rows:
        return None
    xs, ys = result.column(x), result.column(y)
    text = [f"{hover}: {v:.3g}" if isinstance(v, (int, float)) else "" for v in result.column(hover)] if hover else None
    bar = go.Bar(x=ys, y=xs, orientation="h", hovertext=text) if horizontal else go.Bar(x=xs, y=ys, hovertext=text)
    fig = go.Figure(bar)
    fig.update_layout(title=title, **LAYOUT)
    if horizontal:
        fig.update_yaxes(autorange="reversed")
    return fig


def ett_per_job(result: Result) -> go.Figure | None:
    """ETT (productive / lifetime) per job, with lost GPU-hours on hover."""
    fig = _bar(result, "job_id", "ett", "ETT per job", hover="lost_gpu_hours")
    if fig is not None:
        fig.update_yaxes(range=[0, 1], tickformat=".0%")
    return fig


def ett_per_day(result: Result) -> go.Figure | None:
    """ETT per UTC day (intervals split at midnight)."""
    fig = _bar(result, "day", "ett", "ETT per day (UTC)", hover="lost_gpu_hours")
    if fig is not None:
        fig.update_yaxes(range=[0, 1], tickformat=".0%")
        fig.update_xaxes(type="category")
    return fig


def invalid_by_kind(result: Result) -> go.Figure | None:
    """Invalid time per kind, in GPU-hours."""
    if not result.rows:
        return None
    kinds = result.column("kind")
    fig = go.Figure(go.Bar(x=kinds, y=result.column("gpu_hours"), marker_color=[KIND_COLORS.get(k, "#888") for k in kinds],
                           hovertext=[f"{h:.2f} wall hours" for h in result.column("hours")]))
    fig.update_layout(title="Invalid time by kind (GPU-hours)", **LAYOUT)
    return fig


def top_causes(result: Result) -> go.Figure | None:
    """Lost GPU-hours per cause category."""
    return _bar(result, "cause", "lost_gpu_hours", "Lost GPU-hours by cause", horizontal=True)


def top_categories(result: Result) -> go.Figure | None:
    """Faults per category."""
    return _bar(result, "category", "faults", "Top fault categories", horizontal=True, hover="lines")


def top_nodes(result: Result) -> go.Figure | None:
    """Faults per node."""
    return _bar(result, "node_id", "faults", "Top nodes by faults", horizontal=True, hover="lines")


def detection_latency(result: Result) -> go.Figure | None:
    """Latency from first symptom to conclusion, one column of points per detector (a box from 5 points on)."""
    if not result.rows:
        return None
    fig = go.Figure()
    for detector in sorted(set(result.column("detector"))):
        points = [r for r in result.records() if r["detector"] == detector]
        ys, jobs = [p["latency_s"] for p in points], [p["job_id"] for p in points]
        if len(points) >= 5:
            fig.add_trace(go.Box(y=ys, name=detector, boxpoints="all", pointpos=0, jitter=0.3, text=jobs))
        else:
            fig.add_trace(go.Scatter(x=[detector] * len(ys), y=ys, name=detector, mode="markers", text=jobs,
                                     marker={"size": 12}))
    fig.update_layout(title="Detection latency (s, event time)", showlegend=False, **LAYOUT)
    fig.update_yaxes(rangemode="tozero")
    fig.update_xaxes(type="category", range=[-0.5, len(fig.data) - 0.5])  # keep points off the plot's edges
    return fig


def job_timeline(jobs: Sequence[JobTimeline]) -> go.Figure | None:
    """A Gantt of every job's ETT intervals, with hang verdicts and decisions marked."""
    if not any(j.intervals.rows or j.verdicts.rows or j.decisions.rows for j in jobs):
        return None
    fig = go.Figure()
    for kind, color in KIND_COLORS.items():
        _interval_trace(fig, jobs, kind, color)
    # Decisions first and larger: a decision often shares its verdict's instant, the verdict stays visible on top.
    _marker_trace(fig, [(j.job_id, r["issued_at"], f"{r['action']} ({r['reason']} {r['category']})")
                        for j in jobs for r in j.decisions.records()], "decision", "diamond", "#1f77b4", 16)
    _marker_trace(fig, [(j.job_id, r["detected_at"], f"hang verdict, onset {r['onset_time']}")
                        for j in jobs for r in j.verdicts.records()], "hang verdict", "x", "#d62728", 10)
    fig.update_layout(title="Job timeline", barmode="overlay", **{**LAYOUT, "height": max(300, 120 + 40 * len(jobs))})
    fig.update_xaxes(type="date")
    fig.update_yaxes(autorange="reversed", type="category")
    return fig


def _interval_trace(fig: go.Figure, jobs: Sequence[JobTimeline], kind: str, color: str) -> None:
    rows = [(j.job_id, r) for j in jobs for r in j.intervals.records() if r["kind"] == kind]
    if not rows:
        return
    fig.add_trace(go.Bar(
        y=[job for job, _ in rows], x=[r["seconds"] * 1000 for _, r in rows], base=[r["start"] for _, r in rows],
        orientation="h", name=kind, marker_color=color,
        hovertext=[f"{kind}, attempt {r['attempt']}, {r['seconds']:.0f} s" for _, r in rows]))


def _marker_trace(fig: go.Figure, points: list[tuple[str, Any, str]], name: str, symbol: str, color: str,
                  size: int) -> None:
    if not points:
        return
    fig.add_trace(go.Scatter(y=[p[0] for p in points], x=[p[1] for p in points], hovertext=[p[2] for p in points],
                             mode="markers", name=name, marker={"symbol": symbol, "size": size, "color": color,
                                                                "line": {"width": 1, "color": "white"}}))
