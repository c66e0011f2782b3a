"""Persisted timers (deadlines, reminders, computer players' moves), each tied to its decision."""

from __future__ import annotations

from typing import Any

from .models import TimerRow
from .sql import insert, marks, row, rows, run


async def add_timer(conn: Any, game_id: int, kind: str, step: int, due_at: float, clock: str | None = None) -> int:
    return await insert(
        conn,
        "INSERT INTO timers(game_id, kind, step, clock, due_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, kind, step, clock, due_at),
    )


async def clear_timers(conn: Any, game_id: int, kinds: tuple[str, ...] | None = None) -> None:
    if kinds is None:
        await run(conn, "DELETE FROM timers WHERE game_id = ?", (game_id,))
    else:
        await run(conn, f"DELETE FROM timers WHERE game_id = ? AND kind IN ({marks(len(kinds))})", (game_id, *kinds))


async def timers_of(conn: Any, game_id: int) -> list[TimerRow]:
    return [TimerRow.from_row(r) for r in await rows(conn, "SELECT * FROM timers WHERE game_id = ?", (game_id,))]


async def due_timers(conn: Any, now: float, limit: int = 50) -> list[TimerRow]:
    found = await rows(conn, "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?", (now, limit))
    return [TimerRow.from_row(r) for r in found]


async def next_due(conn: Any, now: float) -> float | None:
    found = await row(conn, "SELECT MIN(due_at) AS at FROM timers WHERE due_at > ?", (now,))
    return None if found is None or found["at"] is None else float(found["at"])


async def delete_timer(conn: Any, timer_id: int) -> None:
    await run(conn, "DELETE FROM timers WHERE id = ?", (timer_id,))


async def postpone_timer(conn: Any, timer_id: int, due_at: float) -> None:
    await run(conn, "UPDATE timers SET due_at = ?, attempts = attempts + 1 WHERE id = ?", (due_at, timer_id))


async def move_timer(conn: Any, timer_id: int, due_at: float) -> None:
    """Bring a timer forward (or back) without counting it as a failed attempt."""
    await run(conn, "UPDATE timers SET due_at = ? WHERE id = ?", (due_at, timer_id))


_SAME = "id = ? AND game_id = ? AND kind = ? AND step = ? AND clock IS ?"


def _same(timer: TimerRow) -> tuple[Any, ...]:
    return (timer.id, timer.game_id, timer.kind, timer.step, timer.clock)


async def delete_fired(conn: Any, timer: TimerRow) -> None:
    """Delete a timer that fired, only if its row is still that timer: SQLite reuses the id of a deleted
    row, and a new timer (e.g. the next decision's) may have taken it while the handler ran."""
    await run(conn, f"DELETE FROM timers WHERE {_SAME}", _same(timer))


async def postpone_fired(conn: Any, timer: TimerRow, due_at: float) -> None:
    await run(conn, f"UPDATE timers SET due_at = ?, attempts = attempts + 1 WHERE {_SAME}", (due_at, *_same(timer)))
