"""The computer players' service (bot/host/computers.py): its timing, the re-arm once every member is in,
restarts, the fallback for a refused move, determinism from the game's secret, and no peeking.

The games are Crime City's, driven through the fake Discord; the service itself knows no game."""

from __future__ import annotations

import json
import logging
import sqlite3
from random import Random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.host.computers import Inputs, Timing
from bot.host.stepper import ComputerWait
from rules.crimecity.game import GAME
from tests.rules.crimecity.players.test_no_peeking import _others_changed
from tests.support.computers import latest_game, restart_with, settle_ec, step_actions
from tests.support.crimecity import CAST
from tests.support.table import Table

# ---- the timing (pure) ----------------------------------------------------------------------------------


def wait(*, owe: bool, deadline: float | None = 86_400.0, now: float = 0.0, seat: str = "p3", step: int = 1) -> Any:
    return ComputerWait(SimpleNamespace(step=step), seat, deadline, now, owe)  # type: ignore[arg-type]


def test_a_computer_takes_its_time_while_a_member_owes_a_move() -> None:
    t = Timing()
    slow = [t.delay(f"secret{i}", wait(owe=True)) for i in range(200)]
    assert all(t.least <= d <= t.most for d in slow)
    assert len({round(d, 3) for d in slow}) > 150, "human-like: not all at the same moment"
    short = [t.delay(f"secret{i}", wait(owe=True, deadline=600.0)) for i in range(200)]
    assert all(t.least <= d <= 0.4 * 600 for d in short)
    soon = [t.delay(f"secret{i}", wait(owe=True, deadline=3.0)) for i in range(50)]
    assert all(d < 3.0 for d in soon), "always before the deadline"


def test_once_no_member_owes_a_move_it_moves_within_seconds() -> None:
    t = Timing()
    assert all(1.0 <= t.delay(f"s{i}", wait(owe=False)) <= 4.0 for i in range(200))
    assert all(1.0 <= t.delay(f"s{i}", wait(owe=False, deadline=None)) <= 4.0 for i in range(50))


def test_without_a_running_deadline_it_waits_a_little() -> None:
    t = Timing()
    assert all(20.0 <= t.delay(f"s{i}", wait(owe=True, deadline=None)) <= 90.0 for i in range(100))


def test_the_delay_is_a_function_of_the_secret_seat_and_decision_and_scales() -> None:
    t = Timing()
    one = t.delay("abc", wait(owe=True))
    assert one == t.delay("abc", wait(owe=True))
    others = {
        t.delay("abd", wait(owe=True)),
        t.delay("abc", wait(owe=True, seat="p4")),
        t.delay("abc", wait(owe=True, step=2)),
    }
    assert one not in others
    assert Timing(scale=0.0).delay("abc", wait(owe=True)) == 0.0
    assert Timing(scale=0.5).delay("abc", wait(owe=True)) == pytest.approx(one / 2)


# ---- through the bot --------------------------------------------------------------------------------------


async def lobby_of_two(t: Table) -> None:
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    for n in ("andy", "grunkle"):
        await t.cmd(t.players[n], "join")
    for level in ("strong", "random", "random"):
        await t.cmd(t.host, "admin addbot", level=level)


async def computer_timers(t: Table) -> dict[str, float]:
    rows = await t.bot.db.fetchall("SELECT clock, due_at FROM timers WHERE kind = 'computer'")
    return {r["clock"]: r["due_at"] for r in rows}


@pytest.mark.sqlite_file  # moves the timers in the file while the bot is down
async def test_the_last_member_in_brings_the_computers_forward_and_a_restart_keeps_them(table: Table) -> None:
    t = table
    await lobby_of_two(t)
    await t.cmd(t.host, "start")
    now = t.bot.host.clock()
    armed = await computer_timers(t)
    assert set(armed) == {"p3", "p4", "p5"}
    assert all(now + 5 <= due <= now + 900 + 1 for due in armed.values()), armed
    role, char = CAST["andy"]
    await t.cmd(t.players["andy"], "draft", bid=0, roles=role, characters=char)
    assert await computer_timers(t) == armed, "a member still owes: nothing changes"
    role, char = CAST["grunkle"]
    await t.cmd(t.players["grunkle"], "draft", bid=0, roles=role, characters=char)
    now = t.bot.host.clock()
    hurried = await computer_timers(t)
    assert set(hurried) == {"p3", "p4", "p5"}
    assert all(due <= now + 4.0 for due in hurried.values()), (hurried, now)
    again = await t.cmd(t.players["grunkle"], "draft", bid=1, roles=role, characters=char)
    assert "recorded" in again.text() and await computer_timers(t) == hurried, "never pushed back"

    # down while they were due: on start-up the due timers fire, the computers move and the draft resolves
    await t.stop_bot()
    with sqlite3.connect(t.db_path) as conn:
        conn.execute("UPDATE timers SET due_at = due_at - 3600 WHERE kind = 'computer'")
    await t.start_bot()
    await t.idle()
    game = await latest_game(t)
    draft = (await step_actions(t, game["id"]))[0]
    assert {a["by"] for a in draft} == {"p1", "p2", "p3", "p4", "p5"}
    assert json.loads(game["state_json"])["phase"] == "round"


class Refused:
    level = "strong"

    def decide(self, view: Any, pending: Any, seen: Any, rng: Random) -> dict[str, Any] | None:
        return {"kind": "draft", "bid": 10_000, "roles": ["mob_boss"], "characters": ["banker"], "secret": "xyzzy"}


class Silent:
    level = "random"

    def decide(self, view: Any, pending: Any, seen: Any, rng: Random) -> dict[str, Any] | None:
        return None


