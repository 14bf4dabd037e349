"""Every panel's SQL, written once: Grafana sends it through the ClickHouse plugin, the HTML
report and the tests expand the same text with :mod:`dashboards.macros`.

Queries read only the base tables of the sink (``sinks.clickhouse.mapping.TABLES``) with
``FINAL`` where a table deduplicates, so they work on any database the sink migrated.
``{db}`` stands for the (quoted) database name and is filled by :func:`render`. Each query
declares the columns it returns, in order; for ``time_series`` queries the first column is
``time``. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sinks.clickhouse.ddl import ident

Format = Literal["table", "time_series"]

DURATION_S = "dateDiff('millisecond', `start`, `end`) / 1000.0"
"""Seconds covered by one ``ett_intervals`` row."""

_INVALID = "kind != 'productive'"


@dataclass(frozen=True)
class PanelQuery:
    """One panel's SQL with the shape it promises: ``columns`` in order, ``format`` for Grafana."""

    key: str
    sql: str
    columns: tuple[str, ...]
    format: Format = "table"
    variables: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.format == "time_series" and (not self.columns or self.columns[0] != "time"):
            raise ValueError(f"{self.key}: a time series query returns 'time' first")

    def render(self, database: str) -> str:
        """The SQL for ``database`` with macros and variables still in place (what Grafana stores)."""
        return render(self.sql, database)


def render(sql: str, database: str) -> str:
    """``sql`` with ``{db}`` replaced by the quoted database name."""
    return sql.replace("{db}", ident(database))


_CAUSES = """
    SELECT decision_id AS cause_id,
           if(JSONExtractString(reason, 'category') != '', JSONExtractString(reason, 'category'),
              JSONExtractString(reason, 'kind')) AS cause
      FROM {db}.decisions FINAL
    UNION ALL SELECT verdict_id, 'hang' FROM {db}.hang_verdicts FINAL
    UNION ALL SELECT fault_id, category FROM {db}.faults FINAL
    UNION ALL SELECT incident_id, category FROM {db}.incidents FINAL
"""
"""Every id an ``ett_intervals.cause_id`` may name, with the category it stands for."""

_DAY_PIECES = """
    SELECT job_id, kind, coalesce(gpus, 0) AS gpus, toDate(day_n) AS day,
           dateDiff('millisecond',
                    greatest(`start`, toDateTime64(toDate(day_n), 3, 'UTC')),
                    least(`end`, toDateTime64(toDate(day_n) + 1, 3, 'UTC'))) / 1000.0 AS seconds
      FROM {db}.ett_intervals FINAL
     ARRAY JOIN range(toUInt32(toDate(`start`, 'UTC')), toUInt32(toDate(`end`, 'UTC')) + 1) AS day_n
     WHERE $__timeFilter(`start`)
"""
"""ETT intervals split at midnight UTC (ETT.md: per-day analytics split intervals at midnight)."""

# --- fleet ETT overview ---------------------------------------------------------------------

ETT_TREND = PanelQuery(
    "ett_trend",
    f"""SELECT $__timeInterval(`start`) AS time, cluster,
       sumIf({DURATION_S}, kind = 'productive') / nullIf(sum({DURATION_S}), 0) AS ett
  FROM {{db}}.ett_intervals FINAL
 WHERE $__timeFilter(`start`)
 GROUP BY time, cluster
 ORDER BY time, cluster""",
    ("time", "cluster", "ett"), "time_series")

ETT_BY_CLUSTER = PanelQuery(
    "ett_by_cluster",
    f"""SELECT cluster,
       sumIf({DURATION_S}, kind = 'productive') / nullIf(sum({DURATION_S}), 0) AS ett,
       sumIf({DURATION_S} * coalesce(gpus, 0), {_INVALID}) / 3600.0 AS lost_gpu_hours,
       uniqExact(job_id) AS jobs
  FROM {{db}}.ett_intervals FINAL
 WHERE $__timeFilter(`start`)
 GROUP BY cluster
 ORDER BY cluster""",
    ("cluster", "ett", "lost_gpu_hours", "jobs"))

INVALID_BY_KIND = PanelQuery(
    "invalid_by_kind",
    f"""SELECT kind, sum({DURATION_S}) / 3600.0 AS hours,
       sum({DURATION_S} * coalesce(gpus, 0)) / 3600.0 AS gpu_hours
  FROM {{db}}.ett_intervals FINAL
 WHERE {_INVALID} AND $__timeFilter(`start`)
 GROUP BY kind
 ORDER BY gpu_hours DESC, hours DESC""",
    ("kind", "hours", "gpu_hours"))

