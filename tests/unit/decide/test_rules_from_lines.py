"""Every rule of the policy table, from real-format log lines: line -> fault -> incident -> decision.

The lines are in the formats the kernel, NVIDIA's driver, NCCL, PyTorch and Lustre print; the
repository's knowledge base classifies them, the incident stage groups them, the policy and the
guards decide (docs/decisions.md has one example per rule; these are those examples).
"""

from __future__ import annotations

import pytest
from decide_events import at, gpu_samples, hang, job, port_samples, running_job, steps
from decide_lines import decide_lines, kline, run_lines, tline

from schemas import Decision, Event
from streams.decide import GuardSettings

XID79 = "[ 8123.443210] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus."
XID79_B = "[ 9001.100000] NVRM: Xid (PCI:0000:86:00): 79, pid=0, GPU has fallen off the bus."
XID92 = "[ 5120.001000] NVRM: Xid (PCI:0000:3b:00): 92, pid=0, High single-bit ECC error rate"
XID63 = "[ 5121.002000] NVRM: Xid (PCI:0000:3b:00): 63, pid=0, Row remapping event"
XID94 = "[ 5122.003000] NVRM: Xid (PCI:0000:3b:00): 94, pid=40112, Contained ECC error"
MCE_CE = "EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x1 offset:0x0 grain:32 syndrome:0x0)"
MCE_UE = "mce: [Hardware Error]: CPU 12: Machine Check Exception: 5 Bank 7: be00000000800400"
PORT_DOWN = "infiniband mlx5_0: port 1 state changed to DOWN"
NCCL_IB = ("gpu-a17:31337:31412 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> with error 12, "
           "opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2")
NCCL_WATCHDOG = ("[rank3]:[E1122 08:00:11.000 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective "
                 "operation timeout: WorkNCCL(SeqNum=1234, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                 "Timeout(ms)=600000) ran for 600005 milliseconds before timing out.")
CHILD_FAILED = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "
CUDA_LAUNCH = "RuntimeError: CUDA error: unspecified launch failure"
OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity "
       "of 79.10 GiB of which 1.19 GiB is free.")
LUSTRE = ("Lustre: 1234:0:(client.c:2289:ptlrpc_expire_one_request()) @@@ Request sent has timed out for "
          "slow reply")
NODES = ("n1", "n2", "n3", "n4")
DESTRUCTIVE = {"replace_nodes", "drain_reboot_nodes", "restart_in_place", "stop_job"}


def acts(out: list[Decision]) -> list[tuple[str, tuple[str, ...], str]]:
    return [(d.action, d.nodes, d.policy_rule) for d in out]


def peers_fail(s: float, nodes: tuple[str, ...] = ("n2", "n3", "n4"), attempt: int | None = None) -> list[Event]:
    """What the surviving ranks print when one rank's GPU dies: NCCL errors and ChildFailedError."""
    out: list[Event] = []
    for i, node in enumerate(nodes):
        out += [tline(s + i, node, i + 1, NCCL_IB, source="nccl", attempt=attempt),
                tline(s + 4 + i, node, i + 1, CUDA_LAUNCH, attempt=attempt)]
    return [*out, tline(s + 9, "n1", 0, CHILD_FAILED, attempt=attempt)]


def test_xid79_with_nccl_cascade_is_one_incident_replace_and_reboot_that_node_only() -> None:
    events = [*running_job(NODES, until=200), kline(201, "n1", XID79), *peers_fail(202)]
    out, incidents = run_lines(events, until=400)
    assert acts(out) == [("replace_nodes", ("n1",), "single_node_error"),
                         ("drain_reboot_nodes", ("n1",), "single_node_error")]
    last = incidents[-1]
    assert last.category == "gpu_fallen_off_bus" and last.nodes == ("n1",) and len(last.cascade) >= 7
    assert len({i.incident_id for i in incidents}) == 1  # re-issued as it grew, never split


def test_cascade_printed_before_the_kernel_line_still_blames_the_gpu() -> None:
    events = [*running_job(NODES, until=200), *peers_fail(201), kline(212, "n1", XID79)]
    out = decide_lines(events, until=400)
    assert acts(out) == [("replace_nodes", ("n1",), "single_node_error"),
                         ("drain_reboot_nodes", ("n1",), "single_node_error")]


