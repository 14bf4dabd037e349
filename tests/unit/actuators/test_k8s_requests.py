"""Kubernetes request building (pure): what each decision sends to the API server."""

from __future__ import annotations

from actuator_decisions import decision

from sinks.actuators.base import tag
from sinks.actuators.k8s_requests import (
    DECISION_ANNOTATION,
    KubernetesSettings,
    eviction_body,
    job_hash,
    merge_taints,
    plan,
)

CFG = KubernetesSettings(job_label="app.example/job")


def test_replace_cluster_cordons_taints_and_evicts_the_jobs_pods_on_the_nodes() -> None:
    d = decision("replace_nodes", ("n1", "n2"), "cluster", job_id="train-7")
    p = plan(d, CFG)
    assert [op.node for op in p.nodes] == ["n1", "n2"]
    op = p.nodes[0]
    assert op.body["spec"] == {"unschedulable": True}
    assert op.body["metadata"]["annotations"] == {DECISION_ANNOTATION: tag(d)}
    assert op.taint == ("faultline.io/unhealthy", "single_node_fault", "NoSchedule")
    assert [(x.label_selector, x.field_selector, x.body) for x in p.pods] == [
        ("app.example/job=train-7", "spec.nodeName=n1", None),
        ("app.example/job=train-7", "spec.nodeName=n2", None)]


def test_replace_task_labels_nodes_for_the_job_without_cordoning() -> None:
    d = decision("replace_nodes", ("n1",), "task", job_id="train-7")
    p = plan(d, CFG)
    body = p.nodes[0].body
    assert "spec" not in body and p.nodes[0].taint is None
    assert body["metadata"]["labels"] == {f"avoid.faultline.io/{job_hash('train-7')}": "true"}
    assert len(job_hash("train-7")) == 16 and p.pods[0].field_selector == "spec.nodeName=n1"


def test_drain_reboot_cordons_with_noexecute_taint_and_reboot_label() -> None:
    p = plan(decision("drain_reboot_nodes", ("n3",)), CFG)
    op = p.nodes[0]
    assert op.taint is not None and op.taint[0] == "faultline.io/reboot-required" and op.taint[2] == "NoExecute"
    assert op.body["metadata"]["labels"] == {"faultline.io/reboot-requested": "true"}
    assert p.pods == ()


def test_job_wide_actions_touch_only_the_jobs_pods() -> None:
    for action in ("restart_in_place", "resubmit_job"):
        p = plan(decision(action, (), "none", job_id="j9"), CFG)
        assert p.nodes == () and [(x.label_selector, x.field_selector, x.body) for x in p.pods] == [
            ("app.example/job=j9", None, None)]
    ckpt = plan(decision("checkpoint_now", (), "none", job_id="j9"), CFG).pods[0]
    assert ckpt.body == {"metadata": {"annotations": {"faultline.io/checkpoint-requested": tag(decision("checkpoint_now", (), "none", job_id="j9"))}}}
    stop = plan(decision("stop_job", (), "none", job_id="j9"), CFG).pods[0]
    assert stop.body is not None and "faultline.io/stop-requested" in stop.body["metadata"]["annotations"]
    assert plan(decision("notify", (), "none"), CFG) == plan(decision("notify", ("n1",), "none"), CFG)
    assert plan(decision("notify", (), "none"), CFG).nodes == ()


def test_merge_taints_keeps_other_taints_and_replaces_the_same_key_and_effect() -> None:
    existing = [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},
                {"key": "faultline.io/unhealthy", "value": "old", "effect": "NoSchedule"},
                {"key": "faultline.io/unhealthy", "value": "x", "effect": "NoExecute"}]
    merged = merge_taints(existing, "faultline.io/unhealthy", "new", "NoSchedule")
    assert merged == [existing[0], existing[2],
                      {"key": "faultline.io/unhealthy", "value": "new", "effect": "NoSchedule"}]


def test_eviction_body_is_a_policy_v1_eviction() -> None:
    assert eviction_body("p-0", "ml", 30) == {
        "apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "p-0", "namespace": "ml"},
        "deleteOptions": {"gracePeriodSeconds": 30}}
