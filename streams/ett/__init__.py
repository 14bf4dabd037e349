"""The ETT stage: effective-training-time interval accounting per job (ETT.md), pure and replayable."""

from streams.ett.detector import EttDetector
from streams.ett.settings import EttSettings
from streams.ett.state import EttState

__all__ = ["EttDetector", "EttSettings", "EttState"]
