"""The timer dispatcher: persisted timers, early wake-up, and a failing timer that hurts nobody else."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.scheduler import Scheduler
from bot.storage import timers as timers_repo
from bot.storage.db import Database
from bot.storage.models import TimerRow


async def make_db(path: Path) -> Database:
    db = Database(path)
    await db.open()
    async with db.transaction() as conn:
        for gid in (1, 2):
            await conn.execute(
                "INSERT INTO games(id, guild_id, channel_id, host_id, status, rounds_total, deadline_hours,"
                " start_garnets, created_at) VALUES (?, 1, ?, 1, 'round', 6, 1, 0, 0)",
                (gid, 100 + gid),
            )
    return db


async def test_failing_timer_is_retried_and_others_still_fire(tmp_path: Path) -> None:
    db = await make_db(tmp_path / "t.db")
    fired: list[int] = []
    failures = {"left": 1}

    async def handler(timer: TimerRow) -> None:
        if timer.game_id == 1 and failures["left"]:
            failures["left"] -= 1
            raise RuntimeError("boom")
        fired.append(timer.game_id)

    scheduler = Scheduler(db, handler)
    scheduler.start()
    now = time.time()
    async with db.transaction() as conn:
        await timers_repo.add_timer(conn, 1, "deadline", 0, now - 1)
        await timers_repo.add_timer(conn, 2, "deadline", 0, now - 1)
    scheduler.wake()
    for _ in range(200):
        if 2 in fired:
            break
        await asyncio.sleep(0.01)
    assert fired == [2], "game 2's timer fired although game 1's failed"
    row = await db.fetchone("SELECT attempts, due_at FROM timers WHERE game_id = 1")
    assert row["attempts"] == 1 and row["due_at"] > now, "the failed timer was postponed, not dropped"
    # make it due again: it succeeds this time and is removed
    async with db.transaction() as conn:
        await conn.execute("UPDATE timers SET due_at = ? WHERE game_id = 1", (time.time() - 1,))
    scheduler.wake()
    for _ in range(200):
        if 1 in fired:
            break
        await asyncio.sleep(0.01)
    assert sorted(fired) == [1, 2]
    await asyncio.sleep(0.05)
    assert await db.fetchone("SELECT * FROM timers") is None
    await scheduler.stop()
    await db.close()


async def test_an_earlier_timer_wakes_the_sleeping_dispatcher(tmp_path: Path) -> None:
    db = await make_db(tmp_path / "t.db")
    fired: list[int] = []

    async def handler(timer: TimerRow) -> None:
        fired.append(timer.game_id)

    scheduler = Scheduler(db, handler)
    async with db.transaction() as conn:
        await timers_repo.add_timer(conn, 1, "deadline", 0, time.time() + 3600)
    scheduler.start()
    await asyncio.sleep(0.05)  # now sleeping for an hour
    async with db.transaction() as conn:
        await timers_repo.add_timer(conn, 2, "deadline", 0, time.time() + 0.1)
    scheduler.wake()
    for _ in range(100):
        if fired:
            break
        await asyncio.sleep(0.01)
    assert fired == [2]
    await scheduler.stop()
    await db.close()
