"""The Kubernetes actuator: sends :mod:`~sinks.actuators.k8s_requests` plans with the official
client (``pip install faultline[kubernetes]``).

It runs against a real API server only when one is configured (a kubeconfig, normally
``$KUBECONFIG`` read by the CLI, or in-cluster credentials). No API server can be started in
this repository's test environment, so only the request building is tested, as pure logic
(tests/unit/actuators/test_k8s_requests.py); the calls below are thin and typed loosely.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from schemas import Actuation, Decision
from sinks.actuators.base import actuation, describe, tag
from sinks.actuators.errors import PermanentActuatorError, RetryableActuatorError
from sinks.actuators.k8s_requests import (
    DECISION_ANNOTATION,
    KubernetesSettings,
    NodeOp,
    PodOp,
    eviction_body,
    plan,
    taint_body,
)


def core_api(cfg: KubernetesSettings) -> Any:
    """A ``CoreV1Api`` for ``cfg``; PermanentActuatorError when nothing is configured."""
    try:
        from kubernetes import client, config
    except ImportError as exc:
        raise PermanentActuatorError("the kubernetes client is not installed: "
                                     "pip install 'faultline[kubernetes]'") from exc
    if cfg.in_cluster:
        config.load_incluster_config()
    elif cfg.kubeconfig:
        config.load_kube_config(config_file=cfg.kubeconfig, context=cfg.context)
    else:
        raise PermanentActuatorError("no Kubernetes API configured: set KUBECONFIG or --in-cluster")
    return client.CoreV1Api()


def _classify(exc: Exception, what: str) -> Exception:
    status = getattr(exc, "status", None)
    if isinstance(status, int) and (status == 429 or status >= 500):
        return RetryableActuatorError(f"{what}: HTTP {status}")
    if isinstance(status, int):
        return PermanentActuatorError(f"{what}: HTTP {status}: {getattr(exc, 'reason', exc)}")
    return RetryableActuatorError(f"{what}: {exc}")


class KubernetesActuator:
    """Cordons, taints, labels nodes and evicts/annotates a job's pods."""

    name = "kubernetes"

    def __init__(self, settings: KubernetesSettings, api: Any | None = None) -> None:
        self.settings = settings
        self.api = api if api is not None else core_api(settings)

    def apply(self, decision: Decision, now: datetime) -> Actuation:
        """Send the decision's plan: node patches first, then pod evictions/patches."""
        todo = plan(decision, self.settings)
        pods = 0
        for node_op in todo.nodes:
            self._call(f"patch node {node_op.node}", self._patch_node, node_op)
        for pod_op in todo.pods:
            pods += self._call(f"pods {pod_op.label_selector}", self._pods, pod_op)
        detail = f"{describe(decision)}: {len(todo.nodes)} node patch(es), {pods} pod operation(s)"
        return actuation(decision, self.name, "applied", detail, now)

    def recover(self, decision: Decision) -> bool:
        """True when every node of a node action carries the decision's annotation."""
        if not decision.nodes:
            return False
        for node in decision.nodes:
            meta = self._call(f"read node {node}", self.api.read_node, node).metadata
            if (meta.annotations or {}).get(DECISION_ANNOTATION) != tag(decision):
                return False
        return True

    def _call(self, what: str, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except (RetryableActuatorError, PermanentActuatorError):
            raise
        except Exception as exc:  # the client raises ApiException and urllib3 errors; classified
            raise _classify(exc, what) from exc

    def _patch_node(self, op: NodeOp) -> None:
        self.api.patch_node(op.node, op.body)
        if op.taint:
            current = self.api.read_node(op.node).spec.taints or []
            existing = [{"key": t.key, "value": t.value, "effect": t.effect} for t in current]
            self.api.patch_node(op.node, taint_body(existing, *op.taint))

    def _pods(self, op: PodOp) -> int:
        kwargs = {"label_selector": op.label_selector}
        if op.field_selector:
            kwargs["field_selector"] = op.field_selector
        items = self.api.list_pod_for_all_namespaces(**kwargs).items
        for pod in items:
            name, ns = pod.metadata.name, pod.metadata.namespace
            if op.body is None:
                body = eviction_body(name, ns, self.settings.grace_period_s)
                self.api.create_namespaced_pod_eviction(name, ns, body)
            else:
                self.api.patch_namespaced_pod(name, ns, op.body)
        return len(items)
