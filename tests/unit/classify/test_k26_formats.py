"""Brief K26: the vocabularies of the components behind holdout26's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: NCCL's CUDA driver entry-point loader (cudawrap.cc), NCCL's suspected-mismatch hang warning,
NVSHMEM's error macros (CUDA calls, underscore build paths, the 3.x "error status" form, the 2.x transports tree)
and vLLM's V1 engine-core deaths. Half B: HAMi-core's memory-limit errors, the dynamic linker's undefined CUDA/NVML
symbols, TensorFlow's kernel-launch OOM, Caffe2's NCCL enforce, the JAX coordination service's incarnation check,
JuiceFS's fatal mount errors, libceph's option parser, glog FATAL checks, Docker's device-driver selection and
NVSHMEM's bootstrap socket failures naming a peer.

Each new rule states its action: none of them takes a node (restart_app), since each reports a job, library or
peer condition.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # half A: NCCL cudawrap INFO lines
    ("nccl", "gpu-q3:7100:7100 [1] NCCL INFO cudaDriverVersion 12080"),
    ("nccl", "gpu-q3:7100:7100 [1] NCCL INFO Retrieving CUDA driver entry points for cuMem"),
    # NVSHMEM: a per-transport attempt is non-fatal (transport.cpp sets status = 0 and moves on)
    ("training", "WARN: init failed for remote transport: ibdevx"),
    ("training", "/opt/nvshmem_src/src/host/transport/transport.cpp:nvshmemi_transport_init:300: "
                 "init failed for transport: IBRC"),
    ("training", "/opt/build/main_nvshmem/src/modules/transport/common/transport_gdr_common.cpp 40 GDRCopy library "
                 "not found. disabling GDRCopy."),
    ("training", "/home/dev/app/src/cache.cpp:77: non-zero status: 1 cuMemMap failed in mock"),
    # vLLM: engine start-up and readiness
    ("training", "INFO 05-06 07:08:09 [core.py:75] Initializing a V1 LLM engine (v0.10.0) with config: model='x'"),
    ("training", "INFO 05-06 07:08:09 [core_client.py:450] Core engine process 1 ready."),
    # half B: HAMi-core messages and a non-OOM result code
    ("training", "[HAMI-core Msg(40:140011112222333:libvgpu.c:840)]: Initializing....."),
    ("training", "[HAMI-core Info(40:140011112222333:hook.c:240)]: Start hijacking"),
    ("training", "[HAMI-core ERROR (pid:40 thread=140011112222333 allocator.c:120)]: cuMemoryAllocate failed res=1"),
    # ld.so: an undefined symbol that is no CUDA/NVML entry point
    ("training", "python: symbol lookup error: /opt/venv/lib/libtorchvision.so: undefined symbol: _ZN2at4_ops5zeros"),
    # TensorFlow: a successful status, a host allocator notice
    ("training", "Non-OK-status: GpuLaunchKernel(ReduceKernel<float>, g, b, 0, d.stream(), x) status: OK"),
    # JAX coordination service: normal connect of a task
    ("training", "I0101 00:00:01.000000 11 coordination_service.cc:600] /job:jax_worker/replica:0/task:2 has "
                 "connected to coordination service. Incarnation: 4242"),
    # JuiceFS: INFO lines carry the same Go source suffix
    ("system", "2025/02/03 04:05:06.000000 juicefs[88] <INFO>: Volume is formatted as {Name: jfs, UUID: 1} "
               "[format.go:480]"),
    ("system", "2025/02/03 04:05:06.000000 juicefs[88] <INFO>: Data use s3://bucket/jfs/ [format.go:471]"),
    # glog: non-fatal severities
    ("training", "W0101 12:00:00.123456  4242 cache.cc:90] Check failed: entry fresh; refetching"),
    # APEI: the detail line that a corrected record carries
    ("kernel", "[ 3001.000020] {12}[Hardware Error]: It has been corrected by h/w and requires no further action"),
]

# the components' own fault formats: (source, line, category, rule id or None, action)
FORMATS: list[tuple[str, str, str, str | None, str]] = [
    # half A: NCCL src/misc/cudawrap.cc
    ("nccl", "gpu-q3:7100:7100 [1] misc/cudawrap.cc:150 NCCL WARN Retrieve cuMemGetAddressRange failed with 500 "
             "status 2", "nccl_cuda_error", "nccl.cudawrap.k26", "restart_app"),
    ("nccl", "gpu-q3:7100:7100 [1] misc/cudawrap.cc:88 NCCL WARN Retrieve cuGetErrorString failed with 34",
     "nccl_cuda_error", "nccl.cudawrap.k26", "restart_app"),
    ("nccl", "gpu-q3:7100:7100 [1] misc/cudawrap.cc:222 NCCL WARN CUDA some PFN functions not found in the library",
     "nccl_cuda_error", "nccl.cudawrap.k26", "restart_app"),
    ("nccl", "gpu-q3:7100:7100 [1] misc/cudawrap.cc:190 NCCL WARN Failed to load CUDA missing symbol cuInit",
     "nccl_cuda_error", "nccl.cudawrap.k26", "restart_app"),
    # NCCL src/init.cc ncclDevSuspectedMismatch
    ("nccl", "gpu-q3:7100:7100 [1] init.cc:1400 NCCL WARN Your program may be hanging, this may be caused by a "
             "collective mismatch around rank 12. Please check your collective calls at and around this rank.",
     "nccl_timeout", "nccl.suspected_mismatch.k26", "restart_app"),
    # NVSHMEM nvshmemx_error.h: a CUDA call, and the other forms of its error macros
    ("training", "/opt/build/r12.9/main_nvshmem/src/host/mem/mem_heap.cpp:1600: non-zero status: 1 cuMemSetAccess "
                 "failed", "nccl_cuda_error", "comm.nvshmem_cuda_call.k26", "restart_app"),
    ("training", "/opt/nvshmem_src/src/host/mem/mem_heap.cpp:900: error status: 2 (NVSHMEMX_ERROR_OUT_OF_MEMORY) "
                 "cudaMalloc failed", "nccl_cuda_error", "comm.nvshmem_cuda_call.k26", "restart_app"),
    ("training", "/opt/build/r12.9/main_nvshmem/src/host/init/init.cu:1100: non-zero status: 7 team split failed",
     "nccl_error", "comm.nvshmem.k16", "restart_app"),
    ("training", "/opt/nvshmem_src/src/host/init/init.cu:1200: error status: 7 (NVSHMEMX_ERROR_INTERNAL) "
                 "bootstrap init failed", "nccl_error", "comm.nvshmem.k16", "restart_app"),
    ("training", "src/comm/transports/ibrc/ibrc.cpp: NULL value ibv_alloc_pd failed", "nccl_error",
     "comm.nvshmem.k16", "restart_app"),
    # vLLM V1 engine
    ("training", "ERROR 05-06 07:08:09 [core_client.py:580] Engine core proc EngineCore_DP3 died unexpectedly, "
                 "shutting down client.", "process_crash", "process.vllm_engine_dead.k26", "restart_app"),
    ("training", "(EngineCore_DP0 pid=9100) ERROR 05-06 07:08:09 [core.py:720] EngineCore encountered a fatal error.",
     "process_crash", "process.vllm_engine_dead.k26", "restart_app"),
    ("training", "(EngineCore_DP0 pid=9100) ERROR 05-06 07:08:09 [core.py:730] EngineCore failed to start.",
     "process_crash", "process.vllm_engine_dead.k26", "restart_app"),
    ("training", "(APIServer pid=9000) RuntimeError: Engine core initialization failed. See root cause above. "
                 "Failed core proc(s): {'EngineCore_DP0': 1}", "process_crash", "process.vllm_engine_dead.k26",
     "restart_app"),
    # half B: HAMi-core allocator.c
    ("training", "[HAMI-core ERROR (pid:55 thread=139900011122233 allocator.c:55)]: Device 2 OOM 12884901888 / "
                 "12000000000", "cuda_oom", "hami.core_oom.k26", "restart_app"),
    ("training", "[HAMI-core ERROR (pid:55 thread=139900011122233 allocator.c:118)]: cuMemoryAllocate failed res=2",
     "cuda_oom", "hami.core_oom.k26", "restart_app"),
    # glibc ld.so on a CUDA / NVML entry point
    ("training", "python3: symbol lookup error: /usr/local/vgpu/libvgpu.so: undefined symbol: cuStreamBeginCapture_v2",
     "cuda_driver_init", "hami.symbol_lookup.k26", "restart_app"),
    ("training", "nvidia-smi: symbol lookup error: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: undefined symbol: "
                 "nvmlDeviceGetMemoryInfo_v2", "cuda_driver_init", "hami.symbol_lookup.k26", "restart_app"),
    # TensorFlow gpu_kernel_helper.h
    ("training", "Non-OK-status: GpuLaunchKernel(BiasNHWCKernel<float>, config.block_count, config.thread_per_block, "
                 "0, d.stream(), n, x, b, out) status: Internal: out of memory", "cuda_oom", "tf.gpu_launch_oom.k26",
     "restart_app"),
    # Caffe2 cuda_nccl_gpu.cc
    ("training", "caffe2::EnforceNotMet: [enforce fail at cuda_nccl_gpu.cc:31] status == ncclSuccess. 5 vs 0.  "
                 "Error at: /opt/caffe2/caffe2/contrib/nccl/cuda_nccl_gpu.cc31: invalid usage", "nccl_error",
     "caffe2.nccl_enforce.k26", "restart_app"),
    # XLA/TSL coordination_service.cc
    ("training", "2025-01-01 00:00:00.000000: E external/xla/xla/tsl/distributed_runtime/coordination/"
                 "coordination_service.cc:900] /job:jax_worker/replica:0/task:5 unexpectedly tried to connect with a "
                 "different incarnation. It has likely restarted.", "torch_elastic",
     "jax.coordination_incarnation.k26", "restart_app"),
    # JuiceFS cmd/*.go and libceph
    ("system", "2025/02/03 04:05:06.000000 juicefs[88] <FATAL>: database is not formatted, please run `juicefs "
               "format ...` first [main.go:40]", "storage_remote_fs", "storage.juicefs_fatal.k26", "restart_app"),
    ("system", "object storage: create bucket jfs: AccessDenied: Access Denied [format.go:450]",
     "storage_remote_fs", "storage.juicefs_fatal.k26", "restart_app"),
    ("kernel", "[  300.000001] libceph: bad option at 'mds_namespace=cephfs-b'", "storage_remote_fs",
     "storage.juicefs_fatal.k26", "restart_app"),
    # glog FATAL CHECK (XLA)
    ("training", "F0707 07:07:07.070707  123456 layout_util.cc:300] Check failed: shape.has_layout() (0 vs. 1)",
     "process_crash", "process.glog_check_failed.k26", "restart_app"),
    # Docker: the capability list as some renderers print it (existing rule gpu.container_init; A1: no GPU
    # device driver registered with Docker is a configuration, restart_app, see test_a1_actions.py)
    ("system", "docker: Error response from daemon: could not select device driver \"\" with capabilities: [].",
     "gpu_container_init", "gpu.container_init", "restart_app"),
    # NVSHMEM's NCCL-derived socket bootstrap: the peer closed the connection
    ("training", "/opt/nvshmem/src/modules/bootstrap/uid/ncclSocket/ncclsocket_socket.cpp:socketProgressOpt:40: "
                 "socketProgressOpt: Call to recv from 10.1.2.3<40001> failed : Connection reset by peer",
     "nccl_remote_peer", "nccl.remote_peer", "restart_app"),
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


def test_no_k26_rule_takes_a_node(classifier: Classifier) -> None:
    """Every rule this brief added reports a job, library or peer condition: restart_app or none."""
    actions = fit_rule_actions(classifier, ".k26")
    assert len(actions) == 11
    assert set(actions.values()) <= {"restart_app", "none"}, actions


@pytest.mark.parametrize(("line", "action"), [
    ("[ 5120.114402] {2}[Hardware Error]:  section_type: PCIe error", "none"),
    ("[Hardware Error]: section_type: PCIe error", "none"),
    ("{2}[Hardware Error]:   aer_uncor_status: 0x00040000, aer_uncor_mask: 0x00400000", "reboot_node"),
])
def test_an_apei_pcie_section_line_alone_takes_no_node(classifier: Classifier, line: str, action: str) -> None:
    """The section line of an APEI record does not say whether the error was corrected (the common case): it
    counts against the node but takes it only with the record's non-zero uncorrectable status."""
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "pcie_aer"
    assert found.action == action


