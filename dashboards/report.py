"""The static HTML report: the dashboards' SQL run once over all the data, drawn with plotly.

One self-contained file: plotly.js is embedded inline, nothing is fetched when it opens.
:func:`collect` runs the panel queries (macros expanded over the data's own event-time
span) through a :data:`Runner`; :func:`render_html` is pure and turns the results into the
page. Every section says "no data" when its query returned nothing.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import plotly.graph_objects as go
import plotly.offline

from dashboards import figures
from dashboards import queries as q
from dashboards.figures import JobTimeline, Result
from dashboards.macros import TimeRange, auto_interval_s, expand

Runner = Callable[[str], tuple[list[str], list[list[Any]]]]
"""Runs one SQL statement, returning (column names, rows); e.g. ``sinks.clickhouse.query.run_sql``."""

MAX_TIMELINE_JOBS = 40


@dataclass(frozen=True)
class ReportData:
    """Everything the page shows: query results by key, per-job timelines, the time range used."""

    database: str
    time_range: TimeRange
    results: dict[str, Result]
    timelines: tuple[JobTimeline, ...] = ()
    jobs_total: int = 0
    notes: tuple[str, ...] = field(default=())

    def get(self, key: str) -> Result:
        """The result of query ``key`` (an empty result with the promised columns if it did not run)."""
        return self.results.get(key) or Result(q.BY_KEY[key].columns if key in q.BY_KEY else ())


def run_query(runner: Runner, query: q.PanelQuery, database: str, time_range: TimeRange,
              variables: dict[str, str] | None = None) -> Result:
    """Expand and run one panel query; zero rows keep the columns the query promises."""
    cols, rows = runner(expand(query.render(database), time_range, variables))
    return Result(tuple(cols) or query.columns, tuple(tuple(r) for r in rows))


def data_range(runner: Runner, database: str, now: datetime) -> TimeRange:
    """The data's event-time span (plus a second each side); the last day before ``now`` if empty."""
    probe = TimeRange(now - timedelta(days=1), now)
    rows = run_query(runner, q.DATA_RANGE, database, probe).rows
    if not rows or rows[0][0] is None or rows[0][1] is None:
        return TimeRange(probe.start, probe.end, auto_interval_s(probe.start, probe.end))
    start = datetime.fromtimestamp(int(rows[0][0]) / 1000, UTC) - timedelta(seconds=1)
    end = datetime.fromtimestamp(int(rows[0][1]) / 1000, UTC) + timedelta(seconds=1)
    return TimeRange(start, end, auto_interval_s(start, end))


_SECTION_QUERIES = (
    q.TABLE_COUNTS, q.ETT_BY_CLUSTER, q.MTBF, q.ETT_BY_JOB, q.ETT_BY_DAY, q.INVALID_BY_KIND, q.TOP_CAUSES,
    q.DETECTION_LATENCY, q.TOP_CATEGORIES, q.TOP_NODES, q.SLOW_NODES, q.JOBS,
)


def collect(runner: Runner, database: str, now: datetime) -> ReportData:
    """Run every query the report needs; query errors propagate (the caller reports them)."""
    time_range = data_range(runner, database, now)
    results = {query.key: run_query(runner, query, database, time_range) for query in _SECTION_QUERIES}
    jobs = [str(j) for j in results[q.JOBS.key].column("job_id")]
    timelines = tuple(_timeline(runner, database, time_range, job) for job in jobs[:MAX_TIMELINE_JOBS])
    return ReportData(database, time_range, results, timelines, len(jobs))


def _timeline(runner: Runner, database: str, time_range: TimeRange, job: str) -> JobTimeline:
    variables = {"job": job}
    return JobTimeline(job, run_query(runner, q.JOB_INTERVALS, database, time_range, variables),
                       run_query(runner, q.JOB_VERDICTS, database, time_range, variables),
                       run_query(runner, q.JOB_DECISIONS, database, time_range, variables))


# --- rendering ----------------------------------------------------------------------------

NO_DATA = "no data"