TOP_CAUSES = PanelQuery(
    "top_causes",
    f"""SELECT if(causes.cause != '', causes.cause, concat('(', i.kind, ')')) AS cause,
       sum(dateDiff('millisecond', i.`start`, i.`end`) / 1000.0 * coalesce(i.gpus, 0)) / 3600.0 AS lost_gpu_hours,
       count() AS intervals
  FROM (SELECT * FROM {{db}}.ett_intervals FINAL WHERE {_INVALID} AND $__timeFilter(`start`)) AS i
  LEFT JOIN ({_CAUSES}) AS causes ON i.cause_id = causes.cause_id
 GROUP BY cause
 ORDER BY lost_gpu_hours DESC
 LIMIT 15""",
    ("cause", "lost_gpu_hours", "intervals"))

MTBF = PanelQuery(
    "mtbf",
    f"""SELECT cluster,
       sum({DURATION_S}) / 3600.0 AS lifetime_hours,
       uniqExactIf((job_id, attempt), kind = 'detection') AS interruptions,
       lifetime_hours / nullIf(interruptions, 0) AS mtbf_hours
  FROM {{db}}.ett_intervals FINAL
 WHERE $__timeFilter(`start`)
 GROUP BY cluster
 ORDER BY cluster""",
    ("cluster", "lifetime_hours", "interruptions", "mtbf_hours"))

ETT_BY_JOB = PanelQuery(
    "ett_by_job",
    f"""SELECT job_id,
       sumIf({DURATION_S}, kind = 'productive') / nullIf(sum({DURATION_S}), 0) AS ett,
       sum({DURATION_S}) / 3600.0 AS lifetime_hours,
       sumIf({DURATION_S} * coalesce(gpus, 0), {_INVALID}) / 3600.0 AS lost_gpu_hours,
       max(attempt) AS restarts
  FROM {{db}}.ett_intervals FINAL
 WHERE $__timeFilter(`start`)
 GROUP BY job_id
 ORDER BY job_id""",
    ("job_id", "ett", "lifetime_hours", "lost_gpu_hours", "restarts"))

ETT_BY_DAY = PanelQuery(
    "ett_by_day",
    f"""SELECT day, sumIf(seconds, kind = 'productive') / nullIf(sum(seconds), 0) AS ett,
       sumIf(seconds * gpus, {_INVALID}) / 3600.0 AS lost_gpu_hours
  FROM ({_DAY_PIECES})
 GROUP BY day
 ORDER BY day""",
    ("day", "ett", "lost_gpu_hours"))

# --- job drill-down ($job) -----------------------------------------------------------------

JOBS = PanelQuery(
    "jobs",
    """SELECT job_id FROM (
    SELECT job_id FROM {db}.ett_intervals UNION ALL SELECT job_id FROM {db}.decisions
    UNION ALL SELECT job_id FROM {db}.hang_verdicts
    UNION ALL SELECT job_id FROM {db}.faults WHERE job_id IS NOT NULL)
 GROUP BY job_id ORDER BY job_id""",
    ("job_id",))
"""The ``$job`` variable's values: every job any derived table mentions."""

JOB_ETT = PanelQuery(
    "job_ett",
    f"""SELECT sumIf({DURATION_S}, kind = 'productive') / nullIf(sum({DURATION_S}), 0) AS ett,
       sumIf({DURATION_S} * coalesce(gpus, 0), {_INVALID}) / 3600.0 AS lost_gpu_hours,
       max(attempt) AS restarts
  FROM {{db}}.ett_intervals FINAL
 WHERE job_id = '$job'""",
    ("ett", "lost_gpu_hours", "restarts"), variables=("job",))

JOB_STATES = PanelQuery(
    "job_states",
    """SELECT `start` AS time, kind AS state
  FROM {db}.ett_intervals FINAL
 WHERE job_id = '$job' AND $__timeFilter(`start`)
 ORDER BY time""",
    ("time", "state"), variables=("job",))
"""One row per interval start; the state holds until the next row (intervals tile a job). Table
format on purpose: as a time series the plugin would turn the string ``state`` into a label."""

