"""What a due timer does: a decision's deadline, "everyone is in", a reminder, a computer's move.

Each handler re-reads the game under its lock and acts only if the timer still belongs to the open
decision (and, for a deadline, if its clock still runs out now: an extension or a pause that won
the race makes it a no-op). A second firing of the same timer is therefore harmless.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..storage import Storage
from ..storage import clocks as clocks_repo
from ..storage import games as games_repo
from ..storage import submissions as subs_repo
from ..storage import timers as timers_repo
from ..storage.models import RUNNING, GameRow, TimerRow
from . import clocks
from .locks import Locks
from .play import Play
from .roster import Roster
from .stepper import COMPUTER, DEADLINE, REMINDER, RESOLVE, Stepper, counted

log = logging.getLogger(__name__)

SLACK = 0.001  # a deadline is "now" when the clock has less than this left


class Due:
    def __init__(
        self,
        db: Storage,
        stepper: Stepper,
        play: Play,
        locks: Locks,
        *,
        clock: Callable[[], float],
        committed: Callable[[], None],
    ) -> None:
        self.db = db
        self.stepper = stepper
        self.play = play
        self.locks = locks
        self.clock = clock
        self.committed = committed
        # Set by the computer players' service: what a due COMPUTER timer does.
        self.computer: Callable[[TimerRow], Awaitable[None]] | None = None

    async def __call__(self, timer: TimerRow) -> None:
        if timer.kind in (DEADLINE, RESOLVE):
            await self.resolve(timer)
        elif timer.kind == REMINDER:
            await self.remind(timer)
        elif timer.kind == COMPUTER and self.computer is not None:
            await self.computer(timer)

    async def resolve_now(self, game_id: int, step: int | None = None) -> bool:
        """Resolve the game's open decision now, as "everyone is in" does (only if it is still `step`)."""
        if step is None:
            game = await self.db.fetchone("SELECT step FROM games WHERE id = ?", (game_id,))
            if game is None:
                return False
            step = int(game["step"])
        return await self.resolve(TimerRow(0, game_id, RESOLVE, step, None, self.clock(), 0))

    async def resolve(self, timer: TimerRow) -> bool:
        done = False
        async with self.locks(timer.game_id):
            async with self.db.transaction() as conn:
                game = await games_repo.get_game(conn, timer.game_id)
                if game is not None and await self._still_due(conn, game, timer):
                    roster = Roster(await games_repo.seats(conn, game.id))
                    await self.stepper.resolve_collected(conn, game, roster, user_id=None)
                    done = True
            if done:
                self.committed()
                await self.play.prefetch(timer.game_id)
        return done

    async def _still_due(self, conn: Any, game: GameRow, timer: TimerRow) -> bool:
        if game.status != RUNNING or game.step != timer.step or game.pending is None:
            return False
        if timer.kind == RESOLVE:
            return True
        run = clocks.running(await clocks_repo.clocks(conn, game.id))
        if run is None or run.clock != timer.clock or run.deadline_at is None:
            return False
        return run.deadline_at <= self.clock() + SLACK

    async def remind(self, timer: TimerRow) -> None:
        async with self.locks(timer.game_id):
            async with self.db.transaction() as conn:
                # Gone in the same commit as the queued DMs: a crash can neither drop nor repeat them, and
                # a second firing (another process, once a claim lapsed) finds it gone and sends nothing.
                # (id 0: a reminder asked for directly, not a stored timer)
                # (only if its row is still this timer: SQLite reuses a deleted row's id)
                if not await timers_repo.delete_fired(conn, timer) and timer.id:
                    return
                game = await games_repo.get_game(conn, timer.game_id)
                if game is not None and game.status == RUNNING and game.step == timer.step and game.pending:
                    run = clocks.running(await clocks_repo.clocks(conn, game.id))
                    if run is not None and run.deadline_at is not None and run.clock == timer.clock:
                        roster = Roster(await games_repo.seats(conn, game.id))
                        owing = list(game.pending.awaited)
                        if game.pending.together:
                            rules = self.stepper.rules_of(game)
                            collected = await subs_repo.collected(conn, game.id, game.step)
                            done = counted(rules, self.stepper.states.get(rules, game), collected)
                            owing = [s for s in owing if s not in done]
                        humans = tuple(s for s in owing if roster.user_of(s) is not None)
                        if humans:
                            await self.stepper.remind(conn, game, roster, humans, run.deadline_at)
            self.committed()
