"""Round submissions (act, guess, friendship): checked against the game's round context, written
through the batching writer. Mixed into GameService.

The round context (the game row, its seats, this round's rows and when the round opened) is read in
one statement and kept in memory between submissions, under the game's lock. That is safe because
every write to a game's `games`, `players` or `submissions` rows holds that game's lock
(tests/test_bot_lock_rule.py checks it on the source): anyone else who takes the lock forgets the
context (`GameLock`), and the submission path updates it with each row it writes. The write itself
still compares `phase_seq`, so even a writer that broke the rule could not get a submission recorded
for the wrong round. See docs/performance.md, fixes 9-14.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.crimecity import Character, GameState, Submission, validate_submission
from rules.crimecity.ids import Role
from rules.crimecity.notation import parse_action, parse_character, parse_guess
from rules.crimecity.validate import check_buys, check_guess

from . import codec
from .context import Caller
from .errors import NoGame, NotAllowed, UserError
from .roster import Roster
from .storage import submissions as subs_repo
from .storage import timers as timers_repo
from .storage.models import DRAFT, ENDED, ROUND, GameRow, SubmissionRow

if TYPE_CHECKING:
    from .games import GameService

log = logging.getLogger(__name__)

PLAYERS = 5
MAX_POINTS = 50  # friendship points in one purchase (the option's range)
CONTEXTS_MAX = 4096  # remembered round contexts (a few KiB each); the oldest is forgotten first


class GameLock(asyncio.Lock):
    """A game's lock. Whoever takes it may change the game's rows, so taking it forgets the game's
    remembered round context; only the submission path, which keeps that context current itself, takes
    it with `acquire_keeping`."""

    def __init__(self, forget: Callable[[], None]) -> None:
        super().__init__()
        self._forget = forget

    async def acquire(self) -> bool:
        await super().acquire()
        self._forget()
        return True

    async def acquire_keeping(self) -> None:
        await super().acquire()


@dataclass(frozen=True, slots=True)
class Seated:
    """A game and the caller's seat in it (None for a host who is not playing)."""

    game: GameRow
    roster: Roster
    seat: str | None


def draft_resolved_at(game: GameRow) -> float | None:
    """When the draft resolved, i.e. when round 1 opened (kept in the game's draft summary)."""
    opened = (game.draft or {}).get("resolved_at")
    return None if opened is None else float(opened)


