"""The PostgreSQL storage, on asyncpg: any number of bot processes share one database.

The same surface as the SQLite `Database` (`transaction()`, `read()`, `reader()`, `fetchone`,
`fetchall`, `write_alone`, meta), over a pool of connections. What makes several processes safe:

- **game locks**: `lock_game(id)` takes a session advisory lock (`pg_advisory_lock(1, id)`) on a
  connection of its own and keeps that connection for the lock holder's task: its transactions and
  reads run on it. So a game's reads-then-writes exclude those of every other process exactly as the
  in-process lock excludes other tasks (bot/host/locks.py). A killed process's connection closes and
  the server drops its locks with it.
- **claims**: due timers are claimed with `FOR UPDATE SKIP LOCKED` and a lease (bot/storage/timers.py);
  an outbox target is sent by the one process holding `try_lock` on it (bot/host/delivery.py).
- **NOTIFY**: a transaction that queued outbox rows or timers notifies `bot_wake` at its commit; each
  process LISTENs on a connection of its own and wakes its timer dispatcher and outbox sender.

Transactions are READ COMMITTED: every write to a game's rows holds that game's lock, so no two of
them interleave; snapshots for `read()` are REPEATABLE READ.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from decimal import Decimal
from importlib import resources
from typing import Any

import asyncpg

from ..aio import finish as _finish
from .durability import checked
from .errors import Conflict
from .meta import MetaStore
from .pgsql import numbered, rowcount

log = logging.getLogger(__name__)

CHANNEL = "bot_wake"  # LISTEN/NOTIFY channel: outbox rows or timers were added
GAME_LOCKS, TARGET_LOCKS, MIGRATION_LOCK = 1, 2, 3  # advisory lock namespaces (classid)
POOL = 20
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# Only new rows wake the others: a claim or a retry is the claiming process's own business (and a
# claim that woke everyone would make everyone claim again).
_QUERY = re.compile(r"^\s*(SELECT|WITH)\b", re.IGNORECASE)
_WAKES = re.compile(r"^\s*INSERT\s+INTO\s+(outbox|timers)\b", re.IGNORECASE)


def is_url(value: str) -> bool:
    return value.startswith(("postgresql://", "postgres://"))


def pg_migrations() -> list[tuple[int, str, str]]:
    """(version, name, script) of bot/migrations/postgres/NNN_name.sql, in order, without gaps."""
    found = []
    for entry in resources.files("bot.migrations").joinpath("postgres").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    if [v for v, _, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"PostgreSQL migrations must be numbered 001, 002, ... without gaps: {found}")
    return found


def _number(text: str) -> int | float:
    """numeric (SUM of integers) as SQLite gives it: an int, or a float."""
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else float(value)


async def _init(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("numeric", encoder=str, decoder=_number, schema="pg_catalog", format="text")


def key32(text: str) -> int:
    """A stable signed 32-bit key for an advisory lock on a name."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big", signed=True)


class _Cursor:
    """What aiosqlite's `execute` gives: a row count, and the rows of a query."""

    __slots__ = ("rowcount", "_rows")

    def __init__(self, count: int, found: list[asyncpg.Record] | None = None) -> None:
        self.rowcount = count
        self._rows = found or []

    async def fetchall(self) -> list[asyncpg.Record]:
        return self._rows

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None


