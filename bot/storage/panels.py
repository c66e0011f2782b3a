"""Persistent panels: what a player picked on a panel message (its components carry only a nonce)."""

from __future__ import annotations

from typing import Any

from .models import PanelRow
from .sql import dumps, row, run


async def create_panel(
    conn: Any, nonce: str, game_id: int, user_id: int, step: int, data: dict[str, Any], now: float
) -> None:
    """A new panel; the player's older panel of the same form in this game is retired (one live each)."""
    form = str(data.get("form") or "")
    await run(conn, "DELETE FROM panels WHERE game_id = ? AND user_id = ? AND form = ?", (game_id, user_id, form))
    await run(
        conn,
        "INSERT INTO panels(nonce, game_id, user_id, step, form, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (nonce, game_id, user_id, step, form, dumps(data), now),
    )


async def get_panel(conn: Any, game_id: int, nonce: str) -> PanelRow | None:
    found = await row(conn, "SELECT * FROM panels WHERE nonce = ? AND game_id = ?", (nonce, game_id))
    return None if found is None else PanelRow.from_row(found)


async def update_panel(conn: Any, nonce: str, data: dict[str, Any]) -> None:
    await run(conn, "UPDATE panels SET data_json = ? WHERE nonce = ?", (dumps(data), nonce))


async def forget_panels(conn: Any, game_id: int) -> None:
    """Panels of finished games are useless; a click on one is refused anyway."""
    await run(conn, "DELETE FROM panels WHERE game_id = ?", (game_id,))
