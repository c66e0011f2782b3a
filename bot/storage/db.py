"""The SQLite storage, on aiosqlite: WAL, synchronous=FULL, numbered migrations, serialized transactions.

Connections (each an aiosqlite connection, so every statement runs on that connection's own thread
and nothing blocks the event loop):

- **the writer** (WAL, synchronous=FULL or, with CRIMECITY_DB_SYNC=normal, NORMAL; foreign_keys,
  busy_timeout). One asyncio lock guards its round trips, so no transaction's statements run inside
  another's, and none sees another's half-written rows.
- **the readers** (`Database.READERS` of them, `query_only=ON`), used by `read()`, `fetchone()` and
  `fetchall()`, so reads run side by side. With WAL they see committed data only and never wait for
  the writer or its fsync. `:memory:` has no readers (a second connection would be another, empty
  database): reads share the writer.

`transaction()` is BEGIN IMMEDIATE ... COMMIT, rolled back on any exception, and returns only once
COMMIT has returned, i.e. once the changes are on disk (synchronous=FULL; with NORMAL, once the
system holds them).

Group commit (bot/storage/pipeline.py): transactions that end while a COMMIT is on its way share the
next BEGIN IMMEDIATE, each inside a SAVEPOINT (so a failing one rolls back only its own changes), and
one COMMIT with one fsync. A transaction that only queues its writes (`sql.later`) never waits for the
writer: its writes go with the batch's next call. One that needs an answer holds the writer from its
first round trip to the end of its body. Every member waits, uncancellably, until its batch's COMMIT is
over, and every member of a batch whose COMMIT fails (or that SQLite rolled back) gets the error:
nobody is told "recorded" for data that is not on disk.
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
from .durability import checked
from .errors import Conflict
from .meta import MetaStore
from .pipeline import Batch, Pipelined
from .pipeline import commit as _send_commit
from .pipeline import undo as _undo_member

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


class Database(MetaStore):
    """Owns the connections. Use `transaction()` for writes and `read()` / `fetchone` / `fetchall` for reads."""

    READERS = 4  # read-only connections: reads in parallel on their own threads, none waits for the writer
    CHECKPOINT_EVERY = CHECKPOINT_SECONDS  # bot/storage/checkpoints.py
    dialect = "sqlite"
    shared = False  # one process owns the file: what it read under a game's lock stays true until it writes

    def __init__(self, path: str | Path, *, sync: str = "full") -> None:
        self.path = str(path)
        self.sync = checked(sync)
        self._conn: aiosqlite.Connection | None = None
        self._readers: list[aiosqlite.Connection] = []  # every reader connection
        self._idle: list[aiosqlite.Connection] = []  # the readers not in use
        self._lock = asyncio.Lock()  # the writer: one transaction at a time
        self._commits: set[asyncio.Task[None]] = set()  # COMMITs on their way in tasks of their own
        self._dirty = False  # a cancelled COMMIT may have left its transaction open (`_abandon`)
        self._active = 0  # transactions begun and not over
        self._quiet = asyncio.Event()  # set while none is
        self._quiet.set()
        self._read_slots = asyncio.Semaphore(self.READERS)  # one read snapshot at a time per reader
        self._batch: Batch | None = None  # the open BEGIN IMMEDIATE, if any
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
            pragmas = ("journal_mode=WAL", f"synchronous={self.sync.upper()}", "foreign_keys=ON", "busy_timeout=5000")
            for pragma in pragmas:
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
        await self._quiet.wait()  # a transaction takes the writer only when it needs an answer
        async with self._writer():
            with suppress(Exception):
                await self._settle()
            for task in list(self._commits):  # each waits for the writer, then finds its batch over
                task.cancel()
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
        """The writer lock."""
        async with self._lock:
            await self._clean()
            yield

    async def _clean(self) -> None:
        """With the writer lock: end a transaction whose COMMIT was cancelled (`_abandon`), if it is still open."""
        if self._dirty and self._conn is not None:
            self._dirty = False
            if self._conn.in_transaction:
                await _finish(self._conn.execute("ROLLBACK"))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT (or a rollback of this transaction's changes on any exception).

        Returns once the changes are committed to disk. A body that only queues writes (`sql.later`) never
        waits for the writer; one that needs an answer takes it at its first round trip
        (bot/storage/pipeline.py)."""
        member = Pipelined(self.conn, self._hold)
        self._active += 1
        self._quiet.clear()
        try:
            try:
                yield member  # type: ignore[misc]
            except BaseException:
                await self._undo(member)
                raise
            await self._close(member)
        finally:
            self._active -= 1
            if not self._active:
                self._quiet.set()

    async def _undo(self, member: Pipelined) -> None:
        """A member whose body failed: what it sent undone (it holds the writer), nothing else."""
        member.queued = []
        batch = member.batch
        if batch is None:  # nothing of it was sent
            return
        try:
            await _finish(_undo_member(self.conn, member))
        finally:
            self._lock.release()
        if batch.lost is not None:
            self._fail(batch, batch.lost)
        elif batch.begun:
            self._commit_soon(batch)  # the others in it, or the BEGIN it sent

    async def _close(self, member: Pipelined) -> None:
        """A member whose body is over: in the batch, and back once the batch is committed."""
        held = member.batch
        if held is not None:
            batch = held
            batch.close(member)
            self._lock.release()
        else:
            batch = self._batch or Batch()
            self._batch = batch
            batch.close(member)
        if not batch.committing and not self._lock.locked():
            batch.committing = True  # nobody else is writing: commit now, in this task
            await _finish(self._commit_later(batch))
        else:
            self._commit_soon(batch)
        await _finish(batch.done)
        if member.failed is not None:
            raise member.failed

    async def _hold(self, member: Pipelined) -> Batch:
        """The writer, for a member that needs an answer: it holds it until its body is over."""
        if self._conn is None:
            raise RuntimeError("database is not open")
        await self._lock.acquire()
        try:
            await self._clean()
        except BaseException:
            self._lock.release()
            raise
        batch = self._batch
        if batch is None:
            batch = self._batch = Batch()
        batch.hold(member)
        return batch

    def _commit_soon(self, batch: Batch) -> None:
        """The batch's COMMIT, in a task, once the writer is free (those closing meanwhile join it)."""
        if batch.committing or batch.done.done():
            return
        batch.committing = True
        task = asyncio.create_task(self._commit_later(batch), name="sqlite-commit")
        self._commits.add(task)
        task.add_done_callback(self._commits.discard)

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

    def _fail(self, batch: Batch, exc: BaseException) -> None:
        if self._batch is batch:
            self._batch = None
        if not batch.done.done():
            batch.done.set_exception(exc)
            batch.done.exception()  # retrieved: members that were cancelled do not log it as lost

    async def _commit_later(self, batch: Batch) -> None:
        try:
            async with self._writer():
                await self._commit(batch)
        finally:
            if not batch.done.done():  # cancelled before its COMMIT (the loop is closing): nobody may wait on
                self._abandon(batch)

    def _abandon(self, batch: Batch) -> None:
        """A batch that will not be committed: its members get an error, and if its BEGIN was sent, the next
        one to take the writer rolls it back (a member may still be inside it, holding the writer)."""
        if batch.begun:
            self._dirty = True
        self._fail(batch, RuntimeError("the transaction was not committed: its COMMIT was cancelled"))

    async def _settle(self) -> None:
        """With the writer lock: commit the open batch, if any."""
        if self._batch is not None:
            await _finish(self._commit(self._batch))

    async def _commit(self, batch: Batch) -> None:
        """With the writer lock: send the batch's last statements and COMMIT it, unless that was done already."""
        if batch.done.done():
            return
        if self._batch is batch:
            self._batch = None
        try:
            lost = await _send_commit(self.conn, batch)
        except asyncio.CancelledError:
            lost = batch.lost  # the call ran to its end regardless: its outcome is in the batch
            self._settled(batch, lost)
            raise
        except Exception as exc:
            lost = exc
        self._settled(batch, lost)

    def _settled(self, batch: Batch, lost: BaseException | None) -> None:
        if batch.done.done():  # abandoned meanwhile (`_abandon`): its members were told already
            return
        if lost is not None:
            self._fail(batch, lost)
            return
        if batch.begun:
            self.commits += 1
        self.transactions += sum(1 for m in batch.members if m.failed is None)
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
