"""The pure classifier: one log line -> :class:`Classification` or ``None`` (benign).

Speed comes from a prefilter: every rule and guard declares lower-case ``keywords``; one
Aho-Corasick pass over the lower-cased line (C code, pyahocorasick) yields the few rules
worth trying. A line with no keyword - the vast majority of training output - costs one
``str.lower`` and one automaton scan. Only candidate rules run their regexes, in the
knowledge base's priority order.

Imports only the standard library, ``ahocorasick``, ``schemas``, the KB model and the learned
fallback; no I/O, no clock.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

import ahocorasick

from schemas.derived import LEARNED_RULE_PREFIX
from streams.classify.learned import LearnedModel, candidate
from streams.classify.model import Blame, Classification, Guard, KnowledgeBase, Level, Rule

_FLAGS = re.IGNORECASE
# Generic GPU locators, tried only on lines already classified as faults.
_PCI = re.compile(r"\b(?:PCI:)?((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2})(?:\.[0-7])?\b", _FLAGS)
_GPU = re.compile(r"\bGPU\s?#?(\d{1,2})\b(?![:.]\d)", _FLAGS)
# What launchers and log collectors put in front of a process's own line: srun --label ("0: "),
# mpirun --tag-output ("[1,0]<stderr>:"), PyTorch's rank prefix ("[rank3]:"), torchrun --tee
# ("[default0]:"), Ray's worker prefix ("(RayTrainWorker pid=18234, ip=10.0.0.12) "), kubectl
# logs --prefix ("[pod/NAME/CONTAINER] "), docker compose ("trainer-1  | "), pdsh / deepspeed's
# launcher ("node-017: "), CRI log files ("<RFC3339> stderr F "), ISO timestamps, syslog
# headers ("Nov 27 10:00:00 host proc[pid]: ") and the kernel's record prefixes (a priority
# "<4>", a /dev/kmsg header "4,1234,5678,-;", "kernel: ", dmesg's "[ 1234.567890] " and -T's
# "[Fri Nov 27 10:00:00 2026] "), loguru's "| LEVEL | module:function:line - " after its time,
# and bare leading whitespace. Rules anchored at the start of the message
# would miss it behind one; see :meth:`Classifier.classify`.
_LAUNCHER_PREFIX = re.compile(
    r"^(?:"
    r"\s*\d{1,5}:\s"
    r"|\s*\[\d+,\d+\]<std(?:out|err)>:\s?"
    r"|\s*\[(?:rank|default)\d+\]:\s?"
    r"|\s*\((?:[\w.-]+ )?pid=\d+(?:, ip=[\d.]+)?\)\s"
    r"|\s*\[pod/[\w.-]+/[\w.-]+\]\s"
    r"|\s*[\w.-]*\d[\w.-]*\s+\|\s"
    r"|\s*[a-z][\w-]*\d[\w.-]*:\s"
    r"|\s*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+(?:std(?:out|err) [FP] )?"
    r"|\s*[a-z][\w-]*\d[\w.-]*\s[\w./@-]+(?:\[\d+\])?:\s"
    r"|\s*[A-Z][a-z]{2}\s+\d{1,2}\s\d{2}:\d{2}:\d{2}\s[\w.-]+\s[\w./@-]+(?:\[\d+\])?:\s"
    r"|\s*<\d{1,3}>|\s*\d+,\d+,\d+,[^;]{0,8};|\s*kernel:\s"
    r"|\s*\[\s*\d+\.\d+\]\s|\s*\[[A-Z][a-z]{2} [A-Z][a-z]{2}\s+\d{1,2} \d{2}:\d{2}:\d{2} \d{4}\]\s"
    r"|\s*\|\s*[A-Z]+\s*\|\s*[\w.<>-]+:[\w.<>-]+:\d+\s+-\s"
    r"|\s+"
    r")",
    _FLAGS,
)
_PREFIXES_TRIED = 3
_FALLBACK = "fallback."
# Terminal escape sequences (CSI: colours, cursor moves; two-byte ESC forms) that coloured loggers
# (loguru, rich, colorlog, Ray's worker prefix, vLLM) write into the line, and the SGR remnants
# ("[36m ... [0m") such a line keeps when a pipeline dropped the ESC bytes (recognised by a reset).
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_SGR_REMNANT = re.compile(r"\[(?:\d{1,3};)*\d{1,3}m")


# Typographic punctuation as ASCII: GNU tools quote ‘like this’ in UTF-8 locales, and lines
# copied through chat, tickets or web pages get curly quotes, no-break and narrow spaces, and
# fullwidth colons; the rules are written with the ASCII forms.
_TYPOGRAPHIC = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                              "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00a0": " ", "\u202f": " ",
                              "\u2007": " ", "\uff1a": ":"})


def _plain(line: str) -> str:
    """``line`` without terminal colours and with typographic quotes, spaces and colons in
    their ASCII forms: what a rule reads."""
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    if "[0m" in line:
        line = _SGR_REMNANT.sub("", line)
    if not line.isascii():
        line = line.translate(_TYPOGRAPHIC)
    return line


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A rule or guard with its regexes compiled once."""

    index: int
    patterns: tuple[re.Pattern[str], ...]
    unless: re.Pattern[str] | None
    line_actions: tuple[tuple[re.Pattern[str], str], ...] = ()

    def search(self, line: str, forms: Sequence[str] = ()) -> re.Match[str] | None:
        """The first pattern match, unless a veto pattern matches too: in ``line`` or in any of
        its other ``forms`` (the line with and without its launcher prefixes: a veto anchored at
        the start of a benign look-alike still reads it behind a prefix)."""
        for pattern in self.patterns:
            found = pattern.search(line)
            if found is not None:
                if self.unless is not None and any(self.unless.search(text) for text in (line, *forms)):
                    return None
                return found
        return None


