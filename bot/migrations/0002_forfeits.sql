-- 0002: forfeits ("фанты") - tasks handed to the fool - and their history in results.
-- Separate from 0001 because it is an optional feature layered on top of finished games.

CREATE TABLE forfeits (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 200),
    created_at REAL    NOT NULL
);

CREATE INDEX forfeits_guild ON forfeits (guild_id, id);

-- Guilds that never edited their list get the built-in defaults from code (in their locale).
-- Once a guild edits it, the defaults are copied into `forfeits` and this flag is set, so
-- deleting every forfeit really means "no forfeits" rather than "back to defaults".
ALTER TABLE guild_settings ADD COLUMN forfeits_customised INTEGER NOT NULL DEFAULT 0
    CHECK (forfeits_customised IN (0, 1));

-- The forfeit text assigned to this player at the end of the game, if any.
ALTER TABLE results ADD COLUMN forfeit_text TEXT;
