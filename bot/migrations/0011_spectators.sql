-- 0010: spectators (issue #29). spectator_delay: what a spectator's live view shows trails
-- the table by one move (1), or follows it (0, the default). Chosen with
-- /durak settings spectator_delay:on|off. A lobby's "open to anyone" / "invite only" lives in
-- its games.options JSON (key "invite_only"), like its other choices.
ALTER TABLE guild_settings ADD COLUMN spectator_delay INTEGER NOT NULL DEFAULT 0
    CHECK (spectator_delay IN (0, 1));
