"""Brief K32: the vocabularies of the components behind holdout32's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: HCCL's module log ("[ERROR] HCCL(pid,proc):date [file.cc:line] ...") for its consistency
check (EI0005, "CMD information <item> check fail"), its cluster heartbeat (LOST / STUCK / ERROR CQE), HcclResult 9
(HCCL_E_TIMEOUT) and the [Timeout] stage marker, CANN's "<Name>(<code>):" console format (EI0011, EI0012, EI0013),
torch_npu's missing HCCL entry points, DeepEP's NVSHMEM assertions, PyTorch's NVML warning, Hugging Face Spaces'
memory limit, ModelArts' launcher return codes, an Ascend device black box HBM multi-bit ECC, MetaX's ATU fault,
and nvidia-container-cli's NVML version mismatch (the host driver's). Half B: Spaces' storage eviction, torch_npu's
watchdog take-down, the CANN runtime's AI Core kernel failure and event-wait timeout, the task scheduler's AI Core
timeout, HCCL's op-retry link and connection-failure headline, the NPU driver's devmm out-of-memory, MindIE /
MindSpore device OOM and mcelog's transaction decode. Step C: HCCL's port binding (EI0019), the runtime's
aicore / aivec error exceptions and its stream-synchronize timeout (EE1002).

Each new rule states its action: a peer's failure, a warning or a job's own error never takes a node (restart_app
or none); only the HBM multi-bit ECC of the NPU's own memory keeps its category's reset_gpu, and the NVML
driver/library mismatch keeps the existing rule's reboot_node.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # HCCL progress and the numbered hints after a connection failure
    ("nccl", "[INFO] HCCL(4040,train):2026-02-03-04:05:06.070.080 [op_base.cc:1292] [4040]Entry-HcclCommInitRootInfoInner:"
             "ranks[16], rank[3], rootinfo: host ip[10.3.0.1] port[60000] nicDeploy[1]"),
    ("nccl", "[ERROR] HCCL(4040,train):2026-02-03-04:05:06.070.081 [comm_base.cc:986][4051]2. an exception occurred at "
             "the target devices."),
    ("nccl", "[ERROR] HCCL(4040,train):2026-02-03-04:05:06.070.082 [hccl_socket_manager.cc:624] [4051]   |  comm error, "
             "device[3]"),
    # heartbeat links coming up, a timeout setting
    ("nccl", "[INFO] HCCL(4040,train):2026-02-03-04:05:06.070.083 [heartbeat.cc:402] [4052]heartbeat link to rank "
             "[10.3.0.2/5] established"),
    ("nccl", "[INFO] HCCL(4040,train):2026-02-03-04:05:06.070.084 [externalinput.cc:312] [4040]HCCL_CONNECT_TIMEOUT "
             "set by environment to 600"),
    # the RoCE driver's dump of a failed CQE, word by word (the headline before it carries the fault)
    ("nccl", "[ERROR] ROCE(6060,train):2026-02-03-04:05:06.070.085 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x4) "
             "CQE(0x11) INDEX(0x00000006): 0x00000000"),
    # the CANN runtime's context lines after an AI Core failure
    ("training", "[ERROR] RUNTIME(6060,python):2026-02-03-04:05:06.070.086 [task_info.cc:1617]6071 GetArgsInfo:[AIC_INFO] "
                 "args(0 to 5) after execute:0x10, 0x20, 0x30, 0x1, 0x1, 0x0,"),
    # MetaX ATU fault context lines
    ("kernel", "[ 4410.000101] METAX.B20300.ATU.ERROR atu 0x2 pde_base_addr 0x6100a40000"),
    ("kernel", "[ 4410.000102] METAX.B20300.ATU.ERROR xpid 9 vfid 0 vf 0 page va 7ff00d1000"),
    # the device black box's other APEI lines
    ("kernel", "/var/log/npu/hisi_logs/device-1/20260203040506-000111000/bbox/kbox.txt:311[101.000201] {2}"
               "[Hardware Error]  physical_address: 0x00001a2b3c4d5e00"),
    ("kernel", "/var/log/npu/hisi_logs/device-1/20260203040506-000111000/bbox/kbox.txt:312[101.000202] {2}"
               "[Hardware Error]  error_type: 2, single-bit ECC"),
    # ModelArts: a normal end
    ("system", "[ModelArts Service Log]Training end with return code: 0"),
    ("system", "[Modelarts Service Log]2026-02-03 04:05:06,070 - INFO - proc-rank-1-device-1 (pid: 221) has exited"),
    # Spaces / ZeroGPU and extension builds: no device failure
    ("training", "RuntimeError: CUDA has been initialized before importing the 'spaces' package"),
    ("training", "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root, or "
                 "install the toolkit."),
    ("system", "warning: memory limit exceeded, spilling partitions to disk"),
    # DeepEP checks of its own arguments
    ("training", "RuntimeError: Failed: Assertion error buffer.cpp:212 'num_ranks % NUM_MAX_NVL_PEERS == 0'"),
    # torch_npu function lookups that succeed are not logged; an unrelated missing symbol is no HCCL fault
    ("training", "RuntimeError: Failed to find function aclnnFlashAttentionScoreV3"),
    # mcelog's other decode lines
    ("kernel", "gpu-node-3 mcelog[1201]: STATUS 8c00004000010091 MCGSTATUS 0"),
]

# the components' own fault formats: (source, line, category, rule id or None, action)
FORMATS: list[tuple[str, str, str, str | None, str]] = [
    # half A: HCCL consistency check
    ("nccl", "[ERROR] HCCL(4141,train):2026-02-03-04:05:06.070.090 [rank_consistentcy_checker.cc:439] [4150]"
             "[InitChannelStage][ParameterConflict]CMD information dataType check fail. local[3], remote[4]",
     "nccl_user_error", "hccl.param_conflict.k32", "restart_app"),
    ("training", "EI0005: 2026-02-03-04:05:06.070.091 The arguments for collective communication are inconsistent "
                 "between ranks:parameter count, local end 4096, remote end 2048",
     "nccl_user_error", "hccl.param_conflict.k32", "restart_app"),
    # HCCL cluster heartbeat: a peer lost (even at INFO), a peer stuck, an error CQE
    ("nccl", "[INFO] HCCL(4141,train):2026-02-03-04:05:06.070.092 [heartbeat.cc:951] [4151][TaskExecStage]"
             "[HeartbeatAbnormal]local rank [10.3.0.1/0]: crimer rank [10.3.0.4/7] status[LOST] by informer rank "
             "[10.3.0.2/2]", "nccl_remote_peer", "hccl.heartbeat_lost.k32", "restart_app"),
    ("nccl", "[ERROR]HCCL(4141,train):2026-02-03-04:05:06.070.093[task_exception_handler.cc:610][4141][TaskExecStage]"
             "[HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[10.3.0.4/7], Arrival Time:[Tue Feb  3 04:04:30 "
             "2026], Discoverer:[10.3.0.2/2], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has "
             "exited, 2. Network Disconnected", "nccl_remote_peer", "hccl.heartbeat_lost.k32", "restart_app"),
    ("nccl", "[ERROR]HCCL(4141,train):2026-02-03-04:05:06.070.094[task_exception_handler.cc:610] [4141][TaskExecStage]"
             "[HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[10.3.0.4/7], Arrival Time:[Tue Feb  3 04:04:31 "
             "2026], ExceptionType:[Stuck Occurred], Possible Reason:1.Host process is stuck, 2.Device task is stuck",
     "nccl_timeout", "hccl.peer_stuck.k32", "restart_app"),
    ("training", "[PID: 5151] 2026-02-03-04:05:06.070.095 Execution Error ROCE CQE(EI0013): An error CQE occurred during "
                 "operator execution. Local information: server 10.3.0.1, device ID 2, device IP 10.4.0.1.",
     "nccl_error", "hccl.heartbeat_cqe.k32", "restart_app"),
    ("nccl", "[ERROR] HCCL(4141,train):2026-02-03-04:05:06.070.096 [heartbeat.cc:1229] [4152][TaskExecStage]"
             "[HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2026-02-03 04:05:06.070001]",
     "nccl_error", None, "restart_app"),
    # HcclResult 9 and the [Timeout] stage marker
    ("nccl", "[ERROR] HCCL(4141,train):2026-02-03-04:05:06.070.097 [transport_manager.cc:1402] [4153]"
             "[SetMachinePara]call trace: hcclRet -> 9", "nccl_timeout", "hccl.ret_timeout.k32", "restart_app"),
    ("nccl", "[ERROR] HCCL(4141,train):2026-02-03-04:05:06.070.098 [hccl_socket_manager.cc:861] [4153][Wait]"
             "[LinksEstablishCompleted] is failed. ret[9].", "nccl_timeout", "hccl.ret_timeout.k32", "restart_app"),
    ("nccl", "[ERROR] HCCL(4141,train):2026-02-03-04:05:06.070.099 [transport_manager.cc:886] [4153][InitChannelStage]"
             "[Timeout]Transport init error! createLink para:rank[3]-localUserrank[3]-localIpAddr[10.3.0.1/3], "
             "remoteRank[5]-remoteUserrank[5]-remoteIpAddr[10.3.0.2/5]", "nccl_timeout", "hccl.ret_timeout.k32",
     "restart_app"),
    # CANN "<Name>(<code>):" console format
    ("training", "[PID: 6161] 2026-02-03-04:05:06.070.100 Execution_Error_SDMA(EI0012): SDMA memory copy task exception "
                 "occurred. Remote rank: [12].", "nccl_error", "hccl.cann_code_named.k32", "restart_app"),
    ("training", "[PID: 6161] 2026-02-03-04:05:06.070.101 Resource_Error_Insufficient_Device_Memory(EI0011): Failed to "
                 "allocate [size: [1MB, 4MB], Affected by QP depth configuration.] bytes of NPU memory.",
     "cuda_oom", "hccl.qp_memory.k32", "restart_app"),
    # torch_npu, DeepEP, PyTorch's NVML warning
    ("training", "RuntimeError: Failed to find function HcclCommResume", "nccl_error", "torch_npu.hccl_symbol.k32",
     "restart_app"),
    ("training", "RuntimeError: Failed: Assertion error runtime.cu:71 'nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, "
                 "rank % 8, 8, num_ranks / 8, &cfg, 0, &team) == 0'", "nccl_error", "deepep.nvshmem_assert.k32",
     "restart_app"),
    ("training", "/home/user/.venv/lib/python3.12/site-packages/torch/cuda/__init__.py:734: UserWarning: Can't get nvml "
                 "device count", "gpu_container_init", "torch.nvml_warning.k32", "none"),
    # Hugging Face Spaces status, ModelArts return codes
    ("system", "Runtime error: Memory limit exceeded (46Gi)", "oom_killer", "hf.memory_limit.k32", "restart_app"),
    ("system", "[ModelArts Service Log]Training end with return code: 139", "segfault", "modelarts.rc_segv.k32",
     "restart_app"),
    ("system", "[ModelArts Service Log] Training end with return code: 134", "process_crash", "modelarts.rc_abort.k32",
     "restart_app"),
    ("system", "[Modelarts Service Log]Training end with return code: 2", "process_exit_nonzero",
     "modelarts.rc_nonzero.k32", "restart_app"),
    ("system", "[Modelarts Service Log] Training end with return code: 137", "process_killed", "modelarts.rc_killed.k32",
     "restart_app"),
    # an Ascend device black box HBM error, MetaX's ATU fault
    ("kernel", "/var/log/npu/hisi_logs/device-6/20260203040506-000222000/bbox/kbox.txt:5120[77.000301] {8}"
               "[Hardware Error]  error_type: 5, multi-symbol chipkill ECC", "gpu_memory_ecc", "ascend.bbox_hbm_ecc.k32",
     "reset_gpu"),
    ("kernel", "[ 4410.000103] METAX.B20300.ATU.ERROR hwip VCN0 fault code(5) perm code: 4",
     "gpu_graphics_engine_fault", "metax.atu_fault.k32", "restart_app"),
    # nvidia-container-cli reporting NVML's version mismatch: the host driver's (existing rule, LABELS.md)
    ("system", "stderr: nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: "
               "unknown (retrying)", "gpu_driver_init", "gpu.driver_version_mismatch", "reboot_node"),
    # half B: Spaces' storage eviction, torch_npu's take-down, the CANN runtime and task scheduler
    ("system", "Space evicted, storage limit exceeded (150G)", "storage_space", "hf.storage_limit.k32", "restart_app"),
    ("training", "[rank6]:[E1203 04:05:06.070102000 compiler_depend.ts:530] [Rank 6] To avoid data inconsistency, we "
                 "are taking the entire process down.", "nccl_error", "torch_npu.pg_takedown.k32", "restart_app"),
    ("training", "[ERROR] RUNTIME(7171,python3):2026-02-03-04:05:06.070.103 [task_info.cc:1678]7180 "
                 "PrintErrorInfoForDavinciTask:Aicore kernel execute failed, device_id=5, stream_id=3, "
                 "report_stream_id=3, task_id=4411, flip_num=1, fault kernel_name=Add_9f8e7d_high_performance_1",
     "gpu_graphics_engine_fault", "ascend.aicore_kernel_failed.k32", "restart_app"),
    ("kernel", "[ERROR] TSCH(-1,null):2026-02-03-04:05:06.070.104 17 (cpuid:1) ai_core_dispatcher.c:1012 "
               "bs_done_exception_proc_timeout: slot_id=2,TS_ctrl=0x4,exception_core_list=0x2,current core "
               "usage=0x3,AI_CORES_COUNT=4, fault_task=9", "gpu_xid_other", "ascend.tsch_timeout.k32", "restart_app"),
    ("training", "EE9999 The error from device(chipId:6, dieId:1), serial number is 2, notify wait timeout occurred "
                 "during task execution, stream_id:18, sq_id:18, task_id:301, notify_id=7, timeout=1836."
                 "[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1320]",
     "nccl_timeout", "cann.event_wait_timeout.k32", "restart_app"),
    # HCCL op retry and the connection-failure headline
    ("nccl", "[OpRetryManager][Init] Connect to agent failed, agentIp_[10.3.0.9]  agentPort [60010]", "nccl_error",
     "hccl.op_retry_connect.k32", "restart_app"),
    ("nccl", "[ERROR] HCCL(8181,train):2026-02-03-04:05:06.070.105 [comm_base.cc:990][8190]the connection failure "
             "between this device and the target device may be due to the following reasons:", "nccl_error",
     "hccl.connection_failure.k32", "restart_app"),
    # device memory exhausted: NPU driver, MindIE, MindSpore
    ("training", "[ERROR] DRV(9191,python3):2026-02-03-04:05:06.070.106 [ascend][curpid: 9191, 9200][drv][devmm]"
                 "[devmm_alloc_managed 126]<errno:12, 6> heap_alloc_managed out of memory, pp=0x2, bytesize=4294967296.",
     "cuda_oom", "ascend.devmm_oom.k32", "restart_app"),
    ("training", "RuntimeError: Device out of memory (OOM) reported by PyTorch, but it can possibly triggered by HCCL. "
                 "Error_code: MIE05E000006 (rank 3)", "cuda_oom", "mindie.device_oom.k32", "restart_app"),
    ("training", "[EXCEPTION] DEVICE(1201,ffff9c,python):2026-02-03-04:05:06.070.107 Device(id:1) memory isn't enough "
                 "and alloc failed, kernel name: Default/BatchMatMul-op7, alloc size: 536870912B.",
     "cuda_oom", "mindie.device_oom.k32", "restart_app"),
    # mcelog's transaction decode
    ("kernel", "gpu-node-3 mcelog[1201]: Transaction: Memory write error", "hardware_mce", "mcelog.transaction.k32",
     "none"),
    # step C: HCCL port binding, aicore / aivec error exceptions
    ("nccl", "[ERROR] HCCL(2121,train):2026-02-03-04:05:06.070.108 [hccl_socket.cc:106] [2121][HcclSocket][Listen] "
             "socket type[0], listen on ip[10.4.0.3] and specific port[16666] fail. Please check the port status and "
             "whether the port is being used by other process.", "nccl_user_error", "hccl.port_bind.k32",
     "restart_app"),
    ("training", "EZ9999: Inner Error! The error from device(chipId:0, dieId:0), serial number is 11, there is an exception "
                 "of aivec error, core id is 3, error code = 0x800000", "gpu_graphics_engine_fault",
     "ascend.aicore_error_exception.k32", "restart_app"),
    ("training", "EE1002: [PID: 3001] 2026-02-03-04:05:06.070.109 Stream synchronize timeout. stream_id=12, "
                 "timeout=300000ms", "nccl_timeout", "cann.stream_sync_timeout.k32", "restart_app"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None, action: str) -> None:
    expect_format(classifier, source, line, category, rule_id, action)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0


NODE_ACTIONS_KEPT = {"ascend.bbox_hbm_ecc.k32"}


def test_k32_rules_take_no_node_for_peers_warnings_or_job_errors(classifier: Classifier) -> None:
    """Only the NPU's own HBM multi-bit ECC keeps a node action (reset_gpu); the rest never take a node."""
    actions = fit_rule_actions(classifier, ".k32")
    assert len(actions) == 30
    assert {rid for rid, action in actions.items() if action not in ("restart_app", "none")} == NODE_ACTIONS_KEPT
