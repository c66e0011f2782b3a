"""bot/storage/db.py: group commit keeps each transaction's all-or-nothing, and returns only once committed."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage.db import Database


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
