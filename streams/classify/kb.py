"""Load and validate the knowledge base (``kb.yaml`` + ``xid_catalog.yaml``).

This is the only module of the package that reads files. :func:`load_kb` never raises on
content problems it can describe: it records them in ``KnowledgeBase.problems`` and skips
the broken entry, so ``faultline kb check`` can list every problem at once. It raises only
when the file itself cannot be read or is not YAML.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from streams.classify.classifier import Classifier
from streams.classify.model import (
    ACTIONS,
    BLAMES,
    LEVELS,
    TAXONOMY_CATEGORIES,
    Category,
    Guard,
    KnowledgeBase,
    Rule,
    XidEntry,
)

DEFAULT_KB_PATH = Path(__file__).with_name("kb.yaml")
XID_RANGE = range(1, 173)
"""Xid numbers of the NVIDIA catalog (Ampere and newer, up to 172): all must be mapped."""


def load_kb(path: str | Path | None = None) -> KnowledgeBase:
    """The knowledge base at ``path`` (default: the packaged ``kb.yaml``) with its Xid catalog."""
    kb_path = Path(path) if path is not None else DEFAULT_KB_PATH
    data = _read_yaml(kb_path)
    problems: list[str] = []
    categories = _categories(data.get("categories") or {}, problems)
    xid_file = kb_path.parent / str(data.get("xid_catalog", "xid_catalog.yaml"))
    xids = _xids(_read_yaml(xid_file).get("xids") or {}, data.get("xid_actions") or {}, problems)
    guards = tuple(_guard(g, problems) for g in data.get("guards") or [])
    rules = tuple(_rule(r, problems) for r in data.get("rules") or [])
    return KnowledgeBase(
        version=int(data.get("version", 0)),
        categories=categories,
        xids=xids,
        guards=tuple(g for g in guards if g is not None),
        rules=tuple(r for r in rules if r is not None),
        problems=tuple(problems),
    )


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it (about ten times faster at start-up)."""