async def test_a_refused_move_or_none_becomes_a_random_legal_one(table: Table, caplog) -> None:
    t = table
    await restart_with(t, computer_delay=0.0)
    computers = t.bot.host.computers
    computers.make = lambda kind, level: Refused() if level == "strong" else Silent()
    computers._players.clear()
    caplog.set_level(logging.WARNING, logger="bot.host.computers")
    await lobby_of_two(t)
    await t.cmd(t.host, "start")
    await t.idle()
    game = await latest_game(t)
    collected = await t.bot.db.fetchall(
        "SELECT seat, move_json, user_id FROM submissions WHERE game_id = ? ORDER BY seat", (game["id"],)
    )
    assert [r["seat"] for r in collected] == ["p3", "p4", "p5"] and all(r["user_id"] is None for r in collected)
    state = GAME.decode_state(json.loads(game["state_json"]))
    for r in collected:
        move = json.loads(r["move_json"])
        assert GAME.check(state, r["seat"], move) is None and move.get("bid", 0) <= 10
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len([r for r in warned if "the rules refuse" in r.getMessage()]) == 1
    assert len([r for r in warned if "gave no move" in r.getMessage()]) == 2
    assert not any("xyzzy" in r.getMessage() or "mob_boss" in r.getMessage() for r in warned)


class Held:
    """A player that decides only once `go` is set (the seat may change hands meanwhile)."""

    level = "strong"

    def __init__(self, go: Any) -> None:
        self.go = go

    def decide(self, view: Any, pending: Any, seen: Any, rng: Random) -> dict[str, Any] | None:
        self.go.wait(10)
        return None


async def test_a_seat_handed_to_a_member_while_its_player_decides_gets_no_computer_move(table: Table) -> None:
    import asyncio
    import threading

    t = table
    await restart_with(t, computer_delay=0.0)
    computers = t.bot.host.computers
    go = threading.Event()
    computers.make = lambda kind, level: Held(go) if level == "strong" else Silent()
    computers._players.clear()
    await lobby_of_two(t)  # p3 is the strong one
    await t.cmd(t.host, "start")
    game = await latest_game(t)
    for _ in range(200):  # the two random ones have moved; the strong one is deciding
        seats = {r["seat"] for r in await t.bot.db.fetchall("SELECT seat FROM submissions WHERE game_id = ?",
                                                             (game["id"],))}
        if seats == {"p4", "p5"}:
            break
        await asyncio.sleep(0.01)
    reply = await t.cmd(t.host, "admin replace", computer="p3", new=t.players["cara"])
    assert "cara now holds Computer 1 (strong)'s seat" in reply.text(), reply.text()
    go.set()
    await t.idle()
    collected = await t.bot.db.fetchall(
        "SELECT seat, user_id FROM submissions WHERE game_id = ? ORDER BY seat", (game["id"],)
    )
    assert [r["seat"] for r in collected] == ["p4", "p5"], "cara's seat waits for cara, not for a fallback move"


async def play_alone(t: Table) -> list[list[dict[str, Any]]]:
    """Five computer players, a whole game by themselves; its move log."""
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    for level in ("strong", "random", "strong", "random", "random"):
        await t.cmd(t.host, "admin addbot", level=level)
    await t.cmd(t.host, "start")
    await t.idle()
    await settle_ec(t, {})
    game = await latest_game(t)
    assert game["status"] == "ended"
    return await step_actions(t, game["id"])


async def test_the_same_secret_gives_the_same_moves(table: Table, monkeypatch) -> None:
    t = table
    await restart_with(t, computer_delay=0.0)
    seeds = iter(["5eed" * 8, "5eed" * 8, "beef" * 8])
    monkeypatch.setattr("bot.host.stepper.secrets", SimpleNamespace(token_hex=lambda n: next(seeds)))
    first, second, other = await play_alone(t), await play_alone(t), await play_alone(t)
    assert len(first) >= 3  # the draft and rounds
    assert first == second
    assert other != first


async def test_other_seats_secrets_do_not_move_a_computers_decision(table: Table) -> None:
    t = table
    await restart_with(t, computer_delay=1000.0)  # its timer far away: the test asks it instead
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    for n in ("andy", "grunkle", "cara", "dev"):
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "admin addbot", level="strong")
    await t.cmd(t.host, "start")
    for n in ("andy", "grunkle", "cara", "dev"):
        role, char = CAST[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.cmd(t.host, "admin resolve")
    await t.idle()
    computers = t.bot.host.computers
    game = await latest_game(t)
    assert "state" not in Inputs.__dataclass_fields__, "structurally, a player gets no state"
    base = await computers.inputs(game["id"], "p5", game["step"])
    assert base is not None and base.pending.decision == "round"
    decided = computers._decide(base)
    assert decided is not None and GAME.check(GAME.decode_state(json.loads(game["state_json"])), "p5", decided) is None
    rng = Random(5)
    state = GAME.decode_state(json.loads(game["state_json"]))
    for _ in range(4):
        changed = _others_changed(state, "p5", rng)
        assert changed.game != state.game and GAME.view(changed, "p5") == GAME.view(state, "p5")
        async with t.bot.db.transaction() as conn:
            await conn.execute(
                "UPDATE games SET state_json = ?, version = version + 1 WHERE id = ?",
                (json.dumps(GAME.encode_state(changed)), game["id"]),
            )
        again = await computers.inputs(game["id"], "p5", game["step"])
        assert again is not None and again.view == base.view and again.seen == base.seen
        assert computers._decide(again) == decided