def test_uncorrected_machine_check_replaces_the_node_cluster_wide_after_a_checkpoint() -> None:
    out = decide_lines([*running_job(NODES, until=200), kline(201, "n3", MCE_UE)], until=400)
    assert acts(out) == [("checkpoint_now", (), "checkpoint_first"),
                         ("replace_nodes", ("n3",), "single_node_fault")]
    assert out[1].block_scope == "cluster"


XID119 = ("[61234.000120] NVRM: Xid (PCI:0000:c1:00): 119, pid=5121, name=python3, Timeout after 45s of waiting "
          "for RPC response from GPU2 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20800a4c 0x4).")


XID74 = ("[71002.310021] NVRM: Xid (PCI:0000:b3:00): 74, pid=8812, name=python3, NVLink: fatal error detected on "
         "link 5(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)")


SXID_FATAL = "nvidia-nvswitch3: SXid (PCI:0000:5c:00.0): 20034, Fatal, Link 22 LTSSM Fault Up"


@pytest.mark.parametrize("line", [XID74, SXID_FATAL])
def test_a_fatal_nvlink_error_gets_no_checkpoint_its_collectives_would_fail(line: str) -> None:
    out = decide_lines([*running_job(NODES, until=200), kline(201, "n3", line)], until=400)
    assert "checkpoint_now" not in {d.action for d in out}
    assert ("replace_nodes", ("n3",)) in {(d.action, d.nodes) for d in out}


def test_a_gsp_timeout_gets_no_checkpoint_the_unresponsive_gpu_could_not_honour() -> None:
    out = decide_lines([*running_job(NODES, until=200), kline(201, "n2", XID119)], until=400)
    assert "checkpoint_now" not in {d.action for d in out}
    assert ("replace_nodes", ("n2",)) in {(d.action, d.nodes) for d in out}


HUNG_TASK = "[ 4410.120300] INFO: task python3:71234 blocked for more than 122 seconds."


def test_a_hung_task_warning_on_a_training_node_takes_no_node_and_restarts_nothing() -> None:
    """The kernel's hung-task warning (a task in D state for 2 minutes, most often on slow
    storage) while the job trains on: it counts against the node, nothing more."""
    out = decide_lines([*running_job(NODES, until=600), kline(300, "n2", HUNG_TASK)], until=700)
    assert not DESTRUCTIVE & {d.action for d in out}


def test_corrected_and_contained_errors_take_no_node() -> None:
    events = [*running_job(NODES, until=600), kline(100, "n2", XID92), kline(200, "n2", XID63),
              kline(300, "n3", MCE_CE), kline(400, "n4", XID94)]
    out, incidents = run_lines(events, until=900)
    assert out == []
    assert {i.nodes for i in incidents} == {("n2",), ("n3",), ("n4",)}


def test_corrected_error_on_another_node_does_not_widen_a_real_fault() -> None:
    events = [*running_job(NODES, until=100), kline(110, "n2", MCE_CE), kline(200, "n1", XID79)]
    out = decide_lines(events, until=400)
    assert {n for d in out for n in d.nodes} == {"n1"}
    assert "restart_in_place" not in {d.action for d in out}


def test_lemon_node_is_drained_once_at_the_threshold() -> None:
    events: list[Event] = [*running_job(NODES, until=100)]
    events += [kline(200 + 3600 * i, "n2", XID92) for i in range(12)]
    out = decide_lines(events, until=50_000)
    assert acts(out) == [("drain_reboot_nodes", ("n2",), "lemon_node"), ("notify", ("n2",), "lemon_node")]
    assert out[0].issued_at == at(200 + 3600 * 9) and len(out[0].reason.cause_ids) == 10


def test_a_corrected_error_that_never_falls_quiet_still_makes_a_lemon() -> None:
    """D3 finding D: an EDAC CE line every 30 s is one burst that never closes (3 min quiet); the
    lemon count is of errors (mcelog's 10 / 24 h), read from the burst's re-issued count."""
    events: list[Event] = [*running_job(NODES, until=1200)]
    events += [kline(200 + 30 * i, "n3", MCE_CE) for i in range(30)]
    out = decide_lines(events, until=1200)
    assert acts(out) == [("drain_reboot_nodes", ("n3",), "lemon_node"), ("notify", ("n3",), "lemon_node")]
    assert out[0].issued_at <= at(200 + 30 * 15)  # by the burst's count of 16, not at its close



