"""Buttons and selects on the bot's own channel posts and DMs: payloads, responses, refusals, restarts."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
import pytest

from tests.fakediscord import ComponentNotFound, InteractionError, perms
from tests.fakediscord_tests.conftest import Bot, World

pytestmark = pytest.mark.timeout(20)


class BidButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bid:(?P<game>\d+):(?P<amount>\d+)"):
    """A persistent dynamic button: the game and amount live in the custom id."""

    def __init__(self, game: int, amount: int) -> None:
        super().__init__(discord.ui.Button(label=f"Bid {amount}", custom_id=f"bid:{game}:{amount}"))
        self.game, self.amount = game, amount

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BidButton:
        return cls(int(match["game"]), int(match["amount"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, Bot)
        client.events.append(("bid", (self.game, self.amount, interaction.user.id)))
        await interaction.response.send_message(f"{interaction.user.name} bids {self.amount}", ephemeral=True)


class PickSuspect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"suspect:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        options = [discord.SelectOption(label=n.title(), value=n) for n in ("butler", "cook", "maid")]
        super().__init__(discord.ui.Select(custom_id=f"suspect:{game}", options=options, max_values=2))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSuspect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"suspects: {', '.join(self.item.values)}")


def dynamic_bot() -> Bot:
    bot = Bot()
    bot.setup.append(lambda b: b.add_dynamic_items(BidButton, PickSuspect))
    return bot


def bid_view(game: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(BidButton(game, 5))
    view.add_item(BidButton(game, 10))
    view.add_item(PickSuspect(game))
    return view


class Responses(discord.ui.View):
    """One button per way of answering a component interaction."""

    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.add_item(discord.ui.Button(label="Docs", url="https://example.com/rules"))

    @discord.ui.button(label="Edit", custom_id="r:edit")
    async def edit(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="edited by " + interaction.user.name)

    @discord.ui.button(label="Think", custom_id="r:think")
    async def think(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await asyncio.sleep(0.02)
        await interaction.followup.send("thought it over", ephemeral=True)

    @discord.ui.button(label="Quiet", custom_id="r:quiet")
    async def quiet(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.followup.send("only you see this", ephemeral=True)

    @discord.ui.button(label="Later", custom_id="r:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.02)
        await interaction.edit_original_response(content="updated later", view=None)

    @discord.ui.button(label="Bid", custom_id="r:modal")
    async def modal(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        modal = discord.ui.Modal(title="Your bid", custom_id="bid-modal")
        amount = discord.ui.TextInput(label="Amount", custom_id="amount")
        modal.add_item(amount)

        async def on_submit(submitted: discord.Interaction) -> None:
            await submitted.response.edit_message(content=f"bid {amount.value}")

        modal.on_submit = on_submit  # type: ignore[method-assign]
        await interaction.response.send_modal(modal)


class Pickers(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.got: dict[str, list[Any]] = {}

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="p:user", max_values=2)
    async def user(self, interaction: discord.Interaction, select: discord.ui.UserSelect[Any]) -> None:
        self.got["user"] = list(select.values)
        await interaction.response.send_message("ok", ephemeral=True)

    @discord.ui.select(cls=discord.ui.RoleSelect, custom_id="p:role")
    async def role(self, interaction: discord.Interaction, select: discord.ui.RoleSelect[Any]) -> None:
        self.got["role"] = list(select.values)
        await interaction.response.send_message("ok", ephemeral=True)

    @discord.ui.select(cls=discord.ui.ChannelSelect, custom_id="p:chan", channel_types=[discord.ChannelType.text])
    async def chan(self, interaction: discord.Interaction, select: discord.ui.ChannelSelect[Any]) -> None:
        self.got["chan"] = list(select.values)
        await interaction.response.send_message("ok", ephemeral=True)

    @discord.ui.select(cls=discord.ui.MentionableSelect, custom_id="p:any", max_values=2)
    async def any(self, interaction: discord.Interaction, select: discord.ui.MentionableSelect[Any]) -> None:
        self.got["any"] = list(select.values)
        await interaction.response.send_message("ok", ephemeral=True)


async def test_click_and_select_on_a_channel_post_send_discords_payload(world: World) -> None:
    fd = world.fd
    bot = await world.start(dynamic_bot())
    sent = await world.channel().send("Auction open", view=bid_view(7))
    [post] = fd.channel_messages(world.chan)
    assert post.id == sent.id and post.custom_ids() == ["bid:7:5", "bid:7:10", "suspect:7"]

    reply = await fd.click(world.alice, post, "bid:7:10")
    assert reply.content == "alice bids 10" and reply.ephemeral
    assert bot.events == [("bid", (7, 10, world.alice.id))]
    updated = await fd.select(world.bob, post, "suspect:7", ["cook", "maid"])
    assert updated is post and post.content == "suspects: cook, maid"

    click, pick = world.interaction_payloads()
    assert click["type"] == 3 and click["message"]["id"] == str(post.id)
    assert click["data"] == {"custom_id": "bid:7:10", "component_type": 2}
    assert click["member"]["user"]["id"] == str(world.alice.id) and click["guild_id"] == str(world.guild.id)
    assert click["channel_id"] == str(world.chan.id) and click["application_id"] == str(fd.app_id)
    assert pick["data"]["component_type"] == 3 and pick["data"]["values"] == ["cook", "maid"]
    assert "resolved" not in pick["data"]
    assert int(click["app_permissions"]) == world.guild.permissions_for(world.guild.bot_member, world.chan)
    assert int(click["member"]["permissions"]) == world.alice.permissions(world.chan)


async def test_user_role_channel_and_mentionable_selects_carry_resolved(world: World) -> None:
    fd = world.fd
    await world.start()
    thieves = world.guild.add_role("Thieves")
    view = Pickers()
    await world.channel().send("Pick", view=view)
    [post] = fd.channel_messages(world.chan)

    await fd.select(world.host, post, "p:user", [world.alice, world.bob])
    assert [m.id for m in view.got["user"]] == [world.alice.id, world.bob.id]
    assert all(isinstance(m, discord.Member) for m in view.got["user"])
    await fd.select(world.host, post, "p:role", [thieves])
    assert [r.id for r in view.got["role"]] == [thieves.id]
    await fd.select(world.host, post, "p:chan", [world.chan])
    assert [c.id for c in view.got["chan"]] == [world.chan.id]
    await fd.select(world.host, post, "p:any", [world.alice, thieves])
    assert {x.id for x in view.got["any"]} == {world.alice.id, thieves.id}

    users, roles, chans, mixed = (p["data"] for p in world.interaction_payloads())
    assert users["component_type"] == 5 and set(users["resolved"]["users"]) == {str(world.alice.id), str(world.bob.id)}
    assert set(users["resolved"]["members"]) == set(users["resolved"]["users"])
    assert roles["component_type"] == 6 and list(roles["resolved"]["roles"]) == [str(thieves.id)]
    assert chans["component_type"] == 8
    assert int(chans["resolved"]["channels"][str(world.chan.id)]["permissions"]) == world.host.permissions(world.chan)
    assert mixed["component_type"] == 7 and set(mixed["resolved"]) >= {"users", "members", "roles"}

    with pytest.raises(InteractionError, match="takes 1 to 1 values"):
        await fd.select(world.host, post, "p:role", [])
    with pytest.raises(InteractionError, match="cannot take"):
        await fd.select(world.host, post, "p:role", [world.alice])
    category = world.guild.add_category("Archive")
    with pytest.raises(InteractionError, match="only offers channel types"):
        await fd.select(world.host, post, "p:chan", [category])


async def test_components_on_a_dm_the_bot_sent(world: World) -> None:
    fd = world.fd
    bot = await world.start(dynamic_bot())
    user = await bot.fetch_user(world.alice.id)
    await user.send("Your private auction", view=bid_view(3))
    [dm] = fd.dms(world.alice)
    reply = await fd.click(world.alice, dm, "bid:3:5")
    assert reply.content == "alice bids 5" and reply.channel_id == fd.dm_channel(world.alice).id
    [payload] = world.interaction_payloads()
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(world.alice.id) and payload["context"] == 1
    assert payload["message"]["channel_id"] == str(dm.channel_id)
    assert bot.seen[-1].guild is None and isinstance(bot.seen[-1].user, discord.User)
    with pytest.raises(InteractionError, match="cannot see alice's DM"):
        await fd.click(world.bob, dm, "bid:3:5")


async def test_every_way_of_answering_a_component(world: World) -> None:
    fd = world.fd
    await world.start()
    await world.channel().send("Round 1", view=Responses())
    [post] = fd.channel_messages(world.chan)

    assert await fd.click(world.alice, post, label="Edit") is post and post.content == "edited by alice"
    thought = await fd.click(world.alice, post, "r:think")
    assert thought.content == "thought it over" and thought.ephemeral and thought is not post
    quiet = await fd.click(world.bob, post, "r:quiet")
    assert quiet.content == "only you see this" and quiet.ephemeral and fd.ephemerals(world.bob) == [quiet]

    prompt = await fd.click(world.alice, post, "r:modal")
    assert prompt.modal is not None and prompt.modal.title == "Your bid" and prompt.modal.message is post
    done = await fd.submit_modal(world.alice, prompt.modal, {"amount": "12"})
    assert done is post and post.content == "bid 12"

    later = await fd.click(world.alice, post, "r:later")
    assert later is post and post.content == "updated later" and post.components == []
    assert [i.response_type for i in fd.interactions] == [7, 5, 6, 9, 7, 6]
    assert [i.ephemeral for i in fd.interactions] == [False, True, True, False, False, False]


async def test_refused_component_uses(world: World) -> None:
    fd = world.fd
    await world.start()
    view = Responses()
    view.edit.disabled = True
    await world.channel().send("Round 2", view=view)
    [post] = fd.channel_messages(world.chan)

    with pytest.raises(ComponentNotFound) as missing:
        await fd.click(world.alice, post, "r:nope")
    assert isinstance(missing.value, InteractionError) and isinstance(missing.value, KeyError)
    with pytest.raises(InteractionError, match="disabled"):
        await fd.click(world.alice, post, "r:edit")
    with pytest.raises(InteractionError, match="link/premium"):
        await fd.click(world.alice, post, label="Docs")
    hideout = world.guild.add_text_channel("hideout", private=True, visible_to=[world.alice])
    await fd.wait_for(lambda: world.bot.get_channel(hideout.id))
    await world.channel(chan=hideout).send("secret", view=Responses())
    [secret] = fd.channel_messages(hideout)
    with pytest.raises(InteractionError, match="cannot see #hideout"):
        await fd.click(world.bob, secret, "r:edit")
    said = await fd.say(world.bob, world.chan, "not the bot's")
    said.components = post.components
    with pytest.raises(InteractionError, match="not sent by the bot"):
        await fd.click(world.alice, said, "r:think")
    assert not fd.errors


async def test_dynamic_items_dispatch_after_a_restart(world: World) -> None:
    fd = world.fd
    await world.start(dynamic_bot())
    await world.channel().send("Auction 9", view=bid_view(9))
    [post] = fd.channel_messages(world.chan)

    fresh = await world.restart(dynamic_bot())
    assert fd.gateway.identifies == 2
    reply = await fd.click(world.bob, post, label="Bid 5")
    assert reply.content == "bob bids 5"
    assert fresh.events == [("bid", (9, 5, world.bob.id))]
    assert await fd.select(world.alice, post, "suspect:9", ["butler"]) is post
    assert post.content == "suspects: butler"

    forgetful = await world.restart(Bot())  # no dynamic items registered: Discord shows "interaction failed"
    with pytest.raises(AssertionError, match="did not answer"):
        await fd.click(world.bob, post, "bid:9:10", timeout=0.5)
    assert forgetful.seen and fd.interactions[-1].response_type is None


async def test_bot_lacking_view_channel_sees_it_in_app_permissions(world: World) -> None:
    fd = world.fd
    bot = await world.start()
    await world.channel().send("Round 3", view=Responses())
    [post] = fd.channel_messages(world.chan)
    world.guild.set_permissions(world.chan, world.guild.bot_member, deny=perms.SEND_MESSAGES | perms.EMBED_LINKS)
    world.guild.set_permissions(world.chan, world.alice, deny=perms.ADD_REACTIONS)
    await fd.settle()
    await fd.click(world.alice, post, "r:edit")  # interaction responses are not bound by channel permissions
    interaction = bot.seen[-1]
    assert not interaction.app_permissions.send_messages and not interaction.app_permissions.embed_links
    assert interaction.app_permissions.view_channel and interaction.app_permissions.read_message_history
    assert not interaction.permissions.add_reactions and interaction.permissions.send_messages
