"""Hostile conditions as the bot sees them on Discord: permissions, deleted channels, members leaving, kicks and
bans, rate limits (per bucket + major parameter, and global), server errors and lost answers."""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import InteractionError, perms
from tests.fakediscord_tests.conftest import Bot, World

pytestmark = pytest.mark.timeout(20)


class Nudge(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Still here", custom_id="nudge:here")
    async def here(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        where = "a DM" if interaction.guild is None else interaction.guild.name
        await interaction.response.send_message(f"{interaction.user.name} answered from {where}")


def file() -> discord.File:
    return discord.File(io.BytesIO(b"map"), "map.png", description="the map")


async def test_permissions_the_bot_lacks_are_refused_as_discord_does(world: World) -> None:
    fd = world.fd
    await world.start()
    chan = world.channel()
    bot_member = world.guild.bot_member

    world.guild.set_permissions(world.chan, bot_member, deny=perms.ATTACH_FILES)
    await fd.settle()
    assert not chan.permissions_for(chan.guild.me).attach_files  # discord.py saw the CHANNEL_UPDATE
    with pytest.raises(discord.Forbidden) as no_files:
        await chan.send("the map", file=file())
    assert (no_files.value.status, no_files.value.code, no_files.value.text) == (403, 50013, "Missing Permissions")
    await chan.send("text still works")

    world.guild.set_permissions(world.chan, bot_member, deny=perms.SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as no_send:
        await chan.send("hello")
    assert no_send.value.code == 50013
    world.guild.set_permissions(world.chan, world.guild.everyone, deny=perms.VIEW_CHANNEL)
    world.guild.clear_permissions(world.chan, bot_member)  # hidden from @everyone, and the bot has no overwrite
    with pytest.raises(discord.Forbidden) as no_view:
        await chan.send("hello")
    assert (no_view.value.code, no_view.value.text) == (50001, "Missing Access")
    with pytest.raises(discord.Forbidden):
        await chan.fetch_message(fd.channel_messages(world.chan)[0].id)
    world.guild.clear_permissions(world.chan, world.guild.everyone)

    # no Embed Links: Discord keeps the message and silently drops the embeds
    world.guild.set_permissions(world.chan, bot_member, deny=perms.EMBED_LINKS)
    await fd.settle()
    assert not chan.permissions_for(chan.guild.me).embed_links
    kept = await chan.send("with an embed", embed=discord.Embed(title="Wanted"))
    assert kept.embeds == [] and fd.channel_messages(world.chan)[-1].embeds == [] and fd.dropped_embeds == [kept.id]
    with pytest.raises(discord.HTTPException) as empty:
        await chan.send(embed=discord.Embed(title="Wanted"))
    assert empty.value.code == 50006
    assert [m.content for m in fd.channel_messages(world.chan)] == ["text still works", "with an embed"]


async def test_app_permissions_and_member_permissions_in_interactions(world: World) -> None:
    fd = world.fd
    bot = Bot()

    @bot.tree.command(description="Check")
    async def check(interaction: discord.Interaction) -> None:
        app, mine = interaction.app_permissions, interaction.permissions
        await interaction.response.send_message(
            f"files={app.attach_files} embeds={app.embed_links} mine={mine.send_messages}"
        )

    await world.start(bot)
    assert (await fd.slash(world.alice, world.chan, "check")).content == "files=True embeds=True mine=True"
    world.guild.set_permissions(world.chan, world.guild.bot_member, deny=perms.ATTACH_FILES)
    world.guild.set_permissions(world.chan, world.alice, deny=perms.SEND_MESSAGES)
    assert (await fd.slash(world.alice, world.chan, "check")).content == "files=False embeds=True mine=False"
    muted = world.guild.add_role("Muted")
    world.guild.give_role(world.bob, muted)
    world.guild.set_permissions(world.chan, muted, deny=perms.SEND_MESSAGES)
    assert "mine=False" in (await fd.slash(world.bob, world.chan, "check")).content
    world.guild.set_role_permissions(world.guild.everyone, perms.EVERYONE_DEFAULT & ~perms.EMBED_LINKS)
    world.guild.set_bot_permissions(perms.BOT_DEFAULT & ~perms.EMBED_LINKS)  # neither @everyone nor its role
    assert "embeds=False" in (await fd.slash(world.host, world.chan, "check")).content
    with pytest.raises(InteractionError, match="may not post"):
        await fd.say(world.alice, world.chan, "let me in")


async def test_a_deleted_channel(world: World) -> None:
    fd = world.fd
    bot = await world.start()
    chan = world.channel()
    await chan.send("Round 1", view=Nudge())
    [post] = fd.channel_messages(world.chan)
    world.guild.delete_channel(world.chan)
    await fd.wait_for(lambda: bot.get_channel(world.chan.id) is None)
    assert ("channel_delete", world.chan.id) in bot.events
    for attempt in (chan.send("anyone?"), chan.fetch_message(post.id), bot.http.get_channel(world.chan.id)):
        with pytest.raises(discord.NotFound) as gone:
            await attempt
        assert gone.value.code == 10003
    with pytest.raises(discord.NotFound):
        await chan.get_partial_message(post.id).edit(content="edited")
    with pytest.raises(InteractionError, match="deleted"):
        await fd.click(world.alice, post, "nudge:here")


async def test_members_who_leave_are_kicked_or_banned(world: World) -> None:
    fd = world.fd
    bot = Bot()
    bot.setup.append(lambda b: b.add_view(Nudge()))
    await world.start(bot)
    alice_user = await bot.fetch_user(world.alice.id)
    await alice_user.send("Are you still playing?", view=Nudge())
    [dm] = fd.dms(world.alice)

    fd.kick(world.alice)
    await fd.wait_for(lambda: ("member_remove", world.alice.id) in bot.events)
    assert bot.get_guild(world.guild.id).get_member(world.alice.id) is None  # type: ignore[union-attr]
    with pytest.raises(discord.NotFound) as unknown:
        await bot.get_guild(world.guild.id).fetch_member(world.alice.id)  # type: ignore[union-attr]
    assert unknown.value.code == 10007
    reply = await fd.click(world.alice, dm, "nudge:here")  # her DM still works, with `user` only
    assert reply.content == "alice answered from a DM"
    assert "member" not in world.interaction_payloads()[-1] and "user" in world.interaction_payloads()[-1]
    with pytest.raises(InteractionError, match="not a member"):
        await fd.slash(world.alice, world.chan, "anything")
    await alice_user.send("you opened a DM with me, so I can still reach you")

    fd.ban(world.bob, reason="cheating")
    await fd.wait_for(lambda: ("member_ban", world.bob.id) in bot.events)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.get_member(world.bob.id) is None
    with pytest.raises(discord.Forbidden):  # the default bot role has neither Ban nor Kick Members
        await guild.fetch_ban(discord.Object(world.bob.id))
    world.guild.set_bot_permissions(perms.BOT_DEFAULT | perms.BAN_MEMBERS | perms.KICK_MEMBERS)
    ban = await guild.fetch_ban(discord.Object(world.bob.id))
    assert ban.reason == "cheating" and ban.user.id == world.bob.id
    with pytest.raises(discord.NotFound):
        await guild.fetch_ban(discord.Object(world.host.id))
    with pytest.raises(InteractionError, match="banned"):
        world.guild.add_member(world.bob.user)
    bob_user = await bot.fetch_user(world.bob.id)
    with pytest.raises(discord.Forbidden) as no_dm:  # no shared guild, never opened a DM with the bot
        await bob_user.send("come back")
    assert no_dm.value.code == 50007

    world.guild.add_member(world.alice.user)  # she may rejoin after a kick
    await guild.kick(discord.Object(world.alice.id))  # the bot kicks: Kick Members is needed
    assert not world.guild.is_member(world.alice)
    world.guild.set_bot_permissions(perms.BOT_DEFAULT)  # no Ban Members
    with pytest.raises(discord.Forbidden):
        await guild.fetch_ban(discord.Object(world.bob.id))


async def test_one_rate_limited_channel_does_not_hold_up_the_others(world: World) -> None:
    fd = world.fd
    await world.start()
    other = world.guild.add_text_channel("other")
    await fd.wait_for(lambda: world.bot.get_channel(other.id))
    await world.channel().send("warm up")  # discord.py learns the bucket hash of the route
    await world.channel(chan=other).send("warm up")
    fd.rate_limit_channel(world.chan, 0.6)
    start = time.monotonic()
    arrived: dict[str, float] = {}

    async def send(chan: discord.TextChannel, text: str) -> None:
        await chan.send(text)
        arrived[text] = time.monotonic() - start

    await asyncio.gather(
        send(world.channel(), "limited"), *(send(world.channel(chan=other), f"free {n}") for n in range(3))
    )
    assert arrived["limited"] >= 0.55
    assert max(arrived[f"free {n}"] for n in range(3)) < 0.3
    [hit, *_] = fd.rate_limit_hits
    assert hit.major == str(world.chan.id) and hit.scope == "user" and 0.5 < hit.retry_after <= 0.6
    posts = [r for r in fd.requests if r.route == "/channels/{channel_id}/messages" and r.method == "POST"]
    assert len({r.bucket for r in posts}) == 1  # one bucket for the route, keyed per channel by the major parameter
    assert [r.status for r in posts if r.major == str(world.chan.id)][-2:] == [429, 200]

    async with aiohttp.ClientSession() as http:  # the raw answer, as Discord sends it
        fd.rate_limit_channel(world.chan, 2.0)
        url = f"{fd.base_url}/api/v10/channels/{world.chan.id}/messages"
        async with http.post(url, json={"content": "x"}, headers={"Authorization": f"Bot {fd.token}"}) as resp:
            body = await resp.json()
            assert resp.status == 429 and resp.headers["Content-Type"] == "application/json"
            assert resp.headers["X-RateLimit-Remaining"] == "0" and resp.headers["X-RateLimit-Scope"] == "user"
            assert resp.headers["X-RateLimit-Bucket"] == posts[0].bucket and resp.headers["Retry-After"] == "2"
            assert 1.5 < float(resp.headers["X-RateLimit-Reset-After"]) <= 2.0 and resp.headers["Via"]
            assert body["global"] is False and 1.5 < body["retry_after"] <= 2.0


async def test_real_bucket_counting_is_honoured_by_discord_py(world: World) -> None:
    fd = world.fd
    await world.start()
    other = world.guild.add_text_channel("other")
    await fd.wait_for(lambda: world.bot.get_channel(other.id))
    fd.limit_bucket("POST", "/channels/{channel_id}/messages", 2, 0.4)
    start = time.monotonic()
    times: list[float] = []

    async def send(chan: discord.TextChannel, text: str) -> None:
        await chan.send(text)
        times.append(time.monotonic() - start)

    for n in range(4):
        await send(world.channel(), f"m{n}")
    quick = time.monotonic()
    await send(world.channel(chan=other), "elsewhere")
    assert time.monotonic() - quick < 0.2  # another channel has its own window
    assert times[2] >= 0.35  # the third in the window waited for the reset
    assert fd.rate_limit_hits == []  # discord.py waited on Remaining: 0 and never got a 429
    remaining = [r for r in fd.requests if r.major == str(world.chan.id) and r.method == "POST"]
    assert [r.status for r in remaining] == [200] * 4


async def test_global_rate_limit_spares_interaction_callbacks(world: World) -> None:
    fd = world.fd
    bot = Bot()

    @bot.tree.command(description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    await world.start(bot)
    fd.global_rate_limit(0.5)
    start = time.monotonic()
    reply = await fd.slash(world.alice, world.chan, "ping")
    assert reply.content == "pong" and time.monotonic() - start < 0.3
    await world.channel().send("after the global limit")
    assert time.monotonic() - start >= 0.45
    assert fd.rate_limit_hits[0].scope == "global"


async def test_server_errors_and_lost_answers(world: World) -> None:
    fd = world.fd
    await world.start()
    chan = world.channel()
    fd.fail_next(r"/channels/\d+/messages$", status=503, method="POST")
    with pytest.raises(discord.DiscordServerError):
        await chan.send("not sent")
    fd.fail_next(r"/channels/\d+/messages$", status=503, method="POST", after=True)
    with pytest.raises(discord.DiscordServerError):
        await chan.send("sent, answer lost")
    fd.lose_answer(r"/channels/\d+/messages$", method="POST")
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await chan.send("sent, connection dropped")
    fd.fail_next(r"/channels/\d+/messages$", status=500, method="POST")  # discord.py retries a 500 after 1 s
    await chan.send("retried")
    assert [m.content for m in fd.channel_messages(world.chan)] == [
        "sent, answer lost",
        "sent, connection dropped",
        "retried",
    ]
    posts = [r for r in fd.requests if r.method == "POST" and r.route == "/channels/{channel_id}/messages"]
    assert [(r.status, r.disconnected) for r in posts] == [
        (503, False),
        (503, False),
        (0, True),
        (500, False),
        (200, False),
    ]


async def test_the_bot_kicked_from_a_guild(world: World) -> None:
    fd = world.fd
    bot = await world.start()
    chan = world.channel()
    await chan.send("Round 1", view=Nudge())
    [post] = fd.channel_messages(world.chan)
    fd.remove_bot(world.guild)
    await fd.wait_for(lambda: ("guild_remove", world.guild.id) in bot.events)
    assert bot.get_guild(world.guild.id) is None
    with pytest.raises(discord.Forbidden) as no_access:
        await chan.send("still here?")
    assert no_access.value.code == 50001
    with pytest.raises(discord.NotFound) as unknown:
        await bot.fetch_guild(world.guild.id)
    assert unknown.value.code == 10004
    with pytest.raises(InteractionError, match="removed from Game Night"):
        await fd.click(world.alice, post, "nudge:here")
    world.guild.add_text_channel("after")  # the bot hears nothing from that guild any more
    await fd.settle()
    assert not [f for f in fd.gateway.backlog if f["t"] == "CHANNEL_CREATE" and f["d"]["name"] == "after"]
