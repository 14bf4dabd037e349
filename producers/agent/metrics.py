"""The agent's own health as Prometheus metrics (prometheus-client, a private registry).

One :class:`AgentMetrics` per agent; collectors receive it and count what they see. A
private registry keeps tests (several agents in one process) independent.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, start_http_server


class AgentMetrics:
    """Counters and gauges of one agent; ``serve(port)`` exposes them on ``/metrics``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.collector_errors = Counter("faultline_agent_collector_errors", "Failed collection rounds",
                                        ["collector"], registry=r)
        self.rounds = Counter("faultline_agent_collector_rounds", "Collection rounds run", ["collector"], registry=r)
        self.round_seconds = Gauge("faultline_agent_last_round_duration_seconds", "Duration of the last round",
                                   ["collector"], registry=r)
        self.events = Counter("faultline_agent_events_emitted", "Events handed to the output", ["schema"], registry=r)
        self.sent = Counter("faultline_agent_events_sent", "Events acknowledged by Kafka (or written out)",
                            registry=r)
        self.delivery_errors = Counter("faultline_agent_delivery_errors", "Kafka deliveries that failed (resent)",
                                       registry=r)
        self.spool_records = Gauge("faultline_agent_spool_depth_records", "Spooled events not yet acknowledged",
                                   registry=r)
        self.spool_bytes = Gauge("faultline_agent_spool_bytes", "Bytes of spool segment files on disk", registry=r)
        self.spool_dropped = Counter("faultline_agent_spool_dropped", "Unsent events dropped (oldest first) "
                                     "because the spool hit its size bound", registry=r)
        self.source_errors = Counter("faultline_agent_source_errors", "Per-item errors inside a collector "
                                     "(an NVML call, a counter file, a py-spy run)", ["collector", "error"],
                                     registry=r)
        self.kmsg_gaps = Counter("faultline_agent_kmsg_lost_records", "Kernel log records lost to ring "
                                 "buffer overruns (sequence gaps)", registry=r)

    def serve(self, port: int, addr: str = "0.0.0.0") -> None:  # noqa: S104 - a node exporter listens on the node
        """Serve ``/metrics`` on ``port`` from a daemon thread."""
        start_http_server(port, addr=addr, registry=self.registry)

    def value(self, name: str, labels: dict[str, str] | None = None) -> float:
        """The current value of a sample (tests and the round report); 0 when never set."""
        found = self.registry.get_sample_value(name, labels or {})
        return 0.0 if found is None else float(found)
