"""py-spy style stack signatures of a Megatron training process, per role.

Frames are outermost first, each ``"function (file:line)"``. Training rotates through a
few signatures (forward, backward, optimizer, a short gradient all-reduce, data loading);
a checkpoint shows the same torch.save frames on every rank; a hang freezes the waiting
ranks in a collective and the source rank(s) in host code.
"""

from __future__ import annotations

import random

Frames = tuple[str, ...]

_ROOT: Frames = (
    "<module> (pretrain_gpt.py:286)",
    "pretrain (megatron/training/training.py:386)",
)
_TRAIN: Frames = _ROOT + (
    "train (megatron/training/training.py:1353)",
    "train_step (megatron/training/training.py:752)",
)
_FWD_BWD: Frames = _TRAIN + (
    "forward_backward_no_pipelining (megatron/core/pipeline_parallel/schedules.py:452)",
)

FORWARD: Frames = _FWD_BWD + (
    "forward_step (megatron/core/pipeline_parallel/schedules.py:275)",
    "forward_step (pretrain_gpt.py:203)",
    "_call_impl (torch/nn/modules/module.py:1747)",
    "forward (megatron/core/models/gpt/gpt_model.py:264)",
    "forward (megatron/core/transformer/transformer_block.py:512)",
    "forward (megatron/core/transformer/transformer_layer.py:368)",
    "forward (megatron/core/transformer/attention.py:391)",
)
BACKWARD: Frames = _FWD_BWD + (
    "backward_step (megatron/core/pipeline_parallel/schedules.py:366)",
    "backward (torch/_tensor.py:581)",
    "backward (torch/autograd/__init__.py:347)",
    "_engine_run_backward (torch/autograd/graph.py:825)",
)
OPTIMIZER: Frames = _TRAIN + (
    "step (megatron/core/optimizer/distrib_optimizer.py:1820)",
    "step (megatron/core/optimizer/optimizer.py:472)",
    "step (torch/optim/optimizer.py:487)",
    "adam (torch/optim/adam.py:841)",
)
COLLECTIVE: Frames = _TRAIN + (
    "finalize_model_grads (megatron/core/distributed/finalize_model_grads.py:216)",
    "finish_grad_sync (megatron/core/distributed/distributed_data_parallel.py:412)",
    "wrapper (torch/distributed/c10d_logger.py:83)",
    "all_reduce (torch/distributed/distributed_c10d.py:2501)",
)
DATALOADER: Frames = _FWD_BWD + (
    "forward_step (pretrain_gpt.py:186)",
    "get_batch (pretrain_gpt.py:157)",
    "get_batch_on_this_tp_rank (megatron/training/utils.py:309)",
    "__next__ (torch/utils/data/dataloader.py:708)",
    "_next_data (torch/utils/data/dataloader.py:1458)",
    "_get_data (torch/utils/data/dataloader.py:1420)",
    "_try_get_data (torch/utils/data/dataloader.py:1251)",
    "get (multiprocessing/queues.py:113)",
    "poll (multiprocessing/connection.py:257)",
    "wait (multiprocessing/connection.py:1136)",
    "select (selectors.py:415)",
)
CHECKPOINT: Frames = _TRAIN[:-1] + (
    "save_checkpoint_and_time (megatron/training/training.py:1120)",
    "save_checkpoint (megatron/training/checkpointing.py:402)",
    "save (torch/distributed/checkpoint/state_dict_saver.py:145)",
    "save (torch/serialization.py:849)",
    "_save (torch/serialization.py:1114)",
    "write_record (torch/serialization.py:663)",
)
_EVAL: Frames = _ROOT + (
    "evaluate_and_print_results (megatron/training/training.py:1652)",
    "evaluate (megatron/training/training.py:1560)",
)
EVAL_FORWARD: Frames = _EVAL + (
    "forward_backward_no_pipelining (megatron/core/pipeline_parallel/schedules.py:452)",
    "forward_step (megatron/core/pipeline_parallel/schedules.py:275)",
    "forward (megatron/core/models/gpt/gpt_model.py:264)",
    "forward (megatron/core/transformer/transformer_block.py:512)",
)
EVAL_DATA: Frames = _EVAL + (
    "get_batch (pretrain_gpt.py:157)",
    "__next__ (torch/utils/data/dataloader.py:708)",
    "_next_data (torch/utils/data/dataloader.py:1458)",
)
STUCK_PYTHON: Frames = _TRAIN + (
    "training_log (megatron/training/training.py:1012)",
    "report_memory (megatron/training/utils.py:118)",
    "acquire (threading.py:320)",
)
STUCK_HOST: Frames = _FWD_BWD + (
    "forward_step (pretrain_gpt.py:203)",
    "_call_impl (torch/nn/modules/module.py:1747)",
    "forward (megatron/core/models/gpt/gpt_model.py:264)",
    "synchronize (torch/cuda/__init__.py:954)",
)

