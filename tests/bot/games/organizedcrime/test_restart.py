"""Restarts: a game goes on where it was, in the middle of a turn and of a move; a panel opened before the
restart still answers its clicks; a deadline that passed while the bot was down resolves once."""

from __future__ import annotations

import asyncio

from rules.organizedcrime.game import GAME
from tests.support.octable import fixed_chance, oc, state_of, two_player_turn
from tests.support.table import Table


async def test_restart_in_the_middle_of_a_turn_and_of_a_move(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "restart")
    t = table
    state, who, active = await two_player_turn(t)
    me = GAME.view(state, None)["players"][active]["colour"]
    await oc(t, who[active], "buy hitmen", count=3)
    await oc(t, who[active], "declare", piece=f"{me}:1", direction="right")
    panel = await oc(t, who[active], "panel")
    assert panel.component(label="Roll")

    await t.stop_bot()
    await t.start_bot()
    board = await oc(t, who[active], "board")
    assert f"{me}:1 right" in board.text() and "(declared)" in board.text(), board.text()
    status = await oc(t, who[active], "status")
    assert "$120,000" in status.text() and "It is up to you" in status.text()
    after = await t.fd.click(who[active], panel, panel.component(label="Roll")["custom_id"])
    assert "rolls" in after.text(), "a panel sent before the restart still works"
    bought = [m for m in t.fd.ephemerals(who[active]) if "buys 3 Hit-Men" in m.text()][0]
    opened = await t.fd.click(who[active], bought, bought.component(label="Panel")["custom_id"])
    assert opened.ephemeral and "now: the turn" in opened.text(), "a receipt's Panel button works after a restart"
    state = await state_of(t)
    share = sum(state["ts"]["dice"])
    await oc(t, who[active], "move", piece=f"{me}:1", share=share)
    items = await t.fd.autocomplete(who[active], t.chan, "organizedcrime path", focused="item")
    first = next(c["value"] for c in items if c["value"].startswith("step"))
    await oc(t, who[active], "path", item=first)

    await t.stop_bot()
    await t.start_bot()
    state = await state_of(t)
    assert state["phase"] == "path" and state["ts"]["path"]["used"] == 1
    for _ in range(share + 2):
        state = await state_of(t)
        if state["phase"] != "path":
            break
        items = await t.fd.autocomplete(who[active], t.chan, "organizedcrime path", focused="item")
        assert items, "the move goes on after the restart"
        reply = await oc(t, who[active], "path", item=items[0]["value"])
        assert "not allowed" not in reply.text(), reply.text()
    await oc(t, who[active], "pass")
    await t.idle()
    assert (await state_of(t))["turn"] == 2
    assert "passes the dice" in "\n".join(t.posts()[-2:])


async def test_a_deadline_that_passed_while_down_resolves_once(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "down")
    t = table
    state, who, active = await two_player_turn(t)
    await oc(t, t.host, "admin deadline", minutes=0.01)
    await t.stop_bot()
    before = len(t.posts())
    await asyncio.sleep(0.8)
    await t.start_bot()
    await t.idle()
    timed = [p for p in t.posts()[before:] if "Time is up for the turn" in p]
    assert len(timed) == 1
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert [p for p in t.posts() if "Time is up for the turn" in p] == timed
    assert (await state_of(t))["turn"] == 2
