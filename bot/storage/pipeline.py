"""The writer's connection inside a SQLite group commit, sending the writes nobody waits on together.

Each call to aiosqlite is a round trip: queued for the writer's thread, run there, and handed back to the
event loop, which under load means waiting for a turn of a busy loop. So a transaction's writes made with
`sql.later` are queued, not sent, and go to the writer's thread with the next statement whose answer the
transaction needs (a read, an insert's id), or with the batch's COMMIT.

A batch (`Batch`) is one BEGIN IMMEDIATE ... COMMIT shared by several transactions, its members. Each
member's statements run inside a SAVEPOINT of their own, released when they succeed and rolled back alone
when they fail. A member that only queues writes never takes the writer: when its body is over it hands
them to the batch (`close`), to go with the batch's next call. A member that needs an answer takes the
writer at its first round trip (`Hold`), and keeps it until its body is over, so nothing else runs inside
its savepoint; members that close meanwhile go after it. So a batch of members that need no answers costs
ONE round trip, whatever its size, and they never wait for each other's bodies.

The statements run in the order the members closed (a member holding the writer: the order it took it), so
each member sees the writes of those before it. A member whose statements fail (a broken rule, a
compare-and-set that changes nothing) gets its own error once its batch is over; the others are unaffected.
If SQLite loses the whole transaction, every member of the batch gets that error.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import aiosqlite

from ..aio import finish
from .errors import Conflict, Moved

# (sql, params, must_change)
Queued = tuple[str, tuple[Any, ...], bool]
# One member's part of a call: whether its SAVEPOINT was already sent, and its statements; then its
# savepoint is released (or rolled back, if they fail).
Entry = tuple[bool, list[Queued]]


def _run_queued(conn: sqlite3.Connection, queued: list[Queued]) -> None:
    for sql, params, must_change in queued:
        cursor = conn.execute(sql, params)
        if must_change and cursor.rowcount == 0:
            raise Moved(f"a compare-and-set found its row changed: {sql.split(' WHERE')[0]}")


class _Lost(Exception):
    """Raised on the writer's thread: the transaction is gone as a whole (carries the cause)."""


def _entries(conn: sqlite3.Connection, begin: bool, entries: list[Entry], errors: list[BaseException | None]) -> None:
    """On the writer's thread: BEGIN if asked, then each closed member's statements in its own savepoint
    (its error in `errors`, in order). `_Lost` if the transaction is gone."""
    try:
        if begin:
            conn.execute("BEGIN IMMEDIATE")
        for opened, queued in entries:
            if not opened:
                conn.execute("SAVEPOINT host_tx")
            try:
                _run_queued(conn, queued)
            except Exception as exc:
                errors.append(exc)
                _undo_savepoint(conn)
            else:
                conn.execute("RELEASE host_tx")
                errors.append(None)
    except _Lost:
        raise
    except Exception as exc:
        _rollback(conn)
        raise _Lost(exc) from exc


def _undo_savepoint(conn: sqlite3.Connection) -> None:
    """The most recent member's changes undone, and only those; `_Lost` if that cannot be done."""
    if not conn.in_transaction:  # SQLite rolled the whole transaction back itself (e.g. disk full)
        raise _Lost(sqlite3.OperationalError("transaction rolled back by SQLite"))
    try:
        conn.execute("ROLLBACK TO host_tx")
        conn.execute("RELEASE host_tx")
    except sqlite3.Error as exc:
        _rollback(conn)
        raise _Lost(exc) from exc


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


Sent = tuple[list[BaseException | None], BaseException | None, BaseException | None, Any]


def _send(
    conn: sqlite3.Connection,
    begin: bool,
    entries: list[Entry],
    opened: bool,
    queued: list[Queued],
    then: Callable[..., Any],
    args: tuple[Any, ...],
) -> Sent:
    """On the writer's thread, one round trip of a member's body: the closed members' entries, then (in the
    member's savepoint) its queued writes and the statement it waits on. Returns the entries' errors, the
    transaction's loss, the member's own error and the statement's result."""
    errors: list[BaseException | None] = []
    try:
        _entries(conn, begin, entries, errors)
    except _Lost as lost:
        return errors, lost.args[0], None, None
    try:
        if not opened:
            conn.execute("SAVEPOINT host_tx")
        _run_queued(conn, queued)
        return errors, None, None, then(conn, *args)
    except Exception as exc:
        return errors, None, exc, None


def _send_and_commit(conn: sqlite3.Connection, begin: bool, entries: list[Entry]) -> Sent:
    """On the writer's thread: the closed members' entries, then COMMIT (its failure as the loss)."""
    errors: list[BaseException | None] = []
    try:
        _entries(conn, begin, entries, errors)
    except _Lost as lost:
        return errors, lost.args[0], None, None
    try:
        conn.execute("COMMIT")
    except Exception as exc:
        _rollback(conn)
        return errors, exc, None, None
    return errors, None, None, None


def _undo(conn: sqlite3.Connection) -> BaseException | None:
    """On the writer's thread: the failed member's changes undone. The transaction's loss, if that is what
    happened."""
    try:
        _undo_savepoint(conn)
    except _Lost as lost:
        return lost.args[0]  # type: ignore[no-any-return]
    return None


