"""``make bench``: every performance and quality figure of the pipeline, measured now.

1. the classifier: throughput (lines/s on one core), recall and benign false positives, and
   what its learned fallback adds on a split it was not trained on;
2. hang detection: latency p50/p95 from onset, exact-source rate, false verdicts;
3. slow nodes: precision, recall, latency, false positives, the Alibaba PAI jobs;
4. the Faust classify agent's end-to-end rate through a real local broker.

Each part runs as its own process so one failure does not hide the others' figures.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PARTS = [
    ("classifier", [sys.executable, "-m", "tests.bench.classify_bench"]),
    ("classifier on real log lines (dev and held-out sources)", [sys.executable, "-m", "tests.bench.classify_real"]),
    ("the classifier's learned fallback on the newest split, held out of its training",
     [sys.executable, "-m", "tests.bench.classify_learned", "--holdout", "holdout34"]),
    ("hang detection", [sys.executable, "-m", "tests.bench.hang_eval", "--scenarios", "40", "--seed", "1"]),
    ("slow nodes", [sys.executable, "-m", "tests.bench.slow_eval", "--scenarios", "40", "--seed", "1"]),
    ("throughput ratios, side by side", [sys.executable, "-m", "tests.bench.ratios"]),
]


def agent_rate(lines: int = 200_000) -> str:
    """Lines per second through the Faust classify agent on a local broker, start to last fault."""
    from datetime import UTC, datetime, timedelta

    from confluent_kafka import Consumer

    from deploy.local_kafka import LocalKafka, LocalKafkaSettings, create_registry_topics
    from producers.kafka import EventProducer
    from schemas import LogLine
    from schemas.settings import KafkaSettings

    data = REPO / ".data" / f"bench-kafka-{uuid.uuid4().hex[:6]}"
    with LocalKafka(LocalKafkaSettings(port=0, data_dir=data)) as broker:
        kafka = KafkaSettings(bootstrap_servers=broker.bootstrap, namespace="bench.")
        create_registry_topics(kafka)
        log_path = data / "worker.log"
        worker = subprocess.Popen([sys.executable, "-m", "streams.cli", "--bootstrap", broker.bootstrap,
                                   "--namespace", "bench.", "worker", "--loglevel", "info"],
                                  stdout=open(log_path, "wb"), stderr=subprocess.STDOUT, cwd=REPO)
        try:
            _wait_ready(worker, log_path)
            t0 = datetime(2026, 11, 22, tzinfo=UTC)
            started = time.monotonic()
            with EventProducer(kafka) as producer:
                for i in range(lines):
                    text = (f"[rank3]: iteration {i}/500000 | loss 2.31 | lr 1.0E-04 | elapsed time per iteration (ms): 812.4"
                            if i < lines - 1 else "RuntimeError: CUDA error: an illegal memory access was encountered")
                    producer.send(LogLine(event_id=f"b{i}", event_time=t0 + timedelta(milliseconds=i), cluster="bench",
                                          node_id=f"node-{i % 64:04d}", job_id=f"job-{i % 8}", rank=i % 512,
                                          source="training", line=text))
            consumer = Consumer(kafka.confluent(**{"group.id": uuid.uuid4().hex, "auto.offset.reset": "earliest"}))
            consumer.subscribe([kafka.topic("faults.classified")])
            seen = False
            while not seen and time.monotonic() - started < 600:
                msg = consumer.poll(0.5)
                seen = msg is not None and not msg.error()
            consumer.close()
            elapsed = time.monotonic() - started
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    shutil.rmtree(data, ignore_errors=True)
    return (f"agent end-to-end: {lines:,} log lines in {elapsed:.1f} s from the first line produced to the "
            f"last one classified -> {lines / elapsed:,.0f} lines/s (one worker, broker and producer on the same 2 cores)")


def _wait_ready(worker: subprocess.Popen[bytes], log_path: Path, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and worker.poll() is None:
        if b"Worker]: Ready" in log_path.read_bytes():
            return
        time.sleep(0.5)
    raise RuntimeError(f"worker not ready; see {log_path}")


def main() -> int:
    """Run every part, print its output, and a failure line for any part that failed."""
    failed: list[str] = []
    for title, cmd in PARTS:
        print(f"\n=== {title}: {' '.join(cmd[1:])}", flush=True)
        code = subprocess.run(cmd, cwd=REPO, check=False).returncode
        if code != 0:  # e.g. classify_real: a split below the targets
            failed.append(f"{title} (exit {code})")
    print("\n=== Faust classify agent through a real broker", flush=True)
    print(agent_rate(), flush=True)
    for part in failed:
        print(f"=== below its targets or failed: {part}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
