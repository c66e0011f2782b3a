"""The few ways repositories talk to a connection, so their SQL is written once.

Every repository function takes the connection of the caller's transaction (or read) and uses only
these helpers, with `?` placeholders and SQL that SQLite and PostgreSQL both accept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

Row = Any  # sqlite3.Row (a mapping by column name and a sequence)


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
    cursor = await conn.execute(sql, tuple(params))
    return int(cursor.rowcount)


async def insert(conn: Any, sql: str, params: Iterable[Any] = ()) -> int:
    """One INSERT; the new row's id."""
    cursor = await conn.execute(sql, tuple(params))
    return int(cursor.lastrowid)


async def run_many(conn: Any, sql: str, params: Sequence[Sequence[Any]]) -> None:
    if params:
        await conn.executemany(sql, [tuple(p) for p in params])


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def marks(n: int) -> str:
    return ", ".join("?" * n)