def _compile(
    index: int, patterns: tuple[str, ...], unless: tuple[str, ...], line_actions: tuple[tuple[str, str], ...] = ()
) -> _Compiled:
    # Patterns stay separate (not one alternation): several reuse group names like `xid`.
    veto = re.compile("|".join(f"(?:{u})" for u in unless), _FLAGS) if unless else None
    actions = tuple((re.compile(p, _FLAGS), a) for p, a in line_actions)
    return _Compiled(index, tuple(re.compile(p, _FLAGS) for p in patterns), veto, actions)


class Classifier:
    """Classifies lines against a :class:`KnowledgeBase`; build once, call :meth:`classify` often.

    Thread-safe after construction (read-only state). Deterministic: the same line and source
    always give the same result.
    """

    def __init__(self, kb: KnowledgeBase, learned: LearnedModel | None = None) -> None:
        self._kb = kb
        self._learned = learned
        self._rules = [_compile(i, r.patterns, r.unless, r.line_actions) for i, r in enumerate(kb.rules)]
        self._guards = [_compile(i, g.patterns, g.unless) for i, g in enumerate(kb.guards)]
        self._automaton = _automaton(kb.rules, kb.guards)
        # Rules appended after the fallbacks (later fits) must not be shadowed by them: a line
        # with an error-level marker and a specific rule's message is that rule's.
        self._order = [(r.id.startswith(_FALLBACK), i) for i, r in enumerate(kb.rules)]
        self._anchored = {i for i, r in enumerate(kb.rules) if any(_anchored(p) for p in r.patterns)}
        self._anchored_guards = {i for i, g in enumerate(kb.guards) if any(_anchored(p) for p in g.patterns)}

    @property
    def kb(self) -> KnowledgeBase:
        """The knowledge base this classifier was compiled from."""
        return self._kb

    @property
    def learned(self) -> LearnedModel | None:
        """The learned fallback consulted after the rules, if any."""
        return self._learned

    def classify(self, line: str, source: str = "training") -> Classification | None:
        """The classification of ``line`` (from log ``source``), or ``None`` if it is benign.
        Terminal colours, typographic quotes and no-break spaces are read as plain text (:func:`_plain`).

        The knowledge base's rules decide; a line none of them reads and no guard vetoes is
        offered to the learned fallback, if any (:mod:`streams.classify.learned`: rule id
        ``learned.<category>``, action ``none``)."""
        found = self._read(line, source)
        if found is not None or self._learned is None:
            return found
        return self._guess(line, source)

    def _read(self, line: str, source: str) -> Classification | None:
        """What the rules make of ``line``."""
        if "\x1b" in line or "[0m" in line or not line.isascii():  # the hot path skips the call
            line = _plain(line)
        if "\n" in line or "\r" in line:
            return self._classify_record(line, source)
        whole = self._classify_line(line, source)
        if whole is not None and not whole.rule_id.startswith(_FALLBACK):
            return whole
        # A structured record (zap / logrus JSON, Docker's json-file, Python JSON logging,
        # logfmt) that no specific rule read whole: its message and error fields are lines of
        # their own (a record logged at debug / info level says nothing).
        if not (line.endswith("}") or '="' in line):
            return whole  # the common case: no structured record, without a call
        for text in _structured_fields(line):
            found = self._read(text.rstrip("\r\n"), source)
            if found is not None and (whole is None or not found.rule_id.startswith(_FALLBACK)):
                return found
        return whole

    def _classify_line(self, line: str, source: str) -> Classification | None:
        """One plain line (colours removed, no line breaks)."""
        # Hot path: most lines contain no keyword at all, so stop after one scan.
        found = self._automaton.iter(line.lower())
        first = next(found, None)
        if first is None:
            return None
        rule_hits: set[int] = set()
        guard_hits: set[int] = set()
        for _end, (rule_ids, guard_ids) in (first, *found):
            rule_hits.update(rule_ids)
            guard_hits.update(guard_ids)
        if not rule_hits:
            return None
        # The line also without each launcher's or collector's prefix in turn (at most
        # _PREFIXES_TRIED, one at a time: "0: mc0: csrow2: ..." is srun's label before the EDAC
        # device's name): a rule or guard anchored at the start of its message ("panic: ...", an
        # nvidia-smi "GPU <bus id>: In use by another client" answer) still reads it behind them.
        # Only anchored rules and guards read the unprefixed forms (a prefix cannot hide a line
        # from the others); a rule's veto reads every form (an anchored benign look-alike stays
        # benign behind a prefix), and so do the guards.
        anchored = rule_hits & self._anchored
        anchored_guards = guard_hits & self._anchored_guards
        variants = _unprefixed(line)
        if self._guarded(line, guard_hits) or any(self._guarded(v, anchored_guards) for v in variants):
            return None
        forms = (line, *variants)
        best = self._decide(line, source, rule_hits, forms)
        for text in variants:
            # a rule standing before the one that read the whole line wins if it reads the rest
            earlier = {r for r in anchored if best is None or self._order[r] < self._order[best[0]]}
            hit = self._decide(text, source, earlier, forms) if earlier else None
            best = hit or best
        return None if best is None else self._resolve(*best)

    def _classify_record(self, record: str, source: str) -> Classification | None:
        """A record that carries several lines (the contract says one, but multi-line collectors
        join a traceback or a dump into one record) is read line by line: its first fault."""
        for part in record.splitlines():
            found = self._read(part, source) if part.strip() else None
            if found is not None:
                return found
        return None

    def _guess(self, line: str, source: str) -> Classification | None:
        """The learned fallback's reading of the first line of ``line`` (a record: line by
        line) that no guard vetoes, as a classification that recommends no action."""
        assert self._learned is not None
        for part in _plain(line).splitlines():
            if not candidate(part) or self._vetoed(part):  # the cheap look first: most lines stop here
                continue
            guess = self._learned.guess(part, source)
            category = self._kb.categories.get(guess.category) if guess is not None else None
            if category is not None:  # a class the knowledge base lacks is no category of it
                return Classification(
                    rule_id=LEARNED_RULE_PREFIX + category.name, category=category.name, family=category.family,
                    level=category.level, blame=category.blame, pci=_first_pci(part), gpu_index=_first_gpu(part),
                    action="none")
        return None

    def _vetoed(self, line: str) -> bool:
        """Whether a guard (a known benign look-alike) reads ``line`` or, if anchored, one of
        its unprefixed forms."""
        guard_hits: set[int] = set()
        for _end, (_rule_ids, guard_ids) in self._automaton.iter(line.lower()):
            guard_hits.update(guard_ids)
        if not guard_hits:
            return False
        anchored = guard_hits & self._anchored_guards
        return self._guarded(line, guard_hits) or any(self._guarded(v, anchored) for v in _unprefixed(line))

    def _guarded(self, line: str, guard_hits: set[int]) -> bool:
        """Whether a guard (a known benign look-alike) matches ``line``."""
        for g in guard_hits:
            if self._guards[g].search(line) is not None:
                return True
        return False

    def _decide(self, line: str, source: str, rule_hits: set[int],
                forms: Sequence[str] = ()) -> tuple[int, re.Match[str], str] | None:
        """The first candidate rule in KB order that reads ``line`` (guards already passed), with
        its match and the text it read; the structural fallbacks (``fallback.*``) after every
        specific rule, wherever they stand."""
        for r in sorted(rule_hits, key=self._order.__getitem__):
            rule = self._kb.rules[r]
            if rule.sources and source not in rule.sources:
                continue
            found = self._rules[r].search(line, forms)
            if found is not None:
                return r, found, line
        return None

    def _resolve(self, index: int, found: re.Match[str], line: str) -> Classification:
        rule, compiled = self._kb.rules[index], self._rules[index]
        groups = found.groupdict()
        xid = _int(groups.get("xid")) if rule.xid else None
        entry = self._kb.xids.get(xid) if xid is not None else None
        category = self._kb.categories[entry.category if entry else rule.category]
        level: Level = (entry.level if entry else None) or rule.level or category.level
        blame: Blame = (entry.blame if entry else None) or rule.blame or category.blame
        return Classification(
            rule_id=rule.id,
            category=category.name,
            family=category.family,
            level=level,
            blame=blame,
            xid=xid,
            pci=_pci(groups.get("pci")) or _first_pci(line),
            gpu_index=_int(groups.get("gpu")) if groups.get("gpu") else _first_gpu(line),
            action=_action(compiled, line, entry.fault_action if entry else None, rule.action, category.action),
        )


