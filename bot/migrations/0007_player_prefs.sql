-- 0007: a quiet channel (issue #10).
-- Per-player preferences, global per user (a player expects "no pings" to hold on every
-- server). A user without a row has the defaults: pings on.
CREATE TABLE player_prefs (
    user_id    BIGINT  NOT NULL PRIMARY KEY,
    pings      INTEGER NOT NULL DEFAULT 1 CHECK (pings IN (0, 1)),
    updated_at REAL    NOT NULL
);

-- Games get their own thread by default now. Until a guild sets `threads` with
-- /durak settings it follows the bot's default (on); a guild that had turned threads on keeps
-- them. A stored 0 cannot be told apart from the old default, so it follows the new one.
ALTER TABLE guild_settings ADD COLUMN threads_explicit INTEGER NOT NULL DEFAULT 0
    CHECK (threads_explicit IN (0, 1));
UPDATE guild_settings SET threads_explicit = 1 WHERE use_threads = 1;
