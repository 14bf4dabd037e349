"""The Detector protocol: dump/load round trip, flush, gpu index -> rank mapping."""

from __future__ import annotations

import json

from hang_kit import Episode, Job, at, stream, verdicts

from schemas import Event, GpuSample, GpuStats, JobEvent, Placement
from streams.core.detector import Detector
from streams.hang import HangDetector
from streams.hang.state import JobState, dump_state

JOB = Job()


def test_dump_load_round_trip_mid_stream_behaves_identically() -> None:
    events = stream(JOB, 800, (Episode("hang", 400, sources=(3,)),))
    detector: Detector[JobState] = HangDetector()
    straight, out_a = detector.initial(), []
    for e in events:
        straight, o = detector.step(straight, e)
        out_a += o
    state, out_b = detector.initial(), []
    for i, e in enumerate(events):
        if i % 97 == 0:
            state = detector.load(json.loads(json.dumps(detector.dump(state))))
        state, o = detector.step(state, e)
        out_b += o
    assert [x.to_wire() for x in out_a] == [x.to_wire() for x in out_b]
    assert dump_state(state) == dump_state(straight)
    assert verdicts(out_b)


def test_flush_evaluates_once_per_time() -> None:
    detector = HangDetector()
    state = detector.initial()
    # up to 333 s only two probes agree (the stack run is 6 samples at 330.5): quorum 3 of 4
    for e in stream(JOB, 333, (Episode("hang", 300, sources=(3,)),)):
        state, out = detector.step(state, e)
        assert not verdicts(out)
    state, first = detector.flush(state, at(340))
    state, again = detector.flush(state, at(340))
    # every grid point not yet evaluated (335 and 340), in order; one verdict for the episode
    assert [o.KIND for o in first if o.KIND == "hang_vote"] == ["hang_vote", "hang_vote"]
    assert [o.window_end for o in first if o.KIND == "hang_vote"] == [at(335), at(340)]
    assert sum(o.KIND == "hang_verdict" for o in first) == 1
    assert again == []


def test_gpu_index_maps_to_the_nodes_ranks_in_rank_order() -> None:
    placement = (Placement(rank=0, node_id="a"), Placement(rank=5, node_id="b"),
                 Placement(rank=2, node_id="b"), Placement(rank=7, node_id="a"))
    events: list[Event] = [JobEvent(event_id="s", event_time=at(0), cluster="t", job_id="j",
                                    attempt=0, kind="scheduled", placement=placement)]
    stats = [GpuStats(index=i, util_pct=10.0 * (i + 1), sm_active=0.5, mem_used_bytes=0, temp_c=1,
                      power_w=1, ecc_sbe_total=0, ecc_dbe_total=0, nvlink_crc_errors_total=0,
                      pcie_replay_total=0, throttle_reasons=0) for i in range(3)]
    events.append(GpuSample(event_id="g", event_time=at(1), cluster="t", node_id="b", gpus=tuple(stats)))
    events.append(GpuSample(event_id="x", event_time=at(1), cluster="t", node_id="zzz", gpus=tuple(stats)))
    detector = HangDetector()
    state = detector.initial()
    for e in events:
        state, _ = detector.step(state, e)
    assert {r: p[-1][1] for r, p in state.run.gpu.items()} == {2: 10.0, 5: 20.0}


def test_memory_stays_bounded_over_a_long_run() -> None:
    detector = HangDetector()
    state = detector.initial()
    for e in stream(JOB, 3600):
        state, _ = detector.step(state, e)
    assert max(len(p) for p in state.run.gpu.values()) <= 62
    assert max(len(p) for p in state.run.net.values()) <= 62
    assert len(state.run.colls) == len(JOB.ranks)


def test_dump_is_a_snapshot_not_a_view_of_the_live_state() -> None:
    detector = HangDetector()
    state = detector.initial()
    events = stream(JOB, 200)
    for e in events[:400]:
        state, _ = detector.step(state, e)
    saved = json.dumps(detector.dump(state))
    dumped = detector.dump(state)
    for e in events[400:]:
        state, _ = detector.step(state, e)
    assert json.dumps(dumped) == saved
