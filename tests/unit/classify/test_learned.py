"""The learned fallback: consulted only where no rule reads and no guard vetoes a line, its
guesses recommend nothing, and the packaged model is the one the current corpus trains."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import Fault, LogLine
from streams.classify.classifier import Classifier
from streams.classify.detector import ClassifyDetector
from streams.classify.kb import load_kb
from streams.classify.learn import DEFAULT_CORPORA, Labelled, corpus_digest, kb_examples, read_labelled, train
from streams.classify.learned import LearnedModel, candidate, features, load_learned, model_from_json
from streams.classify.settings import ClassifySettings

ROOT = Path(__file__).parents[3]
# Real lines (tests/data/real/corpus.jsonl) that no rule reads and the model places surely.
UNREAD = [
    ("Unavailable: Unexpected response code 410", "training", "storage_remote_fs"),
    ("2022/09/20 04:10:51.581880  warn can't close writer: googleapi: Error 503: We encountered an internal error. "
     "Please try again., backendError", "system", "storage_remote_fs"),
]


@pytest.fixture(scope="module")
def model() -> LearnedModel:
    return load_learned()


@pytest.fixture(scope="module")
def both(model: LearnedModel) -> tuple[Classifier, Classifier]:
    kb = load_kb()
    return Classifier(kb), Classifier(kb, model)


def test_the_packaged_model_is_trained_on_the_current_corpus(model: LearnedModel) -> None:
    labelled = [x for path in DEFAULT_CORPORA for x in read_labelled(ROOT / path)] + kb_examples(load_kb())
    assert model.trained_on["sha256"] == corpus_digest(labelled), "corpus or rules changed: run `faultline kb learn`"
    assert model.trained_on["lines"] == len(labelled)


@pytest.mark.parametrize(("line", "source", "category"), UNREAD)
def test_a_line_no_rule_reads_gets_the_models_category_and_no_action(
        both: tuple[Classifier, Classifier], line: str, source: str, category: str) -> None:
    rules, learned = both
    assert rules.classify(line, source) is None
    found = learned.classify(line, source)
    assert found is not None and found.category == category
    assert found.rule_id == f"learned.{category}" and found.action == "none"


def test_a_rule_reading_wins_and_a_guarded_look_alike_is_never_guessed(
        both: tuple[Classifier, Classifier]) -> None:
    rules, learned = both
    xid = "NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus."
    assert learned.classify(xid, "kernel") == rules.classify(xid, "kernel") is not None
    examples = [(e, "training") for guard in load_kb().guards for e in guard.examples]
    assert len(examples) > 50
    guessed = [e for e, s in examples if rules.classify(e, s) is None and learned.classify(e, s) is not None]
    assert guessed == []  # every benign look-alike the knowledge base documents stays benign


def test_a_threshold_of_one_guesses_nothing(both: tuple[Classifier, Classifier], model: LearnedModel) -> None:
    line, source, _ = UNREAD[0]
    assert Classifier(load_kb(), replace(model, threshold=1.01)).classify(line, source) is None
    assert both[1].classify(line, source) is not None


def test_progress_lines_and_lines_without_a_failure_word_are_never_scored() -> None:
    assert not candidate("gpu5:35917:35917 [0] NCCL INFO Channel 00 : 0[3b000] -> 1[5e000] via P2P/IPC, error 0")
    assert not candidate("I1127 10:00:00.123 worker.cc:42] retrying after connection error")
    assert not candidate("step 1200 loss 2.31 lr 3e-4")
    assert not candidate("[W socket.cpp:601] [c10d] The client socket has failed to connect to [node-3]:29500")
    assert not candidate("WARNING: dataloader worker timed out, retrying")
    assert candidate("node-3:77:91 [2] NCCL WARN NET/IB : Got completion from peer with error 12")  # NCCL's errors
    assert candidate("daemon[12]: cannot open /dev/nvidia3: device lost")


def test_features_ignore_numbers_and_case() -> None:
    assert features("Error 503 at 0xdeadBEEF", "system") == features("error 404 at 0x10", "system")
    assert "w:error" in features("Error 503", "system") and "s:system" in features("Error 503", "system")


def test_the_model_survives_its_json_form(model: LearnedModel) -> None:
    again = model_from_json(json.loads(json.dumps(model.to_json())))
    line, source, _ = UNREAD[1]
    assert again.guess(line, source) == model.guess(line, source) is not None
    with pytest.raises(ValueError, match="format"):
        model_from_json({**model.to_json(), "format": 99})


def test_training_learns_a_vocabulary_it_was_shown() -> None:
    faults = [Labelled(f"flux daemon {i}: fatal: lost broker connection, exiting", "system", "torch_elastic")
              for i in range(12)]
    faults += [Labelled(f"lustre client {i}: error: object storage target unavailable", "kernel", "storage_remote_fs")
               for i in range(12)]
    benign = [Labelled(f"epoch {i}: no error, loss 0.{i}", "training", None) for i in range(24)]
    model = train(faults + benign)
    guess = model.guess("flux daemon 77: fatal: lost broker connection, exiting", "system")
    assert guess is not None and guess.category == "torch_elastic"
    assert model.guess("epoch 99: no error, loss 0.1", "training") is None
    with pytest.raises(ValueError, match="both"):
        train(benign)
    with pytest.raises(ValueError, match="two categories"):
        train(faults[:12] + benign)


def test_the_detector_emits_a_guess_as_a_fault_that_recommends_nothing(model: LearnedModel) -> None:
    detector = ClassifyDetector(ClassifySettings(), Classifier(load_kb(), model))
    line, source, category = UNREAD[0]
    event = LogLine(event_id="l1", event_time=datetime(2026, 11, 27, tzinfo=UTC), cluster="c", node_id="n1",
                    job_id="j1", source=source, line=line)  # type: ignore[arg-type]
    _, out = detector.step(detector.initial(), event)
    faults = [e for e in out if isinstance(e, Fault)]
    assert len(faults) == 1 and faults[0].learned and faults[0].category == category and faults[0].action == "none"
    assert ClassifyDetector(ClassifySettings(learned=False)).classifier.learned is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["training", "nccl", "kernel", "system"]))
def test_any_text_gets_the_rules_reading_or_a_guess_that_recommends_nothing(
        both: tuple[Classifier, Classifier], text: str, source: str) -> None:
    rules, learned = both
    by_rules, found = rules.classify(text, source), learned.classify(text, source)
    if by_rules is not None:
        assert found == by_rules
    elif found is not None:
        assert found.rule_id.startswith("learned.") and found.action == "none"
    assert learned.classify(text, source) == found  # deterministic


def test_a_huge_line_costs_what_its_first_characters_cost(model: LearnedModel) -> None:
    line = "fatal: lost connection to storage target " + "x" * 5_000_000
    assert features(line, "system") == features(line[:2000], "system")
    model.guess(line, "system")  # bounded: the first 2,000 characters
