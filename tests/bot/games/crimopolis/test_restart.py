"""Restarts: a game carries on in the middle of a turn on the same database; panels and prompts sent by the
old client keep working (persistent custom ids, picks in the host's panel rows); preferences survive; a
deadline that passed while the bot was down times the turn out once."""

from __future__ import annotations

import asyncio
import random

from rules.crimopolis import GAME
from tests.bot.games.crimopolis.test_game import fixed_seed  # noqa: F401 (a fixture)
from tests.support.crimopolis import CpTable, Driver, open_game


async def to_turn(t: CpTable, driver: Driver, number: int) -> None:
    """Play until turn `number` is open (and its player has not acted)."""
    while True:
        state = await t.state()
        pending = GAME.pending(state)
        if state.phase == "play" and state.number == number and pending is not None and pending.decision == "turn":
            return
        assert await driver.step()


async def active(t: CpTable) -> tuple[str, object]:
    state = await t.state()
    names = await t.seat_names()
    return names[state.active], t.players[names[state.active]]


async def test_restart_in_the_middle_of_a_turn(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6)
    driver = Driver(t, random.Random(2))
    await to_turn(t, driver, 3)
    name, member = await active(t)
    await t.cmd(t.players["ben" if name == "ann" else "ann"], "prefs", reactions="never")
    recruit = await t.cmd(member, "recruit")
    assert "✅ Recruit" in recruit.text(), recruit.text()
    panel = await t.cmd(member, "panel")
    kind = next(c for c in panel.custom_ids() if c.endswith(":kind"))
    panel = await t.fd.select(member, panel, kind, ["move"])
    hours_before = (await t.state()).hours

    await t.stop_bot()
    await t.start_bot()

    status = await t.cmd(member, "status")
    assert f"{hours_before} hours left this turn" in status.text() and "Your jobs" in status.text()
    other = "ben" if name == "ann" else "ann"
    assert "Reactions: never" in (await t.cmd(t.players[other], "status")).text()
    # the old panel answers the new client: its picks (the kind "move") were kept in the panel row
    p1 = next(c for c in panel.custom_ids() if c.endswith(":p1"))
    first = panel.component(p1)["options"][0]["value"]
    panel = await t.fd.select(member, panel, p1, [first])
    p2 = next(c for c in panel.custom_ids() if c.endswith(":p2"))
    panel = await t.fd.select(member, panel, p2, [panel.component(p2)["options"][0]["value"]])
    p3 = next(c for c in panel.custom_ids() if c.endswith(":p3"))
    panel = await t.fd.select(member, panel, p3, [panel.component(p3)["options"][0]["value"]])
    done = await t.fd.click(member, panel, next(c for c in panel.custom_ids() if c.endswith(":go")))
    assert "✅ Move" in done.text(), done.text()
    await t.idle()
    assert any("moves" in p for p in t.posts()[-3:])
    for _ in range(10):  # and the game goes on
        if not await driver.step():
            break
    assert driver.findings == []


async def test_deadline_passed_while_down_times_out_once(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6)
    driver = Driver(t, random.Random(3))
    await to_turn(t, driver, 2)
    name, member = await active(t)
    reply = await t.cmd(t.host, "admin deadline", hours=0.0003)  # about a second
    assert "New deadline" in reply.text()
    await t.stop_bot()
    before = len(t.posts())
    await asyncio.sleep(1.3)
    await t.start_bot()
    await t.idle()
    new = t.posts()[before:]
    assert sum("time ran out" in p for p in new) == 1, new
    assert any("(timed out)" in p and name in p for p in new), new
    state = await t.state()
    assert state.number == 3 and state.hours == 7, "forfeit: the next turn gets no carry"
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert sum("time ran out" in p for p in t.posts()[before:]) == 1
