"""Persisted timers (deadlines, reminders, computer players' moves), each tied to its decision."""

from __future__ import annotations

from typing import Any

from .models import TimerRow
from .sql import dialect, insert, later, marks, row, rows, run

LEASE = 30.0  # seconds a claim on a due timer lasts: a killed process's timers fire again after it


async def add_timer(conn: Any, game_id: int, kind: str, step: int, due_at: float, clock: str | None = None) -> int:
    return await insert(
        conn,
        "INSERT INTO timers(game_id, kind, step, clock, due_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, kind, step, clock, due_at),
    )


async def place_timer(conn: Any, game_id: int, kind: str, step: int, due_at: float, clock: str | None = None) -> None:
    """`add_timer` for a caller that needs no id: in a SQLite transaction, sent with the step's other writes."""
    await later(
        conn,
        "INSERT INTO timers(game_id, kind, step, clock, due_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, kind, step, clock, due_at),
    )


async def clear_timers(conn: Any, game_id: int, kinds: tuple[str, ...] | None = None) -> None:
    if kinds is None:
        await later(conn, "DELETE FROM timers WHERE game_id = ?", (game_id,))
    else:
        await later(conn, f"DELETE FROM timers WHERE game_id = ? AND kind IN ({marks(len(kinds))})", (game_id, *kinds))


async def timers_of(conn: Any, game_id: int) -> list[TimerRow]:
    return [TimerRow.from_row(r) for r in await rows(conn, "SELECT * FROM timers WHERE game_id = ?", (game_id,))]


async def due_timers(conn: Any, now: float, limit: int = 50) -> list[TimerRow]:
    found = await rows(conn, "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?", (now, limit))
    return [TimerRow.from_row(r) for r in found]


async def next_due(conn: Any, now: float) -> float | None:
    found = await row(conn, "SELECT MIN(due_at) AS at FROM timers WHERE due_at > ?", (now,))
    return None if found is None or found["at"] is None else float(found["at"])


async def delete_timer(conn: Any, timer_id: int) -> bool:
    """False when it was gone already."""
    return await run(conn, "DELETE FROM timers WHERE id = ?", (timer_id,)) > 0


async def postpone_timer(conn: Any, timer_id: int, due_at: float) -> None:
    sql = "UPDATE timers SET due_at = ?, attempts = attempts + 1"
    if dialect(conn) == "postgres":
        sql += ", claimed_by = NULL, claimed_until = NULL"
    await run(conn, sql + " WHERE id = ?", (due_at, timer_id))


async def move_timer(conn: Any, timer_id: int, due_at: float) -> None:
    """Bring a timer forward (or back) without counting it as a failed attempt."""
    await run(conn, "UPDATE timers SET due_at = ? WHERE id = ?", (due_at, timer_id))


# COALESCE rather than `clock IS ?`: PostgreSQL takes IS only before NULL, TRUE or FALSE.
_SAME = "id = ? AND game_id = ? AND kind = ? AND step = ? AND COALESCE(clock, '') = ?"


def _same(timer: TimerRow) -> tuple[Any, ...]:
    return (timer.id, timer.game_id, timer.kind, timer.step, timer.clock or "")


async def delete_fired(conn: Any, timer: TimerRow) -> bool:
    """Delete a timer that fired, only if its row is still that timer: SQLite reuses the id of a deleted
    row, and a new timer (e.g. the next decision's) may have taken it while the handler ran."""
    return await run(conn, f"DELETE FROM timers WHERE {_SAME}", _same(timer)) > 0


async def postpone_fired(conn: Any, timer: TimerRow, due_at: float) -> None:
    sql = "UPDATE timers SET due_at = ?, attempts = attempts + 1"
    if dialect(conn) == "postgres":
        sql += ", claimed_by = NULL, claimed_until = NULL"
    await run(conn, f"{sql} WHERE {_SAME}", (due_at, *_same(timer)))


async def claim_due(conn: Any, now: float, limit: int, by: str) -> list[TimerRow]:
    """On a database shared by several processes: claim (for `LEASE` seconds) the due timers nobody else
    holds a live claim on, skipping rows another process is claiming right now. Each due timer is thus
    fired by one process; one whose process was killed is claimed again once its lease is over."""
    found = await rows(
        conn,
        "UPDATE timers SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM timers"
        " WHERE due_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY due_at, id LIMIT ?"
        " FOR UPDATE SKIP LOCKED) RETURNING *",
        (by, now + LEASE, now, now, limit),
    )
    return sorted((TimerRow.from_row(r) for r in found), key=lambda t: (t.due_at, t.id))


async def next_wake(conn: Any, now: float) -> float | None:
    """When the next timer falls due, or a claim on a due one lapses (shared database)."""
    found = await row(
        conn,
        "SELECT MIN(CASE WHEN due_at > ? THEN due_at ELSE claimed_until END) AS at FROM timers"
        " WHERE due_at > ? OR claimed_until >= ?",
        (now, now, now),
    )
    return None if found is None or found["at"] is None else float(found["at"])
