"""When the garbage collector runs: small young collections between interactions, the whole heap rarely.

Left to itself, CPython collects wherever an allocation count runs out, so a collection lands inside
whichever move is being answered. At 500 games a young collection walked about 20,000 objects (5–22 ms)
and an older one 60,000–90,000 (44–76 ms): the slowest answers were those (docs/performance.md, fifth
pass). While the bot runs, automatic collection is off. A tick collects the young generation once it
holds `young` new objects, then freezes the survivors, so that no later collection walks them again.
The whole heap, frozen part included, is collected once no interaction has come for `quiet` seconds
and `every` seconds have passed since the last, or after `at_most` seconds in any case: cycles among
objects that were alive at a young collection wait for that.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

YOUNG = 1_000  # net new container objects between young collections (CPython's own threshold: 700)
TICK = 0.005  # seconds between looks at the count
QUIET = 0.5  # seconds without an interaction before the whole heap is collected
EVERY = 60.0  # seconds between whole-heap collections, at a quiet moment
AT_MOST = 600.0  # seconds between whole-heap collections, quiet or not

_running = 0  # collectors started in this process (tests run several bots in one)


class Collector:
    def __init__(
        self,
        young: int = YOUNG,
        tick: float = TICK,
        quiet: float = QUIET,
        every: float = EVERY,
        at_most: float = AT_MOST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.young, self.tick, self.quiet, self.every, self.at_most = young, tick, quiet, every, at_most
        self.clock = clock
        self.last_interaction = clock()
        self.last_whole = clock()
        self.young_runs = 0
        self.whole_runs = 0
        self._task: asyncio.Task[None] | None = None

    def touch(self) -> None:
        """An interaction arrived: the moment is not quiet."""
        self.last_interaction = self.clock()

    def start(self) -> None:
        """Collect and freeze what start-up loaded, then take over from the automatic collector."""
        global _running
        if self._task is not None:
            return
        gc.collect()
        gc.freeze()
        gc.disable()
        _running += 1
        self.last_whole = self.clock()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="collector")

    async def stop(self) -> None:
        """Give collection back to CPython, the frozen objects included."""
        global _running
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        _running -= 1
        if _running == 0:
            gc.unfreeze()
            gc.enable()

    def step(self) -> None:
        """One look: a young collection if due, the whole heap if due. The tick calls it."""
        now = self.clock()
        since = now - self.last_whole
        if since >= self.at_most or (since >= self.every and now - self.last_interaction >= self.quiet):
            self.collect_whole()
        elif gc.get_count()[0] >= self.young:
            gc.collect(0)
            gc.freeze()
            self.young_runs += 1

    def collect_whole(self) -> None:
        """The whole heap, frozen part included; what survives is frozen again."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.last_whole = self.clock()
        self.whole_runs += 1

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            try:
                self.step()
            except Exception:  # a finaliser that raises must not end the collections
                log.exception("a garbage collection failed")
