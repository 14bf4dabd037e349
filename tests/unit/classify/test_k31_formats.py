"""Brief K31: the vocabularies of the components behind holdout31's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: UCX's endpoint error callback by ucs_status_t (the example client/server's wording that UCX
applications such as NIXL / Dynamo reuse), the Go runtime's fatal-signal table names and unrecovered run-time panics,
PyTorch's legacy checkpoint reader, torch_memory_saver's CUDA checks by result code, vLLM's executor worker monitors,
SGLang's disaggregation transfer worker (NIXL / Mooncake rooms), PyTorch 1.x's misspelt ncclUniqueId store timeout and
the NVIDIA device plugin's health-setup failures (a device withheld for the plugin's own reason, action none). Half B:
go-nvml's symbolic Return names ("ERROR_UNKNOWN", "ERROR_LIB_RM_VERSION_MISMATCH") in the device plugin's NVML init
failure and PyTorch's "got exception:" wording of the ncclUniqueId store timeout (existing rules widened). Step C
(brief point 2, the split's components beyond its misses): SGLang's child reaper by raw wait status, the serving
processes' top-level exception handlers of SGLang and vLLM, and the kubelet eviction manager by resource.

Each new rule states its action: none takes a node (restart_app or none): peers, warnings and set-up failures of a
health monitor are no evidence against this node's hardware.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # UCX: a request cancelled while endpoints close at shutdown; UCX's own INFO configuration line
    ("training", "error handling callback was invoked with status -16 (Request canceled)"),
    ("training", "[1712000000.500100] [pre-1:900:0]     ucp_worker.c:1900 UCX  INFO  ucp_context_0 intra-node cfg#2 "
                 "rma(cuda_ipc/cuda) am(cuda_copy/cuda sysv/memory)"),
    # Go: a recovered panic logged by apimachinery, a signal the program was asked to handle, SIGSEGV's own rule aside
    ("system", "E0704 05:06:07.080910    3301 runtime.go:79] Observed a panic: runtime error: slice bounds out of range "
               "[:9] with capacity 8"),
    ("system", "time=2025-07-04T05:06:07Z level=info msg=\"received signal\" signal=SIGTERM"),
    ("system", "PC=0x46f1a0 m=0 sigcode=0"),
    # PyTorch: loading progress and a weights_only notice
    ("training", "Loading checkpoint shards: 100%|##########| 4/4 [00:12<00:00,  3.01s/it]"),
    ("training", "FutureWarning: You are using `torch.load` with `weights_only=False` (the current default value)"),
    # torch_memory_saver: its debug chatter and its pause / resume notices
    ("training", "[torch_memory_saver.cpp] chunk_sizes[3] = 2097152"),
    ("training", "[torch_memory_saver.cpp] Unsupported environment varialbe value  name=TMS_INIT_ENABLE value=maybe"),
    # vLLM: a worker shut down on request, and the engine's normal start
    ("training", "(EngineCore_DP0 pid=88) INFO 07-01 02:03:04 [multiproc_executor.py:520] Parent process exited, "
                 "terminating worker"),
    ("training", "(EngineCore pid=88) INFO 07-01 02:03:04 [ray_executor_v2.py:210] RayWorkerProc rank=[0] started"),
    # SGLang: buffers registered, a client abort
    ("training", "[2026-03-04 05:06:07 TP0] Register aux tensors, len(aux_addrs)= 1"),
    ("training", "KVTransferError(bootstrap_room=5150): Aborted by AbortReq."),
    # PyTorch: the ncclUniqueId broadcast timing line
    ("training", "I0704 05:06:07.080910 ProcessGroupNCCL.cpp:2010] [PG 0 Rank 5] ProcessGroupNCCL broadcast unique ID "
                 "through store took 0.31 ms"),
    # step C: SGLang's child reaper with a status that is no failure (SIGTERM at shutdown), its frame line; the
    # scheduler starting; vLLM worker shutdown; kubelet reclaiming before any eviction, or evicting for pids
    ("training", "[2026-05-06 07:08:09] Child process unexpectedly failed with exitcode=15. pid=6001"),
    ("training", "[2026-05-06 07:08:09 TP1] Scheduler started, max_total_num_tokens=99000"),
    ("training", "(VllmWorker TP3 pid=7071) INFO 05-06 07:08:09 [multiproc_executor.py:510] WorkerProc shutting down."),
    ("training", "the engine loop is not running; call start() first"),
    ("system", "I0506 07:08:09.101112    2020 eviction_manager.go:366] \"Eviction manager: attempting to reclaim\" "
               "resourceName=\"ephemeral-storage\""),
    # device plugin: devices registered, a healthy device
    ("system", "I0704 05:06:07.080910       1 server.go:190] Registered device plugin for 'nvidia.com/mig-2g.20gb' "
               "with Kubelet"),
]

# the components' own fault formats: (source, line, category, rule id or None, action)
FORMATS: list[tuple[str, str, str, str | None, str]] = [
    # UCX error callback by status
    ("training", "[1712000000.600100] [pre-2:4410:1] error handling callback was invoked with status -3 "
                 "(Input/output error)", "nccl_error", "comm.ucx_err_cb.k31", "restart_app"),
    ("training", "error handling callback was invoked with status -80 (Endpoint timeout)", "nccl_error",
     "comm.ucx_err_cb.k31", "restart_app"),
    ("training", "error handling callback was invoked with status -6 (Destination is unreachable)", "nccl_error",
     "comm.ucx_err_cb.k31", "restart_app"),
    ("training", "error handling callback was invoked with status -25 (Connection reset by remote peer)",
     "nccl_remote_peer", "comm.ucx_err_cb_peer.k31", "restart_app"),
    ("training", "ERROR ucx_client: error handling callback was invoked with status Endpoint is not connected",
     "nccl_remote_peer", "comm.ucx_err_cb_peer.k31", "restart_app"),
    # Go runtime fatal signals and panics (SIGSEGV stays with the segfault rule)
    ("system", "Jul 04 05:06:07 gpu-n8 dstack-shim[5120]: SIGFPE: floating-point exception", "process_crash",
     "process.go_fatal_signal.k31", "restart_app"),
    ("system", "SIGTRAP: trace trap", "process_crash", "process.go_fatal_signal.k31", "restart_app"),
    ("system", "SIGSYS: bad system call", "process_crash", "process.go_fatal_signal.k31", "restart_app"),
    ("system", "[signal SIGILL: illegal instruction code=0x2 addr=0x7f10aa00 pc=0x7f10aa00]", "process_crash",
     "process.go_fatal_signal.k31", "restart_app"),
    ("system", "fatal error: unexpected signal during runtime execution", "process_crash",
     "process.go_fatal_signal.k31", "restart_app"),
    ("system", "panic: runtime error: integer divide by zero", "process_crash", "process.go_fatal_signal.k31",
     "restart_app"),
    ("system", "panic: runtime error: index out of range [7] with length 7", "process_crash",
     "process.go_fatal_signal.k31", "restart_app"),
    ("system", "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x9a1b2c]", "segfault", None,
     "restart_app"),
    # PyTorch legacy serialization reader
    ("training", "RuntimeError: storage has wrong size: expected 9437184 got 256", "storage_io",
     "storage.torch_serialization.k31", "restart_app"),
    ("training", "RuntimeError: storage has wrong byte size: expected 1048576 got 0", "storage_io",
     "storage.torch_serialization.k31", "restart_app"),
    ("training", "RuntimeError: unexpected EOF, expected 2097152 more bytes. The file might be corrupted.",
     "storage_io", "storage.torch_serialization.k31", "restart_app"),
    # torch_memory_saver CUDA checks by result code
    ("training", "(WorkerDict pid=7001) [torch_memory_saver.cpp] CUresult error  result=2 file=csrc/torch_memory_saver"
                 ".cpp func=cu_mem_create line=110", "cuda_oom", "cuda.tms_oom.k31", "restart_app"),
    ("training", "[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=/w/csrc/utils.h func=cu_mem_create "
                 "line=151", "cuda_oom", "cuda.tms_oom.k31", "restart_app"),
    ("training", "[torch_memory_saver.cpp] CUresult error  result=700 file=csrc/torch_memory_saver.cpp func=resume "
                 "line=201", "cuda_illegal_memory_access", "cuda.tms_illegal_address.k31", "restart_app"),
    ("training", "[torch_memory_saver.cpp] cudaError error: 719 (unspecified launch failure)  file=/w/csrc/core.cpp "
                 "func=pause line=88", "cuda_launch_failure", "cuda.tms_launch_failure.k31", "restart_app"),
    # vLLM executor worker monitors
    ("training", "(EngineCore pid=3131) ERROR 08-09 10:11:12 [ray_executor_v2.py:466] RayWorkerProc rank=[5] died "
                 "unexpectedly, shutting down executor.", "process_killed", "process.vllm_worker_died.k31",
     "restart_app"),
    ("training", "ERROR 08-09 10:11:12 [multiproc_executor.py:150] Worker proc VllmWorker-1 died unexpectedly, "
                 "shutting down executor.", "process_killed", "process.vllm_worker_died.k31", "restart_app"),
    # SGLang disaggregation transfer worker
    ("training", "[2026-08-09 10:11:12 TP2] Unexpected transfer worker error for room 1029384756473829100",
     "nccl_error", "comm.sglang_kv_transfer.k31", "restart_app"),
    ("training", "[2026-08-09 10:11:12 TP0] Transfer failed for room 5566: NIXL transfer encountered ERR room=5566",
     "nccl_error", "comm.sglang_kv_transfer.k31", "restart_app"),
    ("training", "Exception: NIXL memory registration failed for kv tensors", "nccl_error",
     "comm.sglang_kv_transfer.k31", "restart_app"),
    ("training", "sglang.srt.disaggregation.base.conn.KVTransferError: KVTransferError(bootstrap_room=31337): Failed "
                 "to send kv chunk of 31337 to 10.4.4.4:17100", "nccl_error", "comm.sglang_kv_transfer.k31",
     "restart_app"),
    ("training", "KVTransferError(bootstrap_room=31338): Failed to get kvcache from prefill instance, it might be dead",
     "nccl_remote_peer", "comm.sglang_kv_peer.k31", "restart_app"),
    # a NIXL status naming the peer keeps the existing NIXL rule
    ("training", "[2026-08-09 10:11:12 TP1] NIXL transport error for room 8080: NIXL_ERR_REMOTE_DISCONNECT",
     "nccl_remote_peer", "comm.nixl_remote.k23", "restart_app"),
    # PyTorch 1.x spelling of the ncclUniqueId store timeout (existing rule, pattern widened)
    ("training", "RuntimeError: [11] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d "
                 "key-value store by key '4', but store->get('4') got error: Socket Timeout", "nccl_timeout",
     "nccl.unique_id_timeout", "restart_app"),
    # half B: go-nvml's symbolic Return names in "Failed to initialize NVML: %v." (existing rules widened; their
    # actions are the ones the prose wording of the same NVML codes already had)
    ("system", "E0705 06:07:08.090100       1 factory.go:77] Failed to initialize NVML: ERROR_UNKNOWN.",
     "gpu_container_init", "gpu.container_init", None),
    ("system", "E0705 06:07:08.090100       1 factory.go:77] Failed to initialize NVML: ERROR_LIB_RM_VERSION_MISMATCH.",
     "gpu_driver_init", "gpu.driver_version_mismatch", None),
    ("system", "E0705 06:07:08.090100       1 factory.go:77] Failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND.",
     "gpu_container_init", "gpu.container_init", None),
    # half B: the ncclUniqueId store read that raised "got exception:" (existing rule widened)
    ("training", "RuntimeError: [2] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d "
                 "key-value store by key '7', but store->get('7') got exception: Socket Timeout", "nccl_timeout",
     "nccl.unique_id_timeout", "restart_app"),
    # step C: SGLang's child reaper by raw wait status
    ("training", "[2026-05-06 07:08:09] Child process unexpectedly failed with exitcode=256. pid=6002",
     "process_exit_nonzero", "process.sglang_child_exit.k31", "restart_app"),
    ("training", "WARNING:root:Child process unexpectedly failed with an exit code 9. pid=6003", "process_killed",
     "process.sglang_child_signal.k31", "restart_app"),
    ("training", "[2026-05-06 07:08:09] Child process unexpectedly failed with exitcode=11. pid=6004", "segfault",
     "process.sglang_child_segv.k31", "restart_app"),
    ("training", "[2026-05-06 07:08:09] Child process unexpectedly failed with exitcode=6. pid=6005", "process_crash",
     "process.sglang_child_crash.k31", "restart_app"),
    # step C: serving processes' top-level exception handlers (a cause on the same line keeps its own rule)
    ("training", "[2026-05-06 07:08:09 TP7] Scheduler hit an exception: Traceback (most recent call last):",
     "process_crash", "process.serving_engine_exception.k31", "restart_app"),
    ("training", "[2026-05-06 07:08:09] DetokenizerManager hit an exception: Traceback (most recent call last):",
     "process_crash", "process.serving_engine_exception.k31", "restart_app"),
    ("training", "[2026-05-06 07:08:09] Rank 3 scheduler is dead. Please check if there are relevant logs.",
     "process_crash", "process.serving_engine_exception.k31", "restart_app"),
    ("training", "(Worker_TP2 pid=9090) ERROR 05-06 07:08:09 [multiproc_executor.py:700] WorkerProc hit an exception.",
     "process_crash", "process.serving_engine_exception.k31", "restart_app"),
    ("training", "(Worker_TP2 pid=9090) ERROR 05-06 07:08:09 [multiproc_executor.py:520] WorkerProc failed to start.",
     "process_crash", "process.serving_engine_exception.k31", "restart_app"),
    ("training", "vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not running. Inspect the stacktrace "
                 "to find the original error: IndexError('list index out of range').", "process_crash",
     "process.serving_engine_exception.k31", "restart_app"),
    ("training", "[2026-05-06 07:08:09 TP7] Scheduler hit an exception: torch.OutOfMemoryError: CUDA out of memory. "
                 "Tried to allocate 3.50 GiB.", "cuda_oom", None, "restart_app"),
    # step C: kubelet eviction manager by resource
    ("system", "I0506 07:08:09.101112    2020 eviction_manager.go:377] \"Eviction manager: must evict pod(s) to "
               "reclaim\" resourceName=\"memory\"", "oom_killer", "process.kubelet_evict_memory.k31", "restart_app"),
    ("system", "W0506 07:08:09.101112    2020 eviction_manager.go:340] eviction manager: must evict pod(s) to reclaim "
               "ephemeral-storage", "storage_space", "storage.kubelet_evict_disk.k31", "restart_app"),
    # device plugin: the plugin's own set-up failure withholds a device (action none); an Xid keeps reset_gpu
    ("system", "W0704 05:06:07.080910       1 health.go:101] Could not determine device placement for "
               "MIG-9f8e7d6c-5b4a-3928-1706-f5e4d3c2b1a0: failed to get parent device; Marking it unhealthy.",
     "gpu_device_unhealthy", "gpu.device_plugin_setup_unhealthy.k31", "none"),
    ("system", "I0704 05:06:07.080910       1 health.go:140] Unable to register events for GPU-11aa22bb: "
               "ERROR_NOT_SUPPORTED; marking it as unhealthy", "gpu_device_unhealthy",
     "gpu.device_plugin_setup_unhealthy.k31", "none"),
    ("system", "I0704 05:06:07.080910       1 health.go:160] XidCriticalError: Xid=79 on Device=GPU-11aa22bb; marking "
               "device as unhealthy.", "gpu_device_unhealthy", "gpu.device_plugin_unhealthy", "reset_gpu"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None, action: str | None) -> None:
    expect_format(classifier, source, line, category, rule_id, action)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0


def test_k31_rules_take_no_node(classifier: Classifier) -> None:
    """Every K31 rule recommends restart_app or none: peers, warnings and monitor set-up failures take no node."""
    actions = fit_rule_actions(classifier, ".k31")
    assert len(actions) == 18
    assert {rid for rid, action in actions.items() if action not in ("restart_app", "none")} == set()


@pytest.mark.parametrize("line", [
    "panic: assignment to entry in nil map",
    "panic: close of closed channel",
    "panic: failed to register device plugin: context deadline exceeded",
])
def test_a_go_daemons_panic_in_the_host_journal_is_no_kernel_panic(classifier: Classifier, line: str) -> None:
    # Go's runtime and log.Panicf print "panic: <value>" at the start of a line; kubelet, containerd and the
    # device plugin are Go programs whose output reaches the host journal. K31's review found that
    # kernel.panic read the form from any host source and rebooted the node; it is a kernel's only in
    # kernel records (kernel.panic_bare).
    found = classifier.classify(line, "system")
    assert found is None or found.category != "kernel_panic", found
    kernel = classifier.classify(line, "kernel")
    assert kernel is not None and kernel.category == "kernel_panic" and kernel.rule_id == "kernel.panic_bare"


@pytest.mark.parametrize(("source", "line"), [
    ("training", "Failed to initialize NVML: Unknown Error"),
    ("system", "E0412 10:02:11.201 1 factory.go:77] Failed to initialize NVML: ERROR_UNKNOWN."),
])
def test_a_container_that_lost_its_gpus_is_recreated_not_its_node_rebooted(classifier: Classifier, source: str,
                                                                          line: str) -> None:
    # NVIDIA's notice (NVIDIA/nvidia-docker#1730): a running container loses its device cgroup rules on a
    # systemd daemon-reload with runc and NVML fails with NVML_ERROR_UNKNOWN; recreating the container
    # restores access. The toolkit's own failures to set a container up (the driver not loaded) still
    # take the node.
    found = classifier.classify(line, source)
    assert found is not None and found.category == "gpu_container_init" and found.action == "restart_app"
    driver = classifier.classify("nvidia-container-cli: initialization error: nvml error: driver not loaded", "system")
    assert driver is not None and driver.action == "reboot_node"
