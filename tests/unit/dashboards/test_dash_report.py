"""The HTML report renders from query results, self-contained, with "no data" for empty sections."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from dashboards import figures
from dashboards import queries as q
from dashboards.figures import JobTimeline, Result
from dashboards.macros import TimeRange
from dashboards.report import NO_DATA, ReportData, render_html

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
TR = TimeRange(NOW - timedelta(hours=2), NOW, 60)


def _empty() -> ReportData:
    return ReportData("faultline", TR, {})


def _external_refs(page: str) -> list[str]:
    return re.findall(r"<(?:script|link|img|iframe)[^>]+(?:src|href)=[\"']?(?!data:)[^\"' >]+", page)


def test_empty_data_renders_no_data_notes_and_no_plots() -> None:
    page = render_html(_empty(), NOW)
    assert page.count(f"{NO_DATA}:") >= 8
    assert 'class="plotly-graph-div"' not in page
    assert not _external_refs(page)


def test_plotly_is_inline() -> None:
    page = render_html(_empty(), NOW)
    assert len(page) > 1_000_000  # plotly.js itself
    assert "<script src" not in page


def test_results_become_plots() -> None:
    ett = Result(q.ETT_BY_JOB.columns, (("job-1", 0.8, 1.0, 0.4, 0), ("job-2", 0.5, 2.0, 3.1, 1)))
    cats = Result(q.TOP_CATEGORIES.columns, (("xid_79", "gpu", 3, 40, 2, 0),))
    page = render_html(ReportData("faultline", TR, {"ett_by_job": ett, "top_categories": cats}), NOW)
    assert 'id="ett-job"' in page and 'id="categories"' in page
    assert '"job-2"' in page and '"xid_79"' in page
    assert f"{NO_DATA}: no ETT intervals" in page  # the sections without results still say so


def test_text_is_escaped() -> None:
    counts = Result(q.TABLE_COUNTS.columns, (("<script>x</script>", 1),))
    page = render_html(ReportData("faultline", TR, {"table_counts": counts}), NOW, title="a<b")
    assert "<script>x</script>" not in page and "&lt;script&gt;x" in page and "<title>a&lt;b</title>" in page


def test_timeline_has_one_bar_trace_per_kind_and_markers() -> None:
    start = "2026-11-22 10:00:00"
    intervals = Result(q.JOB_INTERVALS.columns, (
        (0, "productive", start, "2026-11-22 10:30:00", 1800.0, 8, None),
        (0, "detection", "2026-11-22 10:30:00", "2026-11-22 10:31:00", 60.0, 8, "d1"),
        (1, "productive", "2026-11-22 10:31:00", "2026-11-22 11:00:00", 1740.0, 8, None)))
    verdicts = Result(q.JOB_VERDICTS.columns, ((0, start, "2026-11-22 10:30:30", 30.0, ["n1"], [3], 0.9),))
    fig = figures.job_timeline([JobTimeline("job-1", intervals, verdicts)])
    assert fig is not None
    names = [t.name for t in fig.data]
    assert names == ["productive", "detection", "hang verdict"]
    assert list(fig.data[0].x) == [1800_000.0, 1740_000.0]


def test_figures_return_none_without_rows() -> None:
    assert figures.ett_per_job(Result(q.ETT_BY_JOB.columns)) is None
    assert figures.detection_latency(Result(q.DETECTION_LATENCY.columns)) is None
    assert figures.job_timeline([JobTimeline("j", Result(()), Result(()))]) is None
