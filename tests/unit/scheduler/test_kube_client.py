"""The client adapter's list path: kubernetes models -> API-shape dicts, ApiException 410 -> Gone.

The list function stands in for ``CoreV1Api.list_namespaced_pod`` (no API server can run
here); the models, their serialisation and the exception are the real client's.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from producers.scheduler.kube_client import ApiSource, KubeConnection
from producers.scheduler.kubernetes import Gone, KubeState, pod_rank


def test_list_returns_api_shaped_dicts_with_the_collection_version() -> None:
    calls: list[tuple[Any, ...]] = []

    def list_pods(*args: Any, **kwargs: Any) -> client.V1PodList:
        calls.append((args, kwargs))
        meta = client.V1ObjectMeta(name="llm-7-0", uid="u0", annotations={
            "batch.kubernetes.io/job-completion-index": "0"}, labels={"job-name": "llm-7"})
        pod = client.V1Pod(metadata=meta, spec=client.V1PodSpec(node_name="gpu-a", containers=[
            client.V1Container(name="trainer")]), status=client.V1PodStatus(phase="Running"))
        return client.V1PodList(items=[pod], metadata=client.V1ListMeta(resource_version="123"))

    source = ApiSource(client.ApiClient(), list_pods, KubeConnection(label_selector="app=train", namespace="ml"))
    items, version = source.list()
    assert version == "123" and calls == [(("ml",), {"label_selector": "app=train"})]
    assert items[0]["spec"]["nodeName"] == "gpu-a" and pod_rank(items[0]) == 0
    state = KubeState()
    assert state.replace("Pod", items) == {"llm-7"}


def test_a_410_from_the_client_is_gone_and_other_errors_pass_through() -> None:
    def expired(*args: Any, **kwargs: Any) -> None:
        raise ApiException(status=410, reason="Gone")

    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise ApiException(status=403, reason="Forbidden")

    with pytest.raises(Gone):
        ApiSource(client.ApiClient(), expired, KubeConnection(label_selector="a=b")).list()
    with pytest.raises(ApiException):
        ApiSource(client.ApiClient(), forbidden, KubeConnection(label_selector="a=b")).list()


def test_run_watch_feeds_both_kinds_through_one_translator() -> None:
    import threading
    import time

    from kube_objects import RecordedSource, job, pod

    from producers.hooks.sinks import ListSink
    from producers.scheduler.kube_client import run_watch
    from producers.scheduler.kubernetes import KubeTranslator
    from producers.scheduler.lifecycle import LifecycleTracker
    from schemas import JobEvent

    pods = RecordedSource([([pod("w0", "u0", 0)], "5")],
                          [[("MODIFIED", pod("w0", "u0", 0, node="n0", phase="Running", rv=6))]])
    jobs = RecordedSource([([job(parallelism=1)], "3")], [[("MODIFIED", job(parallelism=1, condition="Complete",
                                                                            rv=9))]])
    sink, stop = ListSink(), threading.Event()
    translator = KubeTranslator(KubeState(), LifecycleTracker("k8s"))
    thread = threading.Thread(target=run_watch, args=({"Job": jobs, "Pod": pods}, translator, sink, stop))
    thread.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(getattr(e, "kind", "") == "finished" for e in sink.events):
        time.sleep(0.05)
    stop.set()
    thread.join(30)
    kinds = [e.kind for e in sink.events if isinstance(e, JobEvent)]
    assert kinds[0] == "submitted" and kinds[-1] == "finished" and not thread.is_alive()
