"""Odd display names ("@everyone", 32 characters, markdown, mention look-alikes) through a whole
game: every message the fake recorded stays inside Discord's limits, and none can ping anyone
except the members the bot meant to mention."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.crimecity import rules_pages
from tests.support.crimecity import CAST, WE1, WE3
from tests.support.table import NAMES, Table, draft_cast

ODD = {
    "andy": "@everyone",
    "grunkle": "A" + "very" * 7 + "Long",  # 32 characters, Discord's maximum
    "cara": "**bold** _it_ `x` ||spoil||",
    "dev": "<@&1> @here <#1> # Head",
    "eve": "Zoë 🎲 | ~~strike~~ > q",
}


@pytest.fixture
async def odd_table(tmp_path: Path) -> AsyncIterator[Table]:
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Crime Club")
        chan = guild.add_text_channel("crime-city")
        host = guild.add_member("hosty", manage_guild=True, nick="@here the host")
        players = {n: guild.add_member(n, nick=ODD[n]) for n in NAMES}
        t = Table(fd, guild, chan, host, players, tmp_path / "crimecity.db")
        await t.start_bot()
        yield t


def embed_size(embed: dict[str, Any]) -> int:
    fields = embed.get("fields", [])
    return sum(
        len(x)
        for x in [
            embed.get("title", ""),
            embed.get("description", ""),
            embed.get("footer", {}).get("text", ""),
            embed.get("author", {}).get("name", ""),
            *(f.get("name", "") for f in fields),
            *(f.get("value", "") for f in fields),
        ]
    )


def check_limits(message: Any) -> None:
    """Discord's documented limits for a message, its embeds and its components."""
    where = f"message {message.content[:60]!r}"
    assert len(message.content) <= 2000, where
    assert len(message.embeds) <= 10, where
    assert sum(embed_size(e) for e in message.embeds) <= 6000, where
    for e in message.embeds:
        assert len(e.get("title", "")) <= 256 and len(e.get("description", "")) <= 4096, where
        assert len(e.get("fields", [])) <= 25, where
        for f in e.get("fields", []):
            assert len(f["name"]) <= 256 and len(f["value"]) <= 1024, where
        assert len(e.get("footer", {}).get("text", "")) <= 2048, where
    assert len(message.components) <= 5, where
    for c in message.all_components():
        assert len(c.get("custom_id", "")) <= 100, where
        if c.get("type") == 3:
            assert 1 <= len(c["options"]) <= 25 and len(c.get("placeholder", "")) <= 150, where
            for o in c["options"]:
                assert len(o["label"]) <= 100 and len(o["value"]) <= 100, where
        if c.get("type") == 2:
            assert len(c.get("label", "")) <= 80, where


def check_mentions(message: Any, allowed_users: set[int]) -> None:
    """No @everyone/@here or role pings ever; user pings only for the members meant."""
    am = message.allowed_mentions
    assert am is not None, f"no allowed_mentions on {message.content[:60]!r}"
    assert am.get("parse", []) == [], am
    assert not am.get("roles"), am
    assert {int(u) for u in am.get("users", [])} <= allowed_users, am


async def test_odd_names_stay_inside_limits_and_ping_nobody(odd_table: Table) -> None:
    t = odd_table
    fd = t.fd
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=20)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    fd.close_dms(t.players["dev"])
    await draft_cast(t, CAST)

    # Cara's Secretary asks about a player named "@everyone": the offered notation round-trips
    choices = await fd.autocomplete(
        t.players["cara"], t.chan, "crimecity act", focused="second", first="converse policeman"
    )
    by_player = [c["value"] for c in choices if c["value"].startswith("ability player")]
    andy = f"<@{t.players['andy'].id}>"  # a choice carries the member's id, whatever their name
    assert f"ability player {andy}" in by_player, by_player
    assert any("@\u200beveryone" in c["name"] for c in choices), "the name is shown, escaped"
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    panel = await t.cmd(t.players["cara"], "panel")
    panel = await fd.select(t.players["cara"], panel, panel.custom_ids()[0], ["ability"])
    assert f"ability player {andy}" in {o["value"] for c in panel.all_components() for o in c.get("options", [])}
    for n in NAMES:
        first, second = WE1[n]
        if n == "cara":
            second = "ability player @everyone"  # typed as shown: a name still finds its seat
        reply = await t.cmd(t.players[n], "act", first=first, second=second)
        assert "actions recorded" in reply.text(), reply.text()
    await t.idle()
    assert "@\u200beveryone controls The Detective" in t.dm_texts(t.players["cara"])[-1]
    for n in NAMES:
        first, second = WE3[n]
        await t.cmd(t.players[n], "act", first=first, **({"second": second} if second else {}))
    await t.idle()
    for n in NAMES:
        await t.cmd(t.players[n], "status")
    await t.cmd(t.players["eve"], "board", public=True)
    for _ in range(3, 7):
        await t.cmd(t.host, "admin resolve")
        await t.idle()
    for n in NAMES:
        await t.cmd(t.players[n], "ec", player=t.players["andy"])
    await t.idle()
    assert "the EC is @\u200beveryone" in t.posts()[-1]
    await t.cmd(t.host, "admin export")
    await t.cmd(t.players["eve"], "history")
    await t.cmd(t.players["eve"], "help")
    for _name, topic in rules_pages.topic_choices(""):
        await t.cmd(t.players["eve"], "rules", topic=topic)
    await t.cmd(t.players["eve"], "rules", topic="x" * 100)

    members = {m.id for m in t.players.values()} | {t.host.id}
    mine = [m for m in fd.world.messages.values() if m.author.id == fd.bot.id]
    assert len(mine) > 60
    assert any("@\u200beveryone" in m.text() for m in mine) and any("@\u200bhere" in m.text() for m in mine)
    assert not any("@everyone" in m.text() for m in mine), "a name never pings: it is escaped"
    for message in mine:
        check_limits(message)
        check_mentions(message, members)
