"""ClickHouse sink: derived topics -> versioned tables in ClickHouse or embedded chDB.

Modules, in data-flow order: ``settings`` (what to connect to), ``mapping`` (event model or
its msgspec mirror -> columns/rows), ``ddl`` (versioned migrations), ``store`` (client, insert,
query), ``batch`` + ``sink`` (Kafka -> decoding into mirrors, ``schemas.decode`` for what they
decline -> batches -> store -> commit), ``server`` + ``query``
(``faultline sql`` while a sink owns the chDB path), ``errors`` (retryable vs permanent).
"""

from sinks.clickhouse.errors import (
    PathBusyError,
    PermanentError,
    QueryRejected,
    RetryableError,
    SinkError,
    classify,
)
from sinks.clickhouse.query import format_table, run_sql, sql_main
from sinks.clickhouse.settings import ClickHouseSettings, RetryPolicy
from sinks.clickhouse.sink import ClickHouseSink, SinkCounters
from sinks.clickhouse.store import Store, connect

__all__ = [
    "ClickHouseSettings", "ClickHouseSink", "PathBusyError", "PermanentError", "QueryRejected",
    "RetryPolicy", "RetryableError", "SinkCounters", "SinkError", "Store", "classify", "connect",
    "format_table", "run_sql", "sql_main",
]