def _fetchall(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    return conn.execute(sql, params).fetchall()


def _execute(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> Any:
    return conn.execute(sql, params)


def _executemany(conn: sqlite3.Connection, sql: str, params: list[tuple[Any, ...]]) -> Any:
    return conn.executemany(sql, params)


def storage_error(exc: BaseException) -> BaseException:
    """A failing statement's error as the host sees it (a broken rule is a `Conflict`)."""
    if isinstance(exc, sqlite3.IntegrityError):
        conflict = Conflict(str(exc))
        conflict.__cause__ = exc
        return conflict
    return exc


class Batch:
    """One BEGIN IMMEDIATE ... COMMIT and its members (see the module's docstring)."""

    def __init__(self) -> None:
        self.begun = False  # BEGIN IMMEDIATE was sent
        self.closed: list[Pipelined] = []  # members over, whose last statements wait for the next call
        self.after: list[Pipelined] = []  # members over while another holds the writer: after its own
        self.holder: Pipelined | None = None  # the member holding the writer (its savepoint open), if any
        self.members: list[Pipelined] = []  # every member over, in order
        self.lost: BaseException | None = None  # the transaction is gone as a whole
        self.committing = False  # its COMMIT is on its way (later members still join until it is sent)
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()  # committed, or failed

    def hold(self, member: Pipelined) -> None:
        """`member` took the writer: everything closed so far goes before it."""
        self.holder = member
        member.batch = self

    def close(self, member: Pipelined) -> None:
        """`member`'s body is over: its last statements go with the batch's next call."""
        self.members.append(member)
        if member is self.holder:
            self.let_go()
        elif member.queued:
            (self.after if self.holder is not None else self.closed).append(member)

    def let_go(self) -> None:
        """The holder is over (closed, or undone): it goes next, then those that closed meanwhile."""
        holder, self.holder = self.holder, None
        if holder is not None and holder.opened and holder not in self.closed:
            self.closed.append(holder)
        self.closed += self.after
        self.after = []

    def take(self) -> tuple[bool, list[Pipelined], list[Entry]]:
        """What the next call sends first: BEGIN (if not yet sent) and the closed members' entries."""
        begin = not self.begun
        closed, self.closed = self.closed, []
        entries = [(m.opened, m.take()) for m in closed]
        self.begun = True
        return begin, closed, entries

    def settle(self, closed: list[Pipelined], errors: list[BaseException | None], lost: BaseException | None) -> None:
        """After a call: each closed member's error, and whether the transaction was lost."""
        for member, error in zip(closed, errors, strict=False):  # shorter if lost: the rest never ran
            if error is not None:
                member.failed = storage_error(error)
        if lost is not None:
            self.lost = lost

    @property
    def empty(self) -> bool:
        """Nothing was ever sent and nothing waits to be: the COMMIT has nothing to do."""
        return not self.begun and not self.closed and not self.after


# Takes the writer for a member that needs an answer, and gives the batch it is then part of.
Hold = Callable[["Pipelined"], Awaitable[Batch]]


class Pipelined:
    """One member of a batch: an aiosqlite connection whose `later` writes wait for the next round trip."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, hold: Hold) -> None:
        self._conn = conn
        self._hold = hold
        self.batch: Batch | None = None  # set once it holds the writer
        self.queued: list[Queued] = []
        self.opened = False  # this member's SAVEPOINT has been sent
        self.failed: BaseException | None = None  # its statements failed when sent with another call

    def later(self, sql: str, params: tuple[Any, ...], must_change: bool) -> None:
        self.queued.append((sql, params, must_change))

    def take(self) -> list[Queued]:
        queued, self.queued = self.queued, []
        return queued

    async def _call(self, then: Callable[..., Any], *args: Any) -> Any:
        batch = self.batch
        if batch is None:
            batch = await self._hold(self)
            begin, closed, entries = batch.take()  # whatever closed before it goes first
        elif batch.lost is not None:
            raise batch.lost
        else:
            begin, closed, entries = False, [], []  # those closing meanwhile go after it
        opened, self.opened = self.opened, True  # sent now: the savepoint to undo, if this member fails
        # To its end even if this member is cancelled: what it sends of the others must be settled.
        lost, own, value = await finish(
            _sent(self._conn, batch, closed, _send, begin, entries, opened, self.take(), then, args)
        )
        if lost is not None:
            raise lost
        if own is not None:
            raise storage_error(own)
        return value

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await self._call(_fetchall, sql, tuple(params)))

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Cursor:
        return aiosqlite.Cursor(self._conn, await self._call(_execute, sql, tuple(params)))

    async def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> aiosqlite.Cursor:
        rows = [tuple(p) for p in params]
        return aiosqlite.Cursor(self._conn, await self._call(_executemany, sql, rows))

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction


async def _sent(
    conn: aiosqlite.Connection, batch: Batch, closed: list[Pipelined], fn: Callable[..., Sent], *args: Any
) -> tuple[BaseException | None, BaseException | None, Any]:
    """One call to the writer's thread, and the closed members' outcomes settled; (loss, own error, value)."""
    errors, lost, own, value = await conn._execute(fn, conn._conn, *args)  # type: ignore[no-untyped-call]
    batch.settle(closed, errors, lost)
    return lost, own, value


async def commit(conn: aiosqlite.Connection, batch: Batch) -> BaseException | None:
    """The batch's last statements and its COMMIT, in one round trip; the error that lost it, if any."""
    if batch.lost is not None:
        return batch.lost
    if batch.empty:
        return None
    begin, closed, entries = batch.take()
    lost, _, _ = await finish(_sent(conn, batch, closed, _send_and_commit, begin, entries))
    return lost


async def undo(conn: aiosqlite.Connection, member: Pipelined) -> None:
    """A member holding the writer whose body failed: its changes undone, and only those (the transaction
    stays open for the others; `batch.lost` if it could not be)."""
    member.queued = []
    batch = member.batch
    assert batch is not None
    if batch.lost is None and member.opened:
        lost = await conn._execute(_undo, conn._conn)  # type: ignore[no-untyped-call]
        if lost is not None:
            batch.lost = lost
    member.opened = False  # nothing of it to release
    batch.let_go()
