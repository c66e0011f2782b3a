"""Persisted timers: deadlines and reminders, each tied to the phase it belongs to."""

from __future__ import annotations

import aiosqlite

from .db import fetch_one
from .models import TimerRow


async def add_timer(conn: aiosqlite.Connection, game_id: int, kind: str, phase_seq: int, due_at: float) -> int:
    cur = await conn.execute(
        "INSERT INTO timers(game_id, kind, phase_seq, due_at) VALUES (?, ?, ?, ?)", (game_id, kind, phase_seq, due_at)
    )
    return int(cur.lastrowid)


async def clear_timers(conn: aiosqlite.Connection, game_id: int, kinds: tuple[str, ...] | None = None) -> None:
    if kinds is None:
        await conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
    else:
        marks = ",".join("?" for _ in kinds)
        await conn.execute(f"DELETE FROM timers WHERE game_id = ? AND kind IN ({marks})", (game_id, *kinds))


async def next_timer(conn: aiosqlite.Connection) -> TimerRow | None:
    row = await fetch_one(conn, "SELECT * FROM timers ORDER BY due_at, id LIMIT 1")
    return None if row is None else TimerRow.from_row(row)


async def due_timers(conn: aiosqlite.Connection, now: float, limit: int = 50) -> list[TimerRow]:
    rows = await conn.execute_fetchall(
        "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?", (now, limit)
    )
    return [TimerRow.from_row(r) for r in rows]


async def delete_timer(conn: aiosqlite.Connection, timer_id: int) -> None:
    await conn.execute("DELETE FROM timers WHERE id = ?", (timer_id,))


async def postpone_timer(conn: aiosqlite.Connection, timer_id: int, due_at: float) -> None:
    await conn.execute("UPDATE timers SET due_at = ?, attempts = attempts + 1 WHERE id = ?", (due_at, timer_id))
