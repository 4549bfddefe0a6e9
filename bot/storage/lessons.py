"""The lessons of ``/durak learn`` each player has finished (migration 0014)."""

from __future__ import annotations

from .core import StorageCore

__all__ = ["LessonStorage"]


class LessonStorage(StorageCore):
    """Lesson progress operations of :class:`~bot.storage.store.Storage`."""

    async def lesson_finished(self, user_id: int, lesson: str, *, now: float | None = None) -> None:
        """Remember that ``user_id`` played ``lesson`` to its end (again: the first time
        stays)."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO lesson_progress (user_id, lesson, finished_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id, lesson) DO NOTHING",
                (user_id, lesson, self._now(now)),
            )

    async def lessons_finished(self, user_id: int) -> list[str]:
        """The lessons ``user_id`` has finished, first finished first."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT lesson FROM lesson_progress WHERE user_id = ? ORDER BY finished_at, lesson",
                (user_id,),
            ) as cur,
        ):
            return [str(r[0]) async for r in cur]
