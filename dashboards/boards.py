"""The four faultline dashboards: fleet ETT overview, job drill-down, fault explorer, pipeline health.

Declared from the queries of :mod:`dashboards.queries`; rendered by :mod:`dashboards.panels`.
"""

from __future__ import annotations

from dashboards import queries as q
from dashboards.panels import JOB_DASHBOARD_UID, Dashboard, Panel, QueryVariable

_BARS = (("orientation", "horizontal"), ("showValue", "auto"), ("xTickLabelRotation", 0))

FLEET = Dashboard(
    uid="faultline-fleet-ett",
    title="faultline / Fleet ETT overview",
    description="Effective training time (ETT.md): productive / wall time, and where the rest went.",
    panels=(
        Panel("ETT per cluster", "timeseries", q.ETT_TREND, unit="percentunit", width=16,
              description="Productive share of the ETT intervals starting in each bucket (intervals are "
                          "attributed to the bucket of their start)."),
        Panel("ETT and lost GPU-hours per cluster", "table", q.ETT_BY_CLUSTER, width=8),
        Panel("Invalid time by kind (GPU-hours)", "barchart", q.INVALID_BY_KIND, options=_BARS,
              description="detection + scheduling + initialization + recompute + checkpoint + idle."),
        Panel("Top causes by lost GPU-hours", "barchart", q.TOP_CAUSES, options=_BARS,
              description="Invalid intervals joined on cause_id to decisions, verdicts, faults and incidents; "
                          "intervals without a cause are shown by kind in parentheses."),
        Panel("MTBF per cluster", "table", q.MTBF,
              description="Lifetime hours / interruptions (attempts with a detection interval)."),
        Panel("ETT per day (split at midnight UTC)", "table", q.ETT_BY_DAY),
        Panel("ETT per job", "table", q.ETT_BY_JOB, width=24, link_field="job_id"),
    ),
    links=("faultline",),
)

JOB = Dashboard(
    uid=JOB_DASHBOARD_UID,
    title="faultline / Job drill-down",
    description="One job: its ETT timeline, hang verdicts, decisions and faults.",
    variables=(QueryVariable("job", "Job", q.JOBS),),
    panels=(
        Panel("ETT of $job", "stat", q.JOB_ETT, width=8, height=5),
        Panel("Timeline of $job", "state-timeline", q.JOB_STATES, width=16, height=5,
              options=(("mergeValues", True), ("showValue", "auto"))),
        Panel("ETT intervals", "table", q.JOB_INTERVALS, width=24),
        Panel("Hang verdicts", "table", q.JOB_VERDICTS, width=24, height=6),
        Panel("Decisions", "table", q.JOB_DECISIONS, width=24, height=6),
        Panel("Faults", "table", q.JOB_FAULTS, width=24),
    ),
    links=("faultline",),
)

FAULTS = Dashboard(
    uid="faultline-faults",
    title="faultline / Fault explorer",
    description="Classified faults (TAXONOMY.md) by category, node and Xid; slow nodes; detection latency.",
    panels=(
        Panel("Faults per category", "timeseries", q.FAULTS_OVER_TIME, width=24),
        Panel("Top categories", "table", q.TOP_CATEGORIES),
        Panel("Top nodes", "table", q.TOP_NODES),
        Panel("Xid lines over time", "timeseries", q.XIDS_OVER_TIME),
        Panel("Detection latency", "table", q.DETECTION_LATENCY, unit="s", link_field="job_id",
              description="Event time from the first symptom to the pipeline's conclusion."),
        Panel("Slow nodes", "table", q.SLOW_NODES, width=24, link_field="job_id"),
    ),
    links=("faultline",),
)

LAG_NOTE = (
    "**Consumer lag is not in ClickHouse.** The sink keeps no lag table, so this board cannot "
    "show it. Read it from the broker: `kafka-consumer-groups.sh --bootstrap-server ... "
    "--describe --group <faust app id>` (and the sink's group), or a Kafka exporter's "
    "`kafka_consumergroup_lag` in Prometheus. *p95 delay to sink* below is the closest proxy "
    "ClickHouse can give: how far behind event time rows land."
)

PIPELINE = Dashboard(
    uid="faultline-pipeline",
    title="faultline / Pipeline health",
    description="Dead letters, sink throughput and delay, as far as ClickHouse can see them.",
    panels=(
        Panel("Consumer lag", "text", text=LAG_NOTE, width=12, height=6),
        Panel("Rows written per second", "stat", q.EVENTS_PER_SECOND, width=12, height=6),
        Panel("Dead letters by stage / topic", "timeseries", q.DEAD_LETTERS_OVER_TIME),
        Panel("Dead letter errors", "table", q.DEAD_LETTER_ERRORS),
        Panel("Rows written per minute by table", "timeseries", q.ROWS_PER_MINUTE),
        Panel("p95 delay from event time to sink", "timeseries", q.SINK_DELAY, unit="s"),
    ),
    links=("faultline",),
)

ALL: tuple[Dashboard, ...] = (FLEET, JOB, FAULTS, PIPELINE)
