-- 0014: the daily puzzle (`/durak puzzle`, bot/game/puzzles.py). The puzzle of a day is a pure
-- function of the date (engine/puzzles.py), so nothing here is needed to reproduce it; the
-- tables keep what was served (for the record and for a check that a later engine still
-- serves the same) and each player's one attempt of the day per server, with its moves.
CREATE TABLE puzzles_served (
    day       TEXT    NOT NULL PRIMARY KEY,
    mode      TEXT    NOT NULL,
    seed      TEXT    NOT NULL,
    answer    TEXT    NOT NULL,
    grade     TEXT    NOT NULL,
    depth     INTEGER NOT NULL,
    served_at REAL    NOT NULL
);

-- status: 'playing', 'solved' or 'failed'; moves: every move since the puzzle's position,
-- in engine notation with the seat, separated by ';' (the player's and the replies)
CREATE TABLE puzzle_attempts (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    moves       TEXT    NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL,
    PRIMARY KEY (guild_id, user_id, day)
);

CREATE INDEX puzzle_attempts_solved ON puzzle_attempts (guild_id, user_id, status, day);
