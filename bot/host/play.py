"""Players' moves: collected for a decision resolved together, or applied at once, one by one.

The one rule the collected path relies on: every write to a game's rows holds that game's lock
(`Locks`). Submissions read a game's context (its row, seats and collected moves) under the lock and
keep it in memory; whoever else takes the lock forgets it. Every write returns only once committed,
before the lock is released, so while the submission path holds the lock its context is current.
The write itself re-checks the decision (`games.step`) too, so a submission can never land on the
next decision, whatever happened.

On a database shared by several processes (`db.shared`), another process may write between two
commands of this one, so nothing is remembered: every move reads its context under the game's lock,
which is then the database's lock too (bot/host/locks.py), and "everyone is in" is decided from the
moves in the database, whichever process collected them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from rules.contract import Action, Move, Pending

from ..storage import Storage
from ..storage import clocks as clocks_repo
from ..storage import games as games_repo
from ..storage import submissions as subs_repo
from ..storage import timers as timers_repo
from ..storage.models import RUNNING, ClockRow, GameRow, SeatRow
from ..storage.sql import dialect, row, run
from ..storage.submission_writer import SubmissionWriter
from .context import Caller
from .errors import NoGame, NotAllowed, Refused, Stale, UserError
from .finder import Finder
from .locks import Locks
from .presenting import Presentation, capital, title_of
from .roster import Roster
from .stepper import RESOLVE, Advance, Conflict, Stepper, counted

log = logging.getLogger(__name__)

CONTEXTS_MAX = 4096


@dataclass(frozen=True, slots=True)
class Context:
    """What a move is checked against: the game, its seats and the moves collected for its decision."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    collected: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    clocks: tuple[ClockRow, ...] = ()
    known_roster: Roster | None = field(default=None, repr=False, compare=False)  # of `seats`, when built

    @property
    def roster(self) -> Roster:
        """The seats' roster, built once and handed on to the copies made after a move."""
        if self.known_roster is None:
            object.__setattr__(self, "known_roster", Roster(self.seats))
        assert self.known_roster is not None
        return self.known_roster

    def seat_of(self, user_id: int) -> str | None:
        for seat in self.seats:
            if seat.user_id == user_id or seat.partner_id == user_id:  # either member of a shared seat
                return seat.seat
        return None

    def with_move(self, seat: str, move: dict[str, Any]) -> Context:
        return replace(self, collected={**self.collected, seat: move})


@dataclass(frozen=True, slots=True)
class Turn:
    """The caller's part in the open decision, as a presentation builds a move from it."""

    game: GameRow
    roster: Roster
    seat: str
    state: Any  # decoded; read it through the game's `view`
    mine: dict[str, Any] | None  # this seat's collected move so far (decisions resolved together)


@dataclass(frozen=True, slots=True)
class Played:
    """A move accepted: collected (`advance` None) or applied (`advance` the step)."""

    turn: Turn
    move: dict[str, Any]
    advance: Advance | None = None
    all_in: bool = False


Build = Callable[[Turn], Move]


