"""Several bot processes each holding a range of shards (simulated as several AutoShardedClients in one process:
discord.py's URLs are class attributes, so they all talk to the same fake)."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.timeout(20)


class ShardBot(discord.AutoShardedClient):
    def __init__(self, name: str, **options: object) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents, **options)  # type: ignore[arg-type]
        self.name = name
        self.tree = app_commands.CommandTree(self)
        self.handled: list[tuple[int | None, int | None]] = []  # (guild id, shard id) per interaction

        @self.tree.command(description="Where am I")
        async def where(interaction: discord.Interaction) -> None:
            self.handled.append((interaction.guild_id, interaction.guild.shard_id if interaction.guild else None))
            await interaction.response.send_message(f"{self.name} answers", ephemeral=True)


async def test_two_processes_each_see_only_their_shards_guilds() -> None:
    async with FakeDiscord() as fd:
        fd.shard_count = 2
        north = fd.add_guild("North", shard=0)
        south = fd.add_guild("South", shard=1)
        north_chan, south_chan = north.add_text_channel("game"), south.add_text_channel("game")
        alice = north.add_member("alice")
        south.add_member(alice.user)
        assert (fd.shard_of(north), fd.shard_of(south), fd.shard_of(None)) == (0, 1, 0)

        zero = ShardBot("zero", shard_ids=[0], shard_count=2)
        one = ShardBot("one", shard_ids=[1], shard_count=2)
        fd.start(zero)
        fd.start(one)
        await fd.wait_ready()
        assert sorted(fd.gateway.identified_shards) == [(0, 2), (1, 2)]  # type: ignore[type-var]
        assert [g.id for g in zero.guilds] == [north.id] and [g.id for g in one.guilds] == [south.id]
        readies = [f["d"] for s in fd.gateway.sessions.values() for f in s.backlog if f["t"] == "READY"]
        assert sorted(tuple(r["shard"]) for r in readies) == [(0, 2), (1, 2)]
        assert all(len(r["guilds"]) == 1 for r in readies)

        # guild interactions go to the shard holding the guild, DM interactions to shard 0
        assert (await fd.slash(alice, south_chan, "where")).content == "one answers"
        assert (await fd.slash(alice, north_chan, "where")).content == "zero answers"
        assert (await fd.slash(alice, fd.dm_channel(alice), "where")).content == "zero answers"
        assert one.handled == [(south.id, 1)] and zero.handled == [(north.id, 0), (None, None)]

        # each process can still send anywhere by REST
        await zero.get_partial_messageable(south_chan.id).send("from zero")
        await one.get_partial_messageable(north_chan.id).send("from one")
        assert [m.content for m in fd.channel_messages(south_chan)] == ["from zero"]
        assert [m.content for m in fd.channel_messages(north_chan)] == ["from one"]

        # later guild events follow the same routing
        annex = south.add_text_channel("annex")
        await fd.wait_for(lambda: one.get_channel(annex.id))
        assert zero.get_channel(annex.id) is None
        late = fd.add_guild("Late", shard=0)
        await fd.wait_for(lambda: zero.get_guild(late.id))
        assert one.get_guild(late.id) is None


async def test_one_process_all_shards_from_gateway_bot() -> None:
    async with FakeDiscord() as fd:
        fd.shard_count = 3
        guilds = [fd.add_guild(f"g{n}", shard=n) for n in range(3)]
        chans = [g.add_text_channel("game") for g in guilds]
        bob = guilds[2].add_member("bob")
        bot = ShardBot("all")  # no shard_count: asks GET /gateway/bot
        fd.start(bot)
        await fd.wait_ready()
        assert bot.shard_count == 3 and sorted(bot.shards) == [0, 1, 2]
        assert sorted(g.id for g in bot.guilds) == sorted(g.id for g in guilds)
        assert {bot.get_guild(g.id).shard_id for g in guilds} == {0, 1, 2}  # type: ignore[union-attr]

        before = fd.gateway.resumes
        await fd.drop_gateway(resume=True, shard=2)
        assert fd.gateway.resumes == before + 1
        assert (await fd.slash(bob, chans[2], "where")).content == "all answers"
        await fd.drop_gateway(resume=False)  # every shard re-identifies
        assert (await fd.slash(bob, chans[2], "where")).content == "all answers"


async def test_invalid_shard_is_refused() -> None:
    async with FakeDiscord() as fd:
        fd.add_guild("g")
        bot = ShardBot("bad", shard_ids=[2], shard_count=2)
        fd.attach(bot)
        with pytest.raises(discord.ConnectionClosed) as closed:
            await bot.start(fd.token)
        assert closed.value.code == 4010 and fd.gateway.identified_shards == [(2, 2)] and fd.gateway.identifies == 0
