"""The Discord-facing side of the bot: table service, views, cogs, storage, rendering, i18n."""
