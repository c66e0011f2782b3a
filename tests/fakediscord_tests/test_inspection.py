"""What the bot's tests assert on: messages with components, every component string ever sent (secret scans),
allowed mentions, alt texts of uploads, and the log of interactions answered (type, ephemerality, latency)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
import pytest

from tests.fakediscord_tests.conftest import Bot, World

pytestmark = pytest.mark.timeout(20)


class Secret(discord.ui.View):
    def __init__(self, role: str) -> None:
        super().__init__(timeout=30)
        self.add_item(discord.ui.Button(label=f"Reveal {role}", custom_id=f"reveal:{role}"))
        self.add_item(
            discord.ui.Select(
                custom_id="target",
                placeholder="Pick a target",
                options=[discord.SelectOption(label="Vault", value="vault", description="the big one")],
            )
        )


def inspect_bot() -> Bot:
    bot = Bot(allowed_mentions=discord.AllowedMentions(everyone=False, roles=False))

    @bot.tree.command(description="Secret role")
    async def role(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("psst", view=Secret("mastermind"), ephemeral=True)

    @bot.tree.command(description="Slow")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            bot.errors.append(exc)

    @bot.tree.command(description="Deferred")
    async def deferred(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await asyncio.sleep(0.3)  # fine after a defer: the token lives 15 minutes
        await interaction.followup.send("done", ephemeral=True)

    @bot.tree.command(description="Twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        try:
            await interaction.response.send_message("twice")
        except discord.InteractionResponded:
            pass
        try:
            await bot.http.request(
                discord.http.Route("POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token),
                json={"type": 4, "data": {"content": "twice"}},
            )
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    return bot


async def test_components_strings_mentions_and_alt_texts(world: World) -> None:
    fd = world.fd
    bot = await world.start(inspect_bot())
    chan = world.channel()
    post = await chan.send(f"{world.alice.mention} your move", view=Secret("thief"))
    await post.edit(view=Secret("decoy"))  # the thief button is edited away, but it was sent
    await chan.send("no buttons", allowed_mentions=discord.AllowedMentions.none())
    await chan.send("map", file=discord.File(io.BytesIO(b"png"), "map.png", description="City map, north up"))
    await chan.send("raw", file=discord.File(io.BytesIO(b"txt"), "notes.txt"))
    ephemeral = await fd.slash(world.bob, world.chan, "role")
    user = await bot.fetch_user(world.alice.id)
    await user.send("dm", view=Secret("lookout"))

    with_components = fd.messages_with_components()
    assert [m.id for m in with_components] == [post.id, ephemeral.id, fd.dms(world.alice)[0].id]
    strings = fd.component_strings()
    for secret in ("reveal:thief", "Reveal thief", "Reveal decoy", "Reveal mastermind", "Reveal lookout"):
        assert secret in strings
    assert {"Pick a target", "Vault", "vault", "the big one", "target"} <= set(strings)
    assert [s.kind for s in fd.sent_components] == ["message"] * 4
    assert fd.sent_components[0].message_id == post.id

    mentions = {m.content: am for m, am in fd.allowed_mentions()}
    assert mentions[f"{world.alice.mention} your move"] == {"parse": ["users"], "replied_user": True}
    assert mentions["no buttons"] == {"parse": []}

    [map_upload, notes] = fd.uploads
    assert (map_upload.filename, map_upload.description, map_upload.data) == ("map.png", "City map, north up", b"png")
    assert notes.description is None
    [info] = fd.channel_messages(world.chan)[2].attachment_info()
    assert info == {"filename": "map.png", "description": "City map, north up", "content_type": "image/png", "size": 3}


async def test_interaction_log_latency_and_the_3_second_deadline(world: World) -> None:
    fd = world.fd
    bot = await world.start(inspect_bot())
    fd.interaction_deadline = 0.2  # Discord's is 3 s; shortened so the test is quick

    await fd.slash(world.alice, world.chan, "role")
    with pytest.raises(AssertionError, match="did not answer"):
        await fd.slash(world.alice, world.chan, "slow", timeout=1)
    await fd.wait_for(lambda: bot.errors)
    [late] = bot.errors
    assert isinstance(late, discord.NotFound) and late.code == 10062
    done = await fd.slash(world.bob, world.chan, "deferred")
    assert done.content == "done" and done.ephemeral
    await fd.slash(world.host, world.chan, "twice")
    await fd.wait_for(lambda: len(bot.errors) == 2)
    assert isinstance(bot.errors[1], discord.HTTPException) and bot.errors[1].code == 40060

    role, slow, deferred, twice = fd.interactions
    assert (role.kind_name, role.name, role.user.id) == ("command", "role", world.alice.id)
    assert role.response_type == 4 and role.ephemeral and role.latency is not None and role.latency < 0.2
    assert slow.response_type is None and slow.latency is None and slow.refused == [(404, "Unknown interaction")]
    assert deferred.response_type == 5 and deferred.ephemeral and len(deferred.followups) == 1
    assert twice.response_type == 4 and not twice.ephemeral
    assert twice.refused == [(400, "Interaction has already been acknowledged.")]
    assert "role" in repr(role) and all(i.sent_at is not None for i in fd.interactions)


async def test_the_component_log_covers_modals_and_interaction_edits(world: World) -> None:
    fd = world.fd
    bot = Bot()

    class Hidden(discord.ui.View):
        @discord.ui.button(label="Open", custom_id="open")
        async def open(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
            modal = discord.ui.Modal(title="Secret bid", custom_id="secret-bid")
            modal.add_item(
                discord.ui.Label(text="Bid", component=discord.ui.TextInput(custom_id="bid", placeholder="max 99"))
            )
            await interaction.response.send_modal(modal)

        @discord.ui.button(label="Swap", custom_id="swap")
        async def swap(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Accomplice: bob", custom_id="accomplice"))
            await interaction.response.edit_message(view=view)

    await world.start(bot)
    await world.channel().send("Hidden", view=Hidden())
    [post] = fd.channel_messages(world.chan)
    prompt = await fd.click(world.alice, post, "open")
    assert prompt.modal is not None
    await fd.click(world.alice, post, "swap")
    modal_log = [s for s in fd.sent_components if s.kind == "modal"]
    assert modal_log[0].title == "Secret bid" and {"Secret bid", "Bid", "bid", "max 99"} <= set(modal_log[0].strings())
    assert "Accomplice: bob" in fd.component_strings() and post.custom_ids() == ["accomplice"]