_CSS = """
body { font-family: system-ui, -apple-system, Segoe UI, Roboto, sans-serif; margin: 24px auto; max-width: 1300px;
       color: #222; background: #fff; }
h1 { font-size: 26px; margin-bottom: 4px; } h2 { font-size: 20px; margin-top: 32px; border-bottom: 1px solid #ddd; }
.meta { color: #666; font-size: 13px; }
.grid { display: grid; gap: 16px; } .cell { min-width: 0; } .nodata { color: #888; font-style: italic; padding: 24px;
       background: #f6f6f6; border: 1px dashed #ccc; border-radius: 4px; text-align: center; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; } th, td { padding: 4px 10px;
       border-bottom: 1px solid #eee; text-align: left; } th { background: #f3f3f3; }
"""


def _figure(fig: go.Figure | None, div_id: str, what: str) -> str:
    if fig is None:
        return f'<div class="nodata">{NO_DATA}: {html.escape(what)}</div>'
    return str(fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                           config={"displaylogo": False, "responsive": True}))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _table(result: Result, what: str) -> str:
    if not result.rows:
        return f'<div class="nodata">{NO_DATA}: {html.escape(what)}</div>'
    head = "".join(f"<th>{html.escape(c)}</th>" for c in result.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row) + "</tr>" for row in result.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _section(title: str, cells: Sequence[str]) -> str:
    # Fixed columns: a plot is drawn while the page is still parsing, so its cell must already
    # have its final width when the next cell does not exist yet.
    inner = "".join(f'<div class="cell">{c}</div>' for c in cells)
    columns = f"grid-template-columns: repeat({max(len(cells), 1)}, minmax(0, 1fr))"
    return f"<h2>{html.escape(title)}</h2><div class=\"grid\" style=\"{columns}\">{inner}</div>"


def _sections(data: ReportData) -> list[str]:
    g = data.get
    jobs_note = (f"<p class=\"meta\">showing the first {len(data.timelines)} of {data.jobs_total} jobs</p>"
                 if data.jobs_total > len(data.timelines) else "")
    return [
        _section("Data", [_table(g("table_counts"), "no rows in any table")]),
        _section("Effective training time", [_table(g("ett_by_cluster"), "no ETT intervals"),
                                             _table(g("mtbf"), "no ETT intervals")]),
        _section("ETT per job and per day", [_figure(figures.ett_per_job(g("ett_by_job")), "ett-job", "no ETT intervals"),
                                             _figure(figures.ett_per_day(g("ett_by_day")), "ett-day", "no ETT intervals")]),
        _section("Invalid time", [_figure(figures.invalid_by_kind(g("invalid_by_kind")), "invalid-kind", "no invalid time"),
                                  _figure(figures.top_causes(g("top_causes")), "causes", "no invalid time")]),
        _section("Job timeline", [jobs_note + _figure(figures.job_timeline(data.timelines), "timeline",
                                                      "no intervals, verdicts or decisions")]),
        _section("Detection latency", [_figure(figures.detection_latency(g("detection_latency")), "latency",
                                               "no hang verdicts or fault decisions")]),
        _section("Faults", [_figure(figures.top_categories(g("top_categories")), "categories", "no faults"),
                            _figure(figures.top_nodes(g("top_nodes")), "nodes", "no faults on nodes")]),
        _section("Slow nodes", [_table(g("slow_nodes"), "no slow nodes")]),
    ]


def render_html(data: ReportData, generated_at: datetime, title: str = "faultline report") -> str:
    """The whole page as one string, plotly.js inline (about 5 MB), no external resources."""
    tr = data.time_range
    meta = (f"generated {generated_at:%Y-%m-%d %H:%M:%S} UTC &middot; database <code>{html.escape(data.database)}</code>"
            f" &middot; event time {tr.start:%Y-%m-%d %H:%M:%S} to {tr.end:%Y-%m-%d %H:%M:%S} UTC")
    notes = "".join(f"<p class=\"meta\">{html.escape(n)}</p>" for n in data.notes)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{_CSS}</style>"
        f"<script type=\"text/javascript\">{plotly.offline.get_plotlyjs()}</script></head><body>"
        f"<h1>{html.escape(title)}</h1><p class=\"meta\">{meta}</p>{notes}"
        + "".join(_sections(data)) + "</body></html>\n"
    )
