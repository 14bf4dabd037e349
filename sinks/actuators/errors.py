"""The actuators' exception root, split into retryable and permanent failures.

``RetryableActuatorError``: the target may accept the same request later (timeout, connection
refused, HTTP 5xx/429, slurmctld not answering); callers back off and retry.
``PermanentActuatorError``: the same request will fail again (unknown node, bad job id,
HTTP 4xx, missing configuration); the decision's actuation is ``failed``.
"""

from __future__ import annotations


class ActuatorError(Exception):
    """Root of every error an actuator raises."""


class RetryableActuatorError(ActuatorError):
    """A transient failure: retrying the same request later may succeed."""


class PermanentActuatorError(ActuatorError):
    """A failure that retrying will not fix."""
