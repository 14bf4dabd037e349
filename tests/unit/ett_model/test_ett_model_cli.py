"""``faultline ett model``: flags in, the model's figures out (text and JSON), no store needed."""

from __future__ import annotations

import json

import pytest

from sinks.clickhouse.ett_cli import ett_main

PAPER = ["model", "--nodes", "2048", "--failures-per-node-day", "0.0065", "--restart-overhead-min", "5"]


def test_json_has_ett_mttf_and_optimal_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert ett_main([*PAPER, "--checkpoint-interval-min", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ett"] == pytest.approx(0.93, abs=0.005) and out["mttf_h"] == pytest.approx(1.8, abs=0.01)
    assert out["optimal_interval_min"] is None and out["fitted"] is None
    assert out["params"]["nodes"] == 2048


def test_blocking_writes_give_an_optimal_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert ett_main([*PAPER, "--checkpoint-interval-min", "60", "--checkpoint-write-min", "0.5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["optimal_interval_min"] == pytest.approx((2 * 0.5 * out["mttf_h"] * 60) ** 0.5)
    assert out["ett_at_optimal"] > out["ett"]


def test_text_output_states_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert ett_main([*PAPER, "--checkpoint-interval-min", "60"]) == 0
    out = capsys.readouterr().out
    assert "MTTF 1.80 h" in out and "expected ETT 0.676" in out and "interval_min" in out


def test_missing_rate_without_history_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert ett_main(["model", "--nodes", "8", "--checkpoint-interval-min", "30"]) == 2
    assert ett_main([*PAPER, "--checkpoint-interval-min", "0"]) == 2
    assert "required" in capsys.readouterr().err