def test_contained_errors_that_group_into_incidents_all_count_toward_a_lemon() -> None:
    """Decision seed 28, round 3: 30 contained ECC errors (Xid 94, action restart_app) on one
    node's GPUs over 25 minutes joined a handful of incidents (2-minute window); only each
    incident's root was counted, 30 errors never reached the threshold of 10."""
    gpus = ("3b", "86", "af", "d8")
    events: list[Event] = [*running_job(NODES, until=100)]
    events += [kline(200 + 20 * i, "n2", XID94.replace("3b:00", f"{gpus[i % 4]}:00").replace("40112", str(40112 + i)))
               for i in range(30)]
    out = decide_lines(events, until=2000)
    assert acts(out) == [("drain_reboot_nodes", ("n2",), "lemon_node"), ("notify", ("n2",), "lemon_node")]
    assert not {d.action for d in out} & {"replace_nodes", "restart_in_place", "stop_job"}

def test_a_few_corrected_errors_in_one_burst_take_no_node() -> None:
    events: list[Event] = [*running_job(NODES, until=600)]
    events += [kline(200 + 30 * i, "n3", MCE_CE) for i in range(9)]
    assert decide_lines(events, until=600) == []


def test_one_nodes_port_down_replaces_that_node() -> None:
    events = [*running_job(NODES, until=100), kline(200, "n2", PORT_DOWN),
              *[tline(203 + i, n, i, NCCL_IB, source="nccl") for i, n in enumerate(NODES)]]
    out = decide_lines(events, until=400)
    assert acts(out) == [("replace_nodes", ("n2",), "node_local_network")]
    assert out[0].block_scope == "cluster"


def test_ports_down_on_several_nodes_restart_in_place_and_notify() -> None:
    events = [*running_job(NODES, until=100), *[kline(200 + i, n, PORT_DOWN) for i, n in enumerate(NODES[:3])]]
    out = decide_lines(events, until=400)
    assert acts(out) == [("restart_in_place", (), "fabric_network"), ("notify", (), "fabric_network")]


def test_a_port_seen_down_only_in_the_net_samples_replaces_that_node() -> None:
    # no kernel line: the port's state and link_downed counter, then the ranks' NCCL IB errors
    events = [*running_job(NODES, until=100), *port_samples("n2", 195), *port_samples("n1", None),
              *[tline(203 + i, n, i, NCCL_IB, source="nccl") for i, n in enumerate(NODES)]]
    out = decide_lines(sorted(events, key=lambda e: e.event_time), until=400)
    assert acts(out) == [("replace_nodes", ("n2",), "node_local_network")]


def test_one_port_down_line_while_other_nodes_ports_drop_too_is_the_fabric() -> None:
    events = [*running_job(NODES, until=100), *(e for n in NODES[:3] for e in port_samples(n, 195)),
              kline(200, "n2", PORT_DOWN), *[tline(203 + i, n, i, NCCL_IB, source="nccl") for i, n in enumerate(NODES)]]
    out = decide_lines(sorted(events, key=lambda e: e.event_time), until=400)
    assert [a for a, _, _ in acts(out)] == ["restart_in_place", "notify"]
    assert "replace_nodes" not in [a for a, _, _ in acts(out)]


def test_nccl_errors_alone_restart_in_place_after_the_settle_time() -> None:
    events = [*running_job(NODES, until=100),
              *[tline(200 + i, n, i, NCCL_WATCHDOG) for i, n in enumerate(NODES)]]
    assert decide_lines(events, until=255) == []
    out = decide_lines(events, until=400)
    assert acts(out) == [("restart_in_place", (), "not_single_point_network")]


def test_same_job_error_in_two_consecutive_attempts_stops_the_job() -> None:
    events = [*running_job(NODES, until=190), tline(195, "n2", 1, OOM), tline(197, "n1", 0, CHILD_FAILED),
              job("failed", 198), job("restarting", 300, attempt=1), *steps(400, 880),
              tline(890, "n3", 2, OOM, attempt=1), tline(892, "n1", 0, CHILD_FAILED, attempt=1)]
    out = decide_lines(events, until=1000)
    assert acts(out) == [("stop_job", (), "job_fault_repeated"), ("notify", (), "job_fault_repeated")]
    assert out[0].attempt == 1


def test_two_hardware_faults_in_two_attempts_never_stop_the_job() -> None:
    events = [*running_job(NODES, until=190), kline(195, "n2", XID79), *peers_fail(196, ("n1", "n3", "n4")),
              job("failed", 210), job("scheduled", 300, attempt=1, nodes=("n1", "n5", "n3", "n4")),
              *steps(400, 880), kline(890, "n5", XID79_B), *peers_fail(891, ("n1", "n3", "n4"))]
    out = decide_lines(events, until=1200, guards=GuardSettings(max_cluster_share=1.0))
    assert "stop_job" not in {d.action for d in out}
    assert [d.nodes for d in out if d.action == "replace_nodes"] == [("n2",), ("n5",)]


