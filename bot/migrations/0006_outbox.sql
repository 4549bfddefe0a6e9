-- 0006: what the channel is still owed after a game ended (see bot/delivery.py).
-- A running game or lobby needs no row here: its own `games` row is the record (after a
-- restart every open table is drawn again from it). Once a game finishes or is cancelled its
-- row stops changing, so the transaction that ends it also inserts what that end owes the
-- channel: the final table and, for a finished game, the result announcement. A row is
-- deleted once Discord has taken it (or it can never be delivered). One row per game and kind:
-- a newer obligation of the same kind replaces an older one.
CREATE TABLE outbox (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('table', 'result')),
    version    INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, kind)
);

-- The game version of the last turn ping Discord took. A running game's snapshot records the
-- ping its turn owes (written with the move itself); after a restart it is sent again only
-- when it is newer than this.
ALTER TABLE games ADD COLUMN pinged_version INTEGER NOT NULL DEFAULT 0;
