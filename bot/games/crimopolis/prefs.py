"""Each seat's standing answer to reaction windows (`/crimopolis prefs reactions:ask|never|auto`).

Kept in memory (the step's messages are made synchronously, inside the step's transaction, and must know
whether to prompt) and saved as one JSON value in the database's key-value table, read back at start-up.
Preferences belong to a seat of a game (they follow a replaced seat) and are dropped when the game ends.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

ASK, NEVER, AUTO = "ask", "never", "auto"
CHOICES = (ASK, NEVER, AUTO)
KEY = "crimopolis:reaction_prefs"
WORDS = {
    ASK: "ask: I DM you and wait for your answer or the reaction deadline",
    NEVER: "never: I answer No reaction at once",
    AUTO: "auto: I answer at once with your lowest-numbered reaction fortune, or No reaction without one",
}


class Prefs:
    def __init__(self) -> None:
        self._by_game: dict[int, dict[str, str]] = {}
        self._lock = asyncio.Lock()

    def of(self, game_id: int) -> dict[str, str]:
        return dict(self._by_game.get(game_id, {}))

    def get(self, game_id: int, seat: str) -> str:
        return self._by_game.get(game_id, {}).get(seat, ASK)

    async def load(self, db: Any) -> None:
        raw = await db.get_meta(KEY)
        doc = json.loads(raw) if raw else {}
        self._by_game = {int(g): {str(s): str(p) for s, p in seats.items()} for g, seats in doc.items()}

    async def set(self, db: Any, game_id: int, seat: str, pref: str) -> None:
        assert pref in CHOICES
        async with self._lock:
            seats = self._by_game.setdefault(game_id, {})
            if pref == ASK:
                seats.pop(seat, None)
            else:
                seats[seat] = pref
            if not seats:
                self._by_game.pop(game_id, None)
            await self._save(db)

    async def forget(self, db: Any, game_id: int) -> None:
        async with self._lock:
            if self._by_game.pop(game_id, None) is not None:
                await self._save(db)

    async def _save(self, db: Any) -> None:
        await db.set_meta(KEY, json.dumps({str(g): s for g, s in sorted(self._by_game.items())}, sort_keys=True))
