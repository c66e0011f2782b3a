"""Persistent panels: a message whose components carry only `<prefix>:<game>:<nonce>:<part>`.

What the player picked lives in a row keyed by a random nonce, so a panel works after a restart.
Every click reloads the row and the game and checks again who clicks and for which decision, so a
stale or borrowed panel is refused (a shared seat's panel serves either of its members). A player
keeps one live panel per game: opening a new one retires the older (the table cannot grow with clicks).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..storage import Storage
from ..storage import games as games_repo
from ..storage import panels as panels_repo
from ..storage.models import RUNNING, GameRow, PanelRow
from .context import Caller
from .errors import NotAllowed, Stale, UserError
from .roster import Roster


@dataclass(frozen=True, slots=True)
class Panel:
    row: PanelRow
    game: GameRow
    roster: Roster
    seat: str


class Panels:
    def __init__(self, db: Storage, *, clock: Callable[[], float], reopen: str) -> None:
        self.db = db
        self.clock = clock
        self.reopen = reopen  # how to get a fresh panel, in the game's words

    async def open(self, game: GameRow, user_id: int, data: dict[str, Any]) -> PanelRow:
        nonce = secrets.token_hex(6)
        async with self.db.transaction() as conn:
            await panels_repo.create_panel(conn, nonce, game.id, user_id, game.step, data, self.clock())
        return PanelRow(nonce, game.id, user_id, game.step, data)

    async def get(
        self, caller: Caller, game_id: int, nonce: str, *, reopen: str | None = None, resolved: str | None = None,
        any_step: bool = False,
    ) -> Panel:
        """The panel, if the caller may use it now. `resolved`: what to say when its decision is over.
        `any_step`: a panel of an earlier step of a running game too (its game re-checks the click against
        the step open now)."""
        again = reopen or self.reopen
        async with self.db.read() as conn:
            row = await panels_repo.get_panel(conn, game_id, nonce)
            game = await games_repo.get_game(conn, game_id)
            roster = Roster(await games_repo.seats(conn, game_id)) if game is not None else Roster([])
        if row is None or game is None:
            raise Stale(f"This panel is no longer in use (its game has ended, or you opened a newer one). {again}")
        seat = roster.seat_of(caller.user_id)
        # A panel belongs to its seat: a shared seat's other member may use it too.
        if caller.user_id != row.user_id and (seat is None or seat != roster.seat_of(row.user_id)):
            raise NotAllowed(f"This panel belongs to another player. {again}")
        if seat is None:
            raise NotAllowed("You no longer hold a seat in this game.")
        if game.status != RUNNING or (game.step != row.step and not any_step):
            raise Stale(f"{resolved or 'This panel was for a decision that has been resolved.'} {again}")
        return Panel(row, game, roster, seat)

    async def save(self, nonce: str, data: dict[str, Any]) -> None:
        async with self.db.transaction() as conn:
            await panels_repo.update_panel(conn, nonce, data)


def check_step(panel: Panel, game: GameRow) -> None:
    if panel.row.step != game.step:
        raise UserError("This panel was for a decision that has been resolved.")
