"""After a rebalance, input partitions the group never committed are read again from their start.

Faust re-reads what a rebalance discarded by seeking each partition to its committed offset;
aiokafka skips a partition with no commit (or a commit of 0), so records a fetch returned while
the partition was paused were lost for good and the group never committed it (issue 16).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from faust.types import TP

from schemas.settings import KafkaSettings
from streams.settings import WorkerSettings


@dataclass
class FakeConsumer:
    """What the rebalance hook asks of Faust's consumer: the assignment, committed offsets, seeks."""

    committed: dict[TP, int | None]
    seeks: list[dict[TP, int]] = field(default_factory=list)

    def assignment(self) -> set[TP]:
        return set(self.committed)

    async def seek_to_committed(self) -> Mapping[TP, int | None]:
        return dict(self.committed)

    async def seek_wait(self, partitions: Mapping[TP, int]) -> None:
        self.seeks.append(dict(partitions))


def _recovered(tmp_path: Path, consumer: FakeConsumer) -> None:
    """Build the worker's app on ``consumer`` and signal that an assignment's recovery is done."""
    from streams.app import build_app

    kafka = KafkaSettings(bootstrap_servers="127.0.0.1:1", namespace="ns.")
    app = build_app(WorkerSettings(kafka=kafka, data_dir=tmp_path, app_id="ns.app"))
    app.consumer = consumer  # type: ignore[assignment]  # the fake has what the hook uses
    asyncio.run(app.on_rebalance_complete.send())


def test_input_partitions_never_committed_are_read_again_from_their_start(tmp_path: Path) -> None:
    consumer = FakeConsumer({
        TP("ns.telemetry.gpu", 1): None,  # never committed: its fetched records were dropped
        TP("ns.jobs.feed", 4): 0,  # committed at 0: aiokafka does not seek it either
        TP("ns.telemetry.net", 1): 168,  # committed: Faust's own seek covers it
        TP("ns.app-jobs-state-changelog", 1): None,  # a changelog: the table recovery reads it
    })
    _recovered(tmp_path, consumer)
    assert consumer.seeks == [{TP("ns.jobs.feed", 4): 0, TP("ns.telemetry.gpu", 1): 0}]


def test_a_worker_with_no_partitions_seeks_nothing(tmp_path: Path) -> None:
    consumer = FakeConsumer({})
    _recovered(tmp_path, consumer)
    assert consumer.seeks == []
