"""What the Discord side reads and writes besides games: a server's settings and its record
settings, statistics, boards, ratings and seasons, the rules a command shows, and the
delivery bookkeeping the publisher keeps.

The cogs and surfaces never reach :attr:`storage` themselves; every fact they show comes
through a method here, so the decision (which rules a channel means, which page a board
shows, whether a server's hands offer hints) is made once, in the service, where it can be
tested without Discord."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import PRESETS, RuleSet

from .. import storage as st
from ..storage.ratings import BoardEntry, GameRating, Profile, RatingSettings, Season
from ..storage.records import RecordSettings
from ..storage.rows import PERIOD_SECONDS
from .core import _ServiceCore
from .errors import ElsewhereGame, HandClosed, ServiceError
from .house_rules import auto_done_for
from .models import GameSession
from .quick_offers import QUICK_COMPUTER_MAX_SECONDS

#: The mode ``/durak rules`` explains when nothing names one and the server chose none.
DEFAULT_PRESET = "podkidnoy"


@dataclass(frozen=True)
class ShownRules:
    """The rules ``/durak rules`` explains: those of a table here (``game_id``), or of a
    mode as this server would play it (``game_id`` None)."""

    rules: RuleSet
    preset: str
    game_id: int | None = None


@dataclass(frozen=True)
class Configured:
    """A server's settings after ``/durak settings``; ``changed`` says anything was saved."""

    settings: st.GuildSettings
    ratings: RatingSettings
    changed: bool


@dataclass(frozen=True)
class RatingBoardPage:
    """One page of a rating board, or why there is none: the cross-server ladder is off
    here (``cross_off``), or the season asked for does not exist (``seasons`` lists those
    that do)."""

    season: Season | None = None
    entries: tuple[BoardEntry, ...] = ()
    page: int = 0
    pages: int = 1
    min_games: int = 1
    cross_off: bool = False
    seasons: tuple[int, ...] | None = None


