"""One declared topology: the Faust app and replay are built from it, and routing works through it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from schemas import Decision, Fault, JobEvent, Placement, StepProgress
from schemas.settings import KafkaSettings
from streams import topology
from streams.core.detector import Forward
from streams.core.topology import LocalRunner, run_all
from streams.settings import WorkerSettings
from streams.topics import STATE_TABLES, changelog_topic, plan

T0 = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def at(s: float) -> datetime:
    return T0 + timedelta(seconds=s)


def test_the_faust_app_has_exactly_the_declared_edges(tmp_path: Path) -> None:
    from streams.app import build_app

    kafka = KafkaSettings(bootstrap_servers="127.0.0.1:1", namespace="ns.")
    app = build_app(WorkerSettings(kafka=kafka, data_dir=tmp_path, app_id="ns.app"))
    declared = topology.build()
    faust_inputs = {(topic[len("ns."):], name) for name, agent in app.agents.items()
                    for topic in agent.channel.topics}  # type: ignore[attr-defined]
    replay_inputs = {(i, s.name) for s in declared.stages for i in s.inputs}
    assert faust_inputs == replay_inputs
    assert {t.name for t in app.tables.values()} == {f"{s}-state" for s in STATE_TABLES}
    assert tuple(s.name for s in declared.stages) == STATE_TABLES
    changelogs = {t.changelog_topic.get_topic_name() for t in app.tables.values()}
    assert changelogs == {changelog_topic("ns.app", s) for s in STATE_TABLES}
    assert changelogs <= {t.name for t in plan(kafka, "ns.app")}


def test_every_stage_output_topic_is_read_by_a_stage_or_public() -> None:
    from schemas.registry import BY_NAME

    declared = topology.build()
    read = {i for s in declared.stages for i in s.inputs}
    for _, _, out in declared.edges():
        assert out in read or not BY_NAME[out].internal, out


def test_a_stage_cannot_emit_outside_its_declared_outputs() -> None:
    stage = topology.build().stage("route")
    fault = _fault(0, "n1")
    with pytest.raises(ValueError, match="not among its outputs"):
        stage.resolve(fault)
    assert stage.resolve(Forward("jobs.feed", "j1", fault)) == ("jobs.feed", "j1", fault)


def _scheduled(s: float, job: str, nodes: list[str], attempt: int = 0) -> JobEvent:
    return JobEvent(event_id=f"{job}-sched-{attempt}", event_time=at(s), cluster="c1", job_id=job,
                    attempt=attempt, kind="scheduled",
                    placement=tuple(Placement(rank=i, node_id=n) for i, n in enumerate(nodes)))


def _fault(s: float, node: str) -> Fault:
    return Fault(event_id=f"f{s}", fault_id=f"f{s}", node_id=node, event_time=at(s), cluster="c1",
                 category="gpu_fallen_off_bus", family="gpu_hw", level="fault", blame="node", xid=79,
                 rule_id="xid", evidence="NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.",
                 first_seen=at(s), count=1, action="replace_node")


def _steps(job: str, node: str, start: float, end: float) -> list[StepProgress]:
    return [StepProgress(event_id=f"{job}-s{t}", event_time=at(t), cluster="c1", job_id=job, node_id=node,
                         rank=0, step=int(t), step_time_ms=1000.0) for t in range(int(start), int(end))]


def test_the_guards_see_a_repaired_node_come_back_and_flag_it_flapping() -> None:
    """Lifecycle reaches the guards through the declared topology, not a test helper."""
    events = [
        _scheduled(0, "j1", ["n1", "n2"]), *_steps("j1", "n2", 1, 60), _fault(60, "n1"), *_steps("j1", "n2", 61, 90),
        _scheduled(600, "j2", ["n1", "n3"]), *_steps("j2", "n3", 601, 700), _fault(700, "n1"),
    ]
    decisions = [e for e in run_all(topology.build(), events) if isinstance(e, Decision)]
    replaced = [d for d in decisions if d.action == "replace_nodes"]
    assert [d.job_id for d in replaced] == ["j1", "j2"]
    assert replaced[0].guard is None
    assert replaced[1].guard is not None and replaced[1].guard.rule == "flapping_node"
    assert replaced[1].block_scope == "cluster"
    assert any(d.action == "notify" and d.guard and d.guard.rule == "flapping_node" for d in decisions)


def test_gpu_samples_reach_their_job_whatever_topic_was_read_first() -> None:
    from schemas import GpuSample

    sample = GpuSample(event_id="g1", event_time=at(5), cluster="c1", node_id="n1", gpus=())
    runner = LocalRunner(topology.build())
    runner.feed(sample)  # before the node's placement: waits in the router
    runner.feed(_scheduled(0, "j1", ["n1"]))
    runner.feed(GpuSample(event_id="g2", event_time=at(20), cluster="c1", node_id="n1", gpus=()))
    jobs = runner.states[("jobs", "j1")]
    held = [h[4].event_id for h in jobs.buffer.held]
    assert "g1" in held


def test_the_worker_logs_at_its_level_without_faust_s_spinner(tmp_path: Path) -> None:
    """Faust's spinner sets the root logger to DEBUG: every debug call of aiokafka and Faust
    built a record. Without it, the root logger stays at the worker's level."""
    import logging

    from streams.app import build_app, faust_worker

    settings = WorkerSettings(kafka=KafkaSettings(bootstrap_servers="127.0.0.1:1", namespace="ns."),
                              data_dir=tmp_path, app_id="ns.app")
    worker = faust_worker(build_app(settings), settings)
    assert worker.spinner is None
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        worker.on_setup_root_logger(root, logging.WARNING)
        assert not root.isEnabledFor(logging.DEBUG)
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers


def test_the_worker_s_producer_lingers_to_batch_what_the_stages_write(tmp_path: Path) -> None:
    """Faust's default linger (0) sent every forward, output and changelog record in its own
    produce request; a few ms batch them (same order per partition, one batch in flight each)."""
    from streams.app import PRODUCER_LINGER_S, build_app

    settings = WorkerSettings(kafka=KafkaSettings(bootstrap_servers="127.0.0.1:1", namespace="ns."),
                              data_dir=tmp_path, app_id="ns.app")
    app = build_app(settings)
    assert app.conf.producer_linger == PRODUCER_LINGER_S and 0 < PRODUCER_LINGER_S <= 0.01
    assert app.producer.linger_ms == round(PRODUCER_LINGER_S * 1000)
