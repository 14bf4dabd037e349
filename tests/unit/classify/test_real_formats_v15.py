"""Brief K16 (issue 15 point 6): the format classes behind the holdout15 misses, one case per new pattern.

Part 1 checks benign look-alikes next to each new pattern (a Ray actor that exited on request, a docker inspect
state that says the container was not OOM-killed, an AMD fault-status register at zero, a PCIe slot whose link came
back, SATA link events without error bits, an NFS lock server that answers again, a GPU Operator driver pod that
runs, ...). Part 2 checks the formats. Every line follows the documented or source-code format of its emitter,
cited next to it (and in the rule's note), with made-up hosts, ids and numbers. None is a copy of a line of the
real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign look-alikes of the new patterns
BENIGN: list[tuple[str, str]] = [
    # K19: faulting-client decode after the page-fault headline: detail, LABELS.md
    ("kernel", "[ 611.204413] amdgpu 0000:43:00.0: amdgpu:          Faulty UTCL2 client ID: SQC (data) (0xa)"),
    # K19: GMC fault-status decode after the page-fault headline: detail, LABELS.md
    ("kernel", "[ 611.204412] amdgpu 0000:43:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00A01031"),
    # Ray ActorDiedError for an intended exit (exit_actor(), ray.kill)
    ("training", "The actor is dead because its worker process has died. Worker exit type: INTENDED_SYSTEM_EXIT "
     "Worker exit detail: The actor was killed by ray.kill()."),
    # docker inspect / kubectl -o json state fields
    ("system", '        "OOMKilled": false, "Dead": false,'),
    ("system", '"State": {"Status": "exited", "OOMKilled": false, "ExitCode": 0}'),
    # amdgpu gmc_v9 fault decode: a zero status register and the per-field detail
    ("kernel", "[ 611.204411] amdgpu 0000:43:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00000000"),
    ("kernel", "[ 611.204415] amdgpu 0000:43:00.0: amdgpu:          WALKER_ERROR: 0x0"),
    ("kernel", "[ 611.204416] amdgpu 0000:43:00.0: amdgpu:          PERMISSION_FAULTS: 0x0"),
    # pciehp: the link coming back, a power fault that cleared, the hotplug command timeout notice
    ("kernel", "[Mon Mar  3 10:10:10 2025] pciehp 0000:00:1c.6:pcie004: Slot(7): Link Up"),
    ("kernel", "pcieport 0000:80:03.1: pciehp: Slot(41): Power fault cleared"),
    # libata: link events without error bits; AHCI hotplug interrupt causes
    ("kernel", "[ 9.114401] ata3: SError: { PHYRdyChg CommWake }"),
    ("kernel", "[ 9.114402] ata3: SError: { RecovComm }"),
    ("kernel", "[ 9.114403] ata3: irq_stat 0x00400040, connection status changed"),
    ("kernel", "[ 9.114404] ata3.00: irq_stat 0x00400000, PHY RDY changed"),
    # NFS lockd: the server answers again
    ("kernel", "lockd: server 10.20.30.40 OK"),
    # MooseFS master: a chunk server that registers
    ("system", "Jun  1 01:02:03 mfs-m2 mfsmaster[4411]: chunkserver register begin (packet version: 6) - ip: "
     "10.1.2.3 / port: 9422"),
    # SPDK NVMe driver: a NOTICE, not an error
    ("system", "[2024-02-02 02:02:02.020202] nvme_qpair.c: 243:nvme_io_qpair_print_command: *NOTICE*: WRITE sqid:1 "
     "cid:77 nsid:1 lba:4096 len:8 PRP1 0x2000 PRP2 0x0"),
    # GPU Operator: a driver pod that runs
    ("system", "gpu-operator   nvidia-driver-daemonset-m4n5b   1/1   Running   2   3d"),
    # an ordinary program's "NULL value" message outside NVSHMEM
    ("training", "/srv/app/src/parser.cpp:120: NULL value for optional field 'comment', skipping"),
    # nccl-tests: the summary of a run that passed
    ("training", "[1,0]<stdout>:# Out of bounds values : 0 OK"),
    # a Windows process that exits with status 0
    ("system", "time=2025-05-05T05:05:05.000+02:00 level=INFO source=server.go:600 msg=\"runner exited\" "
     "status=\"exit status 0x0\""),
    # kubelet devicemanager: a non-accelerator device plugin's Allocate RPC failing
    ("system", "Warning  UnexpectedAdmissionError  5s  kubelet  Allocate failed due to rpc error: code = Unknown desc = "
     "no free SR-IOV VF in pool ens1f0, which is unexpected"),
    # kubelet admission for a pod that got its devices
    ("system", "Normal  Scheduled  12s  default-scheduler  Successfully assigned ml/train-0 to gpu-node-4"),
    # systemd-modules-load loading a module
    ("system", "Mar 03 03:03:03 gpu-w1 systemd-modules-load[401]: Inserted module 'nvidia_uvm'"),
]

# ---- Part 2: the formats
FORMATS: list[tuple[str, str, str, str | None]] = [
    # NVSHMEM error macros (nvshmemx_error.h: "<file>:<line>: NULL value ..." / "non-zero status: <n> ...")
    ("training", "/opt/nvshmem-3.2/src/modules/transport/ibrc/ibrc.cpp:512: NULL value cq creation failed",
     "nccl_error", "comm.nvshmem.k16"),
    ("training", "/build/nvshmem/src/host/transport/transport.cpp:377: non-zero status: 7 init failed for "
     "transport: IBGDA", "nccl_error", "comm.nvshmem.k16"),
    # nccl-tests TESTCHECK failure
    ("training", " .. gpu-r3-07 pid 30113: Test failure common.cu:1021", "nccl_error", "nccl.error"),
    # kubelet devicemanager: the plugin's Allocate RPC error passed through
    ("system", "  Warning  UnexpectedAdmissionError  2m   kubelet  Allocate failed due to rpc error: code = Internal "
     "desc = no free vGPU slot on device 2, which is unexpected", "gpu_unavailable", "gpu.unavailable.k15"),
    # NFS lock manager (fs/lockd) and MooseFS master
    ("kernel", "[88012.100200] lockd: failed to reclaim lock for pid 4410 (errno -5, status 2)", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "[88013.100300] lockd: server nfs-home-02 not responding, still trying", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "[88014.100400] do_vfs_lock: VFS is out of sync with lock manager!", "storage_remote_fs",
     "storage.remote_fs"),
    ("system", "Jul 07 07:07:07 mfs-m1 mfsmaster[3011]: chunkserver disconnected - ip: 172.16.4.21 / port: 9422, "
     "usedspace: 1099511627776 (1024.00 GiB), totalspace: 4398046511104 (4096.00 GiB)", "storage_remote_fs",
     "storage.remote_fs"),
    ("system", "Jul 07 07:08:00 mfs-m1 mfsmaster[3011]: currently unavailable chunk 00000000001A2B3C (inode: 88121 ; "
     "index: 4)", "storage_remote_fs", "storage.remote_fs"),
    # SPDK user-space NVMe driver errors
    ("system", "[2024-03-03 03:03:03.303030] nvme_ctrlr.c:1144:nvme_ctrlr_fail: *ERROR*: [0000:5e:00.0] in failed "
     "state.", "storage_local_disk", "storage.local_disk"),
    ("system", "[2024-03-03 03:03:04.404040] nvme_pcie_common.c: 702:nvme_pcie_qpair_abort_trackers: *ERROR*: "
     "aborting outstanding command", "storage_local_disk", "storage.local_disk"),
    # libata SError error bits and AHCI interrupt causes
    ("kernel", "[ 211.300400] ata5: SError: { UnrecovData BadCRC }", "storage_local_disk", "storage.local_disk"),
    ("kernel", "[ 211.300500] ata5.00: irq_stat 0x40000001, host bus error", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "[ 211.300600] ata2.00: irq_stat 0x08000000, interface fatal error", "storage_local_disk",
     "storage.local_disk"),
    # Ray ActorDiedError with a system exit, and with the memory monitor's kill
    ("training", "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task. The actor is "
     "dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits "
     "with an exit code 1.", "process_killed", "process.ray_worker_died"),
    ("training", "The actor is dead because its node has died. Node Id: 3fa2c1d0", "process_killed",
     "process.ray_worker_died"),
    ("training", "The actor is dead because its worker process has died. Worker exit type: NODE_OUT_OF_MEMORY Worker "
     "exit detail: Task was killed due to the node running low on memory.", "oom_killer", None),
    # Windows NTSTATUS exit code in Go's os/exec wording; Flyte pod plugin and propeller
    ("system", "time=2025-06-06T06:06:06.006+08:00 level=ERROR source=server.go:512 msg=\"llama runner terminated\" "
     "error=\"exit status 0xc000001d\"", "process_exit_nonzero", "process.exit_nonzero"),
    ("system", "[a1b2c3d4e5f6-n1-0] terminated with exit code (2). Reason [Error]. Message: ", "process_exit_nonzero",
     "process.exit_nonzero"),
    ("system", "[a1b2c3d4e5f6-n1-0] terminated with exit code (137). Reason [OOMKilled?]. Message: ",
     "oom_killer", None),
    ("system", "[c9d8e7f6a5b4-n2-1] terminated with exit code (137). Reason [Error]. Message: ", "process_killed",
     "process.killed"),
    ("system", "[c9d8e7f6a5b4-n2-1] terminated with exit code (139). Reason [Error]. Message: ", "segfault",
     "process.segfault"),
    ("system", "[3/3] currentAttempt done. Last Error: SYSTEM::Pod failed with an unknown reason.",
     "process_exit_nonzero", "process.exit_nonzero"),
    # ggml's pre-2024 GGML_ASSERT macro
    ("training", "GGML_ASSERT: /home/ci/llama.cpp/ggml.c:12345: ne2 == ne02", "process_crash",
     "process.ggml_assert.k15"),
    # GPU Operator driver pod crash-looping; the toolkit pod likewise
    ("system", "Feb 02 02:02:02 gpu-w7 kubelet[2211]: E0202 02:02:02.020202 2211 pod_workers.go:951] \"Error syncing "
     "pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"nvidia-driver-ctr\\\" with CrashLoopBackOff: "
     "\\\"back-off 2m40s restarting failed container\\\"\"", "gpu_driver_init", "gpu.operator_pod.k16"),
    ("system", "gpu-operator   nvidia-container-toolkit-daemonset-z1x2c   0/1   Init:CrashLoopBackOff   4   9m",
     "gpu_container_init", "gpu.operator_toolkit_pod.k16"),
    # amdgpu GMC fault decode: non-zero status register, faulting client (gmc v9+ and gmc v7/8)
    # PCIe hot-plug link loss (pciehp, old and new prefixes)
    ("kernel", "[Wed Jan  8 04:04:04 2020] pciehp 0000:00:1c.6:pcie004: Slot(7): Link Down event", "pcie_aer",
     "host.pcie_aer"),
    ("kernel", "[ 5021.100300] pcieport 0000:c0:01.1: pciehp: Slot(12-1): Link Down", "pcie_aer", "host.pcie_aer"),
    ("kernel", "[ 5021.300300] pcieport 0000:c0:01.1: pciehp: Failed to check link status", "pcie_aer",
     "host.pcie_aer"),
    # NVIDIA kernel module / X driver / modules-load failures
    ("kernel", "[ 412.100100] NVRM: None of the NVIDIA graphics adapters were initialized!", "gpu_driver_init",
     "gpu.driver_init"),
    ("kernel", "Jun 6 06:06:06 ws-17 kernel: [ 412.200200] NVRM: rm_init_adapter(1) failed", "gpu_driver_init",
     "gpu.driver_init"),
    ("system", "[    31.004] (EE) NVIDIA(GPU-0): Failed to initialize the NVIDIA kernel module! Please ensure that",
     "gpu_driver_init", "gpu.driver_init"),
    ("system", "Aug 08 08:08:08 ws-17 systemd-modules-load[288]: Failed to find module 'nvidia-drm'",
     "gpu_driver_init", "gpu.driver_init"),
    ("system", "modprobe: FATAL: Module nvidia_uvm not found in directory /lib/modules/6.8.0-45-generic",
     "gpu_driver_init", "gpu.driver_init"),
    # NVRM OS-layer sanity check after the GPU is gone
    ("kernel", "[ 900.000300] NVRM: os_map_kernel_space: invalid context!", "gpu_driver_error", "gpu.driver_error"),
    # the two K15 gaps: Paddle DataLoader worker signal, Blender Cycles illegal address
    ("training", "SystemError: (Fatal) Unexpected bus error encountered in DataLoader workers. This might be caused "
     "by insufficient shared memory.", "dataloader_worker_killed", "process.dataloader_worker"),
    ("training", "[rank2]: ERROR: Unexpected illegal instruction encountered in worker.", "dataloader_worker_killed",
     "process.dataloader_worker"),
    ("system", "CUDA error: Illegal address in cuMemcpyHtoD(dst, src, 4096), line 812", "cuda_illegal_memory_access",
     "cuda.illegal_memory_access"),
    ("system", "CUDA error: ILLEGAL_ADDRESS in cuStreamSynchronize(stream)", "cuda_illegal_memory_access",
     "cuda.illegal_memory_access"),
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


def test_pcie_link_down_is_not_a_network_link(classifier: Classifier) -> None:
    found = classifier.classify("pciehp 0000:00:1c.0:pcie004: Slot(2): Link Down event", "kernel")
    assert found is not None
    assert found.family == "host_hw"


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
