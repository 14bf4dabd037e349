"""The Grafana ClickHouse macros expand to the plugin's SQL; variables are escaped."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime, timedelta

import pytest

from dashboards.macros import MacroError, TimeRange, auto_interval_s, expand, expand_macros, expand_variables

START = datetime(2026, 11, 22, 8, 0, 0, 250000, tzinfo=UTC)
END = START + timedelta(hours=2)
TR = TimeRange(START, END, interval_s=90)


def _epoch_s(moment: datetime) -> int:
    return calendar.timegm(moment.utctimetuple())


def test_time_filter_uses_whole_seconds_like_the_plugin() -> None:
    sql = expand_macros("WHERE $__timeFilter(`start`)", TR)
    assert sql == f"WHERE `start` >= toDateTime({_epoch_s(START)}) AND `start` <= toDateTime({_epoch_s(END)})"


def test_millisecond_variants_keep_milliseconds() -> None:
    sql = expand_macros("$__timeFilter_ms(t) $__fromTime_ms", TR)
    start_ms = _epoch_s(START) * 1000 + 250
    assert f"t >= fromUnixTimestamp64Milli({start_ms})" in sql
    assert sql.endswith(f"fromUnixTimestamp64Milli({start_ms})")


def test_time_interval_and_interval_seconds() -> None:
    sql = expand_macros("SELECT $__timeInterval(first_seen) AS time, count() / $__interval_s", TR)
    assert sql == "SELECT toStartOfInterval(toDateTime(first_seen), INTERVAL 90 second) AS time, count() / 90"


def test_from_and_to_time() -> None:
    assert expand_macros("$__fromTime,$__toTime", TR) == f"toDateTime({_epoch_s(START)}),toDateTime({_epoch_s(END)})"


@pytest.mark.parametrize("sql", ["$__nope(x)", "$__timeFilter()", "$__timeFilter(a, b)"])
def test_unknown_macro_or_wrong_arguments_raise(sql: str) -> None:
    with pytest.raises(MacroError):
        expand_macros(sql, TR)


def test_variables_are_escaped_and_macros_left_for_later() -> None:
    sql = expand_variables("job_id = '$job' AND x = '${job}' AND $__timeFilter(t)", {"job": "a'b\\c"})
    assert sql == "job_id = 'a\\'b\\\\c' AND x = 'a\\'b\\\\c' AND $__timeFilter(t)"


def test_missing_variable_raises() -> None:
    with pytest.raises(MacroError, match="job"):
        expand("job_id = '$job'", TR, {})


def test_time_range_validates() -> None:
    with pytest.raises(ValueError):
        TimeRange(END, START)
    with pytest.raises(ValueError):
        TimeRange(START.replace(tzinfo=None), END)


def test_auto_interval_gives_about_the_requested_buckets() -> None:
    assert auto_interval_s(START, START + timedelta(hours=2), buckets=120) == 60
    assert auto_interval_s(START, START, buckets=120) == 1
