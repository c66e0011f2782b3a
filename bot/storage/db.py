"""The SQLite storage: WAL, synchronous=FULL, numbered migrations, serialized transactions.

One writer connection, guarded by one asyncio lock, so a transaction never sees another coroutine's
half-written rows and there is exactly one writer. Statements run on the event loop's thread (they
touch a few pages and take microseconds); only COMMIT, which waits for the disk (fsync), runs on the
database's own thread, so the loop keeps answering while a commit is on its way to the disk.

Group commit: transactions that finish while an earlier COMMIT is in flight are committed together
by the next one (each is a SAVEPOINT inside one BEGIN IMMEDIATE ... COMMIT). `transaction()` still
returns only once its own changes are on disk, and a failing transaction rolls back only its own.

Reads (`read()`, `fetchone()`, `fetchall()`) use a second, read-only connection: with WAL they see
committed data only and never wait for the writer or its fsync. The connections keep aiosqlite's
calling convention (`await conn.execute(...)`, `await cursor.fetchone()`), so repositories take either.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any

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


class Cursor:
    """The part of aiosqlite's Cursor the repositories use, over a sqlite3 cursor."""

    __slots__ = ("_cur",)

    def __init__(self, cur: sqlite3.Cursor) -> None:
        self._cur = cur

    @property
    def lastrowid(self) -> int | None:
        return self._cur.lastrowid

    @property
    def rowcount(self) -> int:
        return self._cur.rowcount

    @property
    def description(self) -> Any:
        return self._cur.description

    async def fetchone(self) -> sqlite3.Row | None:
        return self._cur.fetchone()

    async def fetchall(self) -> list[sqlite3.Row]:
        return self._cur.fetchall()

    async def fetchmany(self, size: int | None = None) -> list[sqlite3.Row]:
        return self._cur.fetchmany(size if size is not None else self._cur.arraysize)

    async def close(self) -> None:
        self._cur.close()

    def __aiter__(self) -> Cursor:
        return self

    async def __anext__(self) -> sqlite3.Row:
        row = self._cur.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row


