"""Differential test of replay's decoder (``schemas.mirror.ModelDecoder``) against ``schemas.decode``.

The contract: whenever it returns a model, ``schemas.decode`` of the same bytes returns an equal
model of the same class, with the same values of the same types in the same field order, parts
as their own models, and the same wire encoding. Whatever it declines takes ``schemas.decode``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from schemas import EVENT_KINDS, Event, decode, encode
from schemas.mirror import ModelDecoder, _hides_long_fraction, supports
from tests.unit.schemas.test_mirror_differential import members, mutated, render, valid_times

KINDS = [m for m in EVENT_KINDS.values() if supports(m)]
DECODER = ModelDecoder(KINDS)


def assert_same(fast: Any, slow: Any, where: str) -> None:
    """The same value: same type, equal, same repr (-0.0), times in ``datetime.UTC``, models field by field."""
    assert type(fast) is type(slow), where
    if isinstance(slow, BaseModel):
        assert fast == slow and list(fast.__dict__) == list(slow.__dict__), where
        assert fast.__pydantic_extra__ == slow.__pydantic_extra__, where
        assert fast.__pydantic_private__ == slow.__pydantic_private__, where
        for name, value in slow.__dict__.items():
            assert_same(fast.__dict__[name], value, f"{where}.{name}")
    elif isinstance(slow, tuple):
        assert len(fast) == len(slow), where
        for f, s in zip(fast, slow, strict=True):
            assert_same(f, s, where)
    else:
        assert fast == slow and repr(fast) == repr(slow), (where, fast, slow)
        if getattr(slow, "tzinfo", None) is not None:
            assert fast.tzinfo is slow.tzinfo, where


def check_same(raw: bytes) -> Event | None:
    fast = DECODER.decode(raw)
    if fast is not None:
        slow = decode(raw)
        assert_same(fast, slow, type(slow).__name__)
        assert encode(fast) == encode(slow)
    return fast


def test_every_input_kind_has_a_fast_path() -> None:
    assert {m.KIND for m in KINDS} >= {"gpu_sample", "net_sample", "log_line", "stack_sample",
                                       "collective_progress", "step_progress"}


@pytest.mark.parametrize("model", KINDS, ids=lambda m: m.KIND)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_and_mutated_events_decode_to_the_same_model(model: type[Event], data: st.DataObject) -> None:
    check_same(data.draw(mutated(model)))


@pytest.mark.parametrize("model", KINDS, ids=lambda m: m.KIND)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_what_the_pipeline_writes_takes_the_fast_path(model: type[Event], data: st.DataObject) -> None:
    raw = render(data.draw(members(model, valid_times()))).encode("utf-8", "surrogatepass")
    slow = decode(raw)
    assume(isinstance(slow, model))
    canonical = encode(slow)
    fast = check_same(canonical)
    if not _hides_long_fraction(canonical):  # escapes and 7 decimals after ':dd' always take pydantic
        assert fast is not None
