"""The one way actuators run external commands: argv list, timeout, classified errors."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence

from sinks.actuators.errors import PermanentActuatorError, RetryableActuatorError

TRANSIENT_MARKERS: tuple[str, ...] = (
    "unable to contact slurm controller",
    "slurm_receive_msg",
    "socket timed out",
    "connection refused",
    "resource temporarily unavailable",
    "temporarily unavailable",
)
"""Substrings of stderr that mean "try again later" rather than "this request is wrong"."""


class CommandRunner:
    """Runs one command at a time with a timeout; never through a shell."""

    def __init__(self, timeout_s: float = 30.0) -> None:
        self.timeout_s = timeout_s

    def run(self, argv: Sequence[str]) -> str:
        """Run ``argv`` and return its stdout.

        Raises ``RetryableActuatorError`` on a timeout or a transient-looking failure, and
        ``PermanentActuatorError`` when the program is missing or exits non-zero otherwise;
        the message holds the command line, the exit code and stderr.
        """
        line = shlex.join(argv)
        try:
            done = subprocess.run(list(argv), capture_output=True, text=True,
                                  timeout=self.timeout_s, check=False)
        except FileNotFoundError as exc:
            raise PermanentActuatorError(f"{line}: program not found ({exc})") from exc
        except subprocess.TimeoutExpired as exc:
            raise RetryableActuatorError(f"{line}: timed out after {self.timeout_s:g} s") from exc
        if done.returncode == 0:
            return done.stdout
        err = (done.stderr or done.stdout).strip()
        message = f"{line}: exit {done.returncode}: {err}"
        if any(m in err.lower() for m in TRANSIENT_MARKERS):
            raise RetryableActuatorError(message)
        raise PermanentActuatorError(message)
