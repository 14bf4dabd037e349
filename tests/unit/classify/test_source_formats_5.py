"""Brief F5 (issue 15 point 6): the failure vocabulary of the non-NVIDIA accelerator stacks, from the format strings.

One case per format string covered: the HIP runtime error names and texts (clr hip_runtime_api.h / hip_error.cpp) as
PyTorch-ROCm, JAX/XLA-ROCm and plain HIP_CHECK macros print them, ROCclr's queue-abort callback with the ROCr
hsa_status_t, ROCr's VM-fault and HW-exception handlers, RCCL's CUDACHECK WARN in its HIP spelling, rocminfo /
rocm-smi / amd-smi failing to find the driver, amdkfd device bring-up, the Intel Gaudi bridge's device acquisition,
the AWS Neuron runtime's hardware execution statuses (nrt_status.h), libtpu's busy chip, DCGM's pending-remap and
retired-page reasons and nvidia-smi -q failure fields. Each line follows its emitter's format (cited in the rule's
note), with made-up hosts, ids and numbers; benign siblings from the same sources stay benign. None is a copy of a
line of the real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- the formats: (source, line, category)
FORMATS: list[tuple[str, str, str]] = [
    ("training",
     "RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
     "cuda_launch_failure"),
    ("training",
     "torch.AcceleratorError: HIP error: invalid device function",
     "cuda_launch_failure"),
    ("training",
     "RuntimeError: HIP error: unspecified launch failure",
     "cuda_launch_failure"),
    ("training",
     "RuntimeError: HIP error: an illegal memory access was encountered",
     "cuda_illegal_memory_access"),
    ("training",
     "hipMemcpy failed: hipErrorECCNotCorrectable (uncorrectable ECC error encountered)",
     "cuda_ecc_uncorrectable"),
    ("training",
     "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 4.00 GiB. GPU 5 has a total capacity of 191.98 GiB of which 2.13 GiB is free.",
     "cuda_oom"),
    ("training",
     "hipMalloc(&d_buf, bytes) failed with hipErrorOutOfMemory at gemm_bench.cpp:211",
     "cuda_oom"),
    ("training",
     "HIP error: the launch timed out and was terminated (hipErrorLaunchTimeOut) at kernel.hip:88",
     "cuda_launch_failure"),
    ("training",
     "RuntimeError: HIP error: no ROCm-capable device is detected",
     "cuda_driver_init"),
    ("training",
     "RuntimeError: HIP error: invalid device ordinal",
     "cuda_device_unavailable"),
    ("training",
     "hipInit failed: hipErrorInsufficientDriver",
     "cuda_driver_init"),
    ("training",
     "RuntimeError: HIP error: hipErrorNotInitialized",
     "cuda_driver_init"),
    ("training",
     "RuntimeError: HIP error: device-side assert triggered",
     "cuda_launch_failure"),
    ("training",
     "hipDeviceEnablePeerAccess(1, 0) returned hipErrorPeerAccessUnsupported",
     "cuda_launch_failure"),
    ("training",
     "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to launch ROCm kernel: ThreeFry2x32 with block dimensions: 256x1x1: hipErrorInvalidDeviceFunction",
     "cuda_launch_failure"),
    ("training",
     "E1127 03:11:01.120004   441 rocm_driver.cc:305] failed call to hipInit: HIP_ERROR_NoDevice",
     "cuda_driver_init"),
    ("training",
     ":0:rocdevice.cpp            :2984: 5529131468 us: [pid:77103 tid:0x7f2ad1bff640] Callback: Queue 0x7f0b44600000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016",
     "cuda_launch_failure"),
    ("training",
     ":0:rocdevice.cpp            :2984: 112233445 us: [pid:9001 tid:0x7fa0e3fff700] Callback: Queue 0x7f9c1c000000 aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events. code: 0x1008",
     "cuda_oom"),
    ("training",
     ":0:rocdevice.cpp            :2984: 8812345600 us: [pid:5120 tid:0x7f55a9fff640] Callback: Queue 0x7f3c60200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
     "cuda_illegal_memory_access"),
    ("training",
     "Memory access fault by GPU node-9 (Agent handle: 0x5598a2f7c3e0) on address 0x7efc1a200000. Reason: Page not present or supervisor privilege.",
     "cuda_illegal_memory_access"),
    ("training",
     "Memory access fault by GPU node-4 (Agent handle: 0x55e1c04b2a10) on address 0x7f00aa000000. Reason: Write access to a read-only page.",
     "cuda_illegal_memory_access"),
    ("training",
     "Memory access fault by GPU node-3 (Agent handle: 0x562c3d0f91a0) on address (nil). Reason: Unknown.",
     "cuda_illegal_memory_access"),
    ("training",
     "HW Exception by GPU node-6 (Agent handle: 0x55c09e7a4b50) reason :GPU Hang",
     "gpu_xid_other"),
    ("system",
     "hsa api call failure at: /build/rocminfo/rocminfo.cc:1242",
     "cuda_driver_init"),
    ("nccl",
     "mi300-n07:41201:41388 [3] NCCL WARN HIP failure 'invalid device function'",
     "nccl_cuda_error"),
    ("nccl",
     "mi300-n07:41201:41388 [3] /src/rccl/src/init.cc:1522 NCCL WARN Cuda failure 'hipErrorLaunchFailure'",
     "cuda_launch_failure"),
    ("nccl",
     "mi300-n07:41201:41390 [3] transport/net_ib.cc:1726 NCCL WARN NET/IB : Got completion from peer 10.0.4.17<47713> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.0.4.16 remoteGids::ffff:10.0.4.17 hca bnxt_re3",
     "nccl_error"),
    ("nccl",
     "mi300-n07:41201:41388 [3] /src/rccl/src/include/alloc.h:183 NCCL WARN Cuda failure 'out of memory'",
     "cuda_oom"),
    ("system",
     "ERROR:root:Driver not initialized (amdgpu not found in modules)",
     "cuda_driver_init"),
    ("system",
     "amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\t34 | AMDSMI_STATUS_DRIVER_NOT_LOADED - Driver not loaded",
     "cuda_driver_init"),
    ("kernel",
     "[   14.220331] kfd kfd: amdgpu: Error initializing iommuv2",
     "gpu_driver_init"),
    ("kernel",
     "[   14.220390] kfd kfd: amdgpu: device 1002:74a1 NOT added due to errors",
     "gpu_driver_init"),
    ("training",
     "RuntimeError: synStatus=8 [Device not found] Device acquire failed.",
     "cuda_device_unavailable"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 ERROR  NRT:nrt_execute    Execution failed with NRT_EXEC_HW_ERR_HBM_UE (1201) on nc3",
     "gpu_memory_ecc"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 ERROR  NRT:nrt_execute    Execution failed with NRT_EXEC_HW_ERR_NC_UE (1202)",
     "gpu_memory_ecc"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 ERROR  NRT:nrt_execute    Execution failed with NRT_HW_ERROR",
     "gpu_driver_error"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 ERROR  NRT:nrt_execute    Execution failed with NRT_EXEC_HW_ERR_COLLECTIVES (1200)",
     "nccl_error"),
    ("training",
     "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by process with pid 11872. Not attempting to load libtpu.so in this process.",
     "cuda_device_unavailable"),
    ("training",
     "RuntimeError: TPU initialization failed: open(/dev/accel0): Device or resource busy: Device or resource busy; Couldn't open device: /dev/accel0",
     "cuda_driver_init"),
    ("system",
     "        Pending Page Blacklist            : Yes",
     "gpu_memory_ecc"),
    ("system",
     "        Remapping Failure Occurred        : Yes",
     "gpu_memory_ecc"),
    ("system",
     "| Warning                   | GPU 3 had uncorrectable memory errors and has a pending row remap. Reset the GPU   |",
     "gpu_memory_ecc"),
    ("system",
     "Error: GPU 5 had uncorrectable memory errors and row remapping failed. Drain the GPU and reset it or reboot the node.",
     "gpu_memory_ecc"),
    ("system",
     "| Memory                    | Fail - GPU: 2  Detected 4 volatile double-bit ECC error(s) in GPU 2. |",
     "gpu_memory_ecc"),
    ("system",
     "Warning: GPU 6's NvLink link 11 is currently down Check DCGM and system logs for errors. Reset GPU. Restart DCGM. Rerun diagnostics.",
     "gpu_nvlink"),
    ("system",
     "Error: Detected XID 119 error for GPU 1",
     "gpu_gsp_timeout"),
    ("system",
     "Warning: GPU 0 had uncorrectable memory errors and 2 pages were retired. Reset the GPU to retire these pages",
     "gpu_memory_ecc"),
    ("system",
     "ROCk module is NOT loaded, possibly no GPU devices",
     "cuda_driver_init"),
    ("system",
     "Unable to open /dev/kfd read-write: No such file or directory",
     "cuda_driver_init"),
    ("training",
     "hipStreamSynchronize(stream) returned hipErrorIllegalAddress at attention.hip:310",
     "cuda_illegal_memory_access"),
    ("training",
     "HIP_CHECK failed: hipErrorECCNotCorrectable at reduce.hip:77",
     "cuda_ecc_uncorrectable"),
    ("training",
     "hipDeviceSynchronize() failed with hipErrorLaunchFailure",
     "cuda_launch_failure"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 ERROR  NRT:nrt_execute    Execution failed with NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE (1205)",
     "gpu_reset_required"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 ERROR  NRT:nrt_execute    Execution failed with NRT_EXEC_HW_ERR_DMA_ABORT (1203)",
     "gpu_driver_error"),
    ("training",
     ":0:rocdevice.cpp            :2984: 6610220004 us: [pid:3311 tid:0x7f01d7fff640] Callback: Queue 0x7ee2a0400000 aborting with error : HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: The agent attempted to execute an illegal shader instruction. code: 0x2a",
     "cuda_launch_failure"),
]

# ---- benign siblings: success / notice lines and set-up statuses of the same emitters
BENIGN: list[tuple[str, str]] = [
    ("nccl",
     "mi300-n07:41201:41201 [0] NCCL WARN Missing \"iommu=pt\" from kernel command line which can lead to system instablity or hang!"),
    ("nccl",
     "mi300-n07:41201:41201 [0] NCCL WARN Could not find real path of /sys/class/net/bond0/device"),
    ("system",
     "ERROR: GPU[2]\t: Unable to get fan speed: Not supported on the given system"),
    ("system",
     "amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\t2 | AMDSMI_STATUS_NOT_SUPPORTED - Feature not supported"),
    ("system",
     "        Pending Page Blacklist            : No"),
    ("system",
     "        Remapping Failure Occurred      : No"),
    ("system",
     "| Memory                    | Pass - All                                     |"),
    ("system",
     "Unable to open /dev/kfd read-write: Permission denied"),
    ("kernel",
     "[   14.220390] kfd kfd: amdgpu: added device 1002:74a1"),
    ("training",
     "2026-Nov-27 03:40:12.0311 4412:4501 INFO  NRT:nrt_execute    status NRT_SUCCESS"),
]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
