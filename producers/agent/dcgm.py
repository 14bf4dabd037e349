"""SM activity from a local dcgm-exporter, for GPUs where NVML GPM is unavailable.

dcgm-exporter publishes ``DCGM_FI_PROF_SM_ACTIVE{gpu="0",...} 0.53`` on its ``/metrics``
page; the page is parsed with prometheus-client's own text parser.
"""

from __future__ import annotations

import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from producers.agent.metrics import AgentMetrics

METRIC = "DCGM_FI_PROF_SM_ACTIVE"


def parse_sm_active(text: str) -> dict[int, float]:
    """GPU index -> SM active ratio (0-1) from a Prometheus text page; other metrics ignored."""
    found: dict[int, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            gpu = sample.labels.get("gpu")
            if sample.name == METRIC and gpu is not None and gpu.isdigit():
                found[int(gpu)] = min(max(float(sample.value), 0.0), 1.0)
    return found


class DcgmScraper:
    """Scrapes one dcgm-exporter URL; a failed scrape is counted and yields no values."""

    def __init__(self, url: str, metrics: AgentMetrics, timeout_s: float = 1.0) -> None:
        self.url = url
        self.metrics = metrics
        self.timeout_s = timeout_s

    def sm_active(self) -> dict[int, float]:
        try:
            with urllib.request.urlopen(self.url, timeout=self.timeout_s) as response:  # noqa: S310 - configured URL
                return parse_sm_active(response.read().decode("utf-8", errors="replace"))
        except (OSError, ValueError) as exc:
            self.metrics.source_errors.labels("gpu", f"dcgm-exporter: {type(exc).__name__}").inc()
            return {}
