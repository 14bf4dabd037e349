"""Expansion of the Grafana ClickHouse plugin's SQL macros and of dashboard variables.

Panel SQL is written once, for Grafana, with the macros of the official
``grafana-clickhouse-datasource`` plugin (``$__timeFilter(col)``, ``$__timeInterval(col)``,
``$__fromTime``, ...) and dashboard variables (``$job`` / ``${job}``). Grafana expands them
server-side; the HTML report and the tests expand them here, producing the same SQL text the
plugin would send (same functions, same second/millisecond precision), so what the report
shows and what Grafana shows cannot drift apart. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

_MACRO = re.compile(r"\$__(\w+)(?:\(([^()]*)\))?")
_VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")


class MacroError(ValueError):
    """A macro or variable the expansion does not know, or a macro with the wrong arguments."""


@dataclass(frozen=True)
class TimeRange:
    """The dashboard's time range ``[start, end]`` (aware datetimes) and its bucket width."""

    start: datetime
    end: datetime
    interval_s: int = 60

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("TimeRange needs aware datetimes")
        if self.end < self.start:
            raise ValueError(f"time range ends before it starts: {self.start} > {self.end}")
        if self.interval_s < 1:
            raise ValueError("interval_s must be >= 1")


def auto_interval_s(start: datetime, end: datetime, buckets: int = 120) -> int:
    """A bucket width giving about ``buckets`` points over the range (at least 1 s), like Grafana's."""
    span_s = (end - start).total_seconds()
    return max(1, round(span_s / max(buckets, 1)))


def _seconds(moment: datetime) -> int:
    return int(moment.astimezone(UTC).timestamp())


def _millis(moment: datetime) -> int:
    return int(round(moment.astimezone(UTC).timestamp() * 1000))


def _one_arg(name: str, args: list[str]) -> str:
    if len(args) != 1 or not args[0]:
        raise MacroError(f"$__{name} expects 1 argument, got {len(args)}")
    return args[0]


def _time_filter(tr: TimeRange, args: list[str]) -> str:
    col = _one_arg("timeFilter", args)
    return f"{col} >= toDateTime({_seconds(tr.start)}) AND {col} <= toDateTime({_seconds(tr.end)})"


def _time_filter_ms(tr: TimeRange, args: list[str]) -> str:
    col = _one_arg("timeFilter_ms", args)
    return (f"{col} >= fromUnixTimestamp64Milli({_millis(tr.start)}) AND "
            f"{col} <= fromUnixTimestamp64Milli({_millis(tr.end)})")


def _time_interval(tr: TimeRange, args: list[str]) -> str:
    col = _one_arg("timeInterval", args)
    return f"toStartOfInterval(toDateTime({col}), INTERVAL {tr.interval_s} second)"


_MACROS: dict[str, Callable[[TimeRange, list[str]], str]] = {
    "timeFilter": _time_filter,
    "timeFilter_ms": _time_filter_ms,
    "timeInterval": _time_interval,
    "fromTime": lambda tr, _: f"toDateTime({_seconds(tr.start)})",
    "toTime": lambda tr, _: f"toDateTime({_seconds(tr.end)})",
    "fromTime_ms": lambda tr, _: f"fromUnixTimestamp64Milli({_millis(tr.start)})",
    "toTime_ms": lambda tr, _: f"fromUnixTimestamp64Milli({_millis(tr.end)})",
    "interval_s": lambda tr, _: str(tr.interval_s),
}


def expand_macros(sql: str, time_range: TimeRange) -> str:
    """``sql`` with every ``$__macro`` replaced; MacroError for an unknown macro."""
    def replace(match: re.Match[str]) -> str:
        name, raw_args = match.group(1), match.group(2)
        fn = _MACROS.get(name)
        if fn is None:
            raise MacroError(f"unknown macro $__{name}")
        args = [a.strip() for a in raw_args.split(",")] if raw_args is not None else []
        return fn(time_range, args)
    return _MACRO.sub(replace, sql)


def quote_literal(value: str) -> str:
    """``value`` escaped for use inside a single-quoted ClickHouse string literal (no quotes added)."""
    return value.replace("\\", "\\\\").replace("'", "\\'")


def expand_variables(sql: str, variables: Mapping[str, str]) -> str:
    """``sql`` with ``$name`` / ``${name}`` replaced by the escaped value; macros are left alone.

    Values are escaped for a single-quoted literal, which is how every panel uses them
    (``job_id = '$job'``). An unknown variable raises MacroError rather than reaching SQL.
    """
    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name.startswith("__"):
            return match.group(0)
        if name not in variables:
            raise MacroError(f"no value for dashboard variable ${name}")
        return quote_literal(variables[name])
    return _VARIABLE.sub(replace, sql)


def expand(sql: str, time_range: TimeRange, variables: Mapping[str, str] | None = None) -> str:
    """Variables first, then macros: the order Grafana applies them in."""
    return expand_macros(expand_variables(sql, variables or {}), time_range)
