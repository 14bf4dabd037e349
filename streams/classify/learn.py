"""Training the learned fallback (:mod:`streams.classify.learned`) from labelled lines.

``faultline kb learn`` runs :func:`train` on the real corpus and writes the packaged model;
``tests.bench.classify_learned`` runs it with some splits held out to measure what the model
adds on lines it has never seen. Needs scikit-learn (``pip install 'faultline[learn]'``), which
nothing at run time imports.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from streams.classify.classifier import Classifier
from streams.classify.learned import LearnedModel, features
from streams.classify.model import KnowledgeBase

DEFAULT_CORPORA = ("tests/data/real/corpus.jsonl", "tests/data/classify/labelled.jsonl")
"""What the packaged model is trained on (from the repository's root), with the knowledge
base's own examples (:func:`kb_examples`): the real corpus, every split, and the classify
benchmark's labelled set."""
DEFAULT_C = 16.0
"""Inverse regularisation of both logistic regressions (scikit-learn's ``C``); see README
"Measured" for the held-out comparison that chose it and :data:`DEFAULT_THRESHOLD`."""
DEFAULT_THRESHOLD = 0.95
"""Probability of "fault" at or above which a candidate line gets the model's category."""
MIN_DOCS_WORD = 2
"""A word, word pair or source must occur in this many training lines to be a feature."""
MIN_DOCS_CHAR = 3
"""A character n-gram must occur in this many training lines to be a feature."""
WEIGHT_CUT = 0.1
"""Category-model weights of smaller magnitude are dropped from the packaged model."""


@dataclass(frozen=True, slots=True)
class Labelled:
    """One training line: its text, log source and category (``None``: benign)."""

    line: str
    source: str
    category: str | None


def train(lines: Sequence[Labelled], c: float = DEFAULT_C, threshold: float = DEFAULT_THRESHOLD) -> LearnedModel:
    """Fit the fault-or-benign and the category models on ``lines`` (deterministic: the
    solver is lbfgs, the features sorted). Raises ``ImportError`` without scikit-learn and
    ``ValueError`` without both benign and fault lines."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.linear_model import LogisticRegression

    faults = [item for item in lines if item.category is not None]
    if not faults or len(faults) == len(lines):
        raise ValueError("training needs both benign and fault lines")
    counted = [features(item.line, item.source) for item in lines]
    kept = _frequent(counted)
    vectoriser = DictVectorizer(sort=True)
    counts = vectoriser.fit_transform([{f: n for f, n in c_.items() if f in kept} for c_ in counted])
    tfidf = TfidfTransformer(sublinear_tf=True, norm="l2")
    x = tfidf.fit_transform(counts)
    fault_model = LogisticRegression(C=c, max_iter=5000, class_weight="balanced")
    fault_model.fit(x, [item.category is not None for item in lines])
    rows = [i for i, item in enumerate(lines) if item.category is not None]
    if len({lines[i].category for i in rows}) < 2:
        raise ValueError("training needs fault lines of at least two categories")
    category_model = LogisticRegression(C=c, max_iter=5000)
    category_model.fit(x[rows], [lines[i].category for i in rows])
    names: list[str] = list(vectoriser.get_feature_names_out())
    return _packaged(names, tfidf.idf_, fault_model, category_model, threshold, lines)


def read_labelled(path: str | Path) -> list[Labelled]:
    """The labelled lines of a JSON-lines file (``line``, ``source`` (default ``training``),
    ``category``: null for benign). Raises ``ValueError`` naming the line of a malformed entry."""
    out = []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
            out.append(Labelled(str(item["line"]), str(item.get("source", "training")), item["category"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a labelled line ({exc!r})") from exc
    return out


def kb_examples(kb: KnowledgeBase) -> list[Labelled]:
    """The knowledge base's examples as labelled lines: each rule's examples with the category
    the rules give them (in the rule's first log source, else ``training``), each guard's as
    benign. Most were written from the vendors' own format strings, so they teach the model
    wordings the corpus may lack."""
    rules = Classifier(kb)
    out = []
    for rule in kb.rules:
        source = rule.sources[0] if rule.sources else "training"
        for example in rule.examples:
            found = rules.classify(example, source)
            if found is not None:
                out.append(Labelled(example, source, found.category))
    out += [Labelled(example, "training", None) for guard in kb.guards for example in guard.examples]
    return out


def corpus_digest(lines: Sequence[Labelled]) -> str:
    """SHA-256 of the labelled lines in order (what a packaged model records it was trained on)."""
    return hashlib.sha256("\n".join(f"{x.source}\t{x.category}\t{x.line}" for x in lines).encode()).hexdigest()


def _frequent(counted: Sequence[dict[str, int]]) -> set[str]:
    documents: Counter[str] = Counter()
    for counts in counted:
        documents.update(counts.keys())
    return {f for f, n in documents.items() if n >= (MIN_DOCS_CHAR if f.startswith("c:") else MIN_DOCS_WORD)}


def _packaged(names: list[str], idf: Any, fault_model: Any, category_model: Any, threshold: float,
              lines: Sequence[Labelled]) -> LearnedModel:
    import numpy

    fault_weights = fault_model.coef_[0]
    classes = tuple(str(c) for c in category_model.classes_)
    weights, biases = category_model.coef_, category_model.intercept_
    if len(classes) == 2:  # scikit-learn keeps one row for two classes: the second's score against 0
        weights, biases = numpy.vstack([numpy.zeros_like(weights), weights]), numpy.array([0.0, biases[0]])
    category: dict[str, list[tuple[int, float]]] = {}
    for j, name in enumerate(names):
        pairs = [(i, round(float(w), 4)) for i, w in enumerate(weights[:, j]) if abs(w) >= WEIGHT_CUT]
        if pairs:
            category[name] = pairs
    return LearnedModel(
        idf={name: round(float(idf[j]), 4) for j, name in enumerate(names)},
        fault={name: round(float(w), 4) for name, w in zip(names, fault_weights, strict=True) if w},
        fault_bias=round(float(fault_model.intercept_[0]), 4),
        category=category,
        category_bias=tuple(round(float(b), 4) for b in biases),
        classes=classes,
        threshold=threshold,
        trained_on={"lines": len(lines), "faults": sum(x.category is not None for x in lines),
                    "sha256": corpus_digest(lines), "features": len(names)},
    )
