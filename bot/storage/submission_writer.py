"""Collected submissions written in batches: every row that arrives while one batch is being written goes
into the next one, as ONE multi-row statement (one round trip to the writer's thread, one fsync).

Why: a player is told "recorded" only once the row is on disk. Written one by one inside
BEGIN/COMMIT, each submission held the writer for three round trips; with the event loop busy, each
round trip waits for a whole turn of the loop, so a game-night peak queued players behind each other
(act p50 30 ms with 16 players in flight, see docs/performance.md). Here a batch costs one round trip
whatever its size, and nobody waits for a round trip of anyone else's.

Every row stays guarded: it is written only if its game is still running at the decision (`step`)
it was checked against. The statement's count of written rows says whether all were; if not
(a decision resolved meanwhile: rare), the batch's rows are written again one by one, each with its own
count. If the batch's statement fails, nothing of it is written (SQLite undoes a statement as a whole)
and its rows are retried one by one, so one bad row cannot fail the others.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..aio import finish as _finish
from .db import Database
from .pg import PgDatabase
from .submissions import guarded_upsert_sql, guarded_values

log = logging.getLogger(__name__)

# (the row's values with its step, its outcome, set once its batch is over whatever the outcome)
_Item = tuple[tuple[Any, ...], "asyncio.Future[bool]", "asyncio.Future[None]"]


class SubmissionWriter:
    """`put_if_open` for any number of concurrent callers; one task writes what they queue."""

    MAX_ROWS = 128  # 6 parameters a row, far below SQLite's limit; bigger batches gain nothing

    def __init__(self, db: Database | PgDatabase) -> None:
        self._db = db
        self._queue: list[_Item] = []
        self._task: asyncio.Task[None] | None = None  # drains what queued up while a batch was written
        self._writing = False  # a batch is being written (by a caller, or by the task)
        self.batches = 0  # statements issued, for tests and benches

    async def put_if_open(
        self, game_id: int, step: int, seat: str, move: dict[str, Any], user_id: int | None, now: float
    ) -> bool:
        """Write (insert or replace) `seat`'s move only if the game is still running at decision `step`.
        True once it is on disk; False if the decision moved on (nothing written).
        A cancelled caller still waits until its row's batch is over, so it never lets go of the game's
        lock with its write in flight."""
        if self._db.dialect == "postgres":
            # No batching: it saves SQLite's fsyncs; on PostgreSQL the caller's game lock holds a connection
            # of its own (bot/storage/pg.py), and a batch written by another task could wait for a free one.
            values = guarded_values(game_id, step, seat, move, user_id, now)
            return await self._db.write_alone(guarded_upsert_sql(1, "postgres"), values) > 0
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[bool] = loop.create_future()
        settled: asyncio.Future[None] = loop.create_future()
        self._queue.append((guarded_values(game_id, step, seat, move, user_id, now), fut, settled))
        try:
            if not self._writing:
                # Nobody is writing: write this batch here, without a task switch. Whatever arrives
                # meanwhile is left to a task, so this caller is answered once its own row is on disk.
                self._writing = True
                try:
                    await self._write_next()
                finally:
                    if self._queue:  # stays "writing": the task takes over
                        self._task = asyncio.ensure_future(self._drain())
                    else:
                        self._writing = False
            # Awaited directly (no shield): a shield would cost every caller one more turn of the loop.
            return await fut
        except asyncio.CancelledError:
            await _finish(settled)
            raise

    async def _write_next(self) -> None:
        batch, self._queue = self._queue[: self.MAX_ROWS], self._queue[self.MAX_ROWS :]
        try:
            await self._write(batch)
        except BaseException as exc:  # cancelled: nobody in this batch may wait forever
            _fail(batch, exc)
            raise
        finally:
            _over(batch)

    async def _drain(self) -> None:
        try:
            while self._queue:
                await self._write_next()
        except BaseException as exc:
            pending, self._queue = self._queue, []
            _fail(pending, exc)
            _over(pending)
            raise
        finally:
            self._writing = False

    async def _write(self, batch: list[_Item]) -> None:
        params = [value for values, _, _ in batch for value in values]
        try:
            written = await self._db.write_alone(guarded_upsert_sql(len(batch), self._db.dialect), params)
        except Exception as exc:
            if len(batch) > 1:
                log.warning("a batch of %d submissions failed (%s); writing them one by one", len(batch), exc)
                for item in batch:
                    await self._write([item])
                return
            _fail(batch, exc)
            return
        self.batches += 1
        if len(batch) > 1 and written < len(batch):
            # Some row's guard refused it (its round resolved meanwhile): find out which, one row at a
            # time. Rewriting a row that was written writes the same values again.
            for item in batch:
                await self._write([item])
            return
        for _, fut, _ in batch:
            if not fut.done():
                fut.set_result(written > 0)


def _fail(items: list[_Item], exc: BaseException) -> None:
    error = exc if isinstance(exc, Exception) else RuntimeError("the database is closing")
    for _, fut, _ in items:
        if not fut.done():
            fut.set_exception(error)


def _over(items: list[_Item]) -> None:
    """These rows' batch is over (written, refused or failed): a cancelled caller may now go."""
    for _, _, settled in items:
        if not settled.done():
            settled.set_result(None)
