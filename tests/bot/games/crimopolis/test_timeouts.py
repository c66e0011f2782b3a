"""Deadlines (commands.md "Deadlines and timeouts"): a turn that times out gets its defaults and ends, passing on
nothing (`forfeit`) or its hours (`pass`); a setup decision gets the default placement; a reaction window only
gets "no reaction" and the turn goes on; reminders go by DM; pause and resume stop and restart the clocks."""

from __future__ import annotations

import asyncio
import random

from rules.crimopolis import GAME
from tests.bot.games.crimopolis.test_game import fixed_seed  # noqa: F401 (a fixture)
from tests.bot.games.crimopolis.test_restart import active, to_turn
from tests.support.crimopolis import CpTable, Driver, open_game


async def test_a_turn_times_out_with_its_defaults(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6)
    driver = Driver(t, random.Random(3))
    await to_turn(t, driver, 2)
    name, member = await active(t)
    move = await t.cmd(member, "recruit")
    assert "✅" in move.text()
    await t.cmd(t.host, "admin deadline", hours=0.0003)  # about a second
    await asyncio.sleep(1.3)
    await t.idle()
    log = "\n".join(t.posts()[-4:])
    assert f"{name}'s time ran out (turn)" in log and "(timed out)" in log, log
    state = await t.state()
    assert state.number >= 3
    nxt = (await t.seat_names())[state.active] if state.active else None
    assert nxt != name
    assert any("**Your turn 3**" in d for d in t.dm_texts(t.players[nxt or ""]))


async def test_pass_carries_the_hours_of_a_timed_out_turn(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6, timeout_time="pass")
    driver = Driver(t, random.Random(3))
    await to_turn(t, driver, 2)
    left = (await t.state()).hours
    reply = await t.cmd(t.host, "admin resolve")
    assert "timed out" in reply.text()
    await t.idle()
    state = await t.state()
    assert state.number == 3 and state.hours == 7 + left, "the hours left pass on, onto the next 7"


async def test_setup_defaults_and_a_reaction_timeout(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=8)
    state = await t.state()
    assert state.pending["kind"] == "setup_tile"
    non_admin = await t.cmd(t.players["ann"], "admin resolve")
    assert "Only the game's host" in non_admin.text()
    reply = await t.cmd(t.host, "admin resolve")
    assert "default" in reply.text()
    await t.idle()
    first = state.revealed[0]
    assert any("places" in p and first in p for p in t.posts()[-2:]), "the default: the first revealed tile"
    driver = Driver(t, random.Random(2))
    while GAME.pending(await t.state()).decision != "react":
        assert await driver.step(), "a reaction window opens"
    state = await t.state()
    turn_before = state.number
    reply = await t.cmd(t.host, "admin deadline", hours=0.0002)
    assert "New deadline" in reply.text()
    await asyncio.sleep(1.0)
    await t.idle()
    state = await t.state()
    assert any("does not react" in p for p in t.posts()[-3:]), t.posts()[-3:]
    assert state.number == turn_before, "a reaction timeout answers only the window: the turn goes on (E4)"


async def test_reminder_pause_and_resume(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6)
    driver = Driver(t, random.Random(3))
    await to_turn(t, driver, 2)
    name, member = await active(t)
    reply = await t.cmd(t.host, "admin reminder", hours=0.001)
    assert "DM" in reply.text()
    await t.cmd(t.host, "admin deadline", hours=0.0013)  # the reminder comes ~1 s from now
    await asyncio.sleep(1.4)
    await t.idle()
    assert any("reminder" in d and "your turn" in d for d in t.dm_texts(member)), t.dm_texts(member)[-1]
    reply = await t.cmd(t.host, "admin pause")
    assert "paused" in reply.text()
    board = await t.cmd(t.players["ann"], "board")
    assert "the clock is paused" in board.text()
    await asyncio.sleep(0.6)
    await t.idle()
    assert (await t.state()).number == 2, "paused: nothing times out"
    reply = await t.cmd(t.host, "admin resume")
    assert "run again" in reply.text()


async def test_the_turn_clock_runs_through_its_own_players_window(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    # commands.md: "the clock stops while a reaction window of another player is open", and only then
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=21)
    driver = Driver(t, random.Random(5))
    seen: set[bool] = set()
    for _ in range(800):
        state = await t.state()
        pending = GAME.pending(state)
        if pending is None:
            break
        if pending.decision == "react":
            rows = {r["clock"]: r for r in await t.bot.db.fetchall("SELECT clock, deadline_at, remaining FROM clocks")}
            turn, window = rows[f"turn:{state.number}"], rows[pending.clocks[-1].id]
            own = pending.awaited[0] == state.active
            assert window["deadline_at"] is not None
            assert (turn["deadline_at"] is not None) == own and (turn["remaining"] is None) == own, (own, dict(turn))
            seen.add(own)
            if seen == {True, False}:
                break
        if not await driver.step():
            break
    assert seen == {True, False}, seen
