"""Every panel's SQL and the HTML report, on derived events the pipeline produced.

The data: ``faultline simulate`` (a small fleet with a hang, an Xid, a slow node, an OOM and
a long checkpoint, plus one malformed line so a dead letter exists) -> ``streams.replay``
-> derived JSON lines. chDB opens one engine path per process, so everything that loads
the data into chDB runs as a ``faultline`` subprocess with its own temporary path.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from dash_browser import load_page
from PIL import Image

from dashboards import boards
from dashboards.queries import PanelQuery
from streams.replay import replay

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[3]
SCENARIOS = ("hang:job=0,at_s=500,source=single", "xid:node=6,gpu=1,xid=79,at_s=700",
             "slow_node:job=1,node=1,at_s=300,slowdown=1.4", "oom:job=1,rank=3,at_s=1200",
             "long_checkpoint:job=1,at_s=200,duration_s=200")
PANEL_QUERIES = {q.key: q for b in boards.ALL for q in b.queries()}
PLOTS_SETTLED = "document.readyState === 'complete' && document.querySelectorAll('.plotly-graph-div').length"


@dataclass(frozen=True)
class Replayed:
    """The replay's output file and how many derived events of each kind it holds."""

    path: Path
    kinds: Counter[str]
    categories: frozenset[tuple[str, str]]
    """(category, family) of every fault in the file."""


def _cli(module_main: str, *args: str, timeout_s: float = 300) -> subprocess.CompletedProcess[str]:
    module, _, func = module_main.partition(":")
    code = f"import sys; from {module} import {func}; sys.exit({func}(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout_s, check=False)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Replayed:
    tmp = tmp_path_factory.mktemp("dash")
    events = tmp / "events.jsonl"
    sim = _cli("producers.simulator.cli:main", "--nodes", "8", "--jobs", "2", "--duration-s", "1500", "--seed", "11",
               "--cluster", "itest", *[a for s in SCENARIOS for a in ("--scenario", s)], "--out", str(events))
    assert sim.returncode == 0, sim.stderr
    with open(events, "a") as handle:
        handle.write('{"schema": "gpu_sample/v1", "broken": true}\n')
    derived = tmp / "derived.jsonl"
    with open(derived, "wb") as out:
        result = replay(events, out)
    assert result.derived > 0 and result.dead_letters == 1
    lines = [json.loads(line) for line in derived.read_text().splitlines()]
    kinds = Counter(obj["schema"].split("/")[0] for obj in lines)
    categories = frozenset((o["category"], o["family"]) for o in lines if o["schema"].startswith("fault/"))
    return Replayed(derived, kinds, categories)


@pytest.fixture(scope="module")
def checks(replayed: Replayed) -> dict[str, dict[str, object]]:
    run = _cli("dashboards.cli:dashboards_main", "check", "--derived", str(replayed.path), "--json")
    assert run.returncode in (0, 1), run.stderr
    return {c["key"]: c for c in json.loads(run.stdout)}


def test_every_panel_query_ran(checks: dict[str, dict[str, object]]) -> None:
    assert set(checks) == set(PANEL_QUERIES)
    assert {k: c["problems"] for k, c in checks.items() if c["problems"]} == {}


@pytest.mark.parametrize("key", sorted(PANEL_QUERIES))
def test_panel_returns_the_columns_it_promises(checks: dict[str, dict[str, object]], key: str) -> None:
    query: PanelQuery = PANEL_QUERIES[key]
    check = checks[key]
    assert check["columns"] == list(query.columns)
    types = check["types"]
    assert isinstance(types, list) and len(types) == len(query.columns)
    if query.format == "time_series" or query.columns[0] == "time":
        assert str(types[0]).startswith(("DateTime", "Date"))


def _tables_with_rows(kinds: Counter[str]) -> dict[str, list[str]]:
    """Panels that must have rows, by the derived kind that feeds them."""
    return {
        "fault": ["faults_over_time", "top_categories", "top_nodes", "xids_over_time", "rows_per_minute", "sink_delay"],
        "hang_verdict": ["job_verdicts", "detection_latency"],
        "decision": ["jobs"],
        "slow_node": ["slow_nodes"],
        "dead_letter": ["dead_letters_over_time", "dead_letter_errors"],
        "ett_interval": ["ett_trend", "ett_by_cluster", "invalid_by_kind", "mtbf", "ett_by_job", "ett_by_day",
                         "top_causes", "job_states", "job_intervals"],
    }


def test_panels_fed_by_the_replay_have_rows(replayed: Replayed, checks: dict[str, dict[str, object]]) -> None:
    expected = [key for kind, keys in _tables_with_rows(replayed.kinds).items() if replayed.kinds[kind] for key in keys]
    assert replayed.kinds["fault"] and replayed.kinds["hang_verdict"] and replayed.kinds["dead_letter"]
    assert {k: checks[k]["rows"] for k in expected if not checks[k]["rows"]} == {}


def _screenshot_colors(png: bytes) -> tuple[int, float]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 24) or []
    white = sum(n for n, rgb in colors if rgb == (255, 255, 255))
    return len(colors), white / (image.width * image.height)


def _report(derived: Path, out: Path) -> None:
    run = _cli("dashboards.cli:report_main", "--derived", str(derived), "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(out.resolve())


def test_report_loads_in_chromium_without_errors(replayed: Replayed, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    _report(replayed.path, out)
    page = load_page(out, settle_js=PLOTS_SETTLED)
    assert page.errors == []
    assert page.requests == [out.resolve().as_uri()]  # self-contained: nothing else fetched
    # timeline, detection latency, top categories, top nodes; with ETT also ETT per job/day, invalid time, causes
    plotted = 4 + (4 if replayed.kinds["ett_interval"] else 0)
    assert int(page.evaluated) >= plotted
    colors, white = _screenshot_colors(page.screenshot_png)
    assert colors > 100 and white < 0.97


def test_report_of_no_data_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    out = tmp_path / "empty.html"
    _report(empty, out)
    assert out.read_text().count("no data:") >= 8
    page = load_page(out, settle_js="document.readyState === 'complete'")
    assert page.errors == []
    colors, _ = _screenshot_colors(page.screenshot_png)
    assert colors > 10  # headings and the grey "no data" boxes are drawn


def test_report_and_check_from_a_dsn_in_a_custom_database(replayed: Replayed, tmp_path: Path) -> None:
    dsn = f"chdb://{tmp_path / 'clickhouse'}"
    load = _cli("sinks.clickhouse.load:load_main", str(replayed.path), "--dsn", dsn, "--database", "fl_report")
    assert load.returncode == 0, load.stderr
    check = _cli("dashboards.cli:dashboards_main", "check", "--dsn", dsn, "--database", "fl_report", "--json")
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr
    rows = {c["key"]: c["rows"] for c in json.loads(check.stdout)}
    assert rows["top_categories"] == len(replayed.categories) and rows["job_verdicts"] >= 1
    out = tmp_path / "from_dsn.html"
    report = _cli("dashboards.cli:report_main", "--dsn", dsn, "--database", "fl_report", "--out", str(out))
    assert report.returncode == 0, report.stderr
    page = out.read_text()
    assert 'id="categories"' in page and 'id="timeline"' in page
