"""The game flow: finds the game, checks who may do what, calls `rules`, persists, queues the outbox.

Every state change is one transaction under the game's asyncio lock; messages caused by it are
written to the outbox in that same transaction and delivered afterwards (bot/delivery.py).
No rule lives here: legality, resolution and results all come from `rules`.

The one rule the submission path relies on: every write to a game's `games`, `players` or
`submissions` rows holds that game's lock (`GameService.lock`). Submissions read a game's round
context under the lock and keep it in memory; whoever else takes the lock forgets it (`GameLock`).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import aiosqlite

from rules.crimecity import (
    DraftSubmission,
    RuleError,
    check_draft_submission,
    complete_ranking,
)
from rules.crimecity.ids import CHARACTERS, ROLES, Role
from rules.crimecity.notation import parse_character, parse_role

from . import phases
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
from .storage.models import DRAFT, EC, LOBBY, ROUND, GameRow
from .storage.submission_writer import SubmissionWriter
from .submitting import PLAYERS, GameLock, Seated, SubmittingMixin, draft_resolved_at

log = logging.getLogger(__name__)

MAX_DEADLINE_HOURS = 24 * 60


class GameService(SubmittingMixin, HostingMixin, ReportsMixin, PanelMixin, HistoryMixin):
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

    def lock(self, game_id: int) -> GameLock:
        """One lock per game: its commands serialize, other games run in parallel."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(lambda: self._contexts.pop(game_id, None))
        return lock

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

    async def phase_opened_at(self, conn: aiosqlite.Connection, game: GameRow) -> float | None:
        """When the open round began: when the round before it (or the draft) resolved; None if unknown."""
        if game.status != ROUND:
            return None
        if game.round <= 1:
            return draft_resolved_at(game)
        row = await fetch_one(
            conn, "SELECT resolved_at FROM round_log WHERE game_id = ? AND round = ?", (game.id, game.round - 1)
        )
        return None if row is None else float(row[0])

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
