"""Organized Crime at the fake server's table: commands under /organizedcrime, the game's state as the rules
see it (for driving tests only), and who holds which seat."""

from __future__ import annotations

import json
from typing import Any

from rules.organizedcrime.game import GAME
from tests.support.table import Table

KIND = "organizedcrime"


async def oc(t: Table, who: Any, command: str, *, dm: bool = False, **options: Any) -> Any:
    channel = t.fd.dm_channel(who) if dm else t.chan
    return await t.fd.slash(who, channel, f"{KIND} {command}", **options)


async def state_of(t: Table) -> Any:
    """The latest game's state (to pick legal moves in tests, never to assert what members see)."""
    row = await t.bot.db.fetchone("SELECT state_json FROM games ORDER BY id DESC LIMIT 1")
    return GAME.decode_state(json.loads(row["state_json"]))


async def game_row(t: Table) -> Any:
    return await t.bot.db.fetchone("SELECT * FROM games ORDER BY id DESC LIMIT 1")


async def seats(t: Table) -> dict[str, Any]:
    """seat -> the FakeMember holding it."""
    game = await game_row(t)
    found = await t.bot.db.fetchall("SELECT seat, user_id FROM seats WHERE game_id = ?", (game["id"],))
    members = {m.id: m for m in [*t.players.values(), t.host]}
    return {r["seat"]: members[r["user_id"]] for r in found}


async def open_game(t: Table, names: list[str], **options: Any) -> None:
    await oc(t, t.host, "new", **options)
    for name in names:
        await oc(t, t.players[name], "join")
    await oc(t, t.host, "start")
    await t.idle()


def fixed_chance(monkeypatch: Any, seed: str) -> None:
    """The host's secret seed fixed, so a test's dice and shuffles are the same on every run."""
    import types

    import bot.host.stepper as stepper

    monkeypatch.setattr(stepper, "secrets", types.SimpleNamespace(token_hex=lambda n=16: seed))


async def two_player_turn(t: Table, seed: str = "two-turn", **options: Any) -> tuple[Any, dict[str, Any], str]:
    """andy and grunkle at the table, both Home Bases chosen (the lowest free one each): the first turn is
    open. Returns (state, seat -> member, the active seat)."""
    await open_game(t, ["andy", "grunkle"], **options)
    who = await seats(t)
    for _ in range(2):
        state = await state_of(t)
        if state["phase"] != "choose_base":
            break
        chooser = state["choosers"][0]
        free = sorted({0, 1, 2, 3} - set(state["bases"].values()))
        await oc(t, who[chooser], "base", home=str(free[0]))
    await t.idle()
    state = await state_of(t)
    return state, who, state["active"]
