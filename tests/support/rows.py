"""Minimal rows for storage-level tests (only the columns the code under test reads matter)."""

from __future__ import annotations

from typing import Any


async def games(conn: Any, ids: list[int], *, status: str = "running", step: int = 0, kind: str = "crimecity") -> None:
    for gid in ids:
        await conn.execute(
            "INSERT INTO games(id, kind, guild_id, channel_id, host_id, status, settings_json, options_json, step,"
            " created_at) VALUES (?, ?, 1, ?, 1, ?, '{}', '{}', ?, 0)",
            (gid, kind, 100 + gid, status, step),
        )
