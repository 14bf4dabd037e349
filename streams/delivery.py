"""Faust's per-record delivery without a task per record.

Faust's fetch loop hands every record to the topic conductor through
``Consumer.wait_first(callback(record), suspend_flow.wait())``: four tasks (the callback, the
suspend flag, the consumer's stopped and crashed flags) and an ``asyncio.wait`` per record, then
three cancellations. The callback almost never waits: it decodes the record's envelope and puts
it on the agents' queues, which only blocks while a queue is full, the producer's buffer is
over its limit or a rebalance holds the flow. :func:`eager_delivery` runs the callback
directly up to its first real wait (what Python 3.12's eager tasks do); only a callback that
does wait goes on as a task, raced against the same flags as before, so a rebalance still
interrupts a blocked delivery.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Coroutine
from typing import Any

from mode.services import WaitResults

__all__ = ["eager_delivery"]


def eager_delivery(consumer: Any) -> None:
    """Make ``consumer.wait_first`` run a record's delivery without tasks when it does not wait.

    Only the fetch loop's call shape is taken on the fast path: two coroutines (the delivery,
    then the suspend flag's ``wait()``), no timeout, and the flow neither suspended nor the
    consumer stopping. Everything else goes to Faust's own ``wait_first`` unchanged."""
    slow = consumer.wait_first
    suspend, stopped, crashed = consumer.suspend_flow, consumer._stopped, consumer._crashed  # noqa: SLF001 - mode's flags

    async def wait_first(*coros: Any, timeout: Any = None) -> WaitResults:
        # once per record: plain tests, no generator objects
        if (timeout is not None or len(coros) != 2 or suspend.is_set() or stopped.is_set() or crashed.is_set()
                or not (inspect.iscoroutine(coros[0]) and inspect.iscoroutine(coros[1]))):
            return await slow(*coros, timeout=timeout)
        delivery, suspended = coros
        try:
            waiting_on = delivery.send(None)
        except BaseException as ended:
            suspended.close()  # never started: the flow was not suspended while the delivery ran
            if isinstance(ended, StopIteration):
                return WaitResults([delivery], [ended.value], False)
            raise  # as Faust's own wait_first propagates the delivery's error
        return await slow(_resume(delivery, waiting_on), suspended)

    consumer.wait_first = wait_first


async def _resume(coro: Coroutine[Any, Any, Any], waiting_on: Any) -> Any:
    """Run to its end a coroutine that was stepped by hand and yielded ``waiting_on``.

    Follows the protocol asyncio's tasks use with a coroutine: a future it yielded (marked
    blocking) is unmarked and awaited here, then the coroutine reads the future's outcome itself
    when sent ``None`` (a cancellation of this task cancels that future, which the coroutine then
    sees as under a task); a bare yield gives the event loop one turn, and a cancellation there
    is thrown into the coroutine."""
    while True:
        thrown: BaseException | None = None
        if getattr(waiting_on, "_asyncio_future_blocking", False):
            waiting_on._asyncio_future_blocking = False  # noqa: SLF001 - what Task.__step does
            with contextlib.suppress(BaseException):  # the coroutine's own await raises it
                await waiting_on
        elif waiting_on is None:
            try:
                await asyncio.sleep(0)
            except asyncio.CancelledError as exc:
                thrown = exc
        else:
            thrown = RuntimeError(f"coroutine yielded {waiting_on!r}, not a future")  # as a task would throw
        try:
            waiting_on = coro.send(None) if thrown is None else coro.throw(thrown)
        except StopIteration as done:
            return done.value
