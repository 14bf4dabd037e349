"""Ground truth round trips, JSON lines output, scenario parsing and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_kit import sc, small

from producers.simulator import FleetConfig, Truth, read_truth, simulate
from producers.simulator.cli import main
from producers.simulator.scenarios import Hang, Xid, parse
from schemas import decode


def test_truth_dict_round_trip() -> None:
    run = small(sc.Hang(job=0, at_s=300, source="two", duration_s=60),
                sc.Oom(job=0, rank=2, at_s=700))
    assert run.truth
    for truth in run.truth:
        back = Truth.from_dict(json.loads(json.dumps(truth.to_dict())))
        assert back == truth


def test_run_writes_events_and_truth(tmp_path: Path) -> None:
    run = simulate(FleetConfig(nodes=2, duration_s=120, seed=4), [sc.Hang(job=0, at_s=60)])
    events, truth = tmp_path / "e.jsonl", tmp_path / "t.json"
    assert run.write_jsonl(events) == len(run.events)
    lines = events.read_bytes().splitlines()
    assert [decode(line) for line in lines] == run.events
    run.write_truth(truth)
    assert read_truth(truth) == run.truth
    assert json.loads(truth.read_text())["meta"]["seed"] == 4


def test_parse_scenarios() -> None:
    assert parse("hang:job=0,at_s=600,source=single") == Hang(job=0, at_s=600.0)
    assert parse("hang:job=0,at_s=1,ranks=3/17") == Hang(job=0, at_s=1.0, ranks=(3, 17))
    assert parse("xid:node=node-0002,gpu=1,xid=79,at_s=5") == Xid("node-0002", 1, 79, 5.0)
    assert parse("xid:node=2,gpu=1,xid=79,at_s=5,repeats=3") == Xid(2, 1, 79, 5.0, repeats=3)
    with pytest.raises(ValueError):
        parse("hang:job=0,at_s=1,nope=2")
    with pytest.raises(ValueError):
        parse("meteor:job=0")


def test_misfit_scenarios_are_refused() -> None:
    config = FleetConfig(nodes=2, duration_s=60)
    for bad in (sc.Hang(job=1, at_s=1), sc.Oom(job=0, rank=16, at_s=1),
                sc.Xid(node=9, gpu=0, xid=79, at_s=1), sc.SlowNode(job=0, node=2, at_s=1)):
        with pytest.raises(ValueError):
            simulate(config, [bad])


def test_cli_writes_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, truth = tmp_path / "events.jsonl", tmp_path / "truth.json"
    code = main(["--nodes", "2", "--duration-s", "90", "--seed", "3", "--scenario",
                 "hang:job=0,at_s=60,source=single", "--out", str(out), "--truth", str(truth)])
    assert code == 0
    assert out.stat().st_size > 0 and [t.kind for t in read_truth(truth)] == ["hang"]
    assert "events" in capsys.readouterr().out


def test_cli_rejects_bad_scenario(tmp_path: Path) -> None:
    assert main(["--scenario", "hang:job=7,at_s=1", "--out", str(tmp_path / "e")]) == 2


def test_parse_rejects_unknown_literals() -> None:
    with pytest.raises(ValueError):
        parse("hang:job=0,at_s=1,source=everyone")
    with pytest.raises(ValueError):
        parse("slow_node:job=0,node=1,at_s=1,cause=cosmic")
    slow = parse("slow:job=0,node=1,at_s=1,cause=nic,slowdown=1.5")
    assert isinstance(slow, sc.SlowNode) and slow.slowdown == 1.5
