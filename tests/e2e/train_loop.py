"""A small stand-in for one torchrun rank, for the agent end-to-end test (tests/e2e/test_agent_hang.py).

    python tests/e2e/train_loop.py --hang-at-step 12 --hang-file /tmp/hung.json [--step-s 0.5]

Identity and Kafka come from the environment, as in a real training script (docs/hooks.md):
``FAULTLINE_JOB_ID``/``TORCHELASTIC_RUN_ID``, ``RANK``, ``FAULTLINE_NODE_ID``,
``FAULTLINE_CLUSTER``, ``FAULTLINE_KAFKA_BOOTSTRAP``, ``FAULTLINE_NAMESPACE``. Every step
reports ``step_progress`` through the hooks' Kafka sink and prints a log line to stdout (the
test runs it with stdout in a torchrun ``--log-dir`` layout that the agent tails). One
checkpoint is taken through ``hooks.checkpoint``. At ``--hang-at-step`` it writes
``--hang-file`` (JSON: the step and the UTC time it stopped) and blocks forever in
``wait_for_peers()``, like a rank whose peer never joins a collective: the process stays
alive (py-spy keeps seeing the same stack) and nothing is printed or reported any more.
No torch: the "step" sleeps through forward/backward/optimizer phases so that py-spy sees
different frames while training is healthy.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from producers import hooks
from schemas.settings import kafka_from


def forward(step: int, step_s: float) -> float:
    time.sleep(step_s * 0.4)
    return 2.0 / (1 + step)


def backward(step_s: float) -> None:
    time.sleep(step_s * 0.4)


def optimizer_step(step_s: float) -> None:
    time.sleep(step_s * 0.2)


def train_one_step(step: int, step_s: float) -> float:
    loss = forward(step, step_s)
    backward(step_s)
    optimizer_step(step_s)
    return loss


def store_model(path: Path, step: int) -> None:
    path.write_text(json.dumps({"step": step}))


def wait_for_peers() -> None:
    """Block forever, as a rank waiting in a barrier for a peer that never arrives."""
    never = threading.Event()
    while not never.wait(3600):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hang-at-step", type=int, required=True)
    parser.add_argument("--hang-file", type=Path, required=True)
    parser.add_argument("--step-s", type=float, default=0.5)
    parser.add_argument("--checkpoint-at-step", type=int, default=4)
    args = parser.parse_args()
    hooks.init(hooks.settings_from_env(os.environ), kafka=kafka_from(os.environ))
    print(f"rank {os.environ.get('RANK')} starting training", flush=True)
    for step in range(args.hang_at_step):
        with hooks.timer(step):
            loss = train_one_step(step, args.step_s)
        print(f"step {step} loss {loss:.4f}", flush=True)
        if step == args.checkpoint_at_step:
            with hooks.checkpoint(step):
                store_model(args.hang_file.with_suffix(".ckpt"), step)
    stopped = {"step": args.hang_at_step, "time": datetime.now(UTC).isoformat()}
    args.hang_file.write_text(json.dumps(stopped))
    wait_for_peers()


if __name__ == "__main__":
    main()