def _read_yaml(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        loaded = yaml.load(handle, Loader=_LOADER)  # a safe loader, C or Python
    if not isinstance(loaded, dict):
        raise ValueError(f"{path}: top level must be a mapping")
    return loaded


def _strs(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def _categories(raw: dict[str, Any], problems: list[str]) -> dict[str, Category]:
    out: dict[str, Category] = {}
    for name, spec in raw.items():
        level, blame, action = spec.get("level"), spec.get("blame"), spec.get("action")
        if level not in LEVELS or blame not in BLAMES or action not in ACTIONS or not spec.get("family"):
            problems.append(f"category {name}: needs family, level in {LEVELS}, blame in {BLAMES}, action in {ACTIONS}")
            continue
        out[name] = Category(name, str(spec["family"]), level, blame, action)
    return out


def _xids(raw: dict[Any, Any], buckets: dict[str, Any], problems: list[str]) -> dict[int, XidEntry]:
    """Catalog rows; each row's resolution bucket maps to an action via ``xid_actions`` of kb.yaml,
    unless the row names its own ``fault_action`` (contained/corrected Xids)."""
    out: dict[int, XidEntry] = {}
    for number, spec in raw.items():
        try:
            bucket = str(spec.get("action", ""))
            out[int(number)] = XidEntry(
                xid=int(number),
                mnemonic=str(spec["mnemonic"]),
                description=str(spec.get("description", "")),
                action=bucket,
                category=str(spec["category"]),
                level=spec.get("level"),
                blame=spec.get("blame"),
                fault_action=str(spec.get("fault_action") or buckets.get(bucket) or "") or None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"xid {number}: malformed entry ({exc})")
    return out


def _guard(raw: dict[str, Any], problems: list[str]) -> Guard | None:
    if not raw.get("id") or not raw.get("patterns"):
        problems.append(f"guard {raw.get('id')!r}: needs id and patterns")
        return None
    return Guard(
        id=str(raw["id"]),
        keywords=_strs(raw.get("keywords")),
        patterns=_strs(raw["patterns"]),
        unless=_strs(raw.get("unless")),
        examples=_strs(raw.get("examples")),
        note=str(raw.get("note", "")),
    )


def _rule(raw: dict[str, Any], problems: list[str]) -> Rule | None:
    missing = [k for k in ("id", "category", "keywords", "patterns") if not raw.get(k)]
    if missing:
        problems.append(f"rule {raw.get('id')!r}: missing {', '.join(missing)}")
        return None
    return Rule(
        id=str(raw["id"]),
        category=str(raw["category"]),
        keywords=_strs(raw["keywords"]),
        patterns=_strs(raw["patterns"]),
        unless=_strs(raw.get("unless")),
        level=raw.get("level"),
        blame=raw.get("blame"),
        xid=bool(raw.get("xid", False)),
        sources=_strs(raw.get("sources")),
        examples=_strs(raw.get("examples")),
        benign=_strs(raw.get("benign")),
        note=str(raw.get("note", "")),
        action=raw.get("action"),
        line_actions=_line_actions(raw.get("line_actions"), problems, str(raw["id"])),
    )


def _line_actions(raw: Any, problems: list[str], owner: str) -> tuple[tuple[str, str], ...]:
    """``[{pattern: ..., action: ...}, ...]`` as ``(pattern, action)`` pairs; malformed items are problems."""
    out = []
    for item in raw or []:
        if not isinstance(item, dict) or "pattern" not in item or "action" not in item:
            problems.append(f"rule {owner}: line_actions items need pattern and action")
            continue
        out.append((str(item["pattern"]), str(item["action"])))
    return tuple(out)


def check_kb(kb: KnowledgeBase) -> list[str]:
    """Every problem of ``kb``, one sentence each; an empty list means the KB is valid.

    Checks: load problems, schema (levels, blames, categories, unique ids, lower-case
    keywords, regexes compile), taxonomy coverage, the whole Xid catalog mapped, every
    category reachable through the classifier, every rule matching its own examples, and no
    rule or guard example of a benign line classified as a fault.
    """
    problems = list(kb.problems)
    problems += _schema_problems(kb)
    if problems:
        return problems  # the classifier cannot be trusted on a malformed KB
    classifier = Classifier(kb)
    problems += _example_problems(kb, classifier)
    problems += _reachability_problems(kb, classifier)
    return problems


def _schema_problems(kb: KnowledgeBase) -> list[str]:
    problems = [f"taxonomy category {c} missing" for c in TAXONOMY_CATEGORIES if c not in kb.categories]
    problems += [f"xid {x} not mapped" for x in XID_RANGE if x not in kb.xids]
    for entry in kb.xids.values():
        if entry.category not in kb.categories:
            problems.append(f"xid {entry.xid}: unknown category {entry.category}")
        if entry.level not in (None, *LEVELS) or entry.blame not in (None, *BLAMES):
            problems.append(f"xid {entry.xid}: bad level/blame override")
        if entry.fault_action not in ACTIONS:
            problems.append(f"xid {entry.xid}: resolution bucket {entry.action} maps to no action in {ACTIONS}")
    ids = [r.id for r in kb.rules] + [g.id for g in kb.guards]
    problems += [f"duplicate id {i}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    for rule in kb.rules:
        problems += _rule_schema_problems(rule, kb)
    for guard in kb.guards:
        problems += _regex_problems(guard.id, guard.patterns + guard.unless)
        problems += _keyword_problems(guard.id, guard.keywords)
    return problems


def _rule_schema_problems(rule: Rule, kb: KnowledgeBase) -> list[str]:
    problems = _regex_problems(rule.id, rule.patterns + rule.unless + tuple(p for p, _ in rule.line_actions))
    problems += _keyword_problems(rule.id, rule.keywords)
    bad_actions = [a for a in (rule.action, *(a for _, a in rule.line_actions)) if a is not None and a not in ACTIONS]
    problems += [f"rule {rule.id}: action {a!r} not in {ACTIONS}" for a in bad_actions]
    if rule.category not in kb.categories:
        problems.append(f"rule {rule.id}: unknown category {rule.category}")
    if rule.level not in (None, *LEVELS) or rule.blame not in (None, *BLAMES):
        problems.append(f"rule {rule.id}: bad level/blame override")
    if not rule.note:
        problems.append(f"rule {rule.id}: no note citing the source of the knowledge")
    if not rule.examples:
        problems.append(f"rule {rule.id}: no examples")
    return problems


def _regex_problems(owner: str, patterns: tuple[str, ...]) -> list[str]:
    problems = []
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append(f"{owner}: pattern {pattern!r} does not compile ({exc})")
    return problems


def _keyword_problems(owner: str, keywords: tuple[str, ...]) -> list[str]:
    if not keywords:
        return [f"{owner}: no keywords (it would never be tried)"]
    return [f"{owner}: keyword {k!r} is not lower case" for k in keywords if k != k.lower()]


def _example_problems(kb: KnowledgeBase, classifier: Classifier) -> list[str]:
    problems = []
    for rule in kb.rules:
        for line in rule.examples:
            got = classifier.classify(line, _example_source(rule))
            if got is None or got.rule_id != rule.id:
                problems.append(f"rule {rule.id}: example not matched (got {got and got.rule_id}): {line!r}")
        problems += _benign_problems(rule.id, rule.benign, classifier, _example_source(rule))
    for guard in kb.guards:
        problems += _benign_problems(guard.id, guard.examples, classifier)
    return problems


def _example_source(rule: Rule) -> str:
    """The log source a rule's examples are read as: its first allowed source, else ``training``."""
    return rule.sources[0] if rule.sources else "training"


def _benign_problems(owner: str, lines: tuple[str, ...], classifier: Classifier, source: str = "training") -> list[str]:
    problems = []
    for line in lines:
        got = classifier.classify(line, source)
        if got is not None:
            problems.append(f"{owner}: benign example classified as {got.rule_id}: {line!r}")
    return problems


def _reachability_problems(kb: KnowledgeBase, classifier: Classifier) -> list[str]:
    reached = set()
    for rule in kb.rules:
        for line in rule.examples:
            got = classifier.classify(line, _example_source(rule))
            if got is not None:
                reached.add(got.category)
    problems = []
    for entry in kb.xids.values():
        got = classifier.classify(xid_probe_line(entry.xid), source="kernel")
        if got is None or got.category != entry.category or got.xid != entry.xid:
            problems.append(f"xid {entry.xid}: kernel line classified as {got and got.category}")
        else:
            reached.add(got.category)
    return problems + [f"category {c} is not reachable" for c in kb.categories if c not in reached]


def xid_probe_line(xid: int) -> str:
    """A kernel line in the documented ``NVRM: Xid (PCI:<bus>): <n>, pid=...`` format."""
    return f"NVRM: Xid (PCI:0000:3b:00): {xid}, pid=4242, name=python3, probe"
