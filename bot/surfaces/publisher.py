"""The Discord side of :class:`bot.game.models.Publisher`: one public message per game.

Each game owns exactly one public message (the lobby, which turns into the table, which ends
as the final table). It is edited in place, and edits are coalesced: a burst of moves (a
computer answering instantly, several throw-ins) produces at most one edit per
``interval`` seconds, and each edit renders the *latest* state rather than queueing stale
ones. Discord rate-limits message edits per channel, so this keeps busy tables responsive.
Pings and result announcements are separate short messages because edits do not notify.
Each edit also replaces the picture of the table (:mod:`bot.pictures`) when the guild wants
one, so the coalescing bounds uploads too.

Nothing is sent from the service's call directly: each call becomes an obligation of
:class:`bot.surfaces.delivery.Delivery`, which retries it until Discord takes it, and calls back the
``deliver_*`` methods here to render and send the content as it is at that moment.
When a ping goes out, and that a game shows at most one, is :mod:`bot.surfaces.pings`' business.
Every refresh also brings the players' live hands up to date (:mod:`bot.surfaces.live_hands`).
"""

from __future__ import annotations

import logging

import discord

from ..game.models import GameSession, LobbyInfo, PingKind
from ..game.service import GameService
from ..i18n import t
from ..pictures import Superseded, TablePictures
from ..rendering.lobby import lobby_embed
from ..rendering.standings import result_lines
from ..rendering.table import table_embed
from .delivery import Delivery, Obsolete, ping_due
from .learn_views import closing_message
from .live_hands import LiveHands
from .lobby_views import lobby_view, table_view
from .pings import TurnPings
from .rematch_views import rematch_message, result_announcement

__all__ = ["DiscordPublisher"]

log = logging.getLogger(__name__)


