"""Every row of the restart policy table (TAXONOMY.md), through the policy and the guards."""

from __future__ import annotations

from datetime import timedelta

from decide_chain import decide_all, run_all
from decide_events import at, fault, hang, job, port_samples, running_job, slow, steps

from schemas import Decision, Event, HangSignals, derived_id
from streams.decide import GuardSettings, PolicySettings


def actions(decisions: list[Decision]) -> list[tuple[str, tuple[str, ...], str]]:
    return [(d.action, d.nodes, d.block_scope) for d in decisions]


def test_checkpoint_first_while_progressing_then_the_action() -> None:
    out = decide_all([*running_job(until=100), fault(105, "n2")])
    assert [d.action for d in out] == ["checkpoint_now", "replace_nodes"]
    ckpt, replace = out
    assert ckpt.policy_rule == "checkpoint_first" and ckpt.block_scope == "none" and ckpt.nodes == ()
    assert ckpt.reason.cause_ids == replace.reason.cause_ids
    assert ckpt.issued_at == replace.issued_at == at(105)


def test_no_checkpoint_when_the_job_no_longer_progresses() -> None:
    out = decide_all([*running_job(until=100), fault(100 + 61, "n2")])
    assert [d.action for d in out] == ["replace_nodes"]


def test_a_fault_during_a_checkpoint_asks_to_save_again_once_it_completes() -> None:
    # TAXONOMY: "training still progressing ... -> checkpoint_now first"; a save the job is
    # already writing took its state before the fault, so it does not stand in for one
    events = [*running_job(until=100), job("checkpoint_started", 101), fault(105, "n2")]
    out = decide_all(events)
    assert [d.action for d in out] == ["checkpoint_now", "replace_nodes"]
    assert "a checkpoint is in progress since" in out[0].reason.summary
    events.append(job("checkpoint_completed", 103))
    out = decide_all(events)
    assert [d.action for d in out] == ["checkpoint_now", "replace_nodes"]
    assert "in progress" not in out[0].reason.summary


def test_one_checkpoint_for_a_burst_of_causes() -> None:
    events = [*running_job(until=200), fault(105, "n2"), slow(150, "n3")]
    assert [d.action for d in decide_all(events)] == ["checkpoint_now", "replace_nodes", "replace_nodes"]


def test_single_node_explicit_fault_level_fault_replaces_with_cluster_block() -> None:
    out = decide_all([*running_job(until=100), fault(200, "n3", "gpu_memory_ecc")])
    assert actions(out) == [("replace_nodes", ("n3",), "cluster")]
    d = out[0]
    assert d.policy_rule == "single_node_fault" and d.guard is None
    assert d.reason.kind == "explicit_fault" and d.reason.category == "gpu_memory_ecc"


def test_single_node_explicit_error_replaces_and_drains_for_reboot() -> None:
    out = decide_all([*running_job(until=100), fault(200, "n3", "gpu_gsp_timeout", level="error")])
    assert actions(out) == [("replace_nodes", ("n3",), "cluster"),
                            ("drain_reboot_nodes", ("n3",), "cluster")]
    assert {d.policy_rule for d in out} == {"single_node_error"}
    assert all(d.guard is None for d in out)


def test_hang_localised_to_one_node_replaces_it_for_the_task() -> None:
    out = decide_all([*running_job(until=100), hang(300, ["n4"])])
    assert actions(out) == [("replace_nodes", ("n4",), "task")]
    assert out[0].reason.kind == "hang" and out[0].policy_rule == "hang_single_source"


def test_low_confidence_single_source_is_not_single_point() -> None:
    out = decide_all([*running_job(until=100), hang(300, ["n4"], confidence=0.2)])
    assert [d.action for d in out] == ["restart_in_place"]


def test_persistent_slow_node_replaced_for_the_task_transient_ignored() -> None:
    demanding = PolicySettings(slow_node_min_windows=3)
    out = decide_all([*running_job(until=400), slow(300, "n2", windows=1)], policy=demanding)
    assert out == []
    out = decide_all([*running_job(until=400), slow(300, "n2", windows=3)], policy=demanding)
    assert actions(out) == [("checkpoint_now", (), "none"), ("replace_nodes", ("n2",), "task")]
    assert out[1].reason.kind == "slow_node" and out[1].policy_rule == "slow_node_persistent"


