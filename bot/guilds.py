"""Server settings as the bot applies them, and which language public and private text is in.

No Discord here: the callers pass what an interaction says (its locales, whether the server is a
Community server) and what storage holds (:class:`~bot.storage.GuildSettingsRow`).

* :data:`SERVER_SETTINGS` lists what ``/settings`` shows and changes, each with its range and its
  default (the environment's :class:`~bot.settings.Settings` or a constant of :mod:`bot.tables`).
* :func:`public_locale` picks a new table's language: the table's own choice, the server's setting,
  the server's locale where Discord lets the server choose one (Community servers; every other
  server reports ``en-US`` whatever its people speak), the opener's client language if we have a
  catalogue for it, then the bot's default.
* :func:`private_locale` picks a member's private language: their stored choice, else their client
  language where we have a catalogue, else English.
* :class:`MemberLanguages` keeps the chosen languages in memory, so the language of every private
  answer costs a dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from bot.i18n import SUPPORTED_LOCALES, normalize_locale
from bot.settings import Settings
from bot.storage import GuildSettingsRow
from bot.tables import DEFAULT_ARCHIVE_MINUTES, DEFAULT_REACTION_SECONDS

if TYPE_CHECKING:
    import discord

#: Discord's feature flag of a Community server: only such a server can choose its own locale.
COMMUNITY: Final = "COMMUNITY"
#: The language of private text when a member's client speaks a language we have no catalogue for.
FALLBACK_PRIVATE_LOCALE: Final = "en"

#: The decision clock a table may have (seconds), as the ``clock`` option of every ``/… new``.
MIN_CLOCK, MAX_CLOCK = 15, 3600
#: The reaction clock a table may have (seconds): long enough to read a move, short enough not to stall.
MIN_REACTION, MAX_REACTION = 5, 120
#: Minutes before a finished game's thread is archived: 0 (never) to a week.
MIN_ARCHIVE, MAX_ARCHIVE = 0, 7 * 24 * 60


@dataclass(frozen=True, slots=True)
class ServerSetting:
    """One setting of ``/settings``: its storage column, its bounds and where its default comes from.

    ``kind`` is ``"locale"``, ``"int"`` or ``"bool"``; ``minimum``/``maximum`` bound an ``int``.
    """

    name: str
    kind: str
    default: Callable[[Settings], Any]
    minimum: int = 0
    maximum: int = 0


SERVER_SETTINGS: Final = (
    ServerSetting("locale", "locale", lambda s: normalize_locale(s.default_locale)),
    ServerSetting("clock_seconds", "int", lambda s: s.default_clock_seconds, MIN_CLOCK, MAX_CLOCK),
    ServerSetting("reaction_seconds", "int", lambda _: DEFAULT_REACTION_SECONDS, MIN_REACTION, MAX_REACTION),
    ServerSetting("reminders", "bool", lambda _: True),
    ServerSetting("archive_minutes", "int", lambda _: DEFAULT_ARCHIVE_MINUTES, MIN_ARCHIVE, MAX_ARCHIVE),
    # The caps' bounds are those of MAX_LOBBIES_PER_MEMBER and MAX_TABLES_PER_SERVER (bot.settings).
    ServerSetting("max_lobbies_per_member", "int", lambda s: s.max_lobbies_per_member, 1, 100),
    ServerSetting("max_tables", "int", lambda s: s.max_tables_per_server, 1, 10_000),
)
SETTINGS_BY_NAME: Final = {setting.name: setting for setting in SERVER_SETTINGS}


def effective(server: GuildSettingsRow, settings: Settings) -> dict[str, Any]:
    """Return every setting's value in force for ``server``: its own choice, else the default."""
    out: dict[str, Any] = {}
    for setting in SERVER_SETTINGS:
        chosen = getattr(server, setting.name)
        out[setting.name] = setting.default(settings) if chosen is None else chosen
    return out


