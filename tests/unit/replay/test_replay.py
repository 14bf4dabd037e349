"""``faultline replay``: deterministic, dead-letters bad lines, finds the injected faults."""

from __future__ import annotations

import io
import json
from pathlib import Path

from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import DeadLetter, Fault, HangVerdict, decode
from streams.replay import replay
from tests.hostile import HOSTILE


def _input(tmp_path: Path) -> tuple[Path, object]:
    run = simulate(FleetConfig(nodes=5, jobs=1, nodes_per_job=4, duration_s=900, seed=9),
                   [sc.Hang(job=0, at_s=400, source="single"), sc.Xid(node=4, gpu=0, xid=79, at_s=200)])
    path = tmp_path / "events.jsonl"
    run.write_jsonl(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines.insert(10, b"{this is not json\n")
    lines.insert(500, b'{"schema": "gpu_sample/v1", "event_id": "x"}\n')
    path.write_bytes(b"".join(lines))
    return path, run


def test_replay_is_byte_identical_across_runs(tmp_path: Path) -> None:
    path, _ = _input(tmp_path)
    first, second = io.BytesIO(), io.BytesIO()
    replay(path, first)
    replay(path, second)
    assert first.getvalue() == second.getvalue()
    assert first.getvalue().count(b"\n") > 10


def test_replay_dead_letters_bad_lines_with_their_line_numbers(tmp_path: Path) -> None:
    path, _ = _input(tmp_path)
    out = io.BytesIO()
    result = replay(path, out)
    letters = [e for e in map(decode, out.getvalue().splitlines()) if isinstance(e, DeadLetter)]
    assert result.dead_letters == 2
    assert sorted(d.offset for d in letters) == [11, 501]
    assert {d.stage for d in letters} == {"decode", "validate"}


def test_replay_finds_the_injected_xid_and_hang(tmp_path: Path) -> None:
    path, run = _input(tmp_path)
    out = io.BytesIO()
    replay(path, out)
    derived = [decode(line) for line in out.getvalue().splitlines()]
    faults = [e for e in derived if isinstance(e, Fault) and e.xid == 79]
    assert {f.node_id for f in faults} == {"node-0005"}
    verdicts = [e for e in derived if isinstance(e, HangVerdict)]
    hang = next(t for t in run.truth if t.kind == "hang")  # type: ignore[attr-defined]
    assert [v.source_nodes for v in verdicts] == [hang.node_ids]
    assert all(json.loads(line)["schema"].endswith("/v1") for line in out.getvalue().splitlines())





def test_every_kind_of_bad_line_gets_the_same_dead_letter_on_every_replay(tmp_path: Path) -> None:
    path, _ = _input(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    for i, bad in enumerate(HOSTILE):
        lines.insert(20 + 40 * i, bad + b"\n")
    path.write_bytes(b"".join(lines))
    copy = tmp_path / "elsewhere"
    copy.mkdir()
    (copy / path.name).write_bytes(path.read_bytes())
    first, second = io.BytesIO(), io.BytesIO()
    replay(path, first)
    replay(copy / path.name, second)  # the same file in another folder: the same ids
    assert first.getvalue() == second.getvalue()
    letters = [e for e in map(decode, first.getvalue().splitlines()) if isinstance(e, DeadLetter)]
    assert len(letters) == len(HOSTILE) + 2  # the two bad lines of _input as well
    assert len({d.event_id for d in letters}) == len(letters)
    assert all(len(d.raw) < 400_000 for d in letters), "a dead letter stays under the message limit"
    big = next(d for d in letters if d.raw_bytes == 1_500_000)
    assert big.raw_sha256 and len(big.raw) < 1_500_000