# Real waiter stacks. With NCCL the collective call returns as soon as the kernel is queued;
# a rank waiting on a hung peer blocks at the next host synchronisation instead, as py-spy
# dumps of hung PyTorch jobs show (pytorch/pytorch#95944: ranks in torch.cuda.synchronize;
# NVIDIA/nccl#719: ranks in Tensor.item() -> _local_scalar_dense; Work.wait and barriers).
WAIT_SYNCHRONIZE: Frames = _TRAIN + (
    "training_log (megatron/training/training.py:1012)",
    "synchronize (torch/cuda/__init__.py:954)",
)
WAIT_ITEM: Frames = _TRAIN + (
    "train_step (megatron/training/training.py:790)",
    "average_losses_across_data_parallel_group (megatron/training/utils.py:226)",
    "item (torch/_tensor.py:1072)",
    "_local_scalar_dense (<built-in>)",
)
WAIT_WORK: Frames = _TRAIN + (
    "finalize_model_grads (megatron/core/distributed/finalize_model_grads.py:216)",
    "finish_grad_sync (megatron/core/distributed/distributed_data_parallel.py:412)",
    "wait (torch/distributed/distributed_c10d.py:4380)",
)
WAIT_BARRIER: Frames = _ROOT + (
    "train (megatron/training/training.py:1390)",
    "barrier (torch/distributed/c10d_logger.py:83)",
    "barrier (torch/distributed/distributed_c10d.py:4562)",
)
REAL_WAITERS = (WAIT_SYNCHRONIZE, WAIT_ITEM, WAIT_WORK, WAIT_BARRIER)
"""A hang's waiters all block in one of these, chosen by the hang's variant."""
CHECKPOINT_BARRIER: Frames = _TRAIN[:-1] + (
    "save_checkpoint_and_time (megatron/training/training.py:1120)",
    "save_checkpoint (megatron/training/checkpointing.py:455)",
    "barrier (torch/distributed/distributed_c10d.py:4562)",
)
"""Ranks that do not write wait here while rank 0 saves (``checkpoint_writer=rank0``)."""

_TRAINING = (FORWARD, BACKWARD, OPTIMIZER, COLLECTIVE, DATALOADER)
_CUM_WEIGHTS = (0.42, 0.80, 0.88, 0.96, 1.0)
HANG_SOURCES = (DATALOADER, STUCK_PYTHON, STUCK_HOST)
"""Non-communication frames a hang's source rank is stuck in, chosen by the hang's variant."""


def _writer(rng: random.Random) -> Frames:
    """A checkpoint writer's stack: the same save path, at a different tensor each sample."""
    return CHECKPOINT[:-1] + (f"write_record (torch/serialization.py:{rng.choice((663, 671, 688))})",)


def frames_for(role: str, rng: random.Random, variant: int, real: bool = False) -> Frames:
    """The stack of a rank in ``role``; ``variant`` picks the hang source's frames.

    ``real``: waiters block where real NCCL jobs do (:data:`REAL_WAITERS`), not in the
    collective call. Raises ``KeyError`` for a role without a process (``off``, ``init``,
    ``dead``).
    """
    if role == "train":
        return rng.choices(_TRAINING, cum_weights=_CUM_WEIGHTS)[0]
    if role == "ckpt_writer":
        return _writer(rng)
    if role == "ckpt_barrier":
        return CHECKPOINT_BARRIER
    if role == "hang_wait" and real:
        return REAL_WAITERS[variant % len(REAL_WAITERS)]
    if role == "eval":  # a forward pass samples a different layer each time, as py-spy shows
        if rng.random() < 0.7:
            layer = rng.choice(("transformer_layer.py:368", "attention.py:391", "mlp.py:143", "layer_norm.py:97"))
            return EVAL_FORWARD + (f"forward (megatron/core/transformer/{layer})",)
        return EVAL_DATA
    fixed = {"checkpoint": CHECKPOINT, "hang_wait": COLLECTIVE,
             "hang_source": HANG_SOURCES[variant % len(HANG_SOURCES)]}
    return fixed[role]
