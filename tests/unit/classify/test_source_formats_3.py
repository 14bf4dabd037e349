"""Brief F3 (issue 15 point 6): knowledge-base coverage from the vendors' own format strings, round 3.

Each case instantiates a failure message as the software that prints it formats it (its source file and format
are named in the comment), for the components F1/F2 left: kernel storage (libata EH, the SCSI midlayer and sd,
md/RAID and mdadm --monitor, device mapper multipath and thin, NVMe over Fabrics host and target, btrfs), host
hardware (Intel DMAR / AMD-Vi / ARM SMMU IOMMU faults, APEI GHES/CPER severities, the EDAC drivers i10nm/skx,
amd64 and mce_amd, sb_edac, ghes_edac, igen6, thunderx, x86 NMI reasons, ipmitool SEL records), RDMA and Ethernet
below the job (mlx4, EFA, bnxt_re, mlx5e, ixgbe, i40e, ice, bnxt_en, ENA, the NETDEV WATCHDOG) and accelerator
drivers (amdgpu ring/SMU/PSP/RAS/page faults, Intel Gaudi habanalabs, NVIDIA NVRM bring-up). Benign look-alikes
are the INFO/notice siblings from the same sources (link up, EH complete, recovery done, start-up notices, x86
thermal throttling, corrected-and-no-action records, context lines of a report).
Hosts, ids, paths and numbers are made up. No line is a copy of a corpus line (checked below without printing any).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (log source, line, expected category); the comment names the emitter, its source file and format
FORMATS: list[tuple[str, str, str]] = [
    # ---- libata
    # drivers/ata/libata-eh.c: ata%u.%02u: exception Emask 0x%x SAct 0x%x SErr 0x%x action 0x%x
    ("kernel", "[ 5123.441201] ata4.00: exception Emask 0x0 SAct 0x80000 SErr 0x0 action 0x6 frozen", "storage_local_disk"),
    # drivers/ata/libata-eh.c: ata%u.%02u: failed command: %s
    ("kernel", "[ 5123.441230] ata4.00: failed command: WRITE FPDMA QUEUED", "storage_local_disk"),
    # drivers/ata/libata-eh.c: res %02x/%02x:... Emask 0x%x (%s)
    ("kernel", "[ 5123.441260] ata4.00: res 51/40:08:a0:5c:12/00:00:03:00:00/40 Emask 0x409 (media error) <F>", "storage_local_disk"),
    # drivers/ata/libata-eh.c: ata%u: hard resetting link
    ("kernel", "[ 5123.789001] ata4: hard resetting link", "storage_local_disk"),
    # drivers/ata/libata-core.c: ata%u: link is slow to respond, please be patient (ready=%d)
    ("kernel", "[ 5134.112340] ata4: link is slow to respond, please be patient (ready=0)", "storage_local_disk"),
    # drivers/ata/libata-core.c: ata%u: COMRESET failed (errno=%d)
    ("kernel", "[ 5139.200111] ata4: COMRESET failed (errno=-16)", "storage_local_disk"),
    # drivers/ata/libata-eh.c: ata%u: reset failed, giving up
    ("kernel", "[ 5171.220118] ata4: reset failed, giving up", "storage_local_disk"),
    # drivers/ata/libata-eh.c: ata%u: softreset failed (%s)
    ("kernel", "[ 5150.331901] ata2: softreset failed (device not ready)", "storage_local_disk"),
    # drivers/ata/libata-core.c: ata%u.%02u: failed to IDENTIFY (%s, err_mask=0x%x)
    ("kernel", "[ 5160.442120] ata2.00: failed to IDENTIFY (I/O error, err_mask=0x100)", "storage_local_disk"),
    # drivers/ata/libata-eh.c: ata%u.%02u: revalidation failed (errno=%d)
    ("kernel", "[ 5160.442190] ata2.00: revalidation failed (errno=-5)", "storage_local_disk"),
    # drivers/ata/libata-eh.c: ata%u.%02u: NCQ disabled due to excessive errors
    ("kernel", "[ 5188.004410] ata6.00: NCQ disabled due to excessive errors", "storage_local_disk"),
    # drivers/ata/libata-core.c: ata%u: limiting SATA link speed to %s
    ("kernel", "[ 5188.004460] ata6: limiting SATA link speed to 3.0 Gbps", "storage_local_disk"),
    # drivers/ata/libata-core.c: ata%u.%02u: disabled
    ("kernel", "[ 5190.000123] ata6.00: disabled", "storage_local_disk"),
    # ---- scsi
    # drivers/scsi/scsi_error.c: Device offlined - not ready after error recovery
    ("kernel", "[ 8801.120034] sd 3:0:0:0: Device offlined - not ready after error recovery", "storage_local_disk"),
    # drivers/scsi/scsi_lib.c: rejecting I/O to offline device
    ("kernel", "[ 8801.120101] sd 3:0:0:0: rejecting I/O to offline device", "storage_local_disk"),
    # drivers/scsi/scsi_lib.c: timing out command, waited %lus
    ("kernel", "[ 8790.550012] sd 5:0:1:0: timing out command, waited 180s", "storage_local_disk"),
    # drivers/scsi/sd.c: Medium access timeout failure. Offlining disk!
    ("kernel", "[ 8795.660010] sd 5:0:1:0: [sdf] Medium access timeout failure. Offlining disk!", "storage_local_disk"),
    # drivers/scsi/sd.c: Synchronize Cache(10) failed: Result: hostbyte=%s driverbyte=%s
    ("kernel", "[ 8796.001200] sd 5:0:1:0: [sdf] Synchronize Cache(10) failed: Result: hostbyte=DID_NO_CONNECT driverbyte=DRIVER_OK", "storage_local_disk"),
    # drivers/scsi/sd.c: Read Capacity(16) failed: Result: hostbyte=%s driverbyte=%s
    ("kernel", "[ 8796.001290] sd 5:0:1:0: [sdf] Read Capacity(16) failed: Result: hostbyte=DID_NO_CONNECT driverbyte=DRIVER_OK", "storage_local_disk"),
    # drivers/scsi/sd.c: tag#%d FAILED Result: hostbyte=%s driverbyte=%s cmd_age=%ds
    ("kernel", "[ 8797.133120] sd 5:0:1:0: [sdf] tag#211 FAILED Result: hostbyte=DID_TIME_OUT driverbyte=DRIVER_OK cmd_age=31s", "storage_local_disk"),
    # fs/buffer.c: Buffer I/O error on dev %pg, logical block %llu, async page read
    ("kernel", "[ 8797.140001] Buffer I/O error on dev sdf1, logical block 1048577, async page read", "storage_local_disk"),
    # fs/buffer.c: Buffer I/O error on dev %pg, logical block %llu, lost async page write
    ("kernel", "[ 8797.140022] Buffer I/O error on dev sdf1, logical block 2211, lost async page write", "storage_local_disk"),
    # block/blk-mq.c blk_print_req_error: %s error, dev %s, sector %llu op 0x%x:(%s)
    ("kernel", "[ 8797.140051] I/O error, dev sdf, sector 8390656 op 0x1:(WRITE) flags 0x800 phys_seg 2 prio class 0", "storage_local_disk"),
    # drivers/scsi/scsi_logging.c: Sense Key : %s [%s]
    ("kernel", "[ 8797.133150] sd 5:0:1:0: [sdf] tag#211 Sense Key : Hardware Error [current] ", "storage_local_disk"),
    # drivers/scsi/scsi_logging.c: Add. Sense: %s
    ("kernel", "[ 8797.133170] sd 5:0:1:0: [sdf] tag#211 Add. Sense: Unrecovered read error - auto reallocate failed", "storage_local_disk"),
    # ---- md
    # drivers/md/raid1.c: md/raid1:%s: Disk failure on %pg, disabling device.
    ("kernel", "[91002.330011] md/raid1:md127: Disk failure on nvme1n1p2, disabling device.", "storage_local_disk"),
    # drivers/md/raid1.c: md/raid1:%s: Operation continuing on %d devices.
    ("kernel", "[91002.330040] md/raid1:md127: Operation continuing on 1 devices.", "storage_local_disk"),
    # drivers/md/raid5.c: md/raid:%s: Disk failure on %pg, disabling device.
    ("kernel", "[91002.440101] md/raid:md2: Disk failure on sdd1, disabling device.", "storage_local_disk"),
    # drivers/md/raid5.c: md/raid:%s: Operation continuing on %d devices.
    ("kernel", "[91002.440130] md/raid:md2: Operation continuing on 5 devices.", "storage_local_disk"),
    # drivers/md/raid10.c: md/raid10:%s: Disk failure on %pg, disabling device.
    ("kernel", "[91002.550201] md/raid10:md3: Disk failure on sde, disabling device.", "storage_local_disk"),
    # drivers/md/raid10.c: md/raid10:%s: Operation continuing on %d devices.
    ("kernel", "[91002.550230] md/raid10:md3: Operation continuing on 3 devices.", "storage_local_disk"),
    # drivers/md/raid5.c: md/raid:%s: read error not correctable (sector %llu on %pg).
    ("kernel", "[91003.001120] md/raid:md2: read error not correctable (sector 77123584 on sdd1).", "storage_local_disk"),
    # drivers/md/raid5.c: md/raid:%s: Too many read errors, failing device %pg.
    ("kernel", "[91003.001190] md/raid:md2: Too many read errors, failing device sdd1.", "storage_local_disk"),
    # drivers/md/raid1.c: md/raid1:%s: %pg: unrecoverable I/O read error for block %llu
    ("kernel", "[91003.112200] md/raid1:md127: nvme0n1p2: unrecoverable I/O read error for block 40960", "storage_local_disk"),
    # drivers/md/raid5.c: md/raid:%s: not enough operational devices (%d/%d failed)
    ("kernel", "[   12.338812] md/raid:md2: not enough operational devices (2/6 failed)", "storage_local_disk"),
    # drivers/md/md.c: md: kicking non-fresh %pg from array!
    ("kernel", "[   11.902210] md: kicking non-fresh sdc1 from array!", "storage_local_disk"),
    # drivers/md/md.c: md: super_written gets error=%d
    ("kernel", "[91004.000100] md: super_written gets error=-5", "storage_local_disk"),
    # mdadm Monitor.c: Fail event detected on md device %s, component device %s
    ("system", "Mar  4 02:11:09 gpu-a17 mdadm[1822]: Fail event detected on md device /dev/md127, component device /dev/nvme1n1p2", "storage_local_disk"),
    # mdadm Monitor.c: DegradedArray event detected on md device %s
    ("system", "Mar  4 02:11:10 gpu-a17 mdadm[1822]: DegradedArray event detected on md device /dev/md127", "storage_local_disk"),
    # ---- dm-multipath
    # drivers/md/dm-mpath.c: Failing path %s.
    ("kernel", "[77120.300112] device-mapper: multipath: 253:3: Failing path 65:48.", "storage_local_disk"),
    # multipath-tools libmultipath/structs_vec.c: %s: remaining active paths: %d
    ("system", "Jun 11 08:00:12 stor-n2 multipathd[911]: mpathc: remaining active paths: 0", "storage_local_disk"),
    # multipath-tools multipathd/main.c: checker failed path %s in map %s
    ("system", "Jun 11 08:00:11 stor-n2 multipathd[911]: checker failed path 65:48 in map mpathc", "storage_local_disk"),
    # drivers/md/dm-mpath.c: queue_if_no_path timeout on %s, failing queued IO
    ("kernel", "[77180.300200] device-mapper: multipath: 253:3: queue_if_no_path timeout on mpathc, failing queued IO", "storage_local_disk"),
    # ---- dm
    # drivers/md/dm-thin.c: %s: switching pool to %s mode
    ("kernel", "[77200.100100] device-mapper: thin: 253:5: switching pool to read-only mode", "storage_local_disk"),
    # ---- nvme-fabrics
    # drivers/nvme/host/fabrics.c: Failed reconnect attempt %d
    ("kernel", "[12001.010101] nvme nvme2: Failed reconnect attempt 4", "storage_local_disk"),
    # drivers/nvme/host/core.c: keep-alive timed out? / failed nvme_keep_alive_end_io error=%d
    ("kernel", "[12000.001001] nvme nvme2: failed nvme_keep_alive_end_io error=10", "storage_local_disk"),
    # ---- nvme-rdma
    # drivers/nvme/host/rdma.c: %s for CQE 0x%p failed with status %s (%d)
    ("kernel", "[12000.002002] nvme nvme2: RECV for CQE 0x00000000f00dbeef failed with status WR flushed (5)", "storage_local_disk"),
    # drivers/nvme/host/rdma.c: rdma connection establishment failed (%d)
    ("kernel", "[12000.512003] nvme nvme2: rdma connection establishment failed (-104)", "storage_local_disk"),
    # drivers/nvme/host/rdma.c: Connect rejected: status %d (%s).
    ("kernel", "[12000.512050] nvme nvme2: Connect rejected: status 8 (invalid service ID).", "storage_local_disk"),
    # ---- nvme-tcp
    # drivers/nvme/host/tcp.c: failed to connect socket: %d
    ("kernel", "[12000.600101] nvme nvme3: failed to connect socket: -111", "storage_local_disk"),
    # drivers/nvme/host/tcp.c: queue %d: timeout cid %#x type %d opcode %#x (%s)
    ("kernel", "[12000.700201] nvme nvme3: queue 2: timeout cid 0x3017 type 4 opcode 0x2 (Read)", "storage_local_disk"),
    # drivers/nvme/host/tcp.c: failed to connect queue: %d ret=%d
    ("kernel", "[12000.800301] nvme nvme3: failed to connect queue: 0 ret=-18", "storage_local_disk"),
    # ---- nvme-fabrics
    # drivers/nvme/host/fabrics.c: Connect command failed, error wo/DNR bit: %d
    ("kernel", "[12000.800351] nvme nvme3: Connect command failed, error wo/DNR bit: 6", "storage_local_disk"),
    # ---- nvmet
    # drivers/nvme/target/core.c: ctrl %d keep-alive timer (%d seconds) expired!
    ("kernel", "[33001.100001] nvmet: ctrl 7 keep-alive timer (15 seconds) expired!", "storage_local_disk"),
    # drivers/nvme/target/core.c: ctrl %d fatal error occurred!
    ("kernel", "[33001.100050] nvmet: ctrl 7 fatal error occurred!", "storage_local_disk"),
    # ---- btrfs
    # fs/btrfs/volumes.c btrfs_dev_stat_print_on_error: bdev %s errs: wr %u, rd %u, flush %u, corrupt %u, gen %u
    ("kernel", "[60001.001001] BTRFS error (device nvme2n1): bdev /dev/nvme2n1 errs: wr 0, rd 3, flush 0, corrupt 0, gen 0", "storage_local_disk"),
    # fs/btrfs/inode.c: csum failed root %llu ino %llu off %llu csum %s expected csum %s mirror %d
    ("kernel", "[60001.002002] BTRFS warning (device nvme2n1): csum failed root 5 ino 2631 off 1310720 csum 0x8941f998 expected csum 0x1f3c2a44 mirror 1", "storage_local_disk"),
    # fs/btrfs/disk-io.c: parent transid verify failed on %llu wanted %llu found %llu
    ("kernel", "[60001.003003] BTRFS error (device sdb2): parent transid verify failed on 31129600 wanted 812 found 809", "storage_local_disk"),
    # fs/btrfs/messages.c __btrfs_handle_fs_error: error (device %s) in %s:%d: errno=%d %s
    ("kernel", "[60001.004004] BTRFS: error (device sdb2) in btrfs_commit_transaction:2466: errno=-5 IO failure (Error while writing out transaction)", "storage_local_disk"),
    # fs/btrfs/messages.c: forced readonly
    ("kernel", "[60001.004050] BTRFS info (device sdb2): forced readonly", "storage_local_disk"),
    # fs/btrfs/tree-checker.c: corrupt leaf: root=%llu block=%llu slot=%d, %pV
    ("kernel", "[60001.005005] BTRFS critical (device sdb2): corrupt leaf: root=2 block=30539776 slot=12, unexpected item end, have 16123 expect 16283", "storage_local_disk"),
    # fs/btrfs/disk-io.c: level verify failed on logical %llu mirror %u wanted %u found %u
    ("kernel", "[60001.006006] BTRFS error (device sdb2): level verify failed on logical 31129600 mirror 2 wanted 0 found 1", "storage_local_disk"),
    # fs/btrfs/scrub.c: unable to fixup (regular) error at logical %llu on dev %s
    ("kernel", "[60001.007007] BTRFS error (device sdb2): unable to fixup (regular) error at logical 1082130432 on dev /dev/sdb2", "storage_local_disk"),
    # ---- dmar
    # drivers/iommu/intel/dmar.c: DRHD: handling fault status reg %x
    ("kernel", "[ 4411.223301] DMAR: DRHD: handling fault status reg 3", "pcie_aer"),
    # drivers/iommu/intel/dmar.c: [DMA Read NO_PASID] Request device [%02x:%02x.%d] fault addr 0x%llx [fault reason 0x%02x] %s
    ("kernel", "[ 4411.223340] DMAR: [DMA Read NO_PASID] Request device [3b:00.0] fault addr 0xfff1c000 [fault reason 0x06] PTE Read access is not set", "pcie_aer"),
    # drivers/iommu/intel/dmar.c: [DMA Write] Request device [..] PASID %x fault addr
    ("kernel", "[ 4411.223390] DMAR: [DMA Write PASID 0x2] Request device [86:00.0] fault addr 0x7f3a0000 [fault reason 0x05] PTE Write access is not set", "pcie_aer"),
    # drivers/iommu/intel/dmar.c (3.x): [DMA %s] Request device [%02x:%02x.%d] fault addr %llx
    ("kernel", "[ 4411.223420] DMAR: [DMA Write] Request device [00:02.0] fault addr 6df084000", "pcie_aer"),
    # drivers/iommu/intel/dmar.c qi_check_fault: VT-d detected Invalidation Time-out Error: SID %llx
    ("kernel", "[ 4412.100100] DMAR: VT-d detected Invalidation Time-out Error: SID ffff", "pcie_aer"),
    # ---- amd-vi
    # drivers/iommu/amd/iommu.c: Event logged [IO_PAGE_FAULT domain=0x%04x address=0x%llx flags=0x%04x]
    ("kernel", "[ 5521.104411] nvidia 0000:c1:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0027 address=0x7f2c0000 flags=0x0020]", "pcie_aer"),
    # drivers/iommu/amd/iommu.c (4.x): AMD-Vi: Event logged [IO_PAGE_FAULT device=%02x:%02x.%x ...]
    ("kernel", "[ 5521.104499] AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=0x000e address=0x00000000fd600000 flags=0x0070]", "pcie_aer"),
    # drivers/iommu/amd/iommu.c: Event logged [INVALID_DEVICE_REQUEST ...]
    ("kernel", "[ 5521.104520] iommu ivhd1: AMD-Vi: Event logged [INVALID_DEVICE_REQUEST device=0000:41:00.0 pasid=0x00000 address=0xfffffffdf8000000 flags=0x0a00]", "pcie_aer"),
    # drivers/iommu/amd/iommu.c wait_on_sem: Completion-Wait loop timed out
    ("kernel", "[ 5522.000010] AMD-Vi: Completion-Wait loop timed out", "pcie_aer"),
    # ---- arm-smmu
    # drivers/iommu/arm/arm-smmu/arm-smmu.c: Unhandled context fault: fsr=0x%x, iova=0x%08lx, fsynr=0x%x, cbfrsynra=0x%x, cb=%d
    ("kernel", "[ 6001.200300] arm-smmu 30000000.iommu: Unhandled context fault: fsr=0x402, iova=0x8a4f0000, fsynr=0x30011, cbfrsynra=0x800, cb=3", "pcie_aer"),
    # ---- arm-smmu-v3
    # drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c: event 0x%02x received:
    ("kernel", "[ 6001.300100] arm-smmu-v3 arm-smmu-v3.3.auto: event 0x10 received:", "pcie_aer"),
    # ---- ghes
    # drivers/acpi/apei/ghes.c: {%u}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: %d
    ("kernel", "[ 9001.100100] {3}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 1", "hardware_mce"),
    # ---- cper
    # drivers/firmware/efi/cper.c: event severity: fatal
    ("kernel", "[ 9001.100120] {3}[Hardware Error]: event severity: fatal", "hardware_mce"),
    # drivers/firmware/efi/cper.c: event severity: recoverable
    ("kernel", "[ 9001.100140] {4}[Hardware Error]: event severity: recoverable", "hardware_mce"),
    # drivers/firmware/efi/cper.c: event severity: corrected
    ("kernel", "[ 9001.100160] {5}[Hardware Error]: event severity: corrected", "hardware_mce"),
    # drivers/firmware/efi/cper.c:  Error %d, type: %s
    ("kernel", "[ 9001.100180] {3}[Hardware Error]:  Error 0, type: fatal", "hardware_mce"),
    # drivers/firmware/efi/cper.c:  Error %d, type: recoverable
    ("kernel", "[ 9001.100190] {4}[Hardware Error]:  Error 1, type: recoverable", "hardware_mce"),
    # drivers/firmware/efi/cper.c:  Error %d, type: corrected
    ("kernel", "[ 9001.100195] {5}[Hardware Error]:  Error 0, type: corrected", "hardware_mce"),
    # ---- ghes
    # drivers/acpi/apei/ghes.c __ghes_panic: Fatal hardware error!
    ("kernel", "[ 9001.100300] Kernel panic - not syncing: Fatal hardware error!", "kernel_panic"),
    # ---- cper
    # drivers/firmware/efi/cper-arm.c: %sError %d, type: %s / ARM processor error
    ("kernel", "[ 9002.000100] {6}[Hardware Error]:   section_type: ARM processor error", "hardware_mce"),
    # ---- edac-i10nm
    # drivers/edac/skx_common.c + edac_mc.c: %d CE %s on %s (%s%s - %s)
    ("kernel", "[12011.004400] EDAC MC2: 1 CE memory read error on CPU_SrcID#1_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x1f2a31 offset:0x140 grain:32 syndrome:0x0 - err_code:0x0000:0x009f socket:1 imc:0 rank:0 bg:1 ba:2 row:0x1c2f col:0x2a0)", "hardware_mce"),
    # drivers/edac/edac_mc.c: %d UE %s on %s
    ("kernel", "[12011.004500] EDAC MC2: 1 UE memory read error on CPU_SrcID#1_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x1f2a31 offset:0x140 grain:32 - err_code:0x0000:0x009f socket:1 imc:0 rank:0 bg:1 ba:2 row:0x1c2f col:0x2a0)", "hardware_mce"),
    # ---- edac-amd64
    # drivers/edac/amd64_edac.c: %d CE on mc#%dcsrow#%dchannel#%d
    ("kernel", "[13001.220011] EDAC MC0: 1 CE on mc#0csrow#3channel#0 (csrow:3 channel:0 page:0x7a21b offset:0x300 grain:64 syndrome:0x2e)", "hardware_mce"),
    # drivers/edac/amd64_edac.c: %d UE on mc#%dcsrow#%dchannel#%d
    ("kernel", "[13001.220099] EDAC MC0: 1 UE on mc#0csrow#3channel#0 (csrow:3 channel:0 page:0x7a21b offset:0x300 grain:64)", "hardware_mce"),
    # ---- edac-mce_amd
    # drivers/edac/mce_amd.c: CPU:%d (%x:%x:%x) MC%d_STATUS[%s|%s|...]: 0x%016llx
    ("kernel", "[13001.219900] mce: [Hardware Error]: CPU:12 (19:1:1) MC17_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0xdc2040000000011b", "hardware_mce"),
    # drivers/edac/mce_amd.c: MC%d_STATUS[..|UE|..]
    ("kernel", "[13001.219950] mce: [Hardware Error]: CPU:12 (19:1:1) MC17_STATUS[-|UE|MiscV|AddrV|PCC|-|SyndV|UECC|-|Poison|-]: 0xbe00000000800135", "hardware_mce"),
    # ---- edac-sb
    # drivers/edac/sb_edac.c: HANDLING MCE MEMORY ERROR
    ("kernel", "[14001.110011] EDAC sbridge MC0: HANDLING MCE MEMORY ERROR", "hardware_mce"),
    # drivers/edac/sb_edac.c: CPU %d: Machine Check Event: %d Bank %d: %016Lx
    ("kernel", "[14001.110033] EDAC sbridge MC0: CPU 8: Machine Check Event: 0 Bank 7: 8c00004000010090", "hardware_mce"),
    # ---- edac-ghes
    # drivers/edac/ghes_edac.c: %d CE %s on unknown memory (...)
    ("kernel", "[15001.001101] EDAC MC0: 1 CE Single-bit ECC on unknown memory (node:0 card:0 module:0 rank:1 bank_group:2 bank_address:1 row:9822 column:816 page:0x1c41c9 offset:0x6c0 grain:1 syndrome:0x0 - APEI location: node:0 card:0 module:0 rank:1 bank_group:2 bank_address:1 row:9822 column:816)", "hardware_mce"),
    # drivers/edac/ghes_edac.c: %d UE %s on unknown memory
    ("kernel", "[15001.001301] EDAC MC0: 1 UE Multi-bit ECC on unknown memory (node:0 card:0 module:0 rank:1 page:0x1c41c9 offset:0x6c0 grain:1 - APEI location: node:0 card:0 module:0 rank:1)", "hardware_mce"),
    # ---- edac-igen6
    # drivers/edac/igen6_edac.c: %d CE %s on %s
    ("kernel", "[16001.010101] EDAC MC0: 1 CE memory read error on DIMM0 (channel:0 slot:0 page:0x5f3a offset:0x780 grain:64 syndrome:0x9f - 0x0)", "hardware_mce"),
    # ---- nmi
    # arch/x86/kernel/nmi.c: Uhhuh. NMI received for unknown reason %02x on CPU %d.
    ("kernel", "[21001.000001] Uhhuh. NMI received for unknown reason 3d on CPU 12.", "hardware_mce"),
    # arch/x86/kernel/nmi.c: Dazed and confused, but trying to continue
    # arch/x86/kernel/nmi.c: NMI: PCI system error (SERR) for reason %02x on CPU %d.
    ("kernel", "[21001.000003] NMI: PCI system error (SERR) for reason a1 on CPU 0.", "pcie_aer"),
    # arch/x86/kernel/nmi.c: You have some hardware problem, likely on the PCI bus.
    ("kernel", "[21001.000004] You have some hardware problem, likely on the PCI bus.", "pcie_aer"),
    # arch/x86/kernel/nmi.c: NMI: IOCK error (debug interrupt?) for reason %02x on CPU %d.
    ("kernel", "[21001.000005] NMI: IOCK error (debug interrupt?) for reason 71 on CPU 0.", "hardware_mce"),
    # arch/x86/kernel/nmi.c: Kernel panic - not syncing: NMI: Not continuing
    ("kernel", "[21001.000006] Kernel panic - not syncing: NMI: Not continuing", "hardware_mce"),
    # ---- ipmitool
    # ipmitool lib/ipmi_sel.c: %4x | %s | %s | %s #0x%02x | %s | Asserted
    ("system", "  1a2 | 05/03/2026 | 10:11:12 | Memory #0x02 | Uncorrectable ECC (@DIMM B3(CPU1)) | Asserted", "hardware_mce"),
    # ipmitool lib/ipmi_sel.c: Memory | Correctable ECC | Asserted
    ("system", "  1a3 | 05/03/2026 | 10:11:13 | Memory #0x02 | Correctable ECC (@DIMM B3(CPU1)) | Asserted", "hardware_mce"),
    # ipmitool lib/ipmi_sel.c: Processor | IERR | Asserted
    ("system", "  1a4 | 05/03/2026 | 10:11:14 | Processor #0x01 | IERR | Asserted", "hardware_mce"),
    # ipmitool lib/ipmi_sel.c: Critical Interrupt | PCI SERR | Asserted
    ("system", "  1a5 | 05/03/2026 | 10:11:15 | Critical Interrupt #0x12 | PCI SERR | Asserted", "pcie_aer"),
    # ipmitool lib/ipmi_sel.c: Critical Interrupt | Bus Uncorrectable error | Asserted
    ("system", "  1a6 | 05/03/2026 | 10:11:16 | Critical Interrupt #0x13 | Bus Uncorrectable error | Asserted", "pcie_aer"),
    # ipmitool lib/ipmi_sel.c: Processor | Machine Check Exception
    ("system", "  1a7 | 05/03/2026 | 10:11:17 | Processor #0x02 | Machine Check Exception | Asserted", "hardware_mce"),
    # ---- mlx4
    # drivers/net/ethernet/mellanox/mlx4/catas.c: Internal error detected:
    ("kernel", "[30001.000100] mlx4_core 0000:03:00.0: Internal error detected:", "ib_hca_fault"),
    # drivers/net/ethernet/mellanox/mlx4/cmd.c: command 0x%x timed out (go bit not cleared)
    ("kernel", "[30001.000200] mlx4_core 0000:03:00.0: command 0x23 timed out (go bit not cleared)", "ib_hca_fault"),
    # drivers/net/ethernet/mellanox/mlx4/catas.c: device is going to be reset
    ("kernel", "[30001.000150] mlx4_core 0000:03:00.0: device is going to be reset", "ib_hca_fault"),
    # ---- efa
    # drivers/infiniband/hw/efa/efa_com.c: Wait for completion (polling) timeout for admin CQ
    ("kernel", "[30002.000100] efa 0000:00:1d.0: Failed to process command ALLOC_PD (opcode 14) comp_status 0 err -62", "ib_hca_fault"),
    # ---- bnxt_re
    # drivers/infiniband/hw/bnxt_re/qplib_rcfw.c: Firmware stall Detected
    ("kernel", "[30003.000100] bnxt_re 0000:3b:00.1: QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0x1c]=0x90 waited (40120 > 40000) msec active 1", "ib_hca_fault"),
    # ---- mlx5e
    # drivers/net/ethernet/mellanox/mlx5/core/en_main.c: TX timeout on queue: %d, SQ: 0x%x, CQ: 0x%x, SQ Cons: 0x%x SQ Prod: 0x%x, usecs since last trans: %u
    ("kernel", "[40001.000100] mlx5_core 0000:5e:00.0 enp94s0f0np0: TX timeout on queue: 11, SQ: 0x1a3, CQ: 0x52f, SQ Cons: 0x0 SQ Prod: 0x3, usecs since last trans: 18736000", "net_link_down"),
    # drivers/net/ethernet/mellanox/mlx5/core/en/port.c: Link down
    ("kernel", "[40001.000200] mlx5_core 0000:5e:00.0 enp94s0f0np0: Link down", "net_link_down"),
    # ---- ixgbe
    # drivers/net/ethernet/intel/ixgbe/ixgbe_main.c: NIC Link is Down
    ("kernel", "[40002.000100] ixgbe 0000:18:00.1 eno2: NIC Link is Down", "net_link_down"),
    # drivers/net/ethernet/intel/ixgbe/ixgbe_main.c: Detected Tx Unit Hang
    ("kernel", "[40002.000200] ixgbe 0000:18:00.1 eno2: Detected Tx Unit Hang", "net_link_down"),
    # drivers/net/ethernet/intel/ixgbe/ixgbe_main.c: initiating reset due to tx timeout
    ("kernel", "[40002.000300] ixgbe 0000:18:00.1 eno2: initiating reset due to tx timeout", "net_link_down"),
    # ---- i40e
    # drivers/net/ethernet/intel/i40e/i40e_main.c: tx_timeout: VSI_seid: %d, Q %d, NTC: 0x%x, HWB: 0x%x, NTU: 0x%x, TAIL: 0x%x, INT: 0x%x
    ("kernel", "[40003.000100] i40e 0000:3b:00.0 ens2f0: tx_timeout: VSI_seid: 390, Q 6, NTC: 0x1a2, HWB: 0x1a2, NTU: 0x1a5, TAIL: 0x1a5, INT: 0x1", "net_link_down"),
    # drivers/net/ethernet/intel/i40e/i40e_main.c: TX driver issue detected, PF reset issued
    ("kernel", "[40003.000200] i40e 0000:3b:00.0: TX driver issue detected, PF reset issued", "net_link_down"),
    # ---- ice
    # drivers/net/ethernet/intel/ice/ice_main.c: tx_timeout: VSI_num: %d, Q %u, NTC: 0x%x, HW_HEAD: 0x%x, NTU: 0x%x, INT: 0x%x
    ("kernel", "[40004.000100] ice 0000:17:00.0 ens1f0: tx_timeout: VSI_num: 6, Q 7, NTC: 0x44, HW_HEAD: 0x44, NTU: 0x47, INT: 0x0", "net_link_down"),
    # drivers/net/ethernet/intel/ice/ice_main.c: NIC Link is Down
    ("kernel", "[40004.000200] ice 0000:17:00.0 ens1f0: NIC Link is Down", "net_link_down"),
    # ---- bnxt_en
    # drivers/net/ethernet/broadcom/bnxt/bnxt.c: TX timeout detected, starting reset task!
    ("kernel", "[40005.000100] bnxt_en 0000:3b:00.0 ens3f0np0: TX timeout detected, starting reset task!", "net_link_down"),
    # drivers/net/ethernet/broadcom/bnxt/bnxt.c: NIC Link is Down
    ("kernel", "[40005.000200] bnxt_en 0000:3b:00.0 ens3f0np0: NIC Link is Down", "net_link_down"),
    # ---- ena
    # drivers/net/ethernet/amazon/ena/ena_netdev.c: Keep alive watchdog timeout.
    ("kernel", "[40006.000200] ena 0000:00:06.0: Keep alive watchdog timeout.", "net_link_down"),
    # drivers/net/ethernet/amazon/ena/ena_netdev.c: The number of lost tx completions is above the threshold (%d > %d). Reset the device
    ("kernel", "[40006.000300] ena 0000:00:06.0 eth1: The number of lost tx completions is above the threshold (129 > 128). Reset the device", "net_link_down"),
    # ---- netdev
    # net/sched/sch_generic.c: NETDEV WATCHDOG: %s (%s): transmit queue %u timed out
    ("kernel", "[40007.000100] NETDEV WATCHDOG: ens3f0np0 (bnxt_en): transmit queue 5 timed out", "net_link_down"),
    # net/sched/sch_generic.c (6.x): NETDEV WATCHDOG: CPU: %d: transmit queue %u timed out %u ms
    ("kernel", "[40007.000200] NETDEV WATCHDOG: CPU: 17: transmit queue 3 timed out 5316 ms", "net_link_down"),
    # ---- amdgpu
    # drivers/gpu/drm/amd/amdgpu/amdgpu_job.c: ring %s timeout, signaled seq=%u, emitted seq=%u
    ("kernel", "[50001.000100] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=88123, emitted seq=88125", "gpu_xid_other"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_device.c: GPU reset begin!
    ("kernel", "[50001.000200] amdgpu 0000:c1:00.0: amdgpu: GPU reset begin!", "gpu_reset_required"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_device.c: GPU reset(%d) failed
    ("kernel", "[50001.000300] amdgpu 0000:c1:00.0: amdgpu: GPU reset(3) failed", "gpu_reset_required"),
    # drivers/gpu/drm/amd/amdgpu/gmc_v9_0.c: [%s] %s page fault (src_id:%u ring:%u vmid:%u pasid:%u)
    ("kernel", "[50002.000100] amdgpu 0000:c1:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:8 pasid:32771)", "gpu_graphics_engine_fault"),
    # drivers/gpu/drm/amd/amdgpu/gmc_v9_0.c: [%s] %s page fault (src_id ...) for process
    ("kernel", "[50002.000120] amdgpu 0000:c1:00.0: amdgpu: [mmhub0] no-retry page fault (src_id:0 ring:0 vmid:2 pasid:32770, for process python pid 4411 thread python pid 4413)", "gpu_graphics_engine_fault"),
    # drivers/gpu/drm/amd/amdgpu/gfxhub_v1_0.c: VM_L2_PROTECTION_FAULT_STATUS:0x%08X
    # drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c: SMU: I'm not done with your previous command: SMN_C2PMSG_66:0x%08X SMN_C2PMSG_82:0x%08X
    ("kernel", "[50003.000100] amdgpu 0000:c1:00.0: amdgpu: SMU: I'm not done with your previous command: SMN_C2PMSG_66:0x0000001E SMN_C2PMSG_82:0x00000000", "gpu_driver_error"),
    # drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c: SMU: response:0x%08X for index:%d param:0x%08X message:%s?
    ("kernel", "[50003.000200] amdgpu 0000:c1:00.0: amdgpu: SMU: response:0xFFFFFFFF for index:18 param:0x00000005 message:GetEnabledSmuFeaturesHigh?", "gpu_driver_error"),
    # drivers/gpu/drm/amd/pm/swsmu/amdgpu_smu.c: Failed to enable requested dpm features!
    ("kernel", "[50003.000300] amdgpu 0000:c1:00.0: amdgpu: Failed to enable requested dpm features!", "gpu_driver_init"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_psp.c: PSP load sos failed!
    ("kernel", "[50004.000100] [drm:psp_hw_start [amdgpu]] *ERROR* PSP load sos failed!", "gpu_driver_init"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_device.c: amdgpu_device_ip_init failed
    ("kernel", "[50004.000300] amdgpu 0000:c1:00.0: amdgpu: amdgpu_device_ip_init failed", "gpu_driver_init"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_device.c: Fatal error during GPU init
    ("kernel", "[50004.000400] amdgpu 0000:c1:00.0: amdgpu: Fatal error during GPU init", "gpu_driver_init"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_ras.c: %ld uncorrectable hardware errors detected in %s block
    ("kernel", "[50005.000100] amdgpu 0000:c1:00.0: amdgpu: 2 uncorrectable hardware errors detected in umc block", "gpu_memory_ecc"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_ras.c: uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!
    ("kernel", "[50005.000200] amdgpu 0000:c1:00.0: amdgpu: uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!", "gpu_xid_other"),
    # ---- habanalabs
    # drivers/accel/habanalabs/common/device.c: Going to reset device
    ("kernel", "[51001.000100] habanalabs hl3: Going to reset device", "gpu_reset_required"),
    # drivers/accel/habanalabs/common/firmware.c: Device CPU packet timeout (0x%x)
    ("kernel", "[51001.000200] habanalabs hl3: Device CPU packet timeout (0x1000000)", "gpu_driver_error"),
    # ---- nvrm
    # kernel-open/nvidia/nv.c: NVRM: GPU %04x:%02x:%02x.%x: RmInitAdapter failed! (0x%x:0x%x:%d)
    ("kernel", "[52001.000100] NVRM: GPU 0000:41:00.0: RmInitAdapter failed! (0x62:0x65:2032)", "gpu_driver_init"),
    # kernel-open/nvidia/nv.c: NVRM: GPU %04x:%02x:%02x.%x: rm_init_adapter failed, device minor number %d
    ("kernel", "[52001.000110] NVRM: GPU 0000:41:00.0: rm_init_adapter failed, device minor number 3", "gpu_driver_init"),
    # kernel-open/nvidia/nv-pci.c: NVRM: The NVIDIA probe routine failed for %d device(s).
    ("kernel", "[52001.000120] NVRM: The NVIDIA probe routine failed for 1 device(s).", "gpu_driver_init"),
    # kernel-open/nvidia/nv.c: NVRM: None of the NVIDIA devices were initialized.
    ("kernel", "[52001.000130] NVRM: None of the NVIDIA devices were initialized.", "gpu_driver_init"),
    # src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c: unexpected WPR2 already up, cannot proceed with booting GSP
    ("kernel", "[52001.000140] NVRM: kgspInitRm_IMPL: unexpected WPR2 already up, cannot proceed with booting GSP", "gpu_driver_init"),
    # src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c: RmInitAdapter: Cannot initialize GSP firmware RM
    ("kernel", "[52001.000150] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM", "gpu_driver_init"),
    # src/nvidia/inc/kernel/core/prelude.h NV_ASSERT: nvAssertFailedNoLog: Assertion failed: %s @ %s:%d
    ("kernel", "[52001.000160] NVRM: nvAssertFailedNoLog: Assertion failed: pKernelBus->pReadToFlush != NULL @ kern_bus_gm107.c:1123", "gpu_driver_error"),
    # src/nvidia/inc/kernel/core/prelude.h NV_CHECK_OK: nvCheckOkFailedNoLog: Check failed: %s [%s] (0x%08x) returned from %s @ %s:%d
    # (K25: kgspWaitForRmInitDone is a GSP-RM boot step of kgspInitRm, so the failed check is the GPU bring-up
    # failing: gpu_driver_init by LABELS.md's GSP-RM boot convention, as the kgspPrepareForBootstrap form)
    ("kernel", "[52001.000170] NVRM: nvCheckOkFailedNoLog: Check failed: Call timed out [NV_ERR_TIMEOUT] (0x00000065) returned from kgspWaitForRmInitDone(pGpu, pKernelGsp) @ kernel_gsp.c:2412", "gpu_driver_init"),
    # kernel-open/nvidia/nv-pci.c: NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:
    ("kernel", "[52001.000180] NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:", "gpu_driver_init"),
    # kernel-open/nvidia/nv.c: NVRM: GPU %s: GPU does not have the necessary power cables connected.
    ("kernel", "[52001.000190] NVRM: GPU 0000:41:00.0: GPU does not have the necessary power cables connected.", "gpu_driver_init"),
    # kernel-open/nvidia/nv.c: NVRM: GPU %s: Failed to copy vbios to system memory.
    ("kernel", "[52001.000210] NVRM: GPU 0000:41:00.0: Failed to copy vbios to system memory.", "gpu_driver_init"),
    # ---- btrfs
    # fs/btrfs/transaction.c btrfs_abort_transaction: Transaction aborted (error %d)
    ("kernel", "[60001.008008] BTRFS: Transaction aborted (error -5)", "storage_local_disk"),
    # ---- dmar
    # drivers/iommu/intel/dmar.c qi_check_fault: VT-d detected Invalidation Completion Error: SID %llx
    ("kernel", "[ 4412.100200] DMAR: VT-d detected Invalidation Completion Error: SID 3b00", "pcie_aer"),
    # drivers/iommu/intel/dmar.c qi_check_fault: VT-d detected Invalidation Queue Error: Reason %llx
    ("kernel", "[ 4412.100300] DMAR: VT-d detected Invalidation Queue Error: Reason 1", "pcie_aer"),
    # ---- amd-vi
    # drivers/iommu/amd/iommu.c wait_on_sem (6.x): IOMMU %04x:%02x:%02x.%01x: Completion-Wait loop timed out
    ("kernel", "[ 5522.000020] IOMMU 0000:40:00.2: Completion-Wait loop timed out", "pcie_aer"),
    # ---- arm-smmu
    # drivers/iommu/arm/arm-smmu/arm-smmu.c: Unexpected global fault, this could be serious
    ("kernel", "[ 6001.200400] arm-smmu 30000000.iommu: Unexpected global fault, this could be serious", "pcie_aer"),
    # ---- amdgpu
    # drivers/gpu/drm/amd/amdgpu/amdgpu_ras.c: %ld uncorrectable hardware errors detected in %s block (non-umc)
    ("kernel", "[50005.000500] amdgpu 0000:c1:00.0: amdgpu: 1 uncorrectable hardware errors detected in gfx block", "gpu_xid_other"),
    # drivers/gpu/drm/amd/amdgpu/amdgpu_device.c: hw_init of IP block <%s> failed %d
    ("kernel", "[50004.000500] amdgpu 0000:c1:00.0: amdgpu: hw_init of IP block <smu> failed -62", "gpu_driver_init"),
    # drivers/gpu/drm/amd/pm/swsmu/smu_cmn.c: SMU is in hanged state, failed to send smu message!
    ("kernel", "[50003.000400] amdgpu 0000:c1:00.0: amdgpu: SMU is in hanged state, failed to send smu message!", "gpu_driver_error"),
    # ---- habanalabs
    # drivers/misc/habanalabs/common/device.c (5.x): Going to RESET device!
    ("kernel", "[51001.000150] habanalabs hl2: Going to RESET device!", "gpu_reset_required"),
    # drivers/accel/habanalabs/common/firmware.c (6.x): Device CPU packet timeout (status = 0x%x)
    ("kernel", "[51001.000250] habanalabs hl2: Device CPU packet timeout (status = 0x2000000)", "gpu_driver_error"),
    # ---- nvme-rdma
    # drivers/nvme/host/rdma.c: starting error recovery
    ("kernel", "[12000.001500] nvme nvme2: starting error recovery", "storage_local_disk"),
    # ---- md
    # mdadm Monitor.c: DeviceDisappeared event detected on md device %s
    ("system", "Mar  4 02:12:10 gpu-a17 mdadm[1822]: DeviceDisappeared event detected on md device /dev/md126", "storage_local_disk"),
    # ---- dm-multipath
    # multipath-tools libmultipath/structs_vec.c: %s: mark as failed
    ("system", "Jun 11 08:00:11 stor-n2 multipathd[911]: sdg: mark as failed", "storage_local_disk"),
    # ---- libata
    # drivers/ata/libata-core.c ata_exec_internal: qc timeout after %u msecs (cmd 0x%x)
    ("kernel", "[ 5212.100100] ata3.00: qc timeout after 10000 msecs (cmd 0xec)", "storage_local_disk"),
    # drivers/ata/libata-core.c (4.x): qc timeout (cmd 0x%x)
    ("kernel", "[ 5212.100200] ata3.00: qc timeout (cmd 0xef)", "storage_local_disk"),
    # ---- mpt3sas
    # drivers/scsi/mpt3sas/mpt3sas_base.c: SAS host is non-operational !!!!
    ("kernel", "[ 9101.839140] mpt3sas_cm1: SAS host is non-operational !!!!", "storage_local_disk"),
    # ---- habanalabs
    # drivers/accel/habanalabs/common/device.c hl_device_heartbeat: Device heartbeat failed! PCI link is %s
    ("kernel", "[51003.000100] habanalabs hl1: Device heartbeat failed! PCI link is healthy", "gpu_driver_error"),
    # drivers/misc/habanalabs/common/device.c (5.x): Device heartbeat failed!
    ("kernel", "[51003.000200] habanalabs hl1: Device heartbeat failed!", "gpu_driver_error"),
    # ---- nvrm
    # src/nvidia/src/kernel/core/thread_state.c: _threadNodeCheckTimeout: API_GPU_ATTACHED_SANITY_CHECK failed!
    ("kernel", "[52002.000100] NVRM: _threadNodeCheckTimeout: API_GPU_ATTACHED_SANITY_CHECK failed!", "gpu_driver_error"),
    # src/nvidia/src/kernel/gpu/gpu.c: GPU recovery action changed from 0x%x (%s) to 0x%x (%s)
    ("kernel", "[52002.000200] NVRM: Xid (PCI:0000:41:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)", "gpu_reset_required"),
    # ---- e1000e
    # drivers/net/ethernet/intel/e1000e/netdev.c: Reset adapter unexpectedly
    ("kernel", "[40008.000100] e1000e 0000:00:1f.6 eno1: Reset adapter unexpectedly", "net_link_down"),
    # ---- igb
    # drivers/net/ethernet/intel/igb/igb_main.c igb_reset_task: Reset adapter
    ("kernel", "[40008.000200] igb 0000:02:00.1 enp2s0f1: Reset adapter", "net_link_down"),
    # ---- ipmitool
    # ipmitool lib/ipmi_sel.c: Memory | Correctable ECC logging limit reached
    ("system", "  1b0 | 05/04/2026 | 07:00:01 | Memory #0x02 | Correctable ECC logging limit reached | Asserted", "hardware_mce"),
    # ipmitool lib/ipmi_sel.c: Critical Interrupt | Bus Fatal Error
    ("system", "  1b1 | 05/04/2026 | 07:00:02 | Critical Interrupt #0x14 | Bus Fatal Error | Asserted", "pcie_aer"),
    # ---- mpt3sas
    # drivers/scsi/mpt3sas/mpt3sas_base.c mpt3sas_print_fault_code: fault_state(0x%04x)!
    ("kernel", "[ 9101.839100] mpt3sas_cm1: fault_state(0x2622)!", "storage_local_disk"),
    # ---- mlx5
    # drivers/net/ethernet/mellanox/mlx5/core/events.c port_module: Port module event[error]: module %u, %s, %s
    ("kernel", "[31001.000100] mlx5_core 0000:5c:00.1: mlx5_port_module_event:1131:(pid 0): Port module event[error]: module 1, Cable error, High Temperature", "ib_link"),
    # drivers/net/ethernet/mellanox/mlx5/core/events.c port_module: Port module event[error]: ... Bad or shorted cable/module
    ("kernel", "[31001.000200] mlx5_core 0000:5c:00.0: Port module event[error]: module 0, Cable error, Bad or shorted cable/module", "ib_link"),
    # ---- nvrm
    # src/nvidia/inc/kernel/core/prelude.h NV_ASSERT_OK: nvAssertOkFailedNoLog: Assertion failed: %s [%s] (0x%08x) returned from %s @ %s:%d
    ("kernel", "[52004.000100] NVRM: nvAssertOkFailedNoLog: Assertion failed: Generic Error: Invalid state [NV_ERR_INVALID_STATE] (0x00000040) returned from kgspRpcSend(pGpu, pRpc) @ kernel_gsp.c:1822", "gpu_driver_error"),
    # ---- scsi
    # drivers/scsi/scsi_lib.c scsi_io_completion (3.x): Unhandled error code
    ("kernel", "[ 4101.100300] sd 2:0:0:0: [sdc] Unhandled error code", "storage_local_disk"),
    # drivers/scsi/scsi_lib.c scsi_io_completion (3.x): Unhandled sense code
    ("kernel", "[ 4101.100400] sd 2:0:0:0: [sdc] Unhandled sense code", "storage_local_disk"),
    # ---- jbd2
    # fs/jbd2/journal.c: I/O error when updating journal superblock for %s.
    ("kernel", "[ 4101.100500] JBD2: I/O error when updating journal superblock for sdc1-8.", "storage_local_disk"),
    # ---- dm-integrity
    # drivers/md/dm-integrity.c: %pg: Checksum failed at sector 0x%llx
    ("kernel", "[ 4101.100700] device-mapper: integrity: dm-2: Checksum failed at sector 0x1f3a20", "storage_local_disk"),
    # ---- dm
    # drivers/md/dm-thin.c metadata_operation_failed: %s: metadata operation '%s' failed: error = %d
    ("kernel", "[ 4101.100800] device-mapper: thin: 253:5: metadata operation 'dm_pool_commit_metadata' failed: error = -5", "storage_local_disk"),
    # ---- dm-crypt
    # drivers/md/dm-crypt.c: %pg: INTEGRITY AEAD ERROR, sector %llu
    ("kernel", "[ 4101.101000] dm-crypt: dm-4: INTEGRITY AEAD ERROR, sector 88123", "storage_local_disk"),
    # ---- btrfs
    # fs/btrfs/disk-io.c btrfs_validate_extent_buffer: checksum verify failed on logical %llu mirror %u wanted %s found %s level %d
    ("kernel", "[ 4101.101800] BTRFS warning (device sdb2): checksum verify failed on logical 30425088 mirror 1 wanted 0x9a1c20f1 found 0x1b7e4dd2 level 0", "storage_local_disk"),
    # ---- smpboot
    # arch/x86/kernel/smpboot.c native_kick_ap: do_boot_cpu failed(%d) to wakeup CPU#%u
    ("kernel", "[    0.612211] smpboot: do_boot_cpu failed(-1) to wakeup CPU#33", "hardware_mce"),
    # ---- cpuhp
    # kernel/cpu.c cpuhp_bp_sync_alive: CPU%u failed to report alive state
    ("kernel", "[   10.700100] CPU33 failed to report alive state", "hardware_mce"),
    # ---- arm64-smp
    # arch/arm64/kernel/smp.c __cpu_up: CPU%u: failed to come online
    ("kernel", "[    1.118622] CPU61: failed to come online", "hardware_mce"),
    # ---- nvrm
    # src/nvidia/src/kernel/gpu/gsp/arch/turing/kernel_gsp_booter_tu102.c: s_executeBooterUcode_TU102: Booter failed with non-zero error code: 0x%x
    ("kernel", "[   12.100200] NVRM: GPU0 s_executeBooterUcode_TU102: Booter failed with non-zero error code: 0x1d", "gpu_driver_init"),
    # src/nvidia/src/kernel/gpu/gsp/arch/turing/kernel_gsp_tu102.c: kgspExecuteBooterLoad_TU102: failed to execute Booter Load: 0x%x
    ("kernel", "[   12.100300] NVRM: GPU0 kgspExecuteBooterLoad_TU102: failed to execute Booter Load: 0xffff", "gpu_driver_init"),
    # src/nvidia/src/kernel/gpu/gsp/arch/turing/kernel_gsp_frts_tu102.c: kgspExecuteFwsec_TU102: failed to execute FWSEC for FRTS: ...
    ("kernel", "[   12.100400] NVRM: GPU0 kgspExecuteFwsec_TU102: failed to execute FWSEC for FRTS: FRTS error code 0x492f", "gpu_driver_init"),
    # src/nvidia/src/kernel/gpu/gsp/arch/*/kernel_gsp_*.c: Failed to boot GSP.
    ("kernel", "[   12.100100] NVRM: GPU0 kgspBootstrapRiscvOSEarly_GH100: Failed to boot GSP.", "gpu_driver_init"),
]

# (log source, line): INFO/notice siblings and context lines from the same sources
BENIGN: list[tuple[str, str]] = [
    # K19: GMC fault-status decode after the page-fault headline: detail, LABELS.md
    ("kernel", "[50002.000150] amdgpu 0000:c1:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00800932"),
    # K19: a bare "Dazed and confused" follows the NMI headline: detail, LABELS.md
    ("kernel", "[21001.000002] Dazed and confused, but trying to continue"),
    # therm_throt: arch/x86/kernel/cpu/mce/therm_throt.c: CPU%d: %s temperature above threshold, cpu clock throttled (total events = %lu)
    ("kernel", "[20001.100001] CPU14: Package temperature above threshold, cpu clock throttled (total events = 211)"),
    # therm_throt: arch/x86/kernel/cpu/mce/therm_throt.c: CPU%d: Core temperature above threshold
    ("kernel", "[20001.100002] CPU3: Core temperature above threshold, cpu clock throttled (total events = 4)"),
    # therm_throt: arch/x86/kernel/cpu/thermal (5.9+): CPU%d: %s temperature is above threshold, cpu clock is throttled (total events = %lu)
    ("kernel", "[20001.100003] CPU7: Package temperature is above threshold, cpu clock is throttled (total events = 1802)"),
    # therm_throt: arch/x86/kernel/cpu/mce/therm_throt.c: CPU%d: %s temperature/speed normal
    ("kernel", "[20001.100004] CPU7: Package temperature/speed normal"),
    # therm_throt: arch/x86/kernel/cpu/mce/therm_throt.c: mce: CPU%d: ... power limit notification
    ("kernel", "[20001.100005] mce: CPU2: Package power limit notification (total events = 9)"),
    # libata: drivers/ata/libata-eh.c: ata%u: EH complete
    ("kernel", "[ 5190.500100] ata4: EH complete"),
    # libata: drivers/ata/libata-core.c: SATA link up
    ("kernel", "[ 5190.400100] ata4: SATA link up 6.0 Gbps (SStatus 133 SControl 300)"),
    # libata: drivers/ata/libata-core.c: configured for %s
    ("kernel", "[ 5190.410100] ata4.00: configured for UDMA/133"),
    # libata: drivers/ata/libata-core.c: SATA link down (SStatus 0 SControl 300)
    ("kernel", "[    2.120100] ata7: SATA link down (SStatus 0 SControl 300)"),
    # scsi: drivers/scsi/sd.c: Attached SCSI disk
    ("kernel", "[    3.301200] sd 5:0:1:0: [sdf] Attached SCSI disk"),
    # scsi: drivers/scsi/sd.c: Write cache: enabled
    ("kernel", "[    3.301100] sd 5:0:1:0: [sdf] Write cache: enabled, read cache: enabled, doesn't support DPO or FUA"),
    # md: drivers/md/md.c: md: recovery of RAID array %s
    ("kernel", "[91100.000100] md: recovery of RAID array md127"),
    # md: drivers/md/md.c: md: %s: %s done.
    ("kernel", "[91900.000100] md: md127: recovery done."),
    # md: drivers/md/raid1.c: md/raid1:%s: active with %d out of %d mirrors
    ("kernel", "[   12.100100] md/raid1:md127: active with 2 out of 2 mirrors"),
    # dm-multipath: drivers/md/dm-mpath.c: Reinstating path
    ("kernel", "[77300.300112] device-mapper: multipath: 253:3: Reinstating path 65:48."),
    # dm-multipath: multipathd: remaining active paths: %d
    ("system", "Jun 11 08:05:12 stor-n2 multipathd[911]: mpathc: remaining active paths: 4"),
    # nvme-fabrics: drivers/nvme/host/fabrics.c: new ctrl: NQN
    ("kernel", "[12100.000100] nvme nvme2: new ctrl: NQN \"nqn.2014-08.org.nvmexpress:uuid:5b1e7f40\", addr 10.12.0.5:4420"),
    # nvme-fabrics: drivers/nvme/host/rdma.c: Successfully reconnected
    ("kernel", "[12100.000200] nvme nvme2: Successfully reconnected (2 attempt)"),
    # btrfs: fs/btrfs/disk-io.c: disk space caching is enabled
    ("kernel", "[    8.100100] BTRFS info (device sdb2): disk space caching is enabled"),
    # btrfs: fs/btrfs/scrub.c: scrub: started on devid %llu
    ("kernel", "[61000.000100] BTRFS info (device sdb2): scrub: started on devid 1"),
    # dmar: drivers/iommu/intel/iommu.c: IOMMU enabled
    ("kernel", "[    0.000000] DMAR: IOMMU enabled"),
    # dmar: drivers/iommu/intel/irq_remapping.c: Enabled IRQ remapping in x2apic mode
    ("kernel", "[    0.420100] DMAR-IR: Enabled IRQ remapping in x2apic mode"),
    # amd-vi: drivers/iommu/amd/init.c: Interrupt remapping enabled
    ("kernel", "[    0.800100] AMD-Vi: Interrupt remapping enabled"),
    # ghes: drivers/acpi/apei/ghes.c: APEI firmware first mode is enabled
    ("kernel", "[    1.100100] GHES: APEI firmware first mode is enabled by APEI bit and WHEA _OSC."),
    # hest: drivers/acpi/apei/hest.c: HEST: Table parsing has been initialized.
    ("kernel", "[    1.100000] HEST: Table parsing has been initialized."),
    # erst: drivers/acpi/apei/erst.c: Error Record Serialization Table (ERST) support is initialized.
    ("kernel", "[    1.100200] ERST: Error Record Serialization Table (ERST) support is initialized."),
    # edac: drivers/edac/edac_mc.c: Giving out device to module
    ("kernel", "[    4.100100] EDAC MC0: Giving out device to module i10nm_edac controller Intel_10nm Socket#0 IMC#0: DEV 0000:7e:0c.0 (INTERRUPT)"),
    # edac-amd64: drivers/edac/amd64_edac.c: DRAM ECC enabled
    ("kernel", "[    4.100200] EDAC amd64: Node 0: DRAM ECC enabled."),
    # edac-ghes: drivers/edac/ghes_edac.c: This system has %d DIMM sockets.
    ("kernel", "[    4.100300] EDAC MC0: Giving out device to module ghes_edac.c controller ghes_edac: DEV ghes (INTERRUPT)"),
    # mce: arch/x86/kernel/cpu/mce/core.c: CPU%d: Thermal monitoring enabled
    ("kernel", "[    0.100100] mce: CPU0: Thermal monitoring enabled (TM1)"),
    # ipmi_si: drivers/char/ipmi/ipmi_si_intf.c: IPMI kcs interface initialized
    ("kernel", "[    6.100100] ipmi_si IPI0001:00: IPMI kcs interface initialized"),
    # ipmitool: ipmitool: Log area reset/cleared
    ("system", "   1 | 05/01/2026 | 09:00:00 | Event Logging Disabled #0x07 | Log area reset/cleared | Asserted"),
    # mlx5e: en/port.c: Link up
    ("kernel", "[40001.100200] mlx5_core 0000:5e:00.0 enp94s0f0np0: Link up"),
    # ixgbe: ixgbe_main.c: NIC Link is Up
    ("kernel", "[40002.100100] ixgbe 0000:18:00.1 eno2: NIC Link is Up 10 Gbps, Flow Control: RX/TX"),
    # ena: ena_netdev.c: Device reset completed successfully
    ("kernel", "[40006.100100] ena 0000:00:06.0: Device reset completed successfully, Driver info: Elastic Network Adapter (ENA) v2.8.0g"),
    # amdgpu: amdgpu_device.c: GPU reset(%d) succeeded!
    ("kernel", "[50001.900200] amdgpu 0000:c1:00.0: amdgpu: GPU reset(3) succeeded!"),
    # amdgpu: amdgpu_ras.c: RAS INFO: ras initialized successfully
    ("kernel", "[    9.100100] amdgpu 0000:c1:00.0: amdgpu: RAS INFO: ras initialized successfully, hardware ability[7fff] ras_mask[7fff]"),
    # habanalabs: device.c: Successfully finished resetting the device
    ("kernel", "[51002.000100] habanalabs hl3: Successfully finished resetting the 0000:19:00.0 device"),
    # nvrm: nv.c: loading NVIDIA UNIX Kernel Module
    ("kernel", "[    9.200100] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  550.90.07  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu May 30 16:32:05 UTC 2024"),
    # amdgpu: amdgpu_job.c: Process information: (context of the ring timeout)
    ("kernel", "[50001.000150] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* Process information: process python3 pid 4411 thread python3 pid 4411"),
    # bert: drivers/acpi/apei/bert.c: Error records from previous boot: (header; the records follow)
    ("kernel", "[    1.210100] BERT: Error records from previous boot:"),
    # amdgpu: amdgpu_psp.c: psp gfx command LOAD_TA failed (optional TA missing)
    ("kernel", "[50004.000200] amdgpu 0000:c1:00.0: amdgpu: psp gfx command LOAD_TA(0x1) failed and response status is (0x7)"),
    # amdgpu: amdgpu_ras.c: correctable errors in a non-umc block, no user action is needed
    ("kernel", "[50005.000300] amdgpu 0000:c1:00.0: amdgpu: 7 correctable hardware errors detected in gfx block, no user action is needed."),
    # ena: ena_netdev.c: Found a Tx that wasn't completed on time (netif_notice)
    ("kernel", "[40006.000100] ena 0000:00:06.0 eth1: Found a Tx that wasn't completed on time, qid 2, index 812. 5210000 usecs have passed since last napi execution. Missing Tx timeout value 5000 msecs"),
    # cper: cper.c: It has been corrected by h/w and requires no further action
    ("kernel", "[ 9001.100170] {5}[Hardware Error]: It has been corrected by h/w and requires no further action"),
    # habanalabs: firmware.c: Device CPU packet timeout ... due to FW reset
    ("kernel", "[51001.000260] habanalabs hl2: Device CPU packet timeout (0x2000000) due to FW reset"),
    # dm: dm-thin.c: switching pool to write mode
    ("kernel", "[77210.100100] device-mapper: thin: 253:5: switching pool to write mode"),
    # btrfs: transaction.c: Transaction aborted (error -28): ENOSPC is a full fs, not a disk
    ("kernel", "[60001.008009] BTRFS: Transaction aborted (error -28)"),
    # md: mdadm Monitor.c: RebuildFinished event
    ("system", "Mar  4 05:11:10 gpu-a17 mdadm[1822]: RebuildFinished event detected on md device /dev/md127"),
    # acpi: drivers/acpi/acpica: ACPI Error: AE_NOT_FOUND (firmware table noise)
    ("kernel", "[    1.301100] ACPI Error: AE_NOT_FOUND, While resolving a named reference package element - \\_SB_.PC00.RP01.PXSX (20230628/dspkginit-438)"),
    # acpi: drivers/acpi/acpica: ACPI BIOS Error (bug): Could not resolve symbol
    ("kernel", "[    1.301200] ACPI BIOS Error (bug): Could not resolve symbol [\\_SB.PC00.XHCI.RHUB.HS11], AE_NOT_FOUND (20230628/dswload2-162)"),
    # perf: kernel/events/core.c: perf: interrupt took too long
    ("kernel", "[ 3001.100100] perf: interrupt took too long (3142 > 3127), lowering kernel.perf_event_max_sample_rate to 63600"),
    # clocksource: kernel/time/clocksource.c: Marking clocksource 'tsc' as unstable
    ("kernel", "[ 3001.200100] clocksource: timekeeping watchdog on CPU12: Marking clocksource 'tsc' as unstable because the skew is too large:"),
    # i40e: i40e_main.c: Query for DCB configuration failed (firmware without DCB)
    ("kernel", "[    6.400100] i40e 0000:3b:00.1: Query for DCB configuration failed, err I40E_ERR_NOT_READY aq_err I40E_AQ_RC_EPERM"),
    # ipv6: net/ipv6/addrconf.c: link becomes ready
    ("kernel", "[    9.100100] IPv6: ADDRCONF(NETDEV_CHANGE): eno1: link becomes ready"),
    # amdgpu: gmc_v9_0.c: in page starting at address (context of a page fault)
    ("kernel", "[50002.000110] amdgpu 0000:c1:00.0: amdgpu:   in page starting at address 0x00007f3a11200000 from IH client 0x1b (UTCL2)"),
    # nvrm: iovaspace.c: left-over mappings in IOVAS
    ("kernel", "[52003.000100] NVRM: iovaspaceDestruct_IMPL: 2 left-over mappings in IOVAS 0x200"),
    # mce: arch/x86/kernel/cpu/mce/core.c: Run the above through 'mcelog --ascii'
    ("kernel", "[13001.219990] mce: [Hardware Error]: Run the above through 'mcelog --ascii'"),
    # ipmi: drivers/char/ipmi/ipmi_msghandler.c: BMC returned incorrect response
    ("kernel", "[    7.100100] ipmi_si IPI0001:00: BMC returned 0xc1, retry get bmc device id"),
    # mlx5: events.c port_module: Port module event: module %u, %s (info)
    ("kernel", "[31001.000300] mlx5_core 0000:5c:00.0: Port module event: module 0, Cable plugged"),
    # mlx5: events.c temp_warn: High temperature on sensors with bit set (warning, no fault)
    ("kernel", "[31001.000400] mlx5_core 0000:5c:00.0: temp_warn:165:(pid 0): High temperature on sensors with bit set 0 1"),
    # amdgpu: amdkfd kfd_device_queue_manager.c: Runlist is getting oversubscribed
    ("kernel", "[50006.000100] amdgpu: Runlist is getting oversubscribed. Expect reduced ROCm performance."),
    # floppy: drivers/block/floppy.c + block/blk-core.c: I/O error, dev fd0, sector 0 (VM floppy probe)
    ("kernel", "[    3.100150] blk_update_request: I/O error, dev fd0, sector 0"),
    # floppy: block/blk-core.c (4.19): print_req_error: I/O error, dev fd0
    ("kernel", "[    3.100250] print_req_error: I/O error, dev fd0, sector 0"),
    # floppy: fs/buffer.c: Buffer I/O error on dev fd0
    ("kernel", "[    3.100350] Buffer I/O error on dev fd0, logical block 0, async page read"),
    # sr: drivers/scsi/sr.c: sr FAILED Result (empty optical drive)
    ("kernel", "[    3.100450] sr 1:0:0:0: [sr0] tag#0 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_SENSE cmd_age=0s"),
    # md: drivers/md/raid1.c: redirecting sector %llu to other mirror (repaired)
    ("kernel", "[ 4101.101300] md/raid1:md0: redirecting sector 1234 to other mirror: sdb1"),
    # md: drivers/md/raid5.c: read error corrected (%lu sectors at %llu on %pg)
    ("kernel", "[ 4101.101400] md/raid:md2: read error corrected (8 sectors at 1234 on sdd1)"),
    # md: drivers/md/md.c: md: %s: %s interrupted.
    ("kernel", "[ 4101.101200] md: md0: recovery interrupted."),
    # btrfs: fs/btrfs/bio.c: read error corrected: ino %llu off %llu
    ("kernel", "[ 4101.101700] BTRFS info (device sdb2): read error corrected: ino 257 off 4096 (dev /dev/sdb2 sector 1234)"),
    # edac: drivers/edac/skx_common.c: ECC is disabled on imc %d
    ("kernel", "[    4.100100] EDAC skx: ECC is disabled on imc 0"),
    # scsi: drivers/scsi/scsi_logging.c: Sense Key : Illegal Request (routine)
    ("kernel", "[ 4101.100900] sd 2:0:0:0: [sdc] Sense Key : Illegal Request [current]"),
    # smpboot: arch/x86/kernel/smpboot.c: CPU %u is now offline
    ("kernel", "[ 3001.000101] smpboot: CPU 9 is now offline"),
    # memory-hotplug: mm/memory_hotplug.c: memory offlining [mem %#010llx-%#010llx] failed due to %s
    ("kernel", "[ 3001.000201] memory offlining [mem 0x1f00000000-0x1f0fffffff] failed due to signal backoff"),
    # ipmi_si: drivers/char/ipmi/ipmi_si_intf.c: Unable to find any System Interface(s)
    ("kernel", "[    6.200100] ipmi_si: Unable to find any System Interface(s)"),
    # ipmi_watchdog: drivers/char/ipmi/ipmi_watchdog.c: Unexpected close, not stopping watchdog!
    ("kernel", "[ 7001.000100] IPMI Watchdog: Unexpected close, not stopping watchdog!"),
    # nvrm: src/nvidia/src/kernel/platform/platform_request_handler.c: PlatformRequestHandler failed to get target temp from SBIOS
    ("kernel", "[   12.100801] NVRM: GPU0 PlatformRequestHandler failed to get target temp from SBIOS"),
    # nvrm: src/nvidia/src/kernel/platform/platform_request_handler.c: PRH failed to update thermal limit!
    ("kernel", "[   12.100701] NVRM: GPU0 PRH failed to update thermal limit!"),
]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_vendor_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_vendor_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize(("line", "action"), [
    ("[ 9001.100160] {5}[Hardware Error]: event severity: corrected", "none"),
    ("[21001.000001] Uhhuh. NMI received for unknown reason 2d on CPU 3.", "none"),
    ("[13001.219900] mce: [Hardware Error]: CPU:4 (19:1:1) MC17_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0xdc2040000000011b",
     "none"),
    ("[ 5123.789002] ata4: hard resetting link", "none"),
    ("[ 5188.004411] ata6.00: NCQ disabled due to excessive errors", "none"),
    ("[ 5188.004461] ata6: limiting SATA link speed to 1.5 Gbps", "none"),
    ("[30003.000101] bnxt_re 0000:3b:00.1: QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0x1d]=0x91 waited (40200 > 40000) msec active 1",
     "none"),
    ("[ 4101.101801] BTRFS warning (device sdb2): checksum verify failed on logical 30425089 mirror 2 wanted 0x9a1c20f1 found 0x1b7e4dd3 level 0",
     "none"),
])
def test_a_corrected_record_or_a_warning_takes_no_node(classifier: Classifier, line: str, action: str) -> None:
    """Corrected records and warning-level recovery steps count against the node but never take it away."""
    found = classifier.classify(line, "kernel")
    assert found is not None
    assert found.action == action


def test_no_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
