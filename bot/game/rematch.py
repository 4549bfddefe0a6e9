""" "Play again": the next deal at the same table, as a session of deals.

When a game ends its result message offers **Play again**. The first click by one of its
players creates the *rematch*: a new game row linked to the finished one (``previous_game_id``
and ``series_id``, migration 0004), with the same seats. Computers stay; every human of the
previous deal confirms by clicking (their click is their seat); a human who left the previous
deal is not asked again and a computer plays their seat. When the last human has confirmed,
the deal starts as the engine's rules say: the fool deals (``Game.next_deal``) and the lead
follows ``next_deal_lead`` ("from under the fool", "Duraka uchat", or the lowest trump).

Why a new row per deal rather than a new deal inside the same game: each deal is a game for
the leaderboard ("each deal counts as it does now"), the results table stays one row per
player per game, and a finished game never changes again. The running tally (pagat's
matchsticks) travels with the rematch (see :mod:`bot.game.series`).

Like :mod:`bot.game.service` this module knows nothing of Discord: it speaks in ids and i18n
keys. Every refusal is a :class:`~bot.game.errors.ServiceError` with a sentence for the clicker:
a non-player, a player who left, somebody already in another game, a second click, a busy
channel, a rematch that already started or was called off.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from engine import Game, Result

from .. import storage as st
from ..storage.rematch import RematchSeat
from .errors import AlreadyPlaying, ChannelBusy, GameMissing, ServiceError
from .lobby import _LobbyFlow
from .models import GameSession, LobbyInfo, PlayerRef
from .series import Series, deal_losers
from .snapshot import decode

__all__ = ["Outcome", "next_deal"]

log = logging.getLogger(__name__)

OutcomeKind = Literal["created", "confirmed", "already", "started"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a Play again click did. ``kind``: ``created`` (the click opened the rematch),
    ``confirmed`` (the click confirmed a seat), ``already`` (a second click), ``started`` (the
    click was the last confirmation and the deal is on: ``session``). ``new_message`` says the
    rematch has no public message yet (the caller posts it)."""

    kind: OutcomeKind
    game_id: int
    waiting: tuple[int, ...] = ()
    session: GameSession | None = None
    new_message: bool = False


def next_deal(state_json: str) -> tuple[Game, dict[int, str]]:
    """The finished game stored in ``state_json`` and its forfeits (seat -> reason)."""
    stored = decode(state_json)
    return stored.game, stored.forfeits


def _dealer(game: Game, forfeits: dict[int, str]) -> int:
    """Who deals next: the fool (Game.next_deal's rule), else whoever's forfeit ended the
    game, else (a draw) the same dealer again."""
    result = game.result
    if result is not None:
        if result.kind == "fool" and result.fool is not None:
            return result.fool
        if result.kind == "team" and result.losers:
            return result.losers[0]
        return game.dealer
    losers = deal_losers(None, None, forfeits)
    return losers[0] if losers else game.dealer


def _deal(game: Game, forfeits: dict[int, str], seed: int) -> Game:
    """The next deal by the engine's rules. A game ended by a forfeit has no engine result:
    the forfeiter counts as its fool, so they deal."""
    if game.result is not None:
        return game.next_deal(seed)
    dealer = _dealer(game, forfeits)
    previous = Result("fool", dealer, (dealer,), None, ())
    return Game.new(game.rules, seed, dealer=dealer, deal_no=game.deal_no + 1, previous=previous)


