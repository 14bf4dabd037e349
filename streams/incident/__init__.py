"""The incident stage: a job's faults grouped into incidents, one root cause and its cascade.

- ``severity``: a fault's normalised recommended action and its tier as a root cause (pure).
- ``state``: the per-job state and its JSON round trip.
- ``detector``: :class:`IncidentDetector`, the pure ``(state, event) -> (state, incidents)``
  stage that runs inside the per-job pipeline between the slow-node stage and the policy.
- ``settings``: :class:`IncidentSettings`.

Imports only ``schemas``, pydantic and the standard library.
"""

from streams.incident.detector import IncidentDetector
from streams.incident.settings import IncidentSettings

__all__ = ["IncidentDetector", "IncidentSettings"]
