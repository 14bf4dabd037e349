"""Hang detection: four probes, an event-time K-of-4 vote, lifecycle context, localisation.

Pure core (imports only ``schemas`` and the standard library): see ``detector.HangDetector``.
"""

from streams.hang.detector import HangDetector
from streams.hang.settings import HangSettings

__all__ = ["HangDetector", "HangSettings"]
