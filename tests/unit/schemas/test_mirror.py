"""Which models get a msgspec mirror, and what a mirror looks like (schemas.mirror)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field, field_validator

from schemas import EVENT_KINDS, Event, HangVote
from schemas.mirror import SCHEMA_BY_NAME, FastDecoder, Unsupported, mirror_of, supports


class _Checked(Event):
    KIND = "test_checked"
    job_id: str

    @field_validator("job_id")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()


class _Pattern(Event):
    KIND = "test_pattern"
    job_id: str = Field(pattern="^j")


class _Mapping(Event):
    KIND = "test_mapping"
    labels: dict[str, str]


class _Union(Event):
    KIND = "test_union"
    value: int | str


class _Factory(Event):
    KIND = "test_factory"
    nodes: tuple[str, ...] = Field(default_factory=tuple)


@pytest.mark.parametrize("model", [_Checked, _Pattern, _Mapping, _Union, _Factory], ids=lambda m: m.KIND)
def test_what_a_mirror_cannot_reproduce_gets_no_mirror(model: type[Event]) -> None:
    assert not supports(model)
    with pytest.raises(Unsupported):
        mirror_of(model)
    assert FastDecoder([model, HangVote]).models == frozenset({HangVote})


def test_every_contract_kind_is_mirrored_with_its_field_names() -> None:
    for model in EVENT_KINDS.values():
        if supports(model):
            mirror = mirror_of(model)
            assert mirror.__struct_fields__ == ("schema_", SCHEMA_BY_NAME, *list(model.model_fields)[1:])
            assert mirror.MODEL is model
            assert mirror_of(model) is mirror  # built once


def test_a_mirror_is_frozen_hashable_and_untracked_by_the_collector() -> None:
    import gc

    raw = (b'{"schema":"hang_vote/v1","event_id":"v","event_time":"2026-11-22T08:00:00.000Z","cluster":"c",'
           b'"job_id":"j","attempt":0,"window_start":"2026-11-22T08:00:00.000Z",'
           b'"window_end":"2026-11-22T08:00:00.000Z","signals":{},"votes":0,"hang":false}')
    row: Any = FastDecoder([HangVote]).decode(raw)
    assert row is not None and row.schema_ == "hang_vote/v1" and row.signals.log_silent is None
    assert hash(row) == hash(FastDecoder([HangVote]).decode(raw)) and not gc.is_tracked(row)
    with pytest.raises(AttributeError):
        row.job_id = "k"
