"""Deadlines and the host's tools: a timeout applies the decision's default (R122), `admin resolve` does the
same at once, pause and resume keep the time left, a reminder DM comes before the deadline, `admin end`
posts the standing (reason host) and the export still replays, `admin replace` briefs the new holder,
and a host who plays is warned before exporting."""

from __future__ import annotations

import asyncio
import json
from random import Random

from rules.organizedcrime.game import GAME
from tests.bot.games.organizedcrime.test_game import export_replays
from tests.support.ocdriver import pick_social, play_out
from tests.support.octable import fixed_chance, oc, open_game, seats, state_of, two_player_turn
from tests.support.table import Table


async def wait_for_post(t: Table, text: str, timeout: float = 5.0) -> str:
    async def found() -> str | None:
        await t.bot.wait_idle(timeout=timeout)
        return next((p for p in reversed(t.posts()) if text in p), None)

    for _ in range(int(timeout / 0.05)):
        hit = await found()
        if hit:
            return hit
        await asyncio.sleep(0.05)
    raise AssertionError(f"no post with {text!r}: {t.posts()[-3:]}")


async def test_a_turn_that_times_out_ends_without_a_roll(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "timeout")
    t = table
    state, who, active = await two_player_turn(t)
    other = next(s for s in who if s != active)
    reply = await oc(t, t.host, "admin deadline", minutes=0.003)
    assert "New deadline" in reply.text()
    post = await wait_for_post(t, "Time is up for the turn")
    colour = GAME.view(state, None)["players"][active]["colour"]
    assert f"Time is up for the turn ({colour})" in post and f"{colour} runs out of time" in post
    state = await state_of(t)
    assert state["active"] == other and state["turn"] == 2, "the next turn began"
    assert "it is your turn" in t.dm_texts(who[other])[-1], "the next player is prompted by DM"
    assert any(m.mentions == [who[other].id] for m in t.fd.channel_messages(t.chan)[-1:])


async def test_admin_resolve_stops_a_move_where_it_stands(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "resolve")
    t = table
    state, who, active = await two_player_turn(t)
    me = GAME.view(state, None)["players"][active]["colour"]
    await oc(t, who[active], "buy hitmen", count=1)
    await oc(t, who[active], "declare", piece=f"{me}:0", direction="right", piece2=f"{me}:1", direction2="left",
             roll=True)
    state = await state_of(t)
    share = (sum(state["ts"]["dice"]) + 1) // 2
    await oc(t, who[active], "move", piece=f"{me}:1", share=share)
    items = await t.fd.autocomplete(who[active], t.chan, "organizedcrime path", focused="item", item="step")
    item = items[0]["value"]
    await oc(t, who[active], "path", item=item)
    reply = await oc(t, t.host, "admin resolve")
    assert "Applied the default of the move of turn 1" in reply.text(), reply.text()
    post = await wait_for_post(t, "Time is up for the move")
    assert "move stops" in post and "no landing" in post and "forfeits its move" in post
    assert "(the host applied this)" in post


async def test_pause_keeps_the_time_and_resume_restarts_it(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "pause")
    t = table
    state, who, active = await two_player_turn(t)
    await oc(t, t.host, "admin deadline", minutes=0.01)
    paused = await oc(t, t.host, "admin pause")
    assert "Every clock is stopped" in paused.text()
    await asyncio.sleep(0.9)
    await t.idle()
    assert (await state_of(t))["turn"] == 1, "nothing timed out while paused"
    status = await oc(t, who[active], "status")
    assert "The clock is paused" in status.text()
    resumed = await oc(t, t.host, "admin resume")
    assert "run again" in resumed.text()
    await wait_for_post(t, "Time is up for the turn")


async def test_a_reminder_comes_when_its_share_of_the_decision_has_passed(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "remind")
    t = table
    # commands.md: one DM once reminder_percent of the decision's own time has passed (none under a minute).
    state, who, active = await two_player_turn(t, reminder_percent=5, turn_minutes=1.02)
    game = await t.bot.db.fetchone("SELECT id, step_opened_at FROM games")
    timer = await t.bot.db.fetchone("SELECT due_at, clock FROM timers WHERE game_id = ? AND kind = 'reminder'",
                                    (game["id"],))
    deadline = await t.bot.db.fetchone("SELECT due_at FROM timers WHERE game_id = ? AND kind = 'deadline'",
                                       (game["id"],))
    assert timer["clock"].startswith("turn")
    assert abs(timer["due_at"] - (game["step_opened_at"] + 0.05 * 61.2)) < 1e-6
    assert abs(deadline["due_at"] - timer["due_at"] - 0.95 * 61.2) < 1e-6
    for _ in range(400):
        await t.idle()
        if any("reminder" in d for d in t.dm_texts(who[active])):
            break
        await asyncio.sleep(0.05)
    reminder = next(d for d in t.dm_texts(who[active]) if "reminder" in d)
    assert "it is your turn" in reminder and "Deadline: <t:" in reminder
    other = next(s for s in who if s != active)
    assert not any("reminder" in d for d in t.dm_texts(who[other]))


