"""Lightning and Hugging Face callbacks, driven the way each framework calls them.

Neither framework is installed in the project's environment, so the callback logic is
driven with stand-ins of the arguments (trainer / state / control expose only the
attributes the callbacks read); the factory functions are checked for both cases.
"""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace

import pytest
from hook_kit import make_hooks, sent

from producers.hooks.integrations import HFHooks, LightningHooks, hf_callback, lightning_callback
from schemas import JobEvent, StepProgress


def kinds(events: list[object]) -> list[tuple[str, int | None]]:
    return [(e.kind, e.step) for e in events if isinstance(e, JobEvent)]


def test_lightning_steps_once_per_optimizer_step_and_checkpoints_around_the_save() -> None:
    hooks = make_hooks()
    cb, trainer = LightningHooks(hooks), SimpleNamespace(global_step=100)
    cb.on_train_start(trainer, None)
    for batch_idx in range(4):  # gradient accumulation: 2 batches per optimizer step
        cb.on_train_batch_start(trainer, None, None, batch_idx)
        if batch_idx % 2 == 1:
            trainer.global_step += 1
        cb.on_train_batch_end(trainer, None, None, None, batch_idx)
    cb.on_save_checkpoint(trainer, None, {})
    cb.on_train_batch_start(trainer, None, None, 4)  # the save has returned
    cb.on_train_end(trainer, None)
    events = sent(hooks)
    assert [e.step for e in events if isinstance(e, StepProgress)] == [101, 102]
    assert all(e.step_time_ms > 0 for e in events if isinstance(e, StepProgress))
    assert kinds(events) == [("running", 100), ("checkpoint_started", 102), ("checkpoint_completed", 102)]


def test_lightning_callback_errors_are_counted() -> None:
    hooks = make_hooks()
    cb = LightningHooks(hooks)
    cb.on_train_start(SimpleNamespace(), None)  # a trainer without global_step
    cb.on_train_batch_end(SimpleNamespace(global_step="x"), None, None, None, 0)
    assert sent(hooks) == []
    assert hooks.counters()["error.lightning"] == 2


def test_hf_callback_marks_the_save_from_should_save_to_on_save() -> None:
    hooks = make_hooks()
    cb = HFHooks(hooks)
    state, control, args = SimpleNamespace(global_step=0), SimpleNamespace(should_save=False), SimpleNamespace()
    cb.on_train_begin(args, state, control)
    for step in range(1, 4):
        cb.on_step_begin(args, state, control)
        state.global_step = step
        control.should_save = step == 2
        cb.on_step_end(args, state, control)
        if control.should_save:
            cb.on_save(args, state, control)
    events = sent(hooks)
    assert [e.step for e in events if isinstance(e, StepProgress)] == [1, 2, 3]
    assert kinds(events) == [("running", 0), ("checkpoint_started", 2), ("checkpoint_completed", 2)]


def test_callbacks_before_init_do_nothing() -> None:
    from producers import hooks as module

    module.shutdown()
    before = module.counters()["uninitialised_calls"]
    HFHooks().on_step_begin(None, SimpleNamespace(global_step=1), None)
    LightningHooks().on_train_start(SimpleNamespace(global_step=0), None)
    assert module.counters()["uninitialised_calls"] == before  # resolved lazily, nothing to count


@pytest.mark.parametrize(("factory", "modules", "base"), [
    (lightning_callback, ("lightning", "pytorch_lightning"), "Callback"),
    (hf_callback, ("transformers",), "TrainerCallback"),
])
def test_factories_need_their_framework(factory: object, modules: tuple[str, ...], base: str) -> None:
    present = [m for m in modules if importlib.util.find_spec(m) is not None]
    if present:
        cb = factory(make_hooks())  # type: ignore[operator]  # a factory function
        assert base in [k.__name__ for k in type(cb).__mro__]
    else:
        with pytest.raises(ImportError):
            factory()  # type: ignore[operator]  # a factory function
