"""Faust's per-record delivery runs without tasks when it does not wait (``streams.delivery``).

The consumer here is a real ``mode`` service with the three flags Faust's consumer has; the
calls have the shape of Faust's fetch loop: ``wait_first(callback(record), suspend_flow.wait())``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from mode import Service
from mode.utils.locks import Event

from streams.delivery import eager_delivery


class Consumer(Service):
    """A service with the flag Faust's consumer races each delivery against."""

    def __post_init__(self) -> None:
        self.suspend_flow = Event()
        self.slow_calls = 0
        own = self.wait_first

        async def counted(*coros: Any, timeout: Any = None) -> Any:
            self.slow_calls += 1
            return await own(*coros, timeout=timeout)

        self.wait_first = counted  # type: ignore[method-assign]
        eager_delivery(self)


def _run(scenario: Any) -> Any:
    async def main() -> Any:
        return await scenario(Consumer())

    return asyncio.run(main())


def test_a_delivery_that_does_not_wait_makes_no_task() -> None:
    seen: list[str] = []

    async def deliver(record: str) -> str:
        seen.append(record)
        return f"delivered {record}"

    async def scenario(consumer: Consumer) -> Any:
        before = len(asyncio.all_tasks())
        result = await consumer.wait_first(deliver("r1"), consumer.suspend_flow.wait())
        return result, len(asyncio.all_tasks()) - before, consumer.slow_calls

    with _no_warning():  # the unstarted suspend wait is closed, not left "never awaited"
        (result, new_tasks, slow_calls) = _run(scenario)
    assert seen == ["r1"]
    assert result.results == ["delivered r1"] and not result.stopped
    assert (new_tasks, slow_calls) == (0, 0)


def test_a_delivery_that_waits_finishes_as_a_task_with_its_result_or_error() -> None:
    async def deliver(gate: asyncio.Future[int]) -> int:
        await asyncio.sleep(0)  # a bare yield first
        return await gate + 1

    async def failing(gate: asyncio.Future[int]) -> int:
        return await gate

    async def scenario(consumer: Consumer) -> Any:
        loop = asyncio.get_running_loop()
        gate: asyncio.Future[int] = loop.create_future()
        loop.call_later(0.01, gate.set_result, 41)
        ok = await consumer.wait_first(deliver(gate), consumer.suspend_flow.wait())
        broken: asyncio.Future[int] = loop.create_future()
        loop.call_later(0.01, broken.set_exception, ValueError("queue closed"))
        with pytest.raises(ValueError, match="queue closed"):
            await consumer.wait_first(failing(broken), consumer.suspend_flow.wait())
        return ok, consumer.slow_calls

    ok, slow_calls = _run(scenario)
    assert ok.results == [42]
    assert slow_calls == 2


def test_a_blocked_delivery_is_cancelled_when_the_flow_is_suspended() -> None:
    outcome: list[str] = []

    async def deliver(queue_room: asyncio.Future[None]) -> None:
        try:
            await queue_room  # a full queue that never drains
        except asyncio.CancelledError:
            outcome.append("cancelled inside the delivery")
            raise

    async def scenario(consumer: Consumer) -> Any:
        loop = asyncio.get_running_loop()
        room: asyncio.Future[None] = loop.create_future()
        loop.call_later(0.01, consumer.suspend_flow.set)  # a rebalance starts
        result = await consumer.wait_first(deliver(room), consumer.suspend_flow.wait())
        await asyncio.sleep(0)  # let the cancellation reach the delivery
        return result, room.cancelled()

    result, room_cancelled = _run(scenario)
    assert result.results == [True]  # only the suspend flag's wait finished
    assert room_cancelled and outcome == ["cancelled inside the delivery"]


def test_while_the_flow_is_suspended_faust_own_wait_decides() -> None:
    calls: list[str] = []

    async def deliver() -> None:
        calls.append("delivered")

    async def scenario(consumer: Consumer) -> Any:
        consumer.suspend_flow.set()
        await consumer.wait_first(deliver(), consumer.suspend_flow.wait())
        return consumer.slow_calls

    assert _run(scenario) == 1


class _no_warning:  # noqa: N801 - used as a context manager like pytest.warns
    """Fails if a 'coroutine ... was never awaited' warning is raised inside."""

    def __enter__(self) -> None:
        import warnings

        self._catch = warnings.catch_warnings(record=True)
        self._seen = self._catch.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc: Any) -> None:
        import gc

        gc.collect()
        self._catch.__exit__(*exc)
        assert not [w for w in self._seen if "never awaited" in str(w.message)]


def test_an_error_of_a_delivery_that_does_not_wait_propagates() -> None:
    async def deliver() -> None:
        raise KeyError("no callback for the partition")

    async def scenario(consumer: Consumer) -> Any:
        with pytest.raises(KeyError, match="no callback"):
            await consumer.wait_first(deliver(), consumer.suspend_flow.wait())
        return consumer.slow_calls

    with _no_warning():
        assert _run(scenario) == 0
