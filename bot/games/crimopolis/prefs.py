"""Each seat's standing answer to reaction windows (`/crimopolis prefs reactions:ask|never|auto`).

Kept in memory (the step's messages are made synchronously, inside the step's transaction, and must know
whether to prompt) and saved as one JSON value in the database's key-value table, read back at start-up.
Preferences belong to a seat of a game (they follow a replaced seat) and are dropped when the game ends.

In team mode (R118) each member of a seat keeps their own (`<seat>@<user id>`; handed on with their place by
`admin replace`), and the seat answers with the stricter of its members' (`merge`): a member who set nothing
counts as `ask`. Ask is the strictest (nothing is answered without a member), then never (nothing is spent),
then auto (a fortune may be spent): so a window is answered by itself only as both members said, and a
fortune is spent only when both chose auto.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ...host import UserError

ASK, NEVER, AUTO = "ask", "never", "auto"
CHOICES = (ASK, NEVER, AUTO)
STRICTNESS = (ASK, NEVER, AUTO)  # strictest first (see the module's note)
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

    def of(self, game_id: int, members: Mapping[str, Sequence[int]]) -> dict[str, str]:
        """Each seat's answer (`members`: each seat's members), the stricter of a shared seat's two."""
        return {seat: self.get(game_id, seat, who) for seat, who in members.items()}

    def get(self, game_id: int, seat: str, members: Sequence[int] = ()) -> str:
        """The seat's answer: its own (a seat of one member), or the stricter of its members' (team mode)."""
        stored = self._by_game.get(game_id, {})
        wanted = [stored.get(f"{seat}@{u}", stored.get(seat, ASK)) for u in members] or [stored.get(seat, ASK)]
        return merge(wanted)

    def own(self, game_id: int, seat: str, member: int) -> str:
        """What one member of a shared seat chose (`ask` when nothing)."""
        stored = self._by_game.get(game_id, {})
        return stored.get(f"{seat}@{member}", stored.get(seat, ASK))

    async def load(self, db: Any) -> None:
        raw = await db.get_meta(KEY)
        doc = json.loads(raw) if raw else {}
        self._by_game = {int(g): {str(s): str(p) for s, p in seats.items()} for g, seats in doc.items()}

    async def set(self, db: Any, game_id: int, seat: str, pref: str, member: int | None = None) -> None:
        """The seat's preference; with `member` (team mode), that member's own."""
        if pref not in CHOICES:  # Discord offers only the choices; a stale or made-up request may not
            raise UserError(f"reactions must be one of {', '.join(CHOICES)}, not {pref[:40]!r}.")
        key = seat if member is None else f"{seat}@{member}"
        async with self._lock:
            seats = self._by_game.setdefault(game_id, {})
            if pref == ASK:
                seats.pop(key, None)
            else:
                seats[key] = pref
            if not seats:
                self._by_game.pop(game_id, None)
            await self._save(db)

    async def hand_on(self, db: Any, game_id: int, seat: str, old: int, new: int) -> None:
        """A team member's place handed to another member (`admin replace`): their preference goes with it."""
        async with self._lock:
            seats = self._by_game.get(game_id, {})
            pref = seats.pop(f"{seat}@{old}", None)
            if pref is None:
                return
            seats[f"{seat}@{new}"] = pref
            await self._save(db)

    def snapshot(self, game_id: int) -> dict[str, str]:
        """The game's preferences as they are now, for `restore`."""
        return dict(self._by_game.get(game_id, {}))

    async def restore(self, db: Any, game_id: int, saved: dict[str, str]) -> None:
        """The game's preferences put back as `snapshot` gave them (a replace that was refused)."""
        async with self._lock:
            if saved:
                self._by_game[game_id] = dict(saved)
            else:
                self._by_game.pop(game_id, None)
            await self._save(db)

    async def forget(self, db: Any, game_id: int) -> None:
        async with self._lock:
            if self._by_game.pop(game_id, None) is not None:
                await self._save(db)

    async def _save(self, db: Any) -> None:
        await db.set_meta(KEY, json.dumps({str(g): s for g, s in sorted(self._by_game.items())}, sort_keys=True))


def merge(prefs: Sequence[str]) -> str:
    """The strictest of some members' preferences (`ask` for none)."""
    return min(prefs, key=STRICTNESS.index, default=ASK)