JOB_INTERVALS = PanelQuery(
    "job_intervals",
    f"""SELECT attempt, kind, `start`, `end`, {DURATION_S} AS seconds, coalesce(gpus, 0) AS gpus, cause_id
  FROM {{db}}.ett_intervals FINAL
 WHERE job_id = '$job' AND $__timeFilter(`start`)
 ORDER BY `start`, attempt""",
    ("attempt", "kind", "start", "end", "seconds", "gpus", "cause_id"), variables=("job",))

JOB_VERDICTS = PanelQuery(
    "job_verdicts",
    """SELECT attempt, onset_time, detected_at,
       dateDiff('millisecond', onset_time, detected_at) / 1000.0 AS latency_s,
       source_nodes, source_ranks, confidence
  FROM {db}.hang_verdicts FINAL
 WHERE job_id = '$job' AND $__timeFilter(detected_at)
 ORDER BY detected_at""",
    ("attempt", "onset_time", "detected_at", "latency_s", "source_nodes", "source_ranks", "confidence"),
    variables=("job",))

JOB_DECISIONS = PanelQuery(
    "job_decisions",
    """SELECT issued_at, attempt, action, nodes, block_scope, JSONExtractString(reason, 'kind') AS reason,
       JSONExtractString(reason, 'category') AS category, policy_rule,
       if(guard IS NULL, '', JSONExtractString(guard, 'rule')) AS guard
  FROM {db}.decisions FINAL
 WHERE job_id = '$job' AND $__timeFilter(issued_at)
 ORDER BY issued_at""",
    ("issued_at", "attempt", "action", "nodes", "block_scope", "reason", "category", "policy_rule", "guard"),
    variables=("job",))

JOB_FAULTS = PanelQuery(
    "job_faults",
    """SELECT first_seen, node_id, rank, category, level, blame, xid, `count`, evidence, rule_id
  FROM {db}.faults FINAL
 WHERE job_id = '$job' AND $__timeFilter(first_seen)
 ORDER BY first_seen""",
    ("first_seen", "node_id", "rank", "category", "level", "blame", "xid", "count", "evidence", "rule_id"),
    variables=("job",))

# --- fault explorer -----------------------------------------------------------------------

FAULTS_OVER_TIME = PanelQuery(
    "faults_over_time",
    """SELECT $__timeInterval(first_seen) AS time, category, count() AS faults
  FROM {db}.faults FINAL
 WHERE $__timeFilter(first_seen)
 GROUP BY time, category
 ORDER BY time, category""",
    ("time", "category", "faults"), "time_series")

TOP_CATEGORIES = PanelQuery(
    "top_categories",
    """SELECT category, family, count() AS faults, sum(`count`) AS lines, uniqExact(node_id) AS nodes,
       countIf(startsWith(rule_id, 'learned.')) AS guessed
  FROM {db}.faults FINAL
 WHERE $__timeFilter(first_seen)
 GROUP BY category, family
 ORDER BY faults DESC, lines DESC
 LIMIT 20""",
    ("category", "family", "faults", "lines", "nodes", "guessed"))
"""``guessed``: faults of the category that the classifier's learned fallback guessed (rule id
``learned.<category>``, never acted on) rather than a rule read."""

TOP_NODES = PanelQuery(
    "top_nodes",
    """SELECT node_id, count() AS faults, sum(`count`) AS lines,
       arrayStringConcat(arraySort(groupUniqArray(category)), ', ') AS categories,
       countIf(blame = 'node') AS node_blamed
  FROM {db}.faults FINAL
 WHERE node_id IS NOT NULL AND $__timeFilter(first_seen)
 GROUP BY node_id
 ORDER BY faults DESC, lines DESC
 LIMIT 20""",
    ("node_id", "faults", "lines", "categories", "node_blamed"))

XIDS_OVER_TIME = PanelQuery(
    "xids_over_time",
    """SELECT $__timeInterval(first_seen) AS time, concat('Xid ', toString(xid)) AS xid, sum(`count`) AS lines
  FROM {db}.faults FINAL
 WHERE xid IS NOT NULL AND $__timeFilter(first_seen)
 GROUP BY time, xid
 ORDER BY time, xid""",
    ("time", "xid", "lines"), "time_series")

