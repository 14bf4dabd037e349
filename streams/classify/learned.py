"""The learned fallback: a linear model over a line's words and character n-grams, consulted
only for lines that no rule reads and no guard vetoes.

Rules are precise and explainable, but every blind collection of real lines so far held
messages no rule knew (a vendor's variant, another framework's wording). This model,
trained on the labelled real corpus (``tests/data/real/corpus.jsonl``, every split) with
``faultline kb learn``, reads what such lines share with the known ones: two logistic
regressions over tf-idf features, one "fault or benign" and one "which category". A line it
scores as a fault with probability at least the model's ``threshold`` gets the category with
rule id ``learned.<category>`` and action ``none``: a learned guess is shown (fault table,
dashboards, the classify CLI) and never acted on: the route stage keeps it out of the jobs'
pipelines (``schemas.Fault.learned``), so it takes no node, restarts nothing and counts
toward no lemon rate.

The features (:func:`features`) are computed here for training and inference alike, so the
trainer (``streams.classify.learn``, scikit-learn) and this scorer (standard library only)
cannot disagree on them. Only lines with a failure word and no quiet level marker are scored
(:data:`FAILURE_WORDS`, :data:`_QUIET`): the bulk of a training log is never looked at.

Pure: no I/O outside :func:`load_learned`, no clock; imports the standard library and ``ahocorasick``.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ahocorasick

DEFAULT_PATH = Path(__file__).with_name("learned.json.gz")
FORMAT = 1
MAX_CHARS = 2000
"""Only the first this many characters of a line are read (a dump logged as one line must not
cost more than a line)."""

# Words of failure in any component's wording (lower case, found by one Aho-Corasick scan); a
# line without one is not scored.
FAILURE_WORDS: tuple[str, ...] = (
    "error", "fail", "fatal", "exception", "abort", "panic", "timeout", "timed out", "time out", "cannot",
    "can't", "could not", "couldn't", "unable", "denied", "refused", "lost", "kill", "corrupt", "invalid",
    "unreachable", "not found", "no such", "segfault", "segmentation", "died", "crash", "hung", "stuck",
    "mismatch", " oom", "oom-", "out of memory", "not ready", "unhealthy", "unavailable", "degraded", "assert",
    "traceback", "exceed", "violation", "bad ", "broken", "critical", "emerg", "not responding", "terminat",
    " down",
)
# Level markers of lines that report progress or a warning, whatever words they carry: NCCL
# INFO, glog I/D/W lines, PyTorch's c10 "[W ...]" warnings, Python logging's INFO/DEBUG/WARNING,
# libfabric's <warn>, structured level fields. A component that calls its own message a
# warning is not guessed a fault (the rules read the warnings that are: NCCL WARN, ...).
_QUIET = re.compile(
    r"\bNCCL INFO\b|^\s*[IDW]\d{4} \d{2}:\d{2}|\[(?:INFO|DEBUG|TRACE)\]|\b(?:INFO|DEBUG|TRACE)\s*[:|\]-]"
    r"|\[W[ \d]|(?<!NCCL )\bWARN(?:ING)?\b|<warn>"
    r"|level=\"?(?:info|debug|trace|warn)|\"level\":\s*\"(?:info|debug|trace|warn)",
)
_HEX = re.compile(r"0x[0-9a-f]+")
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[a-z_][a-z0-9_]+")
_SPACES = re.compile(r"\s+")


def normalise(line: str) -> str:
    """The first :data:`MAX_CHARS` characters in lower case, hex numbers as ``#x``, other
    numbers as ``0``, runs of blanks as one space."""
    text = _HEX.sub(" #x ", line[:MAX_CHARS].lower())
    text = _DIGITS.sub("0", text)
    return _SPACES.sub(" ", text).strip()


def features(line: str, source: str) -> dict[str, int]:
    """Term counts of one line: its source, its words and word pairs (``w:``) and the
    4-character n-grams of each word padded with spaces (``c:``; 3- and 5-grams as well
    measured no better on held-out splits)."""
    text = normalise(line)
    counts: dict[str, int] = {f"s:{source}": 1}
    words = _WORD.findall(text)
    for i, word in enumerate(words):
        _add(counts, "w:" + word)
        if i:
            _add(counts, f"w:{words[i - 1]} {word}")
    for token in text.split(" "):
        padded = f" {token} "
        for start in range(len(padded) - 3):
            _add(counts, "c:" + padded[start:start + 4])
    return counts


def _add(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def _words_automaton(words: tuple[str, ...]) -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    for word in words:
        automaton.add_word(word, word)
    automaton.make_automaton()
    return automaton


_FAILURE = _words_automaton(FAILURE_WORDS)


def candidate(line: str) -> bool:
    """Whether the model looks at ``line`` at all: a failure word (:data:`FAILURE_WORDS`) and
    no quiet level marker."""
    return next(_FAILURE.iter(line.lower()), None) is not None and _QUIET.search(line) is None


@dataclass(frozen=True, slots=True)
class Guess:
    """The model's reading of one line: its category and the probability that it is a fault."""

    category: str
    probability: float


