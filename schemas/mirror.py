"""Fast strict decoding: msgspec mirrors of the event models, built from them once at import.

``FastDecoder(models).decode(data)`` turns the wire bytes of one of ``models`` into a *mirror*:
a frozen msgspec Struct with the model's field names (``schema_``, not ``schema``; plus
:data:`SCHEMA_BY_NAME`) and the
values :func:`schemas.codec.decode` gives, nested parts as mirrors too, times as aware
datetimes in ``datetime.UTC``. It is several times faster than pydantic's JSON validation.

The contract (checked by ``tests/unit/schemas/test_mirror_differential.py``): when ``decode``
returns a mirror, ``codec.decode`` of the same bytes returns the model with the same values.
When it returns None, nothing is said: the caller decodes with ``codec.decode``, which gives
the model or the dead letter with its exact reason. So the mirror only ever *narrows* what
it accepts where msgspec and pydantic could differ:

- times must carry the ``Z``/``+00:00`` offset (another offset: None, pydantic normalises
  it), lie in 1970..2199, and have at most 6 fractional digits anywhere in the message
  (msgspec rounds a 7th digit, pydantic truncates); a message with a ``\\u`` escape anywhere
  always takes pydantic (an escape could hide such digits);
- ``schema``, when present, must be the model's own (pydantic also accepts ``""``), and so must
  ``schema_`` (its field name, which pydantic reads when ``schema`` is absent), or be empty;
- floats must be finite (``1e400`` is out of range for msgspec, infinite for pydantic);
- a model or part whose fields use anything else (custom validators, patterns, defaults
  made by factories, unions, dicts, times inside parts, ...) gets no mirror at all.

Unknown fields are ignored, as the contract says. Pure: no I/O; imports only pydantic and
msgspec besides the contract.
"""

from __future__ import annotations

import functools
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, NamedTuple

import annotated_types
import msgspec
from pydantic import AwareDatetime, BaseModel, PlainSerializer
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from schemas.codec import SCHEMA_MEMBER
from schemas.envelope import EARLIEST, LATEST, Event

_FINITE = (-sys.float_info.max, sys.float_info.max)
_SEVEN_DECIMALS = re.compile(rb"\.\d{7}")
"""A cheap first look (its literal prefix is searched fast) for :data:`_LONG_FRACTION`."""
_LONG_FRACTION = re.compile(rb":\d\d\.\d{7}")
"""Seconds with more than 6 fractional digits, wherever they are (a false hit only costs speed;
msgspec takes only ``.`` as the decimal mark, so a ``,`` makes it reject the time itself)."""
_ESCAPE = b"\\u"
"""A ``\\u`` escape could spell a time's digits where :data:`_LONG_FRACTION` cannot see them."""
_EVENT_VALIDATORS = frozenset({"_own_schema", "_utc_times"})
"""The envelope's own validators, which :class:`FastDecoder` reproduces."""


class Unsupported(TypeError):
    """A model or field the mirror cannot reproduce exactly: it gets no mirror."""


