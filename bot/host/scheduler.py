"""One dispatcher for every persisted timer (deadlines, reminders) of every game.

It sleeps until the earliest due timer, or until `wake()` says an earlier one was added. A timer
whose handler fails is logged and retried later with back-off; it never stops the loop or other
games' timers. Timers live in the database, so a deadline that passed while the bot was down fires
once on start-up (the handler's compare-and-set makes a second firing a no-op).

On a database shared by several processes, each due timer is claimed first (`claim_due`: FOR UPDATE
SKIP LOCKED and a lease), so exactly one process fires it; other processes' new timers wake this one
through NOTIFY (bot/storage/pg.py), and a slow poll (`SHARED_POLL`) covers a lost notification.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable

from ..aio import wait_event
from ..storage import Storage
from ..storage import timers as timers_repo
from ..storage.models import TimerRow
from ..storage.sql import row, rows

log = logging.getLogger(__name__)

Handler = Callable[[TimerRow], Awaitable[None]]
MAX_SLEEP = 300.0
SHARED_POLL = 5.0  # seconds: the longest a shared database's dispatcher sleeps without a NOTIFY
MAX_BACKOFF = 600.0


class Scheduler:
    def __init__(self, db: Storage, handler: Handler, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.handler = handler
        self.clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: dict[int, asyncio.Task[None]] = {}
        self._shared = bool(getattr(db, "shared", False))
        self.name = f"{os.getpid()}-{secrets.token_hex(3)}"  # who claims timers, on a shared database
        self.fired = 0  # handler calls, for tests and benches

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="timer-dispatcher")

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        self._running.clear()

    @property
    def busy(self) -> bool:
        return bool(self._running)

    async def due_count(self) -> int:
        """Timers due now that are not running yet (for tests and health checks)."""
        async with self.db.read() as conn:
            due = await timers_repo.due_timers(conn, self.clock())
        return len([t for t in due if t.id not in self._running])

    async def _loop(self) -> None:
        while True:
            # Clear before looking: a wake() that arrives while we read the timers is kept, not lost.
            self._wake.clear()
            try:
                timeout = await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer dispatcher hiccup; retrying")
                timeout = 1.0
            if timeout > 0:
                await wait_event(self._wake, timeout)

    async def _tick(self) -> float:
        """Start every due timer; return how long to sleep until the next one."""
        if not self.db.is_open:
            return 1.0
        now = self.clock()
        if self._shared:
            return await self._tick_shared(now)
        limit = len(self._running) + 50
        # Woken after every commit: in the common case nothing is due, and this reads no timer row at all.
        async with self.db.read() as conn:
            due = await rows(conn, "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?", (now, limit))
            upcoming = await row(conn, "SELECT MIN(due_at) FROM timers WHERE due_at > ?", (now,))
        waiting = [TimerRow.from_row(r) for r in due if r["id"] not in self._running]
        for timer in waiting:
            self._running[timer.id] = asyncio.create_task(self._fire(timer), name=f"timer-{timer.id}")
        if len(due) >= limit:
            return 0.05  # maybe more are due
        if upcoming is None or upcoming[0] is None:
            return MAX_SLEEP if not waiting else 0.05
        return min(MAX_SLEEP, float(upcoming[0]) - now)

    async def _tick_shared(self, now: float) -> float:
        limit = 50
        async with self.db.transaction() as conn:
            claimed = await timers_repo.claim_due(conn, now, limit, self.name)
        async with self.db.reader() as conn:
            upcoming = await timers_repo.next_wake(conn, now)
        for timer in claimed:
            if timer.id not in self._running:
                self._running[timer.id] = asyncio.create_task(self._fire(timer), name=f"timer-{timer.id}")
        if len(claimed) >= limit:
            return 0.05
        return max(0.01, min(SHARED_POLL, (upcoming - now) if upcoming is not None else SHARED_POLL))

    async def _fire(self, timer: TimerRow) -> None:
        try:
            self.fired += 1
            await self.handler(timer)
        except asyncio.CancelledError:
            raise
        except Exception:
            delay = min(MAX_BACKOFF, 2.0 ** min(timer.attempts + 1, 10))
            log.exception(
                "timer %s (game %s, %s) failed; retrying in %.0fs", timer.id, timer.game_id, timer.kind, delay
            )
            try:
                async with self.db.transaction() as conn:
                    await timers_repo.postpone_fired(conn, timer, self.clock() + delay)
            except Exception:
                log.exception("could not postpone timer %s", timer.id)
        else:
            async with self.db.transaction() as conn:
                await timers_repo.delete_fired(conn, timer)
        finally:
            self._running.pop(timer.id, None)
            self.wake()
