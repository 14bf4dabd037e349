"""``faultline report`` and ``faultline dashboards``: entry points ``report_main`` / ``dashboards_main``.

Settings are built here from flags, then from the environment (read only here):
``FAULTLINE_CLICKHOUSE_DSN`` (the store), ``FAULTLINE_GRAFANA_TOKEN`` (push).
Exit codes: 0 ok, 1 failed (query error, panel problems), 2 usage error, 3 unavailable.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from dashboards.grafana import DatasourceSettings, datasource_from_dsn
from dashboards.report import Runner, collect, data_range, render_html
from sinks.clickhouse.errors import PathBusyError, RetryableError, SinkError
from sinks.clickhouse.load import load_derived
from sinks.clickhouse.query import DSN_ENV, run_sql
from sinks.clickhouse.server import jsonable
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import Store, connect

TOKEN_ENV = "FAULTLINE_GRAFANA_TOKEN"


class UsageError(ValueError):
    """Bad flags or a missing input file (exit 2)."""


def _store_runner(store: Store) -> Runner:
    def run(sql: str) -> tuple[list[str], list[list[object]]]:
        cols, rows = store.query(sql)
        return cols, [jsonable(list(r)) for r in rows]
    return run


@contextmanager
def data_source(args: argparse.Namespace, environ: Mapping[str, str]) -> Iterator[tuple[Runner, str]]:
    """(runner, database) for ``--derived FILE`` (a temporary chDB) or ``--dsn``."""
    if args.derived:
        path = Path(args.derived)
        if not path.is_file():
            raise UsageError(f"no such file: {path}")
        with tempfile.TemporaryDirectory(prefix="faultline-report-") as tmp:
            settings = ClickHouseSettings(dsn=f"chdb://{Path(tmp).resolve() / 'clickhouse'}", database=args.database,
                                          query_server=False)
            loaded = load_derived(path, settings.dsn, settings.database)
            print(f"{path}: {loaded.summary()}", file=sys.stderr)
            store = connect(settings, readonly=True)
            try:
                yield _store_runner(store), store.database
            finally:
                store.close()
        return
    dsn = args.dsn or environ.get(DSN_ENV)
    settings = ClickHouseSettings(dsn=dsn, database=args.database) if dsn else ClickHouseSettings(database=args.database)
    try:
        store = connect(settings, readonly=True)  # one connection for every query of the run
    except PathBusyError:  # a running sink owns the chDB path: ask its query server, query by query
        yield (lambda sql: run_sql(settings, sql)), settings.effective_database
        return
    try:
        yield _store_runner(store), store.database
    finally:
        store.close()


def _source_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--dsn", help=f"chdb:///path or http(s)://user:pass@host:8123/db (env {DSN_ENV})")
    group.add_argument("--derived", metavar="FILE", help="a replay's derived JSON lines, loaded into a temporary chDB")
    parser.add_argument("--database", default="faultline", help="database of the tables (default faultline)")


def _report_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faultline report", description="Write the self-contained HTML report.")
    _source_flags(parser)
    parser.add_argument("--out", "-o", default="report.html", help="output HTML file (default report.html)")
    parser.add_argument("--title", default="faultline report")
    return parser


def report_main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """``faultline report (--dsn DSN | --derived FILE) --out report.html``; prints the path written."""
    args = _report_parser().parse_args(list(argv) if argv is not None else None)
    env = os.environ if environ is None else environ
    return _guarded("faultline report", lambda: _report(args, env))


def _report(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    now = datetime.now(UTC)
    with data_source(args, environ) as (runner, database):
        data = collect(runner, database, now)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_html(data, now, args.title), encoding="utf-8")
    print(out.resolve())
    return 0


def _guarded(prog: str, action: Callable[[], int]) -> int:
    """Run ``action`` and turn the known failures into exit codes with one line on stderr."""
    try:
        return action()
    except UsageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except RetryableError as exc:
        print(f"{prog}: unavailable: {exc}", file=sys.stderr)
        return 3
    except SinkError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1


# --- faultline dashboards -----------------------------------------------------------------

def _dashboards_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faultline dashboards", description="Grafana dashboards as code.")
    sub = parser.add_subparsers(dest="action", required=True)
    export = sub.add_parser("export", help="write Grafana file provisioning (datasource, provider, dashboards)")
    export.add_argument("dir")
    export.add_argument("--dashboards-path", default=None,
                        help="where Grafana sees the dashboard JSON folder (default: its absolute path here)")
    push = sub.add_parser("push", help="install the datasource and dashboards through the Grafana HTTP API")
    push.add_argument("--grafana-url", required=True, help="e.g. http://localhost:3000")
    push.add_argument("--token", default=None, help=f"service account token (env {TOKEN_ENV})")
    for p in (export, push):
        p.add_argument("--dsn", help=f"the ClickHouse server Grafana queries: http(s)://user:pass@host:8123/db "
                                     f"(env {DSN_ENV}; default http://default@localhost:8123)")
        p.add_argument("--database", default="faultline")
    check = sub.add_parser("check", help="run every panel's SQL and report its shape")
    _source_flags(check)
    check.add_argument("--json", action="store_true", help="one JSON document instead of a text table")
    return parser


def dashboards_main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """``faultline dashboards export DIR | push --grafana-url URL --token T | check``."""
    args = _dashboards_parser().parse_args(list(argv) if argv is not None else None)
    env = os.environ if environ is None else environ
    actions = {"export": _export, "push": _push, "check": _check}
    return _guarded("faultline dashboards", lambda: actions[args.action](args, env))


def _datasource(args: argparse.Namespace, environ: Mapping[str, str]) -> DatasourceSettings:
    dsn = args.dsn or environ.get(DSN_ENV)
    if dsn and dsn.startswith("chdb://"):
        print(f"note: Grafana cannot query embedded chDB ({dsn}); using http://default@localhost:8123 "
              "(pass --dsn with a ClickHouse server)", file=sys.stderr)
        dsn = None
    try:
        return datasource_from_dsn(dsn, args.database) if dsn else DatasourceSettings(database=args.database)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def _export(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    from dashboards.provision import export

    ds = _datasource(args, environ)
    for path in export(Path(args.dir), ds, args.dashboards_path):
        print(path)
    return 0


def _push(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    from grafana_client.client import GrafanaClientError, GrafanaException

    from dashboards.provision import push_to

    token = args.token or environ.get(TOKEN_ENV)
    if not token:
        raise UsageError(f"--token or {TOKEN_ENV} is required")
    ds = _datasource(args, environ)
    try:
        for line in push_to(args.grafana_url, token, ds):
            print(line)
    except GrafanaClientError as exc:  # 4xx: bad token, missing plugin, invalid payload; retrying will not help
        print(f"faultline dashboards push: refused: {exc}", file=sys.stderr)
        return 1
    except (GrafanaException, OSError) as exc:  # 5xx, timeouts, connection refused
        print(f"faultline dashboards push: unavailable: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3
    return 0


def _check(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    from dashboards.check import check_all, until_now

    with data_source(args, environ) as (runner, database):
        now = datetime.now(UTC)  # after a --derived load, so rows just inserted are inside the range
        checks = check_all(runner, database, until_now(data_range(runner, database, now), now))
    if args.json:
        print(json.dumps([c.as_json() for c in checks], indent=1))
    else:
        for c in checks:
            status = "ok" if not c.problems else "FAIL " + "; ".join(c.problems)
            print(f"{c.key:24} {c.format:11} {c.rows:6} rows  {status}")
    return 1 if any(c.problems for c in checks) else 0
