"""Brief K9 (issue 15 point 6): the format classes behind the holdout8 misses, one case per new or widened pattern.

Part 1 checks benign look-alikes next to each widened pattern (a lower-case "slowdown:" in prose, the NFS client's
recovery notice, a Ray memory summary with no OOM kill, a failed NVRM probe read, a passed NHC check, a
Mooncake object-level error). Part 2
checks the formats. Every line follows the
documented or publicly reported format of its emitter, cited next to it, with made-up hosts, ids and numbers. None
is a copy of a line of the real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign look-alikes of the widened patterns
BENIGN: list[tuple[str, str]] = [
    # storage.object_store: only the CamelCase S3 error code SlowDown (S3 API reference "Error responses") counts;
    # a lower-case "slowdown:" is a metric or prose
    ("training", "step 1200: straggler slowdown: 1.04x vs median"),
    ("training", "INFO profiler: kernel slowdown: none detected"),
    # Linux fs/nfs: the "server ... OK" recovery notice stays benign even without a server name
    ("kernel", "nfs: server OK"),
    # Ray raylet memory-monitor summary with no worker killed for memory (Ray docs "Out-Of-Memory Prevention")
    ("training", "(raylet) node_manager.cc:2900: 0 Workers (tasks / actors) killed due to memory pressure (OOM), 3 "
     "Workers crashed due to other reasons at node (ID: abc123, IP: 10.0.0.5) over the last time period."),
    # open-gpu-kernel-modules: a HAL function that cannot read an optional register is a probe, not a failure
    ("kernel", "NVRM: GPU0 kbifProbeOptional_GH100: Unable to read NV_PF0_EXAMPLE_REGISTER"),
    # LBNL NHC: a passed check restates what it looked for (negated fault words)
    ("system", "SUCCESS:  nhc:  Health check passed:  check_hw_ib: no IB port errors found on mlx5_2"),
    ("system", "SUCCESS:  nhc:  Health check passed:  check_gpu_xid: No GPU Xid errors detected"),
    # Mooncake Store: object-level ErrorCodes (types.h OBJECT_NOT_FOUND = -704) are the caller's, not a transfer fault
    ("training", "E0101 00:00:01.000001   42 store_py.cpp:300] Get operation failed with error: OBJECT_NOT_FOUND"),
]

# ---- Part 2: the formats
FORMATS: list[tuple[str, str, str, str | None]] = [
    # S3 error code SlowDown printed as "<Code>: <Message>" (aws-sdk-go awserr; distribution s3-aws driver prefix)
    ("system", 'time="2026-01-02T03:04:05Z" level=error msg="blob upload failed: s3aws: SlowDown: Please reduce '
     'your request rate."', "storage_remote_fs", "storage.object_store"),
    ("training", "upload error: SlowDown: Reduce your request rate. status code: 503, request id: ABCD1234",
     "storage_remote_fs", "storage.object_store"),
    # Linux fs/nfs/client: "nfs: server %s not responding, still trying" with an empty server name
    ("kernel", "[ 1234.567890] nfs: server not responding, still trying", "storage_remote_fs", "storage.remote_fs"),
    # Linux NFSv4 client: NFS4ERR_* status (RFC 8881 section 15: NFS4ERR_BADSESSION 10052, NFS4ERR_EXPIRED 10011)
    # printed negated by nfs4proc.c, and nfs4state.c nfs4_schedule_lease_recovery
    ("kernel", "[ 4321.000001] nfs41_sequence_process ERROR -10052", "storage_remote_fs", "storage.remote_fs"),
    ("kernel", "nfs4_schedule_lease_recovery: scheduling lease recovery for server nas-01.example", "storage_remote_fs",
     "storage.remote_fs"),
    # Ray raylet memory monitor summary ("<n> Workers (tasks / actors) killed due to memory pressure (OOM), ...")
    ("training", "(raylet) node_manager.cc:2900: 2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 "
     "Workers crashed due to other reasons at node (ID: def456, IP: 10.0.0.7) over the last time period.",
     "oom_killer", "process.oom_killer"),
    # NCCL net_socket "message truncated : receiving %d bytes instead of %d" (older transports)
    ("nccl", "node1:100:200 [1] transport/net_socket.cc:210 NCCL WARN NET/Socket : message truncated : receiving "
     "4096 bytes instead of 1024", "nccl_user_error", "nccl.user_error"),
    # NCCL transport/p2p.cc: WARN "failed to open CUDA IPC handle : %d %s" (cudaIpcOpenMemHandle's cudaError_t)
    ("nccl", "node2:300:400 [2] transport/p2p.cc:250 NCCL WARN failed to open CUDA IPC handle : 201 invalid device "
     "context", "nccl_cuda_error", "nccl.cuda_error"),
    # LBNL NHC failure line for an NCCL check (azurehpc-health-checks naming)
    ("system", "ERROR:  nhc:  Health check failed:  check_nccl_allreduce: NCCL all_reduce bandwidth 20 GB/s below "
     "threshold 150 GB/s", "nccl_error", "nccl.error"),
    # Grid Engine commlib CL_RETVAL_READ_ERROR as qrsh prints it
    ("system", 'error: commlib error: got write error (closing "node-17/execd/1")', "nccl_remote_peer",
     "nccl.remote_peer"),
    # open-gpu-kernel-modules HAL-suffixed RM functions that cannot allocate or map a resource
    ("kernel", "NVRM: GPU1 memmgrAllocResources_GH100: cannot allocate framebuffer for channel", "gpu_driver_error",
     "gpu.driver_error"),
    ("kernel", "NVRM: dmaMapBuffer_GA100: can't map VA range for surface.", "gpu_driver_error", "gpu.driver_error"),
    # Mooncake Store ErrorCode (mooncake-store/include/types.h: TRANSFER_FAIL = -800, RPC_TIMEOUT = -901) as the
    # client logs a failed operation
    ("training", "E0101 00:00:02.000002   42 store_py.cpp:310] Get operation failed with error: RPC_TIMEOUT",
     "nccl_error", "comm.ucx_mpi"),
    ("training", "E0101 00:00:03.000003   42 client.cpp:500] BatchPut operation failed with error: TRANSFER_FAIL",
     "nccl_error", "comm.ucx_mpi"),
    # CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700 in a wrapper's "<code> != CUDA_SUCCESS" check
    ("training", "RuntimeError: cuDNN Error: execute(...) failed with message: err 700 != CUDA_SUCCESS :: "
     "cuLaunchKernel(...)", "cuda_illegal_memory_access", "cuda.illegal_memory_access"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if rule_id is not None:
        assert found.rule_id == rule_id, (found.rule_id, line)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
