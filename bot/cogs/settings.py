"""``/settings`` (localized ``/настройки``): a server's settings; ``/language`` (``/язык``): a member's language.

``/settings`` is for members who may Manage Server: Discord hides it from others by default
(``default_permissions``), and every subcommand checks the permission again, because a server may
grant the command to anyone in its integration settings. ``/settings show`` lists every setting
with its value and default; each other subcommand changes one setting and answers with the same
list. A value left empty returns the setting to the default, so a server that never chose follows
the bot's defaults (:data:`bot.guilds.SERVER_SETTINGS`). Answers are private.

``/language`` stores the caller's language for private text (Russian, English, or their Discord
client's) and answers in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.guilds import SERVER_SETTINGS, SETTINGS_BY_NAME, effective, interaction_locale
from bot.i18n import translate
from bot.tables import TableError
from bot.translator import cmd
from bot.ui.interactions import send_private, user_locale
from bot.ui.panels import COLOUR, Payload

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.storage import GuildSettingsRow

#: A table's or server's public language: names in their own language, so they need no translation.
LANGUAGE_CHOICES = [app_commands.Choice(name="Русский", value="ru"), app_commands.Choice(name="English", value="en")]
#: The value of ``/language`` that forgets a choice (the member follows their Discord client again).
FOLLOW_DISCORD = "discord"
CHANNEL_ACTIONS = [
    app_commands.Choice(name=cmd("add", "settings.action_add"), value="add"),
    app_commands.Choice(name=cmd("remove", "settings.action_remove"), value="remove"),
    app_commands.Choice(name=cmd("any channel", "settings.action_clear"), value="clear"),
]


def check_range(locale: str, option_key: str, value: int | None, setting: str) -> None:
    """Refuse ``value`` outside ``setting``'s bounds, naming the option as the user's client shows it.

    Raises:
        TableError: ``ui.error.option_range``.
    """
    spec = SETTINGS_BY_NAME[setting]
    if value is not None and not spec.minimum <= value <= spec.maximum:
        name = translate(locale, f"cmd.{option_key}")
        raise TableError("ui.error.option_range", name=name, min=spec.minimum, max=spec.maximum)


def format_value(locale: str, setting: str, value: Any) -> str:
    """Return a setting's value as the overview shows it (``90 s``, ``on``, ``English`` …)."""
    if setting == "locale":
        return translate(locale, f"guild.language.name.{value}")
    if setting == "reminders":
        return translate(locale, "guild.settings.on" if value else "guild.settings.off")
    if setting in {"clock_seconds", "reaction_seconds"}:
        return translate(locale, "guild.settings.seconds", n=value)
    if setting == "archive_minutes":
        if not value:
            return translate(locale, "guild.settings.never")
        return translate(locale, "guild.settings.minutes", n=value)
    return str(value)


