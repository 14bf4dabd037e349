"""Brief K25: the vocabularies of the components behind holdout25's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: Mooncake's transfer engine (RDMA transport bring-up, segment lookups, batch failures), Slurm's
PMIx plugin collectives, srun's task-launch wait, NVIDIA IMEX memory import, DKMS builds of the GPU driver stack,
blobfuse2's mount pipeline, perftest's QP transitions, the NVIDIA driver's GSP boot assertions and the AWS SDK's
clock-skew retry notice. Half B: SGLang's prefill/decode disaggregation, Slurm PMIx direct connections, NeMo-RL's
ray.sub, NHC's EDAC check and edac-util's counts, nvidia-fs I/O, blobfuse / blobfuse2 / mount(8) on a remote source,
the driver's FWSEC interface preparation, and OpenDAL's not-found answers.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # half A
    ("training", "I0312 10:01:02.123456  5120 rdma_context.cpp:126] RDMA device: mlx5_4, LID: 0, GID: (GID_Index 3) "
                 "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:01:07"),
    ("training", "I0312 10:01:02.123456  5120 transfer_engine.cpp:88] Auto-discovering topology..."),
    ("system", "[hls @ 0x5612ab34cd00] Failed to open segment 27 of playlist 1"),
    ("system", "[hls @ 0x5612ab34cd00] Failed to open segment 'https://cdn.example.org/v/seg_0031.ts' for reading"),
    ("system", "slurmstepd: error:  mpi/pmix_v4: pmixp_coll_log: gpu-d02 [1]: pmixp_coll.c:286: Dumping collective "
               "state"),
    ("system", "[2025-06-07T08:09:10.111] [9120.0] error: gpu-d02 [1] pmixp_coll_ring.c:756 [pmixp_coll_ring_log] "
               "mpi/pmix: ERROR: 0x2aab1c02a0f0: COLL_FENCE_RING state seq=5"),
    ("system", "srun: launching StepId=9120.0 on host gpu-d02, 4 tasks: [0-3]"),
    ("system", "srun: Waiting for resource configuration"),
    ("system", "Mar 02 01:02:03 gpu-e7 nvidia-imex[4410]: [INFO] Received import response from node id 2 with "
               "failure status 0"),
    ("system", "Autoinstall on 6.8.0-51-generic succeeded for module(s) nvidia."),
    ("system", "Building module(s)...... done."),
    ("system", "Consult /var/lib/dkms/r8168/8.053.00/build/make.log for more information."),
    ("system", "LOG_INFO [mount.go (421)]: mount: Mounting blobfuse2 on /mnt/ckpt"),
    ("system", "0:00:01.203 WARN  opencv cap_gstreamer.cpp:1825: unable to start pipeline"),
    ("system", " local address: LID 0x05 QPN 0x01b7 PSN 0x3c2d1e RKey 0x1fff00 VAddr 0x007f11a2400000"),
    ("kernel", "[   12.004411] NVRM: GPU5 kgspInitRm_IMPL: GSP-RM boot complete"),
    ("training", "2024-03-04 05:06:07.080910: I tensorflow/core/platform/s3/aws_logging.cc:53] Found secret key"),
    ("training", "2024-03-04 05:06:07.080910: W tensorflow/core/platform/s3/aws_logging.cc:57] If the signature check "
                 "failed. This could be because of a time skew. Attempting to adjust the signer."),
    # half B
    ("training", "[2025-10-11 12:13:14 TP1] Prefill transfer failed for request rank=1 req.rid='77ab' "
                 "req.bootstrap_room=4411 with exception KVTransferError(bootstrap_room=4411): Aborted by AbortReq."),
    ("training", "[2025-10-11 12:13:14] The server is fired up and ready to roll!"),
    ("system", "slurmstepd: debug:  mpi/pmix_v4: pmixp_dconn_connect: gpu-f03 [2]: direct connection to gpu-f04 (3) "
               "established"),
    ("system", "[INFO] Background srun 'ray-worker-2' started (pid=51120)"),
    ("system", "mc0: csrow0: CPU_SrcID#0_Channel#0_DIMM#0: 0 Corrected Errors"),
    ("system", "edac-util: mc0: 0 Uncorrected Errors with no DIMM info"),
    ("system", "SUCCESS:  nhc:  Health check passed:  check_hw_edac:  no ECC errors above limits"),
    ("kernel", "[ 4102.001122] nvidia-fs: Initializing nvfs driver module"),
    ("system", "mount: /mnt/usb: wrong fs type, bad option, bad superblock on /dev/sdd1, missing codepage or helper "
               "program, or other error."),
    ("system", "2026-01-02T03:04:05.678Z WARN services.rs:210 service=s3: stat failed NotFound (permanent) at stat, "
               "context: { service: s3, path: data/shard-0007/ } => the object is not found"),
    ("system", "ERROR curvine::fs: write failed AlreadyExists (permanent) at write => the file already exists"),
]

# the components' own fault formats: (source, line, category, rule id or None)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # half A: Mooncake transfer engine
    ("training", "E0312 10:01:02.123456  5120 rdma_transport.cpp:540] RdmaTransport: No available RNIC",
     "nccl_error", "comm.mooncake_engine.k25"),
    ("training", "E0312 10:01:02.123456  5120 rdma_transport.cpp:120] RdmaTransport: cannot initialize RDMA resources",
     "nccl_error", "comm.mooncake_engine.k25"),
    ("training", "E0312 10:01:02.123456  5120 transfer_engine.cpp:210] No available RNIC!",
     "nccl_error", "comm.mooncake_engine.k25"),
    ("training", "E0312 10:01:02.123456  5120 transfer_task.cpp:702] Failed to open segment for "
                 "endpoint='10.0.3.7:17002'", "nccl_error", "comm.mooncake_engine.k25"),
    ("training", "E0312 10:01:02.123456  5120 transfer_task.cpp:655] Failed to open segment gpu-node-4:15011",
     "nccl_error", "comm.mooncake_engine.k25"),
    ("training", "E0312 10:01:02.123456  5120 transfer_task.cpp:540] Batch 139872 completed with task failures: "
                 "task_ids=[0, 3]", "nccl_error", "comm.mooncake_engine.k25"),
    ("training", "E0312 10:01:02.123456  5120 transfer_task.cpp:812] Failed to complete transfers after 60000 "
                 "milliseconds for batch 139872", "nccl_timeout", "comm.transfer_engine_timeout"),
    # half A: Slurm PMIx plugin
    ("system", "slurmstepd: error:  mpi/pmix_v4: pmixp_coll_ring_check: gpu-d02 [1]: pmixp_coll_ring.c:613: "
               "0x2aab1c02a0f0: unexpected contrib from gpu-d05:4, expected is 0", "nccl_error", "comm.pmixp_coll.k25"),
    ("system", "slurmstepd: error:  mpi/pmix_v3: pmixp_coll_tree_reset_if_to: gpu-d02 [1]: pmixp_coll_tree.c:1302: "
               "0x2aab1c02a0f0: collective timeout seq=7", "nccl_timeout", "comm.pmixp_timeout.k25"),
    # half A: srun
    ("system", "srun: error: timeout waiting for task launch, started 12 of 16 tasks", "process_exit_nonzero",
     "process.srun_launch.k25"),
    ("system", "srun: error: Application launch failed: Connection refused", "process_exit_nonzero",
     "process.srun_launch.k25"),
    # half A: IMEX
    ("system", "Mar 02 01:02:03 gpu-e7 nvidia-imex[4410]: [ERROR] Received import response from node id 6 with "
               "failure status 4", "gpu_nvlink", "gpu.imex_import.k25"),
    ("system", "[ERROR] Failed to get new memory reference with rc: 5", "gpu_nvlink", "gpu.imex_import.k25"),
    # half A: DKMS builds of the GPU stack
    ("system", "ERROR: Failed to run `/usr/sbin/dkms install -m nvidia -v 550.127.05 -k 6.8.0-51-generic`: "
               "Error! Bad return status for module build on kernel", "gpu_driver_init", "gpu.driver_dkms.k25"),
    ("system", "Autoinstall on 6.8.0-51-generic failed for module(s) nvidia(10).", "gpu_driver_init",
     "gpu.driver_dkms.k25"),
    ("system", "Consult /var/lib/dkms/nvidia-fs/2.20.5/build/make.log for more information.", "gpu_driver_init",
     "gpu.driver_dkms.k25"),
    # half A: blobfuse2
    ("system", "Error: failed to initialize new pipeline [config error in azstorage [invalid auth mode]]",
     "storage_remote_fs", "storage.blobfuse2_pipeline.k25"),
    ("system", "Error: unable to start pipeline [failed to connect to storage account]", "storage_remote_fs",
     "storage.blobfuse2_pipeline.k25"),
    # half A: perftest
    ("system", "Failed to modify QP 5521 to RTS", "nccl_error", "nccl.error"),
    # half A: GSP boot assertion in kgspInitRm
    ("kernel", "[   40.118822] NVRM: GPU2 nvAssertOkFailedNoLog: Assertion failed: Timeout [NV_ERR_TIMEOUT] (0x00000065) "
               "returned from kgspWaitForRmInitDone(pGpu, pKernelGsp) @ kernel_gsp.c:3021", "gpu_driver_init",
     "gpu.gsp_boot"),
    # half B: SGLang prefill/decode disaggregation
    ("training", "[2025-10-11 12:13:14 TP3] Decode transfer failed for request rank=3 decode_req.req.rid='c0ffee01' "
                 "decode_req.req.bootstrap_room=5150 with exception KVTransferError(bootstrap_room=5150): Failed to get "
                 "kvcache from prefill instance, it might be dead", "nccl_remote_peer", "comm.sglang_disagg_peer.k29"),
    ("training", "[2025-10-11 12:13:14 TP0] Prefill bootstrap failed for request rank=0 req.rid='c0ffee02' "
                 "req.bootstrap_room=5151", "nccl_error", "comm.sglang_disagg.k25"),
    # half B: Slurm PMIx direct connections
    ("system", "slurmstepd: error:  mpi/pmix_v5: pmixp_dconn_connect: gpu-f03 [2]: pmixp_dconn.h:246: Cannot establish "
               "direct connection to gpu-f09 (7)", "nccl_remote_peer", "comm.pmixp_dconn.k25"),
    # half B: NeMo-RL ray.sub
    ("system", "[ERROR] Background srun 'ray-head' died (pid=88120). Could be a failure in startup or an issue with the "
               "node preventing the srun to start. Attempting to exit.", "process_exit_nonzero",
     "process.nemo_rl_raysub.k25"),
    # half B: NHC / edac-util corrected and uncorrected counts
    ("system", "gpu-h03 | ERROR: nhc: Health check failed: check_hw_edac: ECC errors detected - 15 corrected memory "
               "errors detected (limit of 9).", "hardware_mce", "host.nhc_edac.k25"),
    ("system", "mc1: csrow3: CPU_SrcID#1_Channel#3_DIMM#1: 4 Corrected Errors", "hardware_mce", "host.nhc_edac.k25"),
    ("system", "mc0: csrow1: 1 Uncorrected Errors", "hardware_mce", "host.nhc_edac_ue.k25"),
    # half B: nvidia-fs
    ("kernel", "[ 9021.551004] nvidia-fs:write IO failed :-5", "storage_io", "storage.nvfs_io.k25"),
    # half B: blobfuse / blobfuse2 / mount(8) on a remote source
    ("system", "Error: failed to initialize new pipeline [failed to authenticate credentials for azstorage]",
     "storage_remote_fs", None),
    ("system", "blobfuse2: failed to mount : failed to authenticate credentials for azstorage", "storage_remote_fs",
     "storage.blobfuse_mount.k25"),
    ("system", "mount: /mnt/blob: wrong fs type, bad option, bad superblock on blobfuse2, missing codepage or helper "
               "program, or other error.", "storage_remote_fs", "storage.blobfuse_mount.k25"),
    ("system", "mount error: Unable to mount blobfuse file system", "storage_remote_fs", "storage.blobfuse_mount.k25"),
    # half B: FWSEC interface preparation for a command (GPU bring-up)
    ("kernel", "[    9.411207] NVRM: s_prepareForFwsec_TU102: failed to prepare interface data for FWSEC cmd 0x19: "
               "0x1f", "gpu_driver_init", "gpu.gsp_boot"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None) -> None:
    expect_format(classifier, source, line, category, rule_id)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0


@pytest.mark.parametrize("line", [
    "Mar 02 01:02:03 gpu-e7 nvidia-imex[4410]: [ERROR] Received import response from node id 6 with failure status 4",
    "[ERROR] Failed to get new memory reference with rc: 5",
])
def test_an_imex_import_failure_takes_no_node(classifier: Classifier, line: str) -> None:
    """The importing node prints it, and the failure may be its peer's: restart the job, take no node."""
    found = classifier.classify(line, "system")
    assert found is not None and found.category == "gpu_nvlink"
    assert found.action == "restart_app"
