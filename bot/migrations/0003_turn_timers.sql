-- 0003: turn timers that survive a restart, and why a forfeit happened.
-- `games.turn_deadline` (0001) already holds the absolute deadline of the current turn; the
-- half-time reminder is remembered here so a restart neither repeats nor loses it. Every new
-- game version (an accepted move) resets it together with the deadline.
ALTER TABLE games ADD COLUMN turn_reminded INTEGER NOT NULL DEFAULT 0
    CHECK (turn_reminded IN (0, 1));

-- For outcome 'forfeit': 'left' (/durak leave) or 'timeout' (too many expired turns).
ALTER TABLE results ADD COLUMN forfeit_reason TEXT
    CHECK (forfeit_reason IS NULL OR forfeit_reason IN ('left', 'timeout'));

-- Whether the guild chose its language with /durak settings. Until it does, public messages
-- follow the server's Discord language (interaction.guild_locale). Guilds of the previous
-- release that already picked Russian keep it.
ALTER TABLE guild_settings ADD COLUMN locale_explicit INTEGER NOT NULL DEFAULT 0
    CHECK (locale_explicit IN (0, 1));
UPDATE guild_settings SET locale_explicit = 1 WHERE locale <> 'en';
