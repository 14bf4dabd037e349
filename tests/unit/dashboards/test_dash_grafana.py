"""Dashboard JSON, provisioning files and push payloads, built without a Grafana server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from pydantic import SecretStr

from dashboards import boards
from dashboards.grafana import (
    PASSWORD_ENV,
    DatasourceSettings,
    datasource_from_dsn,
    datasource_payload,
    datasource_provisioning,
    push_plan,
)
from dashboards.panels import GRID_COLUMNS, PLUGIN_ID, dashboard_json
from dashboards.provision import export


@pytest.mark.parametrize("board", boards.ALL, ids=lambda b: b.uid)
def test_dashboard_json_targets_the_clickhouse_plugin(board: boards.Dashboard) -> None:
    out = json.loads(json.dumps(dashboard_json(board, "fl_db", "ds-1")))
    assert out["uid"] == board.uid and out["schemaVersion"] >= 36
    ids = [p["id"] for p in out["panels"]]
    assert len(ids) == len(set(ids)) == len(board.panels)
    by_title = {p.title: p for p in board.panels}
    for panel in out["panels"]:
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= GRID_COLUMNS
        source = by_title[panel["title"]]
        if source.query is None:
            assert panel["type"] == "text" and panel["options"]["content"]
            continue
        (target,) = panel["targets"]
        assert target["datasource"] == {"type": PLUGIN_ID, "uid": "ds-1"}
        assert target["editorType"] == "sql" and target["rawSql"] == source.query.render("fl_db")
        assert target["format"] == (0 if source.query.format == "time_series" else 1)


def test_panels_do_not_overlap() -> None:
    for board in boards.ALL:
        cells: set[tuple[int, int]] = set()
        for panel in dashboard_json(board)["panels"]:
            g = panel["gridPos"]
            area = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
            assert not cells & area, panel["title"]
            cells |= area


def test_job_dashboard_has_a_job_variable_used_by_its_panels() -> None:
    out = dashboard_json(boards.JOB, "faultline")
    (variable,) = out["templating"]["list"]
    assert variable["name"] == "job" and "job_id" in variable["query"]
    assert all("'$job'" in p["targets"][0]["rawSql"] for p in out["panels"] if "targets" in p)


def test_datasource_from_server_dsn() -> None:
    ds = datasource_from_dsn("https://reader:s%40cret@ch.example:9443/fleet")
    assert (ds.host, ds.port, ds.secure, ds.username, ds.database) == ("ch.example", 9443, True, "reader", "fleet")
    assert ds.password.get_secret_value() == "s@cret"
    assert datasource_from_dsn("http://ch:8123").database == "faultline"


def test_embedded_dsn_is_refused_for_grafana() -> None:
    with pytest.raises(ValueError, match="server"):
        datasource_from_dsn("chdb:///tmp/x")


def test_provisioning_never_contains_the_password_but_the_api_payload_does() -> None:
    ds = DatasourceSettings(password=SecretStr("hunter2"))
    assert "hunter2" not in yaml.safe_dump(datasource_provisioning(ds))
    assert datasource_provisioning(ds)["datasources"][0]["secureJsonData"]["password"] == f"${PASSWORD_ENV}"
    payload = datasource_payload(ds)
    assert payload["type"] == PLUGIN_ID and payload["secureJsonData"]["password"] == "hunter2"
    assert payload["jsonData"]["defaultDatabase"] == "faultline"


def test_push_plan_overwrites_every_dashboard_in_the_folder() -> None:
    plan = push_plan(DatasourceSettings(database="fleet", uid="ds-x"), boards.ALL)
    assert [p["dashboard"]["uid"] for p in plan.dashboards] == [b.uid for b in boards.ALL]
    for payload in plan.dashboards:
        assert payload["overwrite"] is True and payload["folderUid"] == plan.folder_uid
        assert all(t["datasource"]["uid"] == "ds-x" and "`fleet`." in t["rawSql"]
                   for p in payload["dashboard"]["panels"] for t in p.get("targets", []))


def test_export_writes_grafana_file_provisioning(tmp_path: Path) -> None:
    written = export(tmp_path, DatasourceSettings(host="ch", port=8124), dashboards_path="/var/lib/grafana/fl")
    assert len(written) == 2 + len(boards.ALL)
    datasources = yaml.safe_load((tmp_path / "datasources" / "faultline.yaml").read_text())
    assert datasources["datasources"][0]["jsonData"]["port"] == 8124
    provider = yaml.safe_load((tmp_path / "dashboards" / "faultline.yaml").read_text())
    assert provider["providers"][0]["options"]["path"] == "/var/lib/grafana/fl"
    for board in boards.ALL:
        loaded = json.loads((tmp_path / "dashboards" / "faultline" / f"{board.uid}.json").read_text())
        assert loaded["title"] == board.title


def test_job_columns_link_to_the_job_dashboard() -> None:
    panel = next(p for p in dashboard_json(boards.FLEET)["panels"] if p["title"] == "ETT per job")
    (override,) = panel["fieldConfig"]["overrides"]
    assert override["matcher"]["options"] == "job_id"
    assert f"/d/{boards.JOB.uid}?var-job=${{__value.raw}}" in override["properties"][0]["value"][0]["url"]
