"""Driving Crime City games with computer players through the fake Discord (tests/bot/.../test_computers*)."""

from __future__ import annotations

import json
from random import Random
from typing import Any

from rules.crimecity import CHARACTERS
from rules.crimecity.notation import format_action
from rules.crimecity.simulate import random_submission
from tests.support.crimecity import match_of
from tests.support.table import Table


async def restart_with(t: Table, **settings: Any) -> None:
    """The bot again, with these `Settings` fields (e.g. computer_delay=0: computer players move at once)."""
    await t.stop_bot()
    t.settings = settings
    await t.start_bot()


async def seats_by_name(t: Table) -> dict[str, str]:
    """Member's user name -> seat, for the latest game's members."""
    found = await t.bot.db.fetchall(
        "SELECT seat, user_name FROM seats WHERE game_id = (SELECT MAX(id) FROM games) AND user_id IS NOT NULL"
    )
    return {r["user_name"]: r["seat"] for r in found}


async def members_play_round(t: Table, rng: Random, members: dict[str, str]) -> None:
    """Each member still seated submits a random legal round (extras included) through the commands."""
    state = (await match_of(t)).game
    by_seat = {seat: name for name, seat in members.items()}

    def name_of(seat: str) -> str:
        return by_seat.get(seat, seat)  # a computer player by its seat id, as its choices carry it

    for name, seat in members.items():
        who = t.players[name]
        sub = random_submission(state, seat, rng, buy_rate=0.3)
        for a, b in sub.buys:
            reply = await t.cmd(who, "friendship", a=a.value, b=b.value, points=1)
            assert "Purchases for this round" in reply.text(), reply.text()
        if sub.guess:
            roles = ", ".join(f"{c.value}={sub.guess[c].value}" for c in CHARACTERS)
            assert "Guess recorded" in (await t.cmd(who, "guess", roles=roles)).text()
        first, *rest = [format_action(a, name_of) for a in sub.actions]
        reply = await t.cmd(who, "act", first=first, **({"second": rest[0]} if rest else {}))
        assert "actions recorded" in reply.text(), reply.text()
    await t.idle()


async def settle_ec(t: Table, members: dict[str, str]) -> dict[str, Any] | None:
    """An open EC decision: the member deciders choose a candidate (a computer player's seat when there
    is one); a deadlock, the host settles. Returns the option the members named it with (None: no EC
    decision was open, or no member decided)."""
    match = await match_of(t)
    if match.phase != "ec":
        return None
    pending = match.results["ec_pending"]
    by_seat = {s: n for n, s in members.items()}
    # a computer player when there is one: members name it with `computer:`
    seat = next((s for s in pending["candidates"] if s not in by_seat), pending["candidates"][0])
    target = {"player": t.players[by_seat[seat]]} if seat in by_seat else {"computer": seat}
    named = None
    for decider in pending["deciders"]:
        if decider in by_seat:
            named = target
            reply = await t.cmd(t.players[by_seat[decider]], "ec", **target)
            assert "EC" in reply.text() or "vote" in reply.text(), reply.text()
    await t.idle()
    if (await match_of(t)).phase == "ec":  # deciders who disagree: the host decides (rulings Q42)
        reply = await t.cmd(t.host, "ec", **target)
        assert "As host you decided" in reply.text(), reply.text()
        await t.idle()
    return named


async def play_to_the_end(t: Table, rng: Random) -> dict[str, Any] | None:
    """Members play random rounds to the end and settle the EC (what `settle_ec` returns)."""
    members = await seats_by_name(t)
    while (await match_of(t)).phase == "round":
        await members_play_round(t, rng, await seats_by_name(t))
    named = await settle_ec(t, members)
    assert (await match_of(t)).phase == "over"
    return named


def fixed_secret(monkeypatch: Any, secret: str) -> None:
    """Every game set up from now on gets `secret` as its secret seed (so computer players repeat)."""
    from types import SimpleNamespace

    monkeypatch.setattr("bot.host.stepper.secrets", SimpleNamespace(token_hex=lambda n: secret))


async def step_actions(t: Table, game_id: int) -> list[list[dict[str, Any]]]:
    """Every step's actions in the move log, in order."""
    found = await t.bot.db.fetchall(
        "SELECT actions_json FROM moves WHERE game_id = ? AND kind = 'step' ORDER BY seq", (game_id,)
    )
    return [json.loads(r["actions_json"]) for r in found]


async def latest_game(t: Table) -> Any:
    return await t.bot.db.fetchone("SELECT * FROM games ORDER BY id DESC LIMIT 1")
