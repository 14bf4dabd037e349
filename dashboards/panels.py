"""Typed Grafana dashboard model rendered to plain dashboard JSON (schemaVersion 39).

Panels carry a :class:`~dashboards.queries.PanelQuery` (or markdown text) and render their
targets in the query format of the official ClickHouse plugin
(``grafana-clickhouse-datasource`` v4: ``editorType: sql``, ``rawSql``, numeric ``format``
0 = time series / 1 = table, ``queryType``). Layout is computed: panels flow left to right
in a 24-column grid. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from dashboards.queries import PanelQuery

PLUGIN_ID = "grafana-clickhouse-datasource"
DATASOURCE_UID = "faultline-clickhouse"
SCHEMA_VERSION = 39
GRID_COLUMNS = 24

PanelType = Literal["timeseries", "table", "barchart", "stat", "state-timeline", "piechart", "text"]
Json = dict[str, Any]

_FORMAT_CODE = {"time_series": 0, "table": 1}
_QUERY_TYPE = {"time_series": "timeseries", "table": "table"}


@dataclass(frozen=True)
class Panel:
    """One panel: a query (or ``text`` for a markdown note), its visual type and size."""

    title: str
    type: PanelType
    query: PanelQuery | None = None
    description: str = ""
    unit: str | None = None
    width: int = 12
    height: int = 8
    text: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    link_field: str | None = None
    """A column whose values link to the job drill-down (``var-job`` = the clicked value)."""

    def __post_init__(self) -> None:
        if (self.query is None) != (self.type == "text"):
            raise ValueError(f"panel {self.title!r}: only text panels have no query")
        if not 1 <= self.width <= GRID_COLUMNS:
            raise ValueError(f"panel {self.title!r}: width must be 1..{GRID_COLUMNS}")


@dataclass(frozen=True)
class QueryVariable:
    """A dashboard template variable whose values come from a query (e.g. ``$job``)."""

    name: str
    label: str
    query: PanelQuery


@dataclass(frozen=True)
class Dashboard:
    """A dashboard: uid, title, panels in reading order, template variables."""

    uid: str
    title: str
    panels: tuple[Panel, ...]
    description: str = ""
    variables: tuple[QueryVariable, ...] = ()
    tags: tuple[str, ...] = ("faultline",)
    time_from: str = "now-24h"
    refresh: str = "1m"
    links: tuple[str, ...] = field(default=())

    def queries(self) -> tuple[PanelQuery, ...]:
        """Every query the dashboard runs: variables first, then panels."""
        return tuple(v.query for v in self.variables) + tuple(p.query for p in self.panels if p.query)


def datasource_ref(uid: str = DATASOURCE_UID) -> Json:
    """A reference to the ClickHouse datasource by uid."""
    return {"type": PLUGIN_ID, "uid": uid}


def target(query: PanelQuery, database: str, ds_uid: str, ref_id: str = "A") -> Json:
    """One query target in the ClickHouse plugin's SQL-editor format."""
    return {
        "refId": ref_id,
        "datasource": datasource_ref(ds_uid),
        "editorType": "sql",
        "rawSql": query.render(database),
        "format": _FORMAT_CODE[query.format],
        "queryType": _QUERY_TYPE[query.format],
        "meta": {"builderOptions": {}},
    }


def _layout(panels: tuple[Panel, ...]) -> list[Json]:
    """Grid positions, filling rows of 24 columns left to right."""
    positions: list[Json] = []
    x = y = row_height = 0
    for panel in panels:
        if x + panel.width > GRID_COLUMNS:
            x, y, row_height = 0, y + row_height, 0
        positions.append({"x": x, "y": y, "w": panel.width, "h": panel.height})
        x += panel.width
        row_height = max(row_height, panel.height)
    return positions


def panel_json(panel: Panel, panel_id: int, grid: Json, database: str, ds_uid: str) -> Json:
    """The JSON of one panel."""
    out: Json = {"id": panel_id, "type": panel.type, "title": panel.title, "description": panel.description,
                 "gridPos": grid, "options": dict(panel.options)}
    if panel.query is None:
        out["options"] = {"mode": "markdown", "content": panel.text, **dict(panel.options)}
        return out
    defaults: Json = {"unit": panel.unit} if panel.unit else {}
    overrides = [_job_link(panel.link_field)] if panel.link_field else []
    out.update({"datasource": datasource_ref(ds_uid), "targets": [target(panel.query, database, ds_uid)],
                "fieldConfig": {"defaults": defaults, "overrides": overrides}})
    return out


JOB_DASHBOARD_UID = "faultline-job"


def _job_link(field_name: str) -> Json:
    """A field override linking each value to the job drill-down, keeping the time range."""
    url = f"/d/{JOB_DASHBOARD_UID}?var-job=${{__value.raw}}&${{__url_time_range}}"
    return {"matcher": {"id": "byName", "options": field_name},
            "properties": [{"id": "links", "value": [{"title": "Job drill-down", "url": url}]}]}


def variable_json(var: QueryVariable, database: str, ds_uid: str) -> Json:
    """A query variable, refreshed on time-range change, single value."""
    sql = var.query.render(database)
    return {"type": "query", "name": var.name, "label": var.label, "datasource": datasource_ref(ds_uid),
            "query": sql, "definition": sql, "refresh": 2, "sort": 1, "multi": False,
            "includeAll": False, "current": {}, "options": [], "hide": 0}


def dashboard_json(board: Dashboard, database: str = "faultline", ds_uid: str = DATASOURCE_UID) -> Json:
    """The full dashboard JSON Grafana imports (no ``id``: Grafana assigns it)."""
    grids = _layout(board.panels)
    return {
        "uid": board.uid, "title": board.title, "description": board.description, "tags": list(board.tags),
        "timezone": "utc", "editable": True, "schemaVersion": SCHEMA_VERSION, "version": 1,
        "time": {"from": board.time_from, "to": "now"}, "refresh": board.refresh,
        "templating": {"list": [variable_json(v, database, ds_uid) for v in board.variables]},
        "annotations": {"list": []},
        "links": [{"type": "dashboards", "tags": list(board.links), "asDropdown": False, "title": "faultline"}]
        if board.links else [],
        "panels": [panel_json(p, i, g, database, ds_uid) for i, (p, g) in enumerate(zip(board.panels, grids, strict=True),
                                                                                         start=1)],
    }
