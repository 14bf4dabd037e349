"""Pods and batch/v1 Jobs as the API server serialises them (``kubectl get -o json`` shape)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

T = "2026-11-23T10:00:{:02d}Z"


def pod(name: str, uid: str, index: int | None, *, node: str | None = None, phase: str = "Pending",
        restarts: int = 0, rv: int = 1, job: str = "llm-7", scheduled_s: int = 5,
        env_rank: int | None = None) -> dict[str, Any]:
    annotations = {"batch.kubernetes.io/job-completion-index": str(index)} if index is not None else {}
    conditions = [{"type": "PodScheduled", "status": "True", "lastTransitionTime": T.format(scheduled_s)}] if node else []
    container: dict[str, Any] = {"name": "trainer", "image": "trainer:1"}
    if env_rank is not None:
        container["env"] = [{"name": "MASTER_ADDR", "value": "llm-7-0"}, {"name": "RANK", "value": str(env_rank)}]
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "train", "uid": uid, "resourceVersion": str(rv),
                     "creationTimestamp": T.format(1), "annotations": annotations,
                     "labels": {"batch.kubernetes.io/job-name": job, "job-name": job}},
        "spec": {"containers": [container], **({"nodeName": node} if node else {})},
        "status": {"phase": phase, "conditions": conditions,
                   "containerStatuses": [{"name": "trainer", "restartCount": restarts}] if node else []},
    }


def job(name: str = "llm-7", uid: str = "job-uid", *, parallelism: int = 2, condition: str | None = None,
        rv: int = 1, attempt: int | None = None) -> dict[str, Any]:
    conditions = [{"type": condition, "status": "True", "lastTransitionTime": T.format(50),
                   "reason": "BackoffLimitExceeded" if condition == "Failed" else None}] if condition else []
    annotations = {"faultline.io/attempt": str(attempt)} if attempt is not None else {}
    return {
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name, "namespace": "train", "uid": uid, "resourceVersion": str(rv),
                     "creationTimestamp": T.format(0), "annotations": annotations, "labels": {"app": "train"}},
        "spec": {"parallelism": parallelism, "completions": parallelism, "completionMode": "Indexed"},
        "status": {"conditions": conditions},
    }


class RecordedSource:
    """Replays a recorded list/watch conversation; ``stop`` is set when it runs out."""

    def __init__(self, lists: list[tuple[list[dict[str, Any]], str]], watches: list[list[Any]]) -> None:
        self.lists, self.watches = lists, watches
        self.watched_from: list[str] = []
        self.done = False

    def list(self) -> tuple[list[dict[str, Any]], str]:
        return self.lists.pop(0)

    def watch(self, resource_version: str) -> Iterator[tuple[str, dict[str, Any]]]:
        self.watched_from.append(resource_version)
        if not self.watches:
            self.done = True
            return
        for item in self.watches.pop(0):
            if isinstance(item, Exception):
                raise item
            yield item
