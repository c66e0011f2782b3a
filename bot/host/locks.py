"""One lock per game: a game's commands, resolutions and timers run one at a time; games run in parallel.

Whoever takes a game's lock with `acquire` makes the submission path forget what it remembered of
that game (it may be about to change); the submission path itself takes it with `acquire_keeping`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal


class GameLock(asyncio.Lock):
    def __init__(self, forget: Callable[[], None]) -> None:
        super().__init__()
        self._forget = forget

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        self._forget()
        return True

    async def acquire_keeping(self) -> None:
        await super().acquire()


class Locks:
    def __init__(self) -> None:
        self._locks: dict[int, GameLock] = {}
        self._forgetters: list[Callable[[int], None]] = []

    def on_forget(self, forget: Callable[[int], None]) -> None:
        self._forgetters.append(forget)

    def __call__(self, game_id: int) -> GameLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(lambda: self._forget(game_id))
        return lock

    def _forget(self, game_id: int) -> None:
        for forget in self._forgetters:
            forget(game_id)
