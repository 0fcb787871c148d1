"""Run the bot: ``python -m bot`` (or ``make run``)."""

from __future__ import annotations

import logging
import os
import sys

from pydantic import ValidationError

from bot.app import create_bot
from bot.settings import Settings

#: discord.py loggers that write request, response or gateway payloads at DEBUG: private panels,
#: hidden cards and interaction tokens (which let anyone answer as the bot for 15 minutes).
BODY_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook")

SETUP_HELP = """\
No Discord bot token found.

1. Open https://discord.com/developers/applications and click "New Application".
2. In "Bot", press "Reset Token" and copy the token.
3. Put it in a file named .env next to this README:  DISCORD_TOKEN=your-token
   (copy .env.example to .env and fill it in).
4. Invite the bot: in "OAuth2 → URL Generator" tick the scopes "bot" and "applications.commands"
   and the permissions Send Messages, Send Messages in Threads, Create Public Threads,
   Embed Links, Attach Files, Read Message History; open the generated URL.
Then run `make run` again.
"""


def describe_settings_error(error: ValidationError) -> str:
    """Explain a rejected configuration by setting name and problem only.

    Pydantic's own text quotes each rejected input, and for a model-wide check the whole
    configuration: the token and the database password with it. Only ``loc`` and ``msg`` are used.
    """
    lines = ["The configuration (.env or environment) is not valid:"]
    for problem in error.errors(include_url=False, include_context=False, include_input=False):
        setting = ".".join(str(part) for part in problem["loc"]).upper()
        lines.append(f"  {setting}: {problem['msg']}" if setting else f"  {problem['msg']}")
    return "\n".join(lines) + "\n"


def configure_logging(settings: Settings) -> None:
    """Log at ``LOG_LEVEL``, but keep discord.py's payload loggers at INFO unless ``LOG_DISCORD_HTTP``."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(settings.log_level)  # also when a handler was installed before
    for name in BODY_LOGGERS:
        logger = logging.getLogger(name)
        if settings.log_discord_http:
            logger.setLevel(logging.NOTSET)  # follow LOG_LEVEL
        else:
            logger.setLevel(max(logging.INFO, logging.getLogger().getEffectiveLevel()))


def main() -> int:
    """Start the bot, or explain what is missing from its configuration."""
    try:
        settings = Settings()
    except ValidationError as error:
        sys.stderr.write(describe_settings_error(error))
        return 2
    configure_logging(settings)
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write(SETUP_HELP)
        return 2
    if settings.database_url is None:  # SQLite: make the file's folder; PostgreSQL needs nothing here
        os.makedirs(os.path.dirname(settings.database_path) or ".", exist_ok=True)
    bot = create_bot(settings)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
