"""Knowledge-base rules added or widened in brief K6 (issue 15 point 6), one case per new or changed pattern.

Every line follows the documented message format of its emitter, cited next to it (kernel and library source
files, vendor documentation), with made-up hosts, ids and numbers. None is a copy of a line of the real corpus
(checked below without printing any corpus line), so these tests check formats, not lines.
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (source, line, category, action or None when the category default applies)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # ---- comm
    # libfabric prov/efa rxr.h / efa_rdm_ep efa_eq_write_error():
    # "Unable to write to EQ: %s. err: %s (%zd) prov_errno: %s (%zd) %s:%d" (https://github.com/ofiwg/libfabric)
    ("nccl", "Unable to write to EQ: Missing or unavailable event queue. err: Resource temporarily unavailable (11) "
     "prov_errno: Unknown error -12 (-12) prov/efa/src/rdm/efa_rdm_ep_utils.c:604", "nccl_error", None),
    # same function, stderr banner: "Libfabric EFA provider has encountered an internal error:" / "EFA internal error:"
    ("training", "Libfabric EFA provider has encountered an internal error:", "nccl_error", None),
    ("training", "EFA internal error: (15) Unresponsive receiver", "nccl_error", None),
    # TensorFlow core/common_runtime/base_collective_executor.cc: "BaseCollectiveExecutor::StartAbort <status>"
    ("training", "2024-03-02 11:00:01.000001: W tensorflow/core/common_runtime/base_collective_executor.cc:249] "
     "BaseCollectiveExecutor::StartAbort Unavailable: Connection reset by peer", "nccl_error", None),
    # PyTorch ProcessGroupNCCL.cpp WorkNCCL::synchronize: "<prefix>Work <work> timed out in blocking wait[ (...)]"
    ("training", "[rank7]:[E0302 11:00:01.000001 901 ProcessGroupNCCL.cpp:812] [PG ID 0 PG GUID 0(default_pg) Rank 7] "
     "Work WorkNCCL(SeqNum=77, OpType=ALLGATHER, NumelIn=8, NumelOut=64, Timeout(ms)=300000) timed out in blocking "
     "wait (TORCH_NCCL_BLOCKING_WAIT=1).", "nccl_timeout", None),
    # PyTorch 1.x ProcessGroupNCCL.cpp: "NCCL communicator was aborted on rank %d. Original reason for failure was: %s"
    ("training", "RuntimeError: NCCL communicator was aborted on rank 5. Original reason for failure was: Timeout at "
     "NCCL sequence 7781", "nccl_timeout", None),
    # FreeBSD sys/net/if.c do_link_state_change(): "%s: link state changed to %s"
    ("kernel", "Mar  2 11:00:01 fw01 kernel: em2: link state changed to DOWN", "net_link_down", None),
    # ---- cuda / process
    # llama.cpp ggml-cuda.cu ggml_backend_cuda_buffer_type_alloc_buffer: "... cudaMalloc failed: out of memory"
    ("training", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9216.00 MiB on device 0: cudaMalloc failed: "
     "out of memory", "cuda_oom", None),
    # ggml-alloc.c ggml_gallocr_reserve_n: "failed to allocate %s buffer of size %zu"
    ("training", "ggml_gallocr_reserve_n: failed to allocate ROCm0 buffer of size 2147483648", "cuda_oom", None),
    # older ggml-cuda CUDA_CHECK: "CUDA error %d at %s:%d: %s"
    ("training", "CUDA error 2 at /src/ggml/ggml-cuda.cu:7700: out of memory", "cuda_oom", None),
    # TensorFlow core/common_runtime/bfc_allocator.cc and ResourceExhaustedError text
    ("training", "W tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_1_bfc) ran out of memory "
     "trying to allocate 1.00GiB (rounded to 1073741824)requested by op Conv2D", "cuda_oom", None),
    ("training", "ResourceExhaustedError: OOM when allocating tensor with shape[256,512,28,28] and type half on "
     "/job:worker/replica:0/task:1/device:GPU:3 by allocator GPU_3_bfc", "cuda_oom", None),
    ("training", "ResourceExhaustedError: OOM when allocating tensor with shape[100000,4096] and type float on "
     "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu", "oom_killer", None),
    # compiler-rt sanitizer_common report format: "==PID==ERROR: <Tool>Sanitizer: <bug>", "SUMMARY: ...", "==PID==ABORTING"
    ("training", "==77==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffd12 at pc 0x55 bp 0x7ffd sp "
     "0x7ffc", "process_crash", None),
    ("training", "SUMMARY: AddressSanitizer: heap-use-after-free /src/ops/gather.cc:41 in gather_rows",
     "process_crash", None),
    ("training", "==77==ABORTING", "process_crash", None),
    ("training", "==77==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000028 (pc 0x7f1 bp 0x7ffd sp 0x7ffc "
     "T3)", "segfault", None),
    # ---- gpu
    # drivers/pci/pci.c pci_power_up(): "Unable to change power state from %s to D0, device inaccessible"
    ("kernel", "[  412.000001] nvidia 0000:c1:00.0: Unable to change power state from D3cold to D0, device "
     "inaccessible", "gpu_unavailable", None),
    # nvidia-smi with NVML_ERROR_GPU_IS_LOST behind the handle lookup (TAXONOMY: "nvidia-smi cannot get a handle")
    ("system", "Unable to determine the device handle for GPU 0000:C1:00.0: GPU is lost.  Reboot the system to recover "
     "this GPU", "gpu_unavailable", None),
    ("kernel", "NVRM: GPU 0000:c1:00.0: GPU has fallen off the bus.", "gpu_fallen_off_bus", None),
    # open-gpu-kernel-modules RmFetchGspRmImages and the firmware loader for the nvidia/<version>/gsp_*.bin images
    ("kernel", "[    9.000001] NVRM: RmFetchGspRmImages: No firmware image found", "gpu_driver_init", None),
    ("kernel", "[    9.000002] nvidia 0000:c1:00.0: Direct firmware load for nvidia/560.35.03/gsp_ga10x.bin failed "
     "with error -2", "gpu_driver_init", None),
    # NVIDIA k8s-device-plugin internal/rm factory.go: no NVML in the plugin's container
    ("system", "E0506 07:08:09.000001       1 factory.go:88] Incompatible platform detected", "gpu_container_init", None),
    ("system", "E0506 07:08:09.000002       1 factory.go:89] If this is a GPU node, did you configure the NVIDIA "
     "Container Toolkit?", "gpu_container_init", None),
    # ---- host hardware
    # drivers/edac/mce_amd.c: "%s Ext. Error Code: %d, <desc>.", "Northbridge Error (node %d): ...",
    # decode_error_status "Uncorrected, software restartable error."
    ("kernel", "[Hardware Error]: Load Store Unit Ext. Error Code: 7, DC data error type 2.", "hardware_mce", "none"),
    ("kernel", "[Hardware Error]: Northbridge Error (node 3): DRAM ECC error detected on the NB.", "hardware_mce",
     "none"),
    ("kernel", "mce: [Hardware Error]: Uncorrected, software containable error.", "hardware_mce", None),
    ("kernel", "[Hardware Error]: Uncorrected, software restartable error.", "hardware_mce", None),
    # rasdaemon ras-mce-handler.c / mce-amd-smca.c records as ras-mc-ctl --errors lists them
    ("system", "4 2025-05-06 07:08:09 +0000 error: Corrected error, no action required., CPU 11, bank Unified Memory "
     "Controller (bank=15), mcg mcgstatus=0, mci CECC, memory_channel=3,csrow=0, mcgcap=0x0000011c, "
     "status=0x9c20400000000100, addr=0x5f1c2e000, walltime=0x6800aa01, cpuid=0x00a00f11", "hardware_mce", "none"),
    ("system", "5 2025-05-06 07:08:10 +0000 error: Uncorrected error, CPU 11, bank Unified Memory Controller "
     "(bank=15), mcg mcgstatus=5, mci UECC, memory_channel=3,csrow=0, status=0xbc20000000000100", "hardware_mce",
     "replace_node"),
    # firmware-first records (drivers/firmware/efi/cper.c): a PCIe section is AER
    ("kernel", "{3}[Hardware Error]:  section_type: PCIe error", "pcie_aer", None),
    # ---- host OS
    # arch/x86/mm/fault.c "BUG: kernel NULL pointer dereference, address: %px"; traps.c die() banner
    ("kernel", "[ 9001.000001] BUG: kernel NULL pointer dereference, address: 00000000000000c0", "kernel_panic", None),
    ("kernel", "[ 9001.000002] stack segment: 0000 [#1] SMP PTI", "kernel_panic", None),
    # ---- storage
    # FUSE: ENOTCONN on a path of a mount whose daemon died (libfuse; s3fs-fuse FAQ), coreutils message forms
    ("system", "ls: cannot access '/mnt/blob/ckpt': Transport endpoint is not connected", "storage_remote_fs", None),
    ("training", "OSError: [Errno 107] Transport endpoint is not connected: '/mnt/s3/datasets/shard-0003.tar'",
     "storage_remote_fs", None),
    ("system", "s3fs[4410]: curl.cpp:RequestPerform(2542): ### CURLE_COULDNT_CONNECT", "storage_remote_fs", None),
    # Lustre LNet console errors (CERROR prints "LNetError: ..."); Linux NFSv4 state recovery (nfs4state.c)
    ("kernel", "LNetError: 3310:0:(lib-move.c:1990:lnet_handle_find_routed_path()) no route to 10.9.0.4@o2ib1",
     "storage_remote_fs", None),
    ("kernel", "nfs4_reclaim_open_state: Lock reclaim failed!", "storage_remote_fs", None),
    # botocore/exceptions.py network errors; urllib3 timeouts to an object store; aws-sdk-cpp via TensorFlow S3
    ("training", "botocore.exceptions.ConnectTimeoutError: Connect timeout on endpoint URL: "
     "\"https://ckpt-bucket.s3.eu-west-1.amazonaws.com/run7/step_900/rank_3.distcp\"", "storage_remote_fs", None),
    ("training", "botocore.exceptions.ConnectionClosedError: Connection was closed before we received a valid response "
     "from endpoint URL: \"https://ckpt-bucket.s3.amazonaws.com/run7/latest\".", "storage_remote_fs", None),
    ("training", "urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='acct.blob.core.windows.net', "
     "port=443): Read timed out. (read timeout=30)", "storage_remote_fs", None),
    ("training", "E tensorflow/core/platform/s3/aws_logging.cc:60] Curl returned error code 7", "storage_remote_fs",
     None),
    # drivers/pci/pci.c on an NVMe controller
    ("kernel", "nvme 0000:41:00.0: Unable to change power state from D3cold to D0, device inaccessible",
     "storage_local_disk", None),
]

# Lines in the same formats that report nothing to act on.
BENIGN: list[tuple[str, str]] = [
    # TensorFlow: end of an input dataset, not a failed collective
    ("training", "W tensorflow/core/common_runtime/base_collective_executor.cc:249] BaseCollectiveExecutor::StartAbort "
     "Out of range: End of sequence"),
    # FreeBSD link up; PCI PM capability line; another driver's optional firmware
    ("kernel", "kernel: em2: link state changed to UP"),
    ("kernel", "nvidia 0000:c1:00.0: PME# supported from D0 D3hot D3cold"),
    ("kernel", "i915 0000:00:02.0: Direct firmware load for i915/tgl_dmc_ver2_12.bin failed with error -2"),
    # sanitizer warning that does not abort; mce_amd header of a corrected error alone stays benign (guard)
    ("training", "==77==WARNING: AddressSanitizer failed to allocate 0x1000 bytes"),
    ("kernel", "[Hardware Error]: Corrected error, no action required."),
    # urllib3 retry in progress; a timeout to a host that is not an object store
    ("training", "WARNING:urllib3.connectionpool:Retrying (Retry(total=2, connect=None, read=None, redirect=None, "
     "status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='b.s3.amazonaws.com', "
     "port=443): Read timed out. (read timeout=15)\")': /ckpt"),
    ("training", "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='pypi.org', port=443): Read timed out."),
    # PyTorch settings print with the blocking-wait variable is still a settings line
    ("training", "[I0302 ProcessGroupNCCL.cpp:900] ProcessGroupNCCL initialization options: size: 8, "
     "TORCH_NCCL_BLOCKING_WAIT: 1, TIMEOUT(ms): 600000"),
    # Slurm time limit, NCCL INFO, zero counters
    ("system", "slurmstepd: error: *** STEP 5512.0 ON gpu-n3 CANCELLED AT 2025-05-06T07:08:09 DUE TO TIME LIMIT ***"),
    ("nccl", "gpu-n3:881:990 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.9.0.3<0>"),
    ("system", "        PortXmitDiscards:................0"),
]


@pytest.mark.parametrize(("source", "line", "category", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              action: str | None) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if action is not None:
        assert found.action == action, (found.rule_id, found.action)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_same_format_without_a_fault_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


def test_efa_io_error_is_the_fabric_not_storage(classifier: Classifier) -> None:
    line = ("Unable to write to EQ: Missing or unavailable event queue. err: Input/output error (5) prov_errno: "
            "Unknown error -7 (-7) prov/efa/src/rxr/rxr.h:1200")
    found = classifier.classify(line, "nccl")
    assert found is not None and found.family == "comm"


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