SLOW_NODES = PanelQuery(
    "slow_nodes",
    """SELECT detected_at, job_id, node_id, metric, slowdown, score, windows
  FROM {db}.slow_nodes FINAL
 WHERE $__timeFilter(detected_at)
 ORDER BY detected_at DESC
 LIMIT 100""",
    ("detected_at", "job_id", "node_id", "metric", "slowdown", "score", "windows"))

DETECTION_LATENCY = PanelQuery(
    "detection_latency",
    """SELECT detector, job_id, at, latency_s FROM (
SELECT 'hang: onset -> verdict' AS detector, job_id, detected_at AS at,
       dateDiff('millisecond', onset_time, detected_at) / 1000.0 AS latency_s
  FROM {db}.hang_verdicts FINAL
 WHERE $__timeFilter(detected_at)
UNION ALL
SELECT 'fault: first line -> decision', d.job_id, d.issued_at,
       dateDiff('millisecond', f.first_seen, d.issued_at) / 1000.0
  FROM (SELECT job_id, issued_at, arrayJoin(JSONExtract(reason, 'cause_ids', 'Array(String)')) AS cause_id
          FROM {db}.decisions FINAL WHERE $__timeFilter(issued_at)) AS d
  INNER JOIN (SELECT fault_id, first_seen FROM {db}.faults FINAL) AS f ON d.cause_id = f.fault_id)
ORDER BY at""",
    ("detector", "job_id", "at", "latency_s"))
"""Event time from the first symptom to the pipeline's conclusion, per detector."""

# --- pipeline health ----------------------------------------------------------------------

DEAD_LETTERS_OVER_TIME = PanelQuery(
    "dead_letters_over_time",
    """SELECT $__timeInterval(event_time) AS time, concat(stage, ' / ', source_topic) AS stage_topic,
       count() AS messages
  FROM {db}.dead_letters FINAL
 WHERE $__timeFilter(event_time)
 GROUP BY time, stage_topic
 ORDER BY time, stage_topic""",
    ("time", "stage_topic", "messages"), "time_series")

DEAD_LETTER_ERRORS = PanelQuery(
    "dead_letter_errors",
    """SELECT stage, source_topic, substring(error, 1, 200) AS error, count() AS messages, max(event_time) AS last_at
  FROM {db}.dead_letters FINAL
 WHERE $__timeFilter(event_time)
 GROUP BY stage, source_topic, error
 ORDER BY messages DESC
 LIMIT 50""",
    ("stage", "source_topic", "error", "messages", "last_at"))

_INSERTS = " UNION ALL ".join(
    f"SELECT '{table}' AS table_name, _inserted_at FROM {{db}}.{table}"
    for table in ("faults", "hang_votes", "hang_verdicts", "slow_nodes", "decisions", "actuations",
                  "ett_intervals", "dead_letters", "incidents")
)

ROWS_PER_MINUTE = PanelQuery(
    "rows_per_minute",
    f"""SELECT $__timeInterval(_inserted_at) AS time, table_name, count() * 60.0 / $__interval_s AS rows_per_minute
  FROM ({_INSERTS})
 WHERE $__timeFilter(_inserted_at)
 GROUP BY time, table_name
 ORDER BY time, table_name""",
    ("time", "table_name", "rows_per_minute"), "time_series")
"""Rows the sink wrote per minute and table, by insert time (duplicates included: that is load)."""

_LATENCIES = " UNION ALL ".join(
    f"SELECT '{table}' AS table_name, _inserted_at, event_time FROM {{db}}.{table}"
    for table in ("faults", "hang_verdicts", "slow_nodes", "decisions", "ett_intervals", "incidents")
)

SINK_DELAY = PanelQuery(
    "sink_delay",
    f"""SELECT $__timeInterval(_inserted_at) AS time, table_name,
       quantile(0.95)(dateDiff('millisecond', event_time, _inserted_at) / 1000.0) AS p95_delay_s
  FROM ({_LATENCIES})
 WHERE $__timeFilter(_inserted_at)
 GROUP BY time, table_name
 ORDER BY time, table_name""",
    ("time", "table_name", "p95_delay_s"), "time_series")
"""Event time to sink insert, 95th percentile: how far behind real time the pipeline runs."""

EVENTS_PER_SECOND = PanelQuery(
    "events_per_second",
    f"""SELECT count() / greatest(dateDiff('second', $__fromTime, $__toTime), 1) AS rows_per_second,
       max(_inserted_at) AS last_insert
  FROM ({_INSERTS})
 WHERE $__timeFilter(_inserted_at)""",
    ("rows_per_second", "last_insert"))