_MESSAGE_KEYS = ("msg", "message", "log", "MESSAGE", "error", "err", "exception")
_LEVEL_KEYS = ("level", "levelname", "severity", "lvl", "PRIORITY")
_QUIET_LEVELS = ("debug", "trace", "info", "information", "notice", "6", "7")
_LOGFMT_QUIET = re.compile(r"(?:^|\s)(?:level|severity|lvl)=\"?(?:debug|trace|info|notice)\b", re.IGNORECASE)
_LOGFMT_FIELD = re.compile(r'(?:^|\s)(?:msg|message|error|err)=("(?:[^"\\]|\\.)*")')


def _structured_fields(line: str) -> list[str]:
    """The message-like string fields of a structured log record (a JSON object with a
    ``msg`` / ``message`` / ``log`` / ``error`` ... key, or logfmt's ``msg="..."``), unescaped; empty
    for a plain line and for a record at debug, trace or info level."""
    text = line.strip()
    if text.startswith("{") and text.endswith("}"):
        try:
            record = json.loads(text)
        except ValueError:
            return []
        if not isinstance(record, dict):
            return []
        level = next((v for k in _LEVEL_KEYS if isinstance(v := record.get(k), str)), "")
        if level.lower() in _QUIET_LEVELS:
            return []
        return [v for k in _MESSAGE_KEYS if isinstance(v := record.get(k), str) and v.strip()]
    if '="' not in text or _LOGFMT_QUIET.search(text):
        return []
    out = []
    for quoted in _LOGFMT_FIELD.findall(text):
        try:
            value = json.loads(quoted)
        except ValueError:
            continue
        if isinstance(value, str) and value.strip():
            out.append(value)
    return out


