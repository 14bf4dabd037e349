"""The one place detector instances are built from settings, for replay and for the agents."""

from __future__ import annotations

from typing import Any

from streams.classify.detector import ClassifyDetector
from streams.core.chain import Chain, JobPipeline
from streams.core.detector import Detector
from streams.decide.guards import GuardDetector
from streams.decide.policy import PolicyDetector
from streams.hang.detector import HangDetector
from streams.settings import DetectionSettings
from streams.slow.detector import SlowNodeDetector


def job_pipeline(settings: DetectionSettings) -> JobPipeline:
    """Reorder buffer, then hang, slow-node and policy stages of one job."""
    stages: list[Detector[Any]] = [
        HangDetector(settings.hang), SlowNodeDetector(settings.slow), PolicyDetector(settings.policy),
    ]
    return JobPipeline(stages, settings.lateness_s, settings.max_skew_s)


def classifier(settings: DetectionSettings) -> ClassifyDetector:
    return ClassifyDetector(settings.classify)


def guards(settings: DetectionSettings) -> GuardDetector:
    return GuardDetector(settings.guards)


def chain(settings: DetectionSettings) -> Chain:
    """The whole chain for ``faultline replay``."""
    return Chain(classifier(settings), job_pipeline(settings), guards(settings))
