"""The SQLite storage, on aiosqlite: WAL, synchronous=FULL, numbered migrations, serialized transactions.

Connections (each an aiosqlite connection, so every statement runs on that connection's own thread
and nothing blocks the event loop):

- **the writer** (WAL, synchronous=FULL, foreign_keys, busy_timeout). One asyncio lock guards it, so
  exactly one transaction runs at a time and no transaction sees another's half-written rows.
- **the readers** (`Database.READERS` of them, `query_only=ON`), used by `read()`, `fetchone()` and
  `fetchall()`, so reads run side by side. With WAL they see committed data only and never wait for
  the writer or its fsync. `:memory:` has no readers (a second connection would be another, empty
  database): reads share the writer.

`transaction()` is BEGIN IMMEDIATE ... COMMIT, rolled back on any exception, and returns only once
COMMIT has returned, i.e. once the changes are on disk (synchronous=FULL).

Group commit: a transaction that finishes while others wait for the writer does not COMMIT at once.
The next ones join the same BEGIN IMMEDIATE, each inside a SAVEPOINT (so a failing one rolls back
only its own changes), and the first member to get the writer back commits them all with one fsync.
Every member waits, uncancellably, until its batch's COMMIT is over, and every member of a batch
whose COMMIT fails (or that SQLite rolled back) gets the error: nobody is told "recorded" for data
that is not on disk.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from ..aio import finish as _finish
from .checkpoints import EVERY as CHECKPOINT_SECONDS
from .checkpoints import Checkpointer
from .errors import Conflict
from .meta import MetaStore
from .pipeline import Pipelined

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.(sql|py)$")


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, text) for every bot/migrations/NNN_name.sql or .py, in version order. A .py
    migration is a module with an `async def apply(conn)`; its text is its module name."""
    found = []
    for entry in resources.files("bot.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            text = entry.read_text(encoding="utf-8") if match.group(2) == "sql" else f"bot.migrations.{entry.name[:-3]}"
            found.append((int(match.group(1)), entry.name, text))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, ... without gaps: {versions}")
    return found


async def fetch_one(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
    """The first row of one statement, in one round trip to the connection's thread (execute + fetchone
    take two). It fetches every row, so use it for single-row queries (a key, LIMIT 1, an aggregate)."""
    rows = await conn.execute_fetchall(sql, tuple(params))
    for row in rows:
        return row
    return None


async def _connect(path: str) -> aiosqlite.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves so every transaction is explicit.
    conn = aiosqlite.connect(path, isolation_level=None)
    # aiosqlite's worker thread is not a daemon: an unclosed connection (a failing test, a crash
    # path) would keep the interpreter from exiting. A daemon thread cannot: SQLite's journal makes
    # an interrupted write harmless.
    thread = getattr(conn, "_thread", conn)
    if isinstance(thread, threading.Thread) and not thread.is_alive():
        thread.daemon = True
    await conn
    conn.row_factory = sqlite3.Row
    return conn


class _Batch:
    """Transactions committed by one COMMIT."""

    __slots__ = ("done", "members")

    def __init__(self) -> None:
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.members = 0


class Database(MetaStore):
    """Owns the connections. Use `transaction()` for writes and `read()` / `fetchone` / `fetchall` for reads."""

    READERS = 4  # read-only connections: reads in parallel on their own threads, none waits for the writer
    CHECKPOINT_EVERY = CHECKPOINT_SECONDS  # bot/storage/checkpoints.py
    dialect = "sqlite"
    shared = False  # one process owns the file: what it read under a game's lock stays true until it writes

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._conn: aiosqlite.Connection | None = None
        self._readers: list[aiosqlite.Connection] = []  # every reader connection
        self._idle: list[aiosqlite.Connection] = []  # the readers not in use
        self._lock = asyncio.Lock()  # the writer: one transaction at a time
        self._waiting = 0  # coroutines waiting for the writer lock
        self._read_slots = asyncio.Semaphore(self.READERS)  # one read snapshot at a time per reader
        self._batch: _Batch | None = None  # the open BEGIN IMMEDIATE, if any
        self._checkpointer: Checkpointer | None = None  # WAL checkpoints on a connection of their own
        self.commits = 0  # COMMITs issued (fsyncs), for tests and benches
        self.transactions = 0  # transactions committed

    @property
    def conn(self) -> aiosqlite.Connection:
        """The writer connection (use `transaction()` to write)."""
        if self._conn is None:
            raise RuntimeError("database is not open")
        return self._conn

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    @property
    def _memory(self) -> bool:
        return self.path == ":memory:" or self.path.startswith("file::memory:")

    async def open(self) -> None:
        if self._conn is not None:
            return
        if not self._memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = await _connect(self.path)
        try:
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=5000"):
                await conn.execute(f"PRAGMA {pragma}")
            self._conn = conn
            await self.migrate()
            if not self._memory:
                await conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's, off the commit path
                self._checkpointer = Checkpointer(lambda: _connect(self.path), lambda: self.commits)
                await self._checkpointer.start(self.CHECKPOINT_EVERY)
            for _ in range(0 if self._memory else self.READERS):
                reader = await _connect(self.path)
                self._readers.append(reader)
                for pragma in ("query_only=ON", "busy_timeout=5000"):
                    await reader.execute(f"PRAGMA {pragma}")
                self._idle.append(reader)
        except BaseException:
            await self._close_connections()
            raise

    async def close(self) -> None:
        """Wait for the transaction in progress (committing any open batch) and every read, then close all."""
        if self._conn is None:
            return
        async with self._writer():
            with suppress(Exception):
                await self._settle()
            for _ in range(self.READERS):  # every read in progress ends first
                await self._read_slots.acquire()
            try:
                await self._close_connections()
            finally:
                for _ in range(self.READERS):  # reads waiting for a reader now find the database closed
                    self._read_slots.release()

    async def _close_connections(self) -> None:
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            try:
                await _finish(checkpointer.stop())
            except Exception:
                log.exception("the last WAL checkpoint")
        conn, self._conn = self._conn, None
        readers, self._readers, self._idle = self._readers, [], []
        for c in (*readers, conn):
            if c is not None:
                try:
                    await _finish(c.close())
                except Exception:
                    log.exception("closing the database")

    async def migrate(self) -> int:
        """Apply every migration newer than PRAGMA user_version, each in its own transaction."""
        async with self._writer():
            await self._settle()
            conn = self.conn
            current = int(list(await conn.execute_fetchall("PRAGMA user_version"))[0][0])
            for version, name, sql in migration_files():
                if version <= current:
                    continue
                log.info("applying migration %s", name)
                try:
                    if name.endswith(".py"):
                        module = importlib.import_module(sql)
                        await _finish(conn.execute("BEGIN IMMEDIATE"))
                        await module.apply(conn)
                        await conn.execute(f"PRAGMA user_version={version}")
                        await _finish(conn.execute("COMMIT"))
                    else:
                        # executescript commits a pending transaction first; the script brings its own, so
                        # the migration and its version number are applied together or not at all.
                        script = f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version={version};\nCOMMIT;"
                        await _finish(conn.executescript(script))
                except BaseException:
                    if conn.in_transaction:
                        await _finish(conn.execute("ROLLBACK"))
                    raise
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

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT (or a rollback of this transaction's changes on any exception).

        Returns once the changes are committed to disk."""
        async with self._writer():
            conn = self.conn
            batch = self._batch
            first = batch is None
            if batch is None:
                batch = self._batch = _Batch()
            # A joiner's savepoint is not released when it succeeds (one round trip fewer): COMMIT ends
            # them all, and ROLLBACK TO names the most recent savepoint, i.e. the failing member's own.
            # It is sent with the body's first statement (bot/storage/pipeline.py).
            piped = Pipelined(conn, "BEGIN IMMEDIATE" if first else "SAVEPOINT host_tx")
            alone = False
            try:
                yield piped  # type: ignore[misc]
                alone = first and not self._waiting
                if alone:  # nobody to wait for: the body's last writes and the COMMIT go in one round trip
                    failed = await _finish(piped.commit())
                else:
                    await _finish(piped.flush())
            except sqlite3.IntegrityError as exc:
                await _finish(self._undo(conn, batch, first, piped.opened))
                raise Conflict(str(exc)) from exc
            except BaseException:
                await _finish(self._undo(conn, batch, first, piped.opened))
                raise
            batch.members += 1
            if alone:
                self._committed(batch, failed)
            elif not self._waiting:
                await _finish(self._commit(batch))  # nobody to wait for: commit now
        if not batch.done.done():
            # Those waiting for the writer join this batch; the first member back commits them all.
            await _finish(self._commit_later(batch))
        await batch.done

    async def write_alone(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run ONE write statement as a transaction of its own (SQLite's autocommit), under the writer
        lock and after committing any open batch: one round trip to the writer's thread, on disk when it
        returns (synchronous=FULL). Returns how many rows it inserted or updated. A failing statement
        changes nothing: SQLite rolls a statement back as a whole.

        No RETURNING: each row fetched is one more step of the statement, and each step makes the
        writer's thread take the GIL back, which under load means waiting for the busy loop's thread.

        Awaited directly, without a task and a shield around it (each costs a turn of the loop): the
        first step of the await already queues the statement on the writer's thread. If the caller is
        cancelled, the statement still runs, and the writer is held until a no-op queued behind it has
        run, so nothing else writes before it is over."""
        async with self._writer():
            await self._settle()
            conn = self.conn
            try:
                cursor = await conn.execute(sql, tuple(params))
            except sqlite3.IntegrityError as exc:
                raise Conflict(str(exc)) from exc
            except asyncio.CancelledError:
                with suppress(Exception):
                    await _finish(conn.execute_fetchall("SELECT 1"))
                raise
            self.commits += 1
            self.transactions += 1
            return int(cursor.rowcount)

    async def _undo(self, conn: aiosqlite.Connection, batch: _Batch, first: bool, opened: bool = True) -> None:
        """With the writer lock: roll back the failed transaction's changes, and only those (`opened`: its
        BEGIN or SAVEPOINT was sent; if not, it wrote nothing, and a ROLLBACK TO would undo another's)."""
        if first:  # the batch holds nothing else
            self._batch = None
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            return
        if not opened:
            return
        if conn.in_transaction:
            try:
                await conn.execute("ROLLBACK TO host_tx")  # undoes this member's changes; the others' stay
                return
            except sqlite3.Error as exc:
                error: BaseException = exc
                with suppress(sqlite3.Error):
                    await conn.execute("ROLLBACK")
        else:  # SQLite rolled the whole transaction back itself (e.g. disk full)
            error = sqlite3.OperationalError("transaction rolled back by SQLite")
        self._fail(batch, error)

    def _fail(self, batch: _Batch, exc: BaseException) -> None:
        if self._batch is batch:
            self._batch = None
        if not batch.done.done():
            batch.done.set_exception(exc)
            batch.done.exception()  # retrieved: members that were cancelled do not log it as lost

    async def _commit_later(self, batch: _Batch) -> None:
        async with self._writer():
            await self._commit(batch)

    async def _settle(self) -> None:
        """With the writer lock: commit the open batch, if any."""
        if self._batch is not None:
            await _finish(self._commit(self._batch))

    async def _commit(self, batch: _Batch) -> None:
        """With the writer lock: COMMIT the batch, unless that was done already."""
        if self._batch is not batch or batch.done.done():
            return
        self._batch = None
        conn = self.conn
        try:
            await conn.execute("COMMIT")
        except Exception as exc:
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    await conn.execute("ROLLBACK")
            self._fail(batch, exc)
            return
        self._committed(batch, None)

    def _committed(self, batch: _Batch, failed: BaseException | None) -> None:
        """The batch's COMMIT is over (`failed`: it failed, and was rolled back)."""
        if self._batch is batch:
            self._batch = None
        if failed is not None:
            self._fail(batch, failed)
            return
        self.commits += 1
        self.transactions += batch.members
        batch.done.set_result(None)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for reads: an idle reader, or (`:memory:`) the writer with no batch open."""
        if self._memory:
            async with self._writer():
                await self._settle()
                yield self.conn
            return
        async with self._read_slots:
            if not self._idle:
                raise RuntimeError("database is not open")
            reader = self._idle.pop()
            try:
                yield reader
            finally:
                if reader in self._readers:  # not closed meanwhile
                    self._idle.append(reader)

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection for ONE statement (no BEGIN/COMMIT around it: two round trips fewer than `read()`).
        One statement always sees one committed snapshot; use `read()` when several must agree."""
        async with self._reading() as conn:
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection for a few reads that all see the same committed snapshot."""
        async with self._reading() as conn:
            if conn is self._conn:  # :memory:, under the writer lock: nothing can change meanwhile
                yield conn
                return
            if conn.in_transaction:  # a snapshot left open by a cancelled reader
                await _finish(conn.execute("COMMIT"))
            await _finish(conn.execute("BEGIN"))
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    await _finish(conn.execute("COMMIT"))  # ends the read snapshot; nothing to write

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of one statement (all of its rows are fetched: use it for single-row queries)."""
        async with self._reading() as conn:
            return await fetch_one(conn, sql, params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._reading() as conn:
            return list(await conn.execute_fetchall(sql, tuple(params)))

    # What several processes on one PostgreSQL need (bot/storage/pg.py); one process on a file needs none.

    def on_notify(self, callback: Callable[[], None]) -> None:
        """Another process committed outbox rows or timers: never, on a file only this process opens."""

    @asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        """Nothing else to wait for."""
        yield

    @asynccontextmanager
    async def try_lock(self, name: str) -> AsyncIterator[bool]:
        """Every target is this process's alone."""
        yield True
