"""Every guard: duplicates, cooldown, flapping, per-job and per-cluster blast radius."""

from __future__ import annotations

from collections.abc import Sequence

from decide_chain import decide_all
from decide_events import at, fault, job

from schemas import Decision, Event, Reason, derived_id
from streams.decide import GuardDetector, GuardSettings
from streams.decide.guard_state import ClusterState


def proposed(s: float, node: str, job_id: str = "j1", action: str = "replace_nodes",
             scope: str = "cluster", cause: str | None = None) -> Decision:
    cause = cause or f"f-{node}-{s}"
    did = derived_id("decision", job_id, action, "test", cause)
    return Decision(event_id=did, event_time=at(s), cluster="c1", decision_id=did, job_id=job_id,
                    attempt=0, issued_at=at(s), action=action, nodes=(node,),  # type: ignore[arg-type]  # literal from str
                    block_scope=scope, reason=Reason(kind="explicit_fault", cause_ids=(cause,)),  # type: ignore[arg-type]  # literal from str
                    policy_rule="test", expires_at=at(s + 900))


def run(events: Sequence[Event], settings: GuardSettings | None = None,
        state: ClusterState | None = None) -> tuple[ClusterState, list[Decision]]:
    guards = GuardDetector(settings or GuardSettings(max_cluster_share=1.0))
    state = state or guards.initial()
    out: list[Decision] = []
    for event in events:
        state, emitted = guards.step(state, event)
        out += [d for d in emitted if isinstance(d, Decision)]
    return state, out


def test_non_taking_decisions_pass_unchanged() -> None:
    d = proposed(10, "n1", action="restart_in_place", scope="none")
    assert run([d])[1] == [d]


def test_duplicate_decision_id_is_suppressed() -> None:
    d = proposed(10, "n1")
    _, out = run([d, d, d.model_copy(update={"event_time": at(99)})])
    assert out == [d]


def test_duplicates_suppressed_across_a_dump_load_restart() -> None:
    guards, d = GuardDetector(), proposed(10, "n1")
    state, _ = run([d])
    reloaded = guards.load(guards.dump(state))
    assert guards.step(reloaded, d)[1] == []


def test_node_cooldown_refuses_a_second_block_of_a_node_still_out() -> None:
    first, again = proposed(10, "n1", "j1"), proposed(600, "n1", "j2")
    _, out = run([first, again])
    assert out[0] == first
    refused, fallback, notify = out[1:]
    assert refused.guard is not None and refused.guard.refused and refused.guard.rule == "node_cooldown"
    assert (fallback.job_id, fallback.action, notify.action) == ("j2", "restart_in_place", "notify")
    assert refused.action == "replace_nodes" and refused.nodes == ("n1",)
    assert refused.decision_id == derived_id("decision", "j2", again.decision_id, "guard", "node_cooldown")


def test_cooldown_ends_after_its_duration_and_spares_companions() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, node_cooldown_s=3600)
    first = proposed(10, "n1", cause="f1")
    companion = proposed(10, "n1", action="drain_reboot_nodes", cause="f1")
    later = proposed(10 + 3601, "n1", cause="f2")
    _, out = run([first, companion, later], cfg)
    assert out == [first, companion, later]


def test_task_block_does_not_cool_a_cluster_block_of_another_job() -> None:
    task = proposed(10, "n1", "j1", scope="task")
    cluster = proposed(20, "n1", "j2", scope="cluster")
    assert run([task, cluster])[1] == [task, cluster]


def test_flapping_node_gets_cluster_block_and_notify() -> None:
    first = proposed(10, "n1", "j1", scope="task")
    back = job("scheduled", 500, "j1", attempt=1, nodes=["n1", "n2"])
    again = proposed(900, "n1", "j1", scope="task")
    _, out = run([first, back, again])
    assert out[0] == first
    upgraded, notify = out[1], out[2]
    assert upgraded.action == "replace_nodes" and upgraded.block_scope == "cluster"
    assert upgraded.guard is not None and not upgraded.guard.refused
    assert upgraded.guard.rule == "flapping_node"
    assert notify.action == "notify" and notify.nodes == ("n1",) and notify.guard is not None
    assert notify.guard.rule == "flapping_node"
    assert len({first.decision_id, upgraded.decision_id, notify.decision_id}) == 3


def test_node_back_after_flap_window_is_not_flapping() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, flap_window_s=600)
    first = proposed(10, "n1", scope="cluster")
    back = job("scheduled", 500, "j2", nodes=["n1"])
    again = proposed(500 + 601, "n1", "j2", scope="cluster")
    assert run([first, back, again], cfg)[1] == [first, again]


def test_per_job_limit_refuses_and_falls_back_to_a_restart_in_place_plus_notify() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, max_nodes_per_job=2)
    ds = [proposed(10 * i, f"n{i}", scope="task") for i in range(1, 4)]
    _, out = run(ds, cfg)
    assert out[:2] == ds[:2]
    refused, fallback, notify = out[2:]
    assert refused.action == "replace_nodes" and refused.nodes == ("n3",)
    assert refused.guard is not None and refused.guard.refused and refused.guard.rule == "job_blast_radius"
    assert (fallback.action, fallback.nodes, fallback.block_scope) == ("restart_in_place", (), "none")
    assert fallback.guard is not None and not fallback.guard.refused and fallback.guard.rule == "refused_fallback"
    assert notify.action == "notify" and notify.nodes == ("n3",) and notify.guard is not None
    assert fallback.decision_id == derived_id("decision", "j1", ds[2].decision_id, "fallback", "restart_in_place")


