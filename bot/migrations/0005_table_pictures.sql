-- 0005: whether the public table message carries a picture of the table (1, the default)
-- or is text only (0). Chosen with /durak settings pictures:on|off.
ALTER TABLE guild_settings ADD COLUMN table_pictures INTEGER NOT NULL DEFAULT 1
    CHECK (table_pictures IN (0, 1));
