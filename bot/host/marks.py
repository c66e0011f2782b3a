"""Delivery marks written in groups: a sent row's mark waits up to `Marks.EVERY` seconds to share one
transaction with the others sent meanwhile.

Each mark was a write of its own, with its fsync, on the one writer that every step needs too: three or
four per move, and a move's COMMIT waited behind them. A row sent and not yet marked is sent again only
after a crash, which the outbox's nonces and keyed posts already make harmless (as a crash between a send
and its mark always could). Meanwhile this process knows the row is sent (`Delivery._settled`) and, for a
keyed post, which message it went out as (`posted`). Only for a database of one process: on a shared one
another process may take the target over as soon as its lock is free, and must find the marks there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..aio import finish
from ..storage import Storage
from ..storage import outbox as outbox_repo

log = logging.getLogger(__name__)

Posted = tuple[int, int, str, int, str]  # game, channel, key, the message it went out as, what it shows


@dataclass(frozen=True, slots=True)
class Mark:
    """Rows of one target settled together (sent, or given up on: `note`), at `at`."""

    target: tuple[Any, ...]
    ids: tuple[int, ...]
    at: float
    note: str | None = None
    posted: Posted | None = None


class Marks:
    EVERY = 0.02  # seconds

    def __init__(self, db: Storage, lost: Callable[[Mark], None], written: Callable[[Mark], None]) -> None:
        self.db = db
        self.lost = lost  # told of each mark whose transaction failed (its rows are then due again)
        self.written = written  # told of each mark once it is on disk
        self._pending: list[Mark] = []
        self._task: asyncio.Task[None] | None = None
        self._posted: dict[tuple[int, int, str], tuple[int, str]] = {}

    @property
    def pending(self) -> bool:
        return bool(self._pending) or (self._task is not None and not self._task.done())

    def add(self, mark: Mark) -> None:
        self._pending.append(mark)
        if mark.posted is not None:
            game_id, channel_id, key, message_id, content = mark.posted
            self._posted[(game_id, channel_id, key)] = (message_id, content)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._later(), name="outbox-marks")

    def posted(self, game_id: int, channel_id: int, key: str) -> tuple[int, str] | None:
        """A keyed post sent by this process whose record is not written yet (None: read the database)."""
        return self._posted.get((game_id, channel_id, key))

    async def _later(self) -> None:
        await asyncio.sleep(self.EVERY)
        await self.write()

    async def write(self) -> None:
        """Write every pending mark now, in one transaction."""
        while self._pending:
            marks, self._pending = self._pending, []
            try:
                async with self.db.transaction() as conn:
                    for mark in marks:
                        if mark.posted is not None:
                            await outbox_repo.record_posted(conn, *mark.posted)
                        for row_id in mark.ids:
                            await outbox_repo.mark_delivered(conn, row_id, mark.at, mark.note)
            except asyncio.CancelledError:
                self._pending[:0] = marks
                raise
            except Exception:
                log.exception("outbox: %s delivery marks not written; their rows will be sent again", len(marks))
                for mark in marks:
                    self.lost(mark)
            else:
                for mark in marks:
                    self.written(mark)
            for mark in marks:
                if mark.posted is not None:
                    game_id, channel_id, key, message_id, content = mark.posted
                    if self._posted.get((game_id, channel_id, key)) == (message_id, content):
                        del self._posted[(game_id, channel_id, key)]  # the database has it (or, lost, nobody)

    async def stop(self) -> None:
        """Cancel the wait, then write what is pending (before the database closes)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await finish(self.write())
