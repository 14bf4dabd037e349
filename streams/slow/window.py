"""The open event-time window of one job: raw samples per node, reduced to one value per node.

Samples are appended as events arrive and reduced when the window closes. Every list is capped
at ``max_samples`` (the newest are dropped once full), so memory is bounded by the job's size.
Reductions that make a node's value:

- step time: per rank the *lower* median of its recent reports (at least two, so one spike is
  ignored), then per node the slowest of its ranks, as one slow GPU sets a synchronous job's
  pace. The rank's own busy time is ``compute_ms``, else ``step_time_ms - comm_wait_ms``,
  else (no localising field at all) ``step_time_ms``;
- GPU: per sample the hottest GPU, any slowdown bit, and the median GPU's SM activity and
  power (how busy the node is), then per node the median over samples on the good side
  (lower median for high-is-bad metrics), so one sample caught in a one-step stall does not
  set the window;
- RDMA: the same over the node's weakest compute-rail byte rates (upper median, low is bad)
  and its port-error rates.

These per-node values choose a node's peers and its level; where a node sits in the job is
judged from its readings in arrival order (:meth:`NodeBuffer.readings`), each against the
job's readings of the same instant (:func:`streams.slow.scoring.instant_positions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from streams.slow.robust import high_median, low_median, median

GPU_METRICS = ("temp_c", "throttle", "sm_active", "power_w")
NET_METRICS = ("rdma_rate", "port_errors")


def _push(values: list[float], value: float, cap: int) -> None:
    if len(values) < cap:
        values.append(value)


def _keep(values: list[float], value: float, cap: int) -> None:
    values.append(value)
    del values[:-cap]


Nested = dict[str, dict[int, list[float]]]


@dataclass
class StepBuffer:
    """Step samples per node and rank, separately for compute and step time.

    Each rank keeps the reports of the open window (``fresh`` counts them) plus, after a
    window is judged, its last ``k - 1`` reports as context. A rank is judged on its fresh
    reports, or on its last ``k`` when it has fewer fresh ones: windows stay short when a
    slow job reports sparsely, and the lower median of at least two reports still ignores a
    single spike. A rank without a fresh report is not judged, so no report is counted twice
    as new evidence.
    """

    compute: Nested = field(default_factory=dict)
    step: Nested = field(default_factory=dict)
    fresh: dict[str, dict[int, int]] = field(default_factory=dict)
    kind: str = "step_time_ms"

    def add(self, node: str, rank: int, step_ms: float, compute_ms: float | None,
            wait_ms: float | None, cap: int) -> None:
        """Record one report; the rank's own busy time is kept apart: it is what localises.
        It is ``compute_ms``, or ``step_ms - wait_ms`` (named ``busy_ms``) when only the wait
        is reported; a job reporting ``compute_ms`` at all is judged on it alone."""
        _keep(self.step.setdefault(node, {}).setdefault(rank, []), step_ms, cap)
        own, kind = compute_ms, "compute_ms"
        if own is None and wait_ms is not None and self.kind != "compute_ms":
            own, kind = max(step_ms - wait_ms, 0.0), "busy_ms"
        if own is not None:
            if kind != self.kind and self.kind != "compute_ms":
                self.compute, self.kind = {}, kind
            _keep(self.compute.setdefault(node, {}).setdefault(rank, []), own, cap)
        ranks = self.fresh.setdefault(node, {})
        ranks[rank] = min(ranks.get(rank, 0) + 1, cap)

    def metric(self) -> str:
        """``compute_ms``, ``busy_ms`` (step time minus wait) or ``step_time_ms``."""
        return self.kind if self.compute else "step_time_ms"

    def rank_values(self, k: int) -> dict[str, dict[int, float]]:
        """node -> rank -> lower median of the rank's fresh reports (or its last ``k``), for
        ranks with a fresh report and at least ``k`` reports."""
        source = self.compute if self.compute else self.step
        out: dict[str, dict[int, float]] = {}
        for node, ranks in self.fresh.items():
            for rank, count in ranks.items():
                values = source.get(node, {}).get(rank, [])[-max(count, k):]
                if count and len(values) >= k:
                    out.setdefault(node, {})[rank] = low_median(values)
        return out

    def settle(self, k: int) -> None:
        """After a judged window: keep each rank's last ``k - 1`` reports as context."""
        for nested in (self.compute, self.step):
            for ranks in nested.values():
                for values in ranks.values():
                    del values[: max(len(values) - (k - 1), 0)]
        self.fresh = {}

    def dump(self) -> dict[str, Any]:
        """JSON-ready form (rank keys become strings)."""
        fresh = {n: {str(r): c for r, c in ranks.items()} for n, ranks in self.fresh.items()}
        return {"compute": _dump_nested(self.compute), "step": _dump_nested(self.step),
                "fresh": fresh, "kind": self.kind}

    @classmethod
    def load(cls, data: dict[str, Any]) -> StepBuffer:
        """Inverse of :meth:`dump`."""
        fresh = {n: {int(r): int(c) for r, c in ranks.items()}
                 for n, ranks in data.get("fresh", {}).items()}
        return cls(_load_nested(data["compute"]), _load_nested(data["step"]), fresh,
                   str(data.get("kind", "compute_ms" if data["compute"] else "step_time_ms")))


