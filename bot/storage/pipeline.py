"""The writer's connection inside a SQLite transaction, sending writes nobody waits on together.

Each statement sent to aiosqlite is a round trip: queued for the writer's thread, run there, handed back
to the event loop, which under load means waiting for a turn of a busy loop. A step wrote a dozen
statements one round trip each. Here the transaction's opening statement and the writes made with
`sql.later` are queued, and go to the writer's thread in ONE call: with the next statement whose answer
the caller needs (a read, an insert's id), or when the transaction's body is over. They run in order, so
the transaction sees what it wrote; a `must_change` write that changes no row raises `Moved` there, and
the transaction rolls back as for any failure.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from .errors import Conflict, Moved

# (sql, params, must_change)
Queued = tuple[str, tuple[Any, ...], bool]


def _run_queued(conn: sqlite3.Connection, queued: list[Queued]) -> None:
    for sql, params, must_change in queued:
        cursor = conn.execute(sql, params)
        if must_change and cursor.rowcount == 0:
            raise Moved(f"a compare-and-set found its row changed: {sql.split(' WHERE')[0]}")


def _then_fetchall(conn: sqlite3.Connection, queued: list[Queued], sql: str, params: tuple[Any, ...]) -> list[Any]:
    _run_queued(conn, queued)
    return conn.execute(sql, params).fetchall()


def _then_execute(conn: sqlite3.Connection, queued: list[Queued], sql: str, params: tuple[Any, ...]) -> Any:
    _run_queued(conn, queued)
    return conn.execute(sql, params)


def _then_executemany(conn: sqlite3.Connection, queued: list[Queued], sql: str, params: list[tuple[Any, ...]]) -> Any:
    _run_queued(conn, queued)
    return conn.executemany(sql, params)


def _then_commit(conn: sqlite3.Connection, queued: list[Queued]) -> BaseException | None:
    """The body's last writes, then COMMIT. A write that fails raises (nothing is committed, the caller rolls
    back); a COMMIT that fails is returned, having rolled back (the batch failed as a whole)."""
    _run_queued(conn, queued)
    try:
        conn.execute("COMMIT")
    except Exception as exc:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        return exc
    return None


class Pipelined:
    """An aiosqlite connection whose `later` writes (and opening statement) wait for the next round trip."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, opening: str) -> None:
        self._conn = conn
        self._queued: list[Queued] = [(opening, (), False)]
        self.opened = False  # the opening statement (BEGIN or SAVEPOINT) has been sent

    def later(self, sql: str, params: tuple[Any, ...], must_change: bool) -> None:
        self._queued.append((sql, params, must_change))

    def _take(self) -> list[Queued]:
        queued, self._queued = self._queued, []
        if queued:
            self.opened = True  # sent now: if it fails, the caller's rollback finds no transaction or its own
        return queued

    async def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return await self._conn._execute(fn, self._conn._conn, self._take(), *args)  # type: ignore[no-untyped-call]
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def flush(self) -> None:
        """Send what is queued (at the end of the transaction's body)."""
        if self._queued:
            await self._call(_run_queued)

    async def commit(self) -> BaseException | None:
        """Send what is queued and COMMIT, in one round trip: for the batch's only member (see `_then_commit`)."""
        return await self._call(_then_commit)  # type: ignore[no-any-return]

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await self._call(_then_fetchall, sql, tuple(params)))

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Cursor:
        return aiosqlite.Cursor(self._conn, await self._call(_then_execute, sql, tuple(params)))

    async def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> aiosqlite.Cursor:
        rows = [tuple(p) for p in params]
        return aiosqlite.Cursor(self._conn, await self._call(_then_executemany, sql, rows))

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction
