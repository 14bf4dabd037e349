"""Flight Recorder dumps -> collective_progress: parsing, safety, the live poller and `fr import`."""

from __future__ import annotations

import json
import os
import pickle
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fr_dumps import T0_NS, dump, entry, pickled, rank_dump

from producers.hooks.cli import fr_main
from producers.hooks.flight_recorder import (
    DumpError,
    FlightRecorderPoller,
    Source,
    canonical_op,
    group_progress,
    load_dump,
)
from schemas import CollectiveProgress, decode


def test_progress_per_group_from_entries() -> None:
    d = dump([entry(1, "completed"), entry(2, "completed"), entry(3, "started"), entry(4, "scheduled"),
              entry(1, "completed", pg="5", desc="tp", op="nccl:_reduce_scatter_base"),
              entry(2, "scheduled", pg="5", desc="tp", op="nccl:_reduce_scatter_base")])
    groups, skipped = group_progress(load_dump(pickled(d)))
    assert skipped == 0
    by = {g.comm_group: g for g in groups}
    assert (by["0"].last_enqueued_seq, by["0"].last_completed_seq, by["0"].in_flight_op) == (4, 2, "allreduce")
    assert by["0"].in_flight_since_ns == T0_NS + 3 * 1_000_000 + 1000  # seq 3 was discovered started
    assert (by["5"].last_enqueued_seq, by["5"].last_completed_seq, by["5"].in_flight_op) == (2, 1, "reducescatter")
    assert by["5"].in_flight_since_ns == T0_NS + 2 * 1_000_000  # scheduled only: its creation time


def test_pg_status_overrides_a_ring_that_lost_old_entries_and_p2p_is_left_out() -> None:
    d = dump([entry(7, "p2p-ignored", p2p=True, op="nccl:send"), entry(40, "completed")],
             pg_status={"0": {"last_enqueued_collective": 41, "last_started_collective": 41,
                              "last_completed_collective": 40},
                        "3": {"last_enqueued_collective": 2, "last_started_collective": -1,
                              "last_completed_collective": -1}})
    groups, _ = group_progress(d)
    by = {g.comm_group: g for g in groups}
    assert (by["0"].last_enqueued_seq, by["0"].last_completed_seq) == (41, 40)
    assert by["0"].in_flight_op is None  # the in-flight entry fell out of the ring: unknown op
    assert (by["3"].last_enqueued_seq, by["3"].last_completed_seq) == (2, 0)


def test_malformed_entries_are_counted_and_all_completed_means_nothing_in_flight() -> None:
    d = dump([entry(1, "completed"), {"state": "completed"}, {"collective_seq_id": "x", "pg_id": 0}])
    groups, skipped = group_progress(d)
    assert skipped == 2
    assert [(g.last_enqueued_seq, g.last_completed_seq, g.in_flight_op) for g in groups] == [(1, 1, None)]