def _unprefixed(line: str) -> list[str]:
    """``line`` without its first, first two, ... launcher or collector prefixes (at most
    ``_PREFIXES_TRIED``; see ``_LAUNCHER_PREFIX``), shortest strip first."""
    out: list[str] = []
    rest = line
    for _ in range(_PREFIXES_TRIED):
        prefix = _LAUNCHER_PREFIX.match(rest)
        if prefix is None or prefix.end() >= len(rest):
            break
        rest = rest[prefix.end():]
        out.append(rest)
    return out


def _anchored(pattern: str) -> bool:
    """Whether a rule pattern anchors to the start of the line somewhere (``^`` or ``\\A``
    outside a negated character class): what a launcher's prefix can hide from it."""
    return "^" in pattern.replace("[^", "[") or "\\A" in pattern


def _automaton(rules: tuple[Rule, ...], guards: tuple[Guard, ...]) -> ahocorasick.Automaton:
    """One automaton over all keywords; each keyword maps to (rule indexes, guard indexes)."""
    table: dict[str, tuple[list[int], list[int]]] = {}
    for i, rule in enumerate(rules):
        for keyword in rule.keywords:
            table.setdefault(keyword.lower(), ([], []))[0].append(i)
    for i, guard in enumerate(guards):
        for keyword in guard.keywords:
            table.setdefault(keyword.lower(), ([], []))[1].append(i)
    automaton = ahocorasick.Automaton()
    for keyword, (rule_ids, guard_ids) in table.items():
        automaton.add_word(keyword, (tuple(rule_ids), tuple(guard_ids)))
    automaton.make_automaton()
    return automaton


def _action(compiled: _Compiled, line: str, xid_action: str | None, rule_action: str | None, default: str) -> str:
    """The line's own recovery action, else the Xid catalog's, else the rule's, else the category's."""
    for pattern, action in compiled.line_actions:
        if pattern.search(line) is not None:
            return action
    return xid_action or rule_action or default


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _pci(text: str | None) -> str | None:
    """``3b:00`` / ``0000:3B:00.0`` -> ``0000:3b:00`` (domain, bus, device; function dropped)."""
    if not text:
        return None
    parts = text.lower().split(".")[0].split(":")
    if len(parts) == 2:
        parts = ["0000", *parts]
    if len(parts) != 3:
        return None
    return f"{parts[0][-4:].rjust(4, '0')}:{parts[1]}:{parts[2]}"


def _first_pci(line: str) -> str | None:
    found = _PCI.search(line)
    # A bare "12:34" could be a clock time: only trust addresses with a domain or a PCI: tag.
    if found is None or (found.group(0).count(":") < 2 and "pci:" not in found.group(0).lower()):
        return None
    return _pci(found.group(1))


def _first_gpu(line: str) -> int | None:
    found = _GPU.search(line)
    return int(found.group(1)) if found else None
