"""``faultline classify`` and ``faultline kb check``: the knowledge base from a shell.

Both functions take their streams as arguments (the ``faultline`` CLI passes
``sys.stdin``/``sys.stdout``) and return the process exit code.
"""

from __future__ import annotations

import json
from typing import TextIO

from streams.classify.classifier import Classifier
from streams.classify.kb import check_kb, load_kb
from streams.classify.model import Classification


def classify_main(stdin: TextIO, stdout: TextIO, source: str = "training", kb_path: str | None = None) -> int:
    """Write one JSON object per input line: the line and its classification (nulls if benign).

    Keys: ``line``, ``category``, ``family``, ``level``, ``blame``, ``xid``, ``rule_id``.
    Returns 0; a malformed knowledge base raises before any output.
    """
    classifier = Classifier(load_kb(kb_path))
    for raw in stdin:
        line = raw.rstrip("\r\n")
        stdout.write(json.dumps(classification_record(line, classifier.classify(line, source))) + "\n")
    return 0


def classification_record(line: str, found: Classification | None) -> dict[str, object]:
    """The JSON record ``faultline classify`` prints for one line."""
    return {
        "line": line,
        "category": found.category if found else None,
        "family": found.family if found else None,
        "level": found.level if found else None,
        "blame": found.blame if found else None,
        "xid": found.xid if found else None,
        "rule_id": found.rule_id if found else None,
    }


def kb_check_main(stdout: TextIO, kb_path: str | None = None) -> int:
    """Validate the knowledge base; print each problem; exit 1 if there is any, else 0."""
    kb = load_kb(kb_path)
    problems = check_kb(kb)
    for problem in problems:
        stdout.write(f"problem: {problem}\n")
    summary = f"{len(kb.rules)} rules, {len(kb.guards)} guards, {len(kb.xids)} Xids, {len(kb.categories)} categories"
    stdout.write(f"kb check: {'FAILED' if problems else 'ok'} ({summary}; {len(problems)} problems)\n")
    return 1 if problems else 0