ALL: tuple[PanelQuery, ...] = (
    ETT_TREND, ETT_BY_CLUSTER, INVALID_BY_KIND, TOP_CAUSES, MTBF, ETT_BY_JOB, ETT_BY_DAY,
    JOBS, JOB_ETT, JOB_STATES, JOB_INTERVALS, JOB_VERDICTS, JOB_DECISIONS, JOB_FAULTS,
    FAULTS_OVER_TIME, TOP_CATEGORIES, TOP_NODES, XIDS_OVER_TIME, SLOW_NODES, DETECTION_LATENCY,
    DEAD_LETTERS_OVER_TIME, DEAD_LETTER_ERRORS, ROWS_PER_MINUTE, SINK_DELAY, EVENTS_PER_SECOND,
)
BY_KEY: dict[str, PanelQuery] = {q.key: q for q in ALL}

# --- report-only queries (no panel) -------------------------------------------------------

_TIMES = (("ett_intervals", "`start`", "`end`"), ("faults", "first_seen", "coalesce(last_seen, first_seen)"),
          ("hang_verdicts", "onset_time", "detected_at"), ("slow_nodes", "detected_at", "detected_at"),
          ("decisions", "issued_at", "issued_at"), ("incidents", "first_seen", "last_seen"),
          ("dead_letters", "event_time", "event_time"))

DATA_RANGE = PanelQuery(
    "data_range",
    "SELECT min(lo_ms) AS lo_ms, max(hi_ms) AS hi_ms FROM (" + " UNION ALL ".join(
        f"SELECT toUnixTimestamp64Milli(min({lo})) AS lo_ms, toUnixTimestamp64Milli(max({hi})) AS hi_ms, "
        f"count() AS n FROM {{db}}.{table}" for table, lo, hi in _TIMES) + ") WHERE n > 0",
    ("lo_ms", "hi_ms"))
"""Event-time span of the data, in ms since the epoch (NULLs when every table is empty)."""

_COUNTED = ("faults", "hang_verdicts", "slow_nodes", "decisions", "actuations", "ett_intervals", "incidents",
            "dead_letters")

TABLE_COUNTS = PanelQuery(
    "table_counts",
    "SELECT table_name, table_rows FROM (" + " UNION ALL ".join(
        f"SELECT {i} AS n, '{table}' AS table_name, count() AS table_rows FROM {{db}}.{table} FINAL"
        for i, table in enumerate(_COUNTED)) + ") ORDER BY n",
    ("table_name", "table_rows"))

# --- the demo's text summary (deploy/demo_report.py) ----------------------------------------

SUMMARY: dict[str, PanelQuery] = {
    "faults by category": PanelQuery(
        "summary_faults",
        "SELECT category, level, blame, count() AS faults, sum(`count`) AS lines "
        "FROM {db}.faults FINAL GROUP BY category, level, blame ORDER BY faults DESC, category",
        ("category", "level", "blame", "faults", "lines")),
    "hang verdicts": PanelQuery(
        "summary_verdicts",
        "SELECT job_id, onset_time, detected_at, source_nodes, round(confidence, 2) AS confidence "
        "FROM {db}.hang_verdicts FINAL ORDER BY detected_at",
        ("job_id", "onset_time", "detected_at", "source_nodes", "confidence")),
    "slow nodes": PanelQuery(
        "summary_slow_nodes",
        "SELECT job_id, node_id, metric, round(slowdown, 2) AS slowdown, detected_at "
        "FROM {db}.slow_nodes FINAL ORDER BY detected_at",
        ("job_id", "node_id", "metric", "slowdown", "detected_at")),
    "decisions": PanelQuery(
        "summary_decisions",
        "SELECT issued_at, job_id, action, nodes, block_scope, policy_rule "
        "FROM {db}.decisions FINAL ORDER BY issued_at, action",
        ("issued_at", "job_id", "action", "nodes", "block_scope", "policy_rule")),
}
"""Plain tables printed at the end of ``make demo`` (no macros: they read everything)."""

FAULT_ROWS = PanelQuery(
    "fault_rows", "SELECT node_id, job_id, category, `count` FROM {db}.faults FINAL",
    ("node_id", "job_id", "category", "count"))
"""Every fault, for matching detections against the simulator's ground truth."""
