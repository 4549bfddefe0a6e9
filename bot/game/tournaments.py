"""Tournaments: sign-up, rounds of ordinary games, scoring, and the final standings.

Who meets whom and who leads are pure rules (:mod:`bot.tournaments.logic`); this flow
stores them (:mod:`bot.storage.tournaments`) and runs them:

* **Sign-up** until ``starts_at``: a stored time, waited for by one task per tournament and
  re-armed at a restart (a start time that passed while the bot was down starts at once).
* **A round** is written with all its tables in one transaction; then each table becomes an
  ordinary game (a lobby row with its players seated, then :meth:`start`), so ratings,
  timers, records and replays work as for any game. Tournament games are **rated** like any
  other: a tournament is where players most want their games to count.
* **No-shows**: a tournament game carries its own turn timer (``turn_timer`` in the game's
  options, the server's tournament setting), so it is timed even where the server plays
  without timers; a player who lets two turns in a row expire forfeits (the ordinary
  forfeit machinery) and scores last at that table. A player who is in another game when
  the round starts cannot be seated and scores last there too.
* **Scoring** happens when a table's game is over, from the game's stored result (the
  finishing order the ratings use). :meth:`_tournament_sync` is the one place that does it
  and moves to the next round; it runs when a tournament game ends and at every restart,
  so games that ended while the bot was down are noticed. Points are written once per
  table, so running it twice is harmless. A table whose game was cancelled is a draw.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from engine.rules import PRESETS, RuleError

from .. import storage as st
from ..ratings import Participant, placements
from ..storage.tournaments import TournamentRow, TournamentTableRow
from ..tournaments import (
    FORMATS,
    Entrant,
    Standing,
    Table,
    elimination_round,
    elimination_rounds,
    elimination_winner,
    place_points,
    standings,
    swiss_round,
)
from .errors import ServiceError
from .house_rules import auto_done_for, rules_for
from .lobby import _LobbyFlow
from .models import GameSession, PlayerRef

__all__ = ["TournamentView"]

log = logging.getLogger(__name__)

#: A rating for players without one yet (a newcomer's shown rating).
NEWCOMER_RATING = 1000
MAX_SWISS_ROUNDS = 20
MAX_SIGNUP_MINUTES = 7 * 24 * 60


@dataclass(frozen=True, slots=True)
class TournamentView:
    """Everything a tournament's messages and pictures show."""

    row: TournamentRow
    entrants: tuple[Entrant, ...]
    tables: tuple[Table, ...]
    standings: tuple[Standing, ...]

    def name(self, user_id: int) -> str:
        return next((e.name for e in self.entrants if e.user_id == user_id), "?")

    def round_tables(self, number: int) -> list[Table]:
        return [t for t in self.tables if t.round == number]