class _Queries(_ServiceCore):
    """Reads and writes of the Discord side that are not moves of a game."""

    # ----------------------------------------------------------------- settings

    async def configure(
        self,
        guild_id: int,
        *,
        language: str | None = None,
        timer: int | None = None,
        threads: bool | None = None,
        pictures: bool | None = None,
        difficulty: str | None = None,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        toggle_channel: int | None = None,
        all_channels: bool | None = None,
        min_games: int | None = None,
        cross_server: bool | None = None,
        local_ranks: bool | None = None,
        spectator_delay: bool | None = None,
        quick_computer: int | None = None,
    ) -> Configured:
        """Save what ``/durak settings`` was given: ``language`` 'auto' follows the server's
        Discord language; ``options`` are house rules (None values left alone);
        ``toggle_channel`` adds or removes a channel from the allowed list, ``all_channels``
        clears the list."""
        current = await self.settings(guild_id)
        changes: dict[str, Any] = {}
        if language == "auto":
            changes.update(locale="en", locale_explicit=False)
        elif language is not None:
            changes["locale"] = language
        if timer is not None:
            changes["turn_timer_seconds"] = timer  # update_settings checks the range
        if threads is not None:
            changes["use_threads"] = threads
        if pictures is not None:
            changes["pictures"] = pictures
        if difficulty is not None:
            changes["default_ai_difficulty"] = difficulty
        if spectator_delay is not None:
            changes["spectator_delay"] = spectator_delay
        if quick_computer is not None:
            if not 0 <= quick_computer <= QUICK_COMPUTER_MAX_SECONDS:
                raise ServiceError(
                    "settings.invalid_quick_computer", max=QUICK_COMPUTER_MAX_SECONDS
                )
            changes["quick_computer_seconds"] = quick_computer
        if preset is not None:
            changes["default_preset"] = preset
        if local_ranks is not None:
            changes["local_ranks"] = local_ranks
        house = dict(current.default_options)
        house.update({k: v for k, v in (options or {}).items() if v is not None})
        if house != current.default_options:
            changes["default_options"] = house
        if all_channels:
            changes["allowed_channel_ids"] = None
        elif toggle_channel is not None:
            allowed = list(current.allowed_channel_ids or ())
            if toggle_channel in allowed:
                allowed.remove(toggle_channel)
            else:
                allowed.append(toggle_channel)
            changes["allowed_channel_ids"] = allowed or None
        settings = current
        if changes:
            settings = await self.update_settings(guild_id, **changes)
        if min_games is not None or cross_server is not None:
            rating_settings = await self.storage.update_rating_settings(
                guild_id, min_games=min_games, cross_server=cross_server
            )
        else:
            rating_settings = await self.storage.rating_settings(guild_id)
        changed = bool(changes) or min_games is not None or cross_server is not None
        return Configured(settings, rating_settings, changed)

    async def preset_counts(self, guild_id: int) -> dict[str, int]:
        """Finished games per mode in a server (the mode list shows the most played first)."""
        return await self.storage.preset_counts(guild_id)

    # ----------------------------------------------------------------- rules

    async def shown_rules(
        self, guild_id: int | None, channel_id: int, preset: str | None
    ) -> ShownRules:
        """What ``/durak rules`` explains: the named mode; without one, the table of this
        channel (running, else the last one that ended here), else the server's default
        mode, each as a game of it would be played here (the "done" house rule)."""
        if preset is None:
            game_id = await self.game_in_channel(channel_id)
            if game_id is None:
                game_id = await self.storage.last_ended_game_in_channel(channel_id)
                if game_id is not None and await self.ended_session(game_id) is None:
                    game_id = None
            if game_id is not None:
                state: Any = await self.public_state(game_id)
                if isinstance(state, GameSession):
                    rules = state.game.rules
                else:
                    try:
                        rules = state.rules(players=max(2, len(state.seats)))
                    except Exception:
                        rules = state.rules()
                return ShownRules(rules, state.preset, game_id)
        house: dict[str, Any] = {}
        if guild_id is not None:
            settings = await self.settings(guild_id)
            house = settings.default_options
            if preset is None:
                preset = settings.default_preset
        name = preset or DEFAULT_PRESET
        if name not in PRESETS:
            raise ServiceError("error.unknown_preset", preset=name)
        return ShownRules(RuleSet.preset(name, auto_done=auto_done_for(house, name)), name)

    # ----------------------------------------------------------------- statistics, boards

    async def user_stats(self, guild_id: int, user_id: int) -> st.UserStats:
        return await self.storage.user_stats(guild_id, user_id)

    async def hint_games(self, guild_id: int, user_id: int) -> int:
        """Finished games of a player here in which they asked for hints."""
        return await self.storage.hint_games(guild_id, user_id)

    async def leaderboard_page(
        self, guild_id: int, period: str, sort: str, page: int, *, size: int, min_games: int
    ) -> tuple[list[st.LeaderboardEntry], int, int]:
        """(entries, the page shown, pages) of the fools/record board: ``page`` clamped to
        the board as it is now (it may have shrunk since its buttons were drawn)."""
        self.check_leaderboard(period, sort)
        ranked = await self.storage.leaderboard_size(
            guild_id,
            period,  # type: ignore[arg-type]
            min_games=min_games,
        )
        pages = max(1, -(-ranked // size))
        clamped = min(max(page, 0), pages - 1)
        entries = await self.storage.leaderboard(
            guild_id,
            period,  # type: ignore[arg-type]
            sort,  # type: ignore[arg-type]
            limit=size,
            offset=clamped * size,
            min_games=min_games,
        )
        return entries, clamped, pages

    async def rating_board(
        self,
        guild_id: int,
        *,
        period: str,
        mode: str,
        season: int | None,
        cross: bool,
        page: int,
        size: int,
    ) -> RatingBoardPage:
        """One page of the rating board (``page`` clamped to it). A period that does not
        exist is refused with the leaderboard's usual sentence."""
        if period not in PERIOD_SECONDS:
            self.check_leaderboard(period, "fools")  # refuses with the usual sentence
        storage = self.storage
        settings = await storage.rating_settings(guild_id)
        if cross and not settings.cross_server:
            return RatingBoardPage(cross_off=True)
        own_season = None if cross else season
        if own_season is not None and await storage.rating_season(guild_id, own_season) is None:
            numbers = tuple(sorted(s.number for s in await storage.rating_seasons(guild_id)))
            return RatingBoardPage(seasons=numbers)
        kwargs: dict[str, Any] = {
            "season": season,
            "mode": mode,
            "period": period,
            "min_games": settings.min_games,
            "cross_server": cross,
        }
        shown, entries, total = await storage.rating_leaderboard(
            guild_id, limit=size, offset=max(page, 0) * size, **kwargs
        )
        pages = max(1, -(-total // size))
        clamped = min(max(page, 0), pages - 1)
        if clamped != page:
            shown, entries, total = await storage.rating_leaderboard(
                guild_id, limit=size, offset=clamped * size, **kwargs
            )
        return RatingBoardPage(shown, tuple(entries), clamped, pages, settings.min_games)

    async def rating_profile(self, guild_id: int, user_id: int, name: str) -> tuple[Profile, int]:
        """A player's profile here and how many players the current season ranks."""
        storage = self.storage
        settings = await storage.rating_settings(guild_id)
        profile = await storage.rating_profile(
            guild_id, user_id, name=name, min_games=settings.min_games
        )
        total = 0
        if profile.season is not None:
            _, _, total = await storage.rating_leaderboard(
                guild_id, limit=0, min_games=settings.min_games
            )
        return profile, total

    async def game_rating(self, game_id: int) -> GameRating:
        """How a finished game moved its players' ratings."""
        return await self.storage.game_rating(game_id)

    async def new_season(self, guild_id: int, name: str | None) -> tuple[Season | None, Season]:
        """(the season that ended, the one that starts): every rating here starts over."""
        old = await self.storage.current_season(guild_id)
        return old, await self.storage.new_season(guild_id, name)

    async def seasons(self, guild_id: int) -> list[Season]:
        return await self.storage.rating_seasons(guild_id)

    # ----------------------------------------------------------------- records and hints

    async def record_settings(
        self,
        guild_id: int,
        *,
        replays_public: bool | None = None,
        hints_everywhere: bool | None = None,
    ) -> RecordSettings:
        """Who may replay this server's games and whether all its games offer hints; given
        values are saved first, and the server's running games follow at once."""
        if replays_public is None and hints_everywhere is None:
            current = await self.storage.record_settings(guild_id)
        else:
            current = await self.storage.set_record_settings(
                guild_id, replays_public=replays_public, hints_everywhere=hints_everywhere
            )
        for session in self._sessions.values():
            if session.guild_id == guild_id:
                session.hints_everywhere = current.hints_everywhere
        return current

    async def add_hint(self, session: GameSession, seat: int, user_id: int) -> int:
        """Count a hint given to ``seat``; the seat's count so far (the result shows it)."""
        count = await self.storage.add_hint(session.game_id, seat, user_id)
        session.hints[seat] = count
        return count

    # ----------------------------------------------------------------- hands

    async def closed_hand(self, game_id: int, user_id: int) -> HandClosed | None:
        """Why a player's hand of this game offers nothing any more (the game ended, they
        left), or None when it is open or there is no such hand."""
        try:
            await self.require_player(game_id, user_id)
        except HandClosed as closed:
            return closed
        except ServiceError:
            return None
        return None

    def find_player(self, game_id: int, user_id: int) -> tuple[GameSession, int] | None:
        """The session and seat of a player of a game held in memory, or None."""
        try:
            return self.player_seat(game_id, user_id)
        except ServiceError:
            return None

    # ----------------------------------------------------------------- where a game is

    async def require_here(
        self, game_id: int, guild_id: int | None, channels: frozenset[int] | None = None
    ) -> None:
        """Refuse (:class:`ElsewhereGame`) a click that names a game of another server, or,
        when ``channels`` are given (the clicked channel and its parent), of another channel.

        Every component that names a game comes through here before it does anything, so a
        copied or forged id cannot act on, or show, a game of another server. A game held in
        memory answers the server check at once (the hot path of a move); the channel check
        reads the stored row, which knows both the channel and the game's thread. A game
        that does not exist passes: the item then says so itself, as it would anywhere."""
        session = self.session(game_id)
        if session is not None and channels is None:
            if session.guild_id != guild_id:
                raise ElsewhereGame()
            return
        row = await self.storage.get_game(game_id)
        if row is None:
            if session is not None and session.guild_id != guild_id:
                raise ElsewhereGame()
            return
        if row.guild_id != guild_id:
            raise ElsewhereGame()
        if channels is not None and not channels & {row.channel_id, row.thread_id}:
            raise ElsewhereGame()

    # ----------------------------------------------------------------- delivery bookkeeping

    async def player_prefs(self, user_id: int) -> st.PlayerPrefs:
        return await self.storage.get_player_prefs(user_id)

    async def set_player_prefs(self, user_id: int, *, pings: bool) -> st.PlayerPrefs:
        return await self.storage.set_player_prefs(user_id, pings=pings)

    async def ping_delivered(self, game_id: int, version: int) -> None:
        """The turn ping owed at ``version`` went out: a restart does not repeat it."""
        await self.storage.ping_delivered(game_id, version)

    async def game_row(self, game_id: int) -> st.GameRow | None:
        """The stored row of a game, whatever its status (the channel notice reads it)."""
        return await self.storage.get_game(game_id)

    async def outbox_pending(self) -> list[st.OutboxRow]:
        """Everything still owed to the channels, oldest first (delivery resumes it)."""
        return await self.storage.outbox_pending()

    async def outbox_done(self, game_id: int, kind: str, version: int) -> None:
        """Discord took (or can never take) ``kind`` of ``game_id`` as of ``version``."""
        await self.storage.outbox_done(game_id, kind, version)
