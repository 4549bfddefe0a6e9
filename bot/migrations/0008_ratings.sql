-- 0008: skill ratings, seasons and achievements (issue #19; see bot/ratings/ and
-- bot/storage/ratings.py). Everything here is derived from `results` and `games` except the
-- seasons (when an admin started one) and the per-server rating settings; the derived rows
-- can be rebuilt from the results at any time and come out the same.

-- A server's seasons (guild_id 0: the cross-server ladder, which has one endless season).
-- The current season is the one not ended; a new one ends it and ratings start over.
CREATE TABLE rating_seasons (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    started_at REAL    NOT NULL,
    ended_at   REAL,
    UNIQUE (guild_id, number)
);

CREATE UNIQUE INDEX rating_seasons_current ON rating_seasons (guild_id) WHERE ended_at IS NULL;

-- A rating per season, mode ('' = every mode together) and player (negative ids: computer
-- levels). `display` is the shown number, kept so the leaderboard sorts on an index.
-- week_*: the rating as it stood when the player's first game of the week
-- (Monday 00:00 UTC, `week_start`) began - what "rank change since last week" compares with.
CREATE TABLE ratings (
    season_id    INTEGER NOT NULL REFERENCES rating_seasons (id) ON DELETE CASCADE,
    mode         TEXT    NOT NULL,
    player_id    INTEGER NOT NULL,
    name         TEXT    NOT NULL DEFAULT '',
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    display      INTEGER NOT NULL,
    best_display INTEGER NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    updated_at   REAL    NOT NULL,
    week_start   REAL    NOT NULL,
    week_display INTEGER NOT NULL,
    week_games   INTEGER NOT NULL,
    PRIMARY KEY (season_id, mode, player_id)
);

CREATE INDEX ratings_board ON ratings (season_id, mode, display, games);

-- Every rating change: the result message (`+12`), the profile's chart, the period boards.
CREATE TABLE rating_changes (
    season_id      INTEGER NOT NULL REFERENCES rating_seasons (id) ON DELETE CASCADE,
    mode           TEXT    NOT NULL,
    game_id        INTEGER NOT NULL,
    player_id      INTEGER NOT NULL,
    place          INTEGER NOT NULL,
    mu_before      REAL    NOT NULL,
    sigma_before   REAL    NOT NULL,
    mu_after       REAL    NOT NULL,
    sigma_after    REAL    NOT NULL,
    display_before INTEGER NOT NULL,
    display_after  INTEGER NOT NULL,
    finished_at    REAL    NOT NULL,
    PRIMARY KEY (season_id, mode, game_id, player_id)
);

CREATE INDEX rating_changes_player ON rating_changes (season_id, mode, player_id, finished_at);
-- The period boards add up a window's changes: covering, so no row is read (half the time
-- of the same scan with row lookups, bench/ratings_board.py).
CREATE INDEX rating_changes_time
    ON rating_changes (season_id, mode, finished_at, player_id, display_before, display_after);
CREATE INDEX rating_changes_game ON rating_changes (game_id);

-- Each finished game once: whether it was rated (0: abandoned by everyone, too few sides)
-- and whether it counted on the cross-server ladder (the server had opted in then).
CREATE TABLE rated_games (
    game_id      INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    finished_at  REAL    NOT NULL,
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    cross_server INTEGER NOT NULL CHECK (cross_server IN (0, 1))
);

CREATE INDEX rated_games_order ON rated_games (finished_at, game_id);

-- Earned once per player and server.
CREATE TABLE achievements (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    key       TEXT    NOT NULL,
    game_id   INTEGER NOT NULL,
    earned_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, key)
);

CREATE INDEX achievements_game ON achievements (game_id);

-- A player's running record in a server, moved on by every finished game. The counts of
-- results (all finished games, rated or not) answer the all-time fools board without
-- adding up every result row; rated/streak/fools_in_row/presets (rated games only) make
-- a game's achievements cost the same at the thousandth game as at the first.
CREATE TABLE rating_players (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    results      INTEGER NOT NULL DEFAULT 0,
    fools        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0,
    forfeits     INTEGER NOT NULL DEFAULT 0,
    rated        INTEGER NOT NULL DEFAULT 0,
    streak       INTEGER NOT NULL DEFAULT 0,
    fools_in_row INTEGER NOT NULL DEFAULT 0,
    -- JSON array of the modes (presets) played in rated games
    presets      TEXT    NOT NULL DEFAULT '[]',
    PRIMARY KEY (guild_id, user_id)
);

-- The server's rating settings; no row = the defaults (5 games to appear, no cross-server).
CREATE TABLE rating_settings (
    guild_id     INTEGER PRIMARY KEY,
    min_games    INTEGER NOT NULL DEFAULT 5 CHECK (min_games BETWEEN 1 AND 1000),
    cross_server INTEGER NOT NULL DEFAULT 0 CHECK (cross_server IN (0, 1)),
    updated_at   REAL    NOT NULL
);

-- Work left for the code after the schema: 'backfill' rates every game finished before this
-- migration, in finishing order, right after the database opens (SQL cannot run OpenSkill).
CREATE TABLE rating_jobs (
    name TEXT PRIMARY KEY
);

INSERT INTO rating_jobs (name) VALUES ('backfill');
-- Results of one server in a time window, covering what the fools/forfeits boards count
-- (the all-time board reads rating_players instead).
CREATE INDEX results_guild_board ON results (guild_id, finished_at, user_id, outcome);
