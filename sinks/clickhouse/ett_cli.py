"""``faultline ett report|model``: the fleet's ETT headline table, and the expected-ETT model.

``report`` reads the analytics views (migration 5) through the same route as ``faultline sql``
(a running sink's query server for a held chDB path, else chDB or the server directly).
``model`` evaluates :mod:`streams.ett.model` for the given parameters; with ``--from-dsn`` it
fits ``r_f`` (node-blamed interruptions per allocated node-day) and ``u0`` (mean detection +
scheduling + initialization per interruption) from the fleet's history first.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from sinks.clickhouse import analytics
from sinks.clickhouse.ddl import qualified
from sinks.clickhouse.errors import RetryableError, SinkError
from sinks.clickhouse.query import format_table, run_sql
from sinks.clickhouse.settings import ClickHouseSettings
from streams.ett.model import Estimate, FleetParams, estimate, expected_ett

DSN_ENV = "FAULTLINE_CLICKHOUSE_DSN"
COMPARE_INTERVALS_MIN = (5.0, 10.0, 15.0, 30.0, 60.0, 120.0)


class NoHistory(SinkError):
    """The store has no interruptions or allocated node-days to fit the model from."""


def _cluster_sql(database: str) -> str:
    view = qualified(database, "ett_cluster")
    cols = "jobs, lifetime_h, ett_wall, ett_alloc, lost_gpu_h, interruptions, mtbf_h"
    fleet = ("SELECT '*', sum(jobs), sum(lifetime_h), sum(productive_h) / nullIf(sum(lifetime_h), 0),"
             " sum(productive_h) / nullIf(sum(lifetime_h) - sum(queue_h), 0), sum(lost_gpu_h), sum(interruptions),"
             f" sum(lifetime_h) / nullIf(sum(interruptions), 0) FROM {view}")
    return f"SELECT * FROM (SELECT cluster, {cols} FROM {view} UNION ALL {fleet}) ORDER BY cluster = '*', cluster"


def _jobs_sql(database: str, top: int) -> str:
    return analytics.top_jobs_sql(database, top).replace("SELECT job_id, cluster, gpus, attempts,",
                                                          "SELECT job_id, cluster, gpus,")


def _rounded(table: tuple[list[str], list[list[Any]]]) -> tuple[list[str], list[list[Any]]]:
    """Floats to 3 decimals for ratios (``ett_*``) and 2 for hours, for the terminal."""
    cols, rows = table
    digits = [3 if c.startswith("ett_") else 2 for c in cols]
    return cols, [[round(v, d) if isinstance(v, float) else v for v, d in zip(row, digits, strict=True)]
                  for row in rows]


def report(settings: ClickHouseSettings, top: int = 10) -> dict[str, tuple[list[str], list[list[Any]]]]:
    """The headline tables: per cluster (plus the fleet as ``*``) and the ``top`` jobs by lost GPU-hours."""
    database = settings.effective_database
    return {
        "clusters": run_sql(settings, _cluster_sql(database)),
        "jobs": run_sql(settings, _jobs_sql(database, top)),
    }


def fit(settings: ClickHouseSettings, gpus_per_node: int = 8) -> dict[str, float]:
    """``r_f`` and ``u0`` (minutes) fitted from the whole fleet's history, with the counts behind them.

    Raises NoHistory when there is nothing to fit (no interruptions or no node-days).
    """
    cols, rows = run_sql(settings, analytics.failure_rate_sql(settings.effective_database, gpus_per_node))
    fleet = next((dict(zip(cols, row, strict=True)) for row in rows if row[0] == "*"), None)
    if fleet is None or fleet["r_f"] is None or fleet["mean_overhead_min"] is None:
        raise NoHistory("no interruptions or allocated node-days in the history: nothing to fit")
    return {"failures_per_node_day": float(fleet["r_f"]), "restart_overhead_min": float(fleet["mean_overhead_min"]),
            "node_failures": float(fleet["node_failures"]), "interruptions": float(fleet["interruptions"]),
            "node_days": float(fleet["node_days"])}


def _model_text(params: FleetParams, result: Estimate, fitted: dict[str, float] | None) -> str:
    lines = []
    if fitted is not None:
        lines.append(f"fitted from history: r_f = {fitted['failures_per_node_day']:.4g} per node-day "
                     f"({fitted['node_failures']:.0f} node failures in {fitted['node_days']:.1f} node-days), "
                     f"u0 = {fitted['restart_overhead_min']:.1f} min (mean of {fitted['interruptions']:.0f})")
    lines += [
        f"nodes {params.nodes}, r_f {params.failures_per_node_day:.4g}/node-day, u0 {params.restart_overhead_min:g} min, "
        f"checkpoint every {params.checkpoint_interval_min:g} min (write {params.checkpoint_write_min:g} min), "
        f"queue {params.queue_min:g} min",
        f"MTTF {result.mttf_h:.2f} h ({result.failures_per_hour:.3f} failures/h); expected ETT {result.ett:.3f}",
    ]
    if result.optimal_interval_min is None:
        lines.append("optimal interval: none (checkpoint writes cost nothing: shorter is always better)")
    else:
        lines.append(f"optimal interval (Young/Daly): {result.optimal_interval_min:.1f} min "
                     f"-> expected ETT {result.ett_at_optimal:.3f}")
    rows = [[f"{m:g}", f"{expected_ett(params, m):.3f}"] for m in COMPARE_INTERVALS_MIN]
    lines.append(format_table(["interval_min", "expected_ett"], rows))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faultline ett", description="Fleet effective training time.")
    sub = parser.add_subparsers(dest="action", required=True)
    rep = sub.add_parser("report", help="ETT per cluster and the jobs that lost the most GPU-hours")
    rep.add_argument("--dsn", help=f"chdb:///path or http(s)://user:pass@host:8123/db (env {DSN_ENV})")
    rep.add_argument("--database", default=None, help="database name (faultline)")
    rep.add_argument("--top", type=int, default=10, help="how many jobs to list (default 10)")
    rep.add_argument("--json", action="store_true", help="print JSON instead of tables")
    mod = sub.add_parser("model", help="expected ETT of a job from fleet parameters (Kokolis et al.)")
    mod.add_argument("--nodes", type=int, required=True)
    mod.add_argument("--failures-per-node-day", type=float, help="r_f (with --from-dsn: fitted unless given)")
    mod.add_argument("--restart-overhead-min", type=float, help="u0 (with --from-dsn: fitted unless given)")
    mod.add_argument("--checkpoint-interval-min", type=float, required=True)
    mod.add_argument("--checkpoint-write-min", type=float, default=0.0, help="blocking write time (default 0)")
    mod.add_argument("--queue-min", type=float, default=0.0, help="queueing after each failure (default 0)")
    mod.add_argument("--from-dsn", help="fit r_f and u0 from the history in this ClickHouse")
    mod.add_argument("--database", default=None)
    mod.add_argument("--gpus-per-node", type=int, default=8, help="to turn GPU-hours into node-days (default 8)")
    mod.add_argument("--json", action="store_true")
    return parser


def ett_main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """Entry point of ``faultline ett``: 0 ok, 1 query failed or no history, 2 usage, 3 unavailable."""
    args = _parser().parse_args(list(argv) if argv is not None else None)
    try:
        if args.action == "report":
            return _report(args, environ or {})
        return _model(args)
    except ValueError as exc:
        print(f"faultline ett: {exc}", file=sys.stderr)
        return 2
    except RetryableError as exc:
        print(f"faultline ett: unavailable: {exc}", file=sys.stderr)
        return 3
    except SinkError as exc:
        print(f"faultline ett: {exc}", file=sys.stderr)
        return 1


def _settings(dsn: str | None, database: str | None) -> ClickHouseSettings:
    values: dict[str, Any] = {}
    if dsn:
        values["dsn"] = dsn
    if database:
        values["database"] = database
    return ClickHouseSettings(**values)


def _report(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    if args.top < 1:
        raise ValueError("--top must be >= 1")
    tables = report(_settings(args.dsn or environ.get(DSN_ENV), args.database), args.top)
    if args.json:
        print(json.dumps({name: {"columns": cols, "rows": rows} for name, (cols, rows) in tables.items()}))
        return 0
    print("ETT per cluster (* = fleet); hours of job lifetime, GPU-hours lost outside productive time")
    print(format_table(*_rounded(tables["clusters"])))
    print(f"\nTop {args.top} jobs by lost GPU-hours")
    cols, rows = _rounded(tables["jobs"])
    print(format_table(cols, rows) if rows else "(no job has ETT intervals yet)")
    return 0


def _model(args: argparse.Namespace) -> int:
    fitted = None
    if args.from_dsn:
        fitted = fit(_settings(args.from_dsn, args.database), args.gpus_per_node)
    # An explicit flag wins over the fitted value, so an operator can ask "what if u0 were 2 min".
    rate = _first(args.failures_per_node_day, fitted["failures_per_node_day"] if fitted else None)
    overhead = _first(args.restart_overhead_min, fitted["restart_overhead_min"] if fitted else None)
    if rate is None or overhead is None:
        raise ValueError("--failures-per-node-day and --restart-overhead-min are required without --from-dsn")
    params = FleetParams(nodes=args.nodes, failures_per_node_day=rate, restart_overhead_min=overhead,
                         checkpoint_interval_min=args.checkpoint_interval_min,
                         checkpoint_write_min=args.checkpoint_write_min, queue_min=args.queue_min)
    result = estimate(params)
    if args.json:
        print(json.dumps({**result.to_json(), "params": _params_json(params), "fitted": fitted}))
    else:
        print(_model_text(params, result, fitted))
    return 0


def _first(*values: float | None) -> float | None:
    return next((v for v in values if v is not None), None)


def _params_json(params: FleetParams) -> dict[str, float]:
    return {"nodes": params.nodes, "failures_per_node_day": params.failures_per_node_day,
            "restart_overhead_min": params.restart_overhead_min,
            "checkpoint_interval_min": params.checkpoint_interval_min,
            "checkpoint_write_min": params.checkpoint_write_min, "queue_min": params.queue_min}
