"""Board pictures drawn in worker processes, away from the event loop's process.

Drawing a board is 15-30 ms of Pillow work, most of it holding the GIL; on a thread of the bot's own
process it stalls the event loop's thread (and every interaction waiting on it) for that long, once per
post with a picture. A pool of spawned processes draws them instead; the bytes are the same (a picture
is a pure function of the game's public view). The workers run at a lower priority than the bot (`NICE`):
on a machine of few cores, the answer to a move comes before the picture of the one before.

The pool is one per bot process and shared by every client in it, started on first use (`warm` starts it
ahead). A worker that dies (killed, out of memory) breaks the pool: the picture is drawn on a thread
instead, and the next one starts a new pool.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

# (game kind, public view) -> PNG, or None when the game draws no picture. Must be a module-level function:
# the worker processes import it by name.
Draw = Callable[[str, dict[str, Any]], "bytes | None"]
# Run once in each worker with the painter's `content`, before it draws (module-level, like `Draw`).
Prepare = Callable[[Any], object]

WATCH_SECONDS = 0.5  # how often a worker looks whether the bot's process is still there
NICE = 10  # a worker's priority below the bot's: a picture may wait, the answer to a move should not

_pools: dict[tuple[int, Prepare | None, Any], ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()


def _ready() -> bool:
    return True


def _follow(parent: int, nice: int = NICE, prepare: Prepare | None = None, content: Any = None) -> None:
    """In a worker: run below the bot's priority, and exit as soon as the bot's process is gone. A killed
    bot (SIGKILL, out of memory) runs no clean-up, and its workers would otherwise live on, each holding
    its own copy of the games."""
    try:
        os.nice(nice)
    except OSError:  # not allowed here: the worker runs at the bot's priority
        log.info("board picture worker could not lower its priority")

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="picture-worker-parent", daemon=True).start()
    if prepare is not None:
        prepare(content)


def _pool(processes: int, prepare: Prepare | None = None, content: Any = None) -> ProcessPoolExecutor:
    key = (processes, prepare, content)
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            # spawn, not fork: the bot's process has threads (SQLite's, the loop's), which fork would copy
            # in whatever state they were in.
            pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_follow,
                initargs=(os.getpid(), NICE, prepare, content),
            )
            _pools[key] = pool
        return pool


def _discard(key: tuple[int, Prepare | None, Any], pool: ProcessPoolExecutor) -> None:
    with _pools_lock:
        if _pools.get(key) is pool:
            del _pools[key]
    pool.shutdown(wait=False, cancel_futures=True)


@atexit.register
def _shutdown() -> None:
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)


def worker_pids() -> list[int]:
    """The running picture workers' process ids (for benches: their CPU time is not the bot process's own)."""
    with _pools_lock:
        pools = list(_pools.values())
    return [pid for pool in pools for pid in list(getattr(pool, "_processes", None) or {})]


class Painter:
    """`await painter.draw(kind, view)`: the picture, drawn by `draw` in one of `processes` worker processes.
    Each worker first runs `prepare(content)` (the bot: the games on the content it plays); painters of the same
    three share a pool."""

    def __init__(self, draw: Draw, processes: int = 1, *, prepare: Prepare | None = None, content: Any = None) -> None:
        if processes < 1:
            raise ValueError("a painter needs at least one process")
        self._draw = draw
        self.processes = processes
        self._key = (processes, prepare, content)
        self.drawn = 0  # pictures the workers drew, for tests and benches

    def warm(self) -> None:
        """Start the workers now (they import the games once), so the first picture does not wait for it."""
        try:
            _pool(*self._key).submit(_ready)
        except Exception:  # e.g. a daemonic process may not start any: each picture then falls back
            log.warning("board picture workers did not start; pictures are drawn in this process", exc_info=True)

    async def draw(self, kind: str, view: dict[str, Any]) -> bytes | None:
        """The picture, or an exception when no worker could draw it (the caller draws it itself)."""
        pool = _pool(*self._key)
        try:
            future: Future[bytes | None] = pool.submit(self._draw, kind, view)
            png = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            _discard(self._key, pool)  # the next picture starts a new pool
            raise
        self.drawn += 1
        return png
