"""Persistent action panels: what a player picked on a /crimecity panel message."""

from __future__ import annotations

import json

import aiosqlite

from .db import fetch_one
from .models import PanelRow


async def create_panel(
    conn: aiosqlite.Connection, nonce: str, game_id: int, user_id: int, phase_seq: int, now: float
) -> None:
    await conn.execute(
        "INSERT INTO panels(nonce, game_id, user_id, phase_seq, created_at) VALUES (?, ?, ?, ?, ?)",
        (nonce, game_id, user_id, phase_seq, now),
    )


async def get_panel(conn: aiosqlite.Connection, game_id: int, nonce: str) -> PanelRow | None:
    row = await fetch_one(conn, "SELECT * FROM panels WHERE nonce = ? AND game_id = ?", (nonce, game_id))
    return None if row is None else PanelRow.from_row(row)


async def update_panel(
    conn: aiosqlite.Connection, nonce: str, *, kind: str | None, page: int, picks: list[str]
) -> None:
    await conn.execute(
        "UPDATE panels SET kind = ?, page = ?, picks_json = ? WHERE nonce = ?", (kind, page, json.dumps(picks), nonce)
    )


async def forget_panels(conn: aiosqlite.Connection, game_id: int) -> None:
    """Panels of finished games are useless; a click on one is refused anyway."""
    await conn.execute("DELETE FROM panels WHERE game_id = ?", (game_id,))
