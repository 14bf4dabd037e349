"""The classify detector: burst folding, closing, escalation, state round trip, determinism."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import pytest

from schemas import Event, Fault, JobEvent, LogLine
from streams.classify.classifier import Classifier
from streams.classify.detector import END_OF_INPUT, ClassifyDetector, ClassifyState
from streams.classify.settings import ClassifySettings

T0 = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
XID13 = "NVRM: Xid (PCI:0000:3b:00): 13, pid={pid}, name=python3, Graphics SM Warp Exception on (GPC 1, TPC 3, SM 0): Out Of Range Address"


def kernel(line: str, at: datetime, node: str = "node-7", n: int = 0) -> LogLine:
    return LogLine(event_id=f"e-{node}-{n}-{at.timestamp()}", event_time=at, cluster="c1", node_id=node,
                   source="kernel", line=line)


@pytest.fixture
def detector(classifier: Classifier) -> ClassifyDetector:
    return ClassifyDetector(ClassifySettings(), classifier)


def run(detector: ClassifyDetector, events: Iterable[Event], state: ClassifyState | None = None) -> tuple[ClassifyState, list[Fault]]:
    state = state if state is not None else detector.initial()
    out: list[Fault] = []
    for event in events:
        state, emitted = detector.step(state, event)
        out += [e for e in emitted if isinstance(e, Fault)]
    return state, out


def test_100k_repeated_xid_lines_fold_into_one_fault(classifier: Classifier) -> None:
    detector = ClassifyDetector(ClassifySettings(report_s=0), classifier)  # every line a report
    events = (kernel(XID13.format(pid=1000 + i % 13), T0 + timedelta(milliseconds=2 * i), n=i) for i in range(100_000))
    state, out = run(detector, events)
    assert out[0].count == 1  # announced at once
    assert isinstance(out[0], Fault)
    # then the same fault again each time the count doubles: 2, 4, ..., 65,536 (O(log n) events)
    assert [f.count for f in out] == [1] + [2**k for k in range(1, 17)]  # type: ignore[attr-defined]
    assert {f.fault_id for f in out} == {out[0].fault_id}  # type: ignore[attr-defined]
    state, closed = detector.flush(state, END_OF_INPUT)
    assert len(closed) == 1
    final = closed[0]
    assert isinstance(final, Fault)
    assert final.fault_id == out[0].fault_id == final.event_id
    assert final.count == 100_000
    assert final.first_seen == T0 and final.last_seen == T0 + timedelta(milliseconds=2 * 99_999)
    assert state.bursts == {}


MCE_REPORT = (  # one corrected machine check as arch/x86/kernel/cpu/mce/core.c print_mce() writes it
    "mce: [Hardware Error]: Machine check events logged",
    "mce: [Hardware Error]: CPU 12: Machine Check: 0 Bank 7: 8c00004000010090",
    "mce: [Hardware Error]: TSC 0 ADDR 3f8a2c140 MISC 140a8e86 ",
    "mce: [Hardware Error]: PROCESSOR 0:50657 TIME 1764230401 SOCKET 0 APIC 18 microcode 5003604",
)


def test_the_lines_of_one_report_count_once_and_a_flood_once_a_second(detector: ClassifyDetector) -> None:
    """Three corrected machine checks a minute apart, each printed as four lines in the same
    millisecond, count 3, not 12: the lemon threshold (10 a day) counts errors. A flood of
    one line every 100 ms for 5 s counts one report a second."""
    reports = [kernel(line, T0 + timedelta(seconds=60 * r, microseconds=k), n=10 * r + k)
               for r in range(3) for k, line in enumerate(MCE_REPORT)]
    state, out = run(detector, reports)
    counted = {f.fault_id: f.count for f in out}
    state, closed = detector.flush(state, END_OF_INPUT)
    counted.update({f.fault_id: f.count for f in closed if isinstance(f, Fault)})
    assert counted and max(counted.values()) == 3
    flood = [kernel(XID13.format(pid=7), T0 + timedelta(milliseconds=100 * i), n=i) for i in range(50)]
    state, out = run(detector, flood, detector.initial())
    _, closed = detector.flush(state, END_OF_INPUT)
    assert [f.count for f in closed if isinstance(f, Fault)] == [5]


def test_first_line_emits_fault_with_classification(detector: ClassifyDetector) -> None:
    _, out = run(detector, [kernel(XID13.format(pid=1), T0)])
    fault = out[0]
    assert (fault.category, fault.family, fault.level, fault.blame) == ("gpu_graphics_engine_fault", "gpu_hw", "error", "job")
    assert (fault.xid, fault.rule_id, fault.node_id, fault.count) == (13, "xid.nvrm", "node-7", 1)
    assert fault.event_id == fault.fault_id and fault.first_seen == T0 and fault.explicit


def test_quiet_gap_closes_burst_and_opens_a_new_one(detector: ClassifyDetector) -> None:
    lines = [kernel(XID13.format(pid=1), T0 + timedelta(seconds=s), n=s) for s in (0, 60, 120)]
    later = kernel(XID13.format(pid=2), T0 + timedelta(seconds=120 + 181), n=999)
    _, out = run(detector, [*lines, later])
    assert [f.count for f in out] == [1, 2, 3, 1]  # announced, the count at 2, closed at 3, a new one
    assert out[0].fault_id == out[1].fault_id == out[2].fault_id != out[3].fault_id
    assert out[2].last_seen == T0 + timedelta(seconds=120)


def test_repeats_within_quiet_window_keep_folding(detector: ClassifyDetector) -> None:
    # 170 s gaps never reach the 180 s quiet period: one burst however long it lasts.
    lines = [kernel(XID13.format(pid=1), T0 + timedelta(seconds=170 * i), n=i) for i in range(20)]
    state, out = run(detector, lines)
    assert [f.count for f in out] == [1, 2, 4, 8, 16] and len({f.fault_id for f in out}) == 1
    _, closed = detector.flush(state, END_OF_INPUT)
    assert [f.count for f in closed if isinstance(f, Fault)] == [20]


def test_flush_respects_quiet_and_is_idempotent(detector: ClassifyDetector) -> None:
    state, _ = run(detector, [kernel(XID13.format(pid=1), T0 + timedelta(seconds=s), n=s) for s in range(5)])
    state, early = detector.flush(state, T0 + timedelta(seconds=100))
    assert early == [] and len(state.bursts) == 1
    state, closed = detector.flush(state, T0 + timedelta(seconds=400))
    state, again = detector.flush(state, T0 + timedelta(seconds=400))
    assert [f.count for f in closed if isinstance(f, Fault)] == [5] and again == []


def test_single_line_burst_is_not_reissued(detector: ClassifyDetector) -> None:
    state, out = run(detector, [kernel(XID13.format(pid=1), T0)])
    _, closed = detector.flush(state, END_OF_INPUT)
    assert len(out) == 1 and closed == []


def test_different_gpus_and_rules_are_separate_bursts(detector: ClassifyDetector) -> None:
    other_gpu = "NVRM: Xid (PCI:0000:5d:00): 13, pid=3, name=python3, Graphics Exception"
    other_xid = "NVRM: Xid (PCI:0000:3b:00): 31, pid=3, name=python3, MMU Fault"
    _, out = run(detector, [kernel(XID13.format(pid=1), T0), kernel(other_gpu, T0, n=1), kernel(other_xid, T0, n=2)])
    assert len({f.fault_id for f in out}) == 3


def test_job_blamed_xid_repeating_in_separate_bursts_is_blamed_on_node(detector: ClassifyDetector) -> None:
    first = kernel(XID13.format(pid=1), T0)
    second = kernel(XID13.format(pid=2), T0 + timedelta(hours=2), n=1)
    _, out = run(detector, [first, second])
    assert [f.blame for f in out] == ["job", "node"]
    assert "escalated" in out[1].evidence


def test_escalation_needs_the_same_node_and_the_horizon(detector: ClassifyDetector) -> None:
    other_node = kernel(XID13.format(pid=2), T0 + timedelta(hours=1), node="node-8", n=1)
    too_late = kernel(XID13.format(pid=3), T0 + timedelta(hours=30), n=2)
    s1, out1 = run(detector, [kernel(XID13.format(pid=1), T0), other_node])
    _, out2 = run(detector, [kernel(XID13.format(pid=1), T0), too_late])
    assert [f.blame for f in out1] == ["job", "job"]
    assert [f.blame for f in out2] == ["job", "job"]


def test_node_blamed_faults_are_never_downgraded(detector: ClassifyDetector) -> None:
    xid79 = "NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus."
    _, out = run(detector, [kernel(xid79, T0)])
    assert (out[0].blame, out[0].level, out[0].category) == ("node", "fault", "gpu_fallen_off_bus")


def test_every_fault_carries_the_recommended_action(detector: ClassifyDetector) -> None:
    lines = [
        ("NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.", "reboot_node"),
        ("[74785.660366] pcieport 0000:00:02.0: AER: Corrected error received: id=0010", "none"),
        ("[    5.663152] mlx5_core: probe of 0000:01:00.0 failed with error -22", "replace_node"),
        ("NVRM: Xid (PCI:0000:3b:00): 154, GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)",
         "reboot_node"),
    ]
    _, out = run(detector, [kernel(line, T0 + timedelta(seconds=i), n=i) for i, (line, _) in enumerate(lines)])
    assert [f.action for f in out] == [action for _, action in lines]


def test_benign_lines_and_other_events_emit_nothing(detector: ClassifyDetector) -> None:
    job = JobEvent(event_id="j1", event_time=T0, cluster="c1", job_id="job-1", attempt=0, kind="running")
    state, out = run(detector, [kernel("nvidia-nvlink: Nvlink Core is being initialized", T0), job])
    assert out == [] and state.bursts == {}


def test_training_line_fault_carries_job_and_rank(detector: ClassifyDetector) -> None:
    line = LogLine(event_id="t1", event_time=T0, cluster="c1", node_id="node-3", job_id="job-9", rank=17,
                   source="training", line="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 5 has a total capacity of 79 GiB")
    _, out = run(detector, [line])
    assert (out[0].job_id, out[0].rank, out[0].category, out[0].gpu_index) == ("job-9", 17, "cuda_oom", 5)


def test_dump_load_round_trip_behaves_identically(detector: ClassifyDetector) -> None:
    head = [kernel(XID13.format(pid=i), T0 + timedelta(seconds=i), n=i) for i in range(10)]
    tail = [kernel(XID13.format(pid=i), T0 + timedelta(seconds=400 + i), n=100 + i) for i in range(3)]
    state, _ = run(detector, head)
    restored = detector.load(json.loads(json.dumps(detector.dump(state))))
    _, out_a = run(detector, tail, state)
    _, out_b = run(detector, tail, restored)
    assert [f.to_wire() for f in out_a] == [f.to_wire() for f in out_b]
    assert [f.count for f in out_a] == [10, 1, 2]  # the old burst closed; the new one announced, then at 2
    assert out_a[1].blame == "node"  # the escalation history survived the round trip


def test_ids_are_deterministic_across_detectors(classifier: Classifier) -> None:
    events = [kernel(XID13.format(pid=i), T0 + timedelta(seconds=200 * i), n=i) for i in range(4)]
    _, a = run(ClassifyDetector(ClassifySettings(), classifier), events)
    _, b = run(ClassifyDetector(ClassifySettings(), classifier), events)
    assert [f.fault_id for f in a] == [f.fault_id for f in b] and len({f.fault_id for f in a}) == 4


def test_open_bursts_are_capped(classifier: Classifier) -> None:
    detector = ClassifyDetector(ClassifySettings(max_open_bursts=3), classifier)
    lines = [kernel(f"NVRM: Xid (PCI:0000:{10 + i}:00): 13, pid=1, x", T0 + timedelta(seconds=i), n=i) for i in range(6)]
    lines += [kernel("NVRM: Xid (PCI:0000:10:00): 13, pid=1, x", T0 + timedelta(seconds=7), n=50)]
    state, _ = run(detector, lines)
    assert len(state.bursts) <= 3


def test_settings_are_validated() -> None:
    with pytest.raises(ValueError):
        ClassifySettings(quiet_s=0)
    assert ClassifySettings().quiet_s == 180.0
