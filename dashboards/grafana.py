"""Pure builders of everything Grafana receives: datasource, file provisioning, API payloads.

``faultline dashboards export`` writes these as files, ``faultline dashboards push`` sends
them through grafana-client; both take them from here so the two routes agree. The
ClickHouse password never lands in a file or a payload built for export: provisioning files
reference the ``$FAULTLINE_CLICKHOUSE_PASSWORD`` environment variable of the Grafana
process (Grafana expands ``$VAR`` in provisioning files). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from dashboards.panels import DATASOURCE_UID, PLUGIN_ID, Dashboard, dashboard_json

Json = dict[str, Any]
PASSWORD_ENV = "FAULTLINE_CLICKHOUSE_PASSWORD"
FOLDER_UID = "faultline"
FOLDER_TITLE = "faultline"


class DatasourceSettings(BaseModel):
    """How Grafana reaches ClickHouse (the plugin runs in Grafana, not here)."""

    model_config = ConfigDict(frozen=True)

    name: str = "faultline ClickHouse"
    uid: str = DATASOURCE_UID
    host: str = "localhost"
    port: int = Field(default=8123, ge=1, le=65535)
    protocol: Literal["http", "native"] = "http"
    secure: bool = False
    username: str = "default"
    password: SecretStr = SecretStr("")
    database: str = Field(default="faultline", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")


def datasource_from_dsn(dsn: str, database: str = "faultline") -> DatasourceSettings:
    """Datasource settings from an ``http(s)://user:pass@host:port[/db]`` DSN.

    ValueError for a ``chdb://`` DSN: an embedded engine lives inside one process and
    Grafana cannot query it; point Grafana at a ClickHouse server instead.
    """
    url = urlsplit(dsn)
    if url.scheme not in ("http", "https"):
        raise ValueError(f"Grafana needs a ClickHouse server DSN (http/https), not {url.scheme!r}: {dsn}")
    return DatasourceSettings(
        host=url.hostname or "localhost", port=url.port or (8443 if url.scheme == "https" else 8123),
        secure=url.scheme == "https", username=unquote(url.username or "default"),
        password=SecretStr(unquote(url.password or "")), database=url.path.strip("/") or database,
    )


def _json_data(ds: DatasourceSettings) -> Json:
    return {"host": ds.host, "port": ds.port, "protocol": ds.protocol, "secure": ds.secure,
            "username": ds.username, "defaultDatabase": ds.database}


def datasource_provisioning(ds: DatasourceSettings) -> Json:
    """``provisioning/datasources/*.yaml`` content; the password is read from the environment."""
    return {"apiVersion": 1, "datasources": [{
        "name": ds.name, "type": PLUGIN_ID, "uid": ds.uid, "access": "proxy", "editable": True,
        "jsonData": _json_data(ds), "secureJsonData": {"password": f"${PASSWORD_ENV}"},
    }]}


def datasource_payload(ds: DatasourceSettings) -> Json:
    """The body of ``POST /api/datasources`` (and ``PUT /api/datasources/uid/<uid>``)."""
    return {"name": ds.name, "type": PLUGIN_ID, "uid": ds.uid, "access": "proxy",
            "jsonData": _json_data(ds), "secureJsonData": {"password": ds.password.get_secret_value()}}


def provider_provisioning(dashboards_path: str, folder: str = FOLDER_TITLE) -> Json:
    """``provisioning/dashboards/*.yaml`` content: load the JSON files under ``dashboards_path``."""
    return {"apiVersion": 1, "providers": [{
        "name": "faultline", "folder": folder, "folderUid": FOLDER_UID, "type": "file",
        "disableDeletion": False, "allowUiUpdates": False, "updateIntervalSeconds": 60,
        "options": {"path": dashboards_path, "foldersFromFilesStructure": False},
    }]}


def dashboard_payload(board: Dashboard, database: str, ds_uid: str = DATASOURCE_UID,
                      folder_uid: str = FOLDER_UID) -> Json:
    """The body of ``POST /api/dashboards/db``: overwrite by uid, in the faultline folder."""
    return {"dashboard": dashboard_json(board, database, ds_uid), "folderUid": folder_uid, "overwrite": True,
            "message": "provisioned by faultline dashboards push"}


@dataclass(frozen=True)
class PushPlan:
    """Everything a push sends, in order: folder, datasource, dashboards."""

    folder_uid: str
    folder_title: str
    datasource: Json
    dashboards: tuple[Json, ...]


def push_plan(ds: DatasourceSettings, boards: tuple[Dashboard, ...]) -> PushPlan:
    """The payloads of one push, built without a server."""
    return PushPlan(FOLDER_UID, FOLDER_TITLE, datasource_payload(ds),
                    tuple(dashboard_payload(b, ds.database, ds.uid) for b in boards))
