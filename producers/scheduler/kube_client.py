"""The Kubernetes side of ``faultline jobs kubernetes``: list/watch through the official client.

Two follow loops (Pods, batch/v1 Jobs of the label selector) run in threads and feed one
queue; the caller's thread applies them in arrival order to a :class:`KubeTranslator`.
A 410 Gone, raised by the client as ``ApiException(status=410)`` or sent as an ``ERROR``
watch event, makes the loop list again (see :func:`follow`).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from producers.hooks.sinks import Sink
from producers.scheduler.kubernetes import FollowStats, Gone, KubeTranslator, follow


@dataclass(frozen=True)
class KubeConnection:
    """Where the API server is and what to watch."""

    label_selector: str
    namespace: str | None = None
    kubeconfig: str | None = None
    context: str | None = None
    in_cluster: bool = False
    watch_timeout_s: int = 300


class ApiSource:
    """A :class:`WatchSource` over one list function of the kubernetes client."""

    def __init__(self, api_client: Any, list_fn: Callable[..., Any], conn: KubeConnection) -> None:
        self._api, self._list_fn, self._conn = api_client, list_fn, conn
        self._args: tuple[str, ...] = (conn.namespace,) if conn.namespace else ()

    def _gone(self, exc: Exception) -> Exception:
        return Gone(str(exc)) if getattr(exc, "status", None) == 410 else exc

    def list(self) -> tuple[list[dict[str, Any]], str]:
        from kubernetes.client.exceptions import ApiException

        try:
            resp = self._list_fn(*self._args, label_selector=self._conn.label_selector)
        except ApiException as exc:
            raise self._gone(exc) from exc
        items = [self._api.sanitize_for_serialization(item) for item in resp.items]
        return items, str(resp.metadata.resource_version)

    def watch(self, resource_version: str) -> Iterator[tuple[str, dict[str, Any]]]:
        from kubernetes import watch
        from kubernetes.client.exceptions import ApiException

        stream = watch.Watch().stream(self._list_fn, *self._args, label_selector=self._conn.label_selector,
                                      resource_version=resource_version, allow_watch_bookmarks=True,
                                      timeout_seconds=self._conn.watch_timeout_s)
        try:
            for event in stream:
                yield str(event["type"]), event["raw_object"]
        except ApiException as exc:
            raise self._gone(exc) from exc


def api_sources(conn: KubeConnection) -> dict[str, ApiSource]:
    """The Pod and Job sources of ``conn`` (loads the kubeconfig or the in-cluster config)."""
    from kubernetes import client, config

    if conn.in_cluster:
        config.load_incluster_config()
    else:
        config.load_kube_config(config_file=conn.kubeconfig, context=conn.context)
    api = client.ApiClient()
    core, batch = client.CoreV1Api(api), client.BatchV1Api(api)
    pods = core.list_namespaced_pod if conn.namespace else core.list_pod_for_all_namespaces
    jobs = batch.list_namespaced_job if conn.namespace else batch.list_job_for_all_namespaces
    return {"Pod": ApiSource(api, pods, conn), "Job": ApiSource(api, jobs, conn)}


def run_watch(sources: dict[str, Any], translator: KubeTranslator, sink: Sink, stop: threading.Event,
              clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> dict[str, FollowStats]:
    """Follow every source in its own thread and send the translated events until ``stop``."""
    inbox: queue.Queue[tuple[str, str, Any]] = queue.Queue()
    stats = {kind: FollowStats() for kind in sources}
    threads = [threading.Thread(target=follow, daemon=True, name=f"watch-{kind}", args=(
        source, lambda items, k=kind: inbox.put((k, "LIST", items)),
        lambda etype, obj, k=kind: inbox.put((k, etype, obj)), stop.is_set, stats[kind], stop.wait))
        for kind, source in sources.items()]
    for thread in threads:
        thread.start()
    while not stop.is_set() or not inbox.empty():
        try:
            kind, etype, payload = inbox.get(timeout=0.5)
        except queue.Empty:
            sink.poll()
            continue
        now = clock()
        events = (translator.on_list(kind, payload, now) if etype == "LIST"
                  else translator.on_event(kind, etype, payload, now))
        for event in events:
            sink.send(event)
    return stats
