"""Brief K20 (issue 15 point 6): the accelerator-stack vocabularies behind the holdout20 misses, one case per pattern.

Part 1 checks benign look-alikes next to the new patterns (HCCL timeout settings, a MIG mode change waiting for a
reset, a healthy SMART report, an ACTIVE rdma link, an HCCL reason-list detail line). Part 2 checks the formats:
Huawei Ascend CANN error codes (HCCL EI, HCCP EJ, runtime EL/EE, driver hal* calls, AI Core exceptions and
timeouts, DCMI), torch_npu DIST codes, AWS Neuron (nrt_status, CCOM WARN, TDRV, nrt_init), Google TPU (libtpu,
XLA:TPU, TPU health), Kunlun BKCL, Intel Gaudi (synStatus, synDeviceAcquire, habanalabs driver, HCL, PT_DEVMEM),
Moore Threads MTGPU, Tenstorrent UMD, nvidia-smi query failures, smartctl, dmlc-core writes and network mounts.
Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, ids and numbers. None is a copy of a line of the real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign look-alikes of the new patterns
BENIGN: list[tuple[str, str]] = [
    ("training", "[rank2]:[W1111 11:12:13.000000001 compiler_depend.ts:877] Warning: The HCCL execution timeout was "
                 "set to never timeout, so it is bigger than watchdog timeout 900000ms which is set by "
                 "init_process_group!"),
    ("training", "export HCCL_EXEC_TIMEOUT=7200"),
    ("system", "Warning: MIG mode is in pending disable state for GPU 00000000:9A:00.0:In use by another client"),
    ("system", "sdc: SMART overall-health self-assessment test result: PASSED"),
    ("system", "link mlx5_4/1 subnet_prefix fe80:0000:0000:0000 lid 912 sm_lid 4 lmc 0 state ACTIVE "
               "physical_state LINK_UP"),
    ("training", "[ERROR] HCCL(5511,python):2026-03-04-05:06:07.123.456 [hccl_socket_manager.cc:611] [5599]2. the "
                 "remote device has not started the connection."),
    ("training", "I1111 11:12:13.000001  2101 tpu_runtime.cc:88] TPU node-v5-8 is HEALTHY"),
]

# ---- Part 2: the formats (source, line, category, rule id or None)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # Ascend HCCL / HCCP
    ("training", "RuntimeError: EJ0002: [PID: 9911] 2026-02-03-04:05:06.777.888 The network port is down.",
     "ib_link", "accel.ascend_port_down.k20"),
    ("training", "[PID: 610] 2026-02-03-04:05:06.777.888 Get_Socket_Timeout(EI0006): Getting socket times out. "
                 "Reason: 2. The local end does not receive a connection.", "nccl_timeout",
     "accel.ascend_hccl_timeout.k20"),
    ("training", "EI0002: [PID: 612] The wait execution of the Notify register times out. Reason: remote rank [11] "
                 "did not send the record.", "nccl_timeout", None),
    ("training", "EJ0001: 2026-02-03-04:05:06.777.888 Failed to initialize the HCCP process. Reason: Maybe the "
                 "last training process is running.", "nccl_error", "accel.ascend_hccl_error.k20"),
    ("training", "[ERROR] 2026-02-03-04:05:06 (PID:1201, Device:0, RankID:0) ERR02200 DIST call hccl api failed.",
     "nccl_error", "accel.ascend_hccl_error.k20"),
    ("training", "[ERROR] 2026-02-03-04:05:06 (PID:1201, Device:5, RankID:-1) ERR02005 DIST internal error",
     "nccl_error", "accel.ascend_hccl_error.k20"),
    ("training", "[ERROR] HCCL(7001,python):2026-02-03-04:05:06.777.888 [hccl_socket_manager.cc:840] [7010]"
                 "[Create][Sockets]Wait links establish completed failed, local role is server. ret[9]",
     "nccl_timeout", "hccl.ret_timeout.k32"),  # K32: ret[9] is HcclResult HCCL_E_TIMEOUT (hccl_types.h)
    ("training", "[rank3]: EJ0003: [PID: 220] 2026-02-03-04:05:06.777.888 Failed to bind the IP port. Reason: The "
                 "IP address and port have been bound already.", "nccl_user_error", "accel.ascend_hccl_bind.k20"),
    # Ascend runtime / driver / memory
    ("training", "torch.OutOfMemoryError: NPU out of memory. Tried to allocate 512.00 MiB (NPU 6; 29.50 GiB total "
                 "capacity)", "cuda_oom", "accel.ascend_oom.k20"),
    ("training", "[ERROR] RecentErrMsg: [PID: 4512] 2026-02-03-04:05:06.777.888 Memory_Allocation_Failure(EL0004): "
                 "Failed to allocate memory.", "cuda_oom", "accel.ascend_oom.k20"),
    ("training", "[ERROR] aclrtSetDevice(deviceId) failed: 107001 (/opt/jobs/run7/launch.cpp:88)",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    ("training", "[drv api] halDeviceOpen failed. device_id=6, drvRetCode=4.[FUNC:DeviceOpen][FILE:npu_driver.cc]"
                 "[LINE:440]", "cuda_device_unavailable", "accel.device_busy.k20"),
    ("training", "open device 6 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:150]",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    ("system", "npu-smi: dcmi model initialized failed, because the device is used. ret is -8019",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    ("system", "dcmi module initialize failed. ret is -8001", "gpu_unavailable", "accel.ascend_device_abnormal.k20"),
    ("training", "[ERROR] RecentErrMsg: [PID: 300] Inner_Error_Device_Status_Abnormal(E39009): Failed to connect "
                 "the device.", "gpu_unavailable", "accel.ascend_device_abnormal.k20"),
    ("training", "[PID: 881] 2026-02-03-04:05:06.777.888 Device_Absent/Abnormal(EL0001): Device not found or invalid.",
     "gpu_unavailable", "accel.ascend_device_abnormal.k20"),
    ("training", "Device[5] lost heartbeat.[FUNC:SyncTask][FILE:direct_hwts_engine.cc][LINE:410]",
     "gpu_unavailable", "accel.ascend_device_abnormal.k20"),
    ("training", "EL9999  [drv api] halEschedSubmitEvent failed: deviceId=2, drvRetCode=17.[FUNC:SubmitEvent]"
                 "[FILE:npu_driver.cc][LINE:901]", "gpu_driver_error", "accel.ascend_driver.k20"),
    ("training", "Message info[1]:RTS_HWTS: aicore exception, slot_id=4, stream_id=9", "gpu_graphics_engine_fault",
     "accel.ascend_aicore.k20"),
    ("training", "[Error]: The vector core execution times out.", "gpu_xid_other", "accel.ascend_aicore_timeout.k20"),
    # AWS Neuron
    ("training", 'RuntimeError: nrt_load_collectives status=4 message="Allocation Failure" on nc3', "cuda_oom",
     "accel.ascend_oom.k20"),
    ("training", "2026-Feb-03 04:05:06.0001 8812:8899 [12] include/socket.h:580 CCOM WARN Timeout waiting for RX "
                 "(waited 600 sec) - retrying", "nccl_timeout", "accel.neuron_ccom_timeout.k20"),
    ("training", "ERROR  TDRV:tdrv_init_mla_phase1              No neuron device available", "cuda_driver_init",
     "accel.neuron_no_device.k20"),
    ("training", "2026-Feb-03 04:05:06.0001    17:17    ERROR   NRT:nrt_init    Unable to determine Neuron Driver "
                 "version. Please check aws-neuron-dkms package is installed.", "cuda_driver_init",
     "accel.neuron_no_device.k20"),
    ("training", "RuntimeError: Neuron runtime cannot be initialized; cannot determine the number of available cores",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    # Google TPU
    ("training", "libtpu.so already in use by another process probably owned by another user. Not attempting to "
                 "load libtpu.so in this process.", "cuda_device_unavailable", "accel.device_busy.k20"),
    ("training", "jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: TPU initialization failed: open(/dev/accel1): "
                 "Device or resource busy", "cuda_driver_init", None),
    ("training", "E0303 01:02:03.000004   4410 synchronous_driver.cc:820] [/dev/accel3 tpu9:pe0:2] !!!! FATAL ERROR "
                 "!!!! for [/dev/accel3 tpu9:pe0:2]", "gpu_xid_other", "accel.tpu_fatal.k20"),
    ("training", "RuntimeError: TPU my-pod-v5p-128 is not HEALTHY yet. Re-run when all TPUs are HEALTHY",
     "gpu_device_unhealthy", "accel.tpu_unhealthy.k20"),
    ("training", "F0000 00:00:1720000000.000001    5120 pjrt_computation_client.cc:490] Non-OK-status: INTERNAL: "
                 "Program or fatal error occurred; computation may be invalid", "gpu_graphics_engine_fault",
     "accel.xla_program_fatal.k20"),
    ("training", "WARNING:absl:No GPU/TPU found, falling back to CPU.", "cuda_driver_init",
     "accel.neuron_no_device.k20"),
    # Kunlun BKCL
    ("training", "[01:02:03][xpu-node4][3301][ERR][BKCL][comm.cpp:120] BKCL dont support send to one peer multi "
                 "times in one group", "nccl_user_error", "accel.bkcl.k20"),
    ("training", "[WARN][BKCL][/opt/xpu/bkcl/src/init.cpp:733] init_bkcl_context failed", "nccl_error",
     "accel.bkcl_error.k20"),
    # Intel Gaudi
    ("training", "synapse_helpers: synStatus=20 [Device already acquired] Device acquire failed on hl-2",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    ("training", "In function setup(): synDeviceAcquire(&handle, nullptr) failed with synapse error: 20",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    ("training", "RuntimeError: [Rank:3] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::536870912 (512)MB",
     "cuda_oom", "accel.gaudi_oom.k20"),
    ("training", "hcl_ibverbs_t::init failed to find matching Habana IB device (hlib_2)", "nccl_error",
     "accel.ascend_hccl_error.k20"),
    ("kernel", "habanalabs hl3: Failed to communicate with Device CPU (CPU-CP timeout)", "gpu_gsp_timeout",
     "accel.habanalabs_cpu_timeout.k20"),
    ("kernel", "habanalabs 0000:b3:00.0: Failed to initialize hl3. Device is NOT usable !", "gpu_driver_init",
     "accel.habanalabs_init.k20"),
    ("system", "docker: Error response from daemon: Unknown runtime specified neuron.", "gpu_container_init",
     "accel.container_runtime.k20"),
    # Moore Threads, Tenstorrent
    ("kernel", "MTGPU:(Error): 7712:  PID 2290 experienced error Guilty Overrun (0x2) caller[CheckFWCCB] [91]",
     "gpu_graphics_engine_fault", "accel.mtgpu_lockup.k20"),
    ("training", "2026-05-02 03:04:05.006 | warning  |             UMD | Timed out waiting for ETH heartbeat on core "
                 "(x=2,y=0) to advance. Stuck at 0x12345678 -> 0x12345678 (utils.hpp:130)", "gpu_nvlink",
     "accel.tenstorrent_eth_link"),
    ("training", "2026-05-02 03:04:05.006 | warning  |             UMD | Timeout waiting for device at BDF "
                 "0000:c1:00.0 to reappear. (warm_reset.cpp:140)", "gpu_fallen_off_bus",
     "accel.tenstorrent_reset_lost.k20"),
    # NVIDIA tools, MIG, links
    ("system", "Jan 02 03:04:05 ws7 fanctl[812]: Error: Command failed: nvidia-smi --query-gpu=fan.speed --format=csv",
     "gpu_unavailable", "gpu.nvidia_smi_failed.k20"),
    ("training", "E1111 01:02:03.000001: E tensorflow/core/tpu/tpu_init.cc:99] Couldn't open device: /dev/accel2 "
                 "(Device or resource busy)", "cuda_device_unavailable", "accel.device_busy.k20"),
    ("system", "Unable to destroy compute instance id  1 from gpu  2 gpu instance id  5: in use by another client",
     "cuda_device_unavailable", "accel.device_busy.k20"),
    ("system", "link mlx5_2/1 subnet_prefix fe80:0000:0000:0000 lid 51 sm_lid 3 lmc 0 state DOWN physical_state "
               "POLLING", "ib_link", "comm.rdma_link_down.k20"),
    # storage
    ("system", "SMART overall-health self-assessment test result: FAILED!  Drive failure expected in less than 24 "
               "hours.", "storage_local_disk", "storage.smart_failed.k20"),
    ("training", "[09:08:07] src/io/local_filesys.cc:40: Check failed: std::fwrite(ptr, 1, size, fp_) == size "
                 "FileStream.Write incomplete", "storage_io", "storage.dmlc_write.k20"),
    ("system", "dacd[4410]: Error in remote ssh run: 'mount -t lustre -o flock lnet-7@o2ib0:/scratch /mnt/job_88' "
               "error: exit status 32", "storage_remote_fs", "storage.remote_mount.k20"),
    ("training", "##[error]NFS volume is not mounted; runner not provisioned", "storage_remote_fs",
     "storage.remote_mount.k20"),
    ("training", "moxing.framework.file.file_io.MoxFileRespException: Error occurs when accessing to OBS.",
     "storage_remote_fs", "storage.remote_mount.k20"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found.rule_id if found else None, line)


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
