"""Scoring the classifier on a labelled set: per-category recall and benign false positives.

Shared by the unit tests and ``python -m tests.bench.classify_bench``. Pure: the caller loads
the samples (see :func:`parse_samples`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from streams.classify.classifier import Classifier


@dataclass(frozen=True, slots=True)
class Sample:
    """One labelled line; ``category`` ``None`` means benign."""

    line: str
    source: str
    category: str | None


@dataclass(slots=True)
class Report:
    """Counts behind recall (faults classified into their labelled category) and the FP rate."""

    per_category: Counter[str] = field(default_factory=Counter)
    hits: Counter[str] = field(default_factory=Counter)
    benign: int = 0
    false_positives: int = 0
    misses: list[tuple[Sample, str | None]] = field(default_factory=list)
    false_alarms: list[tuple[Sample, str]] = field(default_factory=list)

    @property
    def faults(self) -> int:
        """Number of fault (non-benign) samples."""
        return sum(self.per_category.values())

    @property
    def recall(self) -> float:
        """Share of fault lines classified into exactly their labelled category (1.0 if none)."""
        return sum(self.hits.values()) / self.faults if self.faults else 1.0

    @property
    def fp_rate(self) -> float:
        """Share of benign lines classified as any fault (0.0 if none)."""
        return self.false_positives / self.benign if self.benign else 0.0

    def category_recall(self) -> dict[str, float]:
        """Recall of each labelled category."""
        return {c: self.hits[c] / n for c, n in sorted(self.per_category.items())}


def parse_samples(lines: Iterable[str]) -> list[Sample]:
    """Samples from JSON lines ``{"line", "source", "category"}``; blank lines are skipped."""
    out = []
    for raw in lines:
        if raw.strip():
            item = json.loads(raw)
            out.append(Sample(item["line"], item.get("source", "training"), item.get("category")))
    return out


def evaluate(classifier: Classifier, samples: Iterable[Sample]) -> Report:
    """Classify every sample and count hits, misses and false alarms."""
    report = Report()
    for sample in samples:
        found = classifier.classify(sample.line, sample.source)
        got = found.category if found else None
        if sample.category is None:
            report.benign += 1
            if got is not None:
                report.false_positives += 1
                report.false_alarms.append((sample, got))
            continue
        report.per_category[sample.category] += 1
        if got == sample.category:
            report.hits[sample.category] += 1
        else:
            report.misses.append((sample, got))
    return report
