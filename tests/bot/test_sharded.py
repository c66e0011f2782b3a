"""The bot as shards of one deployment, end to end through the fake Discord: two servers on two shards of 2,
and bot processes holding both shards, or one of them. One SQLite database is one process at a time, so
the processes take turns on it (a restart into another shard range), as processes of a PostgreSQL
deployment would serve at once: each posts only to its own shards' servers and leaves the others'
posts waiting for their process; DMs, clicks and commands are served by whichever process receives them,
for a game in any server; the command tree is synced by the holder of shard 0 only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import Settings, create_bot
from tests.fakediscord import FakeDiscord
from tests.support.crimecity import CAST, act_we1
from tests.support.table import NAMES, Table, draft_cast, open_game

pytestmark = pytest.mark.timeout(60)

ROUND_1 = "Round 1**: the board after the round"


@dataclass
class Deployment:
    fd: FakeDiscord
    db_path: Path
    north: Table  # its server is on shard 0 of 2
    south: Table  # on shard 1 of 2
    bots: list[Any]

    async def start(self, shard_ids: list[int]) -> Any:
        client = create_bot(self.db_path, Settings(command_sync="global"), shard_count=2, shard_ids=shard_ids)
        self.fd.start(client)
        await self.fd.wait_ready()
        self.bots.append(client)
        return client

    async def stop(self) -> None:
        client = self.bots[-1]
        await client.close()
        self.fd.detach(client)

    def syncs(self) -> int:
        return sum(1 for r in self.fd.requests if r.method == "PUT" and r.path.endswith("/commands"))

    def dm_counts(self, t: Table) -> dict[str, int]:
        return {n: len(self.fd.dms(t.players[n])) for n in NAMES}


@pytest.fixture
async def deployment(tmp_path: Path) -> AsyncIterator[Deployment]:
    async with FakeDiscord() as fd:
        fd.shard_count = 2
        bots: list[Any] = []
        tables = []
        for name, shard in (("north", 0), ("south", 1)):
            guild = fd.add_guild(name, shard=shard)
            assert fd.shard_of(guild) == shard
            chan = guild.add_text_channel("crime-city")
            host = guild.add_member(f"{name}-host", manage_guild=True)
            players = {n: guild.add_member(n) for n in NAMES}  # other users of the same names
            tables.append(Table(fd, guild, chan, host, players, tmp_path / "crimecity.db", bots))
        yield Deployment(fd, tmp_path / "crimecity.db", tables[0], tables[1], bots)


def posts_with(t: Table, text: str) -> list[str]:
    return [p for p in t.posts() if text in p]


def button(message: Any, label: str) -> str:
    found = [b["custom_id"] for b in message.buttons() if b.get("label") == label]
    assert found, f"no {label!r} button on {message.text()[:80]!r}"
    return str(found[0])


async def test_one_process_holding_both_shards_runs_a_game_in_each_server(deployment: Deployment) -> None:
    d = deployment
    bot = await d.start([0, 1])
    assert isinstance(bot, discord.AutoShardedClient)
    assert sorted(d.fd.gateway.identified_shards) == [(0, 2), (1, 2)]  # type: ignore[type-var]
    assert {g.id: g.shard_id for g in bot.guilds} == {d.north.guild.id: 0, d.south.guild.id: 1}
    for t in (d.north, d.south):
        await open_game(t, garnets=20)
        await draft_cast(t, CAST)
        for n in NAMES[1:]:
            await act_we1(t, n)
        first, second = "move vertical secretary", "ability store_clerk"  # andy's WE-1 actions, by DM
        reply = await t.cmd(t.players["andy"], "act", dm=True, first=first, second=second)
        assert "actions recorded" in reply.text(), reply.text()
    await d.north.idle()
    for t in (d.north, d.south):
        assert len(posts_with(t, ROUND_1)) == 1
        assert "The Store Clerk has no hidden role" in t.dm_texts(t.players["andy"])[-1]
    assert d.syncs() == 1


async def test_a_process_posts_only_to_its_shards_and_serves_what_it_receives(deployment: Deployment) -> None:
    d, north, south = deployment, deployment.north, deployment.south
    await d.start([0, 1])
    for t in (north, south):
        await open_game(t, garnets=20)
        await draft_cast(t, CAST)
    for n in NAMES[:2]:
        await act_we1(north, n)
    assert "New deadline" in (await north.cmd(north.host, "admin deadline", hours=0.0003)).text()  # about 1 s
    await d.stop()
    north_dms = d.dm_counts(north)

    # A process holding shard 1 only: north's deadline resolves here (timers are not sharded) and its
    # players get their DMs, but north's board post waits for a process that holds north's shard.
    await d.start([1])
    await d.fd.wait_for(lambda: all(d.dm_counts(north)[n] > north_dms[n] for n in NAMES), timeout=10)
    await d.fd.settle(quiet=0.3)
    assert posts_with(north, ROUND_1) == []
    # A click in south's channel comes to this process, which answers it.
    (board,) = [m for m in d.fd.channel_messages(south.chan) if "the draft is open" in m.text()]
    status = await d.fd.click(south.players["cara"], board, button(board, "My status"))
    assert status.ephemeral and "your status" in status.text()
    assert d.syncs() == 1, "only the holder of shard 0 syncs commands"
    north_dms = d.dm_counts(north)
    await d.stop()

    # The holder of shard 0 posts north's board, once, and sends no DM again.
    await d.start([0])
    await d.fd.wait_for(lambda: posts_with(north, ROUND_1), timeout=10)
    await d.fd.settle(quiet=0.3)
    assert len(posts_with(north, ROUND_1)) == 1 and d.dm_counts(north) == north_dms
    # DMs arrive on shard 0: this process serves them for south's game, whose server it does not hold
    # (nor cache): a click on a DM's button, and the host's admin command (their membership asked by REST).
    assert d.bots[-1].get_guild(south.guild.id) is None
    dm = d.fd.dms(south.players["dev"])[-1]
    status = await d.fd.click(south.players["dev"], dm, button(dm, "My status"))
    assert status.ephemeral and "your status" in status.text()
    south_dms = d.dm_counts(south)
    reply = await south.cmd(south.host, "admin resolve", dm=True)
    assert "Round 1 is resolved" in reply.text(), reply.text()
    await d.fd.wait_for(lambda: all(d.dm_counts(south)[n] > south_dms[n] for n in NAMES), timeout=10)
    await d.fd.settle(quiet=0.3)
    assert posts_with(south, ROUND_1) == []
    await d.stop()

    # And south's own process posts it.
    await d.start([1])
    await d.fd.wait_for(lambda: posts_with(south, ROUND_1), timeout=10)
    await d.fd.settle(quiet=0.3)
    assert len(posts_with(south, ROUND_1)) == 1 and len(posts_with(north, ROUND_1)) == 1


async def test_commands_are_synced_by_the_holder_of_shard_0_only(deployment: Deployment) -> None:
    d = deployment
    other = await d.start([1])
    assert d.syncs() == 0 and other.command_ids == {}
    await d.stop()
    first = await d.start([0])
    assert d.syncs() == 1 and first.command_ids
    await d.stop()
    again = await d.start([1])
    assert d.syncs() == 1
    assert again.command_ids == first.command_ids, "the others read the ids the holder of shard 0 stored"