class Connection:
    """aiosqlite's calling convention over a sqlite3 connection used on the event loop's thread."""

    __slots__ = ("raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, parameters: Any = ()) -> Cursor:
        return Cursor(self.raw.execute(sql, parameters))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Cursor:
        return Cursor(self.raw.executemany(sql, parameters))

    async def execute_fetchall(self, sql: str, parameters: Any = ()) -> list[sqlite3.Row]:
        return self.raw.execute(sql, parameters).fetchall()

    @property
    def total_changes(self) -> int:
        return self.raw.total_changes

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction


class _Batch:
    """Transactions committed by one COMMIT."""

    __slots__ = ("done", "task", "members")

    def __init__(self) -> None:
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None
        self.members = 0


class Database:
    """Owns the connections. Use `transaction()` for writes and `read()` / `fetchone` / `fetchall` for reads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._raw: sqlite3.Connection | None = None
        self._conn: Connection | None = None
        self._reader: Connection | None = None
        self._lock = asyncio.Lock()  # the writer: one transaction (or commit) at a time
        self._waiting = 0  # coroutines waiting for the writer lock
        self._read_lock = asyncio.Lock()  # one read snapshot at a time on the reader
        self._batch: _Batch | None = None
        self._disk: ThreadPoolExecutor | None = None
        self.commits = 0  # COMMITs issued (fsyncs), for tests and benches
        self.transactions = 0  # transactions committed

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so a transaction is explicit.
        raw = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        raw.row_factory = sqlite3.Row
        return raw

    async def open(self) -> None:
        if self._conn is not None:
            return
        memory = self.path == ":memory:" or self.path.startswith("file::memory:")
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._disk = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crimecity-db")
        raw = await self._on_disk(self._connect)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=5000"):
            raw.execute(f"PRAGMA {pragma}")
        self._raw, self._conn = raw, Connection(raw)
        await self.migrate()
        if memory:
            self._reader = None  # a second connection would be another, empty database
        else:
            reader = await self._on_disk(self._connect)
            for pragma in ("query_only=ON", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=1000"):
                reader.execute(f"PRAGMA {pragma}")
            self._reader = Connection(reader)

    async def _on_disk(self, fn: Any, *args: Any) -> Any:
        """Run `fn` on the database thread (anything that may wait for the disk)."""
        return await asyncio.get_running_loop().run_in_executor(self._disk, fn, *args)

    async def close(self) -> None:
        if self._conn is None:
            return
        async with self._writer():
            await self._settle()
            raw, self._raw, self._conn = self._raw, None, None
            reader, self._reader = self._reader, None
            async with self._read_lock:
                if reader is not None:
                    reader.raw.close()
            if raw is not None:
                await self._on_disk(raw.close)
            if self._disk is not None:
                self._disk.shutdown(wait=False)
                self._disk = None

    async def migrate(self) -> int:
        """Apply every migration newer than PRAGMA user_version, each in its own transaction."""
        async with self._writer():
            await self._settle()
            raw = self._raw
            assert raw is not None
            current = raw.execute("PRAGMA user_version").fetchone()[0]
            for version, name, sql in migration_files():
                if version <= current:
                    continue
                log.info("applying migration %s", name)
                # executescript commits implicitly; wrap the script so it applies atomically.
                script = f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version={version};\nCOMMIT;"
                await self._on_disk(raw.executescript, script)
                current = version
            return current

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[None]:
        """The writer lock, counting who waits for it (a transaction that finds nobody waiting commits at once)."""
        self._waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._lock.release()

    async def _settle(self) -> None:
        """With the writer lock: commit what an open batch holds (or end it when it holds nothing)."""
        batch = self._batch
        if batch is None:
            return
        if batch.members:
            await self._commit_locked(batch)
        else:
            self._end_empty(batch)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK of this transaction's changes on any exception).

        Returns once the changes are committed to disk. Group commit: while others wait for the writer,
        a finished transaction leaves its COMMIT to the last of them, so one fsync covers them all."""
        async with self._writer():
            raw = self._raw
            if raw is None:
                raise RuntimeError("database is not open")
            if self._batch is None:
                raw.execute("BEGIN IMMEDIATE")
                self._batch = _Batch()
            batch = self._batch
            raw.execute("SAVEPOINT crimecity_tx")
            try:
                yield self.conn
            except BaseException:
                if not raw.in_transaction:
                    # SQLite rolled the whole transaction back itself (e.g. disk full): the batch is lost.
                    self._fail(batch, sqlite3.OperationalError("transaction rolled back by SQLite"))
                else:
                    raw.execute("ROLLBACK TO crimecity_tx")
                    raw.execute("RELEASE crimecity_tx")
                    if not self._waiting:
                        with suppress(Exception):
                            await self._settle()  # the others' outcome is theirs to see
                raise
            raw.execute("RELEASE crimecity_tx")
            batch.members += 1
            if not self._waiting:
                await self._commit_locked(batch)  # nobody to wait for: commit now, still holding the writer
            elif batch.task is None:
                # Those waiting join this batch; the last of them commits it. A task queued behind them
                # commits it anyway, should they all be cancelled or fail.
                batch.task = asyncio.create_task(self._commit_later(batch), name="crimecity-db-commit")
        await asyncio.shield(batch.done)

    def _end_empty(self, batch: _Batch) -> None:
        raw = self._raw
        if raw is not None and raw.in_transaction:
            raw.execute("ROLLBACK")  # holds no transaction's changes
        if self._batch is batch:
            self._batch = None
        if not batch.done.done():
            batch.done.set_result(None)

    def _fail(self, batch: _Batch, exc: BaseException) -> None:
        if self._batch is batch:
            self._batch = None
        if not batch.done.done():
            batch.done.set_exception(exc)
            batch.done.exception()  # retrieved: members that were cancelled do not log it as lost

    async def _commit_later(self, batch: _Batch) -> None:
        async with self._writer():
            if self._batch is batch:
                await self._settle()

    async def _commit_locked(self, batch: _Batch) -> None:
        if batch.done.done():
            return
        raw = self._raw
        if self._batch is batch:
            self._batch = None
        if raw is None or not raw.in_transaction:
            self._fail(batch, sqlite3.OperationalError("transaction rolled back before COMMIT"))
            return
        fut = asyncio.get_running_loop().run_in_executor(self._disk, raw.execute, "COMMIT")
        cancelled = False
        while not fut.done():
            try:
                await asyncio.shield(fut)
            except asyncio.CancelledError:
                # The COMMIT goes on in its thread; nobody may touch the connection until it is over.
                cancelled = True
            except Exception:
                break
        exc = fut.exception()
        if exc is not None:
            if raw.in_transaction:
                with suppress(sqlite3.Error):
                    raw.execute("ROLLBACK")
            self._fail(batch, exc)
        else:
            self.commits += 1
            self.transactions += batch.members
            batch.done.set_result(None)
        if cancelled:
            raise asyncio.CancelledError

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """A connection for a few reads that all see the same committed snapshot."""
        if self._reader is None:
            async with self._writer():  # :memory: — reads share the writer
                await self._settle()
                yield self.conn
            return
        async with self._read_lock:
            reader = self._reader
            if reader is None:
                raise RuntimeError("database is not open")
            reader.raw.execute("BEGIN")
            try:
                yield reader
            finally:
                if reader.raw.in_transaction:
                    reader.raw.execute("COMMIT")  # ends the read snapshot; nothing to write

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self.read() as conn:
            return conn.raw.execute(sql, tuple(params)).fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self.read() as conn:
            return conn.raw.execute(sql, tuple(params)).fetchall()

    async def get_meta(self, key: str) -> str | None:
        row = await self.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row["value"]

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
