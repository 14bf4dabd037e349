"""Slow-node detection per job: a node that got slower than it was, beyond what its peers
shared (pure core, no I/O).

:class:`SlowNodeDetector` implements :class:`streams.core.detector.Detector` keyed by job;
:class:`SlowSettings` holds every threshold with its documented default.
"""

from streams.slow.detector import SlowNodeDetector
from streams.slow.settings import MetricRule, SlowSettings
from streams.slow.state import JobState

__all__ = ["JobState", "MetricRule", "SlowNodeDetector", "SlowSettings"]
