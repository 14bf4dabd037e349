"""Install the dashboards: as Grafana provisioning files (``export``) or through the HTTP API (``push``).

Layout written by :func:`export` under ``DIR``::

    DIR/datasources/faultline.yaml      the ClickHouse datasource (password from $FAULTLINE_CLICKHOUSE_PASSWORD)
    DIR/dashboards/faultline.yaml       the file provider, pointing at the JSON folder
    DIR/dashboards/faultline/*.json     one file per dashboard

Mount ``DIR/datasources`` and ``DIR/dashboards`` under Grafana's ``provisioning/`` and the
JSON folder where the provider's path says (``--dashboards-path``, default the absolute
``DIR/dashboards/faultline``). Either way Grafana needs the ClickHouse plugin installed
(e.g. ``GF_INSTALL_PLUGINS=grafana-clickhouse-datasource``) and ``FAULTLINE_CLICKHOUSE_PASSWORD``
in its environment when the ClickHouse user has a password.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from dashboards.boards import ALL
from dashboards.grafana import DatasourceSettings, PushPlan, datasource_provisioning, provider_provisioning, push_plan
from dashboards.panels import Dashboard, dashboard_json


def export(out_dir: Path, ds: DatasourceSettings, dashboards_path: str | None = None,
           boards: tuple[Dashboard, ...] = ALL) -> list[Path]:
    """Write the provisioning files under ``out_dir``; returns the paths written (overwrites)."""
    json_dir = out_dir / "dashboards" / "faultline"
    json_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "datasources").mkdir(parents=True, exist_ok=True)
    written = [
        _write_yaml(out_dir / "datasources" / "faultline.yaml", datasource_provisioning(ds)),
        _write_yaml(out_dir / "dashboards" / "faultline.yaml",
                    provider_provisioning(dashboards_path or str(json_dir.resolve()))),
    ]
    for board in boards:
        path = json_dir / f"{board.uid}.json"
        path.write_text(json.dumps(dashboard_json(board, ds.database, ds.uid), indent=2) + "\n")
        written.append(path)
    return written


def _write_yaml(path: Path, content: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(content, sort_keys=False))
    return path


def push(api: Any, plan: PushPlan) -> list[str]:
    """Send ``plan`` through a ``grafana_client.GrafanaApi``; returns one line per object installed.

    Creates the folder and the datasource if missing, updates them otherwise, and
    overwrites dashboards by uid. Errors of grafana-client propagate (the caller reports).
    """
    from grafana_client.client import GrafanaClientError

    done: list[str] = []
    try:
        api.folder.get_folder(plan.folder_uid)
    except GrafanaClientError:
        api.folder.create_folder(plan.folder_title, uid=plan.folder_uid)
        done.append(f"folder {plan.folder_uid} created")
    uid = plan.datasource["uid"]
    try:
        api.datasource.get_datasource_by_uid(uid)
        exists = True
    except GrafanaClientError:
        exists = False
    if exists:
        api.datasource.update_datasource_by_uid(uid, plan.datasource)
    else:
        api.datasource.create_datasource(plan.datasource)
    done.append(f"datasource {uid} {'updated' if exists else 'created'}")
    for payload in plan.dashboards:
        api.dashboard.update_dashboard(payload)
        done.append(f"dashboard {payload['dashboard']['uid']} installed")
    return done


def push_to(url: str, token: str, ds: DatasourceSettings, timeout_s: float = 30.0) -> list[str]:
    """Connect with grafana-client and push every dashboard (not testable without a Grafana server)."""
    from grafana_client import GrafanaApi

    api = GrafanaApi.from_url(url, credential=token, timeout=timeout_s)
    return push(api, push_plan(ds, ALL))
