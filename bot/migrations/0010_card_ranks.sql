-- 0010: the rank letters of the server's cards: 1 (the default) writes each reader's own
-- (В Д К Т in Russian, J Q K A in English), 0 keeps the Latin J Q K A in every language.
-- Chosen with /durak settings ranks:local|latin.
ALTER TABLE guild_settings ADD COLUMN local_ranks INTEGER NOT NULL DEFAULT 1
    CHECK (local_ranks IN (0, 1));
