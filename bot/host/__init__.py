"""The host: runs every game of the bot the same way, and imports none of them.

Lobby, seats, moves (collected or applied at once), deadlines and reminders, pause, replace, end,
export, status/board/history, panels, outbox, inbox and timers. A game plugs in through its rules
(`rules.contract.Game`) and its presentation (`Presentation`, bot/games/<game>/). This module is
the host's public API: what a presentation may use.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..aio import settled
from ..storage import Storage
from ..storage.models import ENDED, LOBBY, RUNNING, GameRow, HostOptions, SeatRow
from .buttons import JOIN, LEAVE, START
from .buttons import view as host_buttons
from .clocks import reminder_at
from .commands import (
    APOLOGY,
    EMBED_COLOUR,
    GAME_HELP,
    MAX_CHOICES,
    answer,
    caller_of,
    clip,
    defer_public,
    game_choices,
    matches,
    send_ephemeral,
    timestamp,
    user_message,
)
from .computers import Computers, Timing
from .computers import levels as computer_levels
from .context import Caller, Member
from .due import Due
from .errors import NoGame, NotAllowed, Refused, Stale, UserError
from .finder import Finder, Seated
from .hosting import ClockState, Hosting
from .limits import Limits
from .lobby import Lobby, players_text
from .locks import Locks
from .panels import Panel, Panels
from .play import Play, Played, Turn
from .presenting import (
    DM,
    HISTORY,
    STATUS,
    SUBMIT,
    Message,
    ModalHandler,
    Post,
    Presentation,
    Reminder,
    Reply,
    StepView,
)
from .reports import Board, History, Reports, Status
from .roster import Roster
from .seasons import Outcome as SeasonOutcome
from .seasons import Season, Seasons, Standing
from .stepper import Advance, States, Stepper


class Host:
    """Every service of the host, wired together. `committed` is called after each commit that may
    have queued messages or timers (the bot wakes its outbox sender and timer dispatcher)."""

    def __init__(
        self,
        db: Storage,
        presentations: Mapping[str, Presentation],
        *,
        clock: Callable[[], float] = time.time,
        host_role: str | None = None,
        computer_delay: float = 1.0,
    ) -> None:
        self.db = db
        self.clock = clock
        self.presentations = presentations
        self.locks = Locks(db)
        self.states = States()
        self.outbox_changed: Callable[[], None] = lambda: None
        self.timers_changed: Callable[[], None] = lambda: None
        # A game's board picture from its public view, off the event loop (the bot draws it in its picture
        # worker processes: bot/host/pictures.py); None when the game draws none or drawing failed.
        self.draw: Callable[[str, dict[str, Any]], Awaitable[bytes | None]] = self._draw_here
        committed = self._committed
        self.finder = Finder(db, lambda kind: presentations[kind].game.info.title, host_role=host_role)
        self.stepper = Stepper(presentations, self.states, clock=clock)
        self.lobby = Lobby(db, self.finder, self.stepper, self.locks, presentations, clock=clock, committed=committed)
        self.play = Play(
            db, self.finder, self.stepper, self.locks, presentations, clock=clock, committed=committed,
            queued=lambda: self.outbox_changed(),
        )
        self.hosting = Hosting(
            db, self.finder, self.stepper, self.locks, presentations, clock=clock, committed=committed
        )
        self.reports = Reports(db, self.finder, self.states, presentations, self.play, clock=clock)
        self.panels = Panels(db, clock=clock, reopen="Open a new one.")
        self.due = Due(db, self.stepper, self.play, self.locks, clock=clock, committed=committed)
        # Computer players' seats: their timing (`computer_delay` scales every delay) and their moves.
        self.computers = Computers(db, self.stepper, self.play, presentations, timing=Timing(scale=computer_delay))
        self.due.computer = self.computers.move
        self.limits = Limits()
        self.seasons = Seasons(db, self.finder, clock=clock)
        self.stepper.on_end = self._ended
        self.lobby.seasons = self.seasons
        self.hosting.seasons = self.seasons

    async def _ended(self, conn: Any, game: GameRow, roster: Roster, view: StepView) -> None:
        """A game's end, inside its last transaction: its match in its season (once)."""
        if game.season_id is None:
            return
        outcome_of = getattr(self.presentations[game.kind], "season_outcome", None)
        outcome = None if outcome_of is None else outcome_of(view)
        if outcome is not None:
            await self.seasons.record_game(conn, game, roster, outcome)

    async def _draw_here(self, kind: str, view: dict[str, Any]) -> bytes | None:
        presentation = self.presentations.get(kind)
        return None if presentation is None else await asyncio.to_thread(presentation.picture, view)

    def _committed(self) -> None:
        self.outbox_changed()
        self.timers_changed()

    async def pending_outbox(self) -> int:
        from ..storage import outbox as outbox_repo

        async with self.db.read() as conn:
            return await outbox_repo.count_pending(conn)


__all__ = [
    "APOLOGY",
    "Advance",
    "Board",
    "Caller",
    "Computers",
    "ClockState",
    "DM",
    "Due",
    "EMBED_COLOUR",
    "ENDED",
    "Finder",
    "GAME_HELP",
    "GameRow",
    "HISTORY",
    "History",
    "Host",
    "HostOptions",
    "Hosting",
    "JOIN",
    "LEAVE",
    "LOBBY",
    "Lobby",
    "Limits",
    "Locks",
    "MAX_CHOICES",
    "Member",
    "Message",
    "ModalHandler",
    "NoGame",
    "NotAllowed",
    "Panel",
    "Panels",
    "Play",
    "Played",
    "Post",
    "Presentation",
    "RUNNING",
    "Refused",
    "Reminder",
    "Reply",
    "Reports",
    "Roster",
    "Season",
    "SeasonOutcome",
    "Seasons",
    "Standing",
    "START",
    "STATUS",
    "SUBMIT",
    "SeatRow",
    "Seated",
    "Stale",
    "States",
    "Status",
    "StepView",
    "Stepper",
    "Turn",
    "UserError",
    "answer",
    "caller_of",
    "computer_levels",
    "clip",
    "defer_public",
    "game_choices",
    "host_buttons",
    "matches",
    "outbox_repo",
    "players_text",
    "reminder_at",
    "send_ephemeral",
    "settled",
    "timestamp",
    "user_message",
]
