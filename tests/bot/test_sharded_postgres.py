"""Two bot processes serving at once, each holding one shard of 2, on one PostgreSQL database, end to end
through the fake Discord: commands and clicks reach the process holding their server's shard, DMs reach
the holder of shard 0, "everyone is in" is seen whichever process collected the moves, and each board
is posted once, by the process that holds its server, with each DM sent once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, create_bot
from tests.fakediscord import FakeDiscord
from tests.support.crimecity import CAST, WE1
from tests.support.table import NAMES, Table

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]

ROUND_1 = "Round 1**: the board after the round"
DRAFT_DONE = "draft is resolved"


def count(t: Table, text: str) -> int:
    return sum(1 for p in t.posts() if text in p)


@pytest.fixture
async def servers(pg_url: str) -> AsyncIterator[tuple[FakeDiscord, Table, Table, list[Any]]]:
    async with FakeDiscord() as fd:
        fd.shard_count = 2
        tables = []
        for name, shard in (("north", 0), ("south", 1)):
            guild = fd.add_guild(name, shard=shard)
            chan = guild.add_text_channel("crime-city")
            host = guild.add_member(f"{name}-host", manage_guild=True)
            players = {n: guild.add_member(n) for n in NAMES}
            tables.append(Table(fd, guild, chan, host, players, Path("unused")))
        bots = []
        for ids in ([0], [1]):
            client = create_bot(pg_url, Settings(command_sync="global"), shard_count=2, shard_ids=ids)
            fd.start(client)
            bots.append(client)
        await fd.wait_ready()
        try:
            yield fd, tables[0], tables[1], bots
        finally:
            for client in bots:
                await client.close()


async def test_two_processes_at_once_each_post_their_shards_boards_once(
    servers: tuple[FakeDiscord, Table, Table, list[Any]],
) -> None:
    fd, north, south, bots = servers
    assert sorted(fd.gateway.identified_shards) == [(0, 2), (1, 2)]  # type: ignore[type-var]
    assert [sorted(g.id for g in b.guilds) for b in bots] == [[north.guild.id], [south.guild.id]]
    for t in (north, south):
        await t.cmd(t.host, "new", deadline_hours=24.0, garnets=20)
        for n in NAMES:
            await t.cmd(t.players[n], "join")
        await t.cmd(t.host, "start")
        for n in NAMES:
            role, char = CAST[n]
            # south's players draft by DM: served by the holder of shard 0 for a server it does not hold
            reply = await t.cmd(t.players[n], "draft", dm=t is south, bid=0, roles=role, characters=char)
            assert "recorded" in reply.text(), reply.text()
    await fd.wait_for(lambda: count(north, DRAFT_DONE) == 1 and count(south, DRAFT_DONE) == 1, timeout=20)
    # and each player's DM of the draft (what they drew), sent by either process
    await fd.wait_for(lambda: all(fd.dms(t.players[n]) for t in (north, south) for n in NAMES), timeout=20)
    await fd.settle(quiet=0.5, timeout=20)

    dms_before = {t.guild.name: {n: len(fd.dms(t.players[n])) for n in NAMES} for t in (north, south)}
    for t in (north, south):
        for i, n in enumerate(NAMES):
            first, second = WE1[n]
            # every other player by DM, the others in the channel: the five moves are collected by both processes
            reply = await t.cmd(t.players[n], "act", dm=i % 2 == 1, first=first, second=second)
            assert "actions recorded" in reply.text(), reply.text()
    # "all five in" resolves each round at once, though no process collected all five moves
    await fd.wait_for(lambda: count(north, ROUND_1) >= 1 and count(south, ROUND_1) >= 1, timeout=30)
    await fd.wait_for(
        lambda: all(
            len(fd.dms(t.players[n])) > dms_before[t.guild.name][n] for t in (north, south) for n in NAMES
        ),
        timeout=30,
    )
    await fd.settle(quiet=1.0, timeout=20)
    assert count(north, ROUND_1) == 1 and count(south, ROUND_1) == 1
    for t in (north, south):
        assert "The Store Clerk has no hidden role" in t.dm_texts(t.players["andy"])[-1]
        after = {n: len(fd.dms(t.players[n])) for n in NAMES}
        assert all(after[n] == dms_before[t.guild.name][n] + 1 for n in NAMES), (after, dms_before[t.guild.name])
    syncs = [r for r in fd.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs) == 1