class DiscordPublisher:
    """Renders and sends; never decides anything about the game."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        interval: float,
        live_hands: LiveHands,
        pings: TurnPings,
    ) -> None:
        self.live_hands = live_hands
        self.pings = pings
        #: Table edits sent (for bench/bot_load.py).
        self.table_edits = 0
        self.client = client
        self.service = service
        self.interval = interval
        self.delivery = Delivery(self, lambda: service, interval=interval)
        self.pictures = TablePictures(service.settings, newer=self.delivery.owes_newer_table)
        #: The last state each game's channel notice was brought to (see _follow_notice).
        self._notices: dict[int, str] = {}
        #: The same for each game's invite (see _close_invite).
        self._invites: dict[int, str] = {}

    def _channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    # ----------------------------------------------------------------- the service's calls

    async def refresh(self, game_id: int) -> None:
        self.live_hands.changed(game_id)
        session = self.service.session(game_id)
        if session is not None and session.finished:
            await self.pings.ended(game_id)
        # Ended games and lobbies may hold an outbox row to clear once the edit went out
        # (lobby edits are rare, so clearing a row that is not there costs little).
        durable = session is None or session.finished
        self.delivery.owe_table(game_id, session.version if session else 0, durable=durable)

    def watchers_changed(self, game_id: int) -> None:
        """The number of spectators changed: one more (coalesced) table edit says it."""
        session = self.service.session(game_id)
        if session is not None and not session.finished:
            self.delivery.owe_table(game_id, session.version)

    async def ping(self, session: GameSession, seat: int, kind: PingKind) -> None:
        self.delivery.owe_ping(session.game_id, seat, kind, session.version)

    async def remind(self, session: GameSession, seat: int, deadline: float) -> None:
        self.delivery.owe_reminder(session.game_id, seat, session.version, deadline)

    async def finished(self, session: GameSession) -> None:
        self.delivery.owe_result(session.game_id, session.version, durable=True)

    # ----------------------------------------------------------------- delivery (retried)

    async def deliver_table(self, game_id: int) -> None:
        state = await self.service.public_state(game_id)
        if state.message_id is None:
            raise Obsolete
        # Asked before the table is rendered: a text-only table (the guild's choice, or a
        # channel that refused a picture) is edited here directly, with no picture service
        # (and no picture moment to compare) involved.
        pictured = await self.pictures.wanted(state.guild_id, state.channel_id)
        if isinstance(state, GameSession):
            embed = table_embed(state)
            view = table_view(state, activity=self.service.activity_button)
        elif state.series is not None:
            embed, view = rematch_message(state, await self.service.rematch_waiting_for(state))
        else:
            embed = lobby_embed(state)
            view = lobby_view(state)
        message = self._channel(state.channel_id, state.guild_id).get_partial_message(
            state.message_id
        )
        try:
            if pictured:
                await self.pictures.edit_table(message, state, embed=embed, view=view)
            else:  # no picture: an empty attachment list removes one shown before
                await message.edit(content=None, embed=embed, view=view, attachments=[])
        except Superseded:  # a newer edit of this table is owed: it goes out instead
            raise Obsolete from None
        self.table_edits += 1
        if isinstance(state, LobbyInfo):
            stage = "expired" if state.closed == "expired" else state.status
        else:
            stage = "playing" if state.status == "running" else state.status
        if stage in ("playing", "cancelled", "expired"):  # "finished": deliver_result's job
            await self._follow_notice(game_id, stage, state.locale)
            await self._close_invite(game_id, stage, state.locale)

    async def unopened(self, game_id: int) -> None:
        """A lobby the bot was opening when it stopped (``restore_lobbies`` cancelled it):
        its channel notice says so instead of "… is opening a Durak table…" for good."""
        state = await self.service.public_state(game_id)
        await self._follow_notice(game_id, "unopened", state.locale)

    async def deliver_ping(self, game_id: int, seat: int, kind: str, version: int) -> None:
        session = self.service.session(game_id)
        if session is None:
            raise Obsolete
        if kind not in ("defend", "lead") or not ping_due(session, seat, kind):
            self._ping_settled(session, seat, kind)
            raise Obsolete
        # Whether the player is mentioned at all (away, pings on) is bot.surfaces.pings' decision.
        posted = await self.pings.ping(session, seat, kind)  # type: ignore[arg-type]
        owed = session.owed_ping
        self._ping_settled(session, seat, kind)
        # Only a ping the channel saw is recorded at once (a write per turn otherwise, which
        # queued behind the group commit); a skipped one is dropped by the next stored state,
        # and after a restart before that it is decided again, which then may post it.
        if posted and owed is not None and owed[:2] == (seat, kind):
            try:
                await self.service.ping_delivered(game_id, owed[2])
            except Exception:  # at worst the ping is repeated after a restart
                log.warning("game %d: could not record the delivered ping", game_id)

    @staticmethod
    def _ping_settled(session: GameSession, seat: int, kind: str) -> None:
        """The turn's ping went out (or never will): the next stored state drops it."""
        owed = session.owed_ping
        if owed is not None and owed[:2] == (seat, kind):
            session.owed_ping = None

    async def deliver_reminder(
        self, game_id: int, seat: int, version: int, deadline: float
    ) -> None:
        session = self.service.session(game_id)
        if session is None or session.finished or session.version != version:
            raise Obsolete
        await self.pings.remind(session, seat, deadline)

    async def deliver_result(self, game_id: int) -> None:
        session = await self.service.ended_session(game_id)
        if session is None or session.status != "finished":
            raise Obsolete
        if session.lesson is not None:  # its own last word, in its private thread
            content, view = closing_message(session)
            await self._channel(session.channel_id, session.guild_id).send(
                content, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        humans = [discord.Object(s.user_id) for s in session.seats if s.user_id is not None]
        rating = await self.service.game_rating(game_id)
        lines = result_lines(rating, lambda user_id: f"<@{user_id}>", session.locale)
        content, view = result_announcement(session, lines)
        sent = await self._channel(session.channel_id, session.guild_id).send(
            content,
            view=view,
            allowed_mentions=discord.AllowedMentions(users=humans, roles=False, everyone=False),
        )
        await self._follow_notice(game_id, "finished", session.locale, link=sent.jump_url)

    async def _follow_notice(
        self, game_id: int, stage: str, locale: str, *, link: str | None = None
    ) -> None:
        """Bring the channel's "… is opening a Durak table" notice (a game played in a
        thread) up to the game's stage, so the channel never points at a table long gone:
        playing, finished (with a link to the result), cancelled or expired.

        Only a change of stage reads the game row (a table edit per move must stay cheap);
        a notice Discord refuses to edit (deleted, no access) is given up, never retried,
        since the game itself is unaffected."""
        if self._notices.get(game_id) == stage:
            return
        self._notices[game_id] = stage
        row = await self.service.game_row(game_id)
        notice = row.options.get("notice") if row is not None else None
        if row is None or not isinstance(notice, list) or len(notice) != 2:
            return
        thread = f"<#{row.thread_id}>" if row.thread_id is not None else ""
        text = t(
            f"lobby.notice.{stage}", locale, host=f"<@{row.host_id}>", thread=thread, link=link
        )
        message = self._channel(int(notice[0]), row.guild_id).get_partial_message(int(notice[1]))
        try:
            await message.edit(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("game %d: channel notice not updated (%s)", game_id, exc)

    async def _close_invite(self, game_id: int, stage: str, locale: str) -> None:
        """A lobby's invite keeps no Join button once the lobby started or closed: it says
        which, and a click on it before the edit lands is refused by the lobby itself.
        Like the notice, only a change of stage reads the game row, and a refused edit is
        given up."""
        if self._invites.get(game_id) == stage:
            return
        self._invites[game_id] = stage
        row = await self.service.game_row(game_id)
        invite = row.options.get("invite") if row is not None else None
        if row is None or not isinstance(invite, list) or len(invite) != 3:
            return
        text = t(
            f"lobby.invite_over.{stage}",
            locale,
            users=", ".join(f"<@{int(u)}>" for u in invite[2]),
            host=f"<@{row.host_id}>",
            game_id=game_id,
        )
        message = self._channel(int(invite[0]), row.guild_id).get_partial_message(int(invite[1]))
        try:
            await message.edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.info("game %d: invite not updated (%s)", game_id, exc)

    async def close(self) -> None:
        await self.live_hands.close()
        await self.pings.close()
        await self.delivery.close()
        self.pictures.close()