class PgConn:
    """One connection, taking the calls the repositories make (bot/storage/sql.py) with SQLite's `?`."""

    dialect = "postgres"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.raw = conn
        self.wakes = False  # queued outbox rows or timers: NOTIFY at commit

    def _seen(self, sql: str) -> str:
        if not self.wakes and _WAKES.match(sql):
            self.wakes = True
        return numbered(sql)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[asyncpg.Record]:
        try:
            return list(await self.raw.fetch(self._seen(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> _Cursor:
        try:
            if _QUERY.match(sql):
                found = list(await self.raw.fetch(self._seen(sql), *params))
                return _Cursor(len(found), found)
            return _Cursor(rowcount(await self.raw.execute(self._seen(sql), *params)))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        try:
            return int(await self.raw.fetchval(self._seen(sql) + " RETURNING id", *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        try:
            await self.raw.executemany(self._seen(sql), params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc


class PgDatabase(MetaStore):
    """A pool of connections to one PostgreSQL database, shared with other bot processes."""

    dialect = "postgres"
    shared = True  # other processes may write meanwhile: nothing read outside a game's lock stays true

    def __init__(self, url: str, *, pool_size: int = POOL, sync: str = "full") -> None:
        self.sync = checked(sync)
        self.path = url
        self.url = url
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncpg.Connection | None = None
        self._pins: dict[asyncio.Task[Any], list[asyncpg.Connection]] = {}
        self._releasing: set[asyncio.Task[None]] = set()
        self._woken: list[Callable[[], None]] = []
        self.commits = 0
        self.transactions = 0

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("database is not open")
        return self._pool

    async def open(self) -> None:
        if self._pool is not None:
            return
        sync = {"synchronous_commit": "off" if self.sync == "normal" else "on"}  # "on" whatever the server's default
        pool = await asyncpg.create_pool(
            self.url, min_size=1, max_size=self.pool_size, init=_init, server_settings=sync
        )
        assert pool is not None
        self._pool = pool
        try:
            await self.migrate()
            self._listener = await asyncpg.connect(self.url)
            await self._listener.add_listener(CHANNEL, self._notified)
        except BaseException:
            await self._close_all()
            raise

    async def close(self) -> None:
        if self._pool is None:
            return
        if self._releasing:
            await asyncio.gather(*self._releasing, return_exceptions=True)
        await self._close_all()

    async def _close_all(self) -> None:
        listener, self._listener = self._listener, None
        pool, self._pool = self._pool, None
        if listener is not None:
            with suppress(Exception):
                await listener.close(timeout=5)
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), 10)
            except (TimeoutError, Exception):
                log.warning("closing the database pool took too long; terminating it")
                pool.terminate()

    # ---- wake-ups ------------------------------------------------------------------------------------

    def on_notify(self, callback: Callable[[], None]) -> None:
        """Called whenever any process committed outbox rows or timers."""
        self._woken.append(callback)

    def _notified(self, *_: Any) -> None:
        for callback in self._woken:
            try:
                callback()
            except Exception:
                log.exception("a NOTIFY callback failed")

    # ---- schema ----------------------------------------------------------------------------------------

    async def migrate(self) -> int:
        """Apply every bot/migrations/postgres script newer than the recorded version. Processes starting
        together take turns on one advisory lock; each sees the version the one before it left."""
        async with self.pool.acquire() as conn:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", MIGRATION_LOCK)
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                current = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
                for version, name, script in pg_migrations():
                    if version <= current:
                        continue
                    log.info("applying PostgreSQL migration %s", name)
                    await conn.execute(script)
                    await conn.execute("INSERT INTO schema_version(version) VALUES ($1)", version)
                    current = version
        return int(current)

    # ---- connections -----------------------------------------------------------------------------------

    def _pinned(self) -> asyncpg.Connection | None:
        task = asyncio.current_task()
        held = self._pins.get(task) if task is not None else None
        return held[-1] if held else None

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """The connection of the game lock this task holds, else one from the pool."""
        pinned = self._pinned()
        if pinned is not None:
            yield pinned
            return
        async with self.pool.acquire() as conn:
            yield conn

    async def lock_game(self, game_id: int) -> asyncpg.Connection:
        """Wait for the game's lock across every process; this task's statements then use its connection."""
        conn = await self.pool.acquire()
        try:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", GAME_LOCKS, game_id)
        except BaseException:
            # Cancelled while waiting (or the connection broke): it may hold the lock after all; the
            # pool's reset (pg_advisory_unlock_all) or the closed connection lets go of it.
            self._release_soon(conn)
            raise
        task = asyncio.current_task()
        assert task is not None
        self._pins.setdefault(task, []).append(conn)
        return conn

    def unlock_game(self, conn: asyncpg.Connection) -> None:
        """Let go of a game's lock (the pool's reset of its connection unlocks it)."""
        for task, held in list(self._pins.items()):
            if conn in held:
                held.remove(conn)
                if not held:
                    del self._pins[task]
                break
        self._release_soon(conn)

    def _release_soon(self, conn: asyncpg.Connection) -> None:
        pool = self._pool
        if pool is None:
            conn.terminate()
            return
        task = asyncio.ensure_future(self._release(pool, conn))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    @staticmethod
    async def _release(pool: asyncpg.Pool, conn: asyncpg.Connection) -> None:
        try:
            await pool.release(conn)
        except Exception:
            log.debug("releasing a connection failed; it was closed instead", exc_info=True)
            conn.terminate()

    @asynccontextmanager
    async def try_lock(self, name: str) -> AsyncIterator[bool]:
        """Hold an advisory lock on `name` if no other process holds it (True), else do nothing (False)."""
        async with self.pool.acquire() as conn:
            got = await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", TARGET_LOCKS, key32(name))
            try:
                yield bool(got)
            finally:
                if got:
                    await _finish(conn.execute("SELECT pg_advisory_unlock($1, $2)", TARGET_LOCKS, key32(name)))

    @asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        """Wait for, and hold, an advisory lock on `name` (across every process)."""
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", TARGET_LOCKS, key32(name))
            try:
                yield
            finally:
                await _finish(conn.execute("SELECT pg_advisory_unlock($1, $2)", TARGET_LOCKS, key32(name)))

    # ---- transactions and reads ------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConn]:
        """BEGIN ... COMMIT, rolled back on any exception; returns once committed."""
        async with self._connection() as raw:
            conn = PgConn(raw)
            tx = raw.transaction()
            await tx.start()
            try:
                yield conn
                if conn.wakes:
                    await raw.execute("SELECT pg_notify($1, '')", CHANNEL)
            except BaseException:
                with suppress(Exception):
                    await _finish(tx.rollback())
                raise
            await _finish(tx.commit())
            self.commits += 1
            self.transactions += 1

    async def write_alone(self, sql: str, params: Iterable[Any] = ()) -> int:
        """ONE write statement as a transaction of its own; how many rows it wrote."""
        async with self._connection() as raw:
            cursor = await PgConn(raw).execute(sql, tuple(params))
        self.commits += 1
        self.transactions += 1
        return cursor.rowcount

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[PgConn]:
        """A connection for ONE statement (each sees committed data)."""
        async with self._connection() as raw:
            yield PgConn(raw)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConn]:
        """A connection for a few reads that all see the same committed snapshot."""
        async with self._connection() as raw:
            if raw.is_in_transaction():  # a read inside this task's own transaction: it sees its writes
                yield PgConn(raw)
                return
            async with raw.transaction(isolation="repeatable_read", readonly=True):
                yield PgConn(raw)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> asyncpg.Record | None:
        async with self.reader() as conn:
            found = await conn.execute_fetchall(sql, tuple(params))
        return found[0] if found else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[asyncpg.Record]:
        async with self.reader() as conn:
            return await conn.execute_fetchall(sql, tuple(params))
