"""Shard settings and the shard of a guild: parsing CRIMECITY_SHARD_*, create_bot's checks, which guilds a
process posts to, and the one line per problem `python -m bot` prints."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot import Settings, create_bot, preflight
from bot.shards import UNSHARDED, ShardPlan, format_ids, from_settings, plan, shard_of
from bot.startup import shard_ready_line

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def guild_on(shard: int, count: int, n: int = 7) -> int:
    """A guild id that Discord routes to `shard` of `count` (its timestamp bits pick the shard)."""
    return ((n * count + shard) << 22) | 12345


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("", "", UNSHARDED),
        ("4", "", ShardPlan(4, (0, 1, 2, 3))),
        ("4", "0,1", ShardPlan(4, (0, 1))),
        ("4", "0-3", ShardPlan(4, (0, 1, 2, 3))),
        ("8", " 6-7 , 0-1,4 ", ShardPlan(8, (0, 1, 4, 6, 7))),
        ("1", "0", ShardPlan(1, (0,))),
    ],
)
def test_shard_settings_parse(count: str, ids: str, expected: ShardPlan) -> None:
    assert from_settings(count, ids) == expected


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("", "0,1", "CRIMECITY_SHARD_IDS='0,1' is set without CRIMECITY_SHARD_COUNT"),
        ("4", "0,4", "CRIMECITY_SHARD_IDS='0,4': shard id 4 outside 0-3"),
        ("2", "0-5", "CRIMECITY_SHARD_IDS='0-5': shard ids 2-5 outside 0-1"),
        ("4", "0,,1", "CRIMECITY_SHARD_IDS='0,,1' is not a list of shard ids"),
        ("4", "a-b", "is not a list of shard ids"),
        ("4", "-1", "is not a list of shard ids"),
        ("4", "3-1", "the range 3-1 runs backwards; write 1-3"),
        ("4", "0,1,1", "name a shard twice"),
        ("4", "0-99999999999", "shard id 99999999999 is above any shard count"),
        ("0", "", "CRIMECITY_SHARD_COUNT='0' is not a shard count"),
        ("four", "", "CRIMECITY_SHARD_COUNT='four' is not a shard count"),
        ("-2", "", "is not a shard count"),
    ],
)
def test_bad_shard_settings_say_what_to_fix(count: str, ids: str, says: str) -> None:
    with pytest.raises(ValueError) as error:
        from_settings(count, ids)
    message = str(error.value)
    assert says in message and "\n" not in message


def test_preflight_reports_each_setting_in_one_line() -> None:
    env = {
        "DISCORD_TOKEN": TOKEN,
        "CRIMECITY_DB": "postgresql://bot@db.example:5432/crimecity",
        "CRIMECITY_SHARD_COUNT": "2",
        "CRIMECITY_SHARD_IDS": "1,2",
        "CRIMECITY_HEALTH_PORT": "99999",
    }
    problems = preflight.check(Settings.from_env(env))
    assert len(problems) == 2
    assert problems[0].startswith("CRIMECITY_SHARD_IDS='1,2': shard id 2 outside 0-1")
    assert problems[1].startswith("CRIMECITY_HEALTH_PORT='99999' is not a port")
    good = env | {"CRIMECITY_SHARD_IDS": "1", "CRIMECITY_HEALTH_PORT": "0.0.0.0:8080"}
    settings = Settings.from_env(good)
    assert preflight.check(settings) == []
    assert settings.shard_plan() == ShardPlan(2, (1,)) and settings.health_address() == ("0.0.0.0", 8080)
    assert Settings.from_env(good | {"CRIMECITY_HEALTH_PORT": "8080"}).health_address() == ("127.0.0.1", 8080)
    assert Settings.from_env({}).health_address() is None and Settings.from_env({}).shard_plan() == UNSHARDED


def test_some_shards_need_a_shared_postgresql_database(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "CRIMECITY_DB": str(tmp_path / "x.db"), "CRIMECITY_SHARD_COUNT": "4"}
    assert preflight.check(Settings.from_env(env)) == []  # every shard in one process: SQLite is fine
    (problem,) = preflight.check(Settings.from_env(env | {"CRIMECITY_SHARD_IDS": "0-1"}))
    assert problem.startswith("CRIMECITY_SHARD_IDS=0-1 holds only some of the 4 shards") and "postgresql://" in problem
    assert preflight.check(Settings.from_env(env | {"CRIMECITY_SHARD_IDS": "0-3"})) == []


def test_a_guild_belongs_to_one_shard_of_the_count() -> None:
    # Discord's documented formula, on a real-looking id: 81384788765712384 >> 22 = 19403...
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    for count in (1, 2, 3, 16):
        for shard in range(count):
            gid = guild_on(shard, count)
            assert shard_of(gid, count) == shard
            holders = [s for s in range(count) if ShardPlan(count, (s,)).holds_guild(gid)]
            assert holders == [shard]  # exactly one process posts to a guild
    assert UNSHARDED.holds_guild(guild_on(1, 2)) and UNSHARDED.syncs_commands


def test_the_sql_condition_agrees_with_the_shard_of_a_guild() -> None:
    import sqlite3

    guilds = [guild_on(shard, 4, n) for shard in range(4) for n in (3, 1000, 2**18)] + [81384788765712384]
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, guild_id INTEGER)")
    conn.executemany("INSERT INTO games (guild_id) VALUES (?)", [(g,) for g in guilds])
    for plan_ in (ShardPlan(4, (1, 3)), ShardPlan(4, (0,)), UNSHARDED):
        where, params = plan_.sql_holds_guild("guild_id")
        found = sorted(r[0] for r in conn.execute(f"SELECT guild_id FROM games WHERE {where}", params))
        assert found == sorted(g for g in guilds if plan_.holds_guild(g))
        assert found  # each plan holds some of them


def test_only_the_holder_of_shard_0_syncs_commands() -> None:
    assert ShardPlan(4, (0, 1)).syncs_commands and not ShardPlan(4, (2, 3)).syncs_commands
    assert plan(4, None).syncs_commands


def test_create_bot_builds_a_sharded_bot_only_when_asked(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    plain = create_bot(db)
    assert not isinstance(plain, discord.AutoShardedClient) and isinstance(plain, commands.Bot)
    sharded = create_bot(db, shard_count=4, shard_ids=[3, 2])
    assert isinstance(sharded, commands.AutoShardedBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [2, 3]
    every = create_bot(db, shard_count=2)
    assert isinstance(every, commands.AutoShardedBot) and every.shard_ids == [0, 1]
    with pytest.raises(ValueError, match="without a shard count"):
        create_bot(db, shard_ids=[0])
    with pytest.raises(ValueError, match="outside 0-1"):
        create_bot(db, shard_count=2, shard_ids=[0, 2])
    with pytest.raises(ValueError, match="from 1 to"):
        create_bot(db, shard_count=0)


def test_texts() -> None:
    assert format_ids([7, 0, 1, 2, 4, 5]) == "0-2,4-5,7"
    assert ShardPlan(8, (0, 1, 2, 5)).describe() == "shards 0-2,5 of 8"
    assert shard_ready_line(1, 4, 123) == "shard 1/4 ready: 123 guilds"
    assert shard_ready_line(0, 1, 1) == "shard 0/1 ready: 1 guild"


def test_python_m_bot_holds_the_shards_of_its_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot.__main__ as entry

    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CRIMECITY_DB", str(tmp_path / "cc.db"))
    monkeypatch.setenv("CRIMECITY_SHARD_COUNT", "2")
    served: list[object] = []

    async def serve(client: object, token: str) -> None:
        served.append(client)

    monkeypatch.setattr(entry, "serve", serve)
    assert entry.main([]) == 0
    (client,) = served
    assert isinstance(client, commands.AutoShardedBot) and client.shard_count == 2 and client.shard_ids == [0, 1]

    monkeypatch.setenv("CRIMECITY_SHARD_IDS", "0-2")
    assert entry.main([]) == 2 and len(served) == 1
    assert capsys.readouterr().err.splitlines() == [
        "CRIMECITY_SHARD_IDS='0-2': shard id 2 outside 0-1 (ids run from 0 to the shard count minus one)."
    ]