def test_a_pickle_that_references_code_is_refused_without_running_it(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    with pytest.raises(DumpError, match="no objects"):
        load_dump(pickle.dumps({"entries": [Evil()]}))
    assert not marker.exists()
    for junk in (b"", b"\x80\x05garbage", b"[1, 2]", pickle.dumps([1, 2]), pickle.dumps({"entries": 3})):
        with pytest.raises(DumpError):
            load_dump(junk)


def test_torch_container_type_tags_are_read_as_plain_containers(monkeypatch: pytest.MonkeyPatch) -> None:
    """torch's C++ pickler may wrap containers in torch.jit._pickle.restore_type_tag(value, type)."""
    import sys
    import types

    jit_pickle = types.ModuleType("torch.jit._pickle")

    def restore_type_tag(value: object, type_str: str) -> object:
        return value

    restore_type_tag.__module__ = "torch.jit._pickle"
    restore_type_tag.__qualname__ = "restore_type_tag"
    jit_pickle.restore_type_tag = restore_type_tag  # type: ignore[attr-defined]  # a stand-in module
    for name, mod in (("torch", types.ModuleType("torch")), ("torch.jit", types.ModuleType("torch.jit")),
                      ("torch.jit._pickle", jit_pickle)):
        monkeypatch.setitem(sys.modules, name, mod)

    class Tagged:
        def __init__(self, value: object) -> None:
            self.value = value

        def __reduce__(self) -> tuple[object, tuple[object, str]]:
            return (restore_type_tag, (self.value, "List[Dict[str, Any]]"))

    data = pickle.dumps({"version": "2.5", "entries": Tagged(rank_dump(2, 3)["entries"])})
    monkeypatch.undo()  # read it without the stand-in: no torch needed
    groups, _ = group_progress(load_dump(data))
    assert [(g.last_enqueued_seq, g.last_completed_seq) for g in groups] == [(3, 2)]


def test_json_dumps_are_read_too() -> None:
    groups, _ = group_progress(load_dump(json.dumps(rank_dump(3, 5)).encode()))
    assert [(g.comm_group, g.last_enqueued_seq, g.last_completed_seq) for g in groups] == [("0", 5, 3)]


def test_canonical_op_names() -> None:
    assert [canonical_op(n) for n in ("nccl:all_reduce", "nccl:all_gather_into_tensor_coalesced", "gloo:broadcast",
                                      "nccl:_reduce_scatter_base", "nccl:all_to_all", "custom_op", None, "")] == [
        "allreduce", "allgather", "broadcast", "reducescatter", "alltoall", "customop", None, None]


def test_poller_emits_snapshots_and_counts_failures() -> None:
    emitted: list[CollectiveProgress] = []
    errors: list[str] = []
    payloads = [pickled(rank_dump(2, 3)), b"not a dump"]
    at = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    poller = FlightRecorderPoller(lambda: payloads.pop(0), Source("j", "node002", 6, "c"), emitted.append,
                                  errors.append, clock=lambda: at)
    assert poller.poll_once() == 1 and poller.poll_once() == 0
    assert errors == ["flight_recorder"]
    [event] = emitted
    assert (event.rank, event.node_id, event.comm_group, event.last_enqueued_seq, event.last_completed_seq,
            event.in_flight_op, event.event_time) == (6, "node002", "0", 3, 2, "allreduce", at)


def write_job(root: Path, prefix: str = "nccl_trace_rank_") -> None:
    """Four ranks on two nodes (a sub-directory per node); rank 2 never entered collective 11."""
    for rank, node in enumerate(("node001", "node001", "node002", "node002")):
        (root / node).mkdir(parents=True, exist_ok=True)
        enqueued = 10 if rank == 2 else 11
        (root / node / f"{prefix}{rank}").write_bytes(pickled(rank_dump(10, enqueued)))


def read_out(path: Path) -> list[CollectiveProgress]:
    events = [decode(line) for line in path.read_bytes().splitlines()]
    assert all(isinstance(e, CollectiveProgress) for e in events)
    return events  # type: ignore[return-value]  # checked above


def test_fr_import_emits_one_event_per_rank_and_group(tmp_path: Path) -> None:
    write_job(tmp_path / "dumps")
    out = tmp_path / "out.jsonl"
    code = fr_main(["import", str(tmp_path / "dumps"), "--job-id", "4242", "--cluster", "eos",
                    "--time", "last-activity", "--output", str(out)], env={})
    assert code == 0
    events = read_out(out)
    assert [(e.rank, e.node_id, e.last_enqueued_seq, e.last_completed_seq) for e in events] == [
        (0, "node001", 11, 10), (1, "node001", 11, 10), (2, "node002", 10, 10), (3, "node002", 11, 10)]
    assert {e.job_id for e in events} == {"4242"} and {e.cluster for e in events} == {"eos"}
    assert events[2].in_flight_op is None and events[0].in_flight_op == "allreduce"
    # last activity of rank 0: the creation of collective 11, later than the completion of 10
    assert events[0].event_time == datetime.fromtimestamp((T0_NS + 11 * 1_000_000) / 1e9, UTC)
    assert events[2].event_time == datetime.fromtimestamp((T0_NS + 10 * 1_000_000) / 1e9, UTC)  # ms on the wire


def test_fr_import_is_idempotent_and_maps_nodes(tmp_path: Path) -> None:
    write_job(tmp_path / "d", prefix="trace_")
    first, second = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    args = ["import", str(tmp_path / "d"), "--job-id", "9", "--prefix", "trace_", "--node", "3=gpu-b7"]
    assert fr_main([*args, "--output", str(first)], env={}) == 0
    assert fr_main([*args, "--output", str(second)], env={}) == 0
    a, b = read_out(first), read_out(second)
    assert [e.event_id for e in a] == [e.event_id for e in b] and len({e.event_id for e in a}) == 4
    assert a[3].node_id == "gpu-b7"
    mtime = datetime.fromtimestamp((tmp_path / "d" / "node001" / "trace_0").stat().st_mtime, UTC)
    assert abs((a[0].event_time - mtime).total_seconds()) < 0.001


def test_fr_import_reports_bad_files_and_bad_arguments(tmp_path: Path) -> None:
    root = tmp_path / "flat"
    root.mkdir()
    (root / "trace_0").write_bytes(pickled(rank_dump(1, 2)))
    (root / "trace_1").write_bytes(b"truncated")
    out = tmp_path / "o.jsonl"
    assert fr_main(["import", str(root), "--job-id", "j", "--output", str(out)], env={}) == 1
    [event] = read_out(out)
    assert event.rank == 0 and event.node_id == "unknown"
    (root / "other_5").write_bytes(b"x")
    assert fr_main(["import", str(root), "--job-id", "j", "--output", str(out)], env={}) == 2  # ambiguous prefix
    assert fr_main(["import", str(tmp_path / "missing"), "--job-id", "j", "-o", "-"], env={}) == 2
    assert fr_main(["import", str(root), "--job-id", "j", "--prefix", "trace_", "--node", "zero=n", "-o", "-"],
                   env={}) == 2
    assert fr_main(["import", str(root), "--job-id", "j", "--prefix", "nothing_", "-o", "-"], env={}) == 2


def test_hooks_poll_a_flight_recorder_in_the_background() -> None:
    from hook_kit import make_hooks, sent

    hooks = make_hooks(rank=1)
    poller = hooks.start_flight_recorder(dump=lambda: pickled(rank_dump(4, 5)), interval_s=0.01)
    assert poller is not None
    deadline = time.monotonic() + 30
    while poller.polls < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    events = [e for e in sent(hooks) if isinstance(e, CollectiveProgress)]  # close() stops the poller
    assert not poller.is_alive() and "error.submit_after_close" not in hooks.counters()
    assert len(events) >= 2 and {(e.rank, e.last_enqueued_seq, e.last_completed_seq) for e in events} == {(1, 5, 4)}


def test_without_torch_the_module_api_reports_no_flight_recorder() -> None:
    import importlib.util

    from producers import hooks as module
    from producers.hooks import HookSettings, ListSink

    module.init(HookSettings(job_id="j", node_id="n"), sink=ListSink())
    poller = module.flight_recorder()
    if importlib.util.find_spec("torch") is None:
        assert poller is None and module.counters()["error.flight_recorder_unavailable"] == 1
    else:
        assert poller is not None
        poller.stop()
    module.shutdown()
