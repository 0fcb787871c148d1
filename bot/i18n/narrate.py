"""Turn engine events into log lines, for any game, through its message catalogue.

The conventions every game's catalogue (``locales/<lang>/<game>.toml``) follows:

* **Key.** An event's line is ``<game>.event.<kind>``. No key means no line; an empty template
  means the event is deliberately silent (``coup.event.deck_shuffled``).
* **Variants.** A field is *optional* when it is a ``bool``, may be ``None`` or has a default; it is
  *set* when it is not ``None``, not ``False`` and differs from its default. When some optional
  fields are set, the line is the first existing key ``<game>.event.<kind>__<f1>__<f2>…`` over
  them, trying the largest combinations first (each in declaration order), then the plain key. So
  ``ActionDeclared(target=2, claim=Card.ASSASSIN, cost=3)`` reads
  ``coup.event.action_declared__target__claim__cost`` and ``InfluenceLost(timed_out=True)`` reads
  ``coup.event.influence_lost__timed_out``.
* **Params.** Every field of the event is a format parameter under its own name. Seat fields (their
  names are in :data:`SEAT_FIELDS`) become display names from ``names``. ``StrEnum`` values become
  ``<game>.<enum>.<value>``, where ``<enum>`` is the class name in snake_case without a trailing
  ``_kind`` (``Card`` → ``coup.card.duke``, ``ActionKind`` → ``coup.action.income``); tuples of them
  are joined with ", ". Numbers stay numbers, so ``{amount:plural:…}`` works.

>>> from games.coup.models import ActionKind, CoinsTaken
>>> narrate("coup", CoinsTaken(seat=1, amount=2, action=ActionKind.FOREIGN_AID), "ru", ["Наташа", "Саша"])
'Саша берёт из казны 2 монеты (Иностранная помощь).'
>>> narrate("coup", CoinsTaken(seat=0, amount=1, action=ActionKind.INCOME), "en", ["Natasha"])
'Natasha takes 1 coin from the treasury (Income).'
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bot.i18n import has_key, translate
from games.core.models import Event, Seat

__all__ = ["SEAT_FIELDS", "VARIANT_SEPARATOR", "event_key", "narrate", "narrate_for"]

#: Field names that hold a seat number (or a tuple of them) and are shown as the seat's name.
SEAT_FIELDS: frozenset[str] = frozenset(
    {
        "actor",
        "target",
        "seat",
        "seats",
        "blocker",
        "challenger",
        "claimant",
        "winner",
        "winners",
        "first_seat",
        "loser",
        "losers",
        "player",
        "players",
        "owner",
        "victim",
        "dealer",
        "leader",
        "giver",
        "receiver",
    }
)
#: Joins an event kind and the names of its set optional fields in a variant key.
VARIANT_SEPARATOR = "__"

_BASE_FIELDS = frozenset(Event.model_fields)  # kind, visible_to: never params nor variants
_CAMEL_BOUNDARY = re.compile(r"(?<!^)(?=[A-Z])")
_EMPTY_LIST = "—"


def narrate(game: str, event: BaseModel, locale: str | None, names: Sequence[str]) -> str | None:
    """Return the log line of ``event`` in ``locale``, or ``None`` if the game shows no line for it.

    Args:
        game: The game's catalogue domain (``"coup"``).
        event: An engine event; it needs a ``kind`` field.
        locale: The reader's locale (a Discord locale is fine).
        names: The display name of every seat, indexed by seat.

    Returns:
        The formatted line, or ``None`` when the catalogue has no line or an empty one.
    """
    key = event_key(game, event, locale)
    if key is None:
        return None
    params = {name: _param(game, name, getattr(event, name), locale, names) for name in _fields(type(event))}
    return translate(locale, key, **params) or None


def narrate_for(
    game: str, events: Iterable[Event], seat: Seat | None, locale: str | None, names: Sequence[str]
) -> list[str]:
    """Return the log lines of the ``events`` that ``seat`` may see (``None``: a spectator).

    Private events (dealt cards, exchange picks) reach only the seats in their ``visible_to``, and
    their lines speak to that reader ("Вы получаете карты: …").
    """
    lines = (narrate(game, event, locale, names) for event in events if event.visible_for(seat))
    return [line for line in lines if line is not None]


def event_key(game: str, event: BaseModel, locale: str | None = None) -> str | None:
    """Return the catalogue key that narrates ``event``: its most specific variant, else its plain key."""
    kind = getattr(event, "kind", None)
    if not isinstance(kind, str):
        return None
    base = f"{game}.event.{kind}"
    if not has_key(base, locale or ""):
        return None
    fields = type(event).model_fields
    present = [name for name in _optional_fields(type(event)) if _is_set(getattr(event, name), fields[name])]
    for size in range(len(present), 0, -1):
        for combo in combinations(present, size):
            key = VARIANT_SEPARATOR.join((base, *combo))
            if has_key(key, locale or ""):
                return key
    return base


@cache
def _fields(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(name for name in model.model_fields if name not in _BASE_FIELDS)


@cache
def _optional_fields(model: type[BaseModel]) -> tuple[str, ...]:
    fields = model.model_fields
    return tuple(
        name
        for name in _fields(model)
        if fields[name].annotation is bool or not fields[name].is_required() or _allows_none(fields[name])
    )


def _allows_none(info: FieldInfo) -> bool:
    annotation = info.annotation
    if get_origin(annotation) not in (Union, types.UnionType):
        return False
    return type(None) in get_args(annotation)


def _is_set(value: object, info: FieldInfo) -> bool:
    if value is None or value is False:
        return False
    return info.is_required() or value != info.default


def _param(game: str, name: str, value: object, locale: str | None, names: Sequence[str]) -> object:
    if name in SEAT_FIELDS:
        if isinstance(value, int) and not isinstance(value, bool):
            return _seat_name(value, locale, names)
        if isinstance(value, tuple) and all(_is_seat(item) for item in value):
            return ", ".join(_seat_name(item, locale, names) for item in value) or _EMPTY_LIST
    if isinstance(value, StrEnum):
        return _enum_name(game, value, locale)
    if isinstance(value, tuple) and all(isinstance(item, StrEnum) for item in value):
        return ", ".join(_enum_name(game, item, locale) for item in value) or _EMPTY_LIST
    return value


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_name(seat: int, locale: str | None, names: Sequence[str]) -> str:
    if 0 <= seat < len(names):
        return names[seat]
    return translate(locale, "core.seat", number=seat + 1)


def _enum_name(game: str, value: StrEnum, locale: str | None) -> str:
    key = f"{game}.{_enum_domain(type(value))}.{value.value}"
    return translate(locale, key) if has_key(key, locale or "") else value.value


@cache
def _enum_domain(enum: type[StrEnum]) -> str:
    return _CAMEL_BOUNDARY.sub("_", enum.__name__).lower().removesuffix("_kind")
