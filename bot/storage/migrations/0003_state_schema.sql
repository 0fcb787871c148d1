-- 0003: stored states carry the schema they were written at, and a table whose state no longer
-- loads can be quarantined.
--
-- tables.state_schema / snapshots.state_schema: the game's state schema (games.core.schema) the JSON
-- was written at; rows from before this migration are at 0. A restart upgrades older JSON step by step.
-- status 'quarantined': the state could not be read even so; the table is no longer live (no clock, its
-- players are free) and quarantine_notified records that its thread was told, so it is told once.
--
-- SQLite cannot change a CHECK constraint in place, so `tables` is rebuilt (SQLite's documented
-- twelve-step procedure: the migrator runs with foreign keys off and checks them before committing).

CREATE TABLE tables_new (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER NOT NULL,
    thread_id           INTEGER,
    lobby_message_id    INTEGER,
    board_message_id    INTEGER,
    game                TEXT    NOT NULL,
    host_id             INTEGER NOT NULL,
    status              TEXT    NOT NULL DEFAULT 'lobby'
                        CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'quarantined')),
    options             TEXT    NOT NULL DEFAULT '{}',
    seed                TEXT    NOT NULL,
    locale              TEXT    NOT NULL,
    state               TEXT,
    version             INTEGER NOT NULL DEFAULT -1,
    rematch_of          INTEGER REFERENCES tables (id),
    created_at          REAL    NOT NULL,
    updated_at          REAL    NOT NULL,
    finished_at         REAL,
    state_schema        INTEGER NOT NULL DEFAULT 0,          -- schema of `state`
    quarantine_notified INTEGER NOT NULL DEFAULT 0 CHECK (quarantine_notified IN (0, 1))
) STRICT;

INSERT INTO tables_new (
    id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, game, host_id, status,
    options, seed, locale, state, version, rematch_of, created_at, updated_at, finished_at
)
SELECT
    id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, game, host_id, status,
    options, seed, locale, state, version, rematch_of, created_at, updated_at, finished_at
FROM tables;

-- Keep AUTOINCREMENT's high-water mark: a table id is never reused, even one that was deleted.
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'tables') WHERE name = 'tables_new';

DROP TABLE tables;
ALTER TABLE tables_new RENAME TO tables;

CREATE INDEX tables_status ON tables (status);
CREATE INDEX tables_guild_status ON tables (guild_id, status);
CREATE INDEX tables_thread ON tables (thread_id) WHERE thread_id IS NOT NULL;

ALTER TABLE snapshots ADD COLUMN state_schema INTEGER NOT NULL DEFAULT 0;  -- schema of `state`
