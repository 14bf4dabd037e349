"""The incident stage: grouping, root cause, attempts, settling, ids and state round trip."""

from __future__ import annotations

import json

from incident_events import at, fault, latest, lifecycle, run

from schemas import derived_id
from streams.decide import severity as policy_severity
from streams.incident import IncidentDetector, IncidentSettings, severity


def test_root_cause_is_the_infrastructure_fault_and_the_rest_is_cascade() -> None:
    xid = fault(100, "n1", "gpu_fallen_off_bus", level="fault", action="reboot_node")
    nccl = [fault(101 + i, f"n{i + 2}", "nccl_error", blame="network", action="restart_app") for i in range(3)]
    elastic = fault(106, "n1", "torch_elastic", blame="job", action="restart_app")
    out = run([lifecycle("scheduled", 0, nodes=["n1", "n2", "n3", "n4"]), xid, *nccl, elastic])
    (incident,) = latest(out).values()
    assert incident.root_cause == xid.fault_id and incident.category == "gpu_fallen_off_bus"
    assert set(incident.cascade) == {f.fault_id for f in [*nccl, elastic]}
    assert incident.nodes == ("n1",) and incident.blame == "node"
    assert incident.incident_id == derived_id("incident", "j1", 0, xid.fault_id)
    assert incident.first_seen == at(100) and incident.last_seen == at(106)
    assert out[0].event_time == at(100)  # an infrastructure root cause is published at once


def test_symptoms_first_wait_for_the_root_cause_that_arrives_later() -> None:
    nccl = [fault(100 + i, f"n{i + 2}", "nccl_error", blame="network") for i in range(3)]
    xid = fault(98, "n1", "gpu_fallen_off_bus", level="fault", arrives=115)
    out = run([*nccl, xid])
    assert [i.root_cause for i in out] == [xid.fault_id]


def test_symptom_only_incident_is_published_after_settle_s() -> None:
    nccl = fault(100, "n2", "nccl_timeout", blame="network")
    assert run([nccl], until=159) == []
    (incident,) = run([nccl], until=160)
    assert incident.root_cause == nccl.fault_id and incident.event_time == at(160)


def test_job_error_explains_the_incident_only_without_an_infrastructure_fault() -> None:
    oom = fault(100, "n2", "cuda_oom", blame="job")
    elastic = fault(101, "n1", "torch_elastic", blame="job")
    (incident,) = latest(run([elastic, oom], until=200)).values()
    assert incident.root_cause == oom.fault_id and incident.blame == "job"
    gsp = fault(110, "n3", "gpu_gsp_timeout", action="reset_gpu")
    (incident,) = latest(run([elastic, oom, gsp], until=200)).values()
    assert incident.root_cause == gsp.fault_id


def test_corrected_errors_are_incidents_of_their_own_and_never_widen_another() -> None:
    corrected = fault(100, "n2", "hardware_mce", action="none")
    xid = fault(150, "n1", "gpu_fallen_off_bus", level="fault")
    incidents = latest(run([corrected, xid]))
    assert sorted(i.nodes for i in incidents.values()) == [("n1",), ("n2",)]
    assert all(i.cascade == () for i in incidents.values())


def test_second_node_fault_within_the_window_widens_the_incident() -> None:
    a = fault(100, "n1", "gpu_fallen_off_bus", level="fault")
    b = fault(160, "n2", "gpu_memory_ecc", level="fault", action="reset_gpu")
    c = fault(100 + 121, "n3", "gpu_memory_ecc", level="fault", action="reset_gpu")
    incidents = latest(run([a, b, c]))
    assert sorted(i.nodes for i in incidents.values()) == [("n1", "n2"), ("n3",)]


def test_a_storage_error_seen_on_another_node_does_not_widen_a_node_fault() -> None:
    """A GPU lost on n1 and, on n2, a socket's ENOTCONN read as a storage error: one faulty
    node, not two (the file system failing says nothing about the node that saw it)."""
    xid = fault(100, "n1", "gpu_memory_ecc", level="fault", action="reset_gpu")
    seen = fault(125, "n2", "storage_io", blame="storage", action="restart_app")
    (incident,) = latest(run([xid, seen])).values()
    assert incident.nodes == ("n1",) and incident.category == "gpu_memory_ecc"
    assert incident.cascade == (seen.fault_id,)
    storage = latest(run([fault(100, "n1", "storage_io", blame="storage", action="restart_app"),
                          fault(110, "n2", "storage_remote_fs", blame="storage", action="restart_app")]))
    assert [i.nodes for i in storage.values()] == [("n1", "n2")]


