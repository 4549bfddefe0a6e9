"""Config parsing: defaults, validation messages and .env precedence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import ConfigError, config_from_mapping, load_config


def test_defaults() -> None:
    cfg = config_from_mapping({})
    assert cfg.discord_token is None
    assert cfg.database_path == Path("data/durak.db")
    assert (cfg.dev_guild_id, cfg.log_level) == (None, "INFO")
    assert (cfg.ai_delay_seconds, cfg.table_edit_interval, cfg.default_turn_timer_seconds) == (
        0.5,
        1.0,
        90,
    )
    assert cfg.default_threads  # games get their own thread unless a server says otherwise


def test_values_are_parsed() -> None:
    cfg = config_from_mapping(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": "/tmp/x.db",
            "DEV_GUILD_ID": "1234",
            "LOG_LEVEL": "debug",
            "AI_DELAY_SECONDS": "0",
            "DEFAULT_TURN_TIMER_SECONDS": "0",
        }
    )
    assert (cfg.discord_token, cfg.dev_guild_id, cfg.log_level) == ("abc", 1234, "DEBUG")
    assert cfg.ai_delay_seconds == 0.0 and cfg.default_turn_timer_seconds == 0
    assert cfg.log_level_number == 10
    for raw, expected in (("off", False), ("0", False), ("ON", True), ("true", True)):
        assert config_from_mapping({"DEFAULT_THREADS": raw}).default_threads is expected


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID must be a whole number"),
        ({"DEV_GUILD_ID": "-5"}, "DEV_GUILD_ID must be at least 1"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
        ({"AI_DELAY_SECONDS": "soon"}, "AI_DELAY_SECONDS must be a number"),
        ({"TABLE_EDIT_INTERVAL": "-1"}, "TABLE_EDIT_INTERVAL must be a finite number"),
        ({"TABLE_EDIT_INTERVAL": "nan"}, "TABLE_EDIT_INTERVAL must be a finite number"),
        ({"DEFAULT_THREADS": "maybe"}, "DEFAULT_THREADS must be on or off"),
    ],
)
def test_invalid_values_explain_themselves(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        config_from_mapping(env)


def test_shards_default_to_every_shard_and_discords_count() -> None:
    cfg = config_from_mapping({})
    assert (cfg.shard_ids, cfg.shard_count, cfg.heartbeat_file) == (None, None, None)
    assert config_from_mapping({"SHARD_COUNT": "4"}).shard_count == 4


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("0,1", (0, 1)),
        (" 3 , 1 ", (1, 3)),
        ("4-7", (4, 5, 6, 7)),
        ("0,2-3", (0, 2, 3)),
        ("5", (5,)),
    ],
)
def test_shard_ids_lists_and_ranges(raw: str, expected: tuple[int, ...]) -> None:
    cfg = config_from_mapping({"SHARD_IDS": raw, "SHARD_COUNT": "8"})
    assert (cfg.shard_ids, cfg.shard_count) == (expected, 8)


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_IDS": "0,1", "SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1"),
        ({"SHARD_IDS": "2", "SHARD_COUNT": "2"}, r"between 0 and SHARD_COUNT-1 \(1\), got 2"),
        ({"SHARD_IDS": "-1", "SHARD_COUNT": "2"}, "shard numbers or ranges"),
        ({"SHARD_IDS": "a,b", "SHARD_COUNT": "2"}, "shard numbers or ranges"),
        ({"SHARD_IDS": "0,,1", "SHARD_COUNT": "2"}, "shard numbers or ranges"),
        ({"SHARD_IDS": "3-1", "SHARD_COUNT": "4"}, "runs backwards"),
        ({"SHARD_IDS": "0-2,1", "SHARD_COUNT": "4"}, "names a shard twice"),
    ],
)
def test_bad_shard_settings_explain_themselves(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        config_from_mapping(env)


def test_heartbeat_file_is_a_path() -> None:
    cfg = config_from_mapping({"HEARTBEAT_FILE": "/tmp/durak-heartbeat"})
    assert cfg.heartbeat_file == Path("/tmp/durak-heartbeat")


def test_env_file_fills_gaps_but_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DEV_GUILD_ID=77\nLOG_LEVEL=WARNING\n", encoding="utf-8")
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "AI_DELAY_SECONDS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    monkeypatch.setenv("TABLE_EDIT_INTERVAL", "2.5")
    # load_dotenv writes into os.environ; register the key so monkeypatch restores it.
    monkeypatch.setenv("DEV_GUILD_ID", "")
    monkeypatch.delenv("DEV_GUILD_ID")
    cfg = load_config(str(env_file))
    assert (cfg.dev_guild_id, cfg.log_level, cfg.table_edit_interval) == (77, "ERROR", 2.5)
    assert load_config(str(tmp_path / "missing.env")).log_level == "ERROR"


def test_env_example_is_valid_and_documents_every_key() -> None:
    from dotenv import dotenv_values

    example = Path(__file__).resolve().parents[2] / ".env.example"
    values = {k: v or "" for k, v in dotenv_values(example).items()}
    cfg = config_from_mapping(values)
    assert cfg.discord_token is None and cfg.database_path == Path("data/durak.db")
    assert cfg.database == "sqlite:///data/durak.db"
    documented = set(values)
    assert documented == {
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "AI_DELAY_SECONDS",
        "TABLE_EDIT_INTERVAL",
        "DEFAULT_TURN_TIMER_SECONDS",
        "SHARD_IDS",
        "SHARD_COUNT",
        "HEARTBEAT_FILE",
        "METRICS_PORT",
        "METRICS_HOST",
        "DEFAULT_THREADS",
    }
    # ... and the operator's manual has a row for each (DATABASE_PATH, the older name, too)
    manual = (example.parent / "docs" / "operations.md").read_text(encoding="utf-8")
    table = manual.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE))
    assert rows == documented | {"DATABASE_PATH"}


def test_metrics_port_setting() -> None:
    assert config_from_mapping({}).metrics_port is None
    config = config_from_mapping({"METRICS_PORT": "9464", "METRICS_HOST": "0.0.0.0"})
    assert (config.metrics_port, config.metrics_host) == (9464, "0.0.0.0")
    assert config_from_mapping({"METRICS_PORT": "9464"}).metrics_host == "127.0.0.1"
    for bad in ("0", "70000", "nine"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            config_from_mapping({"METRICS_PORT": bad})


def test_database_url_chooses_the_backend() -> None:
    assert config_from_mapping({}).database == "sqlite:///data/durak.db"
    pg = config_from_mapping({"DATABASE_URL": "postgresql://durak:pw@db:5432/durak"})
    assert pg.database == pg.database_url == "postgresql://durak:pw@db:5432/durak"
    lite = config_from_mapping({"DATABASE_URL": "sqlite:///var/durak.db"})
    assert (lite.database, lite.database_path, lite.database_url) == (
        "sqlite:///var/durak.db",
        Path("var/durak.db"),
        None,
    )
    # the older setting keeps working, and the newer one wins over it
    old = config_from_mapping({"DATABASE_PATH": "/srv/durak.db"})
    assert old.database == "sqlite:////srv/durak.db"
    both = config_from_mapping(
        {"DATABASE_PATH": "data/durak.db", "DATABASE_URL": "postgresql://db/durak"}
    )
    assert both.database == "postgresql://db/durak"


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"DATABASE_URL": "mysql://x@y/z"}, "DATABASE_URL must start with sqlite:///"),
        ({"DATABASE_URL": "data/durak.db"}, "DATABASE_URL must start with"),
    ],
)
def test_bad_database_settings_explain_themselves(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        config_from_mapping(env)
