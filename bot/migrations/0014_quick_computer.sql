-- 0014: a computer offered to a quick-match player nobody has come for (bot/game/quick_offers.py).
-- guild_settings.quick_computer_seconds: after how many seconds in the queue a player is offered
-- a game against the computer (0, the default: never). Chosen with /durak settings quick_computer.
-- quick_queue.locale: the player's own language, for the offer sent outside any interaction.
-- quick_queue.offered_at: when the offer was claimed (once per wait; NULL: not yet);
-- quick_queue.offer_message_id: the direct message that carries it (0: Discord refused it for
-- good, e.g. closed direct messages). Claimed but without a message means the send did not
-- finish (a restart in between): it is sent again, so an offer is never lost.
ALTER TABLE guild_settings ADD COLUMN quick_computer_seconds INTEGER NOT NULL DEFAULT 0
    CHECK (quick_computer_seconds >= 0);
ALTER TABLE quick_queue ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
ALTER TABLE quick_queue ADD COLUMN offered_at REAL;
ALTER TABLE quick_queue ADD COLUMN offer_message_id INTEGER;
