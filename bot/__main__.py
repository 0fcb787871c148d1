"""Run the bot: ``python -m bot`` (or ``make run``)."""

from __future__ import annotations

import logging
import sys

from bot.app import create_bot
from bot.settings import Settings

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


def main() -> int:
    """Start the bot, or explain how to get a token."""
    settings = Settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write(SETUP_HELP)
        return 2
    import os

    if settings.database_url is None:  # SQLite: make the file's folder; PostgreSQL needs nothing here
        os.makedirs(os.path.dirname(settings.database_path) or ".", exist_ok=True)
    bot = create_bot(settings)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
