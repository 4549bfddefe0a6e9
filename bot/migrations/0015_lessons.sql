-- 0014: the lessons of `/durak learn` each player has finished (bot/game/lessons.py): the
-- next `/durak learn` offers the next one, after a restart too. Per player, not per server:
-- a lesson learnt is learnt everywhere.
CREATE TABLE lesson_progress (
    user_id     INTEGER NOT NULL,
    lesson      TEXT    NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (user_id, lesson)
);
