-- 0004 (PostgreSQL): server settings, allowed channels and member languages, as ../0004_server_settings.sql explains.

CREATE TABLE guild_settings (
    guild_id               bigint  PRIMARY KEY,
    locale                 text,                                              -- public language
    clock_seconds          integer CHECK (clock_seconds > 0),                 -- default decision clock
    reaction_seconds       integer CHECK (reaction_seconds > 0),              -- reaction window clock
    reminders              boolean,                                           -- remind the awaited
    archive_minutes        integer CHECK (archive_minutes >= 0),              -- 0: never archive
    max_lobbies_per_member integer CHECK (max_lobbies_per_member > 0),
    max_tables             integer CHECK (max_tables > 0),                    -- live tables of the server
    updated_at             double precision NOT NULL
);

CREATE TABLE guild_channels (
    guild_id   bigint NOT NULL,
    channel_id bigint NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

CREATE TABLE member_settings (
    user_id    bigint PRIMARY KEY,
    locale     text   NOT NULL,                                               -- a catalogue: ru, en
    updated_at double precision NOT NULL
);
