"""bot/storage/db.py (aiosqlite): group commit keeps each transaction's all-or-nothing and returns only once
committed; statements run off the event loop; reads never wait for the writer; cancellation and close are clean."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.storage.db import Database

ROOT = Path(__file__).resolve().parents[3]


async def test_concurrent_transactions_share_commits_and_fail_alone(tmp_path: Path) -> None:
    db = Database(tmp_path / "g.db")
    await db.open()
    before = db.commits

    async def put(i: int) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (f"k{i}", "a"))
            await conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (f"k{i}b", "b"))
            if i == 7:
                raise RuntimeError("boom")
        # Returned: committed, so another connection sees it.
        other = sqlite3.connect(tmp_path / "g.db")
        try:
            found = other.execute("SELECT COUNT(*) FROM meta WHERE key IN (?, ?)", (f"k{i}", f"k{i}b")).fetchone()
            assert found[0] == 2
        finally:
            other.close()

    results = await asyncio.gather(*(put(i) for i in range(20)), return_exceptions=True)
    assert [i for i, r in enumerate(results) if isinstance(r, BaseException)] == [7]
    keys = {r["key"] for r in await db.fetchall("SELECT key FROM meta WHERE key LIKE 'k%'")}
    assert keys == {f"k{i}{s}" for i in range(20) if i != 7 for s in ("", "b")}
    assert db.transactions >= 19 and db.commits - before < 19  # several transactions per fsync
    await db.close()


async def test_lone_failure_rolls_back_and_next_transaction_works(tmp_path: Path) -> None:
    db = Database(tmp_path / "h.db")
    await db.open()
    with pytest.raises(ValueError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta(key, value) VALUES ('x', '1')")
            raise ValueError
    await db.set_meta("y", "2")
    assert await db.get_meta("x") is None
    assert await db.get_meta("y") == "2"
    async with db.read() as conn:  # the reader sees committed data in one snapshot
        rows = await (await conn.execute("SELECT key FROM meta WHERE key IN ('x', 'y')")).fetchall()
    assert [r["key"] for r in rows] == ["y"]
    await db.close()


async def test_statements_run_off_the_event_loop_thread(tmp_path: Path) -> None:
    db = Database(tmp_path / "t.db")
    await db.open()
    threads: set[int] = set()
    for conn in (db.conn, *db._readers):
        assert conn is not None
        await conn.set_trace_callback(lambda _sql: threads.add(threading.get_ident()))
    await db.set_meta("a", "1")
    assert await db.get_meta("a") == "1"
    async with db.read() as conn:
        await conn.execute_fetchall("SELECT * FROM meta")
    assert threads and threading.get_ident() not in threads
    await db.close()


async def test_reads_do_not_wait_for_a_transaction_in_progress(tmp_path: Path) -> None:
    db = Database(tmp_path / "r.db")
    await db.open()
    await db.set_meta("a", "old")
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow_writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE meta SET value = 'new' WHERE key = 'a'")
            inside.set()
            await release.wait()

    task = asyncio.create_task(slow_writer())
    await inside.wait()
    assert await asyncio.wait_for(db.get_meta("a"), 5) == "old"  # committed data only, no waiting
    release.set()
    await task
    assert await db.get_meta("a") == "new"
    await db.close()


async def test_cancelled_transaction_rolls_back_and_close_waits(tmp_path: Path) -> None:
    db = Database(tmp_path / "c.db")
    await db.open()
    inside = asyncio.Event()

    async def stuck() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta(key, value) VALUES ('gone', '1')")
            inside.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stuck())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await db.set_meta("kept", "1")
    assert await db.get_meta("gone") is None and await db.get_meta("kept") == "1"

    # close() waits for the transaction in progress, which commits.
    started = asyncio.Event()

    async def late() -> None:
        async with db.transaction() as conn:
            started.set()
            await asyncio.sleep(0.05)
            await conn.execute("INSERT INTO meta(key, value) VALUES ('late', '1')")

    task = asyncio.create_task(late())
    await started.wait()
    await db.close()
    await task
    assert not db.is_open
    with sqlite3.connect(tmp_path / "c.db") as other:
        assert other.execute("SELECT value FROM meta WHERE key = 'late'").fetchone() == ("1",)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            pass


async def test_memory_database_shares_the_writer() -> None:
    db = Database(":memory:")
    await db.open()
    await asyncio.gather(*(db.set_meta(f"m{i}", str(i)) for i in range(10)))
    assert len(await db.fetchall("SELECT key FROM meta WHERE key LIKE 'm%'")) == 10
    async with db.read() as conn:
        row = await (await conn.execute("SELECT value FROM meta WHERE key = 'm3'")).fetchone()
    assert row["value"] == "3"
    await db.close()


def test_an_unclosed_database_does_not_keep_the_process_alive(tmp_path: Path) -> None:
    code = (
        "import asyncio, sys\n"
        "from bot.storage.db import Database\n"
        "KEEP = []\n"
        "async def main():\n"
        f"    db = Database({str(tmp_path / 'u.db')!r})\n"
        "    await db.open()\n"
        "    await db.set_meta('a', '1')\n"
        "    KEEP.append(db)  # never closed, still referenced at exit\n"
        "asyncio.run(main())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=30, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
