"""Brief K24: the vocabularies of the components behind holdout24's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: job wrappers that report "exited with error code N" (137 and 139 decode to the signal, as the
other exit-code forms), TensorFlow's POSIX file system and IOError on a FUSE mount whose daemon went away (ENOTCONN),
and libnvidia-container's own glog-style E lines (nvc.c load_kernel_modules). Half B: libfuse's fusermount and the
gcsfuse/jacobsa-fuse wrapper of it, Slurm's jobacct_gather memory enforcement, squashfs-tools' write failure (enroot /
pyxis / Apptainer image import), lspci's "(rev ff)" for a GPU that no longer answers, the driver's FWSEC messages
under their newer function name, the Hopper FSP boot messages, and the driver OS layer's atomic-context refusal.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # ENOTCONN from shutdown(2) of a socket whose peer is gone (K24's report): a socket, not a file system
    ("training", "W0312 10:01:02.123456 4411 socket.cc:88] shutdown() failed: Transport endpoint is not connected"),
    ("system", "sshd[2211]: error: shutdown() failed: Transport endpoint is not connected"),
    # half A
    ("system", "learner-3: Job exited with error code 0"),
    ("system", "[wrapper] job exited with error code 0 after 3h12m"),
    ("system", "I1103 07:21:44.120551 40198 nvc.c:350] loading kernel module nvidia_uvm"),
    ("system", "W1103 07:21:44.119002 40211 nvc.c:171] skipping kernel modules load due to user namespace"),
    ("system", "W1103 07:21:44.118950 40211 nvc.c:401] skipping kernel modules load on WSL"),
    ("system", "I1103 07:21:44.131090 40198 nvc_info.c:512] requesting driver information with ''"),
    ("system", "I1103 07:21:44.131712 40198 nvc.c:395] attempting to load dxcore to see if we are running under "
               "Windows Subsystem for Linux (WSL)"),
    ("training", "2024-05-06 11:12:13.141516: I tensorflow/core/platform/default/posix_file_system.cc:301] Opened "
                 "/mnt/alluxio/ckpt/model.ckpt-200.index"),
    # half B
    ("system", "fusermount: entry for /mnt/bucket not found in /etc/mtab"),
    ("system", "Mount: running fusermount as an unprivileged user"),
    ("system", "slurmstepd: debug:  Job 90211 memory used:1024000 limit:32768000 KB"),
    ("system", "Parallel mksquashfs: Using 16 processors"),
    ("system", "41:00.0 3D controller: NVIDIA Corporation GA100 [A100 SXM4 80GB] (rev a1)"),
    ("system", "0000:c1:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] "
               "[10de:2684] (rev a1)"),
    ("kernel", "[   22.310415] NVRM: GPU2 kfspDumpDebugState_GH100: FSP microcode v5.12"),
    ("kernel", "NVRM: GPU2 kfspDumpDebugState_GH100: NV_PFSP_FALCON_COMMON_SCRATCH_GROUP_3(2) = 0x0"),
]

# the components' own fault formats: (source, line, category, rule id or None)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # half A: exit codes a job wrapper words as "error code"
    ("system", "[learner-0] Job exited with error code 137", "process_killed", "process.killed"),
    ("system", "[wrapper] FAILED: Job exited with error code 2", "process_exit_nonzero", "process.exit_nonzero"),
    ("system", "learner-2: Job exited with error code 139", "segfault", "process.segfault"),
    ("system", "##[error]Process completed with exit code 137.", "process_killed", "process.killed"),
    ("system", "##[error]Process completed with exit code 139.", "segfault", "process.segfault"),
    # half A: ENOTCONN from a file-system call (a FUSE mount whose daemon died)
    ("training", "2024-05-06 11:12:13.141516: E tensorflow/core/platform/default/posix_file_system.cc:56] fsync() "
                 "failed: Transport endpoint is not connected", "storage_remote_fs", "storage.remote_fs"),
    ("training", "E0506 11:12:13.141516 812 posix_file_system.cc:56] close() failed: Transport endpoint is not "
                 "connected", "storage_remote_fs", "storage.remote_fs"),
    ("training", "tensorflow.python.framework.errors_impl.UnknownError: /mnt/blob/ckpt/model.ckpt-100.index; "
                 "Transport endpoint is not connected", "storage_remote_fs", "storage.remote_fs"),
    # half A: libnvidia-container E lines
    ("system", "E1103 07:21:44.118302 40211 nvc.c:180] failed to change root directory: Permission denied",
     "gpu_container_init", "gpu.libnvc_log.k24"),
    ("system", "E1103 07:21:44.119877 40211 nvc.c:216] could not load kernel module nvidia_uvm",
     "gpu_container_init", "gpu.libnvc_log.k24"),
    ("system", "E1103 07:21:44.119901 40211 nvc.c:219] could not create kernel module device node",
     "gpu_container_init", "gpu.libnvc_log.k24"),
    # half B: fusermount and its Go wrapper
    ("system", "/usr/bin/fusermount3: mount failed: Operation not permitted", "storage_remote_fs",
     "storage.fuse_mount.k24"),
    ("system", "fusermount: failed to open /dev/fuse: Permission denied", "storage_remote_fs",
     "storage.fuse_mount.k24"),
    ("system", "fusermount: fuse device not found, try 'modprobe fuse' first", "storage_remote_fs",
     "storage.fuse_mount.k24"),
    ("system", "daemonize.Run: readFromProcess: sub-process: mountWithArgs: mountWithConn: Mount: mount: running "
               "/usr/bin/fusermount3: exit status 1", "storage_remote_fs", "storage.fuse_mount.k24"),
    # half B: Slurm jobacct_gather memory enforcement
    ("system", "slurmstepd: error: Step 90211.0 exceeded memory limit (33816576 > 32768000), being killed",
     "oom_killer", "process.oom_slurm_jag.k24"),
    ("system", "slurmstepd: error: StepId=90211.0 exceeded virtual memory limit (9914408 > 8192000), being killed",
     "oom_killer", "process.oom_slurm_jag.k24"),
    # half B: squashfs-tools
    ("system", "FATAL ERROR:Failed to write to output filesystem", "storage_io", "storage.squashfs_write.k24"),
    ("system", "Write failed because Input/output error", "storage_io", "storage.squashfs_write.k24"),
    # half B: lspci of a GPU that no longer answers config reads
    ("system", "41:00.0 3D controller: NVIDIA Corporation GA100 [A100 SXM4 80GB] (rev ff)", "gpu_fallen_off_bus",
     "gpu.lspci_rev_ff.k24"),
    ("system", "0000:c1:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] "
               "[10de:2684] (rev ff)", "gpu_fallen_off_bus", "gpu.lspci_rev_ff.k24"),
    # half B: NVIDIA driver boot (FWSEC under its newer name, FSP) and OS layer
    ("kernel", "[   12.400120] NVRM: GPU0 s_executeFwsec_TU102: failed to execute FWSEC for FRTS: FRTS error code "
               "0x492f", "gpu_driver_init", "gpu.gsp_boot"),
    ("kernel", "NVRM: kgspExecuteFwsec_TU102: failed to execute FWSEC for SB", "gpu_driver_init", "gpu.gsp_boot"),
    ("kernel", "[   19.402281] NVRM: kfspPollForResponse_IMPL: FSP command timed out", "gpu_driver_init",
     "gpu.fsp.k24"),
    ("kernel", "NVRM: kfspSendBootCommands_GH100: FSP boot cmds failed. RM cannot boot.", "gpu_driver_init",
     "gpu.fsp.k24"),
    ("kernel", "NVRM: kfspPollForQueueEmpty_IMPL: Timed out waiting for FSP command queue to be empty.",
     "gpu_driver_init", "gpu.fsp.k24"),
    ("kernel", "Jan 11 10:07:19 node7 kernel: [86015.072527] NVRM: os_schedule: Attempted to yield the CPU while in "
               "atomic or interrupt context", "gpu_driver_error", "gpu.nvrm_atomic_yield.k24"),
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
