"""The few ways repositories talk to a connection, so their SQL is written once.

Every repository function takes the connection of the caller's transaction (or read) and uses only
these helpers, with `?` placeholders and SQL that SQLite and PostgreSQL both accept (a PostgreSQL
connection, bot/storage/pg.py `PgConn`, numbers the placeholders itself). Where the two differ, the
SQL asks `dialect(conn)`. A broken uniqueness or foreign-key rule raises `Conflict` on both.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from .errors import Conflict, Moved

Row = Any  # sqlite3.Row or asyncpg.Record: a mapping by column name and a sequence


def dialect(conn: Any) -> str:
    """"sqlite" or "postgres": which SQL the connection speaks."""
    return str(getattr(conn, "dialect", "sqlite"))


async def rows(conn: Any, sql: str, params: Iterable[Any] = ()) -> list[Row]:
    """Every row of one statement, in one round trip."""
    return list(await conn.execute_fetchall(sql, tuple(params)))


async def row(conn: Any, sql: str, params: Iterable[Any] = ()) -> Row | None:
    """The first row of a single-row statement (a key, LIMIT 1, an aggregate)."""
    for found in await conn.execute_fetchall(sql, tuple(params)):
        return found
    return None


async def run(conn: Any, sql: str, params: Iterable[Any] = ()) -> int:
    """One write statement; how many rows it changed."""
    try:
        cursor = await conn.execute(sql, tuple(params))
    except sqlite3.IntegrityError as exc:
        raise Conflict(str(exc)) from exc
    return int(cursor.rowcount)


async def later(conn: Any, sql: str, params: Iterable[Any] = (), *, must_change: bool = False) -> None:
    """A write whose outcome the caller does not need now. In a SQLite transaction it is queued and sent
    with the next statement that needs an answer, or when the transaction's body is over (bot/storage/
    pipeline.py); elsewhere it runs at once. `must_change`: raise `Moved` if it changes no row (then, or
    from the transaction when it is sent), so the transaction writes nothing."""
    queue = getattr(conn, "later", None)
    if queue is not None:
        queue(sql, tuple(params), must_change)
        return
    if await run(conn, sql, params) == 0 and must_change:
        raise Moved(f"a compare-and-set found its row changed: {sql.split(' WHERE')[0]}")


async def insert(conn: Any, sql: str, params: Iterable[Any] = ()) -> int:
    """One INSERT; the new row's id."""
    if dialect(conn) == "postgres":
        return int(await conn.insert(sql, tuple(params)))
    try:
        cursor = await conn.execute(sql, tuple(params))
    except sqlite3.IntegrityError as exc:
        raise Conflict(str(exc)) from exc
    return int(cursor.lastrowid)


async def run_many(conn: Any, sql: str, params: Sequence[Sequence[Any]]) -> None:
    if params:
        try:
            await conn.executemany(sql, [tuple(p) for p in params])
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc


_ORJSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys. orjson is several times faster than json on a game's state; what it
    does not take (an integer past 64 bits) goes through json, which writes the same text."""
    try:
        return orjson.dumps(value, option=_ORJSON).decode()
    except TypeError:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes | None) -> Any:
    return None if text is None else orjson.loads(text)


def marks(n: int) -> str:
    return ", ".join("?" * n)