def test_a_late_cascade_line_of_the_failed_attempt_does_not_touch_the_restarted_job() -> None:
    events = [*running_job(NODES, until=190), tline(195, "n2", 1, OOM), job("failed", 198),
              job("restarting", 200, attempt=1), *steps(240, 600)]
    late_oom = tline(196, "n2", 1, OOM).model_copy(update={"event_id": "late"})
    out = decide_lines([*events, late_oom, tline(199, "n1", 0, CHILD_FAILED)], until=800)
    assert not DESTRUCTIVE & {d.action for d in out}


def test_storage_fault_only_notifies() -> None:
    out = decide_lines([*running_job(NODES, until=100), kline(200, "n1", LUSTRE)], until=400)
    assert acts(out) == [("notify", (), "storage_fault")]


def test_checkpoint_window_scales_with_long_steps_and_never_precedes_a_hang() -> None:
    slow_steps = steps(10, 100, every=40.0)  # 40 s steps: 5 x 40 s = 200 s of progress window
    events = [job("scheduled", 0, nodes=NODES), job("running", 5), *slow_steps, kline(250, "n3", PORT_DOWN)]
    out = decide_lines(events, until=400)
    assert [d.action for d in out] == ["checkpoint_now", "replace_nodes"]
    hung = decide_lines([*running_job(NODES, until=100), hang(110, [])], until=400)
    assert [d.action for d in hung] == ["restart_in_place"]


def test_one_node_job_frozen_alike_restarts_in_place() -> None:
    events = [*running_job(("n1",), until=100), hang(140, [])]
    out = decide_lines(events, until=400)
    assert acts(out) == [("restart_in_place", (), "one_node_deadlock")]


def test_a_restart_that_hangs_again_is_resubmitted() -> None:
    events = [*running_job(NODES, until=100), hang(140, []), job("restarting", 200, attempt=1),
              job("running", 260, attempt=1), hang(400, [], attempt=1)]
    out = decide_lines(events, until=500)
    assert [(d.action, d.policy_rule) for d in out] == [("restart_in_place", "not_single_point_hang"),
                                                       ("resubmit_job", "restart_failed")]


def test_a_refused_replacement_falls_back_to_restart_in_place_and_notify() -> None:
    events = [*running_job(NODES, until=100), kline(200, "n1", XID79)]
    out = decide_lines(events, until=400, guards=GuardSettings(max_nodes_per_cluster=0, min_nodes_per_cluster=0))
    refused = [d for d in out if d.guard and d.guard.refused]
    assert refused and all(d.action in ("replace_nodes", "drain_reboot_nodes") for d in refused)
    fallback = [(d.action, d.guard.rule) for d in out if d.guard and not d.guard.refused]
    assert ("restart_in_place", "refused_fallback") in fallback and ("notify", "refused_fallback") in fallback


def test_two_gpus_lost_on_two_nodes_at_once_are_not_single_point() -> None:
    events = [*running_job(NODES, until=100), kline(200, "n1", XID79), kline(230, "n3", XID79_B)]
    out = decide_lines(events, until=400)
    assert [d.action for d in out] == ["replace_nodes", "drain_reboot_nodes", "restart_in_place"]
    assert out[2].policy_rule == "not_single_point_multi_node"


def test_kernel_line_shipped_45_s_after_the_ranks_errors_still_only_replaces_the_node() -> None:
    ranks = peers_fail(201)
    xid = kline(200, "n1", XID79)
    timeline = sorted([*running_job(NODES, until=195), *gpu_samples(0, 400, "n2"), *ranks],
                      key=lambda e: e.event_time)
    arrived = [e for e in timeline if e.event_time <= at(245)] + [xid] + [e for e in timeline if e.event_time > at(245)]
    out, incidents = run_lines(arrived, until=400, in_order=True)
    assert acts(out) == [("replace_nodes", ("n1",), "single_node_error"),
                         ("drain_reboot_nodes", ("n1",), "single_node_error")]
    assert {i.category for i in incidents} == {"gpu_fallen_off_bus"}


XID119 = ("[12021.551234] NVRM: Xid (PCI:0000:3b:00): 119, pid='<unknown>', name=<unknown>, "
          "Timeout waiting for RPC from GSP! Expected function 76 (GSP_RM_CONTROL) (0x20800a4c 0x4).")
