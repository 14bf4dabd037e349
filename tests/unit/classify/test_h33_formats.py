"""Holdout33's misses, fitted after its blind measurement: ATen's shared-memory mapping failures
of DataLoader tensors (MapAllocator) and Ray Tune's checkpoint handling error, by their source
formats, with benign siblings. No line is a copy of a corpus line (checked without printing)."""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from streams.classify.kb import load_kb
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format

FORMATS = [
    ("training", "RuntimeError: unable to write to file </torch_4242_1122334455_7>: No space left on device (28)",
     "dataloader_worker_killed", "process.torch_shm_file.h33", "restart_app"),
    ("training", "RuntimeError: unable to open shared memory object </torch_901_55443322_2> in read-write mode: Too many "
     "open files (24)", "dataloader_worker_killed", "process.torch_shm_file.h33", "restart_app"),
    ("training", "RuntimeError: unable to mmap 1048576 bytes from file </torch_3131_8080_1>: Cannot allocate memory (12)",
     "dataloader_worker_killed", "process.torch_shm_file.h33", "restart_app"),
    ("training", "2026-11-27 09:08:07,654 ERROR trial_runner.py:1319 -- Trial TorchTrainer_9f8e7_00003: Error handling "
     "checkpoint /data/ray_results/exp/TorchTrainer_9f8e7_00003/checkpoint_000004", "storage_io",
     "storage.ray_tune_checkpoint.h33", "restart_app"),
]
BENIGN = [
    ("training", "Warning: unable to write to file <metrics.csv>, retrying in 5 s"),
    ("training", "INFO trial_runner.py:700 -- Trial TorchTrainer_9f8e7_00003: Checkpoint saved to /data/ray_results"),
]


@pytest.mark.parametrize(("source", "line", "category", "rule_id", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str, rule_id: str,
                              action: str) -> None:
    expect_format(classifier, source, line, category, rule_id, action)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies(line for _, line, *_ in FORMATS + BENIGN) == 0


def test_the_rules_are_in_the_packaged_knowledge_base() -> None:
    ids = {rule.id for rule in load_kb().rules}
    assert {"process.torch_shm_file.h33", "storage.ray_tune_checkpoint.h33"} <= ids
