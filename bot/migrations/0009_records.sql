-- 0009: every game remembered (issue #21; engine/record.py, bot/storage/records.py).
-- A running game's record is text in `games.record`: the header written when the game starts,
-- then one line appended by the same statement that stores each move, so the record and the
-- state can never disagree. NULL means no history: games that started before this migration.
-- When the game ends its record moves, zlib-compressed, into `game_records`.
ALTER TABLE games ADD COLUMN record TEXT;

CREATE TABLE game_records (
    game_id    BIGINT  NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data       BLOB    NOT NULL,
    moves      INTEGER NOT NULL,
    created_at REAL    NOT NULL
);

-- Hints asked for, per game and seat: a game with hints is marked in stats and is not rated
-- (the ratings read `hints > 0`).
CREATE TABLE game_hints (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    user_id INTEGER,
    hints   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);

-- A server's choices about records (no row: the defaults). replays_public: anyone in the
-- server may replay its finished games (0: only those who played them); hints_everywhere:
-- every game offers hints (0: only games where every other seat is a computer).
CREATE TABLE record_settings (
    guild_id         BIGINT  NOT NULL PRIMARY KEY,
    replays_public   INTEGER NOT NULL DEFAULT 1 CHECK (replays_public IN (0, 1)),
    hints_everywhere INTEGER NOT NULL DEFAULT 0 CHECK (hints_everywhere IN (0, 1)),
    updated_at       REAL    NOT NULL
);
