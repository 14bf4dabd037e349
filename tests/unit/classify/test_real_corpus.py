"""The real-world corpus: its integrity, and the classifier's figures on its dev split."""

from __future__ import annotations

from collections import Counter

import pytest

from streams.classify.classifier import Classifier
from streams.classify.model import KnowledgeBase
from tests.bench.classify_real import (
    DEFAULT_CORPUS,
    HOLDOUT2,
    HOLDOUT3,
    HOLDOUT4,
    HOLDOUT5,
    HOLDOUT6,
    HOLDOUT7,
    HOLDOUT8,
    HOLDOUT9,
    HOLDOUT10,
    HOLDOUT13,
    HOLDOUT14,
    HOLDOUT15,
    HOLDOUT16,
    HOLDOUT17,
    HOLDOUT18,
    HOLDOUT19,
    HOLDOUT20,
    HOLDOUT21,
    HOLDOUT22,
    HOLDOUT23,
    HOLDOUT24,
    HOLDOUT25,
    HOLDOUT26,
    HOLDOUT27,
    HOLDOUT28,
    HOLDOUT29,
    HOLDOUT30,
    HOLDOUT31,
    HOLDOUT32,
    HOLDOUT33,
    HOLDOUT34,
    HOLDOUT35,
    HOLDOUT36,
    HOLDOUT37,
    HOLDOUT38,
    HOLDOUT39,
    HOLDOUT40,
    HOLDOUT41,
    HOLDOUT42,
    HOLDOUT43,
    HOLDOUT44,
    HOLDOUT45,
    HOLDOUT46,
    HOLDOUT47,
    HOLDOUT48,
    HOLDOUT49,
    LATE_SPLITS,
    TARGET_FAMILY_ACCURACY,
    TARGET_FP_RATE,
    TARGET_RECALL,
    RealLine,
    evaluate_split,
    parse_corpus,
    split_of,
)


@pytest.fixture(scope="module")
def corpus() -> list[RealLine]:
    return parse_corpus(DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines())


def test_corpus_is_big_and_drawn_from_many_sources(corpus: list[RealLine]) -> None:
    assert len(corpus) >= 600
    assert len({e.url for e in corpus}) >= 150
    assert all(e.url.startswith(("https://", "http://")) and e.source in ("kernel", "training", "nccl", "system") for e in corpus)
    assert len({(e.line, e.url) for e in corpus}) == len(corpus)  # no duplicated entry


def test_holdout_is_a_seeded_split_of_whole_sources(corpus: list[RealLine]) -> None:
    seeded = [e for e in corpus if e.split not in LATE_SPLITS]
    splits = Counter(e.split for e in seeded)
    assert 0.2 <= splits["holdout"] / len(seeded) <= 0.4
    by_url: dict[str, set[str]] = {}
    for entry in corpus:
        by_url.setdefault(entry.url, set()).add(entry.split)
        if entry.split not in LATE_SPLITS:
            assert entry.split == split_of(entry.url)
    assert all(len(s) == 1 for s in by_url.values())


def test_holdout2_is_big_unseen_and_has_hard_negatives(corpus: list[RealLine]) -> None:
    """holdout2: >= 200 lines from >= 60 sources found in no other split, >= 60 of them benign."""
    second = [e for e in corpus if e.split == HOLDOUT2]
    assert len(second) >= 200
    assert len({e.url for e in second}) >= 60
    assert sum(e.category is None for e in second) >= 60
    assert not {e.url for e in second} & {e.url for e in corpus if e.split != HOLDOUT2}


def test_holdout3_is_big_unseen_spread_and_has_hard_negatives(corpus: list[RealLine]) -> None:
    """holdout3: >= 200 lines from >= 60 sources found in no other split, >= 40% benign, >= 7 fault families (all of TAXONOMY.md's)."""
    third = [e for e in corpus if e.split == HOLDOUT3]
    assert len(third) >= 200
    assert len({e.url for e in third}) >= 60
    assert sum(e.category is None for e in third) >= 0.4 * len(third)
    assert len({e.family for e in third if e.category is not None}) >= 7
    assert not {e.url for e in third} & {e.url for e in corpus if e.split != HOLDOUT3}


def test_holdout4_is_big_unseen_spread_and_has_hard_negatives(corpus: list[RealLine]) -> None:
    """holdout4: >= 200 lines from >= 100 sources found in no other split, ~40% benign, >= 7 fault families (all of TAXONOMY.md's)."""
    fourth = [e for e in corpus if e.split == HOLDOUT4]
    assert len(fourth) >= 200
    assert len({e.url for e in fourth}) >= 100
    assert sum(e.category is None for e in fourth) >= 0.35 * len(fourth)
    assert len({e.family for e in fourth if e.category is not None}) >= 7
    assert not {e.url for e in fourth} & {e.url for e in corpus if e.split != HOLDOUT4}
    assert not {e.line for e in fourth} & {e.line for e in corpus if e.split != HOLDOUT4}


def test_labels_are_kb_categories_with_their_family(corpus: list[RealLine], kb: KnowledgeBase) -> None:
    for entry in corpus:
        if entry.category is None:
            assert entry.family == "benign", entry.line
        else:
            assert entry.category in kb.categories, entry.category
            assert entry.family == kb.categories[entry.category].family, entry.line


