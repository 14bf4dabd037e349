"""Fleet ETT analytics: the views of migration 5 and the saved, parameterised queries on them.

Every figure here follows from ``ett_intervals`` (ETT.md: a job's intervals tile its
lifetime) joined, through ``cause_id``, to the decisions, hang verdicts, faults and incidents
behind them. All reads use ``FINAL`` so re-delivered or re-loaded rows count once.

Definitions shared by every view (hours are event-time hours, GPU-hours = hours x ``gpus``):

- *lifetime* of a job: the sum of its intervals (they tile it), queue included;
- *queue*: the ``scheduling`` that opens attempt 0 (waiting for the first allocation), up to
  the attempt's first other interval; no GPUs are held then, so it never counts in GPU-hours.
  Every definition holds however the ETT stage cuts intervals (it cuts them on a 15-minute
  grid): figures are sums over intervals, never counts of them (except ``intervals`` columns);
- *ETT wall* = productive / lifetime; *ETT alloc* = productive / (lifetime - queue);
- *lost GPU-hours*: GPU-hours of every non-productive interval except the queue;
- *interruptions* of a job: every attempt but the last (each was ended by a failure or a
  restart) plus the last one if it has a ``detection`` interval (a terminal failure);
  *MTBF* = lifetime hours / interruptions (NULL without interruptions);
- an interruption's *restart overhead* (the ``u0`` of Kokolis et al.) = its detection + the
  scheduling after it + the next attempt's initial scheduling and initialization; its
  *lost GPU-hours* add the next attempt's recompute;
- an interruption is *node-blamed* when its cause names nodes: a ``replace_nodes`` or
  ``drain_reboot_nodes`` decision, a hang verdict localised to one node, a node-blamed fault
  or incident. ``r_f`` = node-blamed interruptions per allocated node-day.

Each view's contract (``View.doc``) is also stored as the view's ClickHouse ``COMMENT``, so
``SELECT name, comment FROM system.tables`` documents the views where they live.
Pure: renders SQL text, runs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sinks.clickhouse.ddl import ident, qualified


@dataclass(frozen=True)
class View:
    """One analytics view: its name, its contract (``doc``) and its SELECT (``{db}`` = database)."""

    name: str
    doc: str
    sql: str

    def render(self, database: str) -> str:
        """The SELECT with every ``{db}`` replaced by the quoted database name."""
        return self.sql.replace("{db}", ident(database))


_BASE = View("ett_base", "One row per interval (FINAL) with hours, GPU-hours, is_queue and its attempt's detection onset.", """
SELECT job_id, attempt, CAST(kind, 'String') AS kind, CAST(cluster, 'String') AS cluster, cause_id,
  `start`, `end`, coalesce(gpus, 0) AS gpus,
  dateDiff('millisecond', `start`, `end`) / 3600000.0 AS hours,
  hours * gpus AS gpu_hours,
  kind = 'scheduling' AND attempt = 0 AND (first_other IS NULL OR `start` < first_other) AS is_queue,
  detection_onset
