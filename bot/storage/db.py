"""The one SQLite connection: WAL, synchronous=FULL, numbered migrations, serialized transactions.

All access goes through one aiosqlite connection guarded by one asyncio lock, so a transaction
never sees another coroutine's half-written rows and there is exactly one writer.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) for every bot/migrations/NNN_name.sql, in version order."""
    found = []
    for entry in resources.files("bot.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {versions}")
    return found


class Database:
    """Owns the connection. Use `transaction()` for writes and `fetchone/fetchall` for reads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def open(self) -> None:
        if self._conn is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so a transaction is explicit.
        self._conn = await aiosqlite.connect(self.path, isolation_level=None)
        self._conn.row_factory = aiosqlite.Row
        await self._conn.execute("PRAGMA journal_mode=WAL")
        await self._conn.execute("PRAGMA synchronous=FULL")
        await self._conn.execute("PRAGMA foreign_keys=ON")
        await self._conn.execute("PRAGMA busy_timeout=5000")
        await self.migrate()

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            async with self._lock:
                await conn.close()

    async def migrate(self) -> int:
        """Apply every migration newer than PRAGMA user_version, each in its own transaction."""
        async with self._lock:
            row = await (await self.conn.execute("PRAGMA user_version")).fetchone()
            current = row[0]
            for version, name, sql in migration_files():
                if version <= current:
                    continue
                log.info("applying migration %s", name)
                # executescript commits implicitly; wrap the script so it applies atomically.
                await self.conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version={version};\nCOMMIT;")
                current = version
            return current

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK on any exception)."""
        async with self._lock:
            conn = self.conn
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
            else:
                await conn.execute("COMMIT")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for a few reads, with no other coroutine's transaction in between."""
        async with self._lock:
            yield self.conn

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._lock:
            return await (await self.conn.execute(sql, tuple(params))).fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            return list(await (await self.conn.execute(sql, tuple(params))).fetchall())

    async def get_meta(self, key: str) -> str | None:
        row = await self.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row["value"]

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