def test_late_watchdog_timeouts_join_the_incident_that_caused_them() -> None:
    xid = fault(100, "n1", "gpu_fallen_off_bus", level="fault")
    watchdog = fault(100 + 600, "n2", "nccl_timeout", blame="network")
    (incident,) = latest(run([xid, watchdog])).values()
    assert incident.cascade == (watchdog.fault_id,) and incident.last_seen == at(700)


def test_attempt_by_event_time_so_a_late_line_counts_for_its_own_attempt() -> None:
    late = fault(195, "n2", "cuda_oom", blame="job", arrives=225)
    events = [lifecycle("scheduled", 0, nodes=["n1", "n2"]), lifecycle("failed", 198),
              lifecycle("restarting", 200, attempt=1), late, fault(300, "n2", "segfault", blame="job")]
    incidents = latest(run(events, until=1000))
    assert sorted((i.attempt, i.category) for i in incidents.values()) == [(0, "cuda_oom"), (1, "segfault")]


def test_the_producers_attempt_wins_over_event_time() -> None:
    events = [lifecycle("scheduled", 0, nodes=["n2"]), lifecycle("restarting", 200, attempt=1),
              fault(250, "n2", "cuda_oom", blame="job", attempt=0)]
    (incident,) = run(events, until=1000)
    assert incident.attempt == 0


def test_reissued_fault_extends_last_seen_under_the_same_id() -> None:
    xid = fault(100, "n1", "gpu_fallen_off_bus", level="fault")
    final = xid.model_copy(update={"count": 9, "last_seen": at(140), "event_time": at(140)})
    out = run([xid, final])
    assert [i.incident_id for i in out] == [out[0].incident_id] * 2
    assert out[-1].last_seen == at(140) and out[-1].cascade == ()


def test_flush_is_idempotent_and_dump_load_is_exact() -> None:
    events = [lifecycle("scheduled", 0, nodes=["n1", "n2"]), fault(100, "n2", "nccl_error", blame="network"),
              fault(101, "n1", "cuda_oom", blame="job"), lifecycle("restarting", 300, attempt=1),
              fault(310, "n1", "gpu_fallen_off_bus", level="fault"), fault(320, "n2", "hardware_mce", action="none"),
              fault(990, "n2", "segfault", blame="job")]
    assert run(events, until=1000, reload_each_step=True) == run(events, until=1000)
    detector = IncidentDetector()
    state = detector.initial()
    for event in events:
        state, _ = detector.step(state, event)
    state, first = detector.flush(state, at(1100))
    state, second = detector.flush(state, at(1100))
    assert len(first) == 1 and second == []
    assert detector.dump(detector.load(json.loads(json.dumps(detector.dump(state))))) == detector.dump(state)


def test_state_stays_bounded() -> None:
    cfg = IncidentSettings(max_incidents=4, memory_s=600)
    events = [fault(1000.0 * i, "n1", "gpu_fallen_off_bus", level="fault") for i in range(20)]
    detector = IncidentDetector(cfg)
    state = detector.initial()
    for event in events:
        state, _ = detector.step(state, event)
    assert len(state.incidents) <= 4 and len(state.fault_incident) <= 4


def test_the_policy_reads_faults_exactly_as_the_incident_stage_does() -> None:
    assert severity.CASCADE == policy_severity.CASCADE
    assert severity.NETWORK_SYMPTOMS == policy_severity.NETWORK_SYMPTOMS
    assert severity.WEAK_JOB == policy_severity.WEAK_JOB
    cases = [("gpu_fallen_off_bus", "node", "fault", a) for a in (None, "RESTART_BM", "IGNORE", "reset_gpu")]
    cases += [("hardware_mce", "node", "error", None), ("nccl_error", "network", "error", "restart_app"),
              ("cuda_oom", "job", "error", "restart_app"), ("gpu_memory_ecc", "node", "fault", "restart_app"),
              ("storage_io", "storage", "error", "none"), ("torch_elastic", "job", "error", None),
              ("cuda_launch_failure", "job", "error", "restart_app")]
    for category, blame, level, action in cases:
        f = fault(1, "n1", category, blame=blame, level=level, action=action)
        assert severity.action_of(f) == policy_severity.action_of(f)
        assert severity.tier_of(f) == policy_severity.tier_of(f)
    assert severity.action_of(fault(1, "n1", "x", action="WORKFLOW_XID_48")) == "reset_gpu"
    assert severity.tier_of(fault(1, "n1", "gpu_memory_ecc", action="restart_app")) == severity.TIER_CONTAINED
