-- 0004: sessions of deals ("Play again"). A rematch is a new game row that points at the
-- deal it follows; `series_id` is the first game of the session. The running tally of the
-- session (matchsticks per seat) travels in the rematch's `options` JSON ("series"), so it
-- survives restarts without reading older games.
ALTER TABLE games ADD COLUMN previous_game_id INTEGER;
ALTER TABLE games ADD COLUMN series_id INTEGER;

-- At most one live (lobby, running or finished) rematch per game: two players clicking
-- "Play again" at once, or a second click after a restart, can never fork a session. A
-- rematch that was called off (cancelled) leaves the index, so the players may try again.
CREATE UNIQUE INDEX games_previous ON games (previous_game_id)
    WHERE previous_game_id IS NOT NULL AND status <> 'cancelled';
