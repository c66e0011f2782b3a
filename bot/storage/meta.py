"""The `meta` table's key/value settings, the same on both backends (their connections take the same calls)."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from .sql import row, run


class MetaStore:
    """`get_meta`, `set_meta` and `meta_default` for a database class with `fetchone` and `transaction`."""

    if TYPE_CHECKING:  # what the database class brings

        async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any: ...

        def transaction(self) -> AbstractAsyncContextManager[Any]: ...

    async def get_meta(self, key: str) -> str | None:
        found = await self.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if found is None else str(found["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as conn:
            await run(
                conn,
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def meta_default(self, key: str, value: str) -> str:
        """The key's value, set to `value` first if it has none (the first of several processes wins)."""
        async with self.transaction() as conn:
            await run(conn, "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", (key, value))
            found = await row(conn, "SELECT value FROM meta WHERE key = ?", (key,))
        assert found is not None
        return str(found["value"])
