-- 0001: tables, seats, the append-only action log, snapshots, clocks, results and ratings.
-- Timestamps are REAL unix seconds. Booleans are INTEGER 0/1. JSON columns are TEXT.

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: old buttons carry it
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    game             TEXT    NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    options          TEXT    NOT NULL DEFAULT '{}',      -- JSON object
    seed             TEXT    NOT NULL,
    locale           TEXT    NOT NULL,                   -- server locale for public text
    state            TEXT,                               -- JSON of the current state; NULL in the lobby
    version          INTEGER NOT NULL DEFAULT -1,        -- engine state version; -1 in the lobby
    rematch_of       INTEGER REFERENCES tables (id),
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
) STRICT;

CREATE INDEX tables_status ON tables (status);
CREATE INDEX tables_guild_status ON tables (guild_id, status);
CREATE INDEX tables_thread ON tables (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE seats (
    table_id        INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,   -- join order in the lobby, never reused within a table
    seat            INTEGER,            -- engine seat 0..n-1 from the start; NULL in the lobby
    user_id         INTEGER,            -- NULL exactly for AI seats
    is_ai           INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    display_name    TEXT    NOT NULL,
    autopilot       INTEGER NOT NULL DEFAULT 0 CHECK (autopilot IN (0, 1)),
    timeouts_in_row INTEGER NOT NULL DEFAULT 0 CHECK (timeouts_in_row >= 0),
    PRIMARY KEY (table_id, position),
    UNIQUE (table_id, seat),
    UNIQUE (table_id, user_id),         -- NULLs are distinct, so any number of AI seats fit
    CHECK (is_ai = (user_id IS NULL))
) STRICT;

CREATE TABLE action_log (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,        -- the state version the action was applied to; 0 is first
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,        -- JSON of the action
    by_timeout INTEGER NOT NULL CHECK (by_timeout IN (0, 1)),
    user_id    INTEGER,                 -- who clicked; NULL for AI, autopilot and timeouts
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER action_log_append_only BEFORE UPDATE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'action_log is append-only');
END;

CREATE TABLE snapshots (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    state    TEXT    NOT NULL,          -- JSON of the state at this version
    PRIMARY KEY (table_id, version)
) STRICT;

CREATE TABLE clocks (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,          -- the state version the clock guards
    deadline REAL    NOT NULL,
    seats    TEXT    NOT NULL           -- JSON list of the seats that time out
) STRICT;

CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    is_ai       INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    rank        INTEGER NOT NULL,       -- 0 is first; equal ranks tie
    score       REAL,
    team        INTEGER,                -- index into the outcome's teams; NULL without teams
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
) STRICT;

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) STRICT;

-- The leaderboard sorts by the ordinal mu - 3 * sigma (bot.ratings.ordinal); queries must spell the
-- expression exactly like this for SQLite to use the index.
CREATE INDEX ratings_leaderboard ON ratings (guild_id, game, (mu - 3 * sigma) DESC);
CREATE INDEX ratings_user ON ratings (guild_id, user_id);

CREATE TABLE rating_changes (
    table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) STRICT;