class Mirror(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Base of every mirror. ``MODEL`` is the pydantic model it mirrors.

    Frozen and hashable; not tracked by the cyclic GC (decoded values hold no cycles).
    """

    MODEL: ClassVar[type[BaseModel]]

    if TYPE_CHECKING:  # fields every event mirror has (declared per mirror at run time)
        event_id: str
        event_time: datetime
        cluster: str


def mirror_of(model: type[Event]) -> type[Mirror]:
    """The mirror Struct of event ``model`` (one class per model, built on first use).

    Raises :class:`Unsupported` when the model cannot be mirrored exactly.
    """
    return _event_mirror(model)


def supports(model: type[Event]) -> bool:
    """Whether ``model`` has a mirror (else its events always take ``codec.decode``)."""
    try:
        mirror_of(model)
    except Unsupported:
        return False
    return True


def jsonable(value: Mirror) -> Any:
    """The JSON-ready Python value of a mirrored part: what pydantic's ``model_dump(mode="python")``
    gives for the same part (a dict per part; tuples stay tuples, which ``json.dumps`` writes as arrays)."""
    return msgspec.to_builtins(value)


@functools.cache
def _event_mirror(model: type[Event]) -> type[Mirror]:
    extra = set(model.__pydantic_decorators__.field_validators) | set(model.__pydantic_decorators__.model_validators)
    if extra - _EVENT_VALIDATORS or _has_other_validators(model):
        raise Unsupported(f"{model.__name__} has validators a mirror cannot reproduce")
    fields = _schema_fields(model)
    fields += [_field(model, name, info) for name, info in model.model_fields.items() if name != "schema_"]
    return _define(model, fields, rename={"schema_": "schema", SCHEMA_BY_NAME: "schema_"})


@functools.cache
def _part_mirror(model: type[BaseModel]) -> type[Mirror]:
    decorators = model.__pydantic_decorators__
    if _has_other_validators(model) or decorators.field_validators or decorators.model_validators:
        raise Unsupported(f"{model.__name__} has validators a mirror cannot reproduce")
    if model.model_config.get("extra") not in (None, "ignore"):
        raise Unsupported(f"{model.__name__} does not ignore unknown fields")
    fields = [_field(model, name, info, in_part=True) for name, info in model.model_fields.items()]
    return _define(model, fields, rename=None)


def _has_other_validators(model: type[BaseModel]) -> bool:
    d = model.__pydantic_decorators__
    return bool(d.validators or d.root_validators)


def _define(model: type[BaseModel], fields: list[tuple[str, Any, Any]], rename: dict[str, str] | None) -> type[Mirror]:
    spec = [(name, hint) if default is PydanticUndefined else (name, hint, default) for name, hint, default in fields]
    mirror = msgspec.defstruct(
        f"{model.__name__}Mirror", spec, bases=(Mirror,), namespace={"MODEL": model}, module=__name__,
        rename=rename, kw_only=True, frozen=True, gc=False,
    )
    assert issubclass(mirror, Mirror)
    return mirror


SCHEMA_BY_NAME = "schema_by_name"
"""The mirror's extra field for a ``schema_`` member: the envelope populates fields by name
too, so pydantic reads ``schema_`` when ``schema`` is absent (and ignores it otherwise)."""


def _schema_fields(model: type[Event]) -> list[tuple[str, Any, Any]]:
    """``schema`` must be the model's own name; absent means the same (pydantic fills it in).
    A ``schema_`` member must be the name or empty, whether ``schema`` is there or not (narrower
    than pydantic, which ignores it next to ``schema``)."""
    name = model.schema_name()
    return [("schema_", Literal[name], name), (SCHEMA_BY_NAME, Literal[name, ""], name)]


def _field(model: type[BaseModel], name: str, info: FieldInfo, in_part: bool = False) -> tuple[str, Any, Any]:
    if info.alias not in (None, name) or info.validation_alias not in (None, name, info.alias):
        raise Unsupported(f"{model.__name__}.{name}: aliases other than schema")
    if info.default_factory is not None:
        raise Unsupported(f"{model.__name__}.{name}: default factory")
    where = f"{model.__name__}.{name}"
    hint = _hint(info.annotation, list(info.metadata), where, in_part)
    return name, hint, info.default


def _hint(annotation: Any, metadata: list[Any], where: str, in_part: bool) -> Any:
    """The msgspec type for a pydantic annotation with its constraint metadata."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        inner, *more = typing.get_args(annotation)
        return _hint(inner, [*more, *metadata], where, in_part)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(rest) != 1 or len(typing.get_args(annotation)) != 2:
            raise Unsupported(f"{where}: union {annotation!r}")
        return _hint(rest[0], metadata, where, in_part) | None
    if origin is Literal:
        return _no_constraints(annotation, metadata, where)
    if origin is tuple:
        return _tuple(annotation, metadata, where, in_part)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _no_constraints(_part_mirror(annotation), metadata, where)
    return _scalar(annotation, metadata, where, in_part)


def _tuple(annotation: Any, metadata: list[Any], where: str, in_part: bool) -> Any:
    args = typing.get_args(annotation)
    if len(args) != 2 or args[1] is not Ellipsis:
        raise Unsupported(f"{where}: only tuple[X, ...] is mirrored")
    return _no_constraints(tuple[_hint(args[0], [], where, in_part), ...], metadata, where)  # type: ignore[misc]


def _scalar(annotation: Any, metadata: list[Any], where: str, in_part: bool) -> Any:
    if annotation is AwareDatetime:
        if in_part:  # pydantic leaves a part's times in their parsed zone: not reproduced
            raise Unsupported(f"{where}: a time inside a part")
        return Annotated[datetime, msgspec.Meta(tz=True, **_constraints(metadata, where, ()))]
    if annotation in (str, bool, int):
        allowed = {str: ("min_length", "max_length"), bool: (), int: ("ge", "gt", "le", "lt")}[annotation]
        found = _constraints(metadata, where, allowed)
        return Annotated[annotation, msgspec.Meta(**found)] if found else annotation
    if annotation is float:
        found = _constraints(metadata, where, ("ge", "gt", "le", "lt"))
        found.setdefault("ge", _FINITE[0]) if "gt" not in found else None
        found.setdefault("le", _FINITE[1]) if "lt" not in found else None
        return Annotated[float, msgspec.Meta(**found)]
    raise Unsupported(f"{where}: type {annotation!r}")


def _no_constraints(hint: Any, metadata: list[Any], where: str) -> Any:
    _constraints(metadata, where, ())
    return hint


_KNOWN = {annotated_types.Ge: "ge", annotated_types.Gt: "gt", annotated_types.Le: "le", annotated_types.Lt: "lt",
          annotated_types.MinLen: "min_length", annotated_types.MaxLen: "max_length"}


def _constraints(metadata: list[Any], where: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """msgspec ``Meta`` keywords for pydantic's constraint metadata; serializers are ignored
    (they only shape the output), anything else is :class:`Unsupported`."""
    found: dict[str, Any] = {}
    for item in metadata:
        if isinstance(item, PlainSerializer):
            continue
        key = _KNOWN.get(type(item))
        if key is None or key not in allowed:
            raise Unsupported(f"{where}: constraint {item!r}")
        found[key] = getattr(item, key)
    return found


class _Kind(NamedTuple):
    """One mirrored kind: its msgspec decoder and a getter of its time fields (always a tuple)."""

    mirror: type[Mirror]
    decode: Callable[[bytes], Any]
    times: Callable[[Any], tuple[Any, ...]]


def _kind(model: type[Event]) -> _Kind:
    mirror = mirror_of(model)
    names = list(model._TIME_FIELDS)
    times = attrgetter(*names) if len(names) > 1 else lambda row: (getattr(row, names[0]),)
    return _Kind(mirror, msgspec.json.Decoder(mirror).decode, times)


def _hides_long_fraction(data: bytes) -> bool:
    """Whether a time in ``data`` may have more than 6 fractional digits (maybe behind an escape)."""
    return (data.find(b"\\") >= 0 and _ESCAPE in data) or (
        _SEVEN_DECIMALS.search(data) is not None and _LONG_FRACTION.search(data) is not None)


class FastDecoder:
    """Decodes the wire bytes of ``models`` (those :func:`supports`) into their mirrors."""

    def __init__(self, models: Iterable[type[Event]]) -> None:
        self._kinds = {m.schema_name().encode(): _kind(m) for m in models if supports(m)}

    @property
    def models(self) -> frozenset[type[BaseModel]]:
        """The models this decoder mirrors."""
        return frozenset(kind.mirror.MODEL for kind in self._kinds.values())

    def decode(self, data: bytes) -> Mirror | None:
        """The mirror of ``data``, or None when it is not certain to be what ``codec.decode`` accepts.

        Never raises. None says nothing about validity: decode ``data`` with ``codec.decode`` then.
        The envelope's time check is narrowed to: every time in ``datetime.UTC`` (the wire's
        ``Z``) and inside 1970..2199 (None where an optional time is absent).
        """
        if _hides_long_fraction(data):
            return None
        return self._decode_plain(data)

    def decode_many(self, values: list[bytes]) -> list[Mirror | None]:
        """``[decode(v) for v in values]``, with the long-fraction look taken once over all of
        them: when no value has a ``\\u`` escape or 7 decimals anywhere, none is looked at again."""
        joined = b"\n".join(values)  # no value spans the separator: a time's digits cannot either
        if _hides_long_fraction(joined):
            return [self.decode(v) for v in values]
        plain = self._decode_plain
        return [plain(v) for v in values]

    def _decode_plain(self, data: bytes) -> Mirror | None:
        """``decode`` of ``data`` known to hide no long fraction."""
        found = SCHEMA_MEMBER.search(data)  # the same dispatch as codec.decode: its first "schema"
        kind = self._kinds.get(found.group(1)) if found else None
        if kind is None:
            return None
        try:
            row: Mirror = kind.decode(data)
        except (msgspec.DecodeError, ValueError, RecursionError, MemoryError):
            return None
        for value in kind.times(row):
            if value is not None and (value.tzinfo is not UTC or not EARLIEST <= value < LATEST):
                return None
        return row


class ModelDecoder:
    """Decodes the wire bytes of ``models`` (those :func:`supports`) straight into the models
    themselves, through their mirrors: what ``codec.decode`` gives for the same bytes, faster.

    The model is built from the mirror's values without validating them again (the mirror did;
    see the module's contract). It equals ``codec.decode``'s: same class, the same values in
    ``__dict__`` in field order, parts as their own models, no extra, no private values; only
    ``model_fields_set`` differs (every field, as if all were given), which no encoding uses
    but ``exclude_unset``.
    """

    def __init__(self, models: Iterable[type[Event]]) -> None:
        self._fast = FastDecoder(models)
        self._build = {mirror: _builder(mirror) for mirror in (mirror_of(m) for m in self._fast.models)}  # type: ignore[arg-type]

    def decode(self, data: bytes) -> Event | None:
        """The model of ``data``, or None when the mirror is not sure (decode with ``codec.decode`` then).

        Never raises."""
        row = self._fast.decode(data)
        if row is None:
            return None
        event: Event = self._build[type(row)](row)
        return event


Build = Callable[[Any], Any]
"""Turns a decoded mirror value (a mirror, a tuple of them, None) into the model's value."""


@functools.cache
def _builder(mirror: type[Mirror]) -> Build:
    """The builder of ``mirror.MODEL`` instances from ``mirror`` instances (built once per mirror)."""
    model = mirror.MODEL
    if model.__private_attributes__ or model.model_config.get("extra") == "allow":
        raise Unsupported(f"{model.__name__} keeps private or extra values")
    hints = {f.name: f.type for f in msgspec.structs.fields(mirror)}
    parts = tuple((name, convert) for name in model.model_fields if (convert := _converter(hints[name])) is not None)
    extra = SCHEMA_BY_NAME in hints  # an event mirror's field that is not the model's
    as_dict = msgspec.structs.asdict  # the mirror's fields in order: the model's, and ``extra`` second

    def build(row: Mirror) -> BaseModel:
        values = as_dict(row)
        if extra:
            del values[SCHEMA_BY_NAME]
        for name, convert in parts:
            values[name] = convert(values[name])
        return _trusted(model, values)

    return build


def _converter(hint: Any) -> Build | None:
    """How a mirror field's value becomes the model's (None: it is the same value)."""
    origin = typing.get_origin(hint)
    if origin is Annotated:
        return _converter(typing.get_args(hint)[0])
    if origin in (typing.Union, types.UnionType):
        (inner,) = (_converter(a) for a in typing.get_args(hint) if a is not type(None))
        return None if inner is None else lambda value: None if value is None else inner(value)
    if origin is tuple:
        item = _converter(typing.get_args(hint)[0])
        return None if item is None else lambda value: tuple([item(v) for v in value])
    if isinstance(hint, type) and issubclass(hint, Mirror):
        return _builder(hint)
    return None


_new = object.__new__  # pydantic models define no ``__new__``
_set_dict = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__  # the slots themselves
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _trusted(model: type[BaseModel], values: dict[str, Any]) -> BaseModel:
    """An instance of ``model`` holding ``values`` (already valid), as pydantic's validator would
    leave it (``model_construct`` does the same, but is as slow as validation)."""
    instance: BaseModel = _new(model)
    _set_dict(instance, "__dict__", values)
    _set_fields_set(instance, set(values))
    _set_extra(instance, None)
    _set_private(instance, None)
    return instance
