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


async def batch_of(db: Database, bodies: list[Any]) -> list[BaseException | None]:
    """Run `bodies` as transactions that all join one batch: the first takes the writer (a round trip) and
    holds it until every other body is over. Each body gets the connection; what each transaction raised,
    in order."""
    hold = asyncio.Event()

    async def first() -> None:
        async with db.transaction() as conn:
            await conn.execute("SELECT 1")  # holds the writer from here to the end of its body
            await hold.wait()  # the others' bodies run meanwhile
            await bodies[0](conn)

    async def member(body: Any) -> None:
        async with db.transaction() as conn:
            await body(conn)

    tasks = [asyncio.create_task(first())]
    await asyncio.sleep(0.02)
    tasks += [asyncio.create_task(member(body)) for body in bodies[1:]]
    await asyncio.sleep(0.02)
    hold.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in results]


def put(key: str) -> Any:
    async def body(conn: Any) -> None:
        await later(conn, PUT, (key, "v"))

    return body


async def test_a_batch_of_members_that_wait_on_nothing_is_one_call(tmp_path: Path) -> None:
    db = Database(tmp_path / "b.db")
    await db.open()
    try:
        calls = count_calls(db)
        commits = db.commits
        results = await batch_of(db, [put(f"k{i}") for i in range(6)])
        assert results == [None] * 6
        assert calls[0] == 2, "the first member's round trip; then everyone's writes and the COMMIT together"
        assert db.commits - commits == 1
        assert await keys(db) == [f"k{i}" for i in range(6)]
    finally:
        await db.close()


async def test_a_member_whose_writes_fail_in_the_batch_gets_its_own_error_alone(tmp_path: Path) -> None:
    db = Database(tmp_path / "f.db")
    await db.open()
    try:
        seen: list[int] = []

        def moved() -> Any:
            async def body(conn: Any) -> None:
                await later(conn, PUT, ("k_moved", "v"))
                await later(conn, "UPDATE meta SET value = 'x' WHERE key = 'nobody'", must_change=True)

            return body

        def taken() -> Any:
            async def body(conn: Any) -> None:
                await later(conn, PUT, ("k_taken", "v"))
                await later(conn, PUT, ("k0", "again"))  # k0 is the first member's: a broken rule

            return body

        async def counts(conn: Any) -> None:
            # It waits for the writer: it sees every member that closed before it took it (the last one
            # too, which queued only writes), and nothing of the failed ones.
            found = await row(conn, "SELECT COUNT(*) AS n FROM meta WHERE key LIKE 'k%'")
            seen.append(found["n"])
            await later(conn, PUT, ("k9", "v"))

        results = await batch_of(db, [put("k0"), moved(), put("k1"), taken(), counts, put("k2")])
        outcomes = [type(r).__name__ for r in results]
        assert outcomes == ["NoneType", "Moved", "NoneType", "Conflict", "NoneType", "NoneType"]
        assert seen == [3]
        assert await keys(db) == ["k0", "k1", "k2", "k9"]
        assert db.transactions >= 4
        async with db.transaction() as conn:  # the writer is usable again
            await later(conn, PUT, ("k3", "v"))
        assert "k3" in await keys(db)
    finally:
        await db.close()


async def test_a_batch_that_sqlite_rolls_back_as_a_whole_fails_every_member(tmp_path: Path) -> None:
    """Nobody is told "recorded" for data that is not on disk: a statement that makes SQLite roll the whole
    transaction back (here a trigger's RAISE(ROLLBACK)) fails the members before it too, and those after it
    start a new batch."""
    db = Database(tmp_path / "l.db")
    await db.open()
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE doom(x INTEGER)")
            await conn.execute("CREATE TRIGGER doom_all AFTER INSERT ON doom BEGIN SELECT RAISE(ROLLBACK, 'doom'); END")

        async def doom(conn: Any) -> None:
            await later(conn, "INSERT INTO doom(x) VALUES (1)", ())

        results = await batch_of(db, [put("k0"), put("k1"), doom, put("k2")])
        assert all(r is not None for r in results), results
        assert await keys(db) == []
        assert not db.conn.in_transaction
        await db.set_meta("k5", "v")  # and the writer is usable again
        assert await keys(db) == ["k5"]
    finally:
        await db.close()


