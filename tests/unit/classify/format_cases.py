"""The checks every format-test module of a knowledge-base fit runs (``test_k*_formats.py``).

Each such module declares ``FORMATS`` (a real-format line, its log source, the category it must
get and, optionally, the rule that must give it and its effective action) and ``BENIGN`` (siblings
that must stay benign), and calls these helpers from its own parametrised tests, so that a failure
names the module and the line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS


def expect_benign(classifier: Classifier, source: str, line: str) -> None:
    """``line`` (from ``source``) classifies as nothing."""
    found = classifier.classify(line, source)
    assert found is None, (found.rule_id if found else None, line)


def expect_format(classifier: Classifier, source: str, line: str, category: str, rule_id: str | None = None,
                  action: str | None = None) -> None:
    """``line`` gets ``category`` (and, when given, from rule ``rule_id`` with effective ``action``)."""
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if rule_id is not None:
        assert found.rule_id == rule_id, (found.rule_id, line)
    if action is not None:
        assert found.action == action, (found.rule_id, found.action, line)


def corpus_copies(lines: Iterable[str]) -> int:
    """How many of ``lines`` are also lines of the real corpus (a count only: held-out lines are
    never printed)."""
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    return len({line.strip() for line in lines} & corpus)


def fit_rule_actions(classifier: Classifier, suffix: str) -> dict[str, str]:
    """Rule id -> effective action (its own, else its category's) of every rule whose id ends with
    ``suffix`` (``.k28``: the rules one fit added)."""
    kb = classifier.kb
    return {rule.id: rule.action or kb.categories[rule.category].action
            for rule in kb.rules if rule.id.endswith(suffix)}
