"""Framework callbacks: PyTorch Lightning and Hugging Face ``transformers`` Trainer.

The logic lives in plain classes (:class:`LightningHooks`, :class:`HFHooks`) that only
read attributes of the arguments the frameworks pass; :func:`lightning_callback` and
:func:`hf_callback` import the framework lazily and return an instance of a subclass that
also derives from the framework's base class. Neither framework is needed to import this
module. Every callback body is guarded: a failure is counted, never raised into training.

Checkpoint timing: Lightning calls ``on_save_checkpoint`` before writing and has no hook
after the write, so ``checkpoint_completed`` is sent at the next hook that runs once the
save has returned (the next batch, epoch, validation or the end of training). Hugging Face
decides to save in ``on_step_end`` (``control.should_save``) and calls ``on_save`` after
writing, so both ends are exact there.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from producers.hooks.api import Hooks


def _import_first(*candidates: tuple[str, str]) -> Any:
    errors = []
    for module, name in candidates:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            errors.append(f"{module}.{name}: {exc}")
    raise ImportError("; ".join(errors))


class _Base:
    """Resolves the hooks lazily (the callback may be built before ``hooks.init``)."""

    def __init__(self, hooks: Hooks | None = None) -> None:
        super().__init__()
        self._fixed = hooks
        self._step_start_s: float | None = None
        self._last_step: int | None = None
        self._pending_checkpoint: int | None = None

    def _hooks(self) -> Hooks | None:
        if self._fixed is not None:
            return self._fixed
        from producers import hooks as module

        return module.current()

    def _mark_start(self) -> None:
        if self._step_start_s is None:
            self._step_start_s = time.perf_counter()

    def _report_step(self, hooks: Hooks, step: int) -> None:
        """Report ``step`` once (gradient accumulation ends several batches on one step)."""
        if step == self._last_step or self._step_start_s is None:
            return
        hooks.step(step, (time.perf_counter() - self._step_start_s) * 1000.0)
        self._last_step, self._step_start_s = step, None

    def _finish_checkpoint(self, hooks: Hooks) -> None:
        if self._pending_checkpoint is not None:
            step, self._pending_checkpoint = self._pending_checkpoint, None
            hooks.job_event("checkpoint_completed", step=step)


class LightningHooks(_Base):
    """The faultline logic of a Lightning ``Callback`` (method names and arguments as Lightning's)."""

    def on_train_start(self, trainer: Any, pl_module: Any) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("lightning"):
                self._last_step = int(trainer.global_step)  # done before this attempt: not reported again
                hooks.running(self._last_step)

    def on_train_batch_start(self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("lightning"):
                self._finish_checkpoint(hooks)
                self._mark_start()

    def on_train_batch_end(self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("lightning"):
                self._report_step(hooks, int(trainer.global_step))

    def on_save_checkpoint(self, trainer: Any, pl_module: Any, checkpoint: dict[str, Any]) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("lightning"):
                self._finish_checkpoint(hooks)
                self._pending_checkpoint = int(trainer.global_step)
                hooks.job_event("checkpoint_started", step=self._pending_checkpoint)

    def _after_save_point(self) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("lightning"):
                self._finish_checkpoint(hooks)

    def on_train_epoch_start(self, trainer: Any, pl_module: Any) -> None:
        self._after_save_point()

    def on_validation_start(self, trainer: Any, pl_module: Any) -> None:
        self._after_save_point()

    def on_train_end(self, trainer: Any, pl_module: Any) -> None:
        self._after_save_point()


class HFHooks(_Base):
    """The faultline logic of a ``transformers.TrainerCallback`` (same method names/arguments)."""

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("hf"):
                self._last_step = int(state.global_step)
                hooks.running(self._last_step)

    def on_step_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("hf"):
                self._mark_start()

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("hf"):
                self._report_step(hooks, int(state.global_step))
                if getattr(control, "should_save", False):
                    self._pending_checkpoint = int(state.global_step)
                    hooks.job_event("checkpoint_started", step=self._pending_checkpoint)

    def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if (hooks := self._hooks()) is not None:
            with hooks.guard("hf"):
                if self._pending_checkpoint is None:
                    self._pending_checkpoint = int(state.global_step)
                self._finish_checkpoint(hooks)


def lightning_callback(hooks: Hooks | None = None) -> Any:
    """A Lightning ``Callback`` (``lightning.pytorch`` or ``pytorch_lightning``); ImportError without one."""
    base = _import_first(("lightning.pytorch", "Callback"), ("pytorch_lightning", "Callback"))
    return type("FaultlineLightningCallback", (LightningHooks, base), {})(hooks)


def hf_callback(hooks: Hooks | None = None) -> Any:
    """A ``transformers.TrainerCallback``; ImportError when transformers is not installed."""
    base = _import_first(("transformers", "TrainerCallback"))
    return type("FaultlineTrainerCallback", (HFHooks, base), {})(hooks)
