"""Closed DMs: the prompt waits in the player's inbox, the channel says where to read it (no secret), and
`/organizedcrime status` shows it once. The host's own buttons (My status, Submit, History) get this
game's answers through the presentation's hooks."""

from __future__ import annotations

import discord

from bot.games.organizedcrime.presentation import PRESENTATION
from bot.host import Caller
from tests.support.octable import fixed_chance, game_row, oc, seats, state_of
from tests.support.table import Table


async def test_closed_dms_go_to_the_inbox(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "inbox")
    t = table
    for name in ("andy", "grunkle"):
        t.fd.close_dms(t.players[name])
    await oc(t, t.host, "new")
    for name in ("andy", "grunkle"):
        await oc(t, t.players[name], "join")
    await oc(t, t.host, "start")
    await t.idle()
    state = await state_of(t)
    who = await seats(t)
    chooser = who[state["choosers"][0]]
    note = next(p for p in t.posts() if "could not send you a direct message" in p)
    assert f"<@{chooser.id}>" in note and "/organizedcrime status" in note
    status = await oc(t, chooser, "status")
    assert "Inbox" in status.text() and "choose your Home Base" in status.text()
    again = await oc(t, chooser, "status")
    assert "Inbox" not in again.text(), "read once"


async def test_the_hosts_buttons_get_this_games_answers(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "buttons")
    t = table
    await oc(t, t.host, "new")
    for name in ("andy", "grunkle"):
        await oc(t, t.players[name], "join")
    await oc(t, t.host, "start")
    await t.idle()
    game = await game_row(t)
    state = await state_of(t)
    who = await seats(t)
    member = who[state["choosers"][0]]
    caller = Caller(member.id, member.name, member.name, guild_id=t.guild.id, channel_id=t.chan.id)
    status = await PRESENTATION.status_reply(t.bot.host, caller, game["id"])
    assert "your status" in status.text and "choose your Home Base" in status.text
    submit = await PRESENTATION.submit_reply(t.bot.host, caller, game["id"])
    assert "your panel" in submit.text and isinstance(submit.view, discord.ui.View)
    ids = [c.custom_id for c in submit.view.children if getattr(c, "custom_id", None)]
    assert ids and all(i.startswith(f"oc:panel:{game['id']}:") for i in ids)
    history = await PRESENTATION.history_reply(t.bot.host, caller)
    assert isinstance(history.embed, discord.Embed) and "finished games" in (history.embed.title or "")
    lobby = PRESENTATION.lobby_text(await _row(t), await t.bot.host.finder.roster(game["id"]))
    assert "Players (2/4)" in lobby and "Pace: **live**" in lobby


async def _row(t: Table):
    return (await t.bot.host.finder.games_of(t.players["andy"].id, "organizedcrime"))[0]