def test_an_ib_tool_that_cannot_stat_its_device_takes_no_node(classifier: Classifier) -> None:
    """ibstat / ibstatus given a device that is not there (often a wrong name) take no node on their own word."""
    found = classifier.classify("ibpanic: [4412] main: stat of IB device 'mlx5_7' failed: No such file or directory",
                                "system")
    assert found is not None and found.category == "ib_hca_fault"
    assert found.action == "none"


@pytest.mark.parametrize(("line", "action"), [
    ("nvidia-nvswitch1: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 12 LTSSM Fault Up", "reset_gpu"),
    ("nvidia-nvswitch1: SXid (PCI:0000:05:00.0): 20034, Severity 5 Engine instance 12 Sub-engine instance 00", "none"),
    ("nvidia-nvswitch1: SXid (PCI:0000:05:00.0): 19084, Non-fatal, Link 7 AN1 Heartbeat Timeout Error (First)", "none"),
])
def test_an_sxid_detail_line_takes_no_node_on_its_own(classifier: Classifier, line: str, action: str) -> None:
    """The SXid headline says Fatal or Non-fatal; its Severity/Engine detail line counts but takes no node alone."""
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "gpu_nvlink"
    assert found.action == action


def test_advice_about_running_out_of_memory_is_no_oom(classifier: Classifier) -> None:
    """vLLM's start-up notice says what to do if memory runs out; nothing ran out."""
    notice = ("(RayWorkerVllm pid=4410) INFO 03-02 01:02:03 model_runner.py:612] CUDA graphs can take additional 2~4 GiB "
              "memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization`.")
    assert classifier.classify(notice, "training") is None
    assert classifier.classify("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "training")
