"""Kubernetes: Pods and Jobs of a label selector -> :class:`JobView`, and a watch that relists on 410.

Objects are plain dicts in the API's JSON shape (camelCase, as ``kubectl get -o json`` prints
them). A training job is identified by the label ``job_label`` on its pods and on its
batch/v1 Job (default ``faultline.io/job-id``; else the pod's ``batch.kubernetes.io/job-name``
/ ``job-name`` label, and the Job's own name).

Rank of a pod: annotation or label ``faultline.io/rank``, else the Indexed Job's
``batch.kubernetes.io/job-completion-index``, else a literal ``RANK`` env of its first
container; pods without one are numbered after the others in name order. Node: ``spec.nodeName``.

Phase: the Job's ``Complete``/``Failed`` condition -> finished/failed; the Job deleted before
either -> cancelled; all expected pods (the Job's ``parallelism``, else the pods seen) placed
and Running -> running; all placed -> scheduled; else pending.

Attempt: annotation ``faultline.io/attempt`` on the Job when set; else, over the ranks, the
largest (pods ever seen for that rank - 1 + container restarts of its current pod): a
replaced pod or a container restarted in place is a new attempt.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from producers.scheduler.lifecycle import JobView, LifecycleTracker, Phase
from schemas import JobEvent, Placement, parse_time

log = logging.getLogger(__name__)

RANK_KEY = "faultline.io/rank"
ATTEMPT_KEY = "faultline.io/attempt"
INDEX_KEY = "batch.kubernetes.io/job-completion-index"
JOB_NAME_LABELS = ("batch.kubernetes.io/job-name", "job-name")


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    return obj.get("metadata") or {}


def _labels(obj: Mapping[str, Any]) -> Mapping[str, str]:
    return _meta(obj).get("labels") or {}


def _annotations(obj: Mapping[str, Any]) -> Mapping[str, str]:
    return _meta(obj).get("annotations") or {}


def _time(text: object) -> datetime | None:
    return parse_time(text) if isinstance(text, str) and text else None


def _int(text: object) -> int | None:
    return int(text) if isinstance(text, (str, int)) and str(text).strip().isdigit() else None


@dataclass(frozen=True)
class KubeSettings:
    """How pods and Jobs name the training job they belong to."""

    job_label: str = "faultline.io/job-id"

    def pod_job_id(self, pod: Mapping[str, Any]) -> str | None:
        labels = _labels(pod)
        return next((labels[k] for k in (self.job_label, *JOB_NAME_LABELS) if labels.get(k)), None)

    def job_job_id(self, job: Mapping[str, Any]) -> str | None:
        return _labels(job).get(self.job_label) or _meta(job).get("name")


def pod_rank(pod: Mapping[str, Any]) -> int | None:
    """The rank a pod declares (see the module docstring), or None."""
    for source in (_annotations(pod), _labels(pod)):
        for key in (RANK_KEY, INDEX_KEY):
            if (rank := _int(source.get(key))) is not None:
                return rank
    containers = (pod.get("spec") or {}).get("containers") or []
    env = (containers[0].get("env") or []) if containers else []
    return next((_int(e.get("value")) for e in env if e.get("name") == "RANK" and _int(e.get("value")) is not None),
                None)


def _restarts(pod: Mapping[str, Any]) -> int:
    statuses = (pod.get("status") or {}).get("containerStatuses") or []
    return max((int(s.get("restartCount") or 0) for s in statuses), default=0)


def _scheduled_at(pod: Mapping[str, Any]) -> datetime | None:
    for cond in (pod.get("status") or {}).get("conditions") or []:
        if cond.get("type") == "PodScheduled" and cond.get("status") == "True":
            return _time(cond.get("lastTransitionTime"))
    return None


def _job_condition(job: Mapping[str, Any]) -> tuple[Phase, datetime | None, str | None] | None:
    for cond in (job.get("status") or {}).get("conditions") or []:
        if cond.get("status") == "True" and cond.get("type") in ("Complete", "Failed"):
            phase: Phase = "finished" if cond["type"] == "Complete" else "failed"
            detail = " ".join(str(cond[k]) for k in ("reason", "message") if cond.get(k)) or None
            return phase, _time(cond.get("lastTransitionTime")), detail
    return None


def _ranked(pods: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """(rank, pod) for every pod: declared ranks first, the rest numbered after them by name."""
    declared = [(r, p) for p in pods if (r := pod_rank(p)) is not None]
    rest = sorted((p for p in pods if pod_rank(p) is None), key=lambda p: str(_meta(p).get("name")))
    start = max((r for r, _ in declared), default=-1) + 1
    return sorted(declared, key=lambda rp: rp[0]) + [(start + i, p) for i, p in enumerate(rest)]


@dataclass
class KubeState:
    """The pods and Jobs seen so far, by uid, and each rank's pod generations per job."""

    settings: KubeSettings = field(default_factory=KubeSettings)
    pods: dict[str, dict[str, Any]] = field(default_factory=dict)
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    deleted_jobs: set[str] = field(default_factory=set)
    generations: dict[str, dict[int, set[str]]] = field(default_factory=dict)

    def _job_of(self, kind: str, obj: Mapping[str, Any]) -> str | None:
        return self.settings.pod_job_id(obj) if kind == "Pod" else self.settings.job_job_id(obj)

    def apply(self, kind: str, event_type: str, obj: dict[str, Any]) -> str | None:
        """Apply one watch event (ADDED/MODIFIED/DELETED) of a Pod or Job; the job it touched."""
        uid, job_id = _meta(obj).get("uid"), self._job_of(kind, obj)
        if not uid or not job_id:
            return None
        store = self.pods if kind == "Pod" else self.jobs
        if event_type == "DELETED":
            store.pop(uid, None)
            if kind == "Job":
                self.deleted_jobs.add(job_id)
        else:
            store[uid] = obj
            if kind == "Pod" and (rank := pod_rank(obj)) is not None:
                self.generations.setdefault(job_id, {}).setdefault(rank, set()).add(uid)
        return job_id

    def replace(self, kind: str, items: list[dict[str, Any]]) -> set[str]:
        """A relist: objects missing from ``items`` were deleted meanwhile. The jobs touched."""
        store = self.pods if kind == "Pod" else self.jobs
        listed = {_meta(o).get("uid") for o in items}
        touched = {j for uid in [u for u in store if u not in listed]
                   if (j := self.apply(kind, "DELETED", store[uid])) is not None}
        return touched | {j for o in items if (j := self.apply(kind, "ADDED", o)) is not None}

    def _pods_of(self, job_id: str) -> list[dict[str, Any]]:
        return [p for p in self.pods.values() if self.settings.pod_job_id(p) == job_id]

    def _job(self, job_id: str) -> dict[str, Any] | None:
        return next((j for j in self.jobs.values() if self.settings.job_job_id(j) == job_id), None)

    def attempt(self, job_id: str, pods: list[dict[str, Any]], job: Mapping[str, Any] | None) -> int:
        """The job's attempt (see the module docstring)."""
        explicit = _int(_annotations(job).get(ATTEMPT_KEY)) if job else None
        if explicit is not None:
            return explicit
        gens = self.generations.get(job_id, {})
        current = {pod_rank(p): _restarts(p) for p in pods}
        return max((len(uids) - 1 + current.get(rank, 0) for rank, uids in gens.items()), default=0)

    def view(self, job_id: str) -> JobView | None:
        """The current view of ``job_id``; None when nothing of it is known."""
        pods, job = self._pods_of(job_id), self._job(job_id)
        if not pods and job is None and job_id not in self.deleted_jobs:
            return None
        active = [p for p in pods if (p.get("status") or {}).get("phase") not in ("Succeeded", "Failed")]
        placement = tuple(Placement(rank=r, node_id=p["spec"]["nodeName"]) for r, p in _ranked(active)
                          if (p.get("spec") or {}).get("nodeName"))
        created = [t for o in [*pods, *([job] if job else [])] if (t := _time(_meta(o).get("creationTimestamp")))]
        phase, ended_at, detail = self._phase(job_id, job, active, placement)
        scheduled = [t for p in active if (t := _scheduled_at(p))]
        return JobView(job_id=job_id, phase=phase, attempt=self.attempt(job_id, pods, job), placement=placement,
                       submitted_at=min(created) if created else None,
                       started_at=max(scheduled) if scheduled else None, ended_at=ended_at, detail=detail)

    def _phase(self, job_id: str, job: Mapping[str, Any] | None, active: list[dict[str, Any]],
               placement: tuple[Placement, ...]) -> tuple[Phase, datetime | None, str | None]:
        if job is not None and (cond := _job_condition(job)) is not None:
            return cond
        if job is None and job_id in self.deleted_jobs:
            return "cancelled", None, "Job deleted"
        expected = _int(((job or {}).get("spec") or {}).get("parallelism")) or len(active)
        if not active or len(active) < expected or len(placement) < len(active):
            return "pending", None, None
        running = all((p.get("status") or {}).get("phase") == "Running" for p in active)
        return ("running" if running else "scheduled"), None, None


