"""Message catalogues and plural-aware formatting; no Discord here.

Catalogues are TOML files under ``locales/<lang>/<domain>.toml``; a key is ``<domain>.<path>``
(``coup.card.duke``). Messages are ``str.format`` templates with one extra spec for plurals:
``{n:plural:монета|монеты|монет}`` picks the CLDR form of ``n`` for the locale (Russian: one, few,
many; English: one, other) and prints only the word, so write ``{n} {n:plural:coin|coins}``.

>>> translate("ru", "core.test.coins", n=21)
'21 монета'
>>> translate("ru", "core.test.coins", n=12)
'12 монет'
>>> translate("en", "core.test.coins", n=1)
'1 coin'
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_LOCALE = "ru"
SUPPORTED_LOCALES = ("ru", "en")
_LOCALES_DIR = Path(__file__).parent / "locales"


def normalize_locale(locale: str | None) -> str:
    """Map a Discord locale (``ru``, ``en-US``, ``en-GB``, ``uk`` …) to a catalogue we have.

    A language we have no catalogue for gets English, Ukrainian and Belarusian included: nobody is
    given Russian they did not ask for (a member may choose it with the language command).

    >>> normalize_locale("en-GB"), normalize_locale("ru"), normalize_locale("uk"), normalize_locale("de")
    ('en', 'ru', 'en', 'en')
    """
    if not locale:
        return DEFAULT_LOCALE
    lang = locale.split("-")[0].lower()
    if lang in SUPPORTED_LOCALES:
        return lang
    return "en"


def plural_form(locale: str, n: int) -> int:
    """Return the index of the CLDR plural form of ``n``: ru → one/few/many, en → one/other."""
    n = abs(n)
    if normalize_locale(locale) == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


def _flatten(prefix: str, data: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in data.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


@cache
def catalogue(locale: str) -> dict[str, str]:
    """Return every message of ``locale`` keyed by its dotted key."""
    out: dict[str, str] = {}
    for path in sorted((_LOCALES_DIR / locale).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), out)
    return out


def _format_field(locale: str, value: Any, spec: str) -> str:
    """Format one field: ``plural:one|few|many`` picks the locale's plural form, else ``format``."""
    if spec.startswith("plural:"):
        forms = spec.removeprefix("plural:").split("|")
        return forms[min(plural_form(locale, int(value)), len(forms) - 1)]
    return str(format(value, spec))


class _Formatter(string.Formatter):
    def __init__(self, locale: str) -> None:
        self.locale = locale

    def format_field(self, value: Any, format_spec: str) -> str:
        return _format_field(self.locale, value, format_spec)


#: One piece of a compiled template: literal text, then a field (name, spec, conversion) or none.
_Piece = tuple[str, str | None, str, str | None]


@cache
def _compile(template: str) -> tuple[_Piece, ...] | None:
    """Split ``template`` once into its pieces; ``None`` if it needs the full ``str.format`` machinery.

    A panel formats dozens of messages per click, and ``string.Formatter`` re-parses each template
    every time; plain ``{name}`` / ``{name:spec}`` fields (all our catalogues use) are filled from the
    cached pieces instead. Attribute or index fields and nested specs take the general road. A
    command placeholder ``{/coup new}`` is kept as literal text.
    """
    pieces: list[_Piece] = []
    try:
        for literal, field, spec, conversion in _PARSER.parse(template):
            if field is not None and field.startswith("/") and not spec and conversion is None:
                # A command placeholder ({/coup new}) stays as written: it becomes a clickable
                # mention where the text is shown (bot.ui.commands.fill_commands).
                pieces.append((literal + "{" + field + "}", None, "", None))
                continue
            if field is not None and (not field.isidentifier() or "{" in (spec or "")):
                return None
            pieces.append((literal, field, spec or "", conversion))
    except ValueError:
        return None
    return tuple(pieces)


_PARSER = string.Formatter()
_CONVERSIONS: dict[str, Callable[[object], str]] = {"s": str, "r": repr, "a": ascii}


def _fill(locale: str, pieces: tuple[_Piece, ...], params: Mapping[str, Any]) -> str:
    out: list[str] = []
    for literal, field, spec, conversion in pieces:
        out.append(literal)
        if field is None:
            continue
        value = params[field]
        if conversion is not None:
            value = _CONVERSIONS[conversion](value)
        out.append(_format_field(locale, value, spec))
    return "".join(out)


def has_key(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    """Return whether ``key`` exists in ``locale`` (or the default catalogue)."""
    loc = normalize_locale(locale)
    return key in catalogue(loc) or key in catalogue(DEFAULT_LOCALE)


def translate(locale: str | None, key: str, /, **params: Any) -> str:
    """Return the message ``key`` in ``locale`` formatted with ``params``.

    Falls back to the default locale, then to the key itself, so a missing string never raises.
    """
    loc = normalize_locale(locale)
    template = catalogue(loc).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if template is None:
        return key
    pieces = _compile(template)
    try:
        if pieces is None:
            return _Formatter(loc).format(template, **params)
        return _fill(loc, pieces, params)
    except (KeyError, IndexError, ValueError):
        return template


t = translate
