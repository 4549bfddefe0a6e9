-- 0010: the quick-match queue (`/durak quick`, bot/game/quick.py). One row per waiting player
-- and server; kept in the database so a restart keeps everyone's place and waiting time.
CREATE TABLE quick_queue (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mode       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    rating     INTEGER NOT NULL,
    joined_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