def test_unlocalised_hang_restarts_in_place() -> None:
    out = decide_all([*running_job(until=100), hang(300, [])])
    assert actions(out) == [("restart_in_place", (), "none")]
    assert out[0].policy_rule == "not_single_point_hang"


def test_hang_on_several_nodes_restarts_in_place() -> None:
    out = decide_all([*running_job(until=100), hang(300, ["n1", "n2"])])
    assert [d.action for d in out] == ["restart_in_place"]


def test_node_faults_on_several_nodes_at_once_restart_in_place() -> None:
    f1, f2 = fault(200, "n1"), fault(230, "n2")
    out, incidents = run_all([*running_job(until=100), f1, f2])
    assert [d.action for d in out] == ["replace_nodes", "restart_in_place"]
    assert out[1].policy_rule == "not_single_point_multi_node"
    assert incidents[-1].nodes == ("n1", "n2") and incidents[-1].root_cause == f1.fault_id
    assert set(out[1].reason.cause_ids) == {incidents[-1].incident_id, f1.fault_id}


def test_node_faults_far_apart_are_each_single_point() -> None:
    roomy = GuardSettings(max_cluster_share=1.0)
    out = decide_all([*running_job(until=100), fault(200, "n1"), fault(200 + 121, "n2")], guards=roomy)
    assert actions(out) == [("replace_nodes", ("n1",), "cluster"), ("replace_nodes", ("n2",), "cluster")]


def test_network_fault_restarts_in_place_once_per_attempt() -> None:
    events = [*running_job(until=100),
              fault(200, "n1", "nccl_timeout", level="error", blame="network"),
              fault(201, "n2", "nccl_timeout", level="error", blame="network")]
    assert decide_all(events, until=at(259)) == []  # waits settle_s for a root cause to show up
    out = decide_all(events, until=at(260))
    assert actions(out) == [("restart_in_place", (), "none")]
    assert out[0].policy_rule == "not_single_point_network"


def test_restart_that_brings_no_progress_is_resubmitted() -> None:
    cfg = PolicySettings(restart_deadline_s=600)
    events = [*running_job(until=100), hang(300, []), job("restarting", 320, attempt=1),
              job("running", 400, attempt=1), job("running", 950, attempt=1)]
    out = decide_all(events, cfg)
    assert [d.action for d in out] == ["restart_in_place", "resubmit_job"]
    restart, resubmit = out
    assert resubmit.reason.kind == "restart_failed" and resubmit.policy_rule == "restart_failed"
    assert restart.decision_id in resubmit.reason.cause_ids
    assert resubmit.issued_at == at(950) and resubmit.attempt == 1


def test_restart_deadline_is_evaluated_on_flush_too() -> None:
    cfg = PolicySettings(restart_deadline_s=600)
    events = [*running_job(until=100), hang(300, []), job("restarting", 320, attempt=1),
              job("running", 1000, attempt=1)]
    assert [d.action for d in decide_all(events, cfg)] == ["restart_in_place", "resubmit_job"]
    events[-1] = job("running", 850, attempt=1)
    assert [d.action for d in decide_all(events, cfg)] == ["restart_in_place"]


def test_restart_that_brings_progress_is_not_resubmitted() -> None:
    cfg = PolicySettings(restart_deadline_s=600)
    events = [*running_job(until=100), hang(300, []), job("restarting", 320, attempt=1),
              *steps(500, 2000)]
    assert [d.action for d in decide_all(events, cfg)] == ["restart_in_place"]


def test_failure_of_the_restarted_attempt_resubmits_at_once() -> None:
    events = [*running_job(until=100), hang(300, []), job("restarting", 320, attempt=1),
              job("failed", 380, attempt=1)]
    out = decide_all(events)
    assert [d.action for d in out] == ["restart_in_place", "resubmit_job"]
    assert out[1].issued_at == at(380)


