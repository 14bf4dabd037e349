"""``python -m tests.bench.classify_learned``: what the learned fallback adds on lines it has never seen.

The packaged model is trained on every split of the real corpus, so its figures there say
nothing. This trains the same model (``streams.classify.learn.train``) on the corpus without
the held-out splits (plus the labelled set and the measured rules' own examples) and classifies those splits twice with the same rules: rules only, and
rules then the model at each threshold. The honest comparison uses rules that had not seen
the held-out splits either (``--kb`` an older knowledge base, e.g. from git history):

    git show e384414:streams/classify/kb.yaml > /tmp/kb_e384414.yaml
    python -m tests.bench.classify_learned --kb /tmp/kb_e384414.yaml --holdout holdout31,holdout32,holdout33

Each row: exact / detected / benign FP / family, as ``tests.bench.classify_real`` prints them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from streams.classify.classifier import Classifier
from streams.classify.kb import load_kb
from streams.classify.learn import (
    DEFAULT_C,
    DEFAULT_CORPORA,
    DEFAULT_THRESHOLD,
    Labelled,
    kb_examples,
    read_labelled,
    train,
)
from tests.bench.classify_real import DEFAULT_CORPUS, RealLine, SplitReport, evaluate_split, parse_corpus


def held_out(entries: Sequence[RealLine], holdout: Sequence[str], kb_path: Path | None, c: float,
             thresholds: Sequence[float], extra: Sequence[Labelled] = ()) -> dict[str, list[tuple[str, SplitReport]]]:
    """Per held-out split: ("rules", report) then ("t=<threshold>", report) per threshold; the
    model learns the corpus without the held-out splits, and ``extra``."""
    kb = load_kb(kb_path)
    model = train([*(Labelled(e.line, e.source, e.category) for e in entries if e.split not in holdout), *extra], c=c)
    out: dict[str, list[tuple[str, SplitReport]]] = {}
    for split in holdout:
        lines = [e for e in entries if e.split == split]
        rows = [("rules", evaluate_split(Classifier(kb), lines))]
        rows += [(f"t={t:g}", evaluate_split(Classifier(kb, replace(model, threshold=t)), lines)) for t in thresholds]
        out[split] = rows
    return out


def _figures(report: SplitReport) -> str:
    return (f"{report.recall:6.1%} / {report.detection:6.1%} / {report.fp_rate:5.1%} / "
            f"{report.family_accuracy:6.1%}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.classify_learned", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--holdout", required=True, help="comma-separated splits to hold out of training")
    parser.add_argument("--kb", type=Path, default=None, help="the rules (default: the packaged knowledge base)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--extra", action="append", default=None,
                        help="more labelled lines to train on (default: the rest of the packaged model's corpora)")
    parser.add_argument("--c", type=float, default=DEFAULT_C)
    parser.add_argument("--thresholds", default=f"0.8,0.9,{DEFAULT_THRESHOLD:g}")
    args = parser.parse_args(argv)
    entries = parse_corpus(args.corpus.read_text(encoding="utf-8").splitlines())
    holdout = [s.strip() for s in args.holdout.split(",") if s.strip()]
    unknown = sorted(set(holdout) - {e.split for e in entries})
    if unknown:
        parser.error(f"no such split: {', '.join(unknown)}")
    thresholds = [float(t) for t in args.thresholds.split(",")]
    sums: dict[str, list[float]] = {}
    extra = [x for path in (args.extra or DEFAULT_CORPORA[1:]) for x in read_labelled(path)]
    extra += kb_examples(load_kb(args.kb))  # the examples of the rules measured: none from a held-out split
    for split, rows in held_out(entries, holdout, args.kb, args.c, thresholds, extra).items():
        for name, report in rows:
            print(f"{split:<10} {name:<7} exact / detected / benign FP / family: {_figures(report)}")
            figures = [report.recall, report.detection, report.fp_rate, report.family_accuracy]
            sums[name] = [a + b for a, b in zip(sums.get(name, [0.0] * 4), figures, strict=True)]
    for name, total in sums.items():
        mean = [x / len(holdout) for x in total]
        print(f"{'mean':<10} {name:<7} exact / detected / benign FP / family: "
              f"{mean[0]:6.1%} / {mean[1]:6.1%} / {mean[2]:5.1%} / {mean[3]:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
