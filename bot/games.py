"""The game flow: finds the game, checks who may do what, calls `rules`, persists, queues the outbox.

Every state change is one transaction under the game's asyncio lock; messages caused by it are
written to the outbox in that same transaction and delivered afterwards (bot/delivery.py).
No rule lives here: legality, resolution and results all come from `rules`.

The one rule the submission path relies on: every write to a game's `games`, `players` or
`submissions` rows holds that game's lock (`GameService.lock`). Submissions read a game's round
context under the lock and keep it in memory; whoever else takes the lock forgets it (`GameLock`).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiosqlite

from rules import (
    Character,
    DraftSubmission,
    GameState,
    RuleError,
    Submission,
    check_draft_submission,
    complete_ranking,
    validate_submission,
)
from rules.ids import CHARACTERS, ROLES, Role
from rules.notation import parse_action, parse_character, parse_guess, parse_role
from rules.validate import check_buys, check_guess

from . import codec, phases
from .context import Caller, Member
from .errors import NoGame, NotAllowed, UserError
from .history import HistoryMixin
from .hosting import HostingMixin
from .panels import PanelMixin
from .reports import ReportsMixin
from .roster import Roster
from .storage import games as games_repo
from .storage import outbox as outbox_repo
from .storage import submissions as subs_repo
from .storage import timers as timers_repo
from .storage.db import Database, fetch_one
from .storage.models import DRAFT, EC, ENDED, LOBBY, ROUND, GameRow, SubmissionRow
from .storage.submission_writer import SubmissionWriter

log = logging.getLogger(__name__)

PLAYERS = 5
MAX_DEADLINE_HOURS = 24 * 60
MAX_POINTS = 50  # friendship points in one purchase (the option's range)


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


class GameService(HostingMixin, ReportsMixin, PanelMixin, HistoryMixin):
    def __init__(self, db: Database, *, host_role: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.host_role = host_role
        self.clock = clock
        self._locks: dict[int, GameLock] = {}
        # game id -> its round context as last read or written by the submission path, under the game's
        # lock. Any other holder of the lock forgets it on taking the lock (GameLock), so it is current
        # whenever the submission path holds the lock: every write to a game's rows holds that lock.
        self._contexts: dict[int, subs_repo.RoundContext] = {}
        # channel id -> the id of the game last found active there: saves a read per command. Only a hint:
        # whoever uses it re-checks, in the read it makes anyway, that the game is still that channel's.
        self._channel_games: dict[int, int] = {}
        self.submissions = SubmissionWriter(db)
        # Set by the bot: wake the outbox sender and the timer dispatcher after a commit.
        self.outbox_changed: Callable[[], None] = lambda: None
        self.timers_changed: Callable[[], None] = lambda: None

    CONTEXTS_MAX = 4096  # remembered round contexts (a few KiB each); the oldest is forgotten first

    def lock(self, game_id: int) -> GameLock:
        """One lock per game: its commands serialize, other games run in parallel."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(lambda: self._contexts.pop(game_id, None))
        return lock

    def _remember(self, ctx: subs_repo.RoundContext) -> None:
        """Under the game's lock (taken with acquire_keeping): `ctx` is the game's current round context."""
        contexts = self._contexts
        if ctx.game.id not in contexts and len(contexts) >= self.CONTEXTS_MAX:
            del contexts[next(iter(contexts))]
        contexts[ctx.game.id] = ctx

    def _committed(self) -> None:
        self.outbox_changed()
        self.timers_changed()

    # ---- finding games and seats -------------------------------------------------------------

    async def find_game(self, caller: Caller, game_opt: str | None = None) -> GameRow:
        """The channel's game in a guild; in a DM the caller's one active game (or `game_opt`)."""
        async with self.db.reader() as conn:  # _find_game runs one statement: no snapshot needed
            return await self._find_game(conn, caller, game_opt)

    async def _find_game(self, conn: aiosqlite.Connection, caller: Caller, game_opt: str | None) -> GameRow:
        if caller.in_guild:
            game = await games_repo.active_game_in_channel(conn, caller.channel_id or 0)
            if game is None:
                raise NoGame("There is no Crime City game in this channel. A host can open one with /crimecity new.")
            return game
        mine = await games_repo.active_games_of_user(conn, caller.user_id)
        if game_opt:
            wanted = game_opt.strip().lstrip("#")
            for game in mine:
                if str(game.id) == wanted:
                    return game
            raise NoGame("That is not one of your active games; pick one from the `game` option's list.")
        if not mine:
            raise NoGame("You are not in any active Crime City game.")
        if len(mine) > 1:
            raise UserError("You are in several games: choose one with the `game` option.")
        return mine[0]

    async def find_game_any(self, caller: Caller, game_opt: str | None = None) -> GameRow:
        """Like find_game, but falls back to the latest ended game (for export after the end)."""
        try:
            return await self.find_game(caller, game_opt)
        except NoGame:
            async with self.db.read() as conn:
                if caller.in_guild:
                    sql, args = (
                        "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                        (caller.channel_id,),
                    )
                elif game_opt and _game_number(game_opt) is not None:
                    sql = (
                        "SELECT id FROM games WHERE id = ? AND (host_id = ? OR id IN"
                        " (SELECT game_id FROM players WHERE user_id = ?))"
                    )
                    args = (_game_number(game_opt), caller.user_id, caller.user_id)
                else:
                    sql = (
                        "SELECT id FROM games WHERE host_id = ? OR id IN"
                        " (SELECT game_id FROM players WHERE user_id = ?) ORDER BY id DESC LIMIT 1"
                    )
                    args = (caller.user_id, caller.user_id)
                row = await fetch_one(conn, sql, args)
                game = None if row is None else await games_repo.get_game(conn, row["id"])
            if game is None:
                raise
            return game

    async def games_of(self, user_id: int) -> list[GameRow]:
        async with self.db.read() as conn:
            return await games_repo.active_games_of_user(conn, user_id)

    async def roster(self, game_id: int) -> Roster:
        async with self.db.read() as conn:
            return Roster(await games_repo.players(conn, game_id))

    async def seated(self, caller: Caller, game_opt: str | None = None, *, need_seat: bool = True) -> Seated:
        async with self.db.read() as conn:  # one snapshot (and one round trip fewer) for the game and its seats
            game = await self._find_game(conn, caller, game_opt)
            roster = Roster(await games_repo.players(conn, game.id))
        seat = roster.seat_of(caller.user_id)
        if need_seat and seat is None:
            raise NotAllowed("You are not a player in this game, so you cannot do that here.")
        return Seated(game, roster, seat)

    async def play_context(
        self, caller: Caller, game_opt: str | None = None
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

    async def _peek_context(self, game_id: int) -> subs_repo.RoundContext | None:
        """The remembered context, else one read (not remembered: that needs the game's lock)."""
        ctx = self._contexts.get(game_id)
        return ctx if ctx is not None else await subs_repo.round_context(self.db, game_id)

    async def _game_id(self, caller: Caller, game_opt: str | None, *, fresh: bool = False) -> tuple[int, bool]:
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

    def _stale(self, ctx: subs_repo.RoundContext | None, caller: Caller) -> bool:
        """The hinted game is no longer the channel's active game (it ended, or is gone)."""
        stale = ctx is None or ctx.game.channel_id != caller.channel_id or ctx.game.status == ENDED
        if stale and caller.channel_id is not None:
            self._channel_games.pop(caller.channel_id, None)
        return stale

    def is_admin(self, game: GameRow, caller: Caller) -> bool:
        """Manage Server in the game's server, or being the game's host."""
        return caller.user_id == game.host_id or (caller.manage_guild and caller.guild_id == game.guild_id)

    def require_admin(self, game: GameRow, caller: Caller) -> None:
        if not self.is_admin(game, caller):
            raise NotAllowed("Only the game's host or a member with Manage Server can use that command.")

    # ---- lobby ---------------------------------------------------------------------------------

    async def new_game(
        self,
        caller: Caller,
        *,
        rounds: int,
        deadline_hours: float,
        garnets: int,
        wait_for_deadline: bool,
        reminder_hours: float = 1.0,
    ) -> GameRow:
        if not caller.in_guild:
            raise UserError("Open a game in a server text channel, not in a DM.")
        if not (caller.manage_guild or caller.has_role(self.host_role)):
            extra = f" or the `{self.host_role}` role" if self.host_role else ""
            raise NotAllowed(f"Opening a game needs the Manage Server permission{extra}.")
        if not 1 <= rounds <= 6:
            raise UserError("A game has 1 to 6 rounds (rule R4).")
        if not 0 < deadline_hours <= MAX_DEADLINE_HOURS:
            raise UserError(f"deadline_hours must be more than 0 and at most {MAX_DEADLINE_HOURS}.")
        if garnets < 0:
            raise UserError("Starting garnets cannot be negative.")
        if not 0 <= reminder_hours <= MAX_DEADLINE_HOURS:
            raise UserError(f"reminder_hours must be between 0 (no reminders) and {MAX_DEADLINE_HOURS}.")
        try:
            async with self.db.transaction() as conn:
                game_id = await games_repo.create_game(
                    conn,
                    guild_id=caller.guild_id or 0,
                    channel_id=caller.channel_id or 0,
                    host_id=caller.user_id,
                    rounds_total=rounds,
                    deadline_hours=deadline_hours,
                    start_garnets=garnets,
                    wait_for_deadline=wait_for_deadline,
                    now=self.clock(),
                    reminder_hours=reminder_hours,
                )
                game = await games_repo.get_game(conn, game_id)
        except sqlite3.IntegrityError as exc:
            raise UserError("This channel already has a game that has not ended.") from exc
        log.info("game %s opened in channel %s", game_id, caller.channel_id)
        assert game is not None
        return game

    async def join(self, caller: Caller) -> tuple[GameRow, Roster]:
        game = await self.find_game(caller)
        async with self.lock(game.id), self.db.transaction() as conn:
            game = await self._reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError("This game has already started; you cannot join it now.")
            roster = Roster(await games_repo.players(conn, game.id))
            if roster.seat_of(caller.user_id) is not None:
                raise UserError("You are already in this game.")
            if len(roster) >= PLAYERS:
                raise UserError("The lobby is full: Crime City needs exactly 5 players (rule R1).")
            await games_repo.add_player(
                conn,
                game.id,
                user_id=caller.user_id,
                user_name=caller.user_name,
                display_name=caller.display_name,
                start_garnets=game.start_garnets,
                now=self.clock(),
            )
            roster = Roster(await games_repo.players(conn, game.id))
        return game, roster

    async def leave(self, caller: Caller) -> tuple[GameRow, Roster]:
        game = await self.find_game(caller)
        async with self.lock(game.id), self.db.transaction() as conn:
            game = await self._reload(conn, game.id)
            roster = Roster(await games_repo.players(conn, game.id))
            seat = roster.seat_of(caller.user_id)
            if seat is None:
                raise UserError("You are not in this game.")
            if game.status != LOBBY:
                raise UserError("The draft has started: you cannot leave now (ask the host to replace you).")
            await games_repo.remove_player(conn, game.id, seat)
            roster = Roster(await games_repo.players(conn, game.id))
        return game, roster

    async def start(self, caller: Caller, game_opt: str | None = None) -> tuple[GameRow, Roster]:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status != LOBBY:
                    raise UserError("This game is not in its lobby any more.")
                roster = Roster(await games_repo.players(conn, game.id))
                if len(roster) != PLAYERS:
                    raise UserError(f"Crime City needs exactly 5 players (rule R1); the lobby has {len(roster)}.")
                await phases.open_phase(conn, game, self.clock(), status=DRAFT, round_no=0)
                game = await self._reload(conn, game.id)
            self._committed()
        log.info("game %s: draft open", game.id)
        return game, roster

    # ---- submissions ---------------------------------------------------------------------------

    async def submit_draft(
        self, caller: Caller, *, bid: int, roles: str | None, characters: str | None, game_opt: str | None = None
    ) -> tuple[DraftSubmission, int]:
        seated = await self.seated(caller, game_opt)
        role_list = _parse_list(roles, parse_role)
        if Role.NONE in role_list:
            raise UserError("Rank only the five hidden roles; 'none' is not one you can draft.")
        char_list = _parse_list(characters, parse_character)
        sub = DraftSubmission(
            bid=bid,
            roles=tuple(complete_ranking(role_list, ROLES)),
            characters=tuple(complete_ranking(char_list, CHARACTERS)),
        )
        async with self.lock(seated.game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, seated.game.id)
                if game.status != DRAFT:
                    raise UserError("The draft is not open in this game.")
                player = Roster(await games_repo.players(conn, game.id)).player(seated.seat or "")
                balance = player.start_garnets if player else 0
                check_draft_submission(sub, balance)
                await subs_repo.put_draft(
                    conn,
                    game.id,
                    seated.seat or "",
                    sub.bid,
                    [r.value for r in sub.roles],
                    [c.value for c in sub.characters],
                    self.clock(),
                )
                await self._maybe_all_in(conn, game)
            self._committed()
        log.info("game %s: draft submission recorded for %s", seated.game.id, seated.seat)
        return sub, balance

    async def submit_actions(
        self, caller: Caller, first: str, second: str | None, game_opt: str | None = None
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

    async def submit_guess(self, caller: Caller, text: str, game_opt: str | None = None) -> dict[Character, Role]:
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
        self, caller: Caller, a: str, b: str, points: int, game_opt: str | None = None
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
        self, caller: Caller, game_opt: str | None
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

    async def _context(self, game_id: int) -> subs_repo.RoundContext | None:
        """Holding the game's lock: its current round context (remembered, else read and remembered)."""
        ctx = self._contexts.get(game_id)
        if ctx is None:
            ctx = await subs_repo.round_context(self.db, game_id)
            if ctx is not None:
                self._remember(ctx)
        return ctx

    def _round_checked(
        self, ctx: subs_repo.RoundContext | None, caller: Caller
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
        opened = ctx.prev_resolved_at if game.round > 1 else _draft_resolved_at(game)
        self._refuse_if_issued_before(game, caller, opened)
        state = codec.game_state(game)
        row = ctx.rows.get(seat) or SubmissionRow(game.round, seat, None, [], None)
        return Seated(game, Roster(ctx.players), seat), state, row, ctx.others_in(seat)

    async def _record(self, game: GameRow, row: SubmissionRow, *, resolve_now: bool = False) -> None:
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

    async def phase_opened_at(self, conn: aiosqlite.Connection, game: GameRow) -> float | None:
        """When the open round began: when the round before it (or the draft) resolved; None if unknown."""
        if game.status != ROUND:
            return None
        if game.round <= 1:
            return _draft_resolved_at(game)
        row = await fetch_one(
            conn, "SELECT resolved_at FROM round_log WHERE game_id = ? AND round = ?", (game.id, game.round - 1)
        )
        return None if row is None else float(row[0])

    def _refuse_if_issued_before(self, game: GameRow, caller: Caller | None, opened: float | None) -> None:
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

    async def _check_whole(self, state: GameState, seat: str, row: SubmissionRow) -> None:
        """With actions already recorded, the whole submission must stay valid."""
        sub = codec.submission_from_row(row)
        if sub is not None:
            err = validate_submission(state, seat, sub)
            if err is not None:
                raise err

    async def _maybe_all_in(self, conn: aiosqlite.Connection, game: GameRow) -> bool:
        """All five in and not waiting for the deadline: resolve now, through a persisted timer (True)."""
        if game.wait_for_deadline or game.paused:
            return False
        if await phases.all_submitted(conn, game):
            await timers_repo.add_timer(conn, game.id, "deadline", game.phase_seq, self.clock())
            return True
        return False

    # ---- resolution ----------------------------------------------------------------------------

    async def resolve(self, game_id: int, expected_seq: int | None = None) -> bool:
        """Resolve the current phase once: compare-and-set on the game's phase_seq."""
        async with self.lock(game_id):
            async with self.db.transaction() as conn:
                game = await games_repo.get_game(conn, game_id)
                if game is None or (expected_seq is not None and game.phase_seq != expected_seq):
                    return False
                if game.status not in (DRAFT, ROUND):
                    return False
                done = await phases.resolve_phase(conn, game, self.clock())
            self._committed()
            if done:
                await self._prefetch_context(game_id)
        return done

    async def warm_contexts(self) -> int:
        """At start-up, in the background: read the round context of every game in round play (under
        each game's lock, as the submission path does), so no game's first act after a restart waits for
        it. Games someone is using meanwhile are skipped: their commands read it themselves. Returns how
        many were read."""
        rows = await self.db.fetchall("SELECT id FROM games WHERE status = ? ORDER BY id DESC", (ROUND,))
        warmed = 0
        for row in rows[: self.CONTEXTS_MAX]:
            game_id = row["id"]
            lock = self.lock(game_id)
            if lock.locked() or game_id in self._contexts:
                continue
            await lock.acquire_keeping()
            try:
                if game_id not in self._contexts:
                    await self._prefetch_context(game_id)
                    warmed += game_id in self._contexts
            finally:
                lock.release()
        return warmed

    async def _prefetch_context(self, game_id: int) -> None:
        """Holding the game's lock, just after a resolution (or at start-up): read the round's context now,
        so the round's first submission (everyone submits right after a new board) does not wait for it."""
        try:
            ctx = await subs_repo.round_context(self.db, game_id)
        except Exception:  # only an optimisation: the first submission will read it instead
            log.debug("could not read game %s's new round context", game_id, exc_info=True)
            return
        if ctx is not None and ctx.game.status == ROUND:
            self._remember(ctx)

    async def on_timer(self, game_id: int, kind: str, phase_seq: int, timer_id: int | None = None) -> None:
        if kind == "deadline":
            await self.resolve(game_id, phase_seq)
        elif kind == "reminder":
            async with self.lock(game_id):
                async with self.db.transaction() as conn:
                    game = await games_repo.get_game(conn, game_id)
                    if game is not None and game.phase_seq == phase_seq and game.accepts_submissions:
                        await phases.queue_reminders(conn, game, self.clock())
                    if timer_id is not None:
                        # Gone in the same commit as the queued DMs: a crash can neither drop nor repeat them.
                        await timers_repo.delete_timer(conn, timer_id)
                self._committed()

    # ---- EC ------------------------------------------------------------------------------------

    async def choose_ec(self, caller: Caller, target: Member, game_opt: str | None = None) -> str:
        game = await self.find_game(caller, game_opt)
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status != EC or not game.results or not game.results.get("ec_pending"):
                    raise UserError("There is no EC decision to make in this game.")
                roster = Roster(await games_repo.players(conn, game.id))
                pending = game.results["ec_pending"]
                choice = roster.seat_of(target.user_id)
                if choice not in pending["candidates"]:
                    names = ", ".join(roster.name_of(s) for s in pending["candidates"])
                    raise UserError(f"{target.display_name} is not a candidate for EC; the candidates are {names}.")
                seat = roster.seat_of(caller.user_id)
                if seat in pending["deciders"]:
                    await subs_repo.put_ec_vote(conn, game.id, seat, choice)
                    votes = await subs_repo.ec_votes(conn, game.id)
                    chosen = {votes.get(s) for s in pending["deciders"]}
                    if not pending.get("unanimous") or (len(chosen) == 1 and None not in chosen):
                        await phases.finish(conn, game, self.clock(), ec_seat=choice)
                        answer = f"{roster.name_of(choice)} is the EC."
                    elif None in chosen:
                        answer = f"Your vote for {roster.name_of(choice)} is recorded; waiting for the other deciders."
                    else:
                        answer = (
                            "Your vote is recorded, but the deciders disagree: the choice must be unanimous "
                            "(rule R88). Change your vote with /crimecity ec, or the host decides."
                        )
                elif self.is_admin(game, caller):
                    # Rulings Q42: when the deciders cannot agree, the host decides.
                    await phases.finish(conn, game, self.clock(), ec_seat=choice)
                    answer = f"As host you decided: {roster.name_of(choice)} is the EC."
                else:
                    raise NotAllowed("You are not one of the players who decide the EC.")
            self._committed()
        log.info("game %s: EC vote or decision recorded", game.id)
        return answer

    # ---- helpers -------------------------------------------------------------------------------

    async def _reload(self, conn: aiosqlite.Connection, game_id: int) -> GameRow:
        game = await games_repo.get_game(conn, game_id)
        if game is None:
            raise NoGame("That game no longer exists.")
        return game

    async def pending_outbox(self) -> int:
        async with self.db.read() as conn:
            return await outbox_repo.count_pending(conn)


def _draft_resolved_at(game: GameRow) -> float | None:
    """When the draft resolved, i.e. when round 1 opened (kept in the game's draft summary)."""
    opened = (game.draft or {}).get("resolved_at")
    return None if opened is None else float(opened)


def _game_number(text: str) -> int | None:
    """A game id typed in the `game` option ("12" or "#12"); None for anything else, including
    digits int() refuses ("²") and numbers SQLite cannot hold."""
    wanted = text.strip().lstrip("#")
    if not (wanted.isascii() and wanted.isdigit()) or len(wanted) > 18:
        return None
    return int(wanted)


def _parse_list(text: str | None, parse: Callable[[str], Any]) -> list[Any]:
    if not text or not text.strip():
        return []
    items = [parse(part) for part in text.replace(";", ",").split(",") if part.strip()]
    if len(set(items)) != len(items):
        raise RuleError("malformed", "A ranking cannot name the same entry twice.")
    return items
