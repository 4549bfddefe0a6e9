"""Issue 27, "False or impossible": each text tells what really happens, in both languages.

Leaving a running game does one of four things (bot.game.models.ForfeitOutcome); the
question before it, the answer after it and the table's line must all tell that one thing,
for each case: a computer plays on (three people), the game ends and the other person wins
(two people), the game ends with nobody else a person (one person and computers), and the
game ends before anybody moved, counting for nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.game.models import ForfeitOutcome, GameSession, LeaveEffect, SeatInfo
from bot.i18n import catalog, t
from bot.pictures import render_png, table_scene
from bot.pictures.scene import Scene
from bot.rendering.common import seat_name
from bot.rendering.result import leave_answer, leave_consequence, leave_question, result_text
from bot.rendering.standings import achievement_name, board_embed, provisional_note, result_lines
from bot.storage.rating_rows import BoardEntry, GameRating, PlayerChange
from engine import Game, Result, RuleSet
from tests.bot.helpers import labels, message, message_text, play_out, service
from tests.bot.test_play import start_game
from tests.bot.test_server_life import interaction_locales

OUTCOMES: tuple[ForfeitOutcome, ...] = ("takeover", "ends", "alone", "void")


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("outcome", OUTCOMES)
def test_question_and_answer_tell_the_same_consequence(outcome: Any, locale: str) -> None:
    """The question and the answer carry the same sentence of what happens, and no other
    case's sentence: a leave that ends the game never speaks of a computer playing on."""
    effect = LeaveEffect(outcome, (42,) if outcome == "ends" else ())
    said = leave_consequence(effect, locale)
    asked, answered = leave_question(effect, 7, locale), leave_answer(effect, 7, locale)
    assert said in asked and said in answered
    for other in OUTCOMES:
        if other != outcome:
            theirs = leave_consequence(LeaveEffect(other, (42,)), locale)
            assert theirs not in asked and theirs not in answered
    computer = t("leave.consequence.takeover", locale)
    assert (computer in answered) == (outcome == "takeover")
    if outcome == "ends":
        assert "<@42>" in asked and "<@42>" in answered
    forfeit = "техническое поражение" if locale == "ru" else "forfeit"
    assert (forfeit in asked) == (outcome != "void")


async def _leave(actor: Any, channel: Any, expected: str) -> tuple[str, str]:
    """``/durak leave`` and the confirming click: (question, answer)."""
    asked = await actor.slash(channel, "durak leave")
    assert asked.ephemeral and asked.response is not None
    button = labels(asked.response.message)[0]
    assert button == t("leave.button.leave" if expected == "void" else "leave.button.confirm", "en")
    done = await actor.click(asked.response.message, label=button)
    assert done.response is not None
    return asked.response.content, done.response.content


def _table(env: simcord.Env, channel: Any, game_id: int) -> str:
    session = service(env).session(game_id)
    assert session is not None and session.message_id is not None
    return message_text(message(channel, session.message_id))


