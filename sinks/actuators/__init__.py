"""Actuators: consume ``decisions``, carry them out, publish ``actuations``.

- :mod:`base`: the :class:`Actuator` protocol and shared helpers;
- :mod:`store`: the crash-safe applied set (SQLite) and the exactly-once argument;
- :mod:`runner`: :class:`ActuatorRunner`, the confluent-kafka loop;
- :mod:`dryrun`, :mod:`slurm`, :mod:`kubernetes` (+ pure :mod:`k8s_requests`), :mod:`webhook`;
- :mod:`cli`: ``actuate_main`` behind ``faultline actuate``.
"""

from sinks.actuators.base import Actuator
from sinks.actuators.errors import ActuatorError, PermanentActuatorError, RetryableActuatorError

__all__ = ["Actuator", "ActuatorError", "PermanentActuatorError", "RetryableActuatorError"]
