"""One lock per game: a game's commands, resolutions and timers run one at a time; games run in parallel.

Whoever takes a game's lock with `acquire` makes the submission path forget what it remembered of
that game (it may be about to change); the submission path itself takes it with `acquire_keeping`.

On a database shared by several processes (PostgreSQL), the lock is also the database's: after the
in-process lock, `lock_game` waits for the game's advisory lock, held on a connection that this
task's statements then use (bot/storage/pg.py), so the rule "every write to a game's rows holds its
lock" holds across processes too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import TracebackType
from typing import Any, Literal


class GameLock(asyncio.Lock):
    def __init__(self, forget: Callable[[], None], game_id: int = 0, db: Any = None) -> None:
        super().__init__()
        self._forget = forget
        self._game_id = game_id
        self._db = db if getattr(db, "shared", False) else None
        self._held: Any = None  # the database's lock (its connection), while held

    async def acquire(self) -> Literal[True]:
        await self._both()
        self._forget()
        return True

    async def acquire_keeping(self) -> None:
        await self._both()

    async def _both(self) -> None:
        await super().acquire()
        if self._db is None:
            return
        try:
            self._held = await self._db.lock_game(self._game_id)
        except BaseException:
            super().release()
            raise

    def release(self) -> None:
        held, self._held = self._held, None
        if held is not None and self._db is not None:
            self._db.unlock_game(held)
        super().release()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


class Locks:
    def __init__(self, db: Any = None) -> None:
        self._db = db
        self._locks: dict[int, GameLock] = {}
        self._forgetters: list[Callable[[int], None]] = []

    def on_forget(self, forget: Callable[[int], None]) -> None:
        self._forgetters.append(forget)

    def __call__(self, game_id: int) -> GameLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(lambda: self._forget(game_id), game_id, self._db)
        return lock

    def _forget(self, game_id: int) -> None:
        for forget in self._forgetters:
            forget(game_id)