def test_job_fault_repeating_in_the_next_attempt_stops_the_job_and_notifies() -> None:
    oom0 = fault(200, "n1", "cuda_oom", level="error", blame="job", attempt=0)
    oom1 = fault(900, "n2", "cuda_oom", level="error", blame="job", attempt=1)
    events = [*running_job(until=190), oom0, job("restarting", 300, attempt=1), *steps(400, 880), oom1]
    out = decide_all(events, until=at(1000))
    assert actions(out) == [("stop_job", (), "none"), ("notify", (), "none")]
    assert out[0].policy_rule == "job_fault_repeated"
    assert set(out[0].reason.cause_ids) == {oom0.fault_id, oom1.fault_id}


def test_job_fault_first_occurrence_or_same_attempt_is_left_to_the_job() -> None:
    events = [*running_job(until=100), fault(200, "n1", "cuda_oom", level="error", blame="job"),
              fault(260, "n2", "cuda_oom", level="error", blame="job")]
    assert decide_all(events) == []


def test_storage_fault_only_notifies() -> None:
    out = decide_all([*running_job(until=100), fault(105, "n1", "storage_io", "error", "storage")])
    assert actions(out) == [("notify", (), "none")] and out[0].policy_rule == "storage_fault"


def test_a_fault_burst_arriving_twice_is_acted_on_once() -> None:
    first = fault(200, "n2")
    final = first.model_copy(update={"count": 17, "event_time": at(260), "last_seen": at(259)})
    out = decide_all([*running_job(until=100), first, final])
    assert actions(out) == [("replace_nodes", ("n2",), "cluster")]


def test_node_fault_without_job_id_is_routed_by_placement() -> None:
    out = decide_all([*running_job(until=100), fault(200, "n3", job_id=None)])
    assert [(d.job_id, d.action, d.nodes) for d in out] == [("j1", "replace_nodes", ("n3",))]


def test_causes_after_the_job_finished_are_ignored() -> None:
    events = [*running_job(until=100), job("finished", 150), fault(200, "n3")]
    assert decide_all(events) == []


def test_decision_ids_are_deterministic_and_name_their_causes() -> None:
    f = fault(200, "n3")
    events = [*running_job(until=100), f]
    out, incidents = run_all(events)
    assert [d.decision_id for d in out] == [d.decision_id for d in decide_all(list(reversed(events)))]
    d, causes = out[0], tuple(sorted({incidents[0].incident_id, f.fault_id}))
    assert d.decision_id == derived_id("decision", "j1", "replace_nodes", "single_node_fault", *causes)
    assert d.event_id == d.decision_id and d.reason.cause_ids == causes


def test_expires_at_is_issued_at_plus_ttl() -> None:
    out = decide_all([*running_job(until=100), fault(200, "n3")], PolicySettings(decision_ttl_s=42))
    assert out[0].expires_at == out[0].issued_at + timedelta(seconds=42)


def test_mass_node_failure_inside_one_job_is_one_restart_not_a_drain() -> None:
    nodes = [f"g{i:03d}" for i in range(256)]
    events = [*running_job(nodes=nodes, until=100), *[fault(200 + i * 0.1, nodes[i]) for i in range(200)]]
    out = decide_all(events, guards=GuardSettings(max_cluster_share=1.0, max_nodes_per_cluster=999))
    assert [d.action for d in out] == ["replace_nodes", "restart_in_place"]
    assert len(out[1].reason.cause_ids) == 2


def test_hang_verdict_of_an_older_attempt_is_ignored() -> None:
    events = [*running_job(until=100), job("restarting", 150, attempt=1), hang(300, [], attempt=0)]
    assert decide_all(events) == []


def test_slow_outlier_of_a_node_the_job_no_longer_holds_or_of_an_old_attempt_is_ignored() -> None:
    moved = [*running_job(until=400), job("scheduled", 200, attempt=1, nodes=["n1", "n5", "n3", "n4"]),
             slow(300, "n2")]
    assert decide_all(moved) == []
    old = slow(300, "n3").model_copy(update={"attempt": 0})
    assert decide_all([*running_job(until=400), job("restarting", 250, attempt=1), old]) == []


def test_corrected_errors_alone_never_take_a_node_until_the_lemon_threshold() -> None:
    cfg = PolicySettings(lemon_threshold=3)
    corrected = [fault(100 + 600 * i, "n2", "hardware_mce", "error", action="none") for i in range(3)]
    assert decide_all([*running_job(until=100), *corrected[:2]], policy=cfg) == []
    out = decide_all([*running_job(until=100), *corrected], policy=cfg)
    assert actions(out) == [("drain_reboot_nodes", ("n2",), "cluster"), ("notify", ("n2",), "none")]
    assert set(out[0].reason.cause_ids) == {f.fault_id for f in corrected}