class _RematchFlow(_LobbyFlow):
    """ "Play again" under a finished game: the rematch lobby, its confirmations, and the
    next deal once every human is in. One lock per finished game makes the checks and the
    insert of its rematch happen together (the unique index makes a lost race harmless
    anyway; the lock makes it polite)."""

    async def rematch_waiting_for(self, info: LobbyInfo) -> tuple[int, ...]:
        """Humans of a rematch lobby who have not confirmed yet, in seat order."""
        confirmed = await self.storage.rematch_confirmed(info.game_id)
        return tuple(
            s.user_id for s in info.seats if s.user_id is not None and s.user_id not in confirmed
        )

    async def play_again(self, previous_id: int, player: PlayerRef) -> Outcome:
        """A click on Play again under game ``previous_id``: open its rematch, or confirm a seat
        in it, and start the deal once every human is in."""
        storage = self.storage
        async with self._rematch_locks.hold(previous_id):
            row = await storage.get_game(previous_id)
            if row is None:
                raise GameMissing()
            if row.status != "finished" or row.state_json is None:
                raise ServiceError("rematch.not_finished")
            seats = await storage.seats(previous_id)
            mine = next((s for s in seats if s.user_id == player.user_id), None)
            if mine is None:
                raise ServiceError("rematch.not_player", game_id=previous_id)
            if mine.left_at is not None:
                raise ServiceError("rematch.left_player", game_id=previous_id)
            existing = await storage.rematch_of(previous_id)
            created = False
            if existing is None:
                existing, created = await self._create_rematch(row, seats, player)
            if not created:
                current = await storage.get_game(existing)
                if current is None or current.status != "lobby":
                    raise ServiceError("rematch.already_started", game_id=existing)
                try:
                    newly = await storage.confirm_rematch(existing, player.user_id)
                except st.AlreadyInGame as exc:
                    raise AlreadyPlaying(exc.game_id) from None
                except st.StorageError:
                    raise ServiceError("rematch.closed") from None
                if not newly:
                    info = await self.lobby(existing)
                    return Outcome("already", existing, await self.rematch_waiting_for(info))
            info = await self.lobby(existing)
            waiting = await self.rematch_waiting_for(info)
            if waiting:
                if not created:
                    await self._publish(self.publisher.refresh(existing))
                log.info(
                    "game %d: rematch of %d, %d to confirm", existing, previous_id, len(waiting)
                )
                return Outcome(
                    "created" if created else "confirmed", existing, waiting, None, created
                )
            game, forfeits = next_deal(row.state_json)
            session = await self.start(
                existing,
                player.user_id,
                can_manage=True,
                deal=lambda _info, seed: _deal(game, forfeits, seed),
            )
            log.info("game %d: rematch of %d started", existing, previous_id)
            return Outcome("started", existing, (), session, created)

    async def _create_rematch(
        self, row: st.GameRow, seats: list[st.SeatRow], host: PlayerRef
    ) -> tuple[int, bool]:
        """Insert the rematch lobby of the finished game ``row``; returns (id, created)."""
        storage = self.storage
        busy = await storage.active_game_in_channel(row.message_channel_id)
        if busy is not None:
            raise ChannelBusy(busy)
        assert row.state_json is not None
        game, forfeits = next_deal(row.state_json)
        if not any(s.user_id is not None and s.left_at is None for s in seats):
            raise ServiceError("rematch.no_humans", game_id=row.id)
        settings = await storage.get_guild_settings(row.guild_id)
        new_seats: list[RematchSeat] = []
        computers = 0
        for s in seats:
            if s.user_id is not None and s.left_at is None:
                new_seats.append(RematchSeat(s.seat, s.display_name, user_id=s.user_id))
                continue
            computers += 1
            difficulty = s.ai_difficulty or settings.default_ai_difficulty
            name = s.display_name if s.user_id is None else f"#{computers}"
            new_seats.append(RematchSeat(s.seat, name, ai_difficulty=difficulty))
        previous = Series.from_json(row.options.get("series")) or Series.first(row.id, game.n)
        result: Any = game.result
        void = result is None and game.version == 0  # nobody moved: the deal counts for nothing
        losers = deal_losers(result, None, forfeits, void=void)
        series = previous.next(row.id, losers, _dealer(game, forfeits))
        rules = {k: v for k, v in game.rules.to_dict().items() if k != "players"}
        options: dict[str, Any] = {"seats": game.n, "rules": rules, "series": series.to_json()}
        if "locale" in row.options:
            options["locale"] = row.options["locale"]
        try:
            return await storage.create_rematch(
                row.id, series.series_id, host.user_id, row.preset, options, new_seats
            )
        except st.AlreadyInGame as exc:
            raise AlreadyPlaying(exc.game_id) from None

    async def decline_rematch(self, previous_id: int, user_id: int) -> int:
        """A player of the rematch of ``previous_id`` says no: the rematch is called off (a
        rematch keeps the same seats, so it cannot go on without them). Returns its id."""
        storage = self.storage
        async with self._rematch_locks.hold(previous_id):
            existing = await storage.rematch_of(previous_id)
            if existing is None:
                raise ServiceError("rematch.closed")
            info = await self.lobby(existing)
            if info.status != "lobby":
                raise ServiceError("rematch.already_started", game_id=existing)
            if not any(s.user_id == user_id for s in info.seats):
                raise ServiceError("rematch.not_player", game_id=previous_id)
            await storage.cancel_game(existing)
            log.info("game %d: rematch called off by %d", existing, user_id)
        await self._publish(self.publisher.refresh(existing))
        return existing
