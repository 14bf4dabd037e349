"""Brief K28: the vocabularies of the components behind holdout28's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: dcgm-exporter's embedded host engine (go-dcgm), DALI's cuFile stream, NCCL's GPU PCI path
lookup, the Mozilla translations GPU probe and the kubelet's node-condition evictions. Half B: Horovod's shutdown
status (a peer's failure) and its coordinator's request checks (mismatched collectives, precondition errors), and
NCCL's tuner finding no allowed algorithm/protocol. Components of lines that were already right, extended to their
other documented wordings: powerpc's kernel NULL-pointer oops and Ray 0.8's worker-death warning. Step C (brief point
2, components of the split beyond its misses): vLLM's KV-cache memory checks, Ray's old memory monitor and raylet
exits.

Each new rule states its action: none of them takes a node (restart_app), since each reports a job, library,
monitoring-agent or peer condition.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # half A: dcgm-exporter start-up
    ("system", 'time="2025-02-03T04:05:06Z" level=info msg="Starting dcgm-exporter"'),
    ("system", 'time="2025-02-03T04:05:06Z" level=info msg="DCGM successfully initialized!"'),
    # a cuFile import that the application itself falls back from
    ("training", "CUFile import of /data/train/shard-3.npy unavailable (GDS disabled), falling back to POSIX reads"),
    # NCCL: NIC path lookups only warn and go on
    ("nccl", "gpu-k9:5512:5570 [2] NCCL WARN Could not find real path of mlx5_4 (/sys/class/infiniband/mlx5_4/device)"),
    ("nccl", "gpu-k9:5512:5570 [2] NCCL WARN Could not find real path of /sys/class/net/team0/device"),
    # the GPU probe's success line
    ("training", "[task 2025-05-06T07:08:09.000Z] [train] CUDA-capable GPU(s) detected."),
    # the kubelet's healthy conditions
    ("system", "Normal   NodeHasNoDiskPressure    2m   kubelet  Node gpu-w-4 status is now: NodeHasNoDiskPressure"),
    ("system", "  DiskPressure     False   Tue, 06 May 2025 07:08:09 +0000   KubeletHasNoDiskPressure     "
               "kubelet has no disk pressure"),
    ("system", "  MemoryPressure   False   Tue, 06 May 2025 07:08:09 +0000   KubeletHasSufficientMemory   "
               "kubelet has sufficient memory available"),
    # half B: Horovod's stall inspector and elastic notices, NCCL's tuning INFO
    ("training", "[1,0]<stderr>:W horovod/common/stall_inspector.cc:90 Mismatched ranks listed below are still waiting"),
    ("training", "[2025-05-06 07:08:09.000] Horovod shut down cleanly after 40 epochs"),
    ("nccl", "gpu-b7:5121:5121 [0] NCCL INFO 1048576 Bytes -> Algo 1 proto 2 time 35.120000"),
    # the lines around a powerpc oops, and Ray's task notices
    ("kernel", "[  512.004420] Faulting instruction address: 0xc0000000008a1c2c"),
    ("training", "2020-05-06 07:08:09,101\tINFO worker.py:1090 -- Task ffffffffffffffff0a1b2c3d0100 finished executing"),
    # step C: vLLM's KV-cache sizing notices, Ray's expected raylet stop
    ("training", "(EngineCore_DP0 pid=4242) INFO 06-07 08:09:10 [gpu_worker.py:276] Available KV cache memory: 17.80 GiB"),
    ("training", "INFO 06-07 08:09:10 [kv_cache_utils.py:997] GPU KV cache size: 145,632 tokens"),
    ("training", "(raylet) Raylet is terminated: ip=10.9.8.7, id=0a0b0c0d. Termination is expected: the node was drained."),
    # nv-hostengine's NvSwitch module where no NVSwitch (and no NSCQ / NVSDM library) is installed: DCGM status -25
    # is DCGM_ST_LIBRARY_NOT_FOUND ("DCGM library could not be found"); it must not reset a GPU
    ("system", "2025-08-09 10:11:12.131 ERROR [3120:3120] [[NvSwitch]] AttachToNscq() returned -25 "
               "[/builds/dcgm/dcgm/modules/nvswitch/DcgmNscqManager.cpp:336] [DcgmNs::DcgmNscqManager::Init]"),
    ("system", "2025-08-09 10:11:12.131 WARN  [3120:3120] [[NvSwitch]] Could not initialize NSCQ. Ret: DCGM library "
               "could not be found [/builds/dcgm/dcgm/modules/nvswitch/DcgmModuleNvSwitch.cpp:45]"),
]

# the components' own fault formats: (source, line, category, rule id or None, action)
FORMATS: list[tuple[str, str, str, str | None, str]] = [
    # half A: go-dcgm startEmbedded as dcgm-exporter logs it
    ("system", 'time="2025-02-03T04:05:06Z" level=fatal msg="Error starting nv-hostengine: DCGM initialization '
               'error"', "gpu_container_init", "gpu.dcgm_exporter_embedded.k28", "restart_app"),
    ("system", 'time="2025-02-03T04:05:06Z" level=fatal msg="error initializing DCGM: Host engine is not loaded"',
     "gpu_container_init", "gpu.dcgm_exporter_embedded.k28", "restart_app"),
    # DALI dali/util/std_cufile.cc
    ("training", "Error in thread 3: [/opt/dali/dali/util/std_cufile.cc:74] CUFile import failed: "
                 "/lustre/ds/val/00017.npy. device pointer lookup failure.", "storage_io", "storage.dali_cufile.k28",
     "restart_app"),
    ("training", "Error in thread 0: [/opt/dali/dali/util/std_cufile.cc:150] CUFile read failed for file "
                 "/mnt/data/x_11.npy with error (5): Input/output error", "storage_io", "storage.dali_cufile.k28",
     "restart_app"),
    ("training", "Error in thread 1: [/opt/dali/dali/util/std_cufile.cc:66] CUFile stats failed: /mnt/data/y_2.npy",
     "storage_io", "storage.dali_cufile.k28", "restart_app"),
    # NCCL getPciPath (misc/topo.cc, graph/xml.cc) and RCCL's bare bus id
    ("nccl", "wsl-box:301:355 [0] misc/topo.cc:22 NCCL WARN Could not find real path of "
             "/sys/class/pci_bus/0000:0a/../../0000:0a:00.0", "nccl_error", "nccl.topo_gpu_path.k28", "restart_app"),
    ("nccl", "pod-3:77:120 [1] graph/xml.cc:331 NCCL WARN Could not find real path of "
             "/sys/class/pci_bus/0001:3b/../../0001:3b:00.0", "nccl_error", "nccl.topo_gpu_path.k28", "restart_app"),
    ("nccl", "mi-n2:900:950 [4] NCCL WARN Could not find real path of 0000:c3:00.0", "nccl_error",
     "nccl.topo_gpu_path.k28", "restart_app"),
    # Mozilla translations GPU probe
    ("training", "[task 2025-05-06T07:08:09.000Z] [train] No GPUs were found available on this machine. Exiting "
                 "with EX_TEMPFAIL (75)", "cuda_driver_init", "cuda.gpu_probe_tempfail.k28", "restart_app"),
    ("training", "[task 2025-05-06T07:08:09.000Z] [train] No GPUs found by nvidia-smi, exiting EX_TEMPFAIL (75).",
     "cuda_driver_init", "cuda.gpu_probe_tempfail.k28", "restart_app"),
    # kubelet eviction manager and node status
    ("system", "ft-worker-5c9d8-qq7lp   0/1   Evicted   0   41m   gpu-w-4   The node had condition: [DiskPressure].",
     "storage_space", "storage.node_disk_pressure.k28", "restart_app"),
    ("system", "Warning  Evicted  7m  kubelet  The node had condition: [DiskPressure].", "storage_space",
     "storage.node_disk_pressure.k28", "restart_app"),
    ("system", "Normal   NodeHasDiskPressure    2m   kubelet  Node gpu-w-4 status is now: NodeHasDiskPressure",
     "storage_space", "storage.node_disk_pressure.k28", "restart_app"),
    ("system", "Warning  Evicted  7m  kubelet  The node had condition: [MemoryPressure].", "oom_killer",
     "process.node_memory_pressure.k28", "restart_app"),
    # half B: Horovod common.h / operations.cc SHUT_DOWN_ERROR, both wordings, and a cut-off copy
    ("training", "horovod.common.exceptions.HorovodInternalError: Horovod has been shut down. This was caused by an "
                 "exception on one of the ranks or an attempt to allreduce, allgather or broadcast a tensor after one "
                 "of the ranks finished execution. If the shutdown was caused by an exception, you should see the "
                 "exception in the log before the first shutdown message.", "nccl_remote_peer",
     "comm.horovod_shutdown.k28", "restart_app"),
    ("training", "2019-01-02 03:04:05.678901: W tensorflow/core/framework/op_kernel.cc:1273] OP_REQUIRES failed at "
                 "mpi_ops.cc:380 : Aborted: Horovod has been shut down. This has been caused by an exception on one "
                 "of the rank or an attempt to allreduce, allgather or broadcast a tensor after one of the ranks has "
                 "finished execution.", "nccl_remote_peer", "comm.horovod_shutdown.k28", "restart_app"),
    ("training", "AbortedError: Horovod has been shut down. This has b", "nccl_remote_peer",
     "comm.horovod_shutdown.k28", "restart_app"),
    # Horovod controller.cc ConstructResponse and common.h preconditions
    ("training", "horovod.common.exceptions.HorovodInternalError: Mismatched operations: One rank did an ALLREDUCE, but "
                 "another rank did an BROADCAST.", "nccl_user_error", "comm.horovod_usage.k28", "restart_app"),
    ("training", "tensorflow.python.framework.errors_impl.FailedPreconditionError: Mismatched data types: One rank had "
                 "type float32, but another rank had type int64.", "nccl_user_error", "comm.horovod_usage.k28",
     "restart_app"),
    ("training", "RuntimeError: Mismatched ALLREDUCE tensor shapes: One rank sent a tensor of shape [512, 64], but "
                 "another rank sent a tensor of shape [512, 32].", "nccl_user_error", "comm.horovod_usage.k28",
     "restart_app"),
    ("training", "RuntimeError: Mismatched BROADCAST root ranks: One rank specified root rank 0, but another rank "
                 "specified root rank 3.", "nccl_user_error", "comm.horovod_usage.k28", "restart_app"),
    ("training", "ValueError: Horovod has not been initialized; use hvd.init().", "nccl_user_error",
     "comm.horovod_usage.k28", "restart_app"),
    ("training", "horovod.common.exceptions.HorovodInternalError: Requested to allreduce, allgather, or broadcast a "
                 "tensor with the same name as another tensor that is currently being processed.  If you want to "
                 "request another tensor, use a different tensor name.", "nccl_user_error", "comm.horovod_usage.k28",
     "restart_app"),
    # NCCL enqueue.cc getAlgoInfo / topoGetAlgoInfo
    ("nccl", "node-44:9911:9911 [6] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available", "nccl_user_error",
     "nccl.no_algo_proto.k28", "restart_app"),
    ("nccl", "node-44:9911:9911 [6] enqueue.cc:1899 NCCL WARN Error : no algorithm/protocol available for function "
             "ReduceScatter with datatype ncclBfloat16. NCCL_ALGO was set to Tree.", "nccl_user_error",
     "nccl.no_algo_proto.k28", "restart_app"),
    # existing rules, other wordings of their components: arch/powerpc/mm/fault.c; Ray 0.8 worker.py
    ("kernel", "[  512.004411] BUG: Kernel NULL pointer dereference on write at 0x00000048", "kernel_panic",
     "kernel.panic", "reboot_node"),
    ("training", "2020-05-06 07:08:09,101\tWARNING worker.py:1090 -- A worker died or was killed while executing task "
                 "ffffffffffffffff0a1b2c3d0100.", "process_killed", "process.ray_worker_died", "restart_app"),
    # step C: vLLM worker / kv_cache_utils.py
    ("training", "(EngineCore_DP0 pid=4242) ValueError: No available memory for the cache blocks. Try increasing "
                 "`gpu_memory_utilization` when initializing the engine.", "cuda_oom", "cuda.vllm_kv_cache_memory.k28",
     "restart_app"),
    ("training", "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache "
                 "is needed, which is larger than the available KV cache memory (6.25 GiB). Based on the available "
                 "memory, the estimated maximum model length is 51200.", "cuda_oom", "cuda.vllm_kv_cache_memory.k28",
     "restart_app"),
    ("training", "ValueError: Free memory on device (11.02/23.55 GiB) on startup is less than desired GPU memory "
                 "utilization (0.9, 21.2 GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
                 "processes.", "cuda_oom", "cuda.vllm_kv_cache_memory.k28", "restart_app"),
    # Ray memory_monitor.py, log monitor and agent_manager.cc
    ("training", "ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node gpu-w-9 is used "
                 "(240.5 / 251.6 GB). The top 10 memory consumers are:", "oom_killer", "process.ray_memory_monitor.k28",
     "restart_app"),
    ("training", "(raylet, ip=10.9.8.7) Raylet is terminated: ip=10.9.8.7, id=0a0b0c0d. Termination is unexpected. "
                 "Possible reasons include: (1) SIGKILL by the user or system OOM killer, (2) Invalid memory access "
                 "from Raylet causing SIGSEGV or SIGBUS, (3) Other termination signals.", "process_killed",
     "process.raylet_exit.k28", "restart_app"),
    ("training", "[2025-06-07 08:09:10,111 E 501 530] (raylet) agent_manager.cc:95: The raylet exited immediately "
                 "because one Ray agent failed, agent_name = runtime_env_agent.", "process_killed",
     "process.raylet_exit.k28", "restart_app"),
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


def test_no_k28_rule_takes_a_node(classifier: Classifier) -> None:
    """Every rule this brief added reports a job, library, agent or peer condition: restart_app or none."""
    actions = fit_rule_actions(classifier, ".k28")
    assert len(actions) == 12
    assert set(actions.values()) <= {"restart_app", "none"}, actions
