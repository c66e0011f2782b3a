"""bot/storage/submission_writer.py: concurrent collected moves share one statement and one fsync,
each row keeps its own decision guard and its own outcome, a bad row fails alone, and "written" means
committed (another connection sees it)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from bot.storage.db import Database
from bot.storage.submission_writer import SubmissionWriter
from tests.support import rows

GAMES = 12


async def _games(db: Database, n: int = GAMES) -> None:
    """n running games at decision 5 (only the columns the guard reads matter)."""
    async with db.transaction() as conn:
        await rows.games(conn, list(range(1, n + 1)), step=5)


def _move(n: int) -> dict:
    return {"kind": "round", "actions": [{"kind": "move", "n": n}], "buy": [["banker", "governor"]]}


def _stored(path: Path) -> dict[tuple[int, str], tuple[str, str]]:
    other = sqlite3.connect(path)  # a separate connection: sees only what is committed
    try:
        rows = other.execute("SELECT game_id, seat, move_json FROM submissions").fetchall()
    finally:
        other.close()
    return {(g, s): json.loads(m) for g, s, m in rows}


@pytest.fixture
async def db(tmp_path: Path):
    database = Database(tmp_path / "w.db")
    await database.open()
    await _games(database)
    yield database
    await database.close()


async def test_concurrent_rows_share_statements_and_are_committed(db: Database, tmp_path: Path) -> None:
    writer = SubmissionWriter(db)
    commits = db.commits
    puts = [(g, f"p{s}") for g in range(1, GAMES + 1) for s in range(1, 6)]
    results = await asyncio.gather(*(writer.put_if_open(g, 5, seat, _move(g), None, 1.0) for g, seat in puts))
    assert results == [True] * len(puts)
    stored = _stored(tmp_path / "w.db")
    assert set(stored) == set(puts)
    assert stored[(3, "p2")] == _move(3)
    # 60 rows: the first caller writes its own at once, the rest queue behind it and share statements.
    assert writer.batches < len(puts) // 4
    assert db.commits - commits == writer.batches


async def test_a_replaced_row_keeps_one_row_per_seat(db: Database, tmp_path: Path) -> None:
    writer = SubmissionWriter(db)
    assert await writer.put_if_open(1, 5, "p1", _move(1), None, 1.0)
    assert await writer.put_if_open(1, 5, "p1", _move(99), None, 2.0)
    assert _stored(tmp_path / "w.db") == {(1, "p1"): _move(99)}


async def test_each_row_keeps_its_own_decision_guard(db: Database, tmp_path: Path) -> None:
    writer = SubmissionWriter(db)
    async with db.transaction() as conn:  # game 2 resolved meanwhile: a new decision
        await conn.execute("UPDATE games SET step = 6 WHERE id = 2")
        await conn.execute("UPDATE games SET status = 'ended' WHERE id = 3")
    results = await asyncio.gather(
        writer.put_if_open(1, 5, "p1", _move(1), None, 1.0),
        writer.put_if_open(2, 5, "p1", _move(2), None, 1.0),  # checked against decision 5: refused
        writer.put_if_open(3, 5, "p1", _move(3), None, 1.0),  # the game ended: refused
        writer.put_if_open(4, 5, "p1", _move(4), None, 1.0),
        writer.put_if_open(99, 5, "p1", _move(5), None, 1.0),  # no such game: refused
    )
    assert results == [True, False, False, True, False]
    assert set(_stored(tmp_path / "w.db")) == {(1, "p1"), (4, "p1")}


async def test_a_bad_row_fails_alone(db: Database, tmp_path: Path) -> None:
    writer = SubmissionWriter(db)
    bad = None  # seat is NOT NULL
    results = await asyncio.gather(
        *(writer.put_if_open(g, 5, "p1", _move(g), None, 1.0) for g in range(1, 5)),
        writer.put_if_open(5, 5, bad, _move(5), None, 1.0),  # type: ignore[arg-type]
        *(writer.put_if_open(g, 5, "p1", _move(g), None, 1.0) for g in range(6, 10)),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["bool"] * 4 + ["Conflict"] + ["bool"] * 4
    assert all(r is True for i, r in enumerate(results) if i != 4)
    assert set(_stored(tmp_path / "w.db")) == {(g, "p1") for g in range(1, 10) if g != 5}


async def test_an_open_group_commit_is_committed_first(db: Database, tmp_path: Path) -> None:
    """A transaction still waiting for its batch's COMMIT when a lone write takes the writer: the lone
    write commits the batch first and runs outside it (its own autocommit transaction)."""
    writer = SubmissionWriter(db)
    started = asyncio.Event()

    async def meta(i: int) -> None:
        async with db.transaction() as conn:
            started.set()
            await conn.execute("INSERT INTO meta(key, value) VALUES (?, 'v')", (f"m{i}",))

    results = await asyncio.gather(meta(1), meta(2), writer.put_if_open(1, 5, "p1", _move(1), None, 1.0), meta(3))
    assert results[2] is True
    assert not db.conn.in_transaction
    other = sqlite3.connect(tmp_path / "w.db")
    try:
        assert other.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'm%'").fetchone()[0] == 3
    finally:
        other.close()
    assert (1, "p1") in _stored(tmp_path / "w.db")


async def test_a_cancelled_caller_still_settles_its_row(db: Database, tmp_path: Path) -> None:
    """Cancelling a caller does not abandon its row half-way: the write completes (or fails) first,
    so the caller's game lock is never released with a write still in flight."""
    writer = SubmissionWriter(db)
    task = asyncio.create_task(writer.put_if_open(1, 5, "p1", _move(1), None, 1.0))
    await asyncio.sleep(0)  # the write is under way
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (1, "p1") in _stored(tmp_path / "w.db")
    assert await writer.put_if_open(2, 5, "p1", _move(2), None, 1.0)  # the writer is not left stuck


async def test_a_cancelled_follower_waits_for_its_batch(db: Database, tmp_path: Path) -> None:
    """A caller whose row waits behind another batch, cancelled meanwhile, returns only once its own
    batch is over (here: written), never with its write still queued."""
    writer = SubmissionWriter(db)
    leader = asyncio.create_task(writer.put_if_open(1, 5, "p1", _move(1), None, 1.0))
    await asyncio.sleep(0)  # the leader's row is on the writer's thread
    follower = asyncio.create_task(writer.put_if_open(2, 5, "p1", _move(2), None, 1.0))
    await asyncio.sleep(0)  # queued for the next batch
    follower.cancel()
    with pytest.raises(asyncio.CancelledError):
        await follower
    assert (2, "p1") in _stored(tmp_path / "w.db")
    assert await leader
