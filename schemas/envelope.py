"""The v1 envelope every event carries, and the time conventions of the contract.

Times are aware UTC datetimes inside the process and RFC 3339 strings with a ``Z``
suffix and millisecond precision on the wire (EVENTS.md, "Encoding").
"""

from __future__ import annotations

import types
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

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


_ZERO = timedelta(0)


def _to_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
"""Times outside [EARLIEST, LATEST) are rejected: no real event has them, and near the ends of
``datetime``'s range a detector's time arithmetic would overflow on every later event of the key."""
_FIRST_YEAR, _END_YEAR = EARLIEST.year, LATEST.year

_NEVER_TIME = (str, bytes, int, float, tuple, list, dict, set, frozenset, BaseModel, type(None))
"""Field types whose values are never a datetime (a tuple of times is not checked: values are)."""


def _may_hold_time(annotation: Any) -> bool:
    """Whether a field annotated so can hold a ``datetime`` value itself (conservative: unknown
    types may), so the envelope's time check need only look at those fields."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _may_hold_time(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return any(_may_hold_time(a) for a in get_args(annotation))
    if origin is Literal:
        return False
    if origin is not None:  # a parametrised container (tuple[...], dict[...]): its value is the container
        return _may_hold_time(origin)
    return not (isinstance(annotation, type) and issubclass(annotation, _NEVER_TIME))


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
    _SCHEMA_NAME: ClassVar[str] = "/v1"
    _TIME_FIELDS: ClassVar[tuple[str, ...]] = ("event_time",)
    """The fields whose values may be datetimes, in field order (set per subclass)."""

    schema_: str = Field(default="", alias="schema")
    event_id: str = Field(min_length=1)
    event_time: UtcTime
    cluster: str = Field(min_length=1)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # Computed once per class, not per event: validation is the replay's hot path.
        super().__pydantic_init_subclass__(**kwargs)
        cls._SCHEMA_NAME = f"{cls.KIND}/v{cls.VERSION}"
        cls._TIME_FIELDS = tuple(n for n, f in cls.model_fields.items() if _may_hold_time(f.annotation))

    @classmethod
    def schema_name(cls) -> str:
        """The wire value of ``schema`` for this model, e.g. ``"gpu_sample/v1"``."""
        return cls._SCHEMA_NAME

    @field_validator("schema_")
    @classmethod
    def _own_schema(cls, given: str) -> str:
        # An after-validator (not a "before" one) so that JSON input is validated as JSON,
        # strictly, without first being turned into a Python dict.
        if cls.KIND and given != cls._SCHEMA_NAME and given:
            raise ValueError(f"schema {given!r} is not {cls._SCHEMA_NAME!r}")
        return given

    @model_validator(mode="after")
    def _utc_times(self) -> Event:
        if not self.schema_ and self.KIND:
            object.__setattr__(self, "schema_", self._SCHEMA_NAME)
        values = self.__dict__
        for name in self._TIME_FIELDS:
            value = values[name]
            if not isinstance(value, datetime):
                continue
            normalised = value.tzinfo is UTC
            utc = normalised or value.utcoffset() == _ZERO  # the wire's ``Z``: then the year alone
            # tells the range, EARLIEST and LATEST being the first instants of UTC years
            if not (_FIRST_YEAR <= value.year < _END_YEAR if utc else EARLIEST <= value < LATEST):
                raise ValueError(f"{name} {value.isoformat()} is outside {EARLIEST.year}..{LATEST.year - 1}")
            if not normalised:  # ``datetime.UTC`` itself, not the parser's equivalent zone: arithmetic
                # and comparisons with the pipeline's own UTC times then skip the zones' offset calls
                object.__setattr__(self, name, _to_utc(value))
        return self

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict of this event, with wire field names."""
        return self.model_dump(mode="json", by_alias=True)