class _TournamentFlow(_LobbyFlow):
    """Tournaments over the lobby flow (a round's tables are opened and started as lobbies)."""

    # ----------------------------------------------------------------- sign-up

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        creator: PlayerRef,
        *,
        preset: str | None,
        format: str,
        rounds: int,
        seats: int,
        minutes: int,
        can_manage: bool,
        discord_locale: str | None = None,
    ) -> TournamentView:
        settings = await self.storage.tournament_settings(guild_id)
        if not can_manage and not settings.anyone_may_open:
            raise ServiceError("tournament.admins_only")
        guild = await self.storage.get_guild_settings(guild_id)
        preset = preset or guild.default_preset
        if preset not in PRESETS:
            raise ServiceError("error.unknown_preset", preset=preset)
        if format not in FORMATS:
            raise ServiceError("error.malformed_id")
        if not 2 <= seats <= 4:
            raise ServiceError("tournament.bad_seats")
        if format == "elimination" and seats != 2:
            raise ServiceError("tournament.elimination_pairs")
        if not 1 <= rounds <= MAX_SWISS_ROUNDS:
            raise ServiceError("tournament.bad_rounds", max=MAX_SWISS_ROUNDS)
        if not 1 <= minutes <= MAX_SIGNUP_MINUTES:
            raise ServiceError("tournament.bad_minutes", max=MAX_SIGNUP_MINUTES)
        try:
            rules_for(preset, {}, seats)
        except RuleError as exc:
            raise ServiceError("error.bad_rules", reason=str(exc)) from None
        locale = await self.guild_locale(guild_id, discord_locale)
        tid = await self.storage.create_tournament(
            guild_id,
            channel_id,
            creator.user_id,
            preset=preset,
            format=format,
            rounds=rounds,
            seats=seats,
            starts_at=self.clock() + minutes * 60,
            locale=locale,
        )
        log.info("tournament %d: opened by %d (%s, %s)", tid, creator.user_id, preset, format)
        view = await self.tournament_view(tid)
        self._arm_tournament_timer(view.row)
        return view

    async def attach_tournament_message(self, tournament_id: int, message_id: int) -> None:
        await self.storage.set_tournament_message(tournament_id, message_id)

    async def tournament_view(self, tournament_id: int) -> TournamentView:
        row = await self.storage.get_tournament(tournament_id)
        if row is None:
            raise ServiceError("tournament.missing")
        players = await self.storage.tournament_players(tournament_id)
        entrants = tuple(
            Entrant(
                p.user_id,
                p.display_name,
                p.rating if p.rating is not None else NEWCOMER_RATING,
                i,
                p.dropped,
            )
            for i, p in enumerate(players)
        )
        tables = tuple(_table(t) for t in await self.storage.tournament_tables(tournament_id))
        return TournamentView(row, entrants, tables, tuple(standings(entrants, tables)))

    async def current_tournament(self, guild_id: int, tournament_id: int | None = None) -> int:
        """The tournament a command means: the one named, else the server's latest open one."""
        if tournament_id is not None:
            row = await self.storage.get_tournament(tournament_id)
            if row is None or row.guild_id != guild_id:
                raise ServiceError("tournament.missing")
            return row.id
        rows = await self.storage.guild_tournaments(guild_id)
        if not rows:
            raise ServiceError("tournament.none")
        return rows[-1].id

    async def tournament_join(self, tournament_id: int, player: PlayerRef) -> TournamentView:
        try:
            joined = await self.storage.tournament_join(tournament_id, player.user_id, player.name)
        except st.StorageError:
            raise ServiceError("tournament.signup_closed") from None
        if not joined:
            raise ServiceError("tournament.already_joined")
        await self._publish(self.tournament_publisher.announce(tournament_id))
        return await self.tournament_view(tournament_id)

    async def tournament_leave(self, tournament_id: int, user_id: int) -> TournamentView:
        """Withdraw: before the start the sign-up goes; after it the player gets no more
        tables (a game they are playing goes on: leaving it is ``/durak leave``)."""
        try:
            left = await self.storage.tournament_leave(tournament_id, user_id)
        except st.StorageError:
            raise ServiceError("tournament.over") from None
        if not left:
            raise ServiceError("tournament.not_joined")
        await self._publish(self.tournament_publisher.announce(tournament_id))
        return await self.tournament_view(tournament_id)

    async def tournament_cancel(
        self, tournament_id: int, user_id: int, *, can_manage: bool
    ) -> None:
        """Call a tournament off (its creator or a server manager). Games already running
        are ordinary games and play on."""
        row = await self.storage.get_tournament(tournament_id)
        if row is None:
            raise ServiceError("tournament.missing")
        if user_id != row.creator_id and not can_manage:
            raise ServiceError("tournament.not_yours")
        async with self._tournament_lock(tournament_id):
            if not await self.storage.cancel_tournament(tournament_id):
                raise ServiceError("tournament.over")
        self._stop_tournament_timer(tournament_id)
        log.info("tournament %d: cancelled by %d", tournament_id, user_id)
        await self._publish(self.tournament_publisher.announce(tournament_id))

    async def tournament_settings(self, guild_id: int) -> st.TournamentSettings:
        return await self.storage.tournament_settings(guild_id)

    async def update_tournament_settings(
        self, guild_id: int, *, anyone_may_open: bool | None, turn_seconds: int | None
    ) -> st.TournamentSettings:
        try:
            return await self.storage.update_tournament_settings(
                guild_id, anyone_may_open=anyone_may_open, turn_seconds=turn_seconds
            )
        except ValueError:
            raise ServiceError("tournament.bad_timer", min=15, max=3600) from None

    async def tournament_round_message(self, tournament_id: int, number: int) -> int | None:
        """The round's public message, once posted (the next post edits it)."""
        return await self.storage.round_message(tournament_id, number)

    async def set_tournament_round_message(
        self, tournament_id: int, number: int, message_id: int
    ) -> None:
        await self.storage.set_round_message(tournament_id, number, message_id)

    async def tournament_wins(self, guild_id: int, user_id: int) -> int:
        return await self.storage.tournament_wins(guild_id, user_id)

    # ----------------------------------------------------------------- timers and restart

    def _tournament_lock(self, tournament_id: int) -> AbstractAsyncContextManager[None]:
        return self._tournament_locks.hold(tournament_id)

    def _arm_tournament_timer(self, row: TournamentRow) -> None:
        self._stop_tournament_timer(row.id)
        if self._closing or row.status != "signup":
            return
        self._tournament_timers[row.id] = asyncio.get_running_loop().create_task(
            self._tournament_timer_run(row.id, row.starts_at), name=f"durak-tournament-{row.id}"
        )

    def _stop_tournament_timer(self, tournament_id: int) -> None:
        task = self._tournament_timers.pop(tournament_id, None)
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def _tournament_timer_run(self, tournament_id: int, starts_at: float) -> None:
        try:
            wait = starts_at - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            self._tournament_timers.pop(tournament_id, None)
            await self._tournament_start(tournament_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament %d: start failed", tournament_id)

    async def restore_tournaments(self) -> int:
        """After a restart: note this process's tournaments still signing up or running;
        :meth:`resume_tournaments` takes them up once Discord is reachable (a round may
        have to open tables, which needs the channels)."""
        rows = [r for r in await self.storage.load_tournaments() if self.shards.owns(r.guild_id)]
        self._tournaments_to_resume = [r.id for r in rows]
        return len(rows)

    async def resume_tournaments(self) -> None:
        """Wait again for each sign-up's start (one that passed starts at once), and bring
        each running tournament up to date: score tables whose games ended meanwhile, open
        what was not opened, start the next round when the last table is over."""
        ids, self._tournaments_to_resume = self._tournaments_to_resume, []
        for tournament_id in ids:
            row = await self.storage.get_tournament(tournament_id)
            if row is None:
                continue
            if row.status == "signup":
                self._arm_tournament_timer(row)
            elif row.status == "running":
                self._tournament_soon(row.id)

    def _tournament_soon(self, tournament_id: int) -> None:
        if self._closing:
            return
        task = asyncio.get_running_loop().create_task(
            self._guarded(self._tournament_sync(tournament_id)),
            name=f"durak-tournament-sync-{tournament_id}",
        )
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _game_ended(self, session: GameSession) -> None:
        tournament_id = await self.storage.tournament_of_game(session.game_id)
        if tournament_id is not None:
            self._tournament_soon(tournament_id)
        await super()._game_ended(session)

    # ----------------------------------------------------------------- rounds

    async def _tournament_start(self, tournament_id: int) -> None:
        async with self._tournament_lock(tournament_id):
            row = await self.storage.get_tournament(tournament_id)
            if row is None or row.status != "signup":
                return
            players = await self.storage.tournament_players(tournament_id)
            if len(players) < 2:
                await self.storage.cancel_tournament(tournament_id)
                log.info("tournament %d: too few players; called off", tournament_id)
                await self._publish(self.tournament_publisher.announce(tournament_id))
                return
            ids = [p.user_id for p in players]
            rated = await self.storage.display_ratings(row.guild_id, ids)
            ratings = {u: rated.get(u, NEWCOMER_RATING) for u in ids}
            rounds = elimination_rounds(len(ids)) if row.format == "elimination" else row.rounds
            await self.storage.begin_tournament(tournament_id, ratings, rounds)
            log.info("tournament %d: started with %d players", tournament_id, len(ids))
        await self._tournament_sync(tournament_id)

    async def _tournament_sync(self, tournament_id: int) -> None:
        """Score what is over, open what is not open, and go on to the next round or the
        end: the one step that moves a running tournament (see the module docstring)."""
        async with self._tournament_lock(tournament_id):
            # Until a round waits for a game: a round whose every table is scored at once
            # (byes, absent players) goes straight on to the next.
            while await self._tournament_step(tournament_id):
                pass

    async def _tournament_step(self, tournament_id: int) -> bool:
        """One pass of :meth:`_tournament_sync` (under its lock); True when a new round
        began that is already over."""
        view = await self.tournament_view(tournament_id)
        row = view.row
        if row.status != "running":
            return False
        for table in view.round_tables(row.round):
            if table.over:
                continue
            if table.game_id is None:
                await self._open_table(view, table)
                continue
            points = await self._table_points(table)
            if points is not None:
                await self.storage.score_table(tournament_id, table.round, table.number, points)
        view = await self.tournament_view(tournament_id)
        if row.round and not all(t.over for t in view.round_tables(row.round)):
            return False
        if row.round >= row.rounds or self._bracket_done(view):
            await self._tournament_finish(view)
            return False
        number = row.round + 1
        groups = self._pairings(view, number)
        await self.storage.add_round(
            tournament_id,
            number,
            [(g, {g[0]: 1.0} if len(g) == 1 else None) for g in groups],
        )
        log.info("tournament %d: round %d, %d table(s)", tournament_id, number, len(groups))
        view = await self.tournament_view(tournament_id)
        await self._publish(self.tournament_publisher.round(tournament_id, number))
        await self._publish(self.tournament_publisher.announce(tournament_id))
        for table in view.round_tables(number):
            if not table.over:
                await self._open_table(view, table)
        view = await self.tournament_view(tournament_id)
        return all(t.over for t in view.round_tables(number))

    @staticmethod
    def _bracket_done(view: TournamentView) -> bool:
        row = view.row
        return row.format == "elimination" and len(view.round_tables(row.round)) == 1

    @staticmethod
    def _pairings(view: TournamentView, number: int) -> list[tuple[int, ...]]:
        row = view.row
        if row.format == "elimination":
            return elimination_round(view.entrants, view.tables, number)
        return swiss_round(view.entrants, view.tables, row.seats)

    async def _tournament_finish(self, view: TournamentView) -> None:
        row = view.row
        winner: int | None
        if row.format == "elimination":
            final = view.round_tables(row.round)
            seeds = [e.user_id for e in sorted(view.entrants, key=lambda e: (-e.rating, e.order))]
            winner = elimination_winner(final[0], seeds) if final else None
        else:
            winner = view.standings[0].user_id if view.standings else None
        last_game = max((t.game_id for t in view.tables if t.game_id is not None), default=None)
        if await self.storage.finish_tournament(row.id, winner, last_game):
            log.info("tournament %d: finished, won by %s", row.id, winner)
            await self._publish(self.tournament_publisher.final(row.id))
            await self._publish(self.tournament_publisher.announce(row.id))

    async def _open_table(self, view: TournamentView, table: Table) -> None:
        """Make a table's game: its players seated in a lobby, then started. A player who
        is in another game (or withdrew) is not seated and scores last; fewer than two
        seated, and the table is scored at once without a game."""
        row = view.row
        settings = await self.storage.tournament_settings(row.guild_id)
        dropped = {e.user_id for e in view.entrants if e.dropped}
        present = [p for p in table.players if p not in dropped]
        options: dict[str, Any] = {
            "seats": len(table.players),
            "rules": {
                "deck_size": 36,
                "auto_done": auto_done_for(
                    (await self.storage.get_guild_settings(row.guild_id)).default_options,
                    row.preset,
                ),
            },
            "turn_timer": settings.turn_seconds,
            "tournament": [row.id, table.round, table.number],
            "locale": row.locale,
        }
        game_id: int | None = None
        seated: list[int] = []
        for user_id in present:
            name = view.name(user_id)
            try:
                if game_id is None:
                    game_id = await self.storage.create_lobby(
                        row.guild_id,
                        row.channel_id,
                        user_id,
                        row.preset,
                        options,
                        host_display_name=name,
                    )
                else:
                    await self.storage.add_seat(
                        game_id, display_name=name, user_id=user_id, max_seats=len(table.players)
                    )
                seated.append(user_id)
            except st.AlreadyInGame:
                log.info("tournament %d: %d is in another game; absent", row.id, user_id)
        if game_id is not None:
            await self.storage.set_table_game(row.id, table.number, table.round, game_id)
        if game_id is None or len(seated) < 2:
            if game_id is not None:
                await self.storage.cancel_game(game_id)
            await self.storage.score_table(
                row.id,
                table.round,
                table.number,
                {p: (1.0 if p in seated else 0.0) for p in table.players},
            )
            return
        try:
            await self.tournament_publisher.open_table(row.id, game_id)
        except Exception:
            log.exception("tournament %d: table of game %d not posted", row.id, game_id)
        await self.start(game_id, seated[0], can_manage=True)

    async def _table_points(self, table: Table) -> dict[int, float] | None:
        """A table's points once its game is over (None: still playing); see the module
        docstring for a game that never started or was cancelled."""
        assert table.game_id is not None
        game = await self.storage.get_game(table.game_id)
        if game is None or game.status == "cancelled":
            return {p: 0.5 if len(table.players) == 2 else 0.0 for p in table.players}
        if game.status == "lobby":  # the bot stopped between opening and starting it
            await self.start(game.id, game.host_id, can_manage=True)
            return None
        if game.status != "finished":
            return None
        session = await self.ended_session(game.id)
        if session is None:
            return None
        places = _places(session, table.players)
        return place_points(places)


def _places(session: GameSession, players: Sequence[int]) -> dict[int, int]:
    """Each tournament player's place at a finished game (1 = best; a player not seated
    there, absent at the start, is last)."""
    seats = {s.user_id: s.seat for s in session.seats if s.user_id is not None}
    people = [
        Participant(user, seats[user], forfeit=seats[user] in session.forfeits)
        for user in players
        if user in seats
    ]
    result = session.game.result
    placed = placements(
        people,
        None if result is None else result.to_dict(),
        session.out_groups,
        teams=session.game.rules.teams != "none",
        n_seats=len(session.seats),
    )
    places: dict[int, int] = {}
    for group in placed:
        for member in group.members:
            places[member.player_id] = group.place
    last = max(places.values(), default=0) + 1
    return {p: places.get(p, last) for p in players}


def _table(row: TournamentTableRow) -> Table:
    return Table(row.round, row.number, row.players, row.points, row.game_id)
