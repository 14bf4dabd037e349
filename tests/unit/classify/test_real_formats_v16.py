"""Brief K17 (issue 15 point 6): the format classes behind the holdout16 misses, one case per new pattern.

Part 1 checks benign look-alikes next to each new pattern (a FreeBSD NVMe completion that succeeded, SCSI sense
keys that are routine, an all-OK SCSI result, an RPC socket report without an error, an SMB client notice, a
filesystem shut down on request, MCE start-up notices, ...). Part 2 checks the formats: FreeBSD nvme(4), old Linux
nvme/SCSI wordings, sunrpc/rpcbind/Root-NFS, SMB client VFS errors, the NVIDIA user-space driver failing to open a
device node, MCE rendezvous timeouts, MATLAB's CUDA driver errors, pre-1.0 PyTorch DataLoader wording. Every line
follows the documented or source-code format of its emitter, cited next to it (and in the rule's note), with
made-up hosts, ids and numbers. None is a copy of a line of the real corpus (checked below without printing any
corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign look-alikes of the new patterns
BENIGN: list[tuple[str, str]] = [
    # FreeBSD nvme_qpair_print_completion of a command that succeeded; the command line itself
    ("kernel", "nvme3: SUCCESS (00/00) crd:0 m:0 dnr:0 p:1 sqid:4 cid:18 cdw0:0"),
    ("kernel", "Feb 2 02:02:02 bsd-st4 kernel: nvme0: resetting controller"),
    # SCSI sense keys that are routine (media change, tray empty, probing an unsupported command)
    ("kernel", "[ 77.100200] sd 6:0:0:0: [sdg] Sense Key : Unit Attention [current]"),
    ("kernel", "[ 77.100300] sr 1:0:0:0: [sr0] Sense Key : Not Ready [current]"),
    ("kernel", "[ 77.100400] sd 2:0:3:0: [sde] Sense Key : Illegal Request [current]"),
    # an all-OK SCSI result (no FAILED, DID_OK / DRIVER_OK)
    ("kernel", "[ 77.100500] sd 2:0:3:0: [sde] Result: hostbyte=DID_OK driverbyte=DRIVER_OK"),
    # sunrpc start-up and a socket report without an error
    ("kernel", "[ 3.330000] RPC: Registered tcp NFSv4.1 backchannel transport module."),
    ("kernel", "Mar 3 03:03:03 nfs-c9 kernel: RPC: xs_error_report client 00000000a1b2c3d4, error=0..."),
    ("kernel", "[ 12.100000] rpcbind: server localhost OK"),
    # SMB client notices that report no failure
    ("kernel", "[ 41.000100] CIFS: Attempting to mount \\\\files04\\projects"),
    ("kernel", "[ 41.000200] CIFS: VFS: Autodisabling the use of server inode numbers on \\\\files04\\projects."),
    # filesystems shut down on request (xfs_io -c shutdown, FS_IOC_GOINGDOWN)
    ("kernel", "Apr 4 04:04:04 qa-vm7 kernel: XFS (vdc2): User initiated shutdown received."),
    ("kernel", "[ 512.000600] EXT4-fs (vdd1): shut down requested (1)"),
    # NVIDIA driver start-up notice naming a device node
    ("system", "nvidia-persistenced: device 0000:41:00.0 - opened the device file /dev/nvidia2"),
    # MCE start-up notices
    ("kernel", "[ 0.021000] mce: CPU0: Thermal monitoring enabled (TM1)"),
    ("kernel", "[ 0.022000] mce: CPU supports 32 MCE banks"),
    # MATLAB listing a supported GPU
    ("training", "CUDADevice with properties: Name: 'NVIDIA A40' Index: 1 ComputeCapability: '8.6' "
     "DriverVersion: 12.4000"),
    # a DataLoader setting, not a failure
    ("training", "DataLoader workers: 8, persistent_workers=True, pin_memory=True"),
]

# ---- Part 2: the formats
FORMATS: list[tuple[str, str, str, str | None]] = [
    # FreeBSD nvme(4): nvme_qpair.c timeout/recovery and nvme_ctrlr.c nvme_ctrlr_wait_for_ready
    ("kernel", "Jan 9 09:09:09 zfs-07 kernel: nvme2: Resetting controller due to a timeout and possible hot unplug.",
     "storage_local_disk", "storage.local_disk"),
    ("kernel", "nvme1: Resetting controller due to a timeout and fatal error status.", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "nvme4: Aborting command due to a timeout.", "storage_local_disk", "storage.local_disk"),
    ("kernel", "nvme0: Missing interrupt", "storage_local_disk", "storage.local_disk"),
    ("kernel", "nvme3: controller ready did not become 1 within 20000 ms", "storage_local_disk",
     "storage.local_disk"),
    # FreeBSD nvme_qpair_print_completion of a failed command (older and newer field sets)
    ("kernel", "nvme1: INVALID FIELD (00/02) sqid:0 cid:11 cdw0:0", "storage_local_disk", "storage.local_disk"),
    ("kernel", "Jan 9 09:10:00 zfs-07 kernel: nvme2: WRITE FAULTS (02/80) crd:0 m:0 dnr:1 p:0 sqid:6 cid:120 cdw0:0",
     "storage_local_disk", "storage.local_disk"),
    ("kernel", "nvme0: ABORTED - SQ DELETION (00/08) sqid:2 cid:99 cdw0:0", "storage_local_disk",
     "storage.local_disk"),
    # Linux nvme: nvme_cancel_request after a reset; pre-4.5 nvme_timeout
    ("kernel", "[ 903.220100] nvme nvme2: Cancelling I/O 77 QID 12", "storage_local_disk", "storage.local_disk"),
    ("kernel", "[ 44.010203] nvme 0000:81:00.0: Timeout I/O 512 QID 7", "storage_local_disk", "storage.local_disk"),
    # SCSI sense data of a failed command (scsi_print_sense) and pre-5.x sd_done results
    ("kernel", "[ 5120.440011] sd 3:0:2:0: [sdk] Sense Key : Aborted Command [current]", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "[ 5120.440012] sd 3:0:2:0: [sdk] Sense Key : Hardware Error [deferred] [descriptor]",
     "storage_local_disk", "storage.local_disk"),
    ("kernel", "[ 5120.440010] sd 3:0:2:0: [sdk] Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE",
     "storage_local_disk", "storage.local_disk"),
    ("kernel", "[ 5120.440015] sd 0:0:0:0: [sda] Result: hostbyte=DID_BAD_TARGET driverbyte=DRIVER_OK",
     "storage_local_disk", "storage.local_disk"),
    # sunrpc / rpcbind / lockd timeouts, RPC socket errors, NFS root
    ("kernel", "[ 61.000100] rpcbind: server 192.168.40.2 not responding, timed out", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "[ 61.000200] lockd: server home-nas not responding, timed out", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "May 5 05:05:05 hpc-c12 kernel: RPC: xs_error_report client 000000007f3e2a10, error=104...",
     "storage_remote_fs", "storage.remote_fs"),
    ("kernel", "[ 8.100000] Root-NFS: Server returned error -13 while mounting /srv/nfsroot/node17",
     "storage_remote_fs", "storage.remote_fs"),
    ("kernel", "[ 8.200000] VFS: Unable to mount root fs via NFS, trying floppy.", "storage_remote_fs",
     "storage.remote_fs"),
    # SMB client VFS-level errors (old "CIFS VFS:" and 5.x+ "CIFS: VFS:")
    ("kernel", "[ 33.500100] CIFS VFS: cifs_mount failed w/return code = -112", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "[ 33.500200] CIFS: VFS: \\\\nas-2 Send error in SessSetup = -13", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "[ 33.500300] CIFS: VFS: Error connecting to socket. Aborting operation.", "storage_remote_fs",
     "storage.remote_fs"),
    ("kernel", "[ 33.500400] CIFS VFS: No response for cmd 5 mid 1442", "storage_remote_fs", "storage.remote_fs"),
    # NVIDIA user-space driver failing to open a device node
    ("system", "NVIDIA: could not open the device file /dev/nvidia5 (No such device)", "gpu_unavailable",
     "gpu.unavailable"),
    ("system", "(EE) NVIDIA: could not open the device file /dev/nvidiactl (Operation not permitted).",
     "gpu_unavailable", "gpu.unavailable"),
    # MCE rendezvous timeouts (mce_timed_out)
    ("kernel", "[81234.500001] mce: [Hardware Error]: Timeout: Monarch CPU unable to finish machine check processing",
     "hardware_mce", "host.mce_uncorrected"),
    ("kernel", "Kernel panic - not syncing: Timeout synchronizing machine check over CPUs", "hardware_mce", None),
    ("kernel", "[ 9911.000001] mce: [Hardware Error]: Some CPUs didn't answer in synchronization",
     "hardware_mce", "host.mce_uncorrected"),
    # MATLAB Parallel Computing Toolbox: CUDA driver missing or too old
    ("training", "Error using gpuDevice: The CUDA driver was found, but the function \"cuMemAllocAsync\" was not "
     "found. You might need to update the driver.", "cuda_driver_init", "cuda.driver_init"),
    ("training", "Error using gpuArray: The CUDA driver could not be loaded. The library name used was 'libcuda.so.1'.",
     "cuda_driver_init", "cuda.driver_init"),
    ("training", "There is a problem with the CUDA driver or with this GPU device. Be sure that you have a supported "
     "GPU and that the latest driver is installed.", "cuda_driver_init", "cuda.driver_init"),
    # pre-1.0 PyTorch DataLoader without the pid
    ("training", "RuntimeError: DataLoader worker is killed by signal: Bus error.", "dataloader_worker_killed",
     "process.dataloader_worker"),
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


def test_a_user_shutdown_is_benign_but_the_io_error_behind_a_shutdown_is_not(classifier: Classifier) -> None:
    assert classifier.classify("XFS (sdf1): User initiated shutdown received.", "kernel") is None
    found = classifier.classify("XFS (sdf1): Log I/O Error (0x2) detected at xlog_ioend_work+0x6e/0x70 [xfs] "
                                "(fs/xfs/xfs_log.c:1380). Shutting down filesystem.", "kernel")
    assert found is not None
    assert found.category == "storage_local_disk"


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
