"""Configuration from the environment and ``.env`` (pydantic-settings); see ``.env.example``."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting the bot reads; each has an ``.env`` key of the same name in upper case."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Developer Portal.")
    database_path: str = Field(default="data/bot.sqlite3", description="SQLite file; created on first run.")
    default_locale: str = Field(default="ru", description="Language of public text when a server has none.")
    dev_guild_id: int | None = Field(default=None, description="Sync slash commands to this guild at once.")
    ai_delay_seconds: float = Field(default=1.5, ge=0, le=30, description="Pause before an AI seat acts.")
    board_edit_interval: float = Field(default=0.6, ge=0, le=10, description="Coalesce board edits per table.")
    default_clock_seconds: int = Field(default=90, ge=15, le=3600, description="Default decision clock.")
    timeouts_before_autopilot: int = Field(default=2, ge=1, le=10, description="Timeouts in a row → AI plays.")
    log_level: str = Field(default="INFO", description="Python logging level.")