CUDA_UNKNOWN = "RuntimeError: CUDA error: unknown error"


def test_an_unknown_cuda_error_the_peers_nccl_errors_follow_is_no_network_restart() -> None:
    """Seed 25 of the decision fleets: n1's GPU stops answering (Xid 119), its rank dies with
    CUDA's `unknown error`, the peers print NCCL errors 10 s later, and the kernel line reaches the
    pipeline ~6 minutes late. The unknown error is the node's (contained): the peers' errors are
    its cascade, not a network fault to restart in place; the late Xid replaces n1 alone."""
    ranks = [tline(201, "n1", 0, CUDA_UNKNOWN),
             *[tline(211 + i, n, i + 1, NCCL_IB, source="nccl") for i, n in enumerate(("n2", "n3", "n4"))],
             tline(215, "n1", 0, CHILD_FAILED)]
    xid = kline(199, "n1", XID119)
    timeline = sorted([*running_job(NODES, until=195), *gpu_samples(0, 800, "n2"), *ranks],
                      key=lambda e: e.event_time)
    late = at(199 + 380)
    arrived = [e for e in timeline if e.event_time <= late] + [xid] + [e for e in timeline if e.event_time > late]
    before, _ = run_lines([e for e in arrived if e is not xid], until=800, in_order=True)
    assert not {d.action for d in before} & DESTRUCTIVE
    out, incidents = run_lines(arrived, until=800, in_order=True)
    assert acts(out) == [("replace_nodes", ("n1",), "single_node_error"),
                         ("drain_reboot_nodes", ("n1",), "single_node_error")]
    assert incidents[-1].category == "gpu_gsp_timeout" and incidents[-1].nodes == ("n1",)


def test_an_unknown_cuda_error_in_two_attempts_is_not_the_jobs_own_bug() -> None:
    """CUDA's `unknown error` names no cause in the job: twice in a row it never stops the job
    (a job-blamed root cause would); it counts against the node instead."""
    events = [*running_job(NODES, until=190), tline(195, "n2", 1, CUDA_UNKNOWN), tline(197, "n1", 0, CHILD_FAILED),
              job("failed", 198), job("restarting", 300, attempt=1), *steps(400, 880),
              tline(890, "n2", 1, CUDA_UNKNOWN, attempt=1), tline(892, "n1", 0, CHILD_FAILED, attempt=1)]
    out = decide_lines(events, until=1000)
    assert not {d.action for d in out} & (DESTRUCTIVE | {"resubmit_job"})


def test_refused_lemon_drain_only_notifies_the_running_job_is_not_restarted() -> None:
    """D3 finding A: a lemon node's drain refused by a guard; the job trains on and is not broken,
    so the refusal gets a notify and no restart_in_place ('a refusal never leaves a broken job alone')."""
    events: list[Event] = [*running_job(NODES, until=50_000)]
    events += [kline(200 + 3600 * i, "n2", XID92) for i in range(12)]
    out = decide_lines(events, until=50_000, guards=GuardSettings(max_nodes_per_job=0, max_job_share=0.0))
    assert "restart_in_place" not in {d.action for d in out} and "resubmit_job" not in {d.action for d in out}
    refused = [d for d in out if d.guard and d.guard.refused]
    assert [(d.action, d.nodes) for d in refused] == [("drain_reboot_nodes", ("n2",))]
    assert "notify" in {d.action for d in out}


def test_refusal_after_a_restart_that_brought_the_job_back_restarts_again() -> None:
    """D3 finding B: attempt 0's refused replacement got restart_in_place; attempt 1 ran (spare
    node, steps) and lost another node: that restart did not fail, so the fallback is
    restart_in_place again, not resubmit_job ('resubmit_job after a failed restart')."""
    events: list[Event] = [*running_job(NODES, until=190), kline(200, "n1", XID79)]
    events += [job("restarting", 400, attempt=1), job("scheduled", 405, attempt=1, nodes=("n5", "n2", "n3", "n4")),
               job("running", 460, attempt=1), *steps(470, 800), kline(810, "n2", XID79_B)]
    out = decide_lines(events, until=1_000, guards=GuardSettings(max_nodes_per_job=0, max_job_share=0.0))
    fallbacks = [(d.action, d.attempt) for d in out if d.guard and d.guard.rule == "refused_fallback" and d.action != "notify"]
    assert fallbacks == [("restart_in_place", 0), ("restart_in_place", 1)]
