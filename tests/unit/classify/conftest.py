"""Shared fixtures: the packaged knowledge base, its classifier and the labelled set."""

from __future__ import annotations

from pathlib import Path

import pytest

from streams.classify.classifier import Classifier
from streams.classify.kb import load_kb
from streams.classify.model import KnowledgeBase
from tests.bench.classify_eval import Sample, parse_samples

LABELLED = Path(__file__).parents[2] / "data" / "classify" / "labelled.jsonl"


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return load_kb()


@pytest.fixture(scope="session")
def classifier(kb: KnowledgeBase) -> Classifier:
    return Classifier(kb)


@pytest.fixture(scope="session")
def samples() -> list[Sample]:
    return parse_samples(LABELLED.read_text(encoding="utf-8").splitlines())
