"""Text of the log lines a training fleet prints: Megatron, NCCL, PyTorch, kernel, system.

Formats follow the real tools closely enough for pattern-based classifiers: Megatron-LM
iteration and checkpoint lines, NCCL INFO init lines, the PyTorch CUDA OOM message, the
ProcessGroupNCCL watchdog timeout and torchrun's failure report.
"""

from __future__ import annotations

import math
from datetime import datetime

from producers.simulator import xids

CKPT_DIR = "/checkpoints"
GLOBAL_BATCH = 1024

BENIGN_KERNEL = (
    "mlx5_core 0000:0c:00.0 mlx5_0: Link up",
    "EXT4-fs (nvme0n1p2): re-mounted 5f1c0e7a-2b9d-4c61-9a57-6c0ad2a1b3e4 r/w. Quota mode: none.",
    "IPv6: ADDRCONF(NETDEV_CHANGE): ibp12s0: link becomes ready",
    "mlx5_core 0000:0c:00.0: mlx5_pcie_event:301:(pid 0): PCIe slot advertised sufficient "
    "power (75W).",
    "nvidia-nvswitch2: open (major=509)",
    "audit: type=1400 audit(0.0:412): apparmor=\"STATUS\" operation=\"profile_replace\"",
)

BENIGN_SYSTEM = (
    "systemd[1]: Started session-4127.scope - Session 4127 of User root.",
    "CRON[48211]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)",
    "chronyd[1022]: Selected source 10.0.0.1 (ntp.cluster.internal)",
    "nvidia-persistenced[1431]: device 0000:18:00.0 - persistence mode enabled.",
    "dcgm-exporter[2210]: Starting webserver on :9400",
    "sshd[50122]: Accepted publickey for ops from 10.0.3.4 port 51544 ssh2",
)


def loss_at(step: int) -> float:
    """A plausible language-model loss curve value at ``step``."""
    return 1.9 + 9.0 * math.exp(-step / 400.0) + 0.6 * math.exp(-step / 5000.0)


def lr_at(step: int) -> float:
    """Learning rate with linear warmup over 2000 steps to 3e-4."""
    return 3.0e-4 * min(1.0, (step + 1) / 2000.0)


def iteration(when: datetime, step: int, total: int, step_ms: float, noise: float) -> str:
    """A Megatron-LM training log line for ``step`` (elapsed = mean step time in ms)."""
    tflops = 400.0 * 1000.0 / max(step_ms, 1.0)
    return (f"[{when:%Y-%m-%d %H:%M:%S}] iteration {step:>8d}/{total:>8d} | "
            f"consumed samples: {step * GLOBAL_BATCH:>12d} | "
            f"elapsed time per iteration (ms): {step_ms:.1f} | "
            f"throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
            f"learning rate: {lr_at(step):.6E} | global batch size: {GLOBAL_BATCH:>5d} | "
            f"lm loss: {loss_at(step) + noise:.6E} | loss scale: 1.0 | "
            f"grad norm: {0.9 + abs(noise) * 4:.3f} | number of skipped iterations:   0 | "
            "number of nan iterations:   0 |")


def init_lines(world: int, tp: int) -> list[str]:
    """Rank 0's Megatron start-up lines."""
    return [
        "> initializing torch distributed ...",
        f"> initialized tensor model parallel with size {tp}",
        "> initialized pipeline model parallel with size 1",
        f"> initialized data parallel with size {max(1, world // tp)}",
        "building GPT model ...",
        " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 1012463616",
        "[after dataloaders are built] datetime: ready",
        "training ...",
    ]


def nccl_init(host: str, pid: int, local: int, rank: int, world: int, comm: int) -> list[str]:
    """NCCL INFO lines of one rank's communicator init (interfaces only on local rank 0)."""
    head = f"{host}:{pid}:{pid} [{local}] NCCL INFO"
    lines = []
    if rank == 0:
        lines.append(f"{head} NCCL version 2.21.5+cuda12.4")
    if local == 0:
        lines += [f"{head} Bootstrap : Using ibp12s0:10.0.{rank // 256}.{rank % 256}<0>",
                  f"{head} NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB "
                  "[3]mlx5_3:1/IB [RO]; OOB ibp12s0:10.0.0.1<0>"]
    lines.append(f"{head} comm {comm:#014x} rank {rank} nranks {world} cudaDev {local} "
                 f"nvmlDev {local} busId {xids.bus_id(local)}000 commId {comm ^ 0x5A5A:#018x} "
                 "- Init COMPLETE")
    return lines


def checkpoint_saving(step: int, job: str) -> str:
    """Megatron's line when a checkpoint save starts."""
    return f"saving checkpoint at iteration {step:>7d} to {CKPT_DIR}/{job} in torch_dist format"


def checkpoint_saved(step: int, job: str, tp: int) -> str:
    """Megatron's line when a checkpoint save completed."""
    return (f"  successfully saved checkpoint from iteration {step:>7d} to {CKPT_DIR}/{job} "
            f"[ t 1/{tp}, p 1/1 ]")


def eval_start(step: int, iters: int) -> str:
    """The line printed when an evaluation phase begins."""
    return f"evaluating on validation set at iteration {step} ({iters} iterations) ..."


def eval_done(step: int, noise: float) -> str:
    """Megatron's validation result line."""
    loss = loss_at(step) + 0.05 + noise
    return (f" validation loss at iteration {step} | lm loss value: {loss:.6E} | "
            f"lm loss PPL: {math.exp(loss):.6E} | ")


def oom(gpu: int, pid: int, free_gib: float) -> str:
    """The PyTorch CUDA out-of-memory error of one rank."""
    used = 79.15 - free_gib
    return ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
            f"GPU {gpu} has a total capacity of 79.15 GiB of which {free_gib:.2f} GiB is free. "
            f"Process {pid} has {used:.2f} GiB memory in use. Of the allocated memory "
            f"{used - 2.1:.2f} GiB is allocated by PyTorch, and 1.87 GiB is reserved by "
            "PyTorch but unallocated. If reserved but unallocated memory is large try setting "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
            "documentation for Memory Management  "
            "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")


def cuda_error(message: str) -> str:
    """A PyTorch CUDA runtime error line."""
    return (f"RuntimeError: CUDA error: {message}\nCUDA kernel errors might be asynchronously "
            "reported at some other API call, so the stacktrace below might be incorrect."
            ).replace("\n", " ")


def watchdog(when: datetime, rank: int, pid: int, seq: int, timeout_ms: int) -> str:
    """ProcessGroupNCCL's watchdog collective timeout line (the hang lasted ``timeout_ms``)."""
    ran_ms = timeout_ms + 17 + rank % 50
    return (f"[rank{rank}]:[E{when:%m%d %H:%M:%S}.{when.microsecond:06d} {pid} "
            f"ProcessGroupNCCL.cpp:632] [Rank {rank}] Watchdog caught collective operation "
            f"timeout: WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn=268435456, "
            f"NumelOut=268435456, Timeout(ms)={timeout_ms}) ran for {ran_ms} milliseconds before "
            "timing out.")


def elastic_failure(local: int, pid: int) -> str:
    """torchrun's report that a worker process exited with an error."""
    return (f"torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) "
            f"local_rank: {local} (pid: {pid}) of binary: /usr/bin/python3")