async def test_leave_with_people_left_hands_the_seat_to_a_computer(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, bob = world["channel"], world["bob"]
    game_id = await start_game(world, ["alice", "bob", "carol"])
    await play_out(
        simcord_env, channel, game_id, [world["alice"], bob, world["carol"]], stop_after=1
    )
    asked, answered = await _leave(bob, channel, "takeover")
    said = t("leave.consequence.takeover", "en")
    assert said in asked and said in answered
    session = service(simcord_env).session(game_id)
    assert session is not None and not session.finished and session.seats[1].left
    name = seat_name(session.seats[1], "en")
    assert t("event.left", "en", name=name) in _table(simcord_env, channel, game_id)


async def test_leave_of_two_ends_the_game_and_names_the_winner(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, bob = world["channel"], world["alice"], world["bob"]
    game_id = await start_game(world, ["alice", "bob"])
    await play_out(simcord_env, channel, game_id, [alice, bob], stop_after=1)
    asked, answered = await _leave(bob, channel, "ends")
    said = t("leave.consequence.ends", "en", winners=f"<@{alice.id}>")
    assert said in asked and said in answered
    assert "computer" not in answered
    session = service(simcord_env).session(game_id)
    assert session is not None and session.status == "finished" and session.ended_by == 1
    table = _table(simcord_env, channel, game_id)
    assert t("event.forfeit_end_left", "en", name="bob", winners="alice") in table
    rows = await service(simcord_env).storage.game_results(game_id)
    assert {r.user_id: r.outcome for r in rows} == {alice.id: "win", bob.id: "forfeit"}


async def test_leave_among_computers_ends_the_game(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice = world["channel"], world["alice"]
    created = await alice.slash(channel, "durak new", seats=3)
    lobby = created.response.id
    for _ in range(2):
        await alice.click(message(channel, lobby), label="Add computer")
    await alice.click(message(channel, lobby), label="Start")
    game_id = 1
    await play_out(simcord_env, channel, game_id, [alice], stop_after=1)
    session = service(simcord_env).session(game_id)
    assert session is not None and session.game.version > 0
    asked, answered = await _leave(alice, channel, "alone")
    said = t("leave.consequence.alone", "en")
    assert said in asked and said in answered
    assert session.status == "finished"
    assert t("event.forfeit_end_left_alone", "en", name="alice") in _table(
        simcord_env, channel, game_id
    )


async def test_leave_before_any_move_counts_for_nothing(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: a game nobody moved in is not rated and not counted in stats or
    achievements, and the players are told so (in Russian too)."""
    channel, alice, bob = world["channel"], world["alice"], world["bob"]
    guild = world["guild"].id
    game_id = await start_game(world, ["alice", "bob"])
    svc = service(simcord_env)
    session = svc.session(game_id)
    assert session is not None and session.game.version == 0
    with interaction_locales(monkeypatch, {bob.id: "ru"}):
        asked = await bob.slash(channel, "durak leave")
        assert labels(asked.response.message) == [t("leave.button.leave", "ru"), "Остаться"]
        said = t("leave.consequence.void", "ru")
        assert said in asked.response.content
        done = await bob.click(asked.response.message, label=t("leave.button.leave", "ru"))
        assert said in done.response.content and "техническое поражение" not in (
            done.response.content
        )
    assert session.status == "finished" and session.void
    assert await svc.storage.game_results(game_id) == []
    assert not (await svc.storage.game_rating(game_id)).rated
    for user in (alice, bob):
        assert (await svc.storage.user_stats(guild, user.id)).games == 0
    table = _table(simcord_env, channel, game_id)
    assert t("event.forfeit_end_void", "en", name="bob") in table
    result = t("announce.forfeit_end_void", "en", user=f"<@{bob.id}>")
    assert result in table
    assert "Not the fool" not in table and "is the fool" not in table


async def test_nothing_to_review_is_not_nothing_to_replay(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 4: ``/durak review`` with no finished game says there is nothing to review."""
    channel, alice = world["channel"], world["alice"]
    for locale in ("en", "ru"):
        with interaction_locales(monkeypatch, {alice.id: locale}):
            review = await alice.slash(channel, "durak review")
            replay = await alice.slash(channel, "durak replay")
        assert review.ephemeral and replay.ephemeral
        assert t("review.none_yet", locale) in message_text(review.response.message)
        assert t("replay.none_yet", locale) in message_text(replay.response.message)
    assert "review" in t("review.none_yet", "en") and "replay" in t("replay.none_yet", "en")
    assert "разбирать" in t("review.none_yet", "ru") and "повтор" in t("replay.none_yet", "ru")


# --------------------------------------------------------------------------- item 7: a draw


def _ended(players: int, seed: int = 3) -> GameSession:
    game = Game.new(RuleSet(players=players), seed)
    game.apply(game.legal_actions(game.attacker)[0])
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(players)]
    return GameSession(1, 10, 20, 30, 100, "podkidnoy", seats, game, seed=7, version=2)


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_draw_names_who_ended_it_together_not_a_winner(locale: str) -> None:
    """The draw said "Went out, in order: 1. alice, 2. Computer 1", which reads as alice
    winning: it says who ran out of cards together, and only then who went out before."""
    session = _ended(3)
    session.game.result = Result("draw", None, (), None, (2, 0, 1))
    session.out_groups = [[2], [0, 1]]
    session.status, session.locale = "finished", locale
    text = result_text(session, locale)
    assert t("announce.draw_together", locale, users="<@100>, <@101>") in text
    assert t("announce.draw_earlier", locale, users="1. <@102>") in text
    assert "2. " not in text  # those who ended it together are not ranked
    two = _ended(2)
    two.game.result = Result("draw", None, (), None, (0, 1))
    two.out_groups = [[0, 1]]
    two.status = "finished"
    text = result_text(two, locale)
    assert "1. " not in text and "<@100>, <@101>" in text


def _roles(scene: Any) -> list[str]:
    return [s.role for s in scene.seats]


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_final_picture_shows_the_outcome_not_the_play(locale: str) -> None:
    """The final table said only "Game over" and still showed the forfeiter attacking."""
    playing = {t(k, locale) for k in ("role.attacking", "role.defending", "role.waiting")}
    playing |= {t("picture.throwing_in", locale), t("role.taking", locale)}
    forfeit = _ended(3)
    forfeit.locale = locale
    forfeit.forfeits, forfeit.ended_by, forfeit.status = {0: "left"}, 0, "finished"
    scene = table_scene(forfeit)
    assert scene.banner == t("picture.forfeit_end", locale)
    assert _roles(scene) == [t("picture.forfeited", locale)] + [t("picture.won", locale)] * 2
    assert scene.seats[0].tone == "fool"
    draw = _ended(3)
    draw.locale = locale
    draw.game.result = Result("draw", None, (), None, (2,))
    draw.status = "finished"
    scene = table_scene(draw)
    assert scene.banner == t("picture.draw", locale)
    assert not playing & set(_roles(scene))
    assert t("picture.draw_seat", locale) in _roles(scene)
    void = _ended(2)
    void.game = Game.new(RuleSet(players=2), 3)
    void.locale, void.forfeits, void.ended_by, void.status = locale, {1: "left"}, 1, "finished"
    scene = table_scene(void)
    assert scene.banner == t("picture.void", locale) and _roles(scene) == ["", ""]


def test_the_picture_shows_no_frozen_countdown() -> None:
    """The picture is drawn once per move: a countdown on it would stand still while the
    text's Discord timestamp counts down, so it carries no time at all."""
    session = _ended(2)
    session.timer_seconds, session.deadline = 90, 1090.0
    timed = render_png(table_scene(session))
    session.deadline = None
    assert render_png(table_scene(session)) == timed
    assert not any("time" in name for name in Scene.__dataclass_fields__)
    assert not any(k.startswith("picture.time") for k in catalog("en"))


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_cross_server_refusal_names_the_option_as_the_client_shows_it(locale: str) -> None:
    """Item 6: ``cross_server`` is a True/False option; no client offers ``cross_server:on``."""
    text = t("ratings.board.cross_off", locale)
    assert f"`{t('cmd.param.cross_server.name', locale)}: True`" in text
    assert ":on" not in text


# --------------------------------------------------------------------------- unclear words


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_question_mark_is_explained_where_it_is_shown(locale: str) -> None:
    note = provisional_note(locale)
    new = GameRating(1, True, (PlayerChange(5, 1, 1000, 1069, 1),))
    assert "1069?" in "\n".join(result_lines(new, str, locale))
    assert note in result_lines(new, str, locale)
    settled = GameRating(1, True, (PlayerChange(5, 1, 1000, 1012, 30),))
    assert note not in result_lines(settled, str, locale)
    board = board_embed(None, [BoardEntry(1, 5, "alice", 1069, 1)], 0, 1, locale)
    assert "1069?" in (board.description or "") and note in (board.footer.text or "")
    board = board_embed(None, [BoardEntry(1, 5, "alice", 1500, 40)], 0, 1, locale)
    assert note not in (board.footer.text or "")
    assert "10" in note  # the number of games after which it settles


def test_achievements_name_each_player_once() -> None:
    rating = GameRating(1, True, (), ((5, "first_game"), (5, "first_escape"), (6, "first_game")))
    (line,) = [x for x in result_lines(rating, lambda p: f"<@{p}>", "en") if "🏅" in x]
    assert line.count("<@5>") == 1 and line.count("<@6>") == 1
    first, not_fool = (achievement_name(k, "en") for k in ("first_game", "first_escape"))
    assert f"<@5>: {first}, {not_fool}" in line


async def test_the_lobby_says_who_hosts_after_the_host_leaves(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, bob, carol = world["channel"], world["alice"], world["bob"], world["carol"]
    created = await alice.slash(channel, "durak new", seats=4)
    lobby = created.response.id
    await bob.click(message(channel, lobby), label="Join")
    await carol.click(message(channel, lobby), label="Join")
    await alice.click(message(channel, lobby), label="Leave")
    said = t("lobby.host_passed", "en", left=f"<@{alice.id}>", host=f"<@{bob.id}>")
    assert said in message_text(message(channel, lobby))
    # Handed on again by choice: the note would be false now, so it goes.
    await bob.select(message(channel, lobby), [str(carol.id)], custom_id="durak:lobbyhost:1")
    assert "is now the host" not in message_text(message(channel, lobby))


async def test_the_level_menu_does_not_fill_the_lobby(simcord_env: simcord.Env, world: Any) -> None:
    """The menu seated a computer, and Add computer then said "The lobby is full"."""
    channel, alice = world["channel"], world["alice"]
    created = await alice.slash(channel, "durak new", seats=2)
    lobby = created.response.id
    await alice.select(message(channel, lobby), ["hard"], custom_id="durak:lobbyai:1")
    assert "Computer 1" not in message_text(message(channel, lobby))
    added = await alice.click(message(channel, lobby), label="Add computer")
    assert not added.ephemeral
    text = message_text(message(channel, lobby))
    assert "Computer 1 (computer, Hard)" in text
    assert t("lobby.level_option", "en", level="Hard") in text


async def test_an_invite_loses_its_join_button_when_the_lobby_starts_or_closes(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, bob, carol = world["channel"], world["alice"], world["bob"], world["carol"]
    created = await alice.slash(channel, "durak new", seats=3, invite=bob)
    lobby = created.response.id
    invite = channel.history()[-1]
    assert labels(invite) == ["Join"]
    await carol.click(message(channel, lobby), label="Join")
    await alice.click(message(channel, lobby), label="Start")
    invite = message(channel, invite.id)
    assert labels(invite) == []
    users, host = f"<@{bob.id}>", f"<@{alice.id}>"
    assert invite.content == t("lobby.invite_over.playing", "en", users=users, host=host, game_id=1)
    await leave_all(simcord_env, world, channel)
    created = await bob.slash(channel, "durak new", seats=3, invite=alice)
    invite = channel.history()[-1]
    await bob.click(message(channel, created.response.id), label="Cancel")
    invite = message(channel, invite.id)
    assert labels(invite) == [] and "The lobby was cancelled" in invite.content


async def leave_all(env: simcord.Env, world: Any, channel: Any) -> None:
    """End game 1 (alice and carol leave)."""
    session = service(env).session(1)
    assert session is not None
    await world["mod"].slash(channel, "durak cancel")
    assert service(env).session(1) is not None and service(env).session(1).finished  # type: ignore[union-attr]


def test_pass_means_done_only_and_transfer_is_transfer() -> None:
    """*Pass* said both *done* (Bito / Pass) and *transfer*; the glossary keeps Pass for
    done, and the catalogues say Transfer (Russian: перевод) for passing the attack on."""
    import re

    for key, text in catalog("en").items():
        if key.startswith("cmd.") or key.startswith("preset.perevodnoy-pass-card."):
            continue
        words = re.findall(r"\b[Pp]ass(?:es|ed|ing)?\b(?! over)", text)
        assert all(text.count("Bito / Pass") for _ in words), (key, text)
    assert t("hand.button.done", "en") == "Bito / Pass"
    assert t("hand.button.done", "ru") == "Бито / Пас"
    transfer = [k for k in catalog("en") if k.startswith("hand.button.") and "transfer" in k]
    for key in transfer:
        assert "Pass" not in catalog("en")[key] and "Transfer" in catalog("en")[key], key


def test_a_deal_nobody_moved_in_gives_no_matchstick() -> None:
    """Item 8 in a session of deals: the tally does not count a deal that counts for nothing."""
    from bot.game.series import Series, deal_losers

    assert deal_losers(None, 1, {1: "left"}) == (1,)
    assert deal_losers(None, 1, {1: "left"}, void=True) == ()
    after = Series.first(1, 2).next(1, deal_losers(None, 1, {1: "left"}, void=True), 0)
    assert after.fools == (0, 0) and after.draws == 0