def test_per_job_limit_scales_with_the_job_size() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, max_nodes_per_job=2, max_job_share=0.05)
    big = job("scheduled", 0, "j1", nodes=[f"n{i}" for i in range(100)])
    ds = [proposed(10 * i, f"n{i}", scope="task") for i in range(1, 7)]
    state, out = run([big, *ds], cfg)
    assert GuardDetector(cfg).job_limit(state, "j1") == 5
    assert out[:5] == ds[:5]
    assert out[5].guard is not None and out[5].guard.rule == "job_blast_radius"


def test_refusal_after_a_restart_of_an_earlier_attempt_falls_back_to_resubmit() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, max_nodes_per_job=0)
    restart = proposed(10, "n1", action="restart_in_place", scope="none").model_copy(update={"nodes": ()})
    again = proposed(900, "n2").model_copy(update={"attempt": 1})
    _, out = run([restart, again], cfg)
    assert [d.action for d in out] == ["restart_in_place", "replace_nodes", "resubmit_job", "notify"]
    assert out[2].reason.kind == "restart_failed"


def test_refused_companion_gets_no_second_fallback_and_own_cooldown_none() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, max_nodes_per_job=0)
    replace = proposed(10, "n1", cause="f1")
    drain = proposed(10, "n1", action="drain_reboot_nodes", cause="f1")
    _, out = run([replace, drain], cfg)
    assert [d.action for d in out] == ["replace_nodes", "restart_in_place", "notify", "drain_reboot_nodes"]
    first, again = proposed(10, "n1", "j1"), proposed(600, "n1", "j1", cause="f2")
    _, out = run([first, again])
    assert [d.action for d in out] == ["replace_nodes", "replace_nodes"]
    assert out[1].guard is not None and out[1].guard.rule == "node_cooldown"


def test_per_job_limit_window_slides() -> None:
    cfg = GuardSettings(max_cluster_share=1.0, max_nodes_per_job=1, window_s=3600)
    a, b = proposed(10, "n1", scope="task"), proposed(10 + 3600, "n2", scope="task")
    assert run([a, b], cfg)[1] == [a, b]


def test_cluster_limit_absolute_refuses_and_alerts_once() -> None:
    cfg = GuardSettings(max_nodes_per_cluster=2, max_cluster_share=1.0, max_nodes_per_job=99)
    ds = [proposed(10 * i, f"n{i}", job_id=f"j{i}") for i in range(1, 6)]
    _, out = run(ds, cfg)
    assert out[:2] == ds[:2]
    refused = [d for d in out if d.guard and d.guard.refused]
    assert len(refused) == 3 and {d.guard.rule for d in refused if d.guard} == {"cluster_blast_radius"}
    alerts = [d for d in out if d.guard and d.guard.rule == "cluster_blast_radius_alert"]
    assert len(alerts) == 1 and alerts[0].action == "notify"
    fallbacks = [d for d in out if d.guard and d.guard.rule == "refused_fallback"]
    assert sorted((d.job_id, d.action) for d in fallbacks) == sorted(
        [(f"j{i}", a) for i in range(3, 6) for a in ("restart_in_place", "notify")])


def test_cluster_share_uses_configured_or_observed_size() -> None:
    guards = GuardDetector(GuardSettings(max_cluster_share=0.1, max_nodes_per_cluster=100))
    state = guards.initial()
    assert guards.cluster_limit(state) == 100
    state, _ = guards.step(state, job("scheduled", 0, nodes=[f"n{i}" for i in range(40)]))
    assert guards.cluster_limit(state) == 4
    sized = GuardDetector(GuardSettings(max_cluster_share=0.1, cluster_size=1000))
    assert sized.cluster_limit(sized.initial()) == 16


def test_mass_failure_is_stopped_at_the_configured_share_of_the_cluster() -> None:
    """200 node faults across a 256-node cluster within an hour: at most 5 % are drained."""
    nodes = [f"node{i:03d}" for i in range(256)]
    events: list[Event] = [job("scheduled", 0, f"job{i:03d}", nodes=[n]) for i, n in enumerate(nodes)]
    events += [fault(60 + 15 * i, nodes[i], "gpu_fallen_off_bus", job_id=f"job{i:03d}")
               for i in range(200)]
    out = decide_all(events)
    taken = {n for d in out if d.action == "replace_nodes" and not d.guard for n in d.nodes}
    refused = [d for d in out if d.guard and d.guard.refused]
    assert len(taken) == 12  # floor(0.05 * 256)
    assert len(refused) == 200 - 12
    assert all(d.guard and d.guard.rule == "cluster_blast_radius" for d in refused)
    assert all(d.action == "replace_nodes" for d in refused)
    alerts = [d for d in out if d.guard and d.guard.rule == "cluster_blast_radius_alert"]
    assert len(alerts) == 1
    restarted = {d.job_id for d in out if d.action == "restart_in_place"}
    assert restarted == {d.job_id for d in refused}  # no refused job is left alone


def test_refused_decision_ids_are_deterministic() -> None:
    nodes = [f"node{i}" for i in range(10)]
    events: list[Event] = [job("scheduled", 0, f"job{i}", nodes=[n]) for i, n in enumerate(nodes)]
    events += [fault(60 + i, nodes[i], job_id=f"job{i}") for i in range(5)]
    assert [d.decision_id for d in decide_all(events)] == [d.decision_id for d in decide_all(events)]
