"""Moves collected for a decision that resolves them together (`Pending.together`).

A write is guarded: it lands only while the game is still at the decision it was checked against
(`games.step`), so a submission racing a resolution is refused, never recorded for the next one.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .models import RUNNING
from .sql import dumps, loads, rows


async def collected(conn: Any, game_id: int, step: int) -> dict[str, dict[str, Any]]:
    found = await rows(conn, "SELECT seat, move_json FROM submissions WHERE game_id = ? AND step = ?", (game_id, step))
    return {r["seat"]: loads(r["move_json"]) for r in found}


async def collected_seats(conn: Any, game_id: int, step: int) -> set[str]:
    found = await rows(conn, "SELECT seat FROM submissions WHERE game_id = ? AND step = ?", (game_id, step))
    return {r["seat"] for r in found}


async def forget(conn: Any, game_id: int) -> None:
    """A finished game's collected moves are in its move log already."""
    await rows(conn, "DELETE FROM submissions WHERE game_id = ?", (game_id,))


@lru_cache(maxsize=64)
def guarded_upsert_sql(n: int, dialect: str = "sqlite") -> str:
    """Insert or replace `n` submissions, each only if its game is running at its step. PostgreSQL types
    a VALUES list's parameters from the list itself, so there each one says its type."""
    typed = "(?::bigint, ?::bigint, ?::text, ?::text, ?::bigint, ?::float8)"
    one = typed if dialect == "postgres" else "(?, ?, ?, ?, ?, ?)"
    values = ", ".join([one] * n)
    return (
        "INSERT INTO submissions(game_id, step, seat, move_json, user_id, at)"
        f" SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6 FROM (VALUES {values}) AS v"
        " WHERE EXISTS (SELECT 1 FROM games WHERE games.id = v.column1 AND games.step = v.column2"
        f" AND games.status = '{RUNNING}')"
        " ON CONFLICT(game_id, step, seat) DO UPDATE SET move_json = excluded.move_json,"
        " user_id = excluded.user_id, at = excluded.at"
    )


def guarded_values(
    game_id: int, step: int, seat: str, move: dict[str, Any], user_id: int | None, now: float
) -> tuple[Any, ...]:
    return (game_id, step, seat, dumps(move), user_id, now)