class Play:
    def __init__(
        self,
        db: Storage,
        finder: Finder,
        stepper: Stepper,
        locks: Locks,
        presentations: Mapping[str, Presentation],
        *,
        clock: Callable[[], float],
        committed: Callable[[], None],
        queued: Callable[[], None] | None = None,
    ) -> None:
        self.db = db
        self.finder = finder
        self.stepper = stepper
        self.locks = locks
        self.presentations = presentations
        self.clock = clock
        self.committed = committed
        # After a commit that queued messages and left every timer as it was (most steps within a turn).
        self.queued = queued or committed
        self.writer = SubmissionWriter(db)
        self._contexts: dict[int, Context] = {}
        self._shared = bool(getattr(db, "shared", False))
        # channel id -> the id of the game last found active there: saves a read per command. A hint only:
        # whoever uses it re-checks, in the read it makes anyway, that the game is still that channel's.
        self._channel_games: dict[int, int] = {}
        locks.on_forget(self._forget)

    def _forget(self, game_id: int) -> None:
        self._contexts.pop(game_id, None)

    # ---- the moves -----------------------------------------------------------------------------------

    async def submit(self, caller: Caller, kind: str, build: Build, game_opt: str | None = None) -> Played:
        """The caller's move for the open decision: built from their turn, checked by the rules, then
        collected (replacing their previous one) or applied at once."""
        async with self._turn(caller, kind, game_opt) as (ctx, turn):
            rules = self.presentations[kind].game
            pending = ctx.game.pending
            assert pending is not None
            move = dict(build(turn))
            refusal = rules.check(turn.state, turn.seat, move)
            if refusal is not None:
                raise Refused(refusal.code, refusal.message)
            return await self._accept(ctx, turn, move, caller.user_id)

    async def submit_seat(
        self, game_id: int, seat: str, step: int, version: int, build: Callable[[Turn], Move | None]
    ) -> Played | None:
        """A computer player's move for `seat`, through the same path as a member's (collected, or applied
        at once; logged the same way, with no user). None, with nothing written, when the game is no longer
        at `step` and `version`, the seat is no longer a computer player's, or `build` gives no move.
        `build` must give a move the rules accept (it is checked again here)."""
        async with self.locks(game_id):
            ctx = await self._context(game_id)
            if ctx is None:
                return None
            game = ctx.game
            holder = next((s for s in ctx.seats if s.seat == seat), None)
            if game.status != RUNNING or game.pending is None or game.step != step or game.version != version:
                return None
            if holder is None or holder.computer is None or not game.pending.may_act(seat):
                return None
            rules = self.presentations[game.kind].game
            state = self.stepper.states.get(rules, game)
            turn = Turn(game, ctx.roster, seat, state, ctx.collected.get(seat))
            built = build(turn)
            if built is None:
                return None
            move = dict(built)
            refusal = rules.check(state, seat, move)
            if refusal is not None:
                raise Refused(refusal.code, refusal.message)
            return await self._accept(ctx, turn, move, None)

    async def _accept(self, ctx: Context, turn: Turn, move: dict[str, Any], user_id: int | None) -> Played:
        """Holding the game's lock, a checked move: collected, or applied at once."""
        pending = ctx.game.pending
        assert pending is not None
        if pending.together:
            all_in = await self._collect(ctx, turn, move, user_id)
            return Played(turn, move, all_in=all_in)
        # Holding the lock, the context is the game as committed (the module's rule); the step's own
        # compare-and-set on the version is the second line.
        self._contexts.pop(ctx.game.id, None)  # back only once the step is known to be committed
        try:
            async with self.db.transaction() as conn:
                advance = await self.stepper.advance(
                    conn, ctx.game, ctx.roster, [Action(turn.seat, move)], user_id=user_id,
                    state=turn.state, known_clocks=ctx.clocks,
                )
        except Conflict:
            raise Stale("The game moved on just before your move arrived; look at it again and retry.") from None
        if advance.game.status == RUNNING:
            # The next move of the game (often the same player's, within a turn) needs no read: a step
            # changes no seat, and the decision it leaves open has nothing collected yet (a new step),
            # or is the one just played in, which collects nothing (applied at once).
            self._remember(Context(advance.game, ctx.seats, {}, advance.clocks, ctx.roster))
        (self.committed if advance.timers else self.queued)()
        return Played(turn, move, advance)

    async def peek(self, caller: Caller, kind: str, game_opt: str | None = None) -> Context:
        """The context of the caller's game (remembered, else read once, without the lock): for reads
        that answer the caller only (a status), never for a write."""
        game_id, hinted = await self._game_id(caller, kind, game_opt)
        ctx = self._contexts.get(game_id) or await self._read(game_id)
        if hinted and self._stale(ctx, caller):
            game_id, _ = await self._game_id(caller, kind, game_opt, fresh=True)
            ctx = self._contexts.get(game_id) or await self._read(game_id)
        self._same_kind(ctx, caller, kind)
        assert ctx is not None
        return ctx

    async def turn(self, caller: Caller, kind: str, game_opt: str | None = None) -> Turn | None:
        """The caller's turn for autocomplete and panels: None when nothing awaits them. At most one
        read and no lock: it only offers; the move itself re-checks everything."""
        try:
            game_id, hinted = await self._game_id(caller, kind, game_opt)
            ctx = self._contexts.get(game_id) or await self._read(game_id)
            if hinted and self._stale(ctx, caller):
                game_id, _ = await self._game_id(caller, kind, game_opt, fresh=True)
                ctx = self._contexts.get(game_id) or await self._read(game_id)
        except UserError:
            return None
        if ctx is None or ctx.game.kind != kind or ctx.game.status != RUNNING or ctx.game.pending is None:
            return None
        seat = ctx.seat_of(caller.user_id)
        if seat is None:
            return None
        state = self.stepper.states.get(self.presentations[kind].game, ctx.game)
        return Turn(ctx.game, ctx.roster, seat, state, ctx.collected.get(seat))

    # ---- collecting ----------------------------------------------------------------------------------

    async def _collect(self, ctx: Context, turn: Turn, move: dict[str, Any], user_id: int | None) -> bool:
        """Write the seat's move, guarded by the decision; True when it completes the decision and
        the decision resolves now (the move and a due timer committed together)."""
        game, seat = ctx.game, turn.seat
        pending = game.pending
        assert pending is not None
        rules = self.presentations[game.kind].game
        done = counted(rules, turn.state, {**ctx.collected, seat: move})
        all_in = not game.options.wait_for_deadline and not game.paused and set(pending.awaited) <= done
        self._contexts.pop(game.id, None)  # back only once the move is known to be written
        now = self.clock()
        if all_in:
            async with self.db.transaction() as conn:
                sql = subs_repo.guarded_upsert_sql(1, dialect(conn))
                ok = await run(conn, sql, subs_repo.guarded_values(game.id, game.step, seat, move, user_id, now)) > 0
                if ok:
                    await timers_repo.add_timer(conn, game.id, RESOLVE, game.step, now)
            if ok:
                self.committed()
        else:
            # Nothing the timer and outbox loops watch changes: no need to wake them.
            ok = await self.writer.put_if_open(game.id, game.step, seat, move, user_id, now)
        if not ok:
            title = capital(title_of(self.presentations[game.kind], pending))
            raise Stale(
                f"{title} was resolved just before your command arrived, so it was not recorded. "
                "Look at the new board and submit again."
            )
        self._remember(ctx.with_move(seat, move))
        if not all_in and self._computers_wait(ctx, set(pending.awaited) - done):
            # The last member is in: the computer players move within seconds, not at their own pace.
            async with self.db.transaction() as conn:
                await self.stepper.arm_computers(conn, game, ctx.roster, done, now)
            self.committed()
        return all_in

    @staticmethod
    def _computers_wait(ctx: Context, owing: set[str]) -> bool:
        """Only computer players' seats still owe a move (so they should make it now)."""
        kinds = {s.seat: s.computer for s in ctx.seats}
        return bool(owing) and all(kinds.get(seat) is not None for seat in owing)

    # ---- contexts --------------------------------------------------------------------------------------

    @asynccontextmanager
    async def _turn(self, caller: Caller, kind: str, game_opt: str | None) -> AsyncIterator[tuple[Context, Turn]]:
        """Holding the game's lock: its context and the caller's turn."""
        game_id, hinted = await self._game_id(caller, kind, game_opt)
        lock = self.locks(game_id)
        await lock.acquire_keeping()
        try:
            ctx = await self._context(game_id)
            if not (hinted and self._stale(ctx, caller)):
                turn = await self._checked(ctx, caller, kind)
                assert ctx is not None  # _checked refuses a missing game
                yield ctx, turn
                return
        finally:
            lock.release()
        game_id, _ = await self._game_id(caller, kind, game_opt, fresh=True)  # the hinted game is over
        lock = self.locks(game_id)
        await lock.acquire_keeping()
        try:
            ctx = await self._context(game_id)
            turn = await self._checked(ctx, caller, kind)
            assert ctx is not None  # _checked refuses a missing game
            yield ctx, turn
        finally:
            lock.release()

    def _same_kind(self, ctx: Context | None, caller: Caller, kind: str) -> None:
        """The game found is of `kind`; a channel hint may name the channel's game of another kind, which the
        caller is told of as the finder tells it."""
        if ctx is not None and ctx.game.kind != kind and caller.in_guild:
            raise self.finder.other_kind(ctx.game.kind)
        if ctx is None or ctx.game.kind != kind:
            raise NoGame("That game no longer exists.")

    async def _checked(self, ctx: Context | None, caller: Caller, kind: str) -> Turn:
        self._same_kind(ctx, caller, kind)
        assert ctx is not None
        seat = ctx.seat_of(caller.user_id)
        if seat is None:
            raise NotAllowed("You are not a player in this game, so you cannot do that here.")
        game = ctx.game
        if game.status != RUNNING or game.pending is None:
            raise UserError("Nothing is open for moves in this game.", "not_running")
        opened = game.step_opened_at
        if caller.issued_at is not None and opened is not None and caller.issued_at < opened:
            presentation = self.presentations[kind]
            before = await self._decision_before(game)
            now = capital(title_of(presentation, game.pending))
            if before is not None and not before.together:  # a move, not a resolution, opened the decision
                raise Stale(
                    f"The game moved on just before your command arrived, so it was not recorded. {now} is open "
                    "now: look at the board and send your move again if it still applies."
                )
            raise Stale(
                f"{capital(title_of(presentation, before))} was resolved just before your command arrived, so it "
                f"was not recorded. {now} is open now: look at the new board and submit again."
            )
        state = self.stepper.states.get(self.presentations[kind].game, game)
        return Turn(game, ctx.roster, seat, state, ctx.collected.get(seat))

    async def _decision_before(self, game: GameRow) -> Pending | None:
        async with self.db.reader() as conn:
            found = await row(
                conn, "SELECT pending_json FROM steps WHERE game_id = ? AND step = ?", (game.id, game.step - 1)
            )
        return None if found is None else Pending.from_json(json.loads(found["pending_json"]))

    async def _context(self, game_id: int) -> Context | None:
        """Holding the game's lock: its current context (remembered, else read and remembered)."""
        ctx = self._contexts.get(game_id)
        if ctx is None:
            ctx = await self._read(game_id)
            if ctx is not None:
                self._remember(ctx)
        return ctx

    async def _read(self, game_id: int) -> Context | None:
        async with self.db.read() as conn:
            game = await games_repo.get_game(conn, game_id)
            if game is None:
                return None
            seats = await games_repo.seats(conn, game_id)
            collected = {}
            if game.pending is not None and game.pending.together:
                collected = await subs_repo.collected(conn, game_id, game.step)
            clocks = await clocks_repo.clocks(conn, game_id)
        return Context(game, tuple(seats), collected, tuple(clocks))

    def _remember(self, ctx: Context) -> None:
        if self._shared:
            return
        contexts = self._contexts
        if ctx.game.id not in contexts and len(contexts) >= CONTEXTS_MAX:
            del contexts[next(iter(contexts))]
        contexts[ctx.game.id] = ctx

    async def _game_id(
        self, caller: Caller, kind: str, game_opt: str | None, *, fresh: bool = False
    ) -> tuple[int, bool]:
        """The id of the game a command is for, and whether it came from the channel hint (unchecked)."""
        channel = caller.channel_id if caller.in_guild else None
        if channel is not None and not fresh:
            hint = self._channel_games.get(channel)
            if hint is not None:
                return hint, True
        game = await self.finder.game(caller, kind, game_opt)
        if channel is not None:
            self._channel_games[channel] = game.id
        return game.id, False

    def _stale(self, ctx: Context | None, caller: Caller) -> bool:
        """The hinted game is no longer the channel's active game (it ended, or is gone)."""
        stale = ctx is None or ctx.game.channel_id != caller.channel_id or not ctx.game.active
        if stale and caller.channel_id is not None:
            self._channel_games.pop(caller.channel_id, None)
        return stale

    async def prefetch(self, game_id: int) -> None:
        """Holding the game's lock, just after a step (or at start-up): read the new decision's context
        now, so its first move (everyone moves right after a new board) does not wait for it."""
        if self._shared:
            return  # it would not be remembered
        try:
            await self._context(game_id)
        except Exception:  # only an optimisation: the first move will read it instead
            log.debug("could not read game %s's context", game_id, exc_info=True)

    async def warm(self) -> int:
        """At start-up, in the background: the context of every running game, under each game's lock."""
        if self._shared:
            return 0  # nothing is remembered
        found = await self.db.fetchall("SELECT id FROM games WHERE status = ? ORDER BY id DESC", (RUNNING,))
        warmed = 0
        for r in found[:CONTEXTS_MAX]:
            game_id = r["id"]
            lock = self.locks(game_id)
            if lock.locked() or game_id in self._contexts:
                continue
            await lock.acquire_keeping()
            try:
                await self.prefetch(game_id)
            finally:
                lock.release()
            warmed += game_id in self._contexts
        return warmed

    async def collected_move(self, game: GameRow, seat: str) -> dict[str, Any] | None:
        async with self.db.reader() as conn:
            found = await row(
                conn,
                "SELECT move_json FROM submissions WHERE game_id = ? AND step = ? AND seat = ?",
                (game.id, game.step, seat),
            )
        return None if found is None else json.loads(found["move_json"])
