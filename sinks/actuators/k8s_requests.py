"""Kubernetes requests for a decision, built as plain data (pure, tested without a server).

:func:`plan` maps a decision to node patches (cordon, taints, labels, the decision tag as an
annotation) and pod operations (evict or annotate the job's pods, found by a label selector
and optionally a node). :mod:`sinks.actuators.kubernetes` sends them with the official client.

| action | requests |
|---|---|
| ``replace_nodes``, scope ``cluster`` | cordon + taint ``faultline.io/unhealthy:NoSchedule``; evict the job's pods on the nodes |
| ``replace_nodes``, scope ``task`` | label ``avoid.faultline.io/<job hash>=true`` (the job's pod template keeps a NotIn node affinity on it); evict the job's pods on the nodes |
| ``drain_reboot_nodes`` | cordon + taint ``faultline.io/reboot-required:NoExecute`` (drains) + label ``faultline.io/reboot-requested=true`` for a node-maintenance operator |
| ``restart_in_place``, ``resubmit_job`` | evict all the job's pods (its controller recreates them) |
| ``checkpoint_now`` / ``stop_job`` | annotate the job's pods ``faultline.io/checkpoint-requested`` / ``faultline.io/stop-requested`` (a training sidecar or the job's operator acts) |
| ``notify`` | nothing |
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from schemas import Decision
from sinks.actuators.base import tag

UNHEALTHY_TAINT = "faultline.io/unhealthy"
REBOOT_TAINT = "faultline.io/reboot-required"
REBOOT_LABEL = "faultline.io/reboot-requested"
DECISION_ANNOTATION = "faultline.io/decision"
CHECKPOINT_ANNOTATION = "faultline.io/checkpoint-requested"
STOP_ANNOTATION = "faultline.io/stop-requested"

Body = dict[str, Any]


class KubernetesSettings(BaseModel):
    """How to reach the API server and find a job's pods."""

    model_config = ConfigDict(frozen=True)

    kubeconfig: str | None = None
    """Path of the kubeconfig file (the CLI passes ``$KUBECONFIG``); None: in-cluster config
    when ``in_cluster`` is set, else the actuator refuses to start."""
    in_cluster: bool = False
    """Use the pod's service account instead of a kubeconfig."""
    context: str | None = None
    """kubeconfig context; None: the current context."""
    job_label: str = "faultline.io/job-id"
    """Pod label whose value is the decision's ``job_id``."""
    grace_period_s: int = Field(default=30, ge=0)
    """Grace period of evictions (time for the training process to exit cleanly)."""


@dataclass(frozen=True)
class NodeOp:
    """One node patch; ``taint`` (key, value, effect) is merged into the node's current taints."""

    node: str
    body: Body
    taint: tuple[str, str, str] | None = None


@dataclass(frozen=True)
class PodOp:
    """Evict (``body`` None) or patch (``body``) every pod matching the selectors."""

    label_selector: str
    field_selector: str | None = None
    body: Body | None = None


@dataclass(frozen=True)
class KubePlan:
    """Everything one decision asks of the API server, in order: nodes first, then pods."""

    nodes: tuple[NodeOp, ...] = ()
    pods: tuple[PodOp, ...] = field(default_factory=tuple)


def job_hash(job_id: str) -> str:
    """A label-safe 16-hex-digit name for ``job_id``."""
    return hashlib.sha256(job_id.encode("utf-8")).hexdigest()[:16]


def node_body(decision: Decision, cordon: bool, labels: dict[str, str] | None = None) -> Body:
    """A node patch: optional cordon, labels, and the decision tag as an annotation."""
    meta: Body = {"annotations": {DECISION_ANNOTATION: tag(decision)}}
    if labels:
        meta["labels"] = dict(labels)
    body: Body = {"metadata": meta}
    if cordon:
        body["spec"] = {"unschedulable": True}
    return body


def merge_taints(existing: list[Body], key: str, value: str, effect: str) -> list[Body]:
    """``existing`` with (key, effect) set to ``value``: the node's taints list is replaced
    wholesale by a patch, so the current taints must be kept."""
    kept = [t for t in existing if not (t.get("key") == key and t.get("effect") == effect)]
    return [*kept, {"key": key, "value": value, "effect": effect}]


def taint_body(existing: list[Body], key: str, value: str, effect: str) -> Body:
    """The node patch that adds one taint to ``existing``."""
    return {"spec": {"taints": merge_taints(existing, key, value, effect)}}


def eviction_body(pod: str, namespace: str, grace_period_s: int) -> Body:
    """A ``policy/v1`` Eviction of one pod."""
    return {"apiVersion": "policy/v1", "kind": "Eviction",
            "metadata": {"name": pod, "namespace": namespace},
            "deleteOptions": {"gracePeriodSeconds": grace_period_s}}


def _job_pods(decision: Decision, cfg: KubernetesSettings, body: Body | None = None) -> list[PodOp]:
    selector = f"{cfg.job_label}={decision.job_id}"
    if not decision.nodes:
        return [PodOp(selector, None, body)]
    return [PodOp(selector, f"spec.nodeName={n}", body) for n in decision.nodes]


def _pod_annotation(decision: Decision, key: str) -> Body:
    return {"metadata": {"annotations": {key: tag(decision)}}}


def plan(decision: Decision, cfg: KubernetesSettings) -> KubePlan:
    """The requests that carry out ``decision`` (see the module table)."""
    action, rule = decision.action, decision.policy_rule
    if action == "replace_nodes" and decision.block_scope == "task":
        labels = {f"avoid.faultline.io/{job_hash(decision.job_id)}": "true"}
        nodes = tuple(NodeOp(n, node_body(decision, False, labels)) for n in decision.nodes)
        return KubePlan(nodes, tuple(_job_pods(decision, cfg)))
    if action == "replace_nodes":
        nodes = tuple(NodeOp(n, node_body(decision, True), (UNHEALTHY_TAINT, rule, "NoSchedule"))
                      for n in decision.nodes)
        return KubePlan(nodes, tuple(_job_pods(decision, cfg)))
    if action == "drain_reboot_nodes":
        labels = {REBOOT_LABEL: "true"}
        return KubePlan(tuple(NodeOp(n, node_body(decision, True, labels), (REBOOT_TAINT, rule, "NoExecute"))
                              for n in decision.nodes))
    if action in ("restart_in_place", "resubmit_job"):
        return KubePlan((), (PodOp(f"{cfg.job_label}={decision.job_id}"),))
    if action in ("checkpoint_now", "stop_job"):
        key = CHECKPOINT_ANNOTATION if action == "checkpoint_now" else STOP_ANNOTATION
        body = _pod_annotation(decision, key)
        return KubePlan((), (PodOp(f"{cfg.job_label}={decision.job_id}", None, body),))
    return KubePlan()