FROM {db}.ett_intervals FINAL
INNER JOIN (
  -- per attempt: where its first non-scheduling interval starts (the queue ends), where detection begins.
  -- No FINAL needed: a re-delivered interval has the same bounds (same id), and minima ignore duplicates.
  SELECT job_id, attempt, minIfOrNull(`start`, kind != 'scheduling') AS first_other,
    minIfOrNull(`start`, kind = 'detection') AS detection_onset
  FROM {db}.ett_intervals GROUP BY job_id, attempt
) AS attempt_ USING (job_id, attempt)""")

_ATTEMPTS = View("ett_attempts", "Per job attempt, in one pass over the intervals: hours and GPU-hours by role.", """
SELECT job_id, attempt, any(cluster) AS cluster, max(coalesce(gpus, 0)) AS gpus,
  min(`start`) AS first_start, max(`end`) AS last_end, argMin(kind, `start`) AS first_kind,
  minIfOrNull(`start`, kind != 'scheduling') AS first_other,
  -- the scheduling that opens the attempt (the queue of attempt 0, a resubmission's wait): intervals
  -- tile the attempt, so it spans first_start to the first other interval, however many pieces it has
  if(first_kind = 'scheduling',
     dateDiff('millisecond', first_start, coalesce(first_other, last_end)) / 3600000.0, 0) AS start_scheduling_h,
  start_scheduling_h * gpus AS start_scheduling_gpu_h,
  if(attempt = 0, start_scheduling_h, 0) AS queue_h,
  sum(h) AS lifetime_h, sumIf(h, kind = 'productive') AS productive_h,
  sumIf(h, kind = 'detection') AS detection_h,
  sumIf(h, kind = 'scheduling') - start_scheduling_h AS post_scheduling_h,
  sumIf(h, kind = 'initialization') AS initialization_h, sumIf(h, kind = 'recompute') AS recompute_h,
  countIf(kind = 'detection') > 0 AS has_detection,
  minIfOrNull(`start`, kind = 'detection') AS onset, maxIfOrNull(`end`, kind = 'detection') AS detected,
  anyIf(cause_id, kind = 'detection') AS cause_id,
  sum(gh) - if(attempt = 0, start_scheduling_gpu_h, 0) AS alloc_gpu_h,
  alloc_gpu_h - sumIf(gh, kind = 'productive') AS lost_gpu_h,
  sumIf(gh, kind IN ('detection', 'scheduling')) - start_scheduling_gpu_h AS loss_gpu_h,
  if(attempt > 0, start_scheduling_gpu_h, 0) + sumIf(gh, kind IN ('initialization', 'recompute')) AS recovery_gpu_h
FROM (
  SELECT job_id, attempt, CAST(kind, 'String') AS kind, CAST(cluster, 'String') AS cluster, cause_id, gpus,
    `start`, `end`, dateDiff('millisecond', `start`, `end`) / 3600000.0 AS h, h * coalesce(gpus, 0) AS gh
  FROM {db}.ett_intervals FINAL)
GROUP BY job_id, attempt""")

_JOB = View("ett_job", "Per job: lifetime, ETT wall/alloc, GPU-hours allocated and lost, interruptions, MTBF.", """
SELECT job_id, any(att_.cluster) AS cluster, min(att_.first_start) AS first_start, max(att_.last_end) AS last_end,
  max(att_.attempt) + 1 AS attempts, max(att_.gpus) AS gpus,
  sum(att_.lifetime_h) AS lifetime_h, sum(att_.productive_h) AS productive_h, sum(att_.queue_h) AS queue_h,
  productive_h / nullIf(lifetime_h, 0) AS ett_wall,
  productive_h / nullIf(lifetime_h - queue_h, 0) AS ett_alloc,
  sum(att_.alloc_gpu_h) AS alloc_gpu_h, sum(att_.lost_gpu_h) AS lost_gpu_h,
  toUInt64(max(att_.attempt) + argMax(att_.has_detection, att_.attempt)) AS interruptions,
  lifetime_h / nullIf(interruptions, 0) AS mtbf_h
FROM {db}.ett_attempts AS att_ GROUP BY job_id""")

_CLUSTER = View("ett_cluster", "Per cluster: the ett_job figures summed (ETT over summed hours, MTBF over summed lifetimes).", """
SELECT cluster, count() AS jobs,
  sum(job_.lifetime_h) AS lifetime_h, sum(job_.productive_h) AS productive_h, sum(job_.queue_h) AS queue_h,
  productive_h / nullIf(lifetime_h, 0) AS ett_wall,
  productive_h / nullIf(lifetime_h - queue_h, 0) AS ett_alloc,
  sum(job_.alloc_gpu_h) AS alloc_gpu_h, sum(job_.lost_gpu_h) AS lost_gpu_h,
  1 - lost_gpu_h / nullIf(alloc_gpu_h, 0) AS ett_gpu,
  sum(job_.interruptions) AS interruptions,
  lifetime_h / nullIf(interruptions, 0) AS mtbf_h
FROM {db}.ett_job AS job_ GROUP BY cluster""")

_DAILY = View("ett_daily", "Per UTC day and cluster, intervals split at midnight; interruptions = detections begun that day.", """
SELECT day, cluster, uniqExact(job_id) AS jobs,
  sum(piece_h) AS lifetime_h, sumIf(piece_h, kind = 'productive') AS productive_h, sumIf(piece_h, is_queue) AS queue_h,
  productive_h / nullIf(lifetime_h, 0) AS ett_wall,
  productive_h / nullIf(lifetime_h - queue_h, 0) AS ett_alloc,
  sumIf(piece_h * gpus, NOT is_queue) AS alloc_gpu_h,
  sumIf(piece_h * gpus, kind != 'productive' AND NOT is_queue) AS lost_gpu_h,
  countIf(kind = 'detection' AND `start` = detection_onset AND piece_start = `start`) AS interruptions
FROM (
  SELECT job_id, cluster, kind, is_queue, gpus, `start`, `end`, detection_onset,
    addDays(toDate(`start`), arrayJoin(range(toUInt64(dateDiff('day', toDate(`start`), toDate(`end`)) + 1)))) AS day,
    greatest(`start`, toDateTime64(day, 3, 'UTC')) AS piece_start,
    least(`end`, toDateTime64(addDays(day, 1), 3, 'UTC')) AS piece_end,
    dateDiff('millisecond', piece_start, piece_end) / 3600000.0 AS piece_h
  FROM {db}.ett_base)
WHERE piece_end > piece_start OR (`start` = `end` AND day = toDate(`start`))
GROUP BY day, cluster""")

_INVALID_KIND = View("ett_invalid_by_kind", "Per cluster and non-productive kind: hours, GPU-hours (queue excluded), share of lifetime.", """
SELECT cluster, kind, intervals, kind_h AS hours, queue_h, kind_gpu_h AS gpu_hours, share_of_lifetime FROM (
  SELECT cluster, kind, count() AS intervals, sum(hours) AS kind_h, sumIf(hours, is_queue) AS queue_h,
    sumIf(gpu_hours, NOT is_queue) AS kind_gpu_h,
    kind_h / nullIf(sum(kind_h) OVER (PARTITION BY cluster), 0) AS share_of_lifetime
  FROM {db}.ett_base GROUP BY cluster, kind)
WHERE kind != 'productive'""")

_CAUSES = View("ett_causes", "Every id a cause_id may name: its source, category, reason kind and blamed nodes.", """
SELECT decision_id AS cause_id, 'decision' AS cause_source,
  coalesce(nullIf(JSONExtractString(reason, 'category'), ''), JSONExtractString(reason, 'kind')) AS category,
  JSONExtractString(reason, 'kind') AS reason_kind,
  CAST(if(action IN ('replace_nodes', 'drain_reboot_nodes'), nodes, []), 'Array(String)') AS blamed_nodes
FROM {db}.decisions FINAL
UNION ALL
SELECT verdict_id, 'hang_verdict', 'hang', 'hang',
  CAST(if(length(source_nodes) = 1, source_nodes, []), 'Array(String)')
FROM {db}.hang_verdicts FINAL
UNION ALL
SELECT fault_id, 'fault', toString(category), 'explicit_fault',
  CAST(if(blame = 'node' AND node_id IS NOT NULL, [toString(assumeNotNull(node_id))], []), 'Array(String)')
FROM {db}.faults FINAL
UNION ALL
SELECT incident_id, 'incident', toString(category), 'explicit_fault',
  CAST(if(blame = 'node', nodes, []), 'Array(String)')
FROM {db}.incidents FINAL""")

_INVALID_CAUSE = View("ett_invalid_by_cause", "Per cluster and cause category: invalid intervals that carry a cause_id.", """
SELECT iv_.cluster AS cluster, if(cause_.cause_source = '', 'unresolved', cause_.cause_source) AS cause_source,
  if(cause_.category = '', '(unresolved)', cause_.category) AS category,
  count() AS intervals, uniqExact(iv_.job_id, iv_.attempt) AS interruptions,
  sum(iv_.hours) AS hours, sum(iv_.gpu_hours) AS gpu_hours
FROM {db}.ett_base AS iv_ LEFT ANY JOIN {db}.ett_causes AS cause_ ON iv_.cause_id = cause_.cause_id
WHERE iv_.cause_id IS NOT NULL
GROUP BY cluster, cause_source, category""")

_OUTCOMES = View("ett_attempt_outcomes", "Per attempt: whether it ended in an interruption, and that interruption's cause, overhead and loss.", """
SELECT irq_.job_id AS job_id, irq_.attempt AS attempt, irq_.cluster AS cluster, irq_.gpus AS gpus,
  irq_.has_detection OR irq_.attempt < irq_.job_last_attempt AS interrupted,
  irq_.lifetime_h AS lifetime_h, irq_.alloc_gpu_h AS alloc_gpu_h,
  coalesce(irq_.onset, irq_.last_end) AS at, irq_.onset AS onset, irq_.detected AS detected, irq_.cause_id AS cause_id,
  if(cause_.cause_source = '', if(irq_.cause_id IS NULL, 'none', 'unresolved'), cause_.cause_source) AS cause_source,
  if(cause_.category = '', '(unknown)', cause_.category) AS category,
  cause_.blamed_nodes AS nodes, length(cause_.blamed_nodes) > 0 AS node_blamed,
  irq_.detection_h AS detection_h,
  irq_.post_scheduling_h + if(irq_.has_next, irq_.next_restart_h, 0) AS restart_h,
  irq_.detection_h + restart_h AS overhead_h,
  if(irq_.has_next, irq_.next_recompute_h, 0) AS recompute_h,
  irq_.loss_gpu_h + if(irq_.has_next, irq_.next_recovery_gpu_h, 0) AS lost_gpu_h
FROM (
  SELECT *, max(attempt) OVER (PARTITION BY job_id) AS job_last_attempt,
    leadInFrame(attempt) OVER next_ = attempt + 1 AS has_next,
    leadInFrame(start_scheduling_h + initialization_h) OVER next_ AS next_restart_h,
    leadInFrame(recompute_h) OVER next_ AS next_recompute_h,
    leadInFrame(recovery_gpu_h) OVER next_ AS next_recovery_gpu_h
  FROM {db}.ett_attempts
  WINDOW next_ AS (PARTITION BY job_id ORDER BY attempt ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING)
) AS irq_
LEFT ANY JOIN {db}.ett_causes AS cause_ ON irq_.cause_id = cause_.cause_id""")

_INTERRUPTIONS = View("ett_interruptions", "One row per interruption: cause, category, blamed nodes, overhead hours, lost GPU-hours.", """
SELECT job_id, attempt, cluster, gpus, at, onset, detected, cause_id, cause_source, category, nodes, node_blamed,
  detection_h, restart_h, overhead_h, recompute_h, lost_gpu_h
FROM {db}.ett_attempt_outcomes WHERE interrupted""")

_NODES = View("ett_node_failures", "Lemon nodes: per node, node-blamed interruptions and lost GPU-hours (shared among blamed nodes).", """
SELECT cluster, node_id, count() AS failures, uniqExact(job_id) AS jobs,
  sum(lost_gpu_h / length(nodes)) AS lost_gpu_h,
  min(at) AS first_failure_at, max(at) AS last_failure_at, groupUniqArray(category) AS categories
FROM (SELECT *, arrayJoin(nodes) AS node_id FROM {db}.ett_interruptions WHERE node_blamed)
GROUP BY cluster, node_id""")

_NODE_DAYS = View("ett_node_failures_daily", "Node-blamed interruptions per node and UTC day (the numerator of r_f).", """
SELECT toDate(at) AS day, cluster, node_id, count() AS failures, sum(lost_gpu_h / length(nodes)) AS lost_gpu_h
FROM (SELECT *, arrayJoin(nodes) AS node_id FROM {db}.ett_interruptions WHERE node_blamed)
GROUP BY day, cluster, node_id""")

_LATENCY = View("ett_detection_latency", "Detection latency per cluster: verdict detected_at - onset, and each interruption's detection time.", """
SELECT cluster, source, count() AS n, avg(s) AS mean_s, quantileExact(0.5)(s) AS p50_s,
  quantileExact(0.9)(s) AS p90_s, quantileExact(0.99)(s) AS p99_s, max(s) AS max_s
FROM (
  SELECT CAST(cluster, 'String') AS cluster, 'hang_verdict' AS source,
    dateDiff('millisecond', onset_time, detected_at) / 1000.0 AS s
  FROM {db}.hang_verdicts FINAL
  UNION ALL
  SELECT cluster, 'detection_interval', detection_h * 3600.0 FROM {db}.ett_attempts WHERE has_detection)
GROUP BY cluster, source""")

_LATENCY_HIST = View("ett_detection_latency_hist", "Detection latency histogram: counts per power-of-two bucket (le_s = upper bound, s).", """
SELECT cluster, source, pow(2, ceil(log2(greatest(s, 1.0)))) AS le_s, count() AS n
FROM (
  SELECT CAST(cluster, 'String') AS cluster, 'hang_verdict' AS source,
    dateDiff('millisecond', onset_time, detected_at) / 1000.0 AS s
  FROM {db}.hang_verdicts FINAL
  UNION ALL
  SELECT cluster, 'detection_interval', detection_h * 3600.0 FROM {db}.ett_attempts WHERE has_detection)
GROUP BY cluster, source, le_s""")

VIEWS: tuple[View, ...] = (
    _BASE, _ATTEMPTS, _JOB, _CLUSTER, _DAILY, _INVALID_KIND, _CAUSES, _INVALID_CAUSE, _OUTCOMES, _INTERRUPTIONS,
    _NODES, _NODE_DAYS, _LATENCY, _LATENCY_HIST,
)
"""In dependency order (a view only reads tables and views before it)."""
BY_NAME: dict[str, View] = {v.name: v for v in VIEWS}


def create_views(database: str) -> tuple[str, ...]:
    """Migration 5: ``CREATE VIEW IF NOT EXISTS`` for every analytics view, in dependency order.

    Changing a view's meaning later needs a new migration (``CREATE OR REPLACE VIEW``).
    """
    return tuple(f"CREATE VIEW IF NOT EXISTS {qualified(database, v.name)} AS {v.render(database).strip()}"
                 f" COMMENT {_literal(v.doc)}" for v in VIEWS)


def _literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _positive_int(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {value!r}")
    return value


def top_jobs_sql(database: str, limit: int = 10) -> str:
    """Saved query: the ``limit`` jobs with the most lost GPU-hours (ett_job columns)."""
    return (f"SELECT job_id, cluster, gpus, attempts, lifetime_h, ett_wall, ett_alloc, lost_gpu_h, interruptions, mtbf_h"
            f" FROM {qualified(database, 'ett_job')} ORDER BY lost_gpu_h DESC, job_id LIMIT {_positive_int('limit', limit)}")


def lemon_nodes_sql(database: str, limit: int = 20) -> str:
    """Saved query: the ``limit`` worst nodes by lost GPU-hours (ett_node_failures columns)."""
    return (f"SELECT cluster, node_id, failures, jobs, lost_gpu_h, first_failure_at, last_failure_at, categories"
            f" FROM {qualified(database, 'ett_node_failures')}"
            f" ORDER BY lost_gpu_h DESC, failures DESC, node_id LIMIT {_positive_int('limit', limit)}")


def failure_rate_sql(database: str, gpus_per_node: int = 8) -> str:
    """Saved query: per cluster and for the whole fleet (cluster ``'*'``), the model's inputs.

    Columns: ``cluster``, ``interruptions``, ``node_failures`` (node-blamed), ``node_days``
    (allocated GPU-hours / ``gpus_per_node`` / 24), ``r_f`` (node failures per node-day, NULL
    with no node-days), ``mean_overhead_min`` (detection + scheduling + initialization per
    interruption, NULL without interruptions), ``lifetime_h``, ``mtbf_h``.
    """
    gpn = _positive_int("gpus_per_node", gpus_per_node)
    rollup = f"""
SELECT grouping(cluster) AS is_fleet, cluster AS grp,
  countIf(interrupted) AS n, countIf(interrupted AND node_blamed) AS node_n, sum(alloc_gpu_h) AS gpu_h,
  sumIf(overhead_h, interrupted) AS overhead_sum_h, sum(lifetime_h) AS life_h
FROM {qualified(database, 'ett_attempt_outcomes')}
GROUP BY cluster WITH ROLLUP"""
    return f"""
SELECT if(is_fleet = 1, '*', grp) AS cluster, n AS interruptions, node_n AS node_failures,
  gpu_h / {gpn} / 24.0 AS node_days, node_failures / nullIf(node_days, 0) AS r_f,
  overhead_sum_h * 60.0 / nullIf(interruptions, 0) AS mean_overhead_min,
  life_h AS lifetime_h, life_h / nullIf(interruptions, 0) AS mtbf_h
FROM ({rollup}) ORDER BY is_fleet, cluster""".strip()


def view_sql(database: str, name: str) -> str:
    """``SELECT * FROM`` the analytics view ``name``; KeyError for an unknown name."""
    return f"SELECT * FROM {qualified(database, BY_NAME[name].name)}"
