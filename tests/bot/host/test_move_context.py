"""A move keeps its game's context in memory (no read for the next one): it must be the game exactly as
committed, row and clocks, whatever the step did (a decision opened or not, clocks moved or not)."""

from __future__ import annotations

from pathlib import Path
from random import Random

from bot.games import presentations
from bot.games.organizedcrime.lobby import host_options, settings_of
from bot.host import Host
from bot.storage import clocks as clocks_repo
from bot.storage import games as games_repo
from bot.storage.db import Database
from bot.storage.models import GameRow
from rules.contract import NoChance
from rules.organizedcrime.engine import Engine
from rules.organizedcrime.game import GAME
from rules.organizedcrime.policy import random_action
from tests.support.service import caller


async def _started(host: Host) -> GameRow:
    """An Organized Crime game of four, started (its first decision open)."""
    boss = caller(1, "boss", admin=True)
    settings = settings_of({"bargain_minimum_minutes": 0.00001})
    game = await host.lobby.open(boss, "organizedcrime", settings, host_options(settings))
    for uid in (11, 12, 13):
        await host.lobby.join(caller(uid, f"p{uid}"), "organizedcrime")
    await host.lobby.start(boss, "organizedcrime")
    return game


async def test_the_context_kept_after_a_move_is_the_game_as_committed(tmp_path: Path) -> None:
    db = Database(tmp_path / "moves.db")
    await db.open()
    try:
        host = Host(db, presentations())
        game = await _started(host)
        rng, kept = Random(5), 0
        for _ in range(120):
            async with db.read() as conn:
                row = await games_repo.get_game(conn, game.id)
                seats = {s.seat: s.user_id for s in await games_repo.seats(conn, game.id)}
            assert row is not None and row.pending is not None
            seat = row.pending.awaited[0]
            state = GAME.decode_state(row.state)
            action = random_action(Engine(GAME.content, state, NoChance()), seat, rng)
            who = caller(int(seats[seat] or 0), "player")
            await host.play.submit(who, "organizedcrime", lambda turn, a=action: dict(a))
            kept_ctx = host.play._contexts.get(game.id)
            async with db.read() as conn:
                fresh = await games_repo.get_game(conn, game.id)
                clocks = await clocks_repo.clocks(conn, game.id)
            assert fresh is not None
            if fresh.status != "running":
                break
            assert kept_ctx is not None, "a move leaves its game's context in memory"
            assert kept_ctx.game == fresh and list(kept_ctx.clocks) == clocks
            assert not kept_ctx.collected
            kept += 1
        assert kept >= 20, kept
    finally:
        await db.close()


async def test_the_timer_dispatcher_is_woken_by_every_move_that_changes_timers(tmp_path: Path) -> None:
    """A step that leaves every timer as it was wakes only the outbox (no read of the timers for nothing);
    one that places or clears any wakes the dispatcher too."""
    db = Database(tmp_path / "wakes.db")
    await db.open()
    try:
        host = Host(db, presentations())
        woken = {"timers": 0, "outbox": 0}
        host.timers_changed = lambda: woken.__setitem__("timers", woken["timers"] + 1)
        host.outbox_changed = lambda: woken.__setitem__("outbox", woken["outbox"] + 1)
        game = await _started(host)
        rng, quiet, changed = Random(7), 0, 0

        async def timers() -> list[tuple[object, ...]]:
            async with db.reader() as conn:
                found = await conn.execute_fetchall(
                    "SELECT kind, step, clock, due_at FROM timers WHERE game_id = ? ORDER BY id", (game.id,)
                )
            return [tuple(r) for r in found]

        for _ in range(150):
            async with db.read() as conn:
                row = await games_repo.get_game(conn, game.id)
                seats = {s.seat: s.user_id for s in await games_repo.seats(conn, game.id)}
            assert row is not None
            if row.status != "running" or row.pending is None:
                break
            seat = row.pending.awaited[0]
            action = random_action(Engine(GAME.content, GAME.decode_state(row.state), NoChance()), seat, rng)
            before, seen = await timers(), dict(woken)
            await host.play.submit(caller(int(seats[seat] or 0), "player"), "organizedcrime",
                                   lambda turn, a=action: dict(a))
            assert woken["outbox"] == seen["outbox"] + 1, "every step queues messages"
            if await timers() != before:
                assert woken["timers"] == seen["timers"] + 1, action
                changed += 1
            elif woken["timers"] == seen["timers"]:
                quiet += 1
        assert quiet >= 10 and changed >= 5, (quiet, changed)
    finally:
        await db.close()
