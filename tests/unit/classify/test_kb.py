"""The knowledge base: schema, taxonomy coverage, the whole Xid catalog, self-consistency."""

from __future__ import annotations

from dataclasses import replace

from streams.classify.classifier import Classifier
from streams.classify.kb import XID_RANGE, check_kb, xid_probe_line
from streams.classify.model import ACTIONS, TAXONOMY_CATEGORIES, KnowledgeBase


def test_packaged_kb_passes_its_own_check(kb: KnowledgeBase) -> None:
    assert check_kb(kb) == []


def test_every_taxonomy_category_is_defined_with_its_contract_defaults(kb: KnowledgeBase) -> None:
    assert set(TAXONOMY_CATEGORIES) <= set(kb.categories)
    assert kb.categories["gpu_graphics_engine_fault"].blame == "job"
    assert kb.categories["gpu_memory_ecc"].level == "fault"
    assert kb.categories["storage_io"].blame == "storage"


def test_whole_xid_catalog_is_mapped_and_reachable(kb: KnowledgeBase, classifier: Classifier) -> None:
    assert set(XID_RANGE) <= set(kb.xids)
    for number in XID_RANGE:
        found = classifier.classify(xid_probe_line(number), source="kernel")
        assert found is not None, number
        assert (found.xid, found.category) == (number, kb.xids[number].category)
        assert found.action == kb.xids[number].fault_action
        assert found.action in ACTIONS


def test_taxonomy_named_xids_land_in_their_categories(classifier: Classifier) -> None:
    expected = {79: "gpu_fallen_off_bus", 48: "gpu_memory_ecc", 63: "gpu_memory_ecc", 64: "gpu_memory_ecc",
                92: "gpu_memory_ecc", 94: "gpu_memory_ecc", 95: "gpu_memory_ecc", 74: "gpu_nvlink",
                144: "gpu_nvlink", 150: "gpu_nvlink", 13: "gpu_graphics_engine_fault",
                31: "gpu_graphics_engine_fault", 43: "gpu_graphics_engine_fault",
                69: "gpu_graphics_engine_fault", 154: "gpu_reset_required", 119: "gpu_gsp_timeout",
                120: "gpu_gsp_error", 8: "gpu_xid_other"}
    for number, category in expected.items():
        found = classifier.classify(xid_probe_line(number), source="kernel")
        assert found is not None and found.category == category, number


def test_unknown_xid_number_falls_back_to_gpu_xid_other(classifier: Classifier) -> None:
    found = classifier.classify("NVRM: Xid (PCI:0000:3b:00): 199, pid=12, some future error", "kernel")
    assert found is not None and (found.category, found.xid) == ("gpu_xid_other", 199)


def test_check_reports_a_rule_that_matches_its_own_benign_example(kb: KnowledgeBase) -> None:
    rule = kb.rules[0]
    broken = replace(kb, rules=(replace(rule, benign=rule.examples[:1]), *kb.rules[1:]))
    problems = check_kb(broken)
    assert any("benign example classified" in p for p in problems)


def test_check_reports_unknown_category_and_missing_xid(kb: KnowledgeBase) -> None:
    rule = replace(kb.rules[-1], category="no_such_category")
    xids = {k: v for k, v in kb.xids.items() if k != 79}
    problems = check_kb(replace(kb, rules=(*kb.rules[:-1], rule), xids=xids))
    assert any("unknown category no_such_category" in p for p in problems)
    assert "xid 79 not mapped" in problems


def test_check_reports_bad_regex(kb: KnowledgeBase) -> None:
    rule = replace(kb.rules[0], patterns=("(unclosed",))
    problems = check_kb(replace(kb, rules=(rule, *kb.rules[1:])))
    assert any("does not compile" in p for p in problems)


def test_every_rule_cites_a_source(kb: KnowledgeBase) -> None:
    assert all(rule.note for rule in kb.rules)
