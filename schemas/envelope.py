"""The v1 envelope every event carries, and the time conventions of the contract.

Times are aware UTC datetimes inside the process and RFC 3339 strings with a ``Z``
suffix and millisecond precision on the wire (EVENTS.md, "Encoding").
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
    model_validator,
)


def format_time(value: datetime) -> str:
    """Render an aware datetime as RFC 3339 UTC with milliseconds, e.g. ``2026-11-22T08:00:00.123Z``."""
    utc = value.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def parse_time(text: str) -> datetime:
    """Parse an RFC 3339 string (``Z`` or offset) into an aware UTC datetime."""
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError(f"time without offset: {text!r}")
    return parsed.astimezone(UTC)


def _to_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
"""Times outside [EARLIEST, LATEST) are rejected: no real event has them, and near the ends of
``datetime``'s range a detector's time arithmetic would overflow on every later event of the key."""

UtcTime = Annotated[
    AwareDatetime,
    PlainSerializer(format_time, return_type=str, when_used="json"),
]
"""An aware datetime, normalised to UTC on validation, RFC 3339 ``Z`` on the wire."""


class Event(BaseModel):
    """Base of every v1 event: the flat envelope plus frozen, forward-compatible parsing.

    Subclasses set ``KIND`` (e.g. ``"gpu_sample"``); the ``schema`` field is then fixed to
    ``"<KIND>/v1"``. Unknown extra fields are ignored, as the contract requires.
    """

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True, allow_inf_nan=False)

    KIND: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1

    schema_: str = Field(default="", alias="schema")
    event_id: str = Field(min_length=1)
    event_time: UtcTime
    cluster: str = Field(min_length=1)

    @classmethod
    def schema_name(cls) -> str:
        """The wire value of ``schema`` for this model, e.g. ``"gpu_sample/v1"``."""
        return f"{cls.KIND}/v{cls.VERSION}"

    @field_validator("schema_")
    @classmethod
    def _own_schema(cls, given: str) -> str:
        # An after-validator (not a "before" one) so that JSON input is validated as JSON,
        # strictly, without first being turned into a Python dict.
        if cls.KIND and given not in ("", cls.schema_name()):
            raise ValueError(f"schema {given!r} is not {cls.schema_name()!r}")
        return given

    @model_validator(mode="after")
    def _utc_times(self) -> Event:
        if self.KIND and not self.schema_:
            object.__setattr__(self, "schema_", self.schema_name())
        for name, value in self.__dict__.items():
            if not isinstance(value, datetime):
                continue
            if not EARLIEST <= value < LATEST:
                raise ValueError(f"{name} {value.isoformat()} is outside {EARLIEST.year}..{LATEST.year - 1}")
            if value.utcoffset() != UTC.utcoffset(None):
                object.__setattr__(self, name, _to_utc(value))
        return self

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict of this event, with wire field names."""
        return self.model_dump(mode="json", by_alias=True)
