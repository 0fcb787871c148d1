"""``python -m bot``: a bad configuration is explained without its secrets, and DEBUG logs no payloads."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import BODY_LOGGERS, configure_logging, main
from bot.settings import Settings

TOKEN = "MTAyNDk.secret-token-Gx7.abcdefghijklmnop"  # noqa: S105 - a fake, to prove it is never printed
PASSWORD = "hunter2-db-password"  # noqa: S105 - a fake, to prove it is never printed


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """Run from an empty folder (no ``.env``) with no bot setting inherited from the shell."""
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    return monkeypatch


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Give the root and discord.py loggers their levels back after a test configured them."""
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in BODY_LOGGERS)]
    levels = [logger.level for logger in loggers]
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("DATABASE_URL", f"mysql://bot:{PASSWORD}@db.example:3306/bot"),
        ("DATABASE_POOL_SIZE", PASSWORD),
        ("SHARD_IDS", "9"),
    ],
)
def test_a_bad_setting_is_named_without_any_value(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], setting: str, value: str
) -> None:
    clean_env.setenv("DISCORD_TOKEN", TOKEN)
    clean_env.setenv("SHARD_COUNT", "2")
    clean_env.setenv(setting, value)
    assert main() == 2
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert setting in output
    assert TOKEN not in output
    assert PASSWORD not in output
    assert "input_value" not in output


def test_the_database_url_problem_says_what_is_expected(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_env.setenv("DATABASE_URL", f"sqlite:///{PASSWORD}")
    assert main() == 2
    err = capsys.readouterr().err
    assert "DATABASE_URL: Value error, DATABASE_URL must start with postgresql:// or postgres://" in err
    assert PASSWORD not in err


def test_an_unknown_log_level_is_refused(clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clean_env.setenv("LOG_LEVEL", "LOUD")
    assert main() == 2
    assert "LOG_LEVEL" in capsys.readouterr().err


@pytest.mark.usefixtures("restore_logging")
def test_debug_keeps_discord_payload_loggers_at_info() -> None:
    configure_logging(Settings(_env_file=None, log_level="debug"))
    assert logging.getLogger().getEffectiveLevel() == logging.DEBUG
    assert logging.getLogger("bot.tables").isEnabledFor(logging.DEBUG)
    for name in (*BODY_LOGGERS, "discord.webhook.async_", "discord.webhook.sync"):
        assert logging.getLogger(name).getEffectiveLevel() == logging.INFO, name


@pytest.mark.usefixtures("restore_logging")
def test_log_discord_http_lets_the_payload_loggers_follow_the_level() -> None:
    configure_logging(Settings(_env_file=None, log_level="DEBUG", log_discord_http=True))
    for name in BODY_LOGGERS:
        assert logging.getLogger(name).getEffectiveLevel() == logging.DEBUG, name


@pytest.mark.usefixtures("restore_logging")
def test_a_quieter_level_stays_quieter_for_discord_too() -> None:
    configure_logging(Settings(_env_file=None, log_level="WARNING"))
    assert logging.getLogger("discord.http").getEffectiveLevel() == logging.WARNING
