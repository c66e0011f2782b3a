"""The deadline clocks of a game's open decision."""

from __future__ import annotations

from typing import Any

from .models import ClockRow
from .sql import later, rows


async def clocks(conn: Any, game_id: int) -> list[ClockRow]:
    found = await rows(conn, "SELECT * FROM clocks WHERE game_id = ? ORDER BY position", (game_id,))
    return [ClockRow.from_row(r) for r in found]


async def replace_clocks(conn: Any, game_id: int, new: list[ClockRow]) -> None:
    """Writes nobody waits on (`sql.later`): a step that opens a decision waits for no answer before its COMMIT."""
    await later(conn, "DELETE FROM clocks WHERE game_id = ?", (game_id,))
    for c in new:
        await later(
            conn,
            "INSERT INTO clocks(game_id, clock, position, deadline_at, remaining) VALUES (?, ?, ?, ?, ?)",
            (game_id, c.clock, c.position, c.deadline_at, c.remaining),
        )