def test_each_decision_is_reminded_at_its_own_share_and_short_windows_never() -> None:
    from bot.games.organizedcrime.lobby import host_options, settings_of
    from bot.host.clocks import reminder_by_share

    options = host_options(settings_of({"reminder_percent": 50}))
    assert (options.reminder_share, options.reminder_shortest) == (0.5, 60.0)
    share, shortest = options.reminder_share, options.reminder_shortest
    assert reminder_by_share(0, 600, 600, share, shortest) == 300  # the 10-minute turn: after 5 minutes
    assert reminder_by_share(0, 120, 120, share, shortest) == 60  # a 2-minute vote: after 1 minute
    assert reminder_by_share(0, 10, 10, share, shortest) is None  # the 10-second penalty window: none
    # a turn clock that waited for a meeting keeps its own time: 50 % of it has run once 300 s are left
    assert reminder_by_share(1000, 1450, 600, share, shortest) == 1150


async def test_admin_end_posts_the_standing_and_the_export_replays(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "end")
    t = table
    names = ["andy", "grunkle", "cara"]
    await open_game(t, names, bargain_minimum_minutes=0.00001)
    await play_out(t, Random(2), picker=pick_social, until=lambda st: st["turn"] >= 4)
    state = await state_of(t)
    assert state["phase"] not in (None, "over")
    export = await oc(t, t.host, "admin export")
    assert "also a player" not in export.text(), "the host holds no seat here"
    reply = await oc(t, t.host, "admin end")
    assert "ended" in reply.text()
    await t.idle()
    final = t.posts()[-1]
    assert "the host ended the game" in final and "Standing (votes, money, income)" in final
    assert "Hands at the end" in final
    doc = await export_replays(t, ended_by_host=True)
    assert GAME.replay(doc)["result"] is None, "HOST_END is left out of the file (commands.md)"
    history = await oc(t, t.players["andy"], "history")
    assert "ended by the host" in history.text()


async def test_replace_and_the_exporting_host_who_plays(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "replace")
    t = table
    await oc(t, t.host, "new")
    await oc(t, t.players["andy"], "join")
    await oc(t, t.host, "join")
    await oc(t, t.host, "start", order=f"<@{t.host.id}> <@{t.players['andy'].id}>")
    await t.idle()
    state = await state_of(t)
    who = await seats(t)
    assert who[state["players"][0]] is t.host, "start order: the host takes the first seat"
    # commands.md `admin export`: the file is attached (host only, ephemeral); to a host who also plays the
    # bot says he should not export before the end, and still attaches it.
    warned = await oc(t, t.host, "admin export")
    assert warned.ephemeral and warned.attachments, warned.text()
    assert "You are also a player" in warned.text()
    assert json.loads(warned.attachments[0][1])["players"], "the replay file itself"
    exported = [i for i in t.fd.interactions if i.name == "organizedcrime admin export"]
    assert exported[-1].response_type == 5, "deferred: the whole record is read (commands.md, 3 seconds)"
    andy_seat = next(s for s, m in who.items() if m is t.players["andy"])
    stranger = t.fd.add_guild("Elsewhere").add_member("stranger")
    refused = await oc(t, t.host, "admin replace", old=t.players["andy"], new=stranger)
    assert "not a member of this server" in refused.text(), refused.text()
    reply = await oc(t, t.host, "admin replace", old=t.players["andy"], new=t.players["eve"])
    assert "eve now holds andy's seat" in reply.text()
    await t.idle()
    brief = t.dm_texts(t.players["eve"])[-1]
    assert "you now hold a seat" in brief and "Your hand:" in brief
    if andy_seat in GAME.pending(await state_of(t)).awaited:
        assert "Your move:" in brief
    running = await t.bot.db.fetchone("SELECT deadline_at FROM clocks WHERE deadline_at IS NOT NULL")
    assert f"Deadline: <t:{int(running['deadline_at'])}:R>" in brief, brief
    assert "takes over andy's seat" in t.posts()[-1]
    refused = await oc(t, t.players["andy"], "status")
    assert "not a player" in refused.text()


async def test_the_home_base_timeout_gives_the_lowest_free_base(table: Table, monkeypatch) -> None:
    # commands.md, decisions: on timeout the chooser gets the lowest-numbered free Home Base (house); the
    # post says it was assigned, not that it was the only one left (three are still free).
    fixed_chance(monkeypatch, "base-timeout")
    t = table
    await open_game(t, ["andy", "grunkle", "cara"])
    state = await state_of(t)
    who = await seats(t)
    chooser = state["choosers"][0]
    await oc(t, t.host, "admin resolve")
    post = await wait_for_post(t, "Time is up for the Home Base choice")
    assert f"{who[chooser].name} takes Home Base 0 (green) (assigned: no choice was made)" in post, post
    assert (await state_of(t))["bases"] == {chooser: 0}


