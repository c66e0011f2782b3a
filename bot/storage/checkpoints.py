"""WAL checkpoints off the commit path.

By default SQLite checkpoints inside the COMMIT that takes the write-ahead log past 1,000 pages: that
commit copies the log into the database file and fsyncs it, 10-25 ms, and the player whose move it was
waits for it (a step writes a few pages, so one move in a hundred or so). Here the
writer never checkpoints (`PRAGMA wal_autocheckpoint=0`); a connection of its own, on its own thread,
runs a PASSIVE checkpoint (which never blocks the writer or a reader) every `every` seconds in which
something was committed. The log is as durable either way: a committed transaction is in it, fsynced.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import aiosqlite

log = logging.getLogger(__name__)

EVERY = 0.5  # seconds between checkpoints while something is being committed


class Checkpointer:
    def __init__(self, connect: Callable[[], Awaitable[aiosqlite.Connection]], commits: Callable[[], int]) -> None:
        self._connect = connect
        self._commits = commits  # how many COMMITs the writer has made
        self._conn: aiosqlite.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self.runs = 0  # checkpoints run, for tests and benches

    async def start(self, every: float = EVERY) -> None:
        self._conn = await self._connect()
        await self._conn.execute("PRAGMA busy_timeout=5000")
        self._task = asyncio.create_task(self._loop(every), name="sqlite-checkpoints")

    async def stop(self) -> None:
        """After the last commit: one more checkpoint, then the connection is closed."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await self.checkpoint(conn)
            finally:
                await conn.close()

    async def checkpoint(self, conn: aiosqlite.Connection | None = None) -> None:
        conn = conn or self._conn
        if conn is None:
            return
        await conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        self.runs += 1

    async def _loop(self, every: float) -> None:
        seen = self._commits()
        while True:
            await asyncio.sleep(every)
            now = self._commits()
            if now == seen:
                continue
            seen = now
            try:
                await self.checkpoint()
            except Exception:  # e.g. the disk is full: the log keeps growing and the next one tries again
                log.warning("WAL checkpoint failed; retrying later", exc_info=True)