@dataclass(frozen=True, slots=True)
class LearnedModel:
    """Tf-idf weights and the two linear models, as trained (see the module docstring).

    ``idf`` maps a feature to its inverse document frequency; ``fault`` to its weight in the
    fault-or-benign model (``fault_bias`` its intercept); ``category`` to ``(class index,
    weight)`` pairs of the category model (weights below the trainer's cut dropped), with
    ``category_bias`` per class of ``classes``. A feature unknown to ``idf`` is ignored.
    """

    idf: dict[str, float]
    fault: dict[str, float]
    fault_bias: float
    category: dict[str, list[tuple[int, float]]]
    category_bias: tuple[float, ...]
    classes: tuple[str, ...]
    threshold: float
    trained_on: dict[str, Any]

    def guess(self, line: str, source: str) -> Guess | None:
        """The model's guess for a candidate line, or ``None`` below the threshold (or if the
        line is no candidate)."""
        if not candidate(line):
            return None
        vector = self.vector(line, source)
        if not vector:
            return None
        logit = self.fault_bias + sum(self.fault.get(f, 0.0) * x for f, x in vector.items())
        probability = _sigmoid(logit)
        if probability < self.threshold:
            return None
        scores = list(self.category_bias)
        for feature, x in vector.items():
            for index, weight in self.category.get(feature, ()):
                scores[index] += weight * x
        best = max(range(len(scores)), key=scores.__getitem__)
        return Guess(self.classes[best], probability)

    def vector(self, line: str, source: str) -> dict[str, float]:
        """The line's tf-idf vector: (1 + ln count) x idf per known feature, L2-normalised."""
        weighted = {f: (1.0 + math.log(n)) * idf for f, n in features(line, source).items()
                    if (idf := self.idf.get(f)) is not None}
        norm = math.sqrt(sum(x * x for x in weighted.values()))
        return {f: x / norm for f, x in weighted.items()} if norm else {}

    def to_json(self) -> dict[str, Any]:
        """The model as the JSON object :func:`load_learned` reads."""
        return {
            "format": FORMAT, "threshold": self.threshold, "classes": list(self.classes),
            "fault_bias": self.fault_bias, "category_bias": list(self.category_bias),
            "trained_on": self.trained_on,
            "features": {f: [idf, self.fault.get(f, 0.0), [[i, w] for i, w in self.category.get(f, ())]]
                         for f, idf in sorted(self.idf.items())},
        }


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def model_from_json(data: dict[str, Any]) -> LearnedModel:
    """A model from its JSON object; ``ValueError`` on an unknown format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"learned model format {data.get('format')!r}, expected {FORMAT}")
    table: dict[str, list[Any]] = data["features"]
    return LearnedModel(
        idf={f: float(v[0]) for f, v in table.items()},
        fault={f: float(v[1]) for f, v in table.items() if v[1]},
        fault_bias=float(data["fault_bias"]),
        category={f: [(int(i), float(w)) for i, w in v[2]] for f, v in table.items() if v[2]},
        category_bias=tuple(float(b) for b in data["category_bias"]),
        classes=tuple(str(c) for c in data["classes"]),
        threshold=float(data["threshold"]),
        trained_on=dict(data.get("trained_on", {})),
    )


def load_learned(path: str | Path | None = None) -> LearnedModel:
    """The model in ``path`` (gzip-compressed JSON if it ends in ``.gz``); ``None`` means the
    packaged one. Raises ``OSError`` / ``ValueError`` on a missing or malformed file."""
    target = Path(path) if path is not None else DEFAULT_PATH
    raw = target.read_bytes()
    if target.suffix == ".gz":
        raw = gzip.decompress(raw)
    return model_from_json(json.loads(raw))
