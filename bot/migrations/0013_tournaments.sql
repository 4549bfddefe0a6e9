-- 0010: tournaments (issue #29; bot/storage/tournaments.py, bot/tournaments/logic.py).
-- A tournament is signed up for until starts_at, then played in rounds; each round's tables
-- are rows of tournament_tables, a table's game is an ordinary game row, and the table's
-- points are written once its game is over. Everything a restart needs is here: the round
-- in play, each table's game, and which tables are scored.
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'signup'
                        CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    preset      TEXT    NOT NULL,
    format      TEXT    NOT NULL CHECK (format IN ('swiss', 'elimination')),
    rounds      INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 20),
    seats       INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 4),
    starts_at   REAL    NOT NULL,
    round       INTEGER NOT NULL DEFAULT 0,
    -- The public announcement (edited as sign-ups change and rounds go by).
    message_id  INTEGER,
    locale      TEXT    NOT NULL DEFAULT 'en',
    winner_id   INTEGER,
    created_at  REAL    NOT NULL,
    finished_at REAL
);

CREATE INDEX tournaments_guild_status ON tournaments (guild_id, status);
CREATE INDEX tournaments_status ON tournaments (status);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,
    -- Rating at the start (seeding and the last tie-break); NULL until the start.
    rating        INTEGER,
    joined_at     REAL    NOT NULL,
    -- Withdrew after the start: no more tables, kept in the standings.
    dropped       INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1)),
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    -- JSON array of user ids in seat order.
    players       TEXT    NOT NULL,
    game_id       INTEGER,
    -- JSON object user id -> points, once the table is over.
    points        TEXT,
    PRIMARY KEY (tournament_id, round, number)
);

CREATE INDEX tournament_tables_game ON tournament_tables (game_id);

-- One public message per round (standings and pairings).
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    message_id    INTEGER,
    started_at    REAL    NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- Who may open tournaments and how long a player may be absent. No row: the defaults.
CREATE TABLE tournament_settings (
    guild_id        INTEGER PRIMARY KEY,
    anyone_may_open INTEGER NOT NULL DEFAULT 0 CHECK (anyone_may_open IN (0, 1)),
    turn_seconds    INTEGER NOT NULL DEFAULT 120 CHECK (turn_seconds BETWEEN 15 AND 3600),
    updated_at      REAL    NOT NULL
);
