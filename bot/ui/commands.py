"""Clickable mentions of the bot's own slash commands, in the reader's language.

Catalogue texts name a command by a placeholder with its default (English) path: ``{/coup new}``,
``{/leaderboard}``. :func:`bot.i18n.translate` keeps such a placeholder as it is, and
:func:`fill_commands` replaces it when the text is shown, from the command ids Discord returned at
the last sync (:class:`CommandIds`):

- with the id known, a mention ``</coup new:ID>`` that the reader can click. Discord clients draw a
  mention with exactly the name it is written with and do not translate it, and a mention written
  with a localized name is reported not to be clickable (discord/discord-api-docs#5518, #5632,
  #7309). So the mention keeps the default name, and where the reader's language names the command
  differently the localized name follows in brackets: ``</coup new:ID> (/переворот новая)``;
- without it (before the first sync, or in tests that never sync), the plain text of the command
  as the reader's client shows it: ``/переворот новая``.

Localized names come from the ``cmd`` catalogue, which also names the commands for Discord
(:mod:`bot.translator`): a top-level command or group ``x`` is ``cmd.x.name``, its subcommand ``y``
is ``cmd.x.y_name``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Protocol

from bot.i18n import has_key, normalize_locale, translate

#: A command placeholder in a catalogue text: ``{/coup new}``, ``{/leaderboard}``.
PLACEHOLDER = re.compile(r"\{/([a-z_]+(?: [a-z_]+){0,2})\}")


class SyncedCommand(Protocol):
    """What a synced command tells us (``discord.app_commands.AppCommand`` has both)."""

    @property
    def name(self) -> str:
        """The command's default name."""
        ...

    @property
    def id(self) -> int:
        """The id Discord gave the command."""
        ...


class CommandIds:
    """The ids Discord gave the bot's top-level commands (a group's subcommands share its id)."""

    def __init__(self, ids: Mapping[str, int] | None = None) -> None:
        """Start with ``ids`` by default command name (none: every mention falls back to text)."""
        self._ids: dict[str, int] = dict(ids or {})

    def remember(self, commands: Iterable[SyncedCommand]) -> None:
        """Keep the ids of ``commands``, the ``AppCommand`` objects a ``tree.sync()`` returned."""
        for command in commands:
            self._ids[command.name] = command.id

    def get(self, root: str) -> int | None:
        """Return the id of the top-level command ``root``, if it was synced."""
        return self._ids.get(root)

    def __len__(self) -> int:
        """Return how many command ids are known."""
        return len(self._ids)


def command_name(path: str, locale: str) -> str:
    """Return ``path`` (default names, ``"coup new"``) as ``locale``'s clients show it (``"переворот новая"``)."""
    root, *rest = path.split()
    parts = [_localized(f"cmd.{root}.name", root, locale)]
    parts.extend(_localized(f"cmd.{root}.{sub}_name", sub, locale) for sub in rest)
    return " ".join(parts)


def _localized(key: str, default: str, locale: str) -> str:
    return translate(locale, key) if has_key(key, locale) else default


def mention(path: str, locale: str, ids: CommandIds | None) -> str:
    """Return the command ``path`` for a reader in ``locale``: a clickable mention when its id is known."""
    localized = command_name(path, locale)
    command_id = ids.get(path.split()[0]) if ids is not None else None
    if command_id is None:
        return f"/{localized}"
    written = f"</{path}:{command_id}>"
    if localized == path:
        return written
    return translate(locale, "help.mention_localized", mention=written, name=f"/{localized}")


def fill_commands(text: str, locale: str, ids: CommandIds | None) -> str:
    """Replace every command placeholder of ``text`` (``{/coup new}``) with :func:`mention`."""
    lang = normalize_locale(locale)
    return PLACEHOLDER.sub(lambda match: mention(match[1], lang, ids), text)


__all__ = ["PLACEHOLDER", "CommandIds", "SyncedCommand", "command_name", "fill_commands", "mention"]
