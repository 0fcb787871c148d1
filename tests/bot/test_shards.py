"""Shard ownership: Discord's guild → shard rule, shard id lists, and the settings that name them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings
from bot.shards import Shards, parse_shard_ids, shard_of


def test_shard_of_follows_discords_formula() -> None:
    # The guild id's timestamp part (above bit 22) modulo the shard count.
    assert shard_of(0, 4) == 0
    assert shard_of((5 << 22) | 0x3FFFFF, 4) == 1  # the low 22 bits never matter
    assert shard_of(1 << 22, 1) == 0
    with pytest.raises(ValueError, match="at least 1"):
        shard_of(1, 0)


@pytest.mark.parametrize(
    ("text", "count", "expected"),
    [("0", 1, (0,)), ("0-3", 8, (0, 1, 2, 3)), ("4-5, 0", 8, (0, 4, 5)), ("7", 8, (7,)), ("1,3", 4, (1, 3))],
)
def test_parse_shard_ids(text: str, count: int, expected: tuple[int, ...]) -> None:
    assert parse_shard_ids(text, count) == expected


@pytest.mark.parametrize(
    ("text", "error"),
    [("", "empty"), ("0,,1", "empty"), ("a", "numbers"), ("3-1", "backwards"), ("0-2,2", "twice"), ("4", "below")],
)
def test_bad_shard_ids_are_refused(text: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        parse_shard_ids(text, 4)


def test_shards_own_the_guilds_discord_routes_to_them() -> None:
    mine = Shards.of(4, [1, 2])
    guilds = [n << 22 for n in range(16)]
    assert [guild for guild in guilds if mine.owns(guild)] == [g for g in guilds if shard_of(g, 4) in (1, 2)]
    assert not mine.is_all
    assert Shards.of(3).is_all and Shards.of(3).ids == frozenset({0, 1, 2})
    assert str(mine) == "shards 1,2 of 4"
    with pytest.raises(ValueError, match="below"):
        Shards.of(2, [2])
    with pytest.raises(ValueError, match="non-empty"):
        Shards.of(2, [])


def test_processes_splitting_the_shards_own_every_guild_once() -> None:
    processes = [Shards.of(6, parse_shard_ids(ids, 6)) for ids in ("0-1", "2-3", "4-5")]
    for guild in ((n << 22) + n for n in range(100)):
        assert sum(process.owns(guild) for process in processes) == 1


def _settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


def test_settings_default_to_one_process_on_sqlite() -> None:
    settings = _settings()
    assert settings.shards == Shards.of(1)
    assert settings.database_target == "data/bot.sqlite3"


def test_settings_name_this_processes_shards_and_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "8")
    monkeypatch.setenv("SHARD_IDS", "4-7")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db:5432/bot")
    monkeypatch.setenv("DATABASE_POOL_SIZE", "25")
    settings = _settings()
    assert settings.shards == Shards.of(8, [4, 5, 6, 7])
    assert settings.database_target == "postgresql://bot:secret@db:5432/bot"
    assert settings.database_pool_size == 25
    assert "secret" not in repr(settings)


def test_empty_settings_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_IDS", "")
    monkeypatch.setenv("DATABASE_URL", " ")
    settings = _settings()
    assert settings.shard_ids is None and settings.database_url is None
    assert settings.shards.is_all


@pytest.mark.parametrize(
    "values",
    [
        {"shard_count": 2, "shard_ids": "2"},
        {"shard_count": 0},
        {"database_url": "mysql://x"},
        {"database_pool_size": 0},
    ],
)
def test_bad_settings_fail_at_start_up(values: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        _settings(**values)


def test_the_example_env_file_loads_as_one_process_on_sqlite() -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    settings = Settings(_env_file=example)
    assert settings.shards == Shards.of(1)
    assert settings.database_url is None and settings.dev_guild_id is None
    assert settings.database_target == "data/bot.sqlite3"
