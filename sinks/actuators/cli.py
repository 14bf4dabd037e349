"""``faultline actuate``: build settings from flags (and the environment, here only) and run.

    faultline actuate --actuator dry-run|slurm|kubernetes|webhook [--bootstrap H:P]
        [--namespace faultline.] [--group-id ID] [--store PATH] [--idle-exit-s S]
        [--session-timeout-ms MS]
        [--journal PATH]                                   (dry-run)
        [--scontrol PATH] [--scancel PATH] [--no-requeue]  (slurm)
        [--kubeconfig PATH] [--context NAME] [--in-cluster] (kubernetes; default $KUBECONFIG)
        [--url URL] [--secret-file PATH | --secret-env NAME] (webhook)

Exit status: 0 after a clean stop (idle exit or SIGINT/SIGTERM), 2 on bad arguments or
configuration, 1 when the runner fails.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import threading
from pathlib import Path

from schemas.settings import kafka_from
from sinks.actuators.base import Actuator
from sinks.actuators.dryrun import DryRunActuator, DryRunSettings
from sinks.actuators.errors import ActuatorError
from sinks.actuators.runner import ActuatorRunner
from sinks.actuators.slurm import SlurmActuator, SlurmSettings
from sinks.actuators.webhook import WebhookActuator, WebhookSettings

ACTUATORS = ("dry-run", "slurm", "kubernetes", "webhook")


def build_parser() -> argparse.ArgumentParser:
    """The ``faultline actuate`` argument parser."""
    p = argparse.ArgumentParser(prog="faultline actuate", description="apply decisions")
    p.add_argument("--actuator", choices=ACTUATORS, default="dry-run")
    p.add_argument("--bootstrap", "--bootstrap-servers", dest="bootstrap", default=None,
                   help="Kafka bootstrap servers (env FAULTLINE_KAFKA_BOOTSTRAP)")
    p.add_argument("--namespace", default=None, help="topic namespace (env FAULTLINE_NAMESPACE)")
    p.add_argument("--group-id", default=None, help="default: <namespace>actuator-<actuator>")
    p.add_argument("--store", default=None, help="applied-set SQLite file; default ./faultline-actuator-<actuator>.sqlite")
    p.add_argument("--idle-exit-s", type=float, default=None)
    p.add_argument("--session-timeout-ms", type=int, default=10_000)
    p.add_argument("--journal", default=None, help="dry-run: append applied decisions here")
    p.add_argument("--delay-s", type=float, default=0.0, help="dry-run: simulated latency")
    p.add_argument("--scontrol", default="scontrol")
    p.add_argument("--scancel", default="scancel")
    p.add_argument("--no-requeue", action="store_true", help="slurm: drain only on replace_nodes")
    p.add_argument("--kubeconfig", default=os.environ.get("KUBECONFIG"))
    p.add_argument("--context", default=None)
    p.add_argument("--in-cluster", action="store_true")
    p.add_argument("--url", default=None)
    p.add_argument("--secret-file", default=None)
    p.add_argument("--secret-env", default="FAULTLINE_WEBHOOK_SECRET")
    return p


def _secret(args: argparse.Namespace) -> str:
    if args.secret_file:
        return Path(args.secret_file).read_text(encoding="utf-8").strip()
    value = os.environ.get(args.secret_env, "")
    if not value:
        raise ValueError(f"webhook needs --secret-file or ${args.secret_env}")
    return value


def build_actuator(args: argparse.Namespace) -> Actuator:
    """The actuator the arguments ask for; ValueError/ActuatorError on bad configuration."""
    if args.actuator == "slurm":
        return SlurmActuator(SlurmSettings(scontrol=args.scontrol, scancel=args.scancel,
                                           requeue_on_replace=not args.no_requeue))
    if args.actuator == "kubernetes":
        from sinks.actuators.k8s_requests import KubernetesSettings
        from sinks.actuators.kubernetes import KubernetesActuator
        return KubernetesActuator(KubernetesSettings(kubeconfig=args.kubeconfig, context=args.context,
                                                     in_cluster=args.in_cluster))
    if args.actuator == "webhook":
        if not args.url:
            raise ValueError("webhook needs --url")
        return WebhookActuator(WebhookSettings(url=args.url, secret=_secret(args)))  # type: ignore[arg-type]  # pydantic coerces str to SecretStr
    return DryRunActuator(DryRunSettings(journal_path=args.journal, delay_s=args.delay_s))


def actuate_main(argv: list[str] | None = None) -> int:
    """Entry point of ``faultline actuate``; returns the process exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        actuator = build_actuator(args)
        kafka = kafka_from(os.environ, bootstrap=args.bootstrap, namespace=args.namespace)
        runner = ActuatorRunner(kafka, actuator, args.group_id or f"{kafka.namespace}actuator-{args.actuator}",
                                args.store or f"faultline-actuator-{args.actuator}.sqlite",
                                session_timeout_ms=args.session_timeout_ms)
    except (ValueError, ActuatorError) as exc:
        logging.error("%s", exc)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        runner.run(stop=stop, idle_exit_s=args.idle_exit_s)
    except ActuatorError as exc:
        logging.error("actuator runner failed: %s", exc)
        return 1
    finally:
        runner.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(actuate_main())