class SubmittingMixin:
    async def play_context(
        self: GameService, caller: Caller, game_opt: str | None = None
    ) -> tuple[GameRow, GameState, str, Roster] | None:
        """The round state and the caller's seat, for autocomplete; None when there is nothing to offer.
        At most one read, and no lock: autocomplete only offers, the submission re-checks everything."""
        try:
            game_id, hinted = await self._game_id(caller, game_opt)
            ctx = await self._peek_context(game_id)
            if hinted and self._stale(ctx, caller):
                game_id, _ = await self._game_id(caller, game_opt, fresh=True)
                ctx = await self._peek_context(game_id)
        except UserError:
            return None
        seat = None if ctx is None else ctx.seat_of(caller.user_id)
        if ctx is None or seat is None:
            return None
        game = ctx.game
        if game.status != ROUND or game.state is None:
            return None
        return game, codec.game_state(game), seat, Roster(ctx.players)

    async def _peek_context(self: GameService, game_id: int) -> subs_repo.RoundContext | None:
        """The remembered context, else one read (not remembered: that needs the game's lock)."""
        ctx = self._contexts.get(game_id)
        return ctx if ctx is not None else await subs_repo.round_context(self.db, game_id)

    async def _game_id(
        self: GameService, caller: Caller, game_opt: str | None, *, fresh: bool = False
    ) -> tuple[int, bool]:
        """The id of the game a command is for, and whether it came from the channel hint (unchecked)."""
        channel = caller.channel_id if caller.in_guild else None
        if channel is not None and not fresh:
            hint = self._channel_games.get(channel)
            if hint is not None:
                return hint, True
        game = await self.find_game(caller, game_opt)
        if channel is not None:
            self._channel_games[channel] = game.id
        return game.id, False

    def _stale(self: GameService, ctx: subs_repo.RoundContext | None, caller: Caller) -> bool:
        """The hinted game is no longer the channel's active game (it ended, or is gone)."""
        stale = ctx is None or ctx.game.channel_id != caller.channel_id or ctx.game.status == ENDED
        if stale and caller.channel_id is not None:
            self._channel_games.pop(caller.channel_id, None)
        return stale

    async def submit_actions(
        self: GameService, caller: Caller, first: str, second: str | None, game_opt: str | None = None
    ) -> tuple[Seated, Submission]:
        async with self._round(caller, game_opt) as (seated, state, row, others_in):
            game = seated.game
            actions = [parse_action(first, seated.roster.lookup)]
            if second and second.strip():
                actions.append(parse_action(second, seated.roster.lookup))
            new_row = SubmissionRow(game.round, seated.seat or "", [a.to_json() for a in actions], row.buys, row.guess)
            sub = codec.submission_from_row(new_row)
            assert sub is not None
            err = validate_submission(state, seated.seat or "", sub)
            if err is not None:
                raise err
            # "All five in" from the snapshot: the other seats' rows cannot change while we hold the lock,
            # and this row now has actions. A spare deadline timer would be harmless anyway: resolve()
            # compare-and-sets phase_seq.
            all_in = not game.wait_for_deadline and not game.paused and others_in + 1 >= PLAYERS
            await self._record(game, new_row, resolve_now=all_in)
        log.info("game %s round %s: actions recorded for %s", seated.game.id, seated.game.round, seated.seat)
        log.debug("game %s: %s submitted %s", seated.game.id, seated.seat, sub.to_json())
        return seated, sub

    async def submit_guess(
        self: GameService, caller: Caller, text: str, game_opt: str | None = None
    ) -> dict[Character, Role]:
        guess = parse_guess(text)
        async with self._round(caller, game_opt) as (seated, state, row, _):
            game = seated.game
            err = check_guess(state, seated.seat or "", guess)
            if err is not None:
                raise err
            new_row = SubmissionRow(game.round, row.seat, row.actions, row.buys, codec.guess_to_json(guess))
            await self._check_whole(state, seated.seat or "", new_row)
            await self._record(game, new_row)
        log.info("game %s round %s: guess recorded for %s", seated.game.id, seated.game.round, seated.seat)
        return guess

    async def buy_friendship(
        self: GameService, caller: Caller, a: str, b: str, points: int, game_opt: str | None = None
    ) -> tuple[list[list[str]], int]:
        """Sets this round's purchases of the pair a-b to `points` (0 removes them)."""
        ca, cb = parse_character(a), parse_character(b)
        if points < 0:
            raise UserError("Points cannot be negative (use 0 to cancel a purchase).")
        if points > MAX_POINTS:
            raise UserError(f"At most {MAX_POINTS} points at a time.")
        async with self._round(caller, game_opt) as (seated, state, row, _):
            game = seated.game
            pair = sorted([ca.value, cb.value])
            kept = [p for p in row.buys if sorted(p) != pair]
            buys = kept + [[ca.value, cb.value]] * points
            err = check_buys(state, seated.seat or "", tuple((Character(x), Character(y)) for x, y in buys))
            if err is not None:
                raise err
            new_row = SubmissionRow(game.round, row.seat, row.actions, buys, row.guess)
            await self._check_whole(state, seated.seat or "", new_row)
            await self._record(game, new_row)
        log.info("game %s round %s: purchases recorded for %s", seated.game.id, seated.game.round, seated.seat)
        return buys, state.garnets.get(seated.seat or "", 0)

    @asynccontextmanager
    async def _round(
        self: GameService, caller: Caller, game_opt: str | None
    ) -> AsyncIterator[tuple[Seated, GameState, SubmissionRow, int]]:
        """Holding the game's lock: the game and the caller's seat, its state, the caller's row and how
        many other seats have acted, for a round submission. From the remembered context, else read in
        ONE statement on a reader.

        Why both are current: every write to a game's `games`, `players` and `submissions` rows (lobby,
        submissions, resolution and reminders from timers, every host command) runs under that game's
        lock (the scheduler and delivery write only timer and outbox rows), and every write returns only
        once it is committed, before the lock is released. So once we hold the lock, no write to this
        game is pending or can start, and a reader sees the latest committed rows until we write. The
        remembered context is forgotten by anyone else who takes the lock, and updated by `_record`.
        `_record` still re-checks phase_seq in its write, so even a writer that broke this rule could not
        get a submission recorded for the wrong round."""
        game_id, hinted = await self._game_id(caller, game_opt)
        lock = self.lock(game_id)
        await lock.acquire_keeping()
        try:
            ctx = await self._context(game_id)
            if not (hinted and self._stale(ctx, caller)):
                yield self._round_checked(ctx, caller)
                return
        finally:
            lock.release()
        game_id, _ = await self._game_id(caller, game_opt, fresh=True)  # the game the hint named is over
        lock = self.lock(game_id)
        await lock.acquire_keeping()
        try:
            yield self._round_checked(await self._context(game_id), caller)
        finally:
            lock.release()

    async def _context(self: GameService, game_id: int) -> subs_repo.RoundContext | None:
        """Holding the game's lock: its current round context (remembered, else read and remembered)."""
        ctx = self._contexts.get(game_id)
        if ctx is None:
            ctx = await subs_repo.round_context(self.db, game_id)
            if ctx is not None:
                self._remember(ctx)
        return ctx

    def _remember(self: GameService, ctx: subs_repo.RoundContext) -> None:
        """Under the game's lock (taken with acquire_keeping): `ctx` is the game's current round context."""
        contexts = self._contexts
        if ctx.game.id not in contexts and len(contexts) >= CONTEXTS_MAX:
            del contexts[next(iter(contexts))]
        contexts[ctx.game.id] = ctx

    def _round_checked(
        self: GameService, ctx: subs_repo.RoundContext | None, caller: Caller
    ) -> tuple[Seated, GameState, SubmissionRow, int]:
        if ctx is None:
            raise NoGame("That game no longer exists.")
        seat = ctx.seat_of(caller.user_id)
        if seat is None:
            raise NotAllowed("You are not a player in this game, so you cannot do that here.")
        game = ctx.game
        if game.status == DRAFT:
            raise UserError("The game is in its draft: submit with /crimecity draft first.")
        if game.status != ROUND or game.state is None:
            raise UserError("No round is open for submissions in this game.")
        opened = ctx.prev_resolved_at if game.round > 1 else draft_resolved_at(game)
        self._refuse_if_issued_before(game, caller, opened)
        state = codec.game_state(game)
        row = ctx.rows.get(seat) or SubmissionRow(game.round, seat, None, [], None)
        return Seated(game, Roster(ctx.players), seat), state, row, ctx.others_in(seat)

    async def _record(self: GameService, game: GameRow, row: SubmissionRow, *, resolve_now: bool = False) -> None:
        """Write a round submission, only if the game is still in the phase it was checked against (a
        compare on phase_seq inside the write): a round that resolved meanwhile is refused, never
        recorded for the next round. Returns once the row is on disk, before the player is answered.

        Alone, the row goes through the batching writer (one round trip, shared with whoever submits
        at the same moment). With `resolve_now` ("all five in") the row and a due deadline timer are
        committed together, so a crash cannot keep the one without the other."""
        ctx = self._contexts.pop(game.id, None)  # back only once the row is known to be written
        if resolve_now:
            async with self.db.transaction() as conn:
                ok = await subs_repo.put_submission_if_open(conn, game.id, game.phase_seq, row, self.clock())
                if ok:
                    await timers_repo.add_timer(conn, game.id, "deadline", game.phase_seq, self.clock())
            if ok:
                self._committed()
        else:
            # Nothing the timer and outbox loops watch changes: no need to wake them.
            ok = await self.submissions.put_if_open(game.id, game.phase_seq, row, self.clock())
        if ok and ctx is not None and ctx.game.phase_seq == game.phase_seq:
            self._remember(ctx.with_row(row))
        if not ok:
            raise UserError(
                f"Round {game.round} was resolved just before your command arrived, so it was not recorded. "
                "Look at the new board and submit again."
            )

    def _refuse_if_issued_before(self: GameService, game: GameRow, caller: Caller | None, opened: float | None) -> None:
        """A command issued while the previous phase was open, that reached the game only after that
        phase resolved (a race with the deadline, "all five in" or an admin), was meant for the old
        board: refuse it plainly rather than apply it to the new round."""
        if caller is None or caller.issued_at is None:
            return
        if opened is not None and caller.issued_at < opened:
            before = "the draft" if game.round <= 1 else f"Round {game.round - 1}"
            raise UserError(
                f"{before} was resolved just before your command arrived, so it was not recorded. "
                f"Round {game.round} is open now: look at the new board and submit again."
            )

    async def _check_whole(self: GameService, state: GameState, seat: str, row: SubmissionRow) -> None:
        """With actions already recorded, the whole submission must stay valid."""
        sub = codec.submission_from_row(row)
        if sub is not None:
            err = validate_submission(state, seat, sub)
            if err is not None:
                raise err

    async def warm_contexts(self: GameService) -> int:
        """At start-up, in the background: read the round context of every game in round play (under
        each game's lock, as the submission path does), so no game's first act after a restart waits for
        it. Games someone is using meanwhile are skipped: their commands read it themselves. Returns how
        many were read."""
        rows = await self.db.fetchall("SELECT id FROM games WHERE status = ? ORDER BY id DESC", (ROUND,))
        warmed = 0
        for row in rows[:CONTEXTS_MAX]:
            game_id = row["id"]
            lock = self.lock(game_id)
            if lock.locked() or game_id in self._contexts:
                continue
            await lock.acquire_keeping()
            try:
                await self._prefetch_context(game_id)
            finally:
                lock.release()
            warmed += game_id in self._contexts
        return warmed

    async def _prefetch_context(self: GameService, game_id: int) -> None:
        """Holding the game's lock, just after a resolution (or at start-up): read the round's context now,
        so the round's first submission (everyone submits right after a new board) does not wait for it."""
        try:
            await self._context(game_id)
        except Exception:  # only an optimisation: the first submission will read it instead
            log.debug("could not read game %s's new round context", game_id, exc_info=True)