async def test_a_member_failing_after_its_round_trip_rolls_back_only_its_own(tmp_path: Path) -> None:
    db = Database(tmp_path / "r.db")
    await db.open()
    try:

        async def fails(conn: Any) -> None:
            await later(conn, PUT, ("k_gone", "v"))
            await conn.execute("SELECT 1")  # sent: the members before it, then its own write
            raise RuntimeError("after its writes were sent")

        results = await batch_of(db, [put("k0"), fails, put("k1")])
        assert [type(r).__name__ for r in results] == ["NoneType", "RuntimeError", "NoneType"]
        assert await keys(db) == ["k0", "k1"]
    finally:
        await db.close()


async def test_a_body_that_only_queues_writes_does_not_wait_for_the_writer(tmp_path: Path) -> None:
    db = Database(tmp_path / "w.db")
    await db.open()
    try:
        holding, release, ran = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def holder() -> None:
            async with db.transaction() as conn:
                await conn.execute("SELECT 1")
                holding.set()
                await release.wait()
                await later(conn, PUT, ("k0", "v"))

        async def writer() -> None:
            async with db.transaction() as conn:
                await later(conn, PUT, ("k1", "v"))
                ran.set()

        held = asyncio.create_task(holder())
        await holding.wait()
        wrote = asyncio.create_task(writer())
        await asyncio.wait_for(ran.wait(), 5)  # its body ran while the writer was held
        await asyncio.sleep(0.02)
        assert not wrote.done(), "it returns only once committed, after the holder"
        release.set()
        await asyncio.gather(held, wrote)
        assert await keys(db) == ["k0", "k1"]
    finally:
        await db.close()


async def test_cancelled_members_leave_the_batch_whole(tmp_path: Path) -> None:
    """A holder cancelled in its body undoes only its own writes; a member cancelled while it waits for the
    COMMIT is still committed, and the others are not cancelled with it."""
    db = Database(tmp_path / "x.db")
    await db.open()
    try:
        holding = asyncio.Event()

        async def holder() -> None:
            async with db.transaction() as conn:
                await later(conn, PUT, ("k_gone", "v"))
                await conn.execute("SELECT 1")
                holding.set()
                await asyncio.sleep(60)

        async def writer(key: str) -> None:
            async with db.transaction() as conn:
                await later(conn, PUT, (key, "v"))

        held = asyncio.create_task(holder())
        await holding.wait()
        waiting = [asyncio.create_task(writer(f"k{i}")) for i in range(3)]
        await asyncio.sleep(0.02)  # their bodies are over: they wait for the holder, then the COMMIT
        waiting[1].cancel()
        held.cancel()
        results = await asyncio.gather(held, *waiting, return_exceptions=True)
        assert [type(r).__name__ for r in results] == ["CancelledError", "NoneType", "CancelledError", "NoneType"]
        assert await keys(db) == ["k0", "k1", "k2"]
        assert not db.conn.in_transaction
    finally:
        await db.close()


async def test_a_cancelled_commit_fails_its_members_instead_of_leaving_them_waiting(tmp_path: Path) -> None:
    """When the loop closes, it cancels the task that would COMMIT: the members waiting for it must get an
    error (not wait forever, which would hang the loop's shutdown), and the transaction left open is rolled
    back by the next one to take the writer."""
    db = Database(tmp_path / "z.db")
    await db.open()
    try:
        holding, release = asyncio.Event(), asyncio.Event()

        async def holder() -> None:
            async with db.transaction() as conn:
                await later(conn, PUT, ("k_held", "v"))
                await conn.execute("SELECT 1")  # BEGIN sent; it holds the writer
                holding.set()
                await release.wait()

        held = asyncio.create_task(holder())
        await holding.wait()
        waiting = asyncio.create_task(put_one(db, "k_waiting"))
        await asyncio.sleep(0.02)
        assert db._commits, "its COMMIT waits for the writer in a task"
        for task in list(db._commits):
            task.cancel()
        with pytest.raises(RuntimeError, match="not committed"):
            await asyncio.wait_for(waiting, 5)
        release.set()
        with pytest.raises(RuntimeError, match="not committed"):
            await asyncio.wait_for(held, 5)
        await put_one(db, "k_next")  # the abandoned transaction was rolled back first
        assert await keys(db) == ["k_next"]
        assert not db.conn.in_transaction
    finally:
        await db.close()


async def put_one(db: Database, key: str) -> None:
    async with db.transaction() as conn:
        await later(conn, PUT, (key, "v"))
