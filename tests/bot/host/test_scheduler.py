"""The timer dispatcher: persisted timers, early wake-up, and a failing timer that hurts nobody else
(on SQLite, and on PostgreSQL where it claims each due timer first)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.host.scheduler import Scheduler
from bot.storage import Storage, database_for
from bot.storage import timers as timers_repo
from bot.storage.db import Database
from bot.storage.models import TimerRow
from tests.support import rows


async def make_db(setting: str | Path) -> Storage:
    db = database_for(setting)
    await db.open()
    async with db.transaction() as conn:
        await rows.games(conn, [1, 2])
    return db


@asynccontextmanager
async def opened(setting: str | Path) -> AsyncIterator[Storage]:
    database = await make_db(setting)
    schedulers: list[Scheduler] = []
    database.schedulers = schedulers  # type: ignore[union-attr]
    try:
        yield database
    finally:  # even when an assertion failed: no task or connection outlives the test
        for s in schedulers:
            await s.stop()
        await database.close()


@pytest.fixture
async def db(db_setting: str):  # type: ignore[no-untyped-def]
    async with opened(db_setting) as database:
        yield database


def scheduler_for(db: Database, handler) -> Scheduler:  # type: ignore[no-untyped-def]
    scheduler = Scheduler(db, handler)
    db.schedulers.append(scheduler)  # type: ignore[attr-defined]
    return scheduler


async def wait_until(predicate, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate() and loop.time() < end:
        await asyncio.sleep(0.01)


async def test_failing_timer_is_retried_and_others_still_fire(db: Database) -> None:
    fired: list[int] = []
    failures = {"left": 1}
    failed_at: list[float] = []
    fired_at: dict[int, float] = {}

    async def handler(timer: TimerRow) -> None:
        if timer.game_id == 1 and failures["left"]:
            failures["left"] -= 1
            failed_at.append(time.time())
            raise RuntimeError("boom")
        fired.append(timer.game_id)
        fired_at[timer.game_id] = time.time()

    scheduler = scheduler_for(db, handler)
    scheduler.start()
    now = time.time()
    async with db.transaction() as conn:
        await timers_repo.add_timer(conn, 1, "deadline", 0, now - 1)
        await timers_repo.add_timer(conn, 2, "deadline", 0, now - 1)
    scheduler.wake()
    await wait_until(lambda: 2 in fired and failures["left"] == 0 and not scheduler.busy)
    assert fired[0] == 2, "game 2's timer fired although game 1's failed"
    if 1 in fired:  # a slow machine: the retry (2 s later) came before this look
        assert fired_at[1] - failed_at[0] >= 1.5, "the failed timer was retried at once, not postponed"
    else:
        row = await db.fetchone("SELECT attempts, due_at FROM timers WHERE game_id = 1")
        assert row["attempts"] == 1 and row["due_at"] > now, "the failed timer was postponed, not dropped"
        # make it due again: it succeeds this time and is removed
        async with db.transaction() as conn:
            await conn.execute("UPDATE timers SET due_at = ? WHERE game_id = 1", (time.time() - 1,))
        scheduler.wake()
    await wait_until(lambda: 1 in fired and not scheduler.busy)
    assert sorted(fired) == [1, 2]
    assert await db.fetchone("SELECT * FROM timers") is None


async def test_an_earlier_timer_wakes_the_sleeping_dispatcher(db: Database) -> None:
    fired: list[int] = []

    async def handler(timer: TimerRow) -> None:
        fired.append(timer.game_id)

    scheduler = scheduler_for(db, handler)
    async with db.transaction() as conn:
        await timers_repo.add_timer(conn, 1, "deadline", 0, time.time() + 3600)
    scheduler.start()
    await asyncio.sleep(0.05)  # now sleeping for an hour
    async with db.transaction() as conn:
        await timers_repo.add_timer(conn, 2, "deadline", 0, time.time() + 0.1)
    scheduler.wake()
    await wait_until(lambda: bool(fired))
    assert fired == [2]


async def test_a_timer_that_took_the_id_of_one_firing_survives_its_end(tmp_path: Path) -> None:
    """SQLite reuses a deleted row's id: a new timer added while an old one's handler ran (the next
    decision's, say) may get the old id. The old handler's end must not delete the new timer.
    (SQLite only: PostgreSQL's ids come from a sequence and are never reused.)"""
    async with opened(tmp_path / "timers.db") as db:
        await _a_timer_that_took_the_id(db)


async def _a_timer_that_took_the_id(db: Storage) -> None:
    async with db.transaction() as conn:
        old = await timers_repo.add_timer(conn, 1, "computer", 1, time.time() - 1, clock="p3")
    release = asyncio.Event()
    seen: list[TimerRow] = []

    async def handler(timer: TimerRow) -> None:
        seen.append(timer)
        if timer.step == 1:  # meanwhile the decision moves on: its timers go, the next one's come
            async with db.transaction() as conn:
                await timers_repo.clear_timers(conn, 1)
                new = await timers_repo.add_timer(conn, 1, "computer", 2, time.time() + 3600, clock="p3")
            assert new == old, "the check needs the id to be reused"
            await release.wait()

    scheduler = scheduler_for(db, handler)
    scheduler.start()
    await wait_until(lambda: bool(seen))
    release.set()
    await wait_until(lambda: not scheduler.busy)
    async with db.read() as conn:
        left = await timers_repo.timers_of(conn, 1)
    assert [(t.id, t.step) for t in left] == [(old, 2)]
