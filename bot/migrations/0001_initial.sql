-- 0001: core schema. Applied by bot/storage.py inside one transaction together with
-- `PRAGMA user_version = 1`; never edit an applied migration, add a new numbered file instead.
-- Timestamps are unix seconds (REAL); JSON columns hold TEXT produced by json.dumps.

CREATE TABLE guild_settings (
    guild_id              INTEGER PRIMARY KEY,
    locale                TEXT    NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ru')),
    default_preset        TEXT    NOT NULL DEFAULT 'podkidnoy',
    default_options       TEXT    NOT NULL DEFAULT '{}',
    turn_timer_seconds    INTEGER NOT NULL DEFAULT 90 CHECK (turn_timer_seconds >= 0),
    use_threads           INTEGER NOT NULL DEFAULT 0 CHECK (use_threads IN (0, 1)),
    default_ai_difficulty TEXT    NOT NULL DEFAULT 'normal'
                                  CHECK (default_ai_difficulty IN ('easy', 'normal', 'hard')),
    -- NULL means "every channel"; otherwise a JSON array of channel ids.
    allowed_channel_ids   TEXT
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    table_message_id INTEGER,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                             CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    preset           TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    state_json       TEXT,
    -- Optimistic-concurrency counter: bumped by every accepted action so that a replayed or
    -- duplicated interaction (e.g. after a restart) cannot apply the same action twice.
    version          INTEGER NOT NULL DEFAULT 0,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL,
    turn_deadline    REAL,
    timer_strikes    TEXT    NOT NULL DEFAULT '{}'
);

CREATE INDEX games_guild_status ON games (guild_id, status);
CREATE INDEX games_status ON games (status);

CREATE TABLE game_seats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER,
    ai_difficulty TEXT CHECK (ai_difficulty IN ('easy', 'normal', 'hard')),
    display_name  TEXT    NOT NULL,
    left_at       REAL,
    PRIMARY KEY (game_id, seat),
    -- A seat is either a human or a computer, never both or neither.
    CHECK ((user_id IS NULL) <> (ai_difficulty IS NULL))
);

CREATE UNIQUE INDEX game_seats_user ON game_seats (game_id, user_id) WHERE user_id IS NOT NULL;

-- One row per human currently in a lobby or running game. The primary key is what enforces
-- "at most one active game per user" even under concurrent joins; rows are removed when the
-- game finishes/cancels or the user leaves.
CREATE TABLE active_players (
    user_id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE
);

CREATE INDEX active_players_game ON active_players (game_id);

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    outcome     TEXT    NOT NULL
                        CHECK (outcome IN ('fool', 'win', 'draw', 'forfeit', 'lost_team')),
    preset      TEXT    NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX results_guild_time ON results (guild_id, finished_at);
CREATE INDEX results_guild_user ON results (guild_id, user_id, finished_at);
