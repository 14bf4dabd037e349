"""``faultline actuate`` applies nothing for real unless asked: dry-run is the default."""

from __future__ import annotations

from sinks.actuators.cli import build_actuator, build_parser
from sinks.actuators.dryrun import DryRunActuator


def test_dry_run_is_the_default_actuator() -> None:
    args = build_parser().parse_args([])
    assert args.actuator == "dry-run"
    actuator = build_actuator(args)
    assert isinstance(actuator, DryRunActuator) and actuator.name == "dry-run"


def test_a_real_actuator_must_be_named() -> None:
    assert build_parser().parse_args(["--actuator", "slurm"]).actuator == "slurm"
