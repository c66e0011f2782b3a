"""End-to-end tests of the fake Discord with a small throwaway discord.py bot."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, InteractionError, perms

pytestmark = pytest.mark.timeout(15)

PLACES = ["converse store_clerk", "converse bartender", "search alley", "steal car"]


# --- the throwaway bot ---------------------------------------------------------------


class JoinModal(discord.ui.Modal, title="Pick a nickname"):
    nickname: discord.ui.TextInput = discord.ui.TextInput(label="Nickname", custom_id="lobby:nickname")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"You are now {self.nickname.value}", ephemeral=True)


class LobbyView(discord.ui.View):
    """Persistent view: fixed custom_ids and no timeout, registered in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        assert interaction.message is not None
        content = interaction.message.content + f"\n- {interaction.user.name}"
        await interaction.response.edit_message(content=content)

    @discord.ui.button(label="Nickname", custom_id="lobby:nick")
    async def nick(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(JoinModal())

    @discord.ui.select(
        custom_id="lobby:role",
        options=[discord.SelectOption(label="Thief", value="thief"), discord.SelectOption(label="Cop", value="cop")],
    )
    async def role(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You want to be a {select.values[0]}", ephemeral=True)


class VoteView(discord.ui.View):
    """Non-persistent view on an ephemeral reply: needs the message id from the callback response."""

    def __init__(self) -> None:
        super().__init__(timeout=30)

    @discord.ui.button(label="Lock vote", custom_id="vote:lock")
    async def lock(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.02)
        await interaction.edit_original_response(content="Vote locked", view=None)


class NightView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=30)

    @discord.ui.button(label="Sleep", custom_id="night:sleep")
    async def sleep(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.name} sleeps")


@dataclass
class BotLog:
    forbidden: list[discord.Forbidden] = field(default_factory=list)
    resumed: int = 0
    messages: list[str] = field(default_factory=list)


def make_bot(log: BotLog) -> commands.Bot:
    intents = discord.Intents.default()
    intents.message_content = True
    mentions = discord.AllowedMentions(everyone=False, roles=False)
    bot = commands.Bot(command_prefix="!", intents=intents, allowed_mentions=mentions)
    game = app_commands.Group(name="crimecity", description="Crime City")
    admin = app_commands.Group(name="admin", description="Host tools", parent=game)

    @game.command(description="Whisper to yourself")
    async def whisper(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(f"psst {text}", ephemeral=True)

    @game.command(description="Announce publicly")
    async def announce(interaction: discord.Interaction, headline: str) -> None:
        embed = discord.Embed(title=headline, description="The city wakes up.")
        embed.add_field(name="Round", value="1").set_footer(text="Crime City")
        await interaction.response.send_message(embed=embed)

    @game.command(description="Post to the channel without replying")
    async def post(interaction: discord.Interaction, text: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(text)
        await interaction.response.send_message("posted", ephemeral=True)

    @game.command(description="Get your secret role by DM")
    async def role(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send(f"{interaction.user.mention}, your role: **thief**")
        except discord.Forbidden as exc:
            log.forbidden.append(exc)
            await interaction.response.send_message("I can't DM you, open your DMs", ephemeral=True)
            return
        await interaction.response.send_message("Check your DMs", ephemeral=True)

    async def places(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=p, value=p) for p in PLACES if p.startswith(current)]

    @game.command(description="Act")
    @app_commands.autocomplete(first=places)
    async def act(interaction: discord.Interaction, first: str) -> None:
        await interaction.response.send_message(f"You {first}", ephemeral=True)

    @game.command(description="Open a lobby")
    async def lobby(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Lobby open:", view=LobbyView())

    @game.command(description="Slow status")
    async def status(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        where = "DM" if interaction.guild is None else interaction.guild.name
        await interaction.followup.send(f"status in {where}: night 1", ephemeral=True)

    @game.command(description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        buf = io.BytesIO()
        Image.new("RGB", (8, 4), "red").save(buf, format="PNG")
        buf.seek(0)
        await interaction.response.send_message("The board", file=discord.File(buf, "board.png"))

    @game.command(description="Vote privately")
    async def vote(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your vote: pending", view=VoteView(), ephemeral=True)

    @game.command(description="Start the night")
    async def night(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("Night falls", view=NightView())

    @admin.command(description="Resolve a round")
    async def resolve(
        interaction: discord.Interaction, round: int, target: discord.Member, loud: bool = False, weight: float = 1.0
    ) -> None:
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message("Hosts only", ephemeral=True)
            return
        text = f"Round {round} resolved on {target.display_name} (loud={loud}, weight={weight})"
        await interaction.response.send_message(text, ephemeral=not loud)

    bot.tree.add_command(game)

    async def setup_hook() -> None:
        bot.add_view(LobbyView())
        await bot.tree.sync()

    async def on_resumed() -> None:
        log.resumed += 1

    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            log.messages.append(message.content)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.add_listener(on_resumed)
    bot.add_listener(on_message)
    return bot


# --- fixture ---------------------------------------------------------------------------


@dataclass
class Table:
    fd: FakeDiscord
    guild: FakeGuild
    chan: FakeChannel
    host: FakeMember
    alice: FakeMember
    bob: FakeMember
    bot: commands.Bot
    log: BotLog


@pytest.fixture
async def table() -> AsyncIterator[Table]:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Game Night")
        chan = guild.add_text_channel("crime-city")
        host = guild.add_member("host", manage_guild=True)
        alice = guild.add_member("alice")
        bob = guild.add_member("bob")
        log = BotLog()
        bot = make_bot(log)
        fd.start(bot)
        await fd.wait_ready()
        yield Table(fd, guild, chan, host, alice, bob, bot, log)


# --- tests ------------------------------------------------------------------------------


async def test_bot_connects_and_syncs_nested_commands(table: Table) -> None:
    fd = table.fd
    assert table.bot.is_ready()
    [cmd] = fd.commands()
    assert cmd["name"] == "crimecity" and int(cmd["id"]) > 0
    admin = next(o for o in cmd["options"] if o["name"] == "admin")
    assert admin["type"] == 2 and admin["options"][0]["name"] == "resolve"
    guild = table.bot.get_guild(table.guild.id)
    assert guild is not None and guild.get_channel(table.chan.id) is not None
    assert fd.gateway.identifies == 1
    assert not fd.unknown_requests and not fd.errors


async def test_ephemeral_reply_is_only_seen_by_the_caller(table: Table) -> None:
    fd = table.fd
    reply = await fd.slash(table.alice, table.chan, "crimecity whisper", text="hello")
    assert reply.content == "psst hello" and reply.ephemeral
    assert fd.ephemerals(table.alice) == [reply]
    assert fd.ephemerals(table.bob) == [] and fd.channel_messages(table.chan) == []


async def test_public_embed_reply(table: Table) -> None:
    fd = table.fd
    reply = await fd.slash(table.alice, table.chan, "/crimecity announce", headline="Heist tonight")
    assert not reply.ephemeral
    assert fd.channel_messages(table.chan) == [reply]
    text = reply.text()
    assert "Heist tonight" in text and "The city wakes up." in text and "Round" in text and "Crime City" in text


async def test_nested_group_with_typed_options_and_permissions(table: Table) -> None:
    fd = table.fd
    reply = await fd.slash(
        table.host, table.chan, "crimecity admin resolve", round=2, target=table.alice, loud=True, weight=0.5
    )
    assert reply.content == "Round 2 resolved on alice (loud=True, weight=0.5)"
    assert not reply.ephemeral
    denied = await fd.slash(table.alice, table.chan, "crimecity admin resolve", round=1, target=table.bob)
    assert denied.content == "Hosts only" and denied.ephemeral
    with pytest.raises(InteractionError, match="no option 'rounds'"):
        await fd.slash(table.host, table.chan, "crimecity admin resolve", rounds=1, target=table.bob)


async def test_dm_and_closed_dms(table: Table) -> None:
    fd = table.fd
    reply = await fd.slash(table.alice, table.chan, "crimecity role")
    assert reply.content == "Check your DMs"
    [dm] = fd.dms(table.alice)
    assert "your role: **thief**" in dm.text() and dm.mentions == [table.alice.id]
    assert dm.allowed_mentions is not None and "everyone" not in dm.allowed_mentions["parse"]

    fd.close_dms(table.bob)
    reply = await fd.slash(table.bob, table.chan, "crimecity role")
    assert reply.content == "I can't DM you, open your DMs"
    [exc] = table.log.forbidden
    assert exc.code == 50007 and exc.status == 403
    assert fd.dms(table.bob) == []


async def test_slash_command_in_a_dm_and_deferred_followup(table: Table) -> None:
    fd = table.fd
    reply = await fd.slash(table.alice, fd.dm_channel(table.alice), "crimecity status")
    assert reply.content == "status in DM: night 1" and reply.ephemeral
    reply = await fd.slash(table.alice, table.chan, "crimecity status")
    assert reply.content == "status in Game Night: night 1" and reply.ephemeral
    assert fd.ephemerals(table.alice) == [fd.ephemerals(table.alice)[0], reply]


async def test_autocomplete(table: Table) -> None:
    fd = table.fd
    choices = await fd.autocomplete(table.alice, table.chan, "crimecity act", focused="first", first="conv")
    assert [c["value"] for c in choices] == ["converse store_clerk", "converse bartender"]
    reply = await fd.slash(table.alice, table.chan, "crimecity act", first="converse store_clerk")
    assert reply.content == "You converse store_clerk"


async def test_persistent_view_button_select_and_modal(table: Table) -> None:
    fd = table.fd
    lobby = await fd.slash(table.host, table.chan, "crimecity lobby")
    assert lobby.custom_ids() == ["lobby:join", "lobby:nick", "lobby:role"]
    updated = await fd.click(table.alice, lobby, "lobby:join")
    assert updated is lobby and lobby.content == "Lobby open:\n- alice"
    await fd.click(table.bob, lobby, label="Join")
    assert lobby.content.endswith("- alice\n- bob")

    picked = await fd.select(table.alice, lobby, "lobby:role", ["cop"])
    assert picked.content == "You want to be a cop" and picked.ephemeral

    prompt = await fd.click(table.alice, lobby, "lobby:nick")
    assert prompt.modal is not None and prompt.modal.title == "Pick a nickname"
    done = await fd.submit_modal(table.alice, prompt.modal, {"lobby:nickname": "Ace"})
    assert done.content == "You are now Ace"


async def test_file_attachment_is_a_real_png(table: Table) -> None:
    fd = table.fd
    reply = await fd.slash(table.alice, table.chan, "crimecity board")
    [(filename, data)] = reply.attachments
    assert filename == "board.png"
    assert Image.open(io.BytesIO(data)).size == (8, 4)


async def test_resume_replays_events_missed_while_down(table: Table) -> None:
    fd = table.fd
    await fd.drop_gateway(resume=True)
    assert fd.gateway.resumes == 1 and fd.gateway.identifies == 1
    await fd.wait_for(lambda: table.log.resumed == 1, timeout=2)

    await fd.gateway.drop(resume=True)  # don't wait: the interaction goes into the backlog
    reply = await fd.slash(table.alice, table.chan, "crimecity whisper", text="still here")
    assert reply.content == "psst still here"
    assert fd.gateway.resumes == 2


async def test_reidentify_after_invalid_session(table: Table) -> None:
    fd = table.fd
    await fd.drop_gateway(resume=False)
    assert fd.gateway.identifies == 2
    reply = await fd.slash(table.alice, table.chan, "crimecity whisper", text="again")
    assert reply.content == "psst again"


async def test_rate_limited_post_is_retried_once(table: Table) -> None:
    fd = table.fd
    fd.fail_next(r"^/channels/\d+/messages$", status=429, retry_after=0.05, method="POST")
    reply = await fd.slash(table.alice, table.chan, "crimecity post", text="only once")
    assert reply.content == "posted"
    [post] = fd.channel_messages(table.chan)
    assert post.content == "only once"
    posts = [r.status for r in fd.requests if r.method == "POST" and r.route == "/channels/{channel_id}/messages"]
    assert posts == [429, 200]


async def test_member_messages_and_unknown_routes(table: Table) -> None:
    fd = table.fd
    await fd.say(table.alice, table.chan, "anyone up for a heist?")
    await fd.wait_for(lambda: table.log.messages == ["anyone up for a heist?"], timeout=2)
    with pytest.raises(discord.NotFound):
        await table.bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert [(r.method, r.path) for r in fd.unknown_requests] == [("GET", "/voice/regions")]


async def test_private_channel_permissions(table: Table) -> None:
    fd = table.fd
    hideout = table.guild.add_text_channel("hideout", private=True, visible_to=[table.alice])
    assert table.alice.permissions(hideout) & perms.VIEW_CHANNEL
    assert table.bob.permissions(hideout) == 0
    assert table.host.permissions() & perms.MANAGE_GUILD
    await fd.wait_for(lambda: table.bot.get_channel(hideout.id) is not None, timeout=2)
    reply = await fd.slash(table.alice, hideout, "crimecity whisper", text="secret")
    assert reply.content == "psst secret"


async def test_non_persistent_views_on_ephemeral_reply_and_followup(table: Table) -> None:
    fd = table.fd
    ballot = await fd.slash(table.alice, table.chan, "crimecity vote")
    assert ballot.ephemeral and ballot.custom_ids() == ["vote:lock"]
    with pytest.raises(InteractionError, match="cannot see"):
        await fd.click(table.bob, ballot, "vote:lock")
    after = await fd.click(table.alice, ballot, "vote:lock")  # deferred update, then edit_original_response
    assert after is ballot and ballot.content == "Vote locked" and ballot.components == []

    night = await fd.slash(table.host, table.chan, "crimecity night")
    assert night.content == "Night falls" and not night.ephemeral
    reply = await fd.click(table.bob, night, label="Sleep")
    assert reply.content == "bob sleeps"
    assert [m.content for m in fd.channel_messages(table.chan)] == ["Night falls", "bob sleeps"]


async def test_lifecycle_restores_discord_py_urls() -> None:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord() as fd:
        assert discord.http.Route.BASE == f"{fd.base_url}/api/v10"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == fd.gateway.url
    assert discord.http.Route.BASE == base and discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY == gateway
