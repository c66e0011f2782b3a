"""The deadline clocks of a game's open decision."""

from __future__ import annotations

from typing import Any

from .models import ClockRow
from .sql import rows, run, run_many


async def clocks(conn: Any, game_id: int) -> list[ClockRow]:
    found = await rows(conn, "SELECT * FROM clocks WHERE game_id = ? ORDER BY position", (game_id,))
    return [ClockRow.from_row(r) for r in found]


async def replace_clocks(conn: Any, game_id: int, new: list[ClockRow]) -> None:
    await run(conn, "DELETE FROM clocks WHERE game_id = ?", (game_id,))
    await run_many(
        conn,
        "INSERT INTO clocks(game_id, clock, position, deadline_at, remaining) VALUES (?, ?, ?, ?, ?)",
        [(game_id, c.clock, c.position, c.deadline_at, c.remaining) for c in new],
    )