async def test_a_seated_admin_who_is_not_the_host_gets_no_export_while_the_game_runs(table: Table, monkeypatch) -> None:
    # commands.md: the file goes to the host, with a warning when the host plays. A member with Manage Server who
    # holds a seat in someone else's game is not that host: the file would show him every hand and deck.
    fixed_chance(monkeypatch, "replace")
    t = table
    mod = t.guild.add_member("mod", manage_guild=True)
    await oc(t, t.host, "new")
    await oc(t, t.host, "join")
    await oc(t, mod, "join")
    await oc(t, t.host, "start")
    await t.idle()
    refused = await oc(t, mod, "admin export")
    assert refused.ephemeral and not refused.attachments, refused.text()
    assert "You hold a seat in this game" in refused.text()
    warned = await oc(t, t.host, "admin export")
    assert warned.attachments and "You are also a player" in warned.text()
    await oc(t, t.host, "admin end")
    await t.idle()
    after = await oc(t, mod, "admin export")
    assert after.attachments and "also a player" not in after.text(), "once ended, any admin gets the file"


async def test_a_lobby_closed_by_its_host_says_so_and_has_nothing_to_export(table: Table) -> None:
    t = table
    await oc(t, t.host, "new")
    for name in ("andy", "grunkle"):
        await oc(t, t.players[name], "join")
    closed = await oc(t, t.host, "admin end")
    assert "lobby is closed" in closed.text() and "standing" not in closed.text(), closed.text()
    export = await oc(t, t.host, "admin export")
    assert not export.attachments and "closed in its lobby" in export.text(), export.text()
    await t.idle()
    lobby = t.fd.channel_messages(t.chan)[0].text()
    assert "closed this lobby before the game started" in lobby and "Join with" not in lobby, lobby
    history = await oc(t, t.players["andy"], "history")  # commands.md: the server's finished games
    assert "No game has finished here yet" in history.text(), repr(history.text())


async def test_the_lobby_post_says_when_the_game_has_started(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "replace")
    t = table
    await open_game(t, ["andy", "grunkle"])
    lobby = t.fd.channel_messages(t.chan)[0].text()
    assert "The game has started: the lobby is closed." in lobby and "Join with" not in lobby, lobby


async def test_the_lobby_start_button_starts_as_the_command_does(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "replace")
    t = table
    await oc(t, t.host, "new")
    for name in ("andy", "grunkle"):
        await oc(t, t.players[name], "join")
    await t.idle()
    lobby_msg = t.fd.channel_messages(t.chan)[0]
    started = await t.fd.click(t.host, lobby_msg, label="Start")
    assert started.ephemeral and "**Organized Crime** begins" in started.text(), started.text()
    assert "Seat order: 1. andy, 2. grunkle." in started.text(), started.text()
    await t.idle()
    assert "The game has started: the lobby is closed." in t.fd.channel_messages(t.chan)[0].text()


async def test_start_with_an_order_from_a_dm(table: Table, monkeypatch) -> None:
    # commands.md: a command used in a DM applies to the caller's game
    fixed_chance(monkeypatch, "replace")
    t = table
    await oc(t, t.host, "new")
    for name in ("andy", "grunkle", "cara"):
        await oc(t, t.players[name], "join")
    ids = [t.players[name].id for name in ("cara", "andy", "grunkle")]
    wrong = await oc(t, t.host, "start", dm=True, order=f"<@{ids[0]}> <@{ids[1]}>")
    assert "must name every player of the lobby once" in wrong.text(), wrong.text()
    started = await oc(t, t.host, "start", dm=True, order=" ".join(f"<@{i}>" for i in ids))
    assert "Seat order: 1. cara, 2. andy, 3. grunkle." in started.text(), started.text()


async def test_a_reminder_percent_of_zero_means_no_reminders(table: Table, monkeypatch) -> None:
    # a reminder at 0 % of a decision's time would come with its prompt: the lobby says none, and none is placed
    fixed_chance(monkeypatch, "replace")
    t = table
    await open_game(t, ["andy", "grunkle"], reminder_percent=0)
    assert "Reminders: none" in t.fd.channel_messages(t.chan)[0].text()
    await asyncio.sleep(0.2)
    await t.idle()
    timers = await t.bot.db.fetchall("SELECT kind FROM timers")
    assert timers and {r["kind"] for r in timers} == {"deadline"}, [dict(r) for r in timers]
    dms = [d for name in ("andy", "grunkle") for d in t.dm_texts(t.players[name])]
    assert dms and not [d for d in dms if "reminder" in d], dms