def overview(server: GuildSettingsRow, bot: TableBot, locale: str, changed: str | None = None) -> Payload:
    """Return the private embed listing every setting: its value, and its default when it was changed."""
    embed = discord.Embed(title=translate(locale, "guild.settings.title"), colour=COLOUR)
    if changed is not None:
        embed.description = translate(locale, "guild.settings.changed", name=changed)
    values = effective(server, bot.settings)
    for spec in SERVER_SETTINGS:
        value = format_value(locale, spec.name, values[spec.name])
        if getattr(server, spec.name) is None:
            text = translate(locale, "guild.settings.value_default", value=value)
        else:
            default = format_value(locale, spec.name, spec.default(bot.settings))
            text = translate(locale, "guild.settings.value_chosen", value=value, default=default)
        embed.add_field(name=translate(locale, f"guild.settings.name.{spec.name}"), value=text, inline=False)
    if server.channels:
        channels = " ".join(f"<#{channel}>" for channel in server.channels)
    else:
        anywhere = translate(locale, "guild.settings.any_channel")
        channels = translate(locale, "guild.settings.value_default", value=anywhere)
    embed.add_field(name=translate(locale, "guild.settings.name.channels"), value=channels[:1024], inline=False)
    embed.set_footer(text=translate(locale, "guild.settings.footer"))
    return Payload(embed=embed)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    commands.GroupCog,
    group_name=cmd("settings", "settings.name"),
    group_description=cmd("The bot's settings in this server (Manage Server)", "settings.description"),
):
    """Show and change this server's settings."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot
        super().__init__()

    @staticmethod
    def _guard(interaction: discord.Interaction) -> int:
        """Return the server's id if the caller may Manage Server there (Administrator implies it).

        Checked in each command's body rather than in a cog check: an error raised in a check would
        bypass the bot's private error answers (:mod:`bot.errors`).

        Raises:
            TableError: ``guild.error.manage_server``, or ``ui.error.no_guild`` outside a server.
        """
        if interaction.guild_id is None:
            raise TableError("ui.error.no_guild")
        if not interaction.permissions.manage_guild:
            raise TableError("guild.error.manage_server")
        return interaction.guild_id

    async def _change(self, interaction: discord.Interaction, setting: str, value: str | int | bool | None) -> None:
        """Store one setting (``None``: back to the default) and answer with the overview."""
        guild_id = self._guard(interaction)
        await self.bot.storage.set_guild_setting(guild_id, setting, value, now=self.bot.service.now())
        await self._answer(interaction, translate(user_locale(interaction), f"guild.settings.name.{setting}"))

    async def _answer(self, interaction: discord.Interaction, changed: str | None) -> None:
        server = await self.bot.storage.guild_settings(self._guard(interaction))
        await send_private(interaction, overview(server, self.bot, user_locale(interaction), changed))

    @app_commands.command(
        name=cmd("show", "settings.show_name"),
        description=cmd("Show every setting with its value and default", "settings.show_description"),
    )
    async def show(self, interaction: discord.Interaction) -> None:
        """Show every setting privately."""
        await self._answer(interaction, None)

    @app_commands.command(
        name=cmd("language", "settings.language_name"),
        description=cmd("Language of new tables' public text", "settings.language_description"),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(
        value=cmd("The language (leave empty for the default)", "settings.language_value_description")
    )
    @app_commands.choices(value=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, value: str | None = None) -> None:
        """Set the public language of new tables (a table's own ``language`` option still wins)."""
        await self._change(interaction, "locale", value)

    @app_commands.command(
        name=cmd("clock", "settings.clock_name"),
        description=cmd("Default seconds for each decision of a new table", "settings.clock_description"),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(value=cmd("Seconds (leave empty for the default)", "settings.seconds_value_description"))
    async def clock(self, interaction: discord.Interaction, value: int | None = None) -> None:
        """Set the decision clock of tables opened without a ``clock`` option."""
        self._guard(interaction)
        check_range(user_locale(interaction), "settings.clock_name", value, "clock_seconds")
        await self._change(interaction, "clock_seconds", value)

    @app_commands.command(
        name=cmd("reaction_clock", "settings.reaction_clock_name"),
        description=cmd("Seconds for a reaction window (challenge, block)", "settings.reaction_clock_description"),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(value=cmd("Seconds (leave empty for the default)", "settings.seconds_value_description"))
    async def reaction_clock(self, interaction: discord.Interaction, value: int | None = None) -> None:
        """Set the clock of reaction windows at tables opened without a ``reaction_clock`` option."""
        self._guard(interaction)
        check_range(user_locale(interaction), "settings.reaction_clock_name", value, "reaction_seconds")
        await self._change(interaction, "reaction_seconds", value)

    @app_commands.command(
        name=cmd("reminders", "settings.reminders_name"),
        description=cmd("Remind awaited players when a fifth of their clock is left", "settings.reminders_description"),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(value=cmd("On or off (leave empty for the default)", "settings.on_value_description"))
    async def reminders(self, interaction: discord.Interaction, value: bool | None = None) -> None:
        """Turn reminders on or off for new tables."""
        await self._change(interaction, "reminders", value)

    @app_commands.command(
        name=cmd("archive", "settings.archive_name"),
        description=cmd(
            "Minutes after the end before a game's thread is archived and locked", "settings.archive_description"
        ),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(
        value=cmd("Minutes, 0 for never (leave empty for the default)", "settings.minutes_value_description")
    )
    async def archive(self, interaction: discord.Interaction, value: int | None = None) -> None:
        """Set how long a finished game's thread stays open."""
        self._guard(interaction)
        check_range(user_locale(interaction), "settings.archive_name", value, "archive_minutes")
        await self._change(interaction, "archive_minutes", value)

    @app_commands.command(
        name=cmd("lobbies", "settings.lobbies_name"),
        description=cmd("How many open lobbies one member may host at once", "settings.lobbies_description"),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(value=cmd("How many (leave empty for the default)", "settings.count_value_description"))
    async def lobbies(self, interaction: discord.Interaction, value: int | None = None) -> None:
        """Set the cap on open lobbies per member (instead of ``MAX_LOBBIES_PER_MEMBER``)."""
        self._guard(interaction)
        check_range(user_locale(interaction), "settings.lobbies_name", value, "max_lobbies_per_member")
        await self._change(interaction, "max_lobbies_per_member", value)

    @app_commands.command(
        name=cmd("tables", "settings.tables_name"),
        description=cmd("How many live tables (lobbies and games) the server may hold", "settings.tables_description"),
    )
    @app_commands.rename(value=cmd("value", "settings.value_name"))
    @app_commands.describe(value=cmd("How many (leave empty for the default)", "settings.count_value_description"))
    async def tables(self, interaction: discord.Interaction, value: int | None = None) -> None:
        """Set the cap on the server's live tables (instead of ``MAX_TABLES_PER_SERVER``)."""
        self._guard(interaction)
        check_range(user_locale(interaction), "settings.tables_name", value, "max_tables")
        await self._change(interaction, "max_tables", value)

    @app_commands.command(
        name=cmd("channels", "settings.channels_name"),
        description=cmd("Where tables may be opened (any channel by default)", "settings.channels_description"),
    )
    @app_commands.rename(action=cmd("action", "settings.action_name"), channel=cmd("channel", "settings.channel_name"))
    @app_commands.describe(
        action=cmd("Add or remove a channel, or allow every channel again", "settings.action_description"),
        channel=cmd("The channel to add or remove", "settings.channel_description"),
    )
    @app_commands.choices(action=CHANNEL_ACTIONS)
    async def channels(
        self, interaction: discord.Interaction, action: str, channel: discord.TextChannel | None = None
    ) -> None:
        """Add a channel to those where tables may be opened, remove one, or allow every channel again."""
        guild_id = self._guard(interaction)
        storage = self.bot.storage
        if action == "clear":
            await storage.clear_guild_channels(guild_id)
        elif channel is None:
            raise TableError("guild.error.channel_needed")
        else:
            await storage.set_guild_channel(guild_id, channel.id, allowed=action == "add")
        await self._answer(interaction, translate(user_locale(interaction), "guild.settings.name.channels"))


class LanguageCog(commands.Cog):
    """A member's language for the bot's private messages."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot

    @app_commands.command(
        name=cmd("language", "language.name"),
        description=cmd("Choose the language of the bot's private messages to you", "language.description"),
    )
    @app_commands.rename(choice=cmd("choice", "language.choice_name"))
    @app_commands.describe(choice=cmd("A language, or your Discord client's", "language.choice_description"))
    @app_commands.choices(
        choice=[
            *LANGUAGE_CHOICES,
            app_commands.Choice(name=cmd("My Discord language", "language.discord_choice"), value=FOLLOW_DISCORD),
        ]
    )
    async def language(self, interaction: discord.Interaction, choice: str) -> None:
        """Store the caller's language (everywhere the bot is) and answer in it."""
        locale = None if choice == FOLLOW_DISCORD else choice
        await self.bot.storage.set_member_locale(interaction.user.id, locale, now=self.bot.service.now())
        self.bot.languages.remember(interaction.user.id, locale)
        now = interaction_locale(interaction)
        if locale is None:
            text = translate(now, "guild.language.follow", language=translate(now, f"guild.language.name.{now}"))
        else:
            text = translate(now, "guild.language.chosen")
        await send_private(interaction, Payload(embed=discord.Embed(description=text, colour=COLOUR)))


async def setup(bot: TableBot) -> None:
    """Load the cogs."""
    await bot.add_cog(SettingsCog(bot))
    await bot.add_cog(LanguageCog(bot))
