"""The classifier on the labelled set: recall, false positives, reachability, parsing."""

from __future__ import annotations

from streams.classify.classifier import Classifier
from streams.classify.model import TAXONOMY_CATEGORIES, KnowledgeBase
from tests.bench.classify_eval import Sample, evaluate

MIN_RECALL = 0.98
MAX_FP_RATE = 0.01


def test_labelled_set_is_big_and_covers_every_category(samples: list[Sample], kb: KnowledgeBase) -> None:
    faults = [s for s in samples if s.category]
    assert len(faults) >= 400
    assert len(samples) - len(faults) >= 400
    # Every v1 category, plus some of the v1 additions (the split of nccl_error, ib_link, storage_io).
    assert set(TAXONOMY_CATEGORIES) <= {s.category for s in faults} <= set(kb.categories)


def test_recall_on_labelled_set(classifier: Classifier, samples: list[Sample]) -> None:
    report = evaluate(classifier, samples)
    misses = [(s.category, got, s.line) for s, got in report.misses]
    assert report.recall >= MIN_RECALL, misses[:20]


def test_benign_false_positive_rate(classifier: Classifier, samples: list[Sample]) -> None:
    report = evaluate(classifier, samples)
    alarms = [(got, s.line) for s, got in report.false_alarms]
    assert report.fp_rate <= MAX_FP_RATE, alarms[:20]


def test_every_category_is_reachable_on_labelled_lines(classifier: Classifier, samples: list[Sample]) -> None:
    recall = evaluate(classifier, samples).category_recall()
    assert {c for c, r in recall.items() if r > 0} == {s.category for s in samples if s.category}


def test_xid_line_yields_xid_pci_and_catalog_action(classifier: Classifier) -> None:
    found = classifier.classify("[ 812.44] NVRM: Xid (PCI:0000:3B:00): 79, pid=0, GPU has fallen off the bus.", "kernel")
    assert found is not None
    assert (found.rule_id, found.category, found.xid, found.pci) == ("xid.nvrm", "gpu_fallen_off_bus", 79, "0000:3b:00")
    # The catalog's resolution bucket RESTART_BM, mapped to the recommended action.
    assert (found.level, found.blame, found.action) == ("fault", "node", "reboot_node")


def test_gpu_index_is_parsed_from_text(classifier: Classifier) -> None:
    found = classifier.classify("DCGM: Detected 2 volatile double-bit ECC error(s) in GPU 6.", "system")
    assert found is not None and (found.category, found.gpu_index) == ("gpu_memory_ecc", 6)


def test_fatal_aer_is_raised_to_fault_and_uncorrected_stays_error(classifier: Classifier) -> None:
    fatal = classifier.classify("pcieport 0000:80:03.1: AER: Uncorrected (Fatal) error received: 0000:83:00.0", "kernel")
    nonfatal = classifier.classify("pcieport 0000:80:03.1: AER: Uncorrected (Non-Fatal) error received: 0000:83:00.0", "kernel")
    assert fatal is not None and (fatal.category, fatal.level) == ("pcie_aer", "fault")
    assert nonfatal is not None and (nonfatal.category, nonfatal.level) == ("pcie_aer", "error")


def test_corrected_and_uncorrected_memory_errors_differ_in_level(classifier: Classifier) -> None:
    ce = classifier.classify("EDAC MC0: 2 CE memory read error on CPU_SrcID#0_MC#1_Chan#0_DIMM#1 (channel:0 slot:1)", "kernel")
    ue = classifier.classify("EDAC MC0: 1 UE memory read error on CPU_SrcID#0_MC#1_Chan#0_DIMM#1 (channel:0 slot:1)", "kernel")
    assert ce is not None and (ce.category, ce.level) == ("hardware_mce", "error")
    assert ue is not None and (ue.category, ue.level) == ("hardware_mce", "fault")


def test_benign_guards_silence_lines_that_share_fault_words(classifier: Classifier) -> None:
    for line in (
        "node-1:22:33 [0] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.",
        "[Hardware Error]: Corrected error, no action required.",
        "$ grep -i 'CUDA out of memory' train.log",
        "            DRAM Uncorrectable            : 0",
        "srun: node-1: task 3: Exited with exit code 0",
    ):
        assert classifier.classify(line) is None, line


def test_classification_is_deterministic(classifier: Classifier, samples: list[Sample]) -> None:
    first = [classifier.classify(s.line, s.source) for s in samples]
    second = [classifier.classify(s.line, s.source) for s in samples]
    assert first == second
