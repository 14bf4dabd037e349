"""The decide stage: the restart policy (pure) and its guards (pure), ahead of the actuators.

Two pure detectors, so the stage scales across Faust workers:

- :class:`PolicyDetector` (one state per ``job_id``): incidents (``streams.incident``: one root
  cause and its cascade), hang verdicts, slow nodes and the job's lifecycle/progress ->
  *proposed* decisions (``guard`` null);
- :class:`GuardDetector` (one state per ``cluster``): proposed decisions + job events ->
  the final decisions published on ``decisions`` (passed, downgraded or refused, a refusal
  followed by the job-wide fallback that removes no node).

Imports only ``schemas`` and the
standard library (and pydantic for the settings, as ``schemas`` does).
"""

from streams.decide.guards import GuardDetector
from streams.decide.policy import PolicyDetector
from streams.decide.settings import GuardSettings, PolicySettings

__all__ = ["GuardDetector", "GuardSettings", "PolicyDetector", "PolicySettings"]
