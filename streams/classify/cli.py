"""``faultline classify``, ``faultline kb check`` and ``faultline kb learn``: the knowledge base from a shell.

Both functions take their streams as arguments (the ``faultline`` CLI passes
``sys.stdin``/``sys.stdout``) and return the process exit code.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import TextIO

from streams.classify.classifier import Classifier
from streams.classify.kb import check_kb, load_kb
from streams.classify.learned import load_learned
from streams.classify.model import Classification


def classify_main(stdin: TextIO, stdout: TextIO, source: str = "training", kb_path: str | None = None,
                  learned_path: str | None = None, learned: bool = True) -> int:
    """Write one JSON object per input line: the line and its classification (nulls if benign).

    Keys: ``line``, ``category``, ``family``, ``level``, ``blame``, ``xid``, ``rule_id`` (a
    ``learned.`` rule id: the learned fallback's guess). Returns 0; a malformed knowledge base
    or model raises before any output.
    """
    classifier = Classifier(load_kb(kb_path), load_learned(learned_path) if learned else None)
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


def kb_learn_main(stdout: TextIO, corpora: list[str], out: str, c: float, threshold: float,
                  kb_path: str | None = None) -> int:
    """Train the learned fallback on ``corpora`` (JSON lines with ``line``, ``source`` and
    ``category``, null for benign) and the knowledge base's examples, and write it to ``out``
    (gzip if it ends in ``.gz``). Returns 0, or 1 with a message when scikit-learn is missing
    or a corpus is unusable."""
    from streams.classify.learn import kb_examples, read_labelled, train

    try:
        lines = [item for path in corpora for item in read_labelled(path)]
    except (OSError, ValueError) as exc:
        stdout.write(f"kb learn: {exc}\n")
        return 1
    examples = kb_examples(load_kb(kb_path))
    lines += examples
    stdout.write(f"kb learn: training on {len(lines):,} lines ({', '.join(corpora)} and "
                 f"{len(examples):,} knowledge-base examples) ...\n")
    try:
        model = train(lines, c=c, threshold=threshold)
    except ImportError:
        stdout.write("kb learn: needs scikit-learn: pip install 'faultline[learn]'\n")
        return 1
    except ValueError as exc:
        stdout.write(f"kb learn: {exc}\n")
        return 1
    data = json.dumps(model.to_json(), separators=(",", ":"), sort_keys=True).encode()
    target = Path(out)
    target.write_bytes(gzip.compress(data, mtime=0) if target.suffix == ".gz" else data)
    stdout.write(f"kb learn: wrote {target} ({target.stat().st_size:,} bytes; {model.trained_on['features']:,} "
                 f"features, {len(model.classes)} categories, threshold {model.threshold})\n")
    return 0