class Gone(Exception):
    """The watch's resourceVersion expired (HTTP 410): the caller must list again."""


class WatchSource(Protocol):
    """A listable, watchable collection (the API server, or a recording in tests)."""

    def list(self) -> tuple[list[dict[str, Any]], str]:
        """Every object and the collection's resourceVersion; raises Gone on 410."""

    def watch(self, resource_version: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """(type, object) events after ``resource_version``; raises Gone on 410. May end at any
        time (a server-side timeout), after which the caller watches again from the last version."""


@dataclass
class FollowStats:
    """Counters of one follow loop."""

    lists: int = 0
    gone: int = 0
    events: int = 0


def follow(source: WatchSource, on_list: Callable[[list[dict[str, Any]]], None],
           on_event: Callable[[str, dict[str, Any]], None], stopped: Callable[[], bool],
           stats: FollowStats | None = None, pause: Callable[[float], object] = time.sleep) -> FollowStats:
    """List, then watch from the list's resourceVersion, re-watching from the last version seen
    when a watch ends, and listing again (``on_list`` with the full set) after a 410 Gone,
    whether raised or sent as an ``ERROR`` event. A watch that ends without any event is
    followed by ``pause(1.0)`` (no busy loop). Returns when ``stopped()`` is true."""
    stats = stats or FollowStats()
    version: str | None = None
    while not stopped():
        seen = stats.events
        try:
            if version is None:
                items, version = source.list()
                stats.lists += 1
                on_list(items)
            for event_type, obj in source.watch(version):
                version = _handle(event_type, obj, version, on_event, stats)
                if stopped():
                    break
        except Gone:
            stats.gone += 1
            version = None
            continue
        if stats.events == seen:
            pause(1.0)
    return stats


def _handle(event_type: str, obj: dict[str, Any], version: str,
            on_event: Callable[[str, dict[str, Any]], None], stats: FollowStats) -> str:
    if event_type == "ERROR":
        if obj.get("code") == 410:
            raise Gone(str(obj.get("message", "resourceVersion expired")))
        log.warning("watch error event: %s", obj)
        return version
    new_version = str(_meta(obj).get("resourceVersion") or version)
    if event_type != "BOOKMARK":
        stats.events += 1
        on_event(event_type, obj)
    return new_version


class KubeTranslator:
    """Watch events and relists of Pods and Jobs -> new job_events, through one tracker."""

    def __init__(self, state: KubeState, tracker: LifecycleTracker) -> None:
        self.state, self.tracker = state, tracker

    def _emit(self, jobs: set[str], now: datetime) -> list[JobEvent]:
        events: list[JobEvent] = []
        for job_id in sorted(jobs):
            if (view := self.state.view(job_id)) is not None:
                events += self.tracker.observe(view, now)
        return events

    def on_list(self, kind: str, items: list[dict[str, Any]], now: datetime) -> list[JobEvent]:
        """A (re)list of every ``kind`` object: the new events of the jobs it touched."""
        return self._emit(self.state.replace(kind, items), now)

    def on_event(self, kind: str, event_type: str, obj: dict[str, Any], now: datetime) -> list[JobEvent]:
        """One watch event: the new events of the job it touched."""
        job_id = self.state.apply(kind, event_type, obj)
        return self._emit({job_id} if job_id else set(), now)
