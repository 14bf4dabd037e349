"""``python -m tests.bench.classify_bench``: classifier throughput and quality figures.

Prints lines/s on one core for a typical training-log mix (mostly benign: iteration lines,
NCCL INFO, progress bars, warnings; about 1 in 200 lines a fault) and on the labelled set,
then per-category recall and the benign false-positive rate of the labelled set.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from streams.classify.classifier import Classifier
from streams.classify.kb import load_kb
from streams.classify.learned import load_learned
from tests.bench.classify_eval import Report, Sample, evaluate, parse_samples

DEFAULT_LABELLED = Path("tests/data/classify/labelled.jsonl")

_TYPICAL = (
    " iteration {i:>8}/  500000 | consumed samples: {s:>12} | elapsed time per iteration (ms): {ms:.1f} | learning rate: 2.999E-04 | global batch size:  2048 | lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {g:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |",
    "{{'loss': {loss:.4f}, 'grad_norm': {g:.4f}, 'learning_rate': 1.5e-05, 'epoch': 0.{i}}}",
    "[2026-11-22 08:{m:02d}:{sec:02d},{ms:.0f}] [INFO] [logging.py:96:log_dist] [Rank 0] step={i}, skipped=0, lr=[0.00029], mom=[(0.9, 0.95)]",
    "gpu-a{r:02d}:{pid}:{pid2} [{rank}] NCCL INFO Channel {c:02d}/32 :    0   1   2   3   4   5   6   7",
    "gpu-a{r:02d}:{pid}:{pid2} [{rank}] NCCL INFO comm 0x5581d2c0 rank {rank} nranks 64 cudaDev {rank} busId 3b000 commId 0x9f1b2e - Init COMPLETE",
    " 37%|███▋      | {i}/30000 [1:02:11<1:45:20,  3.28it/s, loss={loss:.3f}]",
    "[rank{rank}]: step {i} | tokens/s/gpu {s} | mfu {g:.2f} | mem allocated {ms:.0f} MiB",
    "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:91: UserWarning: None of the inputs have requires_grad=True. Gradients will be None",
    "Saving checkpoint at iteration {i} to /ckpt/run-42/iter_{i:07d}",
    "eval/loss={loss:.4f} eval/ppl={g:.2f} step={i}",
)
_FAULTS = (
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "[rank3]:[E1122 08:05:11.402311 77812 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88311, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.10 GiB of which 1.19 GiB is free.",
)


def typical_mix(n: int, seed: int = 7) -> list[str]:
    """``n`` deterministic lines of a typical training log, 0.5% of them faults."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if rng.random() < 0.005:
            out.append(rng.choice(_FAULTS))
            continue
        out.append(rng.choice(_TYPICAL).format(
            i=i, s=i * 2048, ms=rng.uniform(900, 2500), loss=rng.uniform(1.5, 3.0), g=rng.uniform(0.1, 2.0),
            m=i % 60, sec=(i * 7) % 60, r=rng.randrange(64), pid=rng.randrange(1000, 99999),
            pid2=rng.randrange(1000, 99999), rank=rng.randrange(8), c=rng.randrange(32),
        ))
    return out


def throughput(classifier: Classifier, lines: Sequence[tuple[str, str]], repeat: int = 3) -> float:
    """Best-of-``repeat`` lines per second of :meth:`Classifier.classify` over ``lines``."""
    best = float("inf")
    classify = classifier.classify
    for _ in range(repeat):
        start = time.perf_counter()
        for line, source in lines:
            classify(line, source)
        best = min(best, time.perf_counter() - start)
    return len(lines) / best if best > 0 else float("inf")


def print_report(report: Report, out: object = sys.stdout) -> None:
    """Per-category recall, overall recall and the benign FP rate, then misses and false alarms."""
    write = out.write
    for category, recall in report.category_recall().items():
        write(f"  recall {category:<28} {recall:6.1%}  ({report.hits[category]}/{report.per_category[category]})\n")
    write(f"recall {report.recall:.2%} on {report.faults} fault lines; ")
    write(f"benign FP {report.fp_rate:.2%} ({report.false_positives}/{report.benign})\n")
    for sample, got in report.misses:
        write(f"  MISS want {sample.category} got {got}: {sample.line[:160]}\n")
    for sample, got in report.false_alarms:
        write(f"  FALSE ALARM {got}: {sample.line[:160]}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit 1 if the labelled set misses recall 98% or FP 1%."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--labelled", type=Path, default=DEFAULT_LABELLED)
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args(argv)
    kb = load_kb()
    classifier = Classifier(kb, load_learned())  # what the classify stage runs: rules, then the learned fallback
    mix = [(line, "training") for line in typical_mix(args.lines)]
    print(f"typical training mix: {throughput(classifier, mix):,.0f} lines/s (one core, {len(mix)} lines; "
          f"rules only {throughput(Classifier(kb), mix):,.0f})")
    samples: list[Sample] = parse_samples(args.labelled.read_text(encoding="utf-8").splitlines())
    labelled = [(s.line, s.source) for s in samples]
    print(f"labelled set:         {throughput(classifier, labelled * 20):,.0f} lines/s ({len(samples)} lines x 20)")
    report = evaluate(classifier, samples)
    print_report(report)
    return 0 if report.recall >= 0.98 and report.fp_rate <= 0.01 else 1


if __name__ == "__main__":
    raise SystemExit(main())
