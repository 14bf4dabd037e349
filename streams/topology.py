"""The pipeline's topology, declared once: every topic -> stage -> topic edge is here.

    telemetry.log, telemetry.kernel ---------------- classify --> faults.classified
    jobs.lifecycle -------------------------------- lifecycle --> placements.feed (by node)
    telemetry.gpu, telemetry.net, faults.classified,
    placements.feed ---------------------------------- route ---> jobs.feed (by job)
    telemetry.log, telemetry.stack, telemetry.collective,
    jobs.lifecycle, jobs.progress, jobs.feed ---------- jobs ----> hangs.votes, hangs.verdicts,
    (reorder -> hang -> slow -> incident -> policy -> ett)         nodes.outliers, incidents,
                                                                   ett.intervals, guards.feed
                                                                   (proposed decisions and the
                                                                   job's lifecycle, by cluster)
    guards.feed -------------------------------------- guards --> decisions

The Faust worker (``streams.app``) makes one agent per stage and ``faultline replay``
(``streams.replay``) one :class:`~streams.core.topology.LocalRunner` from :func:`build`; a
test compares their edges. Routing (node -> job, job -> cluster) is the ``lifecycle`` and
``route`` stages (``streams.core.routing``), nowhere else.
"""

from __future__ import annotations

from typing import Any

from schemas import Decision, JobEvent
from streams.classify.detector import ClassifyDetector
from streams.core.chain import JobPipeline
from streams.core.detector import Detector
from streams.core.routing import (
    LifecycleFanout,
    NodeRouter,
    classify_key,
    job_key,
    lifecycle_key,
    message_key,
)
from streams.core.topology import Stage, Topology

__all__ = ["JobPipeline", "Stage", "Topology", "build", "job_pipeline", "job_stages"]
from streams.decide.guards import GuardDetector
from streams.decide.policy import PolicyDetector
from streams.ett.detector import EttDetector
from streams.hang.detector import HangDetector
from streams.incident.detector import IncidentDetector
from streams.settings import DetectionSettings
from streams.slow.detector import SlowNodeDetector

JOB_INPUTS = ("telemetry.log", "telemetry.stack", "telemetry.collective", "jobs.lifecycle", "jobs.progress",
              "jobs.feed")
JOB_OUTPUTS = ("hangs.votes", "hangs.verdicts", "nodes.outliers", "incidents", "ett.intervals", "guards.feed")


def job_stages(settings: DetectionSettings) -> list[Detector[Any]]:
    """The detectors of one job's pipeline, in the order they see each event (and the outputs
    of those before them): hang verdicts and slow nodes feed the incidents, incidents and
    verdicts feed the policy, and the ETT accounting sees all of it."""
    return [HangDetector(settings.hang), SlowNodeDetector(settings.slow), IncidentDetector(settings.incident),
            PolicyDetector(settings.policy), EttDetector(settings.ett)]


def job_pipeline(settings: DetectionSettings) -> JobPipeline:
    """Reorder buffer, then the job's detectors."""
    return JobPipeline(job_stages(settings), settings.lateness_s, settings.max_skew_s, settings.path_skew_s,
                       settings.dead_node_s, settings.hang.quiet_tick_s)


def build(settings: DetectionSettings | None = None) -> Topology:
    """The topology with every detector built from ``settings`` (defaults if None)."""
    det = settings or DetectionSettings()
    return Topology((
        Stage("classify", ("telemetry.log", "telemetry.kernel"), classify_key, ClassifyDetector(det.classify),
              ("faults.classified",), tick_s=det.classify.quiet_s / 6, end_flush_at_infinity=True),
        Stage("lifecycle", ("jobs.lifecycle",), lifecycle_key, LifecycleFanout(), ("placements.feed",),
              state_every_s=0.0),
        Stage("route", ("telemetry.gpu", "telemetry.net", "faults.classified", "placements.feed"), message_key,
              NodeRouter(), ("jobs.feed",), tick_s=5.0, end_flush_at_infinity=True,
              state_every_s=0.0),  # small per-node state: a crash re-forwards as little as possible
        Stage("jobs", JOB_INPUTS, job_key, job_pipeline(det), JOB_OUTPUTS, tick_s=det.hang.eval_every_s,
              redirect=((Decision, "guards.feed", "cluster"), (JobEvent, "guards.feed", "cluster"))),
        Stage("guards", ("guards.feed",), message_key, GuardDetector(det.guards), ("decisions",),
              state_every_s=0.0),
    ))
