"""Games and their players (seat ids mapped to Discord users)."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from .db import fetch_one
from .models import ACTIVE_STATUSES, GameRow, PlayerRow

_ACTIVE = "status IN ({})".format(",".join(f"'{s}'" for s in ACTIVE_STATUSES))


async def create_game(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    rounds_total: int,
    deadline_hours: float,
    start_garnets: int,
    wait_for_deadline: bool,
    now: float,
    reminder_hours: float = 1.0,
) -> int:
    cur = await conn.execute(
        "INSERT INTO games(guild_id, channel_id, host_id, status, rounds_total, deadline_hours, start_garnets,"
        " wait_for_deadline, created_at, reminder_hours) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            host_id,
            rounds_total,
            deadline_hours,
            start_garnets,
            int(wait_for_deadline),
            now,
            reminder_hours,
        ),
    )
    return int(cur.lastrowid)


async def get_game(conn: aiosqlite.Connection, game_id: int) -> GameRow | None:
    row = await fetch_one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
    return None if row is None else GameRow.from_row(row)


async def active_game_in_channel(conn: aiosqlite.Connection, channel_id: int) -> GameRow | None:
    # `status != 'ended'` repeats the partial index's WHERE, so SQLite can use the index (else a full scan).
    sql = f"SELECT * FROM games WHERE channel_id = ? AND status != 'ended' AND {_ACTIVE}"
    row = await fetch_one(conn, sql, (channel_id,))
    return None if row is None else GameRow.from_row(row)


async def active_games(conn: aiosqlite.Connection) -> list[GameRow]:
    rows = await conn.execute_fetchall(f"SELECT * FROM games WHERE {_ACTIVE} ORDER BY id")
    return [GameRow.from_row(r) for r in rows]


async def active_games_of_user(conn: aiosqlite.Connection, user_id: int) -> list[GameRow]:
    """Games (not ended) where the user holds a seat or is the host."""
    rows = await conn.execute_fetchall(
        f"SELECT * FROM games WHERE {_ACTIVE} AND (host_id = ? OR id IN"
        " (SELECT game_id FROM players WHERE user_id = ?)) ORDER BY id",
        (user_id, user_id),
    )
    return [GameRow.from_row(r) for r in rows]


async def update_game(conn: aiosqlite.Connection, game_id: int, **fields: Any) -> None:
    """Set columns; *_json columns take Python values and are dumped here."""
    cols, values = [], []
    for key, value in fields.items():
        if key.endswith("_json") and value is not None:
            value = json.dumps(value, sort_keys=True)
        cols.append(f"{key} = ?")
        values.append(value)
    await conn.execute(f"UPDATE games SET {', '.join(cols)} WHERE id = ?", (*values, game_id))


async def advance_phase(conn: aiosqlite.Connection, game_id: int, expected_seq: int, **fields: Any) -> bool:
    """Compare-and-set on phase_seq: True when this caller moved the game to the next phase."""
    cols, values = ["phase_seq = phase_seq + 1"], []
    for key, value in fields.items():
        if key.endswith("_json") and value is not None:
            value = json.dumps(value, sort_keys=True)
        cols.append(f"{key} = ?")
        values.append(value)
    cur = await conn.execute(
        f"UPDATE games SET {', '.join(cols)} WHERE id = ? AND phase_seq = ?", (*values, game_id, expected_seq)
    )
    return cur.rowcount == 1


# ---- players ---------------------------------------------------------------------------------


async def players(conn: aiosqlite.Connection, game_id: int) -> list[PlayerRow]:
    rows = await conn.execute_fetchall("SELECT * FROM players WHERE game_id = ? ORDER BY join_seq", (game_id,))
    return [PlayerRow.from_row(r) for r in rows]


async def add_player(
    conn: aiosqlite.Connection,
    game_id: int,
    *,
    user_id: int,
    user_name: str,
    display_name: str,
    start_garnets: int,
    now: float,
) -> PlayerRow:
    row = await fetch_one(conn, "SELECT COALESCE(MAX(join_seq), 0) + 1 FROM players WHERE game_id = ?", (game_id,))
    seq = int(row[0])
    seat = f"p{seq}"
    await conn.execute(
        "INSERT INTO players(game_id, seat, join_seq, user_id, user_name, display_name, start_garnets, joined_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, seat, seq, user_id, user_name, display_name, start_garnets, now),
    )
    return PlayerRow(game_id, seat, seq, user_id, user_name, display_name, start_garnets)


async def remove_player(conn: aiosqlite.Connection, game_id: int, seat: str) -> None:
    await conn.execute("DELETE FROM players WHERE game_id = ? AND seat = ?", (game_id, seat))


async def reassign_seat(
    conn: aiosqlite.Connection, game_id: int, seat: str, *, user_id: int, user_name: str, display_name: str
) -> None:
    await conn.execute(
        "UPDATE players SET user_id = ?, user_name = ?, display_name = ? WHERE game_id = ? AND seat = ?",
        (user_id, user_name, display_name, game_id, seat),
    )


async def set_start_garnets(conn: aiosqlite.Connection, game_id: int, seat: str, amount: int) -> None:
    await conn.execute("UPDATE players SET start_garnets = ? WHERE game_id = ? AND seat = ?", (amount, game_id, seat))