def _dump_nested(d: dict[str, dict[int, list[float]]]) -> dict[str, dict[str, list[float]]]:
    return {n: {str(r): list(v) for r, v in ranks.items()} for n, ranks in d.items()}


def _load_nested(d: dict[str, dict[str, list[float]]]) -> dict[str, dict[int, list[float]]]:
    return {n: {int(r): list(v) for r, v in ranks.items()} for n, ranks in d.items()}


@dataclass
class NodeBuffer:
    """Per-node samples of one window: metric -> node -> values (GPU metrics or RDMA rate)."""

    samples: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def add(self, metric: str, node: str, value: float, cap: int) -> None:
        """Record one per-sample node value of ``metric``."""
        _push(self.samples.setdefault(metric, {}).setdefault(node, []), value, cap)

    def samples_per_node(self, metric: str) -> float:
        """Median number of samples per node of ``metric`` in this window (0 when none)."""
        counts = [len(v) for v in self.samples.get(metric, {}).values()]
        return median(counts) if counts else 0.0

    def values(self, metric: str, bad: str = "high") -> dict[str, float]:
        """node -> the node's samples of ``metric`` in this window, reduced by the median on
        the good side (lower median when high is bad, upper when low is bad): a sample is a
        near-instant reading, so one step's stall (a data-loader hiccup, a page fault) or one
        burst must not set a window's value, as for step reports (lower median of two)."""
        pick = low_median if bad == "high" else high_median
        return {n: pick(v) for n, v in self.samples.get(metric, {}).items() if v}

    def readings(self, metric: str) -> dict[str, list[float]]:
        """node -> the node's samples of ``metric`` in this window, in arrival order."""
        return {n: list(v) for n, v in self.samples.get(metric, {}).items() if v}

    def clear(self, metric: str) -> None:
        """Forget ``metric``'s samples (after the window was evaluated for it)."""
        self.samples.pop(metric, None)

    def dump(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {m: {n: list(v) for n, v in nodes.items()} for m, nodes in self.samples.items()}

    @classmethod
    def load(cls, data: dict[str, Any]) -> NodeBuffer:
        """Inverse of :meth:`dump`."""
        return cls({m: {n: list(v) for n, v in nodes.items()} for m, nodes in data.items()})


@dataclass(frozen=True)
class MetricWindow:
    """One metric's per-node values in a closed window, plus the slow ranks of step metrics
    and the per-node instantaneous readings (in sampling order) of node metrics."""

    metric: str
    values: dict[str, float]
    ranks: dict[str, dict[int, float]]
    samples: dict[str, list[float]] = field(default_factory=dict)

    def dump(self) -> dict[str, Any]:
        """JSON-ready form (rank keys as strings)."""
        return {"metric": self.metric, "values": dict(self.values),
                "ranks": {n: {str(r): v for r, v in rs.items()} for n, rs in self.ranks.items()},
                "samples": {n: list(v) for n, v in self.samples.items()}}

    @classmethod
    def load(cls, data: dict[str, Any]) -> MetricWindow:
        """Inverse of :meth:`dump`."""
        return cls(str(data["metric"]), {n: float(v) for n, v in data["values"].items()},
                   {n: {int(r): float(v) for r, v in rs.items()} for n, rs in data["ranks"].items()},
                   {n: [float(x) for x in v] for n, v in data["samples"].items()})
