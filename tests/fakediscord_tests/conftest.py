"""A small world (one guild, one channel, three members) and a bare discord.py client for these tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember


def intents() -> discord.Intents:
    result = discord.Intents.default()
    result.members = True
    result.message_content = True
    result.moderation = True
    return result


class Bot(discord.Client):
    """A client with a command tree and a record of what reached it."""

    def __init__(self, **options: Any) -> None:
        super().__init__(intents=options.pop("intents", intents()), **options)
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Interaction] = []
        self.events: list[tuple[str, Any]] = []
        self.errors: list[BaseException] = []
        self.setup: list[Any] = []  # callables(bot) run in setup_hook

    async def setup_hook(self) -> None:
        for step in self.setup:
            step(self)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)

    async def on_member_remove(self, member: discord.Member) -> None:
        self.events.append(("member_remove", member.id))

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        self.events.append(("raw_member_remove", payload.user.id))

    async def on_member_ban(self, guild: discord.Guild, user: discord.User) -> None:
        self.events.append(("member_ban", user.id))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.events.append(("guild_remove", guild.id))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.events.append(("channel_delete", channel.id))


@dataclass
class World:
    fd: FakeDiscord
    guild: FakeGuild
    chan: FakeChannel
    host: FakeMember
    alice: FakeMember
    bob: FakeMember
    bots: list[Bot] = field(default_factory=list)

    @property
    def bot(self) -> Bot:
        return self.bots[-1]

    async def start(self, bot: Bot | None = None) -> Bot:
        bot = bot or Bot()
        self.fd.start(bot)
        await self.fd.wait_ready()
        self.bots.append(bot)
        return bot

    async def restart(self, bot: Bot) -> Bot:
        """Close the running client (a process exit) and start `bot` on the same fake."""
        old = self.bot
        await old.close()
        self.fd.detach(old)
        return await self.start(bot)

    def channel(self, bot: Bot | None = None, chan: FakeChannel | None = None) -> discord.TextChannel:
        found = (bot or self.bot).get_channel((chan or self.chan).id)
        assert isinstance(found, discord.TextChannel)
        return found

    def interaction_payloads(self) -> list[dict[str, Any]]:
        """Every INTERACTION_CREATE the latest gateway session got, as raw JSON."""
        return [f["d"] for f in self.fd.gateway.backlog if f["t"] == "INTERACTION_CREATE"]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Game Night")
        chan = guild.add_text_channel("crime-city")
        host = guild.add_member("host", manage_guild=True)
        alice = guild.add_member("alice")
        bob = guild.add_member("bob")
        yield World(fd, guild, chan, host, alice, bob)
