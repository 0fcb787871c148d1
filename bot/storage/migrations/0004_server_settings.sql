-- 0004: per-server settings, the channels where a server lets tables be opened, and per-member languages.
--
-- guild_settings: one row per server that changed anything; a NULL column is "not set", and the bot
-- then uses its own default (the environment's setting or the constant in bot/tables.py), so a
-- default changed later applies to every server that never chose.
-- guild_channels: the channels where `/… new` may open a table; no row for a server means any channel.
-- member_settings: a member's chosen language for private text, in every server (no row: the
-- language of their Discord client).

CREATE TABLE guild_settings (
    guild_id               INTEGER PRIMARY KEY,
    locale                 TEXT,                                              -- public language
    clock_seconds          INTEGER CHECK (clock_seconds > 0),                 -- default decision clock
    reaction_seconds       INTEGER CHECK (reaction_seconds > 0),              -- reaction window clock
    reminders              INTEGER CHECK (reminders IN (0, 1)),               -- remind the awaited
    archive_minutes        INTEGER CHECK (archive_minutes >= 0),              -- 0: never archive
    max_lobbies_per_member INTEGER CHECK (max_lobbies_per_member > 0),
    max_tables             INTEGER CHECK (max_tables > 0),                    -- live tables of the server
    updated_at             REAL    NOT NULL
) STRICT;

CREATE TABLE guild_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) STRICT;

CREATE TABLE member_settings (
    user_id    INTEGER PRIMARY KEY,
    locale     TEXT    NOT NULL,                                              -- a catalogue: ru, en
    updated_at REAL    NOT NULL
) STRICT;
