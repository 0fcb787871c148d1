"""Configuration from the environment and ``.env`` (pydantic-settings); see ``.env.example``."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.shards import Shards, parse_shard_ids
from bot.storage.base import is_postgres_url


class Settings(BaseSettings):
    """Every setting the bot reads; each has an ``.env`` key of the same name in upper case."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Developer Portal.")
    database_path: str = Field(default="data/bot.sqlite3", description="SQLite file; created on first run.")
    database_url: SecretStr | None = Field(
        default=None, description="postgresql://user:password@host:port/db; when set, used instead of SQLite."
    )
    database_pool_size: int = Field(
        default=10, ge=1, le=100, description="Most PostgreSQL connections this process opens (SQLite: unused)."
    )
    shard_count: int = Field(
        default=1, ge=1, le=10_000, description="Gateway shards over all processes; the same in every one."
    )
    shard_ids: str | None = Field(default=None, description="The shards this process runs: 0-3, 0,2 … (empty: all).")
    default_locale: str = Field(
        default="ru", description="Language of new tables' public text when nothing else decides it."
    )
    dev_guild_id: int | None = Field(default=None, description="Sync slash commands to this guild at once.")
    ai_delay_seconds: float = Field(default=1.5, ge=0, le=30, description="Pause before an AI seat acts.")
    board_edit_interval: float = Field(default=0.6, ge=0, le=10, description="Coalesce board edits per table.")
    default_clock_seconds: int = Field(default=90, ge=15, le=3600, description="Default decision clock.")
    timeouts_before_autopilot: int = Field(
        default=2, ge=1, le=10, description="Timeouts in a row → AI plays (a game's own rule wins)."
    )
    log_level: str = Field(default="INFO", description="Python logging level.")
    lobby_expiry_minutes: int = Field(
        default=30, ge=1, le=1440, description="A lobby not started within this many minutes is cancelled."
    )
    max_lobbies_per_member: int = Field(
        default=3, ge=1, le=100, description="Open lobbies one member may host in one server at once."
    )
    max_tables_per_server: int = Field(
        default=50, ge=1, le=10_000, description="Live tables (lobbies and games in play) one server may hold."
    )
    open_table_cooldown_seconds: float = Field(
        default=20, ge=0, le=3600, description="Seconds a member waits between two /… new commands (0: none)."
    )
    click_burst: int = Field(
        default=5, ge=0, le=1000, description="Clicks a member may make at once before “too fast” (0: no limit)."
    )
    clicks_per_second: float = Field(
        default=1.0, gt=0, le=100, description="Clicks per second a member regains after a burst."
    )
    log_discord_http: bool = Field(
        default=False,
        description="Let discord.py's HTTP, gateway and webhook loggers write DEBUG lines: request and "
        "response bodies, private panels and interaction tokens. Off: they stay at INFO whatever LOG_LEVEL says.",
    )

    @field_validator("database_url", "shard_ids", "dev_guild_id", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        """Read an empty ``.env`` value (``SHARD_IDS=``, ``DEV_GUILD_ID=`` as in ``.env.example``) as not set."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level")
    @classmethod
    def _check_log_level(cls, value: str) -> str:
        """Accept a level name of Python's logging in any case (``debug``, ``INFO`` …)."""
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: SecretStr | None) -> SecretStr | None:
        """Refuse a URL of another database; the message never quotes it (it holds the password)."""
        if value is not None and not is_postgres_url(value.get_secret_value()):
            raise ValueError("DATABASE_URL must start with postgresql:// or postgres://")
        return value

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        if self.shard_ids is not None:
            try:
                parse_shard_ids(self.shard_ids, self.shard_count)
            except ValueError as error:  # a check of two settings has no single field: name them
                raise ValueError(f"SHARD_IDS with SHARD_COUNT={self.shard_count}: {error}") from None
        return self

    @property
    def shards(self) -> Shards:
        """Return the shards this process runs (all of them without ``SHARD_IDS``)."""
        ids = None if self.shard_ids is None else parse_shard_ids(self.shard_ids, self.shard_count)
        return Shards.of(self.shard_count, ids)

    @property
    def database_target(self) -> str:
        """Return what ``Storage.open`` should open: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_path if self.database_url is None else self.database_url.get_secret_value()
