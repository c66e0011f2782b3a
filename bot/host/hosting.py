"""What a host (or a member with Manage Server) can do to a running game, whatever the game.

Each operation checks the caller's rights itself (Discord's default permissions cannot guard a
subgroup of a command every member uses), runs under the game's lock in one transaction, and is
refused when it was issued before the decision it would change opened (it meant the one before).
Every change to the game's state is a logged move, so the record always replays to the snapshot.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.contract import HOST_END, Action, Move, Record

from ..storage import Storage
from ..storage import clocks as clocks_repo
from ..storage import games as games_repo
from ..storage import log as log_repo
from ..storage import timers as timers_repo
from ..storage.models import ENDED, LOBBY, RUNNING, GameRow
from ..storage.sql import dumps
from . import clocks
from .context import Caller, Member
from .errors import NotAllowed, Refused, Stale, UserError
from .finder import Finder
from .lobby import MAX_HOURS, edit_lobby, reload
from .locks import Locks
from .presenting import DM, Message, Presentation, capital, title_of
from .roster import Roster
from .stepper import RESOLVE, Advance, Stepper, counted

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ClockState:
    """The open decision's clock after a host's change: its deadline, or the time left while paused."""

    game: GameRow
    deadline_at: float | None
    remaining: float | None


class Hosting:
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
    ) -> None:
        self.db = db
        self.finder = finder
        self.stepper = stepper
        self.locks = locks
        self.presentations = presentations
        self.clock = clock
        self.committed = committed
        self.seasons: Any = None  # set by the host: a season match takes only its roster (replace too)

    async def _game(self, caller: Caller, kind: str, game_opt: str | None) -> GameRow:
        game = await self.finder.game(caller, kind, game_opt)
        await self.finder.require_admin(game, caller)
        return game

    def _current(self, game: GameRow, caller: Caller, what: str, done: str = "changed") -> None:
        """Refuse a command meant for a decision that has been resolved since it was issued."""
        if game.status != RUNNING or game.pending is None:
            raise UserError(f"There is no open decision to {what} in this game.")
        opened = game.step_opened_at
        if caller.issued_at is not None and opened is not None and caller.issued_at < opened:
            now = capital(title_of(self.presentations[game.kind], game.pending))
            raise Stale(
                f"The decision you meant was just resolved; {now} is open now and was not {done}. "
                "Repeat the command if you still want it."
            )

    # ---- the open decision ---------------------------------------------------------------------------

    async def resolve(self, caller: Caller, kind: str, game_opt: str | None = None) -> Advance:
        """Resolve the open decision now: what was collected, or the game's default for a timeout."""
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                self._current(game, caller, "resolve", "resolved")
                roster = Roster(await games_repo.seats(conn, game.id))
                advance = await self.stepper.resolve_collected(conn, game, roster, user_id=caller.user_id)
            self.committed()
        log.info("game %s: resolved by the host", game.id)
        return advance

    async def deadline(self, caller: Caller, kind: str, seconds: float, game_opt: str | None = None) -> ClockState:
        """The open decision's running clock gets `seconds` from now (kept for the resume while paused)."""
        if not 0 <= seconds <= MAX_HOURS * 3600:
            raise UserError(f"The deadline must be between now and {MAX_HOURS:g} hours ({MAX_HOURS * 60:,.0f} minutes) "
                            "from now.")
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                self._current(game, caller, "move the deadline of")
                now = self.clock()
                rows = await clocks_repo.clocks(conn, game.id)
                if not rows:
                    raise UserError("The open decision has no deadline to move.")
                rows = clocks.set_left(rows, now, seconds, paused=game.paused)
                await clocks_repo.replace_clocks(conn, game.id, rows)
                await self.stepper.schedule_clock(conn, game, rows, now)
                if game.pending is not None:  # a computer player moves before a deadline brought forward too
                    roster = Roster(await games_repo.seats(conn, game.id))
                    done = await self._done(conn, game, kind)
                    await self.stepper.arm_computers(conn, game, roster, done, now, rows=rows)
                await self._maybe_all_in(conn, game)
                state = ClockState(game, rows[-1].deadline_at, rows[-1].remaining)  # the clock just set
            self.committed()
        return state

    async def _done(self, conn: Any, game: GameRow, kind: str) -> set[str]:
        """The seats whose collected move counts in the open decision (none in a decision played one move at a
        time)."""
        if game.pending is None or not game.pending.together:
            return set()
        from ..storage import submissions as subs_repo

        rules = self.presentations[kind].game
        collected = await subs_repo.collected(conn, game.id, game.step)
        return counted(rules, self.stepper.states.get(rules, game), collected)

    async def reminder(self, caller: Caller, kind: str, hours: float, game_opt: str | None = None) -> ClockState:
        """The game's reminder lead time (0: none), and the open decision's reminder re-placed."""
        if not 0 <= hours <= MAX_HOURS:
            raise UserError(f"hours must be between 0 and {MAX_HOURS} (0 turns reminders off).")
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status == ENDED:
                    raise UserError("This game is over; there is no deadline left to remind anyone of.")
                # The host's lead replaces a game's share of each clock (commands.md's reminder_percent).
                options = game.options.__class__(**{**game.options.to_json(), "reminder_hours": hours,
                                                    "reminder_share": None})
                await games_repo.update_game(conn, game.id, options_json=dumps(options.to_json()))
                game = await reload(conn, game.id)
                rows = await clocks_repo.clocks(conn, game.id)
                if game.status == RUNNING:
                    await self.stepper.schedule_clock(conn, game, rows, self.clock())
                run = clocks.running(rows)
            self.committed()
        log.info("game %s: reminder lead time set by the host", game.id)
        return ClockState(game, None if run is None else run.deadline_at, None)

    async def pause(self, caller: Caller, kind: str, paused: bool, game_opt: str | None = None) -> ClockState:
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                self._current(game, caller, "pause or resume")
                if paused == game.paused:
                    raise UserError("The clock is already paused." if paused else "The clock is not paused.")
                now = self.clock()
                rows = await clocks_repo.clocks(conn, game.id)
                wanted = game.pending.clocks if game.pending is not None else ()
                rows = clocks.pause(rows, now) if paused else clocks.resume(rows, wanted, now)
                await clocks_repo.replace_clocks(conn, game.id, rows)
                if paused:
                    await games_repo.update_game(conn, game.id, paused=1, paused_at=now)
                else:  # the open decision's paused time, this pause included (GameRow.open_for)
                    paused_for = game.paused_so_far(now)
                    await games_repo.update_game(conn, game.id, paused=0, paused_at=None, paused_for=paused_for)
                game = await reload(conn, game.id)
                await self.stepper.schedule_clock(conn, game, rows, now)
                if not paused:
                    await self._maybe_all_in(conn, game)
                shown = clocks.shown(rows)
                state = ClockState(game, *((shown.deadline_at, shown.remaining) if shown else (None, None)))
            self.committed()
        log.info("game %s: clock %s", game.id, "paused" if paused else "resumed")
        return state

    async def _maybe_all_in(self, conn: Any, game: GameRow) -> None:
        """Everyone is in, and nothing waits for the deadline any more: resolve now, through a timer."""
        pending = game.pending
        if pending is None or not pending.together or game.options.wait_for_deadline or game.paused:
            return
        from ..storage import submissions as subs_repo

        rules = self.presentations[game.kind].game
        collected = await subs_repo.collected(conn, game.id, game.step)
        if set(pending.awaited) <= counted(rules, self.stepper.states.get(rules, game), collected):
            await timers_repo.add_timer(conn, game.id, RESOLVE, game.step, self.clock())

    # ---- the game ----------------------------------------------------------------------------------------

    async def move(self, caller: Caller, kind: str, move: Move, game_opt: str | None = None) -> Advance:
        """A host's move (`by=None`): checked by the rules, applied and logged like any other."""
        game = await self._game(caller, kind, game_opt)
        rules = self.presentations[kind].game
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status != RUNNING:
                    raise UserError("That needs a game that has started and not ended.")
                if move != HOST_END:
                    self._current(game, caller, "change")
                state = self.stepper.states.get(rules, game)
                refusal = rules.check(state, None, move)
                if refusal is not None:
                    raise Refused(refusal.code, refusal.message)
                roster = Roster(await games_repo.seats(conn, game.id))
                advance = await self.stepper.advance(
                    conn, game, roster, [Action(None, dict(move))], user_id=caller.user_id, state=state
                )
            self.committed()
        log.info("game %s: a host's move", game.id)
        return advance

    async def end(self, caller: Caller, kind: str, *, reveal: bool, game_opt: str | None = None) -> GameRow:
        """End the game now. In the lobby nothing was set up, so it just closes."""
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status == ENDED:
                    raise UserError("This game has already ended.")
                options = game.options.__class__(**{**game.options.to_json(), "reveal": reveal})
                await games_repo.update_game(conn, game.id, options_json=dumps(options.to_json()))
                game = await reload(conn, game.id)
                if game.status == LOBBY:
                    now = self.clock()
                    await games_repo.update_game(conn, game.id, status=ENDED, ended_at=now)
                    ended = await reload(conn, game.id)
                    await edit_lobby(
                        conn, ended, Roster(await games_repo.seats(conn, game.id)), self.presentations[kind], now
                    )
                    await timers_repo.clear_timers(conn, game.id)
                    closed = getattr(self.presentations[kind], "lobby_closed", None)
                    if closed is not None:
                        await self.stepper.queue(conn, game, closed(game), now)
                else:
                    roster = Roster(await games_repo.seats(conn, game.id))
                    await self.stepper.advance(
                        conn, game, roster, [Action(None, dict(HOST_END))], user_id=caller.user_id
                    )
                game = await reload(conn, game.id)
            self.committed()
        log.info("game %s: ended by the host", game.id)
        return game

    async def replace(
        self,
        caller: Caller,
        kind: str,
        old: Member,
        new: Member,
        brief: Callable[[GameRow, Roster, str, Any, list[Any], float | None], str],
        game_opt: str | None = None,
    ) -> tuple[GameRow, Roster, str]:
        """Hand `old`'s seat to `new`; the new holder gets `brief(game, roster, seat, state, learned, deadline_at)`
        by DM: the seat's secrets, what the seat learned so far (its private events), and the open decision's
        deadline (None: none, or the game is paused)."""
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status == ENDED:
                    raise UserError("This game has ended.")
                roster = Roster(await games_repo.seats(conn, game.id))
                seat = roster.seat_of(old.user_id)
                if seat is None:
                    raise UserError(f"{old.display_name} does not hold a seat in this game.")
                if roster.seat_of(new.user_id) is not None:
                    raise UserError(f"{new.display_name} already holds a seat in this game.")
                if game.season_id is not None and self.seasons is not None:
                    if not await self.seasons.is_member(game.season_id, new.user_id):
                        raise UserError(
                            f"This game is a match of the server's season: only its roster may play, and "
                            f"{new.display_name} is not on it."
                        )
                holder = roster.player(seat)
                partner = holder is not None and holder.partner_id == old.user_id
                if partner:  # a shared seat's second member: only their place changes hands
                    await games_repo.reassign_partner(
                        conn, game.id, seat, user_id=new.user_id, user_name=new.user_name, display_name=new.display_name
                    )
                else:  # the seat's first member (a shared seat's partner keeps their place)
                    await games_repo.reassign_seat(
                        conn, game.id, seat, user_id=new.user_id, user_name=new.user_name, display_name=new.display_name
                    )
                stays = holder is not None and len(holder.members) > 1  # the other member is told nothing new
                # In the record too: who held each seat when.
                change = {"seat": seat, "from": old.user_id, "to": new.user_id} | ({"partner": True} if partner else {})
                await log_repo.add_seat_change(conn, game.id, game.step, change, caller.user_id, self.clock())
                roster = Roster(await games_repo.seats(conn, game.id))
                member = new.user_id if stays else None
                await self._hand_over(conn, game, roster, kind, seat, brief, old, new, member)
            self.committed()
        log.info("game %s: a seat was handed to another member", game.id)
        return game, roster, seat

    async def _hand_over(
        self,
        conn: Any,
        game: GameRow,
        roster: Roster,
        kind: str,
        seat: str,
        brief: Callable[[GameRow, Roster, str, Any, list[Any], float | None], str],
        old: Member,
        new: Member,
        member: int | None,
    ) -> None:
        """The new holder's brief by DM (to `member` alone in a shared seat), and the channel told."""
        state = None if game.state is None else self.stepper.states.get(self.presentations[kind].game, game)
        learned = await log_repo.events_for(conn, game.id, seat, private_only=True)
        run = clocks.running(await clocks_repo.clocks(conn, game.id))
        deadline_at = None if run is None or game.paused else run.deadline_at
        text = brief(game, roster, seat, state, learned, deadline_at)
        messages: list[Message] = [DM(seat, text, member=member)]
        replaced = getattr(self.presentations[kind], "seat_replaced", None)
        if replaced is not None:
            messages.extend(replaced(game, old, new))
        await self.stepper.queue(conn, game, messages, self.clock())

    async def replace_with_computer(
        self, caller: Caller, kind: str, old: Member, level: str, game_opt: str | None = None
    ) -> tuple[GameRow, Roster, str]:
        """Hand `old`'s seat to a computer player of `level`: it plays the seat on from what the seat received
        (a move `old` already made for the open decision stands). No DM: nobody reads it."""
        from .computers import check_level, computer_name, next_computer_number

        game = await self._game(caller, kind, game_opt)
        check_level(kind, level, self.presentations[kind].game.info.title)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status == ENDED:
                    raise UserError("This game has ended.")
                if game.season_id is not None:
                    raise UserError("This game is a match of the server's season: only its roster may play.")
                roster = Roster(await games_repo.seats(conn, game.id))
                seat = roster.seat_of(old.user_id)
                if seat is None:
                    raise UserError(f"{old.display_name} does not hold a seat in this game.")
                if len(roster.members_of(seat)) > 1:
                    raise UserError(
                        f"{old.display_name} shares a seat with another member: hand their place to a member "
                        "instead (a computer player cannot share a seat)."
                    )
                name = computer_name(next_computer_number(await games_repo.computer_names(conn, game.id)), level)
                await games_repo.reassign_seat(
                    conn, game.id, seat, user_id=None, user_name=name, display_name=name, computer=level
                )
                change = {"seat": seat, "from": old.user_id, "to": None, "computer": level}
                now = self.clock()
                await log_repo.add_seat_change(conn, game.id, game.step, change, caller.user_id, now)
                roster = Roster(await games_repo.seats(conn, game.id))
                messages: list[Message] = []
                replaced = getattr(self.presentations[kind], "seat_replaced", None)
                if replaced is not None:
                    messages.extend(replaced(game, old, Member(0, name, name)))
                await self.stepper.queue(conn, game, messages, now)
                if game.status == RUNNING and game.pending is not None:
                    await self.stepper.arm_computers(conn, game, roster, await self._done(conn, game, kind), now)
            self.committed()
        log.info("game %s: a seat was handed to a computer player (%s)", game.id, level)
        return game, roster, seat

    async def replace_computer(
        self,
        caller: Caller,
        kind: str,
        computer: str,
        new: Member,
        brief: Callable[[GameRow, Roster, str, Any, list[Any], float | None], str],
        game_opt: str | None = None,
    ) -> tuple[GameRow, Roster, str, str]:
        """Hand a computer player's seat (its seat id or name) to `new`, who gets the seat's brief by DM as from
        `replace`. A move the computer made for the open decision stands; its timer finds no computer and
        does nothing. Returns the game, roster, seat and the computer's name."""
        game = await self._game(caller, kind, game_opt)
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status == ENDED:
                    raise UserError("This game has ended.")
                if game.status == LOBBY:
                    raise UserError("The game has not started: take the computer out of the lobby; the member joins.")
                roster = Roster(await games_repo.seats(conn, game.id))
                seat = roster.lookup(computer)  # its seat id (the autocomplete's value) or its name
                holder = None if seat is None else roster.player(seat)
                if seat is None or holder is None or holder.computer is None:
                    names = ", ".join(roster.name_of(p.seat) for p in roster.players if p.computer is not None)
                    raise UserError(
                        f"{computer!r} is not a computer player of this game (they are: {names or 'none'})."
                    )
                if roster.seat_of(new.user_id) is not None:
                    raise UserError(f"{new.display_name} already holds a seat in this game.")
                await games_repo.reassign_seat(
                    conn, game.id, seat, user_id=new.user_id, user_name=new.user_name, display_name=new.display_name
                )
                change = {"seat": seat, "from": None, "to": new.user_id, "computer": None}
                await log_repo.add_seat_change(conn, game.id, game.step, change, caller.user_id, self.clock())
                roster = Roster(await games_repo.seats(conn, game.id))
                old = Member(0, holder.display_name, holder.display_name)
                await self._hand_over(conn, game, roster, kind, seat, brief, old, new, None)
            self.committed()
        log.info("game %s: a computer player's seat was handed to a member", game.id)
        return game, roster, seat, holder.display_name

    # ---- the record --------------------------------------------------------------------------------------

    async def record(self, game: GameRow) -> Record:
        """The game's whole record: setup and every step, replayable to its snapshot."""
        async with self.db.read() as conn:
            roster = Roster(await games_repo.seats(conn, game.id))
            entries = await log_repo.moves(conn, game.id)
        setup = game.setup or {}
        return Record(
            game=game.kind,
            seats=tuple(setup.get("seats") or roster.seats),
            names={p.seat: p.user_name for p in roster.players},
            settings=setup.get("settings") or game.settings,
            setup_chance=tuple(setup.get("chance") or ()),
            log=tuple(entries),
        )

    async def export(
        self, caller: Caller, kind: str, game_opt: str | None = None, *, seated: bool = False
    ) -> tuple[str, bytes]:
        """The game's record as its replay file. `seated`: a game whose command surface gives the file to the
        game's own host who also plays, with a warning of its own, instead of refusing it while the game runs
        (another seated admin is still refused: he is not the host the warning is for)."""
        name, data, _plays = await self.export_to_host(caller, kind, game_opt, seated=seated)
        return name, data

    async def export_to_host(
        self, caller: Caller, kind: str, game_opt: str | None = None, *, seated: bool = False
    ) -> tuple[str, bytes, bool]:
        """`export`, and whether the caller holds a seat in the game while it runs (the warning's case)."""
        game = await self.finder.game_or_last(caller, kind, game_opt)
        await self.finder.require_admin(game, caller)
        if game.status == LOBBY:
            raise UserError("The game has not started; there is nothing to export yet.")
        if game.started_at is None:
            raise UserError("This game was closed in its lobby, before it started: there is nothing to export.")
        plays = game.status != ENDED and (await self.finder.roster(game.id)).seat_of(caller.user_id) is not None
        if plays and not (seated and caller.user_id == game.host_id):
            # The record holds every seat's secrets: a host who plays may not read the others' seats.
            raise NotAllowed(
                "You hold a seat in this game, and its record holds every other seat's secrets, so it is not "
                "exported to you while the game runs. Export it once the game has ended (or ask a host who "
                "does not play)."
            )
        doc = self.presentations[kind].game.export(await self.record(game))
        return f"{kind}-game-{game.id}.json", json.dumps(doc, indent=2, sort_keys=True).encode(), plays

    async def post(self, game: GameRow, messages: list[Message]) -> None:
        """Queue messages for a game outside a step (e.g. a note in the channel)."""
        async with self.db.transaction() as conn:
            await self.stepper.queue(conn, game, messages, self.clock())
        self.committed()
