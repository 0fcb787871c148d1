"""Compact, reversible text encoding of engine actions for component custom ids.

An action model becomes ``kind`` followed by its other field values in declaration order, joined
by ``.``; tuple values are joined by ``+``: ``Steal(target=2)`` → ``steal.2``,
``KeepCards(cards=(duke, captain))`` → ``keep.duke+captain``. Decoding reads the field types back
from the engine's action models, so the codec works for every game without per-game code.
"""

from __future__ import annotations

import typing
from enum import Enum
from typing import Any

from pydantic import BaseModel, TypeAdapter

_SEP = "."
_TUPLE_SEP = "+"


class CodecError(ValueError):
    """The text is not an encoded action of this game."""


def encode_action(action: BaseModel) -> str:
    """Return the compact text of ``action``."""
    parts = [str(getattr(action, "kind"))]  # noqa: B009 - every action model has a kind
    for name in type(action).model_fields:
        if name == "kind":
            continue
        value = getattr(action, name)
        if isinstance(value, tuple | list):
            parts.append(_TUPLE_SEP.join(_scalar(v) for v in value))
        else:
            parts.append(_scalar(value))
    return _SEP.join(parts)


def _scalar(value: object) -> str:
    if value is None:
        return "~"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _models_by_kind(adapter: TypeAdapter[Any]) -> dict[str, type[BaseModel]]:
    annotated = adapter._type
    union = typing.get_args(annotated)[0] if typing.get_origin(annotated) is typing.Annotated else annotated
    out: dict[str, type[BaseModel]] = {}
    for model in typing.get_args(union) or (union,):
        kind = model.model_fields["kind"].default
        out[str(kind)] = model
    return out


_CACHE: dict[int, dict[str, type[BaseModel]]] = {}


def decode_action(adapter: TypeAdapter[Any], text: str) -> Any:
    """Return the action encoded in ``text``; raise ``CodecError`` if it is not one."""
    models = _CACHE.get(id(adapter))
    if models is None:
        models = _CACHE[id(adapter)] = _models_by_kind(adapter)
    kind, *values = text.split(_SEP)
    model = models.get(kind)
    if model is None:
        raise CodecError(text)
    fields = [name for name in model.model_fields if name != "kind"]
    if len(fields) != len(values):
        raise CodecError(text)
    data: dict[str, Any] = {"kind": kind}
    for name, raw in zip(fields, values, strict=True):
        annotation = model.model_fields[name].annotation
        is_tuple = typing.get_origin(annotation) is tuple or (
            any(typing.get_origin(arg) is tuple for arg in typing.get_args(annotation))
        )
        if raw == "~":
            data[name] = None
        elif is_tuple:
            data[name] = [] if raw == "" else raw.split(_TUPLE_SEP)
        else:
            data[name] = raw
    try:
        return adapter.validate_python(data, strict=False)
    except ValueError as exc:
        raise CodecError(text) from exc
