"""Brief F6 (issue 15 point 6): knowledge-base coverage from the vendors' own format strings, round 6.

Each case instantiates a failure message as the software that prints it formats it, across kernel versions and
distributions (the comment names the emitter, its source file and the kernel era): soft/hard lockup, NMI watchdog,
hung task and RCU stall wordings from 2.6.16 to 6.x; panic / oops / BUG banners; OOM-killer wordings per version
(mm/oom_kill.c, mm/memcontrol.c); ext3/ext4/jbd/jbd2/XFS/btrfs errors; the block layer's end_request /
blk_update_request / print_req_error / "I/O error, dev"; SCSI, libata and the 2.6 IDE driver; NVMe per version;
MCE, EDAC (edac_mc, sb_edac, i7core, amd64, skx) and APEI GHES; PCIe AER per version; user-space segfault / trap
lines; process endings as bash / zsh / fish / dash print them, in the de, fr, es, zh_CN, ja and ru translations of
glibc's strsignal and bash's "(core dumped)"; systemd unit results and container runtimes' exit reasons. Kernel
fault lines are also checked behind the syslog, journald, RFC5424, dmesg -T / -x and /dev/kmsg prefixes. Benign
look-alikes are the INFO/notice siblings from the same sources. Hosts, ids, paths and numbers are made up. No line
is a copy of a corpus line (checked below without printing any).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (log source, line, expected category); the comment names the emitter and its source file
FORMATS: list[tuple[str, str, str]] = [
    # watchdog: kernel/watchdog.c (2.6.32-3.x)
    ('kernel', 'BUG: soft lockup - CPU#5 stuck for 67s! [kworker/5:2:1874]', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c (2.6.x softlockup.c)
    ('kernel', 'BUG: soft lockup - CPU#0 stuck for 10s! [swapper:0]', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c (4.x)
    ('kernel', 'NMI watchdog: BUG: soft lockup - CPU#12 stuck for 22s! [python:33812]', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c (5.x)
    ('kernel', 'watchdog: BUG: soft lockup - CPU#3 stuck for 26s! [pt_data_worker:4123]', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c (3.10 RHEL7)
    ('kernel', 'Watchdog detected hard LOCKUP on cpu 14', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c (4.x)
    ('kernel', 'NMI watchdog: Watchdog detected hard LOCKUP on cpu 6', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c (2.6.x nmi.c)
    ('kernel', 'NMI Watchdog detected LOCKUP on CPU 2', 'kernel_lockup'),
    # watchdog: arch/x86/kernel/nmi.c (2.6.18)
    ('kernel', 'NMI Watchdog detected LOCKUP on CPU2, eip c0119e5c, registers:', 'kernel_lockup'),
    # watchdog: kernel/watchdog_buddy.c (6.x)
    ('kernel', 'watchdog: CPU7: Watchdog detected hard LOCKUP on cpu 8', 'kernel_lockup'),
    # hung_task: kernel/hung_task.c (2.6/3.x)
    ('kernel', 'INFO: task jbd2/sda1-8:412 blocked for more than 120 seconds.', 'kernel_lockup'),
    # hung_task: kernel/hung_task.c (6.x)
    ('kernel', 'INFO: task python3:40877 blocked for more than 122 seconds.', 'kernel_lockup'),
    # hung_task: kernel/hung_task.c (2.6.18 softlockup.c)
    ('kernel', 'INFO: task kjournald:2215 blocked for more than 120 seconds.', 'kernel_lockup'),
    # rcu: kernel/rcutree.c (2.6.3x)
    ('kernel', 'INFO: rcu_sched_state detected stall on CPU 3 (t=60000 jiffies)', 'kernel_lockup'),
    # rcu: kernel/rcutree.c (3.x)
    ('kernel', 'INFO: rcu_sched detected stalls on CPUs/tasks: { 12} (detected by 4, t=60002 jiffies, g=1289, c=1288, q=311)', 'kernel_lockup'),
    # rcu: kernel/rcutree.c (3.x)
    ('kernel', 'INFO: rcu_sched self-detected stall on CPU { 7}  (t=60000 jiffies g=8812 c=8811 q=18)', 'kernel_lockup'),
    # rcu: kernel/rcu/tree_stall.h (5.x)
    ('kernel', 'rcu: INFO: rcu_preempt self-detected stall on CPU', 'kernel_lockup'),
    # rcu: kernel/rcu/tree_stall.h (5.x)
    ('kernel', 'rcu: INFO: rcu_sched detected stalls on CPUs/tasks:', 'kernel_lockup'),
    # rcu: kernel/rcutree.c (2.6.32 RHEL6)
    ('kernel', 'INFO: RCU detected CPU 4 stall (t=4295238441/2500 jiffies)', 'kernel_lockup'),
    # rcu: kernel/rcu/tree_stall.h
    ('kernel', 'rcu: rcu_sched kthread starved for 2101 jiffies! g52881 f0x0 RCU_GP_WAIT_FQS(5) ->state=0x402 ->cpu=3', 'kernel_lockup'),
    # rcu: kernel/rcu/tree_exp.h
    ('kernel', 'INFO: rcu_sched detected expedited stalls on CPUs/tasks: { 22-... } 21004 jiffies s: 1377 root: 0x4/.', 'kernel_lockup'),
    # panic: kernel/panic.c
    ('kernel', 'Kernel panic - not syncing: Fatal exception', 'kernel_panic'),
    # panic: kernel/panic.c (2.6)
    ('kernel', 'Kernel panic - not syncing: Attempted to kill init!', 'kernel_panic'),
    # panic: kernel/panic.c
    ('kernel', 'Kernel panic - not syncing: Out of memory and no killable processes...', 'kernel_panic'),
    # panic: kernel/panic.c (5.x)
    ('kernel', '---[ end Kernel panic - not syncing: Fatal exception ]---', 'kernel_panic'),
    # panic: kernel/panic.c
    ('kernel', 'Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)', 'kernel_panic'),
    # oops: arch/x86/mm/fault.c (2.6/3.x)
    ('kernel', 'BUG: unable to handle kernel NULL pointer dereference at 0000000000000008', 'kernel_panic'),
    # oops: arch/x86/mm/fault.c (2.6/3.x)
    ('kernel', 'BUG: unable to handle kernel paging request at ffffc90001a3e000', 'kernel_panic'),
    # oops: arch/x86/mm/fault.c (2.6.18)
    ('kernel', 'Unable to handle kernel NULL pointer dereference at 0000000000000010 RIP:', 'kernel_panic'),
    # oops: arch/x86/mm/fault.c (5.x)
    ('kernel', 'BUG: unable to handle page fault for address: ffffffffc0a8b000', 'kernel_panic'),
    # oops: arch/x86/mm/fault.c (5.x)
    ('kernel', 'BUG: kernel NULL pointer dereference, address: 0000000000000040', 'kernel_panic'),
    # oops: arch/x86/kernel/dumpstack.c (2.6/3.x)
    ('kernel', 'Oops: 0000 [#1] SMP', 'kernel_panic'),
    # oops: arch/x86/kernel/dumpstack.c (4.x)
    ('kernel', 'Oops: 0002 [#1] SMP PTI', 'kernel_panic'),
    # oops: arch/x86/kernel/dumpstack.c (6.x)
    ('kernel', 'Oops: 0010 [#1] PREEMPT SMP NOPTI', 'kernel_panic'),
    # oops: arch/x86/kernel/traps.c
    ('kernel', 'general protection fault: 0000 [#1] SMP', 'kernel_panic'),
    # oops: arch/x86/kernel/traps.c
    ('kernel', 'invalid opcode: 0000 [#1] SMP', 'kernel_panic'),
    # oops: include/asm-generic/bug.h
    ('kernel', 'kernel BUG at mm/slub.c:3951!', 'kernel_panic'),
    # oops: include/asm-generic/bug.h (2.6)
    ('kernel', '------------[ cut here ]------------ kernel BUG at fs/ext4/inode.c:2712!', 'kernel_panic'),
    # oom: mm/oom_kill.c (2.6.x)
    ('kernel', 'Out of memory: kill process 4123 (python) score 912 or a child', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6.32/3.x)
    ('kernel', 'Out of memory: Kill process 4123 (python) score 912 or sacrifice child', 'oom_killer'),
    # oom: mm/oom_kill.c (3.x)
    ('kernel', 'Killed process 4123 (python) total-vm:61234120kB, anon-rss:59912340kB, file-rss:0kB', 'oom_killer'),
    # oom: mm/oom_kill.c (4.x)
    ('kernel', 'Killed process 4123 (python) total-vm:61234120kB, anon-rss:59912340kB, file-rss:1024kB, shmem-rss:0kB', 'oom_killer'),
    # oom: mm/oom_kill.c (5.x)
    ('kernel', 'Out of memory: Killed process 4123 (python) total-vm:61234120kB, anon-rss:59912340kB, file-rss:1024kB, shmem-rss:0kB, UID:1000 pgtables:120456kB oom_score_adj:0', 'oom_killer'),
    # oom: mm/oom_kill.c (4.19+)
    ('kernel', 'oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-1,global_oom,task_memcg=/user.slice,task=python,pid=4123,uid=1000', 'oom_killer'),
    # oom: mm/oom_kill.c (memcg)
    ('kernel', 'Memory cgroup out of memory: Killed process 4123 (python) total-vm:61234120kB, anon-rss:59912340kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:120456kB oom_score_adj:0', 'oom_killer'),
    # oom: mm/oom_kill.c (3.10 memcg)
    ('kernel', 'Memory cgroup out of memory: Kill process 4123 (python) score 998 or sacrifice child', 'oom_killer'),
    # oom: mm/oom_kill.c
    ('kernel', 'python invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6)
    ('kernel', 'python invoked oom-killer: gfp_mask=0x201da, order=0, oomkilladj=0', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6.18)
    ('kernel', 'Out of memory: Killed process 4123 (python).', 'oom_killer'),
    # oom: mm/oom_kill.c (4.x)
    ('kernel', 'Task in /user.slice killed as a result of limit of /user.slice', 'oom_killer'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs error (device sda1): ext4_lookup:1602: inode #2621441: comm python: deleted inode referenced: 2621470', 'storage_local_disk'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs error (device nvme0n1p2): ext4_find_entry:1455: inode #131073: comm python3: reading directory lblock 0', 'storage_local_disk'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs (sdb1): Remounting filesystem read-only', 'storage_local_disk'),
    # ext4: fs/ext4/super.c (2.6)
    ('kernel', 'EXT4-fs error (device dm-0): ext4_journal_start_sb: Detected aborted journal', 'storage_local_disk'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs warning (device sda1): ext4_end_bio:323: I/O error 10 writing to inode 1311023 starting block 5243904)', 'storage_local_disk'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs (dm-2): I/O error while writing superblock', 'storage_local_disk'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs (sda1): previous I/O error to superblock detected', 'storage_local_disk'),
    # ext3: fs/ext3/super.c (2.6/3.x)
    ('kernel', 'EXT3-fs error (device sda2): ext3_lookup: deleted inode referenced: 1179658', 'storage_local_disk'),
    # ext3: fs/ext3/super.c (2.6/3.x)
    ('kernel', 'EXT3-fs error (device sdb1) in ext3_reserve_inode_write: IO failure', 'storage_local_disk'),
    # ext3: fs/ext3/super.c (2.6/3.x)
    ('kernel', 'Remounting filesystem read-only', 'storage_local_disk'),
    # ext3: fs/jbd/journal.c (2.6)
    ('kernel', 'Aborting journal on device sda2.', 'storage_local_disk'),
    # jbd2: fs/jbd2/journal.c
    ('kernel', 'Aborting journal on device sda1-8.', 'storage_local_disk'),
    # jbd2: fs/jbd2/journal.c
    ('kernel', 'JBD2: Detected IO errors while flushing file data on sdb1-8', 'storage_local_disk'),
    # jbd2: fs/jbd2/journal.c
    ('kernel', 'JBD2: Error -5 detected when updating journal superblock for nvme1n1-8.', 'storage_local_disk'),
    # buffer: fs/buffer.c
    ('kernel', 'Buffer I/O error on device sdb1, logical block 1245184', 'storage_local_disk'),
    # buffer: fs/buffer.c (2.6)
    ('kernel', 'Buffer I/O error on dev sda1, logical block 1245184, lost async page write', 'storage_local_disk'),
    # buffer: fs/buffer.c (2.6)
    # (H49: a local disk named: LABELS.md's local-disk row, as the Buffer I/O error line it follows)
    ('kernel', 'lost page write due to I/O error on sdb1', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_trans.c
    ('kernel', 'XFS (sdb1): xfs_do_force_shutdown(0x2) called from line 1271 of file fs/xfs/xfs_log.c. Return address = 0xffffffffc07b0d1a', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_fsops.c
    ('kernel', 'XFS (dm-3): Log I/O Error Detected. Shutting down filesystem', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_fsops.c
    ('kernel', 'XFS (nvme0n1): Corruption of in-memory data detected.  Shutting down filesystem', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_fsops.c
    ('kernel', 'XFS (sdc): I/O Error Detected. Shutting down filesystem', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_buf.c
    ('kernel', 'XFS (sdb1): metadata I/O error in "xfs_trans_read_buf_map" at daddr 0x1a2b3c len 8 error 5', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_buf.c (3.10)
    ('kernel', 'XFS (sdb1): metadata I/O error: block 0x1a2b3c ("xfs_trans_read_buf_map") error 5 numblks 8', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_error.c
    ('kernel', 'XFS (sda3): Internal error XFS_WANT_CORRUPTED_GOTO at line 1423 of file fs/xfs/libxfs/xfs_alloc.c.  Caller xfs_free_ag_extent+0x3f2/0x870 [xfs]', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_error.c
    ('kernel', 'XFS (sdb): Metadata corruption detected at xfs_inode_buf_verify+0x6e/0xf0 [xfs], xfs_inode block 0x2f7c0 xfs_inode_buf_verify', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_log.c
    ('kernel', 'XFS (dm-0): xfs_log_force: error -5 returned.', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_super.c
    ('kernel', 'XFS (sdb1): Please umount the filesystem and rectify the problem(s)', 'storage_local_disk'),
    # btrfs: fs/btrfs/super.c
    ('kernel', 'BTRFS error (device sdb1): bdev /dev/sdb1 errs: wr 12, rd 0, flush 0, corrupt 0, gen 0', 'storage_local_disk'),
    # btrfs: fs/btrfs/super.c
    ('kernel', 'BTRFS: error (device sda2) in btrfs_commit_transaction:2418: errno=-5 IO failure (Error while writing out transaction)', 'storage_local_disk'),
    # btrfs: fs/btrfs/super.c
    ('kernel', 'BTRFS info (device sda2): forced readonly', 'storage_local_disk'),
    # btrfs: fs/btrfs/disk-io.c
    ('kernel', 'BTRFS warning (device nvme0n1p3): csum failed root 5 ino 257 off 4096 csum 0x8941f998 expected csum 0x1d3c2b4a mirror 1', 'storage_local_disk'),
    # btrfs: fs/btrfs/super.c (3.x)
    ('kernel', 'BTRFS: error (device sdb) in __btrfs_free_extent:6956: errno=-5 IO failure', 'storage_local_disk'),
    # btrfs: fs/btrfs/super.c
    ('kernel', 'BTRFS critical (device sda2): corrupt leaf: root=2 block=30572544 slot=22, unexpected item end, have 15963 expect 16000', 'storage_local_disk'),
    # blk: block/blk-core.c (2.6/3.x)
    ('kernel', 'end_request: I/O error, dev sdb, sector 1953524992', 'storage_local_disk'),
    # blk: block/blk-core.c (2.6)
    ('kernel', 'end_request: critical medium error, dev sdc, sector 312312', 'storage_local_disk'),
    # blk: block/blk-core.c (4.x)
    ('kernel', 'blk_update_request: I/O error, dev sdb, sector 1953524992', 'storage_local_disk'),
    # blk: block/blk-core.c (4.17+)
    ('kernel', 'blk_update_request: I/O error, dev nvme0n1, sector 124352 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0', 'storage_local_disk'),
    # blk: block/blk-core.c (5.x)
    ('kernel', 'print_req_error: I/O error, dev sda, sector 8392704', 'storage_local_disk'),
    # blk: block/blk-core.c (5.x)
    ('kernel', 'blk_update_request: critical medium error, dev sdd, sector 41920 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0', 'storage_local_disk'),
    # blk: block/blk-core.c (6.x)
    ('kernel', 'I/O error, dev sda, sector 8392704 op 0x1:(WRITE) flags 0x8800 phys_seg 1 prio class 2', 'storage_local_disk'),
    # blk: block/blk-core.c (6.x)
    ('kernel', 'critical target error, dev sdc, sector 1953524736 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2', 'storage_local_disk'),
    # blk: block/blk-core.c (5.x)
    ('kernel', 'print_req_error: critical medium error, dev sdb, sector 41920', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_lib.c
    ('kernel', 'sd 2:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE cmd_age=0s', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c (2.6/3.x)
    ('kernel', 'sd 2:0:0:0: [sdb] Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_logging.c
    ('kernel', 'sd 2:0:0:0: [sdb] tag#5 Sense Key : Medium Error [current]', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_logging.c (3.x)
    ('kernel', 'sd 2:0:0:0: [sdb] Sense Key : Medium Error [current] [descriptor]', 'storage_local_disk'),
    # scsi: drivers/scsi/constants.c
    ('kernel', 'sd 2:0:0:0: [sdb] Add. Sense: Unrecovered read error - auto reallocate failed', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c
    ('kernel', 'sd 2:0:0:0: [sdb] tag#12 FAILED Result: hostbyte=DID_BAD_TARGET driverbyte=DRIVER_OK cmd_age=30s', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_error.c
    ('kernel', 'sd 2:0:0:0: [sdb] tag#3 timing out command, waited 180s', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_error.c
    ('kernel', 'sd 2:0:0:0: rejecting I/O to offline device', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_lib.c (2.6)
    ('kernel', 'sd 0:0:0:0: SCSI error: return code = 0x08000002', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c (2.6)
    ('kernel', 'sdb: Current: sense key: Medium Error', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x0', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata3.00: failed command: READ FPDMA QUEUED', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata3.00: status: { DRDY ERR }', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata3.7: error: { UNC }', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata1: hard resetting link', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata1.00: exception Emask 0x10 SAct 0x0 SErr 0x400100 action 0x6 frozen', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata1: SError: { UnrecovData Handshk }', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata4.00: failed to IDENTIFY (I/O error, err_mask=0x4)', 'storage_local_disk'),
    # ata: drivers/ata/libata-core.c
    ('kernel', 'ata4.00: disabled', 'storage_local_disk'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata2.00: qc timeout (cmd 0xec)', 'storage_local_disk'),
    # ide: drivers/ide/ide-dma.c (2.6)
    ('kernel', 'hda: dma_intr: status=0x51 { DriveReady SeekComplete Error }', 'storage_local_disk'),
    # ide: drivers/ide/ide-dma.c (2.6)
    ('kernel', 'hda: dma_intr: error=0x84 { DriveStatusError BadCRC }', 'storage_local_disk'),
    # ide: drivers/ide/ide-lib.c (2.6)
    ('kernel', 'hdb: dma_intr: error=0x40 { UncorrectableError }, LBAsect=1234567, sector=1234560', 'storage_local_disk'),
    # ide: drivers/ide/ide-io.c (2.6)
    ('kernel', 'hda: task_no_data_intr: status=0x51 { DriveReady SeekComplete Error }', 'storage_local_disk'),
    # ide: drivers/ide/ide-io.c (2.6)
    ('kernel', 'ide0: reset: master: error (0x00?)', 'storage_local_disk'),
    # ide: drivers/ide/ide-iops.c (2.6)
    ('kernel', 'hda: lost interrupt', 'storage_local_disk'),
    # ide: drivers/ide/ide-dma.c (2.6)
    ('kernel', 'hda: dma_timer_expiry: dma status == 0x21', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (4.x)
    ('kernel', 'nvme nvme0: I/O 123 QID 4 timeout, aborting', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (4.x)
    ('kernel', 'nvme nvme0: I/O 123 QID 4 timeout, reset controller', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (5.x)
    ('kernel', 'nvme nvme1: I/O 22 (I/O Cmd) QID 7 timeout, aborting req_op:READ(0) size:131072', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c
    ('kernel', 'nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c
    ('kernel', 'nvme nvme0: Removing after probe failure status: -26', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c
    ('kernel', 'nvme nvme2: Device not ready; aborting reset, CSTS=0x1', 'storage_local_disk'),
    # nvme: drivers/nvme/host/core.c
    ('kernel', 'nvme0n1: I/O Cmd(0x2) @ LBA 1953524992, 256 blocks, I/O Error (sct 0x2 / sc 0x81) MORE DNR', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (3.x)
    ('kernel', 'nvme 0000:5e:00.0: Timeout I/O 412 QID 3', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (3.x)
    ('kernel', 'nvme 0000:5e:00.0: Cancelling I/O 412 QID 3', 'storage_local_disk'),
    # nvme: drivers/nvme/host/core.c
    ('kernel', 'nvme nvme1: frozen state error detected, reset controller', 'storage_local_disk'),
    # mce: arch/x86/kernel/cpu/mcheck/mce.c (2.6/3.x)
    ('kernel', 'Machine check events logged', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mce/core.c (5.x)
    ('kernel', 'mce: [Hardware Error]: CPU 12: Machine Check: 0 Bank 7: cc00008000010090', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mce/core.c (5.x)
    ('kernel', 'mce: [Hardware Error]: CPU 3: Machine Check Exception: 5 Bank 4: b200000000070f0f', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mcheck/mce.c (2.6)
    ('kernel', 'CPU 3: Machine Check Exception: 0000000000000004', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mce/core.c
    ('kernel', 'mce: Uncorrected hardware memory error in user-access at 2f3c84000', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mce/core.c
    ('kernel', 'Memory failure: 0x2f3c84: recovery action for dirty LRU page: Recovered', 'hardware_mce'),
    # mce: mm/memory-failure.c
    ('kernel', 'Memory failure: 0x81f3a2: Sending SIGBUS to python:4123 due to hardware memory corruption', 'hardware_mce'),
    # edac: drivers/edac/edac_mc.c (2.6/3.x)
    ('kernel', 'EDAC MC0: CE page 0x2f3c84, offset 0x340, grain 8, syndrome 0x5c, row 1, channel 0, label "DIMM_A1": i5000 CE', 'hardware_mce'),
    # edac: drivers/edac/edac_mc.c (2.6/3.x)
    ('kernel', 'EDAC MC1: UE page 0x81f3a2, offset 0x0, grain 8, row 2, labels "DIMM_B1": i5400 UE', 'hardware_mce'),
    # edac: drivers/edac/edac_mc.c (3.x)
    ('kernel', 'EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x2f3c84 offset:0x340 grain:32 syndrome:0x0 - area:DRAM err_code:0001:0091 socket:0 ha:0 channel_mask:2 rank:1)', 'hardware_mce'),
    # edac: drivers/edac/sb_edac.c (3.x)
    ('kernel', 'EDAC sbridge MC0: HANDLING MCE MEMORY ERROR', 'hardware_mce'),
    # edac: drivers/edac/sb_edac.c (3.x)
    ('kernel', 'EDAC sbridge MC0: CPU 0: Machine Check Event: 0 Bank 7: 8c00004000010091', 'hardware_mce'),
    # edac: drivers/edac/i7core_edac.c (2.6.3x)
    ('kernel', 'EDAC i7core: New Corrected error(s): dimm=1 (last=1 now=3)', 'hardware_mce'),
    # edac: drivers/edac/i7core_edac.c (2.6.3x)
    ('kernel', 'EDAC MC1: CE row 0, channel 1, label "": 1 Corrected error (Corrected memory error at socket 1 dimm 1)', 'hardware_mce'),
    # edac: drivers/edac/skx_common.c (5.x)
    ('kernel', 'EDAC MC2: 1 CE memory read error on CPU_SrcID#1_MC#0_Chan#2_DIMM#0 (channel:2 slot:0 page:0x81f3a2 offset:0x340 grain:32 syndrome:0x0 - err_code:0x0000:0x009f  ProcessorSocketId:0x1 MemoryControllerId:0x0 PhysicalRankId:0x0 Row:0x1234 Column:0x248 Bank:0x1 BankGroup:0x2 retry_rd_err_log[0001a209 00000000 10000000 0480d020 00008090] correrrcnt[0001 0000 0000 0000 0000 0000 0000 0000])', 'hardware_mce'),
    # edac: drivers/edac/amd64_edac.c
    ('kernel', 'EDAC amd64: DRAM ECC error detected on the NB.', 'hardware_mce'),
    # edac: drivers/edac/amd64_edac.c
    ('kernel', 'EDAC MC0: 1 UE Uncorrected memory error on CPU_SrcID#0 (csrow:3 channel:1 page:0x7af12 offset:0x0 grain:64)', 'hardware_mce'),
    # edac: drivers/edac/ghes_edac.c
    ('kernel', 'EDAC MC0: 1 CE single-symbol chipkill ECC on DIMM_A0 (node:0 card:0 module:0 rank:1 bank:7 row:8211 col:312 page:0x2f3c84 offset:0x340 grain:64 syndrome:0x0)', 'hardware_mce'),
    # ghes: drivers/acpi/apei/ghes.c
    ('kernel', '{1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 0', 'hardware_mce'),
    # ghes: drivers/acpi/apei/ghes.c
    ('kernel', '{1}[Hardware Error]: event severity: corrected', 'hardware_mce'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (3.x)
    ('kernel', 'pcieport 0000:00:03.0: AER: Corrected error received: id=0018', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (3.x)
    ('kernel', 'pcieport 0000:00:03.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, id=0018(Receiver ID)', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (3.x)
    ('kernel', 'pcieport 0000:00:03.0: AER: Multiple Corrected error received: id=0018', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (3.x)
    ('kernel', 'pcieport 0000:80:02.0: AER: Multiple Uncorrected (Non-Fatal) error received: id=8010', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (3.x)
    ('kernel', 'pcieport 0000:80:02.0: AER: Uncorrected (Fatal) error received: id=8010', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c (5.x)
    ('kernel', 'pcieport 0000:80:02.0: AER: Uncorrected (Non-Fatal) error received: 0000:81:00.0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c (5.x)
    ('kernel', 'nvidia 0000:81:00.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Requester ID)', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c (5.x)
    ('kernel', 'pcieport 0000:00:01.1: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (2.6.3x)
    ('kernel', 'pcieport-driver 0000:00:1c.0: PCIE Bus Error: severity=Corrected, type=Physical Layer, id=00e0(Receiver ID)', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c (6.x)
    ('kernel', 'pcieport 0000:00:1d.0: AER: Correctable error message received from 0000:03:00.0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c (6.x)
    ('kernel', 'pcieport 0000:00:1d.0: AER: Uncorrectable (Non-Fatal) error message received from 0000:03:00.0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c (6.x)
    ('kernel', 'pcieport 0000:00:1d.0: AER: Uncorrectable (Fatal) error message received from 0000:03:00.0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c
    ('kernel', 'pcieport 0000:00:03.0: AER: Corrected error message received from 0000:03:00.0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer.c
    ('kernel', 'pcieport 0000:00:03.0: AER: device recovery failed', 'pcie_aer'),
    # segv: arch/x86/mm/fault.c
    ('kernel', 'python[4123]: segfault at 0 ip 00007f3a2b1c4d10 sp 00007ffd3c2a1b80 error 4 in libc-2.31.so[7f3a2b08c000+178000]', 'segfault'),
    # segv: arch/x86/mm/fault.c (3.x)
    ('kernel', 'python[4123]: segfault at 7f3a2b1c4d10 ip 00007f3a2b1c4d10 sp 00007ffd3c2a1b80 error 14', 'segfault'),
    # segv: arch/x86/kernel/traps.c
    ('kernel', 'traps: python[4123] general protection fault ip:7f3a2b1c4d10 sp:7ffd3c2a1b80 error:0 in libtorch_cpu.so[7f3a20000000+8000000]', 'process_crash'),
    # segv: arch/x86/kernel/traps.c
    ('kernel', 'traps: python[4123] trap invalid opcode ip:7f3a2b1c4d10 sp:7ffd3c2a1b80 error:0 in libc.so.6[7f3a2b08c000+178000]', 'process_crash'),
    # shell: bash jobs.c (en)
    ('training', '/var/spool/slurmd/job12345/slurm_script: line 42: 41234 Segmentation fault      (core dumped) python train.py --config cfg.yaml', 'segfault'),
    # shell: bash jobs.c (en)
    ('training', 'train.sh: line 17:  8812 Segmentation fault      python train.py', 'segfault'),
    # shell: bash jobs.c (en)
    ('training', 'run.sh: line 9:  4123 Killed                  python train.py', 'process_killed'),
    # shell: bash jobs.c (en)
    ('training', 'run.sh: line 9:  4123 Aborted                 (core dumped) python train.py', 'process_crash'),
    # shell: bash jobs.c (en)
    ('training', 'run.sh: line 9:  4123 Bus error               (core dumped) python train.py', 'process_crash'),
    # shell: bash (de)
    ('training', 'train.sh: Zeile 17:  8812 Speicherzugriffsfehler  (Speicherabzug geschrieben) python train.py', 'segfault'),
    # shell: bash (de)
    ('training', 'train.sh: Zeile 17:  8812 Getötet                 python train.py', 'process_killed'),
    # shell: bash (de)
    ('training', 'train.sh: Zeile 17:  8812 Abgebrochen             (Speicherabzug geschrieben) python train.py', 'process_crash'),
    # shell: bash (fr)
    ('training', 'train.sh: ligne 17 :  8812 Erreur de segmentation  (core dumped) python train.py', 'segfault'),
    # shell: bash (fr)
    ('training', 'train.sh: ligne 17 :  8812 Processus arrêté        python train.py', 'process_killed'),
    # shell: bash (fr)
    ('training', 'train.sh: ligne 17 :  8812 Abandon                 (core dumped) python train.py', 'process_crash'),
    # shell: bash (es)
    ('training', "train.sh: línea 17:  8812 Violación de segmento  (`core' generado) python train.py", 'segfault'),
    # shell: bash (es)
    ('training', 'train.sh: línea 17:  8812 Terminado (killed)      python train.py', 'process_killed'),
    # shell: bash (es)
    ('training', "train.sh: línea 17:  8812 Abortado                (`core' generado) python train.py", 'process_crash'),
    # shell: bash (zh_CN)
    ('training', 'train.sh: 行 17:  8812 段错误               (核心已转储) python train.py', 'segfault'),
    # shell: bash (zh_CN)
    ('training', 'train.sh: 行 17:  8812 已杀死               python train.py', 'process_killed'),
    # shell: bash (zh_CN)
    ('training', 'train.sh: 行 17:  8812 已放弃               (核心已转储) python train.py', 'process_crash'),
    # shell: bash (ja)
    ('training', 'train.sh: 行 17:  8812 セグメンテーション違反です (コアダンプ) python train.py', 'segfault'),
    # shell: bash (ja)
    ('training', 'train.sh: 行 17:  8812 強制終了   python train.py', 'process_killed'),
    # shell: bash (ru)
    ('training', 'train.sh: строка 17:  8812 Ошибка сегментирования (стек памяти сброшен на диск) python train.py', 'segfault'),
    # shell: bash (ru)
    ('training', 'train.sh: строка 17:  8812 Убито              python train.py', 'process_killed'),
    # shell: bash (ru)
    ('training', 'train.sh: строка 17:  8812 Аварийный останов (стек памяти сброшен на диск) python train.py', 'process_crash'),
    # shell: zsh jobs.c
    ('training', 'zsh: segmentation fault (core dumped)  python train.py', 'segfault'),
    # shell: zsh jobs.c
    ('training', 'zsh: segmentation fault  python train.py', 'segfault'),
    # shell: zsh jobs.c
    ('training', 'zsh: killed     python train.py', 'process_killed'),
    # shell: zsh jobs.c
    ('training', 'zsh: abort (core dumped)  python train.py', 'process_crash'),
    # shell: zsh jobs.c
    ('training', 'zsh: bus error  python train.py', 'process_crash'),
    # shell: fish proc.cpp
    ('training', "fish: Job 1, 'python train.py' terminated by signal SIGSEGV (Address boundary error)", 'segfault'),
    # shell: fish proc.cpp
    ('training', "fish: Job 1, 'python train.py' terminated by signal SIGKILL (Forced quit)", 'process_killed'),
    # shell: fish proc.cpp
    ('training', "fish: Job 1, 'python train.py' terminated by signal SIGABRT (Abort)", 'process_crash'),
    # shell: fish proc.cpp (3.x)
    ('training', 'fish: “python train.py” terminated by signal SIGSEGV (Address boundary error)', 'segfault'),
    # shell: busybox ash
    ('training', 'Segmentation fault', 'segfault'),
    # shell: bash (en)
    ('training', 'Illegal instruction (core dumped)', 'process_crash'),
    # shell: bash (en)
    ('training', 'Floating point exception (core dumped)', 'process_crash'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=killed, status=9/KILL', 'process_killed'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=killed, status=11/SEGV', 'segfault'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=dumped, status=6/ABRT', 'process_crash'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=dumped, status=11/SEGV', 'segfault'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=dumped, status=7/BUS', 'process_crash'),
    # systemd: src/core/unit.c
    ('system', "train.service: Failed with result 'signal'.", 'process_killed'),
    # systemd: src/core/unit.c
    ('system', "train.service: Failed with result 'oom-kill'.", 'oom_killer'),
    # systemd: src/core/unit.c
    ('system', 'train.service: A process of this unit has been killed by the OOM killer.', 'oom_killer'),
    # systemd: src/core/unit.c
    ('system', "train.service: Failed with result 'core-dump'.", 'process_crash'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=exited, status=1/FAILURE', 'process_exit_nonzero'),
    # systemd: src/core/service.c (RHEL7 219)
    ('system', 'train.service: main process exited, code=killed, status=9/KILL', 'process_killed'),
    # systemd: src/core/service.c (RHEL7 219)
    ('system', 'train.service: main process exited, code=dumped, status=11/SEGV', 'segfault'),
    # systemd-coredump: src/coredump/coredump.c
    ('system', 'Process 4123 (python) of user 1000 dumped core.', 'process_crash'),
    # systemd-oomd: src/oom/oomd.c
    ('system', 'systemd-oomd[812]: Killed /user.slice/user-1000.slice/session-3.scope due to memory pressure for /user.slice/user-1000.slice being 62.15% > 50.00% for > 20s with reclaim activity', 'oom_killer'),
    # containerd: kubelet
    ('training', 'Last State:     Terminated      Reason:       OOMKilled      Exit Code:    137', 'oom_killer'),
    # containerd: kubelet
    ('training', 'Reason: Error, Exit Code: 137', 'process_killed'),
    # containerd: k8s
    ('training', 'State: Terminated, Reason: Error, Exit Code: 139', 'segfault'),
    # watchdog: kernel/softlockup.c (2.6.18 RHEL5)
    ('kernel', 'BUG: soft lockup - CPU#1 stuck for 10s! [events/1:14]', 'kernel_lockup'),
    # watchdog: kernel/softlockup.c (2.6.16 SLES10)
    ('kernel', 'BUG: soft lockup detected on CPU#1!', 'kernel_lockup'),
    # watchdog: kernel/watchdog.c panic
    ('kernel', 'Kernel panic - not syncing: Watchdog detected hard LOCKUP on cpu 3', 'kernel_panic'),
    # watchdog: kernel/hung_task.c panic
    ('kernel', 'Kernel panic - not syncing: hung_task: blocked tasks', 'kernel_panic'),
    # watchdog: kernel/watchdog.c (4.x, RHEL wall)
    ('kernel', 'kernel:NMI watchdog: BUG: soft lockup - CPU#3 stuck for 22s! [python:4123]', 'kernel_lockup'),
    # rcu: kernel/rcutree.c (3.10 RHEL7)
    ('kernel', 'INFO: rcu_sched detected stalls on CPUs/tasks: { 3} (detected by 0, t=60002 jiffies, g=118462, c=118461, q=0)', 'kernel_lockup'),
    # rcu: kernel/rcu/tree_stall.h (4.18 RHEL8)
    ('kernel', 'rcu: INFO: rcu_sched self-detected stall on CPU', 'kernel_lockup'),
    # rcu: kernel/rcutree.c (3.x)
    ('kernel', 'INFO: rcu_preempt detected stalls on CPUs/tasks: { 0} (detected by 7, t=21002 jiffies, g=1210, c=1209, q=87)', 'kernel_lockup'),
    # oom: mm/oom_kill.c (2.6.18 RHEL5)
    ('kernel', 'Out of memory: Killed process 4123, UID 1000, (python).', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6.32 RHEL6)
    ('kernel', 'Out of memory: Kill process 4123 (python) score 951 or sacrifice child', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6.32)
    ('kernel', 'Killed process 4123, UID 1000, (python) total-vm:61234120kB, anon-rss:59912340kB, file-rss:64kB', 'oom_killer'),
    # oom: mm/oom_kill.c (4.18 RHEL8)
    ('kernel', 'Out of memory: Killed process 4123 (python) total-vm:61234120kB, anon-rss:59912340kB, file-rss:0kB, shmem-rss:0kB', 'oom_killer'),
    # oom: mm/memcontrol.c (4.x)
    ('kernel', 'Memory cgroup out of memory: Kill process 4123 (python) score 1000 or sacrifice child', 'oom_killer'),
    # oom: mm/oom_kill.c (5.x)
    ('kernel', 'oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-3f2a1b.scope,mems_allowed=0-1,oom_memcg=/kubepods.slice/kubepods-burstable.slice,task_memcg=/kubepods.slice/kubepods-burstable.slice/cri-containerd-3f2a1b.scope,task=python,pid=4123,uid=0', 'oom_killer'),
    # oom: mm/memcontrol.c (3.10 RHEL7)
    ('kernel', 'Task in /docker/3f2a1b4c5d6e killed as a result of limit of /docker/3f2a1b4c5d6e', 'oom_killer'),
    # blk: block/blk-core.c (3.10 RHEL7)
    ('kernel', 'blk_update_request: I/O error, dev sdc, sector 312312', 'storage_local_disk'),
    # blk: block/blk-core.c (2.6.32 RHEL6)
    ('kernel', 'end_request: I/O error, dev sdc, sector 312312', 'storage_local_disk'),
    # nvme: drivers/nvme/host/core.c (6.x)
    ('kernel', 'nvme0n1: Read(0x2) @ LBA 312312, 8 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (4.15 Ubuntu 18.04)
    ('kernel', 'nvme nvme0: I/O 781 QID 12 timeout, aborting', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_lib.c (2.6.32)
    ('kernel', 'sd 0:0:0:0: SCSI error: return code = 0x06000000', 'storage_local_disk'),
    # ide: drivers/ide/ide-iops.c (2.6)
    ('kernel', 'hdc: dma_timer_expiry: dma status == 0x61', 'storage_local_disk'),
    # ide: drivers/ide/ide-io.c (2.6)
    ('kernel', 'ide1: reset: master: error (0x0a?)', 'storage_local_disk'),
    # ext4: fs/ext4/super.c (3.10)
    ('kernel', 'EXT4-fs error (device sdb1): ext4_mb_generate_buddy:757: group 12, block bitmap and bg descriptor inconsistent: 32768 vs 32767 free clusters', 'storage_local_disk'),
    # edac: drivers/edac/i7core_edac.c (2.6.32 RHEL6)
    ('kernel', 'EDAC i7core: New Corrected error(s): dimm=0 (last=0 now=4)', 'hardware_mce'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (3.10 RHEL7)
    ('kernel', 'pcieport 0000:00:02.0: AER: Multiple Corrected error received: id=0010', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (4.15)
    ('kernel', 'pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, id=0010(Requester ID)', 'pcie_aer'),
    # shell: bash (fr)
    ('training', 'train.sh : ligne 17 :  8812 Abandon                 (core dumped)python train.py', 'process_crash'),
    # shell: bash (ja)
    ('training', 'train.sh: 行 17:  8812 中止 (コアダンプ) python train.py', 'process_crash'),
    # shell: bash (de, core)
    ('training', 'Speicherzugriffsfehler (Speicherabzug geschrieben)', 'segfault'),
    # shell: bash (ru)
    ('training', 'Ошибка сегментирования (стек памяти сброшен на диск)', 'segfault'),
    # shell: bash (es)
    ('training', "Violación de segmento (`core' generado)", 'segfault'),
    # shell: bash (zh_CN)
    ('training', '段错误 (核心已转储)', 'segfault'),
    # shell: bash (ja)
    ('training', 'セグメンテーション違反です (コアダンプ)', 'segfault'),
    # shell: bash (de)
    ('training', 'Getötet', 'process_killed'),
    # shell: bash (ru)
    ('training', 'Убито', 'process_killed'),
    # shell: bash (de)
    ('training', 'Abgebrochen (Speicherabzug geschrieben)', 'process_crash'),
    # shell: bash (es)
    ('training', "Abortado (`core' generado)", 'process_crash'),
    # shell: bash (zh_CN)
    ('training', '已放弃 (核心已转储)', 'process_crash'),
    # shell: fish
    ('training', "fish: Job 2, 'srun python train.py' terminated by signal SIGKILL (Forced quit)", 'process_killed'),
    # shell: zsh
    ('training', 'zsh: segmentation fault (core dumped)  srun --mpi=pmix python train.py', 'segfault'),
    # systemd: src/core/service.c
    ('system', 'Nov 03 10:11:12 gpu-a12 systemd[1]: train.service: Main process exited, code=killed, status=9/KILL', 'process_killed'),
    # systemd: src/core/service.c
    ('system', 'Nov 03 10:11:12 gpu-a12 systemd[1]: train.service: Main process exited, code=killed, status=11/SEGV', 'segfault'),
    # systemd: src/core/service.c
    ('system', 'Nov 03 10:11:12 gpu-a12 systemd[1]: train.service: Main process exited, code=killed, status=6/ABRT', 'process_crash'),
    # systemd: src/core/service.c
    ('system', 'Nov 03 10:11:12 gpu-a12 systemd[1]: train.service: Main process exited, code=dumped, status=6/ABRT', 'process_crash'),
    # systemd: src/core/unit.c
    ('system', "Nov 03 10:11:12 gpu-a12 systemd[1]: train.service: Failed with result 'oom-kill'.", 'oom_killer'),
    # containerd: k8s container status
    ('training', 'Reason: OOMKilled', 'oom_killer'),
    # containerd: docker inspect
    ('training', '"OOMKilled": true,', 'oom_killer'),
    # podman: podman
    ('system', 'Error: container 3f2a1b4c5d6e exited: OOMKilled', 'oom_killer'),
    # shell: dash jobs.c
    ('training', 'sh: 1: python: Segmentation fault', 'segfault'),
    # shell: dash jobs.c
    ('training', 'sh: 1: python: Killed', 'process_killed'),
    # shell: dash jobs.c
    ('training', 'sh: 1: python: Aborted', 'process_crash'),
    # shell: ksh93
    ('training', 'run.ksh[12]: 8812 Memory fault(coredump)', 'segfault'),
    # shell: ksh93
    ('training', 'run.ksh[12]: 8812 Killed', 'process_killed'),
    # shell: bash (en, exit)
    ('training', 'srun: error: gpu-a12: task 3: Killed', 'process_killed'),
    # shell: bash pipeline
    ('training', '/opt/run.sh: line 12: 8812 Segmentation fault      (core dumped) python train.py | tee log.txt', 'segfault'),
    # shell: bash (de)
    ('training', '/opt/run.sh: Zeile 12:  8812 Speicherzugriffsfehler  python train.py', 'segfault'),
    # shell: bash (it)
    ('training', '/opt/run.sh: riga 12:  8812 Errore di segmentazione (core dump creato) python train.py', 'segfault'),
    # shell: bash (pt_BR)
    ('training', '/opt/run.sh: linha 12:  8812 Falha de segmentação (imagem do núcleo gravada) python train.py', 'segfault'),
    # shell: bash (ko)
    ('training', '/opt/run.sh: 줄 12:  8812 세그멘테이션 오류 (코어 덤프됨) python train.py', 'segfault'),
    # shell: bash (zh_TW)
    ('training', '/opt/run.sh: 列 12:  8812 程式記憶體區段錯誤 (核心已傾印) python train.py', 'segfault'),
    # shell: bash (it)
    ('training', '/opt/run.sh: riga 12:  8812 Ucciso                  python train.py', 'process_killed'),
    # shell: bash (pt_BR)
    ('training', '/opt/run.sh: linha 12:  8812 Morto                   python train.py', 'process_killed'),
    # shell: bash (ko)
    ('training', '/opt/run.sh: 줄 12:  8812 죽었음                  python train.py', 'process_killed'),
    # shell: bash (pl)
    ('training', '/opt/run.sh: linia 12:  8812 Naruszenie ochrony pamięci (zrzut pamięci) python train.py', 'segfault'),
    # shell: bash (pl)
    ('training', '/opt/run.sh: linia 12:  8812 Unicestwiony            python train.py', 'process_killed'),
    # shell: bash (it)
    ('training', '/opt/run.sh: riga 12:  8812 Annullato               (core dump creato) python train.py', 'process_crash'),
    # container: docker cli
    ('training', 'container train-0 exited with code 139', 'segfault'),
    # container: docker-compose
    ('training', 'train_1 exited with code 137', 'process_killed'),
    # container: kubectl get pods
    ('training', 'train-worker-3   0/1     OOMKilled   2          5m', 'oom_killer'),
    # container: kubectl get pods
    ('training', 'train-worker-3   0/1     CrashLoopBackOff   5          12m', 'process_exit_nonzero'),
    # container: kubelet
    ('system', 'kubelet[2211]: I1103 10:11:12.345678    2211 kuberuntime_container.go:700] "Container exited" reason="OOMKilled"', 'oom_killer'),
    # container: cri-o
    ('system', 'crio[1822]: time="2025-11-03 10:11:12.345678" level=info msg="Container 3f2a1b was OOM killed"', 'oom_killer'),
    # container: podman
    ('system', 'podman[4123]: container died 3f2a1b (image=train:latest, name=train, exitCode=137, OOMKilled=true)', 'oom_killer'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=killed, status=15/TERM', 'process_killed'),
    # systemd: src/core/scope.c
    ('system', 'session-3.scope: A process of this unit has been killed by the OOM killer.', 'oom_killer'),
    # systemd: src/core/service.c
    ('system', 'train.service: Killing process 4123 (python) with signal SIGKILL.', 'process_killed'),
    # systemd: src/core/unit.c
    ('system', "train.service: Failed with result 'exit-code'.", 'process_exit_nonzero'),
    # systemd-coredump: src/coredump/coredump.c
    ('system', 'systemd-coredump[5512]: Process 4123 (python) of user 1000 dumped core.', 'process_crash'),
    # abrt: abrt-hook-ccpp (RHEL7)
    ('system', 'abrt-hook-ccpp: Process 4123 (python3.9) of user 1000 killed by SIGSEGV - dumping core', 'segfault'),
    # abrt: abrt-hook-ccpp (RHEL7)
    ('system', 'abrt-hook-ccpp: Process 4123 (python3.9) of user 1000 killed by SIGABRT - dumping core', 'process_crash'),
    # apport: apport (Ubuntu)
    ('system', 'apport[5512]: called for pid 4123, signal 11, core limit 0, dump mode 1', 'segfault'),
    # apport: apport (Ubuntu)
    ('system', 'apport[5512]: called for pid 4123, signal 6, core limit 0, dump mode 1', 'process_crash'),
    # oom: mm/oom_kill.c (2.6.9 RHEL4)
    ('kernel', 'oom-killer: gfp_mask=0xd0', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6.18 RHEL5)
    ('kernel', 'Out of Memory: Kill process 4123 (python) score 912 and children.', 'oom_killer'),
    # oom: mm/oom_kill.c (2.6.3x)
    ('kernel', 'Killed process 4123 (python) vsz:61234120kB, anon-rss:59912340kB, file-rss:0kB', 'oom_killer'),
    # xfs: fs/xfs/xfs_error.c (2.6.18)
    ('kernel', 'Filesystem "sdb1": XFS internal error xfs_trans_cancel at line 1163 of file fs/xfs/xfs_trans.c.  Caller 0xffffffff8835ab1c', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_fsops.c (2.6.18)
    ('kernel', 'xfs_force_shutdown(sdb1,0x8) called from line 1164 of file fs/xfs/xfs_trans.c.  Return address = 0xffffffff8835f1a2', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_fsops.c (2.6.18)
    ('kernel', 'Filesystem "sdb1": Corruption of in-memory data detected.  Shutting down filesystem: sdb1', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_rw.c (2.6.18)
    ('kernel', 'Filesystem "sdb1": I/O Error Detected.  Shutting down filesystem: sdb1', 'storage_local_disk'),
    # xfs: fs/xfs/xfs_log.c (2.6.3x)
    ('kernel', 'XFS (sdb1): xfs_log_force: error 5 returned.', 'storage_local_disk'),
    # ext3: fs/ext3/super.c (2.6)
    ('kernel', 'EXT3-fs error (device sda1): ext3_journal_start_sb: Detected aborted journal', 'storage_local_disk'),
    # ext3: fs/ext3/super.c (2.6)
    ('kernel', 'EXT3-fs error (device sdb1): ext3_get_inode_loc: unable to read inode block - inode=1179658, block=2359298', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c (2.6.18)
    ('kernel', 'Info fld=0x1d1c0c8, Current sda: sense key: Medium Error', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c (2.6.18)
    ('kernel', 'sda: Current: sense key=0x3', 'storage_local_disk'),
    # scsi: drivers/scsi/scsi_error.c (2.6.3x)
    ('kernel', 'sd 0:0:0:0: timing out command, waited 180s', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c (2.6.3x)
    ('kernel', 'sd 0:0:0:0: [sda] Unhandled sense code', 'storage_local_disk'),
    # scsi: drivers/scsi/sd.c (2.6.3x)
    ('kernel', 'sd 0:0:0:0: [sda] Unhandled error code', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (3.19-4.4)
    ('kernel', 'nvme 0000:01:00.0: Failed status: 3, reset controller', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (4.5-4.14)
    ('kernel', 'nvme nvme0: Failed status: 0xffffffff, reset controller', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (3.x)
    ('kernel', 'nvme 0000:01:00.0: Device not ready; aborting initialisation', 'storage_local_disk'),
    # nvme: drivers/nvme/host/pci.c (4.x)
    ('kernel', 'nvme nvme0: Cancelling I/O 412 QID 3', 'storage_local_disk'),
    # mce: arch/x86/kernel/cpu/mcheck/mce.c (2.6)
    ('kernel', 'Kernel panic - not syncing: Machine check', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mcheck/mce_64.c (2.6.18)
    ('kernel', 'CPU 1: Machine Check Exception:                4 Bank 4: b200000000070f0f', 'hardware_mce'),
    # mce: arch/x86/kernel/cpu/mcheck/mce.c (3.x)
    ('kernel', '[Hardware Error]: CPU 1: Machine Check Exception: 5 Bank 4: b200000000070f0f', 'hardware_mce'),
    # edac: drivers/edac/amd64_edac.c (k8, 2.6)
    ('kernel', 'EDAC k8 MC0: general bus error: participating processor(local node response), time-out(no timeout) memory transaction type(generic read), mem or i/o(mem access), cache level(generic)', 'hardware_mce'),
    # edac: drivers/edac/e752x_edac.c (2.6)
    ('kernel', 'EDAC e752x: CE page 0x7af12, offset 0x0, grain 128, syndrome 0x2f, row 2, channel 1, label "": e752x CE', 'hardware_mce'),
    # edac: drivers/edac/edac_mc.c (2.6)
    ('kernel', 'EDAC MC0: UE row 2, channel 0, labels ":": i5400 UE', 'hardware_mce'),
    # edac: drivers/edac/i5000_edac.c (2.6)
    ('kernel', 'EDAC i5000 MC0: FATAL ERRORS Found!!! 1st FATAL Err Reg= 0x4', 'hardware_mce'),
    # edac: drivers/edac/i5000_edac.c (2.6)
    ('kernel', 'EDAC i5000 MC0: NON-FATAL ERRORS Found!!! 1st NON-FATAL Err Reg= 0x800', 'hardware_mce'),
    # edac: drivers/edac/edac_mc.c (2.6)
    ('kernel', 'EDAC MC0: CE - no information available: i5000 CE', 'hardware_mce'),
    # edac: drivers/edac/sb_edac.c (3.x)
    ('kernel', 'EDAC sbridge MC1: CPU 12: Machine Check Event: 0 Bank 9: 8c000048000800c1', 'hardware_mce'),
    # edac: drivers/edac/sb_edac.c (3.x)
    ('kernel', 'EDAC MC1: 1 CE memory scrubbing error on CPU_SrcID#1_Ha#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x5c3f12 offset:0x0 grain:32 syndrome:0x0 - area:DRAM err_code:0008:00c1 socket:1 ha:0 channel_mask:2 rank:0)', 'hardware_mce'),
    # aer: drivers/pci/pcie/aer/aerdrv.c (3.x-4.x)
    ('kernel', 'aer 0000:00:1c.0:pcie02: AER: Corrected error received: id=00e0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv.c (4.x)
    ('kernel', 'aer 0000:00:1c.0:pcie002: AER: Multiple Corrected error received: id=00e0', 'pcie_aer'),
    # aer: drivers/pci/pcie/aer/aerdrv_errprint.c (2.6.2x)
    ('kernel', 'pcieport-driver 0000:00:1c.0: AER: Uncorrected (Non-Fatal) error received: id=0300', 'pcie_aer'),
    # nmi: arch/x86/kernel/nmi.c
    ('kernel', 'Uhhuh. NMI received for unknown reason 2d on CPU 0.', 'hardware_mce'),
    # nmi: arch/x86/kernel/nmi.c
    ('kernel', 'NMI: PCI system error (SERR) for reason a1 on CPU 0.', 'pcie_aer'),
    # nmi: arch/x86/kernel/nmi.c
    ('kernel', 'NMI: IOCK error (debug interrupt?) for reason 71 on CPU 0.', 'hardware_mce'),
    # nmi: arch/x86/kernel/traps.c (2.6)
    ('kernel', 'Uhhuh. NMI received for unknown reason 3d on CPU 0.', 'hardware_mce'),
]

# (log source, line): INFO/notice siblings from the same sources; no fault
BENIGN: list[tuple[str, str]] = [
    # hung_task: kernel/hung_task.c (6.x)
    ('kernel', '      Not tainted 5.15.0-91-generic #101-Ubuntu'),
    # oops: lib/list_debug.c
    ('kernel', 'WARNING: CPU: 3 PID: 1122 at lib/list_debug.c:53 __list_del_entry_valid+0x5c/0x90'),
    # oops: kernel/panic.c
    ('kernel', 'Modules linked in: nvidia_uvm(POE) nvidia_drm(POE) nvidia_modeset(POE) nvidia(POE)'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs (sda1): mounted filesystem with ordered data mode. Opts: (null)'),
    # ext4: fs/ext4/super.c
    ('kernel', 'EXT4-fs (nvme0n1p1): re-mounted. Opts: errors=remount-ro'),
    # xfs: fs/xfs/xfs_super.c
    ('kernel', 'XFS (sdb1): Mounting V5 Filesystem'),
    # xfs: fs/xfs/xfs_super.c
    ('kernel', 'XFS (sdb1): Ending clean mount'),
    # btrfs: fs/btrfs/super.c
    ('kernel', 'BTRFS info (device sda2): disk space caching is enabled'),
    # scsi: drivers/scsi/sd.c
    ('kernel', 'sd 2:0:0:0: [sdb] Attached SCSI disk'),
    # scsi: drivers/scsi/sd.c
    ('kernel', "sd 2:0:0:0: [sdb] Write cache: enabled, read cache: enabled, doesn't support DPO or FUA"),
    # ata: drivers/ata/libata-core.c
    ('kernel', 'ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)'),
    # ata: drivers/ata/libata-core.c
    ('kernel', 'ata1.00: configured for UDMA/133'),
    # nvme: drivers/nvme/host/pci.c
    ('kernel', 'nvme nvme0: 32/0/0 default/read/poll queues'),
    # edac: drivers/edac/edac_mc.c
    ('kernel', 'EDAC MC0: Giving out device to module skx_edac controller Skylake Socket#0 IMC#0: DEV 0000:3a:0a.0 (INTERRUPT)'),
    # edac: drivers/edac/sb_edac.c
    ('kernel', 'EDAC sbridge: Ver: 1.1.2'),
    # ghes: drivers/acpi/apei/ghes.c
    ('kernel', '[Hardware Error]: It has been corrected by h/w and requires no further action'),
    # aer: drivers/pci/pcie/aer.c
    ('kernel', 'pcieport 0000:00:03.0: AER: enabled with IRQ 32'),
    # aer: drivers/pci/pcie/aer.c
    ('kernel', 'acpi PNP0A08:00: _OSC: OS now controls [PCIeHotplug SHPCHotplug PME AER PCIeCapability LTR]'),
    # aer: drivers/pci/pcie/err.c
    ('kernel', 'pcieport 0000:00:03.0: AER: device recovery successful'),
    # shell: bash
    ('training', '[1]+  Done                    python train.py'),
    # shell: bash
    ('training', '[1]+  Stopped                 python train.py'),
    # systemd: src/core/service.c
    ('system', 'train.service: Succeeded.'),
    # systemd: src/core/service.c
    ('system', 'train.service: Deactivated successfully.'),
    # systemd: src/core/service.c
    ('system', 'train.service: Main process exited, code=exited, status=0/SUCCESS'),
    # edac: drivers/edac/i7core_edac.c
    ('kernel', 'EDAC i7core: Driver loaded, 2 memory controller(s) found.'),
    # edac: drivers/edac/amd64_edac.c
    ('kernel', 'EDAC amd64: F10h detected (node 0).'),
    # shell: bash (de)
    ('training', '[1]+  Fertig                  python train.py'),
    # shell: bash (fr)
    ('training', '[1]+  Fini                    python train.py'),
    # shell: bash (de)
    ('training', 'Das Training wurde abgebrochen, weil der Benutzer es so wollte.'),
    # ata: drivers/ata/libata-eh.c
    ('kernel', 'ata1: EH complete'),
    # mce: arch/x86/kernel/cpu/mcheck/mce.c (3.x)
    ('kernel', "[Hardware Error]: Run the above through 'mcelog --ascii'"),
]

# How syslog, journald, RFC5424, dmesg -T / -x and /dev/kmsg put a kernel line on the page
KERNEL_PREFIXES: list[str] = [
    "[ 1234.567890] ",
    "<3>[ 1234.567890] ",
    "<4>",
    "kernel: [ 1234.567890] ",
    " kernel:",
    "Nov  3 10:11:12 gpu-a12 kernel: [ 1234.567890] ",
    "Nov 03 10:11:12 gpu-a12 kernel: ",
    "Mon Nov  3 10:11:12 2025 kernel: ",
    "2025-11-03T10:11:12.123456+00:00 gpu-a12 kernel: ",
    "2025-11-03T10:11:12+0000 gpu-a12 kernel: ",
    "<6> 1 2020-11-20T18:14:19+01:00 gpu-a12 kernel - - - ",
    "[Mon Nov  3 10:11:12 2025] ",
    "kern  :err   : [Mon Nov  3 10:11:12 2025] ",
    "3,1234,5678901,-;",
]
KERNEL_FORMATS = [(line, category) for source, line, category in FORMATS if source == "kernel"]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize("prefix", KERNEL_PREFIXES)
def test_kernel_format_is_classified_behind_each_prefix(classifier: Classifier, prefix: str) -> None:
    """Every kernel format keeps its category behind every log prefix (no rule anchors too hard)."""
    wrong = []
    for line, category in KERNEL_FORMATS:
        found = classifier.classify(prefix + line, "kernel")
        if found is None or found.category != category:
            wrong.append((line, found and found.rule_id))
    assert not wrong, wrong


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize("line", [
    "INFO: RCU detected CPU 4 stall (t=4295238441/2500 jiffies)",
    "BUG: soft lockup detected on CPU#1!",
    "EDAC i7core: New Corrected error(s): dimm=1 (last=1 now=3)",
    "EDAC amd64: DRAM ECC error detected on the NB.",
])
def test_an_old_kernel_warning_takes_no_node(classifier: Classifier, line: str) -> None:
    """Old wordings of stalls and corrected memory errors keep the modern ones' action: none."""
    found = classifier.classify(line, "kernel")
    assert found is not None
    assert found.action == "none"


def test_no_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
