"""bot/storage/pipeline.py: in a SQLite transaction, the opening statement and the writes made with `later`
go to the writer's thread in one call, in order, with the next statement that needs an answer or at the end;
a failing one (a broken rule, a compare-and-set that changes nothing) writes nothing of the transaction, and
a member of a group commit that fails before sending anything undoes nobody else's work. Elsewhere (on
PostgreSQL) `later` runs at once, with the same outcomes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Conflict, Storage, database_for
from bot.storage.db import Database
from bot.storage.errors import Moved
from bot.storage.sql import later, row, rows

PUT = "INSERT INTO meta(key, value) VALUES (?, ?)"


async def opened(setting: str) -> Storage:
    db = database_for(setting)
    await db.open()
    return db


async def keys(db: Storage) -> list[str]:
    async with db.reader() as conn:
        return [r["key"] for r in await rows(conn, "SELECT key FROM meta WHERE key LIKE 'k%' ORDER BY key")]


def count_calls(db: Database) -> list[int]:
    """How many calls reach the writer's thread (aiosqlite's queue), counted from now."""
    calls = [0]
    real = db.conn._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return await real(fn, *args, **kwargs)

    db.conn._execute = counted  # type: ignore[method-assign]
    return calls


async def test_later_writes_go_in_one_call_and_the_transaction_sees_them(tmp_path: Path) -> None:
    db = Database(tmp_path / "p.db")
    await db.open()
    try:
        calls = count_calls(db)
        async with db.transaction() as conn:
            for i in range(5):
                await later(conn, PUT, (f"k{i}", "v"))
            assert calls[0] == 0, "nothing sent yet: no statement needed an answer"
            seen = await row(conn, "SELECT COUNT(*) AS n FROM meta WHERE key LIKE 'k%'")
            assert seen["n"] == 5, "the read runs after the queued writes, in the same call"
            assert calls[0] == 1
            await later(conn, PUT, ("k9", "v"))
        assert calls[0] == 2, "BEGIN + 5 writes + the read; the last write and the COMMIT (nobody else waits)"
        assert await keys(db) == ["k0", "k1", "k2", "k3", "k4", "k9"]
    finally:
        await db.close()


async def test_a_failing_later_write_writes_nothing_of_its_transaction(db_setting: str) -> None:
    db = await opened(db_setting)
    try:
        with pytest.raises(Conflict):
            async with db.transaction() as conn:
                await later(conn, PUT, ("k1", "v"))
                await later(conn, PUT, ("k1", "again"))  # the key is taken: a broken rule
        with pytest.raises(Moved):
            async with db.transaction() as conn:
                await later(conn, PUT, ("k2", "v"))
                await later(conn, "UPDATE meta SET value = 'x' WHERE key = 'nobody'", must_change=True)
        assert await keys(db) == []
        async with db.transaction() as conn:  # and the next transaction works
            await later(conn, PUT, ("k3", "v"))
            await later(conn, "UPDATE meta SET value = 'x' WHERE key = 'k3'", must_change=True)
        assert await keys(db) == ["k3"]
    finally:
        await db.close()


async def test_a_member_failing_before_it_sent_anything_undoes_nobody_elses_work(tmp_path: Path) -> None:
    """In a group commit, a member that fails before its SAVEPOINT was sent must not ROLLBACK TO the
    previous member's savepoint."""
    db = Database(tmp_path / "g.db")
    await db.open()
    try:
        release = asyncio.Event()

        async def first() -> None:
            async with db.transaction() as conn:
                await later(conn, PUT, ("k0", "v"))
                await conn.execute("SELECT 1")  # sent: BEGIN and its write
                await release.wait()  # the others queue up for the writer meanwhile: they join its batch

        async def member(i: int) -> None:
            async with db.transaction() as conn:
                await later(conn, PUT, (f"k{i}", "v"))
                if i == 2:
                    raise RuntimeError("fails before anything of it was sent")
                await conn.execute("SELECT 1")

        tasks = [asyncio.create_task(first())]
        await asyncio.sleep(0.05)
        tasks += [asyncio.create_task(member(i)) for i in (1, 2, 3)]
        await asyncio.sleep(0.05)
        release.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert [type(r).__name__ for r in results] == ["NoneType", "NoneType", "RuntimeError", "NoneType"]
        assert await keys(db) == ["k0", "k1", "k3"]
    finally:
        await db.close()
