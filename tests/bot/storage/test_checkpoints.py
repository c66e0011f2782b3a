"""bot/storage/checkpoints.py: the writer never checkpoints inside a COMMIT; a connection of its own copies
the write-ahead log into the database every so often while something is committed, and once more at close."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage.db import Database

BLOB = "x" * 6000  # about two pages a row


async def fill(db: Database, n: int) -> None:
    for i in range(n):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (f"k{i}", BLOB))


def wal_pages(path: Path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size // 4096 if wal.exists() else 0


async def test_commits_leave_the_log_to_the_checkpointer(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    db = Database(path)
    db.CHECKPOINT_EVERY = 3600  # type: ignore[misc]  # only the checkpoints this test asks for
    await db.open()
    try:
        assert (await db.conn.execute_fetchall("PRAGMA wal_autocheckpoint"))[0][0] == 0
        await fill(db, 700)
        assert wal_pages(path) > 1000, "SQLite would have checkpointed inside a commit at 1,000 pages"
        outside = sqlite3.connect(path)  # the log's rows are committed whether or not they are checkpointed
        assert outside.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'k%'").fetchone()[0] == 700
        outside.close()
        assert db._checkpointer is not None
        await db._checkpointer.checkpoint()
        log = (await db.conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)"))[0]
        assert log[1] == log[2], "every frame of the log is in the database file"
    finally:
        await db.close()


async def test_the_checkpointer_runs_while_something_is_committed_and_at_close(tmp_path: Path) -> None:
    db = Database(tmp_path / "c.db")
    db.CHECKPOINT_EVERY = 0.02  # type: ignore[misc]
    await db.open()
    checkpointer = db._checkpointer
    assert checkpointer is not None
    await asyncio.sleep(0.1)
    idle = checkpointer.runs
    assert idle == 0, "nothing committed since it started: nothing to checkpoint"
    await fill(db, 20)
    await asyncio.sleep(0.1)
    assert checkpointer.runs > idle
    await db.close()
    assert checkpointer.runs > idle + 1, "one more at close"
    assert not (tmp_path / "c.db-wal").exists() or wal_pages(tmp_path / "c.db") == 0


async def test_memory_databases_have_no_checkpointer() -> None:
    db = Database(":memory:")
    await db.open()
    try:
        assert db._checkpointer is None
    finally:
        await db.close()
