"""Who is at the other end of a socket (bot/activity/auth.py): the OAuth2 code exchange, made
against a stand-in for Discord's API on 127.0.0.1 (the same HTTP calls, another host), the
signed session tokens, and the settings that turn the Activity on."""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp import web

from bot.activity.auth import AuthError, DiscordOAuth, LocalOAuth, SessionSigner
from bot.config import ConfigError, config_from_mapping


async def _fake_discord(aiohttp_port: list[int]) -> tuple[web.AppRunner, list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []

    async def token(request: web.Request) -> web.Response:
        form = dict(await request.post())
        seen.append(form)
        if form.get("code") != "good" or form.get("client_secret") != "s3cret":
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": "at-1", "token_type": "Bearer"})

    async def me(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bearer at-1":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response(
            {"id": "4242", "username": "ann", "global_name": "Ann <b>", "avatar": "0" * 32}
        )

    app = web.Application()
    app.router.add_post("/oauth2/token", token)
    app.router.add_get("/users/@me", me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    aiohttp_port.append(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
    return runner, seen


async def test_the_code_is_exchanged_with_the_secret_and_names_the_user() -> None:
    port: list[int] = []
    runner, seen = await _fake_discord(port)
    oauth = DiscordOAuth("123", "s3cret", api=f"http://127.0.0.1:{port[0]}")
    try:
        access = await oauth.exchange("good")
        user = await oauth.user(access)
        assert (user.id, user.name, user.avatar) == (4242, "Ann <b>", "0" * 32)
        assert seen[0] == {
            "client_id": "123",
            "client_secret": "s3cret",
            "grant_type": "authorization_code",
            "code": "good",
        }
        with pytest.raises(AuthError):
            await oauth.exchange("forged")
        with pytest.raises(AuthError):
            await oauth.user("at-2")
    finally:
        await oauth.close()
        await runner.cleanup()
    # Discord unreachable: a refusal the client can show, not a server error
    gone = DiscordOAuth("123", "s3cret", api=f"http://127.0.0.1:{port[0]}")
    try:
        with pytest.raises(AuthError, match="did not answer"):
            await gone.exchange("good")
    finally:
        await gone.close()


async def test_the_local_stand_in_takes_only_its_own_codes() -> None:
    oauth = LocalOAuth()
    assert (await oauth.user(await oauth.exchange("local:77:Bo"))).id == 77
    with pytest.raises(AuthError):
        await oauth.exchange("a-discord-code")
    with pytest.raises(AuthError):
        await oauth.user("local:x:Bo")


def test_session_tokens_name_their_user_and_cannot_be_forged() -> None:
    now = [1_000_000.0]
    signer = SessionSigner("secret", clock=lambda: now[0])
    token = signer.issue(42, seconds=60)
    assert signer.user_of(token) == 42
    user, expiry, signature = token.split(".")
    for forged in (
        f"43.{expiry}.{signature}",  # another user, same signature
        f"{user}.{int(expiry) + 999}.{signature}",  # a longer life
        SessionSigner("other secret", clock=lambda: now[0]).issue(42),
        "42",
        None,
        f"{user}.{expiry}.",
    ):
        with pytest.raises(AuthError):
            signer.user_of(forged)
    now[0] += 61
    with pytest.raises(AuthError, match="expired"):
        signer.user_of(token)


def test_the_activity_is_off_unless_all_its_settings_are_given() -> None:
    assert not config_from_mapping({}).activity_enabled
    full = {
        "ACTIVITY_CLIENT_ID": "123",
        "ACTIVITY_CLIENT_SECRET": "s",
        "ACTIVITY_PUBLIC_URL": "https://durak.example.org",
    }
    cfg = config_from_mapping(full | {"ACTIVITY_PORT": "9000"})
    assert cfg.activity_enabled and (cfg.activity_host, cfg.activity_port) == ("127.0.0.1", 9000)
    with pytest.raises(ConfigError, match="ACTIVITY_PUBLIC_URL"):
        config_from_mapping({k: v for k, v in full.items() if k != "ACTIVITY_PUBLIC_URL"})
    with pytest.raises(ConfigError, match="https://"):
        config_from_mapping(full | {"ACTIVITY_PUBLIC_URL": "http://durak.example.org"})
    with pytest.raises(ConfigError, match="ACTIVITY_PORT"):
        config_from_mapping(full | {"ACTIVITY_PORT": "70000"})
    assert config_from_mapping({"ACTIVITY_LOCAL_LOGIN": "1"}).activity_enabled