def test_corpus_has_hard_benign_negatives_and_weak_families(corpus: list[RealLine]) -> None:
    categories = Counter(e.category for e in corpus)
    assert categories[None] >= 200
    for category in ("nccl_error", "nccl_remote_peer", "nccl_user_error", "nccl_cuda_error", "nccl_timeout",
                     "storage_remote_fs", "storage_local_disk", "ib_link", "ib_hca_fault", "gpu_nvlink",
                     "gpu_gsp_timeout", "gpu_container_init", "pcie_aer", "hardware_mce", "kernel_lockup"):
        assert categories[category] >= 2, category


def test_dev_split_meets_the_targets(classifier: Classifier, corpus: list[RealLine]) -> None:
    report = evaluate_split(classifier, [e for e in corpus if e.split == "dev"])
    misses = [(e.category, got, e.line[:120]) for e, got in report.misses]
    alarms = [(got, e.line[:120]) for e, got in report.false_alarms]
    assert report.recall >= TARGET_RECALL, misses
    assert report.fp_rate <= TARGET_FP_RATE, alarms
    assert report.family_accuracy >= TARGET_FAMILY_ACCURACY, misses


def test_parse_corpus_rejects_a_split_that_is_not_the_seeded_one() -> None:
    url = "https://github.com/example/repo/issues/1"
    wrong = "holdout" if split_of(url) == "dev" else "dev"
    raw = ('{"line": "Killed", "source": "training", "category": "process_killed", "family": "process", '
           f'"url": "{url}", "split": "{wrong}"}}')
    with pytest.raises(ValueError, match="seeded split"):
        parse_corpus([raw])


def test_parse_corpus_rejects_a_holdout2_source_shared_with_the_seeded_splits() -> None:
    url = "https://github.com/example/repo/issues/2"
    seeded = ('{"line": "Killed", "source": "training", "category": "process_killed", "family": "process", '
              f'"url": "{url}", "split": "{split_of(url)}"}}')
    again = ('{"line": "Terminated", "source": "training", "category": "process_killed", "family": "process", '
             f'"url": "{url}", "split": "holdout2"}}')
    with pytest.raises(ValueError, match="holdout2 sources"):
        parse_corpus([seeded, again])


def test_parse_corpus_rejects_a_source_shared_between_holdout2_and_holdout3() -> None:
    url = "https://github.com/example/repo/issues/3"
    second = ('{"line": "Killed", "source": "training", "category": "process_killed", "family": "process", '
              f'"url": "{url}", "split": "holdout2"}}')
    third = ('{"line": "Terminated", "source": "training", "category": "process_killed", "family": "process", '
             f'"url": "{url}", "split": "holdout3"}}')
    with pytest.raises(ValueError, match="holdout2 sources"):
        parse_corpus([second, third])


@pytest.mark.parametrize(("split", "min_lines", "min_sources"), [
    (HOLDOUT5, 250, 120), (HOLDOUT6, 220, 110), (HOLDOUT7, 200, 120), (HOLDOUT8, 150, 100),
    (HOLDOUT9, 200, 120), (HOLDOUT10, 250, 150), (HOLDOUT13, 150, 90),
    (HOLDOUT14, 280, 190), (HOLDOUT15, 170, 90),
    (HOLDOUT16, 210, 120), (HOLDOUT17, 165, 80), (HOLDOUT18, 230, 120),
    (HOLDOUT19, 260, 150), (HOLDOUT20, 200, 140),
    (HOLDOUT21, 110, 80), (HOLDOUT22, 70, 40), (HOLDOUT23, 175, 78),
    (HOLDOUT24, 130, 95), (HOLDOUT25, 133, 98), (HOLDOUT26, 133, 90),
    (HOLDOUT27, 100, 66), (HOLDOUT28, 142, 111),
    (HOLDOUT29, 119, 82), (HOLDOUT30, 129, 89),
    (HOLDOUT31, 89, 58), (HOLDOUT32, 89, 55),
    (HOLDOUT33, 31, 27), (HOLDOUT34, 118, 84),
    (HOLDOUT35, 130, 110), (HOLDOUT36, 65, 49),
    (HOLDOUT37, 86, 82), (HOLDOUT38, 142, 123),
    (HOLDOUT39, 129, 101), (HOLDOUT40, 134, 97),
    (HOLDOUT41, 72, 40), (HOLDOUT42, 101, 69),
    (HOLDOUT43, 79, 72), (HOLDOUT44, 156, 104),
    (HOLDOUT45, 160, 114), (HOLDOUT46, 129, 87),
    (HOLDOUT47, 115, 70), (HOLDOUT48, 127, 69),
    (HOLDOUT49, 159, 70)])
def test_late_holdouts_are_unseen_spread_and_have_hard_negatives(corpus: list[RealLine], split: str, min_lines: int,
                                                                  min_sources: int) -> None:
    """Each later collection: enough lines from enough sources found in no other split (URLs and
    lines), ~40% benign (>= 35%), >= 7 fault families (all of TAXONOMY.md's)."""
    late = [e for e in corpus if e.split == split]
    assert len(late) >= min_lines
    assert len({e.url for e in late}) >= min_sources
    assert sum(e.category is None for e in late) >= 0.35 * len(late)
    assert len({e.family for e in late if e.category is not None}) >= 7
    assert not {e.url for e in late} & {e.url for e in corpus if e.split != split}
    assert not {e.line for e in late} & {e.line for e in corpus if e.split != split}
