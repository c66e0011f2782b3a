"""Outgoing messages written with the state change that caused them, and the undeliverable-DM inbox."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from .db import fetch_one
from .models import OutboxRow


async def queue_channel(
    conn: aiosqlite.Connection, game_id: int, channel_id: int, payload: dict[str, Any], now: float
) -> int:
    cur = await conn.execute(
        "INSERT INTO outbox(game_id, target, channel_id, payload_json, created_at) VALUES (?, 'channel', ?, ?, ?)",
        (game_id, channel_id, json.dumps(payload, sort_keys=True), now),
    )
    return int(cur.lastrowid)


async def queue_dm(conn: aiosqlite.Connection, game_id: int, seat: str, payload: dict[str, Any], now: float) -> int:
    cur = await conn.execute(
        "INSERT INTO outbox(game_id, target, seat, payload_json, created_at) VALUES (?, 'dm', ?, ?, ?)",
        (game_id, seat, json.dumps(payload, sort_keys=True), now),
    )
    return int(cur.lastrowid)


async def pending(conn: aiosqlite.Connection, now: float, limit: int = 50) -> list[OutboxRow]:
    rows = await conn.execute_fetchall(
        "SELECT * FROM outbox WHERE delivered_at IS NULL AND next_try_at <= ? ORDER BY id LIMIT ?", (now, limit)
    )
    return [OutboxRow.from_row(r) for r in rows]


async def next_retry_at(conn: aiosqlite.Connection) -> float | None:
    row = await fetch_one(conn, "SELECT MIN(next_try_at) FROM outbox WHERE delivered_at IS NULL")
    return None if row is None or row[0] is None else float(row[0])


async def count_pending(conn: aiosqlite.Connection) -> int:
    row = await fetch_one(conn, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
    return int(row[0])


async def mark_delivered(conn: aiosqlite.Connection, outbox_id: int, now: float, note: str | None = None) -> None:
    await conn.execute("UPDATE outbox SET delivered_at = ?, last_error = ? WHERE id = ?", (now, note, outbox_id))


async def mark_failed(conn: aiosqlite.Connection, outbox_id: int, error: str, retry_at: float) -> None:
    await conn.execute(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try_at = ? WHERE id = ?",
        (error[:500], retry_at, outbox_id),
    )


async def add_inbox(conn: aiosqlite.Connection, game_id: int, seat: str, content: str, now: float) -> None:
    await conn.execute(
        "INSERT INTO inbox(game_id, seat, content, created_at) VALUES (?, ?, ?, ?)", (game_id, seat, content, now)
    )


async def inbox(conn: aiosqlite.Connection, game_id: int, seat: str) -> list[tuple[int, str, bool]]:
    """(id, content, already_read) oldest first."""
    rows = await conn.execute_fetchall(
        "SELECT id, content, read_at FROM inbox WHERE game_id = ? AND seat = ? ORDER BY id", (game_id, seat)
    )
    return [(r["id"], r["content"], r["read_at"] is not None) for r in rows]


async def mark_inbox_read(
    conn: aiosqlite.Connection, game_id: int, seat: str, now: float, ids: list[int] | None = None
) -> None:
    """Marks the seat's unread items read (only `ids` when given: those the player was shown)."""
    sql = "UPDATE inbox SET read_at = ? WHERE game_id = ? AND seat = ? AND read_at IS NULL"
    args: list[object] = [now, game_id, seat]
    if ids is not None:
        sql += f" AND id IN ({','.join('?' for _ in ids)})"
        args += ids
    await conn.execute(sql, args)


async def seat_holders(conn: aiosqlite.Connection, game_ids: set[int]) -> dict[tuple[int, str], int]:
    """(game, seat) -> the user holding the seat, for every seat of these games."""
    if not game_ids:
        return {}
    marks = ", ".join("?" * len(game_ids))
    rows = await conn.execute_fetchall(
        f"SELECT game_id, seat, user_id FROM players WHERE game_id IN ({marks})", tuple(sorted(game_ids))
    )
    return {(r["game_id"], r["seat"]): int(r["user_id"]) for r in rows}
