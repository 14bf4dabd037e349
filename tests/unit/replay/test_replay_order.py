"""The replay reader's window: lines come out in (time, schema, id, line) order however they
were interleaved within the window, and a bad line's dead letter carries the file's newest time."""

from __future__ import annotations

import io
import random
from pathlib import Path

from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import DeadLetter, decode
from streams.replay import _Held, replay


def test_held_releases_everything_due_in_order_at_every_step() -> None:
    rng = random.Random(9)
    held, mirror = _Held(), []
    for number in range(2000):
        line = (rng.randrange(100) + number // 10, "s", f"{rng.randrange(10)}", number, None)
        held.push(line)  # type: ignore[arg-type]
        mirror.append(line)
        if rng.random() < 0.45:
            limit_us = rng.randrange(100) + number // 10 - 30
            assert held.pop_through(limit_us) == sorted(m for m in mirror if m[0] <= limit_us)
            mirror = [m for m in mirror if m[0] > limit_us]
    assert held.pop_through(None) == sorted(mirror)


def _fleet(tmp_path: Path) -> list[bytes]:
    run = simulate(FleetConfig(nodes=4, jobs=1, duration_s=600, seed=3),
                   [sc.Hang(job=0, at_s=300, source="single"), sc.Xid(node=1, gpu=0, xid=79, at_s=150)])
    path = tmp_path / "sorted.jsonl"
    run.write_jsonl(path)
    return path.read_bytes().splitlines(keepends=True)


def test_a_file_shuffled_within_the_window_replays_like_the_sorted_file(tmp_path: Path) -> None:
    lines = _fleet(tmp_path)
    rng = random.Random(1)
    shuffled = list(lines)
    for start in range(0, len(shuffled), 200):  # ~ tens of seconds of disorder, within the 300 s window
        block = shuffled[start:start + 200]
        rng.shuffle(block)
        shuffled[start:start + 200] = block
    (tmp_path / "shuffled.jsonl").write_bytes(b"".join(shuffled))
    ordered, disordered = io.BytesIO(), io.BytesIO()
    replay(tmp_path / "sorted.jsonl", ordered)
    result = replay(tmp_path / "shuffled.jsonl", disordered)
    assert result.late == 0 and result.derived > 10
    assert disordered.getvalue() == ordered.getvalue()


def test_a_bad_line_is_dead_lettered_at_the_newest_time_read_before_it(tmp_path: Path) -> None:
    lines = _fleet(tmp_path)
    newest = max(decode(line).event_time for line in lines[:300])
    lines.insert(300, b"{not json\n")
    lines.insert(0, b"[1]\n")
    (tmp_path / "bad.jsonl").write_bytes(b"".join(lines))
    out = io.BytesIO()
    replay(tmp_path / "bad.jsonl", out)
    letters = {e.offset: e for e in map(decode, out.getvalue().splitlines()) if isinstance(e, DeadLetter)}
    assert sorted(letters) == [1, 302]
    assert letters[302].event_time == newest and letters[1].event_time.year == 1970