def table_options(
    options: Mapping[str, Any], server: GuildSettingsRow, settings: Settings, *, reaction_clock: int | None = None
) -> dict[str, Any]:
    """Return a new lobby's options with the server's settings filled in where the table chose nothing.

    ``clock``: the table's own, else the server's, else ``DEFAULT_CLOCK_SECONDS``. A server's clock
    is an explicit choice for all its tables, so it also replaces the per-decision clocks a game's
    rules suggest (``clock_by_decision``, Интриги). ``reaction_clock``: the table's option, else the
    server's, else :data:`~bot.tables.DEFAULT_REACTION_SECONDS`. ``reminders`` and
    ``archive_minutes`` come from the server (or their defaults). A rematch copies its table's
    options, so it keeps them.
    """
    values = effective(server, settings)
    out = dict(options)
    if out.get("clock") is None:
        out["clock"] = values["clock_seconds"]
        if server.clock_seconds is not None:
            out.pop("clock_by_decision", None)
    else:
        out.pop("clock_by_decision", None)  # the host named one clock for every decision
    out["reaction_clock"] = reaction_clock if reaction_clock is not None else values["reaction_seconds"]
    out["reminders"] = values["reminders"]
    out["archive_minutes"] = values["archive_minutes"]
    return out


def catalogue_locale(locale: str | None) -> str | None:
    """Return our catalogue for a Discord locale (``en-GB`` → ``en``), or ``None`` if we have none."""
    if not locale:
        return None
    lang = locale.split("-")[0].lower()
    return lang if lang in SUPPORTED_LOCALES else None


def public_locale(
    *,
    table_choice: str | None,
    server_choice: str | None,
    guild_locale: str | None,
    community: bool,
    client_locale: str | None,
    default: str,
) -> str:
    """Return the language of a new table's public text (lobby, thread, board, log).

    >>> public_locale(table_choice=None, server_choice=None, guild_locale="en-US", community=False,
    ...               client_locale="de", default="ru")
    'ru'
    >>> public_locale(table_choice=None, server_choice=None, guild_locale="en-US", community=True,
    ...               client_locale="ru", default="ru")
    'en'
    """
    for candidate in (table_choice, server_choice, guild_locale if community else None, client_locale):
        found = catalogue_locale(candidate)
        if found is not None:
            return found
    return normalize_locale(default)


def private_locale(chosen: str | None, client_locale: str | None) -> str:
    """Return the language of a member's private text: their choice, their client's, else English.

    >>> private_locale(None, "uk"), private_locale("ru", "uk"), private_locale(None, "ru")
    ('en', 'ru', 'ru')
    """
    return chosen or catalogue_locale(client_locale) or FALLBACK_PRIVATE_LOCALE


def interaction_locale(interaction: discord.Interaction) -> str:
    """Return the language of private text for whoever made ``interaction`` (see :func:`private_locale`).

    The chosen languages are those the bot holds in memory (its ``languages``, a :class:`MemberLanguages`);
    a client without them (a bare ``discord.Client``) follows the member's client language.
    """
    languages = getattr(interaction.client, "languages", None)
    chosen = languages.get(interaction.user.id) if isinstance(languages, MemberLanguages) else None
    return private_locale(chosen, str(interaction.locale) if interaction.locale else None)


class MemberLanguages:
    """The languages members chose for private text, held in memory by this process.

    Loaded from storage when the bot starts (:meth:`load`) and updated by the language command
    (:meth:`remember`, after it is stored). Reading is a dictionary look-up, so it fits the
    synchronous :func:`bot.ui.interactions.user_locale` that every answer calls.

    Across processes sharing one database (shards), a choice made through one process is stored at
    once, but another process learns it only when it next starts: until then a member it serves keeps
    their previous language there (their client's, or their earlier choice).
    """

    def __init__(self) -> None:
        """Start empty (every member follows their client until :meth:`load`)."""
        self._chosen: dict[int, str] = {}

    def load(self, chosen: Mapping[int, str]) -> None:
        """Replace what is held with ``chosen`` (user id → catalogue locale), as read from storage."""
        self._chosen = {user: locale for user, locale in chosen.items() if locale in SUPPORTED_LOCALES}

    def get(self, user_id: int) -> str | None:
        """Return the member's chosen language, or ``None`` if they follow their client."""
        return self._chosen.get(user_id)

    def remember(self, user_id: int, locale: str | None) -> None:
        """Hold a choice just stored (``None``: the member follows their client again)."""
        if locale is None:
            self._chosen.pop(user_id, None)
        else:
            self._chosen[user_id] = locale

    def __len__(self) -> int:
        """Return how many members chose a language."""
        return len(self._chosen)