def test_a_hang_seen_by_log_silence_alone_only_notifies() -> None:
    """A logs-and-steps-only job: a long evaluation looks like a hang; never restart on that."""
    events = [job("scheduled", 0, nodes=["n1", "n2"]), job("running", 1), *steps(2, 300),
              hang(900, [], signals=HangSignals(log_silent=True))]
    decided = decide_all(events)
    assert [(d.action, d.policy_rule) for d in decided] == [("notify", "weak_hang_evidence")]


def test_nccl_timeouts_of_a_hang_whose_source_is_being_replaced_are_its_cascade() -> None:
    # blind fleet oracle D2 (hang_single): the source node was replaced 40 s after the hang;
    # 12 min later the NCCL watchdog fired on every waiting rank, and those timeouts restarted
    # the job in place (TAXONOMY: cascade faults never drive a decision alone)
    events = [*running_job(until=100), hang(300, ["n4"]),
              *(fault(1000 + i, n, "nccl_timeout", level="error", blame="network") for i, n in enumerate(("n1", "n2")))]
    out = decide_all(events, until=at(1200))
    assert actions(out) == [("replace_nodes", ("n4",), "task")]


def _nccl(s: float, nodes: tuple[str, ...]) -> list[Event]:
    return [fault(s + i, n, "nccl_error", level="error", blame="network") for i, n in enumerate(nodes)]


def test_ports_down_on_several_nodes_with_one_port_error_line_is_the_fabric() -> None:
    # blind fleet oracle D2 (fabric): three nodes' ports went down together, one printed the
    # port error, the others IB completion errors; the policy replaced the one that printed
    # it and blocked it cluster-wide. TAXONOMY: several nodes' ports -> restart + notify.
    events = [*running_job(until=100), *(e for n in ("n1", "n2", "n3") for e in port_samples(n, 195)),
              fault(200, "n1", "ib_link", level="error", blame="network"), *_nccl(201, ("n2", "n3"))]
    out = decide_all(sorted(events, key=lambda e: e.event_time), until=at(300))
    assert sorted(a for a, _, _ in actions(out)) == ["notify", "restart_in_place"]
    assert {d.policy_rule for d in out} == {"fabric_network"}


def test_a_port_down_on_one_node_names_it_without_a_log_line() -> None:
    # blind fleet oracle D2 (nic_counters): one node's port DOWN and link_downed rising in its
    # net samples, only NCCL completion errors in the logs: the job was restarted in place
    # onto the same node. TAXONOMY: link_downed rising on one node -> replace that node.
    events = [*running_job(until=100), *port_samples("n2", 195), *port_samples("n1", None),
              *port_samples("n3", None), *_nccl(200, ("n1", "n2", "n3"))]
    out = decide_all(sorted(events, key=lambda e: e.event_time), until=at(300))
    assert actions(out) == [("replace_nodes", ("n2",), "cluster")]
    assert out[0].policy_rule == "node_local_network"
    assert out[0].reason.category == "ib_link"  # the link decided; the NCCL errors are its cascade


def test_a_port_that_was_never_up_is_no_evidence() -> None:
    # an unused (unplugged) port reports DOWN all along: it names no node
    events = [*running_job(until=100), *port_samples("n2", None, never_active=True), *_nccl(200, ("n1", "n2"))]
    out = decide_all(sorted(events, key=lambda e: e.event_time), until=at(300))
    assert actions(out) == [("restart_in_place", (), "none")]


def test_a_port_error_on_one_node_with_its_own_port_down_is_node_local() -> None:
    events = [*running_job(until=100), *port_samples("n1", 195), *port_samples("n2", None),
              fault(200, "n1", "ib_link", level="error", blame="network"), *_nccl(201, ("n2",))]
    out = decide_all(sorted(events, key=lambda e: e.event_time), until=at(300))
    assert ("replace_nodes", ("n1",), "cluster") in actions(out)
    assert "restart_in_place" not in [a for a, _, _ in actions(out)]
