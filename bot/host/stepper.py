"""Applying steps: setup, a move, a resolution, a timeout, a host's move — always the same way.

Inside the caller's transaction (and under the game's lock): the rules' `step` with the game's
seeded chance, then the move log, the events by recipient, the new snapshot (compare-and-set on
the game's version), the decision that opens, its clocks and timers, and the messages the
presentation makes of it (outbox). Everything of one step commits together or not at all.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.contract import Action, Event, Game, LogEntry, Outcome, Pending, SeededChance

from ..storage import clocks as clocks_repo
from ..storage import games as games_repo
from ..storage import log as log_repo
from ..storage import outbox as outbox_repo
from ..storage import panels as panels_repo
from ..storage import submissions as subs_repo
from ..storage import timers as timers_repo
from ..storage.errors import Moved
from ..storage.models import ENDED, RUNNING, ClockRow, GameRow
from ..storage.sql import dumps, loads
from . import clocks
from .presenting import DM, Message, Post, Presentation, Reminder, StepView
from .roster import Roster

log = logging.getLogger(__name__)

DEADLINE, REMINDER, RESOLVE, COMPUTER = "deadline", "reminder", "resolve", "computer"


def counted(rules: Game, state: Any, collected: Mapping[str, Any]) -> set[str]:
    """The seats whose collected move counts as submitted (a game may collect parts of a move first:
    its optional `counts(state, move)` says which are whole)."""
    counts = getattr(rules, "counts", None)
    return {seat for seat, move in collected.items() if counts is None or counts(state, move)}


@dataclass(frozen=True, slots=True)
class ComputerWait:
    """What a computer player's timing depends on: the game, its seat, the running deadline (None: none,
    or paused), now, and whether a member still owes a move (then it takes its time; else it moves soon)."""

    game: GameRow
    seat: str
    deadline_at: float | None
    now: float
    members_owe: bool


def is_computer(roster: Roster, seat: str) -> bool:
    holder = roster.player(seat)
    return holder is not None and holder.computer is not None


# Someone else moved the game on meanwhile (its version changed): nothing of the step was written.
Conflict = Moved


@dataclass(frozen=True, slots=True)
class Advance:
    """A step that was applied: the game row and decoded state after it, and what happened."""

    game: GameRow
    state: Any
    events: tuple[Event, ...]
    opened: bool
    clocks: tuple[ClockRow, ...] = ()  # the game's clock rows after the step
    timers: bool = True  # the step placed or cleared timers (False: it left them all as they were)


class States:
    """Decoded states by (game, version): decoding once per stored version, not once per command."""

    MAX = 4096

    def __init__(self) -> None:
        self._cache: dict[int, tuple[int, Any]] = {}

    def get(self, game: Game, row: GameRow) -> Any:
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        assert row.state is not None, "a game without a state has not started"
        state = game.decode_state(row.state)
        self.put(row.id, row.version, state)
        return state

    def put(self, game_id: int, version: int, state: Any) -> None:
        if game_id not in self._cache and len(self._cache) >= self.MAX:
            del self._cache[next(iter(self._cache))]
        self._cache[game_id] = (version, state)


class Stepper:
    def __init__(
        self,
        presentations: Mapping[str, Presentation],
        states: States,
        *,
        clock: Callable[[], float],
        computer_delay: Callable[[ComputerWait], float | None] | None = None,
    ) -> None:
        self.presentations = presentations
        self.states = states
        self.clock = clock
        # Seconds until a computer player's seat moves in the open decision (None: it does not).
        self.computer_delay = computer_delay
        # Set by the host: what a game's end writes beside it, in the same transaction (its season's match).
        self.on_end: Callable[[Any, GameRow, Roster, StepView], Awaitable[None]] | None = None

    def rules_of(self, game: GameRow) -> Game:
        return self.presentations[game.kind].game

    # ---- setup -------------------------------------------------------------------------------------------

    async def start(self, conn: Any, game: GameRow, roster: Roster, settings: dict[str, Any]) -> Advance:
        """Setup from the lobby: a secret seed, the first state, the first decision."""
        rules = self.rules_of(game)
        now = self.clock()
        seed = secrets.token_hex(16)
        chance = SeededChance(seed)
        out = rules.setup(tuple(roster.seats), settings, chance)
        setup = {"seats": roster.seats, "settings": settings, "chance": chance.drawn}
        await games_repo.update_game(
            conn,
            game.id,
            seed=seed,
            draws=chance.draws,
            setup_json=dumps(setup),
            started_at=now,
            status=RUNNING,
            settings_json=dumps(settings),
        )
        started = await games_repo.get_game(conn, game.id)
        assert started is not None
        return await self._commit(conn, started, roster, out, (), seq=0, draws=chance.draws, now=now, user_id=None)

    # ---- steps -------------------------------------------------------------------------------------------

    async def advance(
        self,
        conn: Any,
        game: GameRow,
        roster: Roster,
        actions: Sequence[Action],
        *,
        user_id: int | None,
        state: Any | None = None,
        known_clocks: Sequence[ClockRow] | None = None,
    ) -> Advance:
        """Apply `actions` (already checked) to the game as it is now (`known_clocks`: its clock rows, when the
        caller knows them as committed: read otherwise)."""
        rules = self.rules_of(game)
        if state is None:
            state = self.states.get(rules, game)
        assert game.seed is not None
        chance = SeededChance(game.seed, start=game.draws)
        out = rules.step(state, list(actions), chance)
        now = self.clock()
        entry = LogEntry(tuple(actions), tuple(chance.drawn))
        await log_repo.add_move(conn, game.id, game.step, entry, user_id, now)
        return await self._commit(
            conn, game, roster, out, tuple(actions), seq=None, draws=chance.draws, now=now, user_id=user_id,
            known_clocks=known_clocks,
        )

    async def resolve_collected(self, conn: Any, game: GameRow, roster: Roster, *, user_id: int | None) -> Advance:
        """The open decision's deadline passed (or everyone is in, or the host resolves it): what was
        collected, in seat order, plus whatever the game makes of the deadline."""
        rules = self.rules_of(game)
        state = self.states.get(rules, game)
        pending = game.pending
        actions: list[Action] = []
        if pending is not None and pending.together:
            collected = await subs_repo.collected(conn, game.id, game.step)
            actions = [Action(seat, collected[seat]) for seat in pending.awaited if seat in collected]
        actions += rules.timeout_actions(state)
        return await self.advance(conn, game, roster, actions, user_id=user_id, state=state)

    async def _commit(
        self,
        conn: Any,
        game: GameRow,
        roster: Roster,
        out: Outcome,
        actions: tuple[Action, ...],
        *,
        seq: int | None,  # 0: the setup's events; None: those of the log entry just added
        draws: int,
        now: float,
        user_id: int | None,
        known_clocks: Sequence[ClockRow] | None = None,
    ) -> Advance:
        rules = self.rules_of(game)
        pending = rules.pending(out.state)
        results = rules.results(out.state)
        before = None if seq == 0 else game.pending
        opened = pending is not None and (before is None or pending.to_json() != before.to_json())
        step = game.step + 1 if opened else game.step
        fields: dict[str, Any] = {
            "state_json": dumps(rules.encode_state(out.state)),
            "version": game.version + 1,
            "draws": draws,
            "step": step,
            "pending_json": None if pending is None else dumps(pending.to_json()),
        }
        if opened:
            fields["step_opened_at"] = now
            fields["paused_for"] = 0.0  # a pause still on counts for the new decision from now (open_for)
        if results is not None or pending is None:
            fields.update(status=ENDED, ended_at=now, results_json=dumps(results))
        await games_repo.move_on(conn, game.id, game.version, **fields)  # Conflict when someone else did
        if opened or pending is None:
            await log_repo.close_step(conn, game.id, game.step, now)
        if opened:
            assert pending is not None
            await log_repo.open_step(conn, game.id, step, pending, now)
        await log_repo.add_events(conn, game.id, seq, game.step, out.events, now)
        # The row as written, without reading it back: the caller's row is the game as committed (read in
        # this transaction, or the context kept under the game's lock), and only these columns changed.
        after = replace(
            game,
            state=loads(fields["state_json"]),
            version=fields["version"],
            draws=draws,
            step=step,
            pending=None if pending is None else Pending.from_json(loads(fields["pending_json"])),
            step_opened_at=now if opened else game.step_opened_at,
            paused_for=0.0 if opened else game.paused_for,
            status=fields.get("status", game.status),
            ended_at=fields.get("ended_at", game.ended_at),
            results=loads(fields["results_json"]) if "results_json" in fields else game.results,
        )
        self.states.put(game.id, after.version, out.state)
        rows, moved = await self._reconcile_clocks(conn, after, pending, now, known_clocks)
        deadline = clocks.running(rows)
        view = StepView(
            game=after,
            roster=roster,
            state=out.state,
            actions=actions,
            events=out.events,
            before=before,
            pending=pending,
            opened=opened,
            deadline_at=None if deadline is None else deadline.deadline_at,
            results=results,
            host_action=any(a.by is None for a in actions) and user_id is not None,
        )
        messages = self.presentations[game.kind].step_messages(view)
        # A computer player's seat reads nothing: no DM is written for it (it decides from its events).
        messages = [m for m in messages if not (isinstance(m, DM) and is_computer(roster, m.seat))]
        await self.queue(conn, after, messages, now)
        if after.status == ENDED:
            if self.on_end is not None:
                await self.on_end(conn, after, roster, view)
            await timers_repo.clear_timers(conn, game.id)
            await panels_repo.forget_panels(conn, game.id)
            await subs_repo.forget(conn, game.id)
            log.info("game %s: over", game.id)
        else:
            await self._schedule(conn, after, roster, rows, opened or moved, now, opened)
        timers = after.status == ENDED or opened or moved
        return Advance(after, out.state, out.events, opened, tuple(rows), timers)

    async def _reconcile_clocks(
        self, conn: Any, game: GameRow, pending: Pending | None, now: float, known: Sequence[ClockRow] | None
    ) -> tuple[list[ClockRow], bool]:
        """The clock rows after the step, and whether they changed."""
        old = list(known) if known is not None else await clocks_repo.clocks(conn, game.id)
        wanted = () if pending is None else pending.clocks
        rows = clocks.reconcile(
            old, wanted, now=now, paused=game.paused, default_seconds=game.options.deadline_hours * 3600
        )
        if [(r.clock, r.deadline_at, r.remaining) for r in rows] != [
            (r.clock, r.deadline_at, r.remaining) for r in old
        ]:
            await clocks_repo.replace_clocks(conn, game.id, rows)
            return rows, True
        return rows, False

    async def _schedule(
        self, conn: Any, game: GameRow, roster: Roster, rows: list[ClockRow], clocked: bool, now: float, opened: bool
    ) -> None:
        """The open decision's timers: its running clock's deadline and reminder (placed again only when
        the decision or its clocks changed: a step within a turn leaves them as they are), a computer's move."""
        if clocked:
            await self.schedule_clock(conn, game, rows, now)
        if opened:  # what was due for the decision that is over ("everyone is in", a computer's move)
            await timers_repo.clear_timers(conn, game.id, (RESOLVE, COMPUTER))
            await self.arm_computers(conn, game, roster, set(), now, rows=rows)

    async def arm_computers(
        self,
        conn: Any,
        game: GameRow,
        roster: Roster,
        done: set[str],
        now: float,
        *,
        rows: list[ClockRow] | None = None,
    ) -> None:
        """A timer for each computer player's seat the open decision awaits and that has not moved
        (`done`: the seats whose collected move counts). A timer already armed is only ever brought
        forward, so calling this again (the last member moved, a seat changed hands) never delays one."""
        pending = game.pending
        if pending is None or self.computer_delay is None:
            return
        if not any(is_computer(roster, seat) and seat not in done for seat in pending.awaited):
            return  # no computer player's seat to arm: nothing to read
        if rows is None:
            rows = await clocks_repo.clocks(conn, game.id)
        run = clocks.running(rows)
        deadline_at = None if run is None or game.paused else run.deadline_at
        members_owe = any(s not in done and roster.user_of(s) is not None for s in pending.awaited)
        armed = {
            t.clock: t for t in await timers_repo.timers_of(conn, game.id) if t.kind == COMPUTER and t.step == game.step
        }
        for seat in dict.fromkeys(pending.awaited):  # a player moves only where it is awaited
            holder = roster.player(seat)
            if holder is None or holder.computer is None or seat in done:
                continue
            delay = self.computer_delay(ComputerWait(game, seat, deadline_at, now, members_owe))
            if delay is None:
                continue
            timer = armed.get(seat)
            if timer is None or timer.step != game.step:
                log.debug("game %s: computer timer for %s at step %s in %.1fs", game.id, seat, game.step, delay)
                await timers_repo.place_timer(conn, game.id, COMPUTER, game.step, now + delay, clock=seat)
            elif now + delay < timer.due_at:
                await timers_repo.move_timer(conn, timer.id, now + delay)

    async def schedule_clock(self, conn: Any, game: GameRow, rows: list[ClockRow], now: float) -> None:
        """(Re)place the deadline and reminder timers of the running clock (none while paused)."""
        await timers_repo.clear_timers(conn, game.id, (DEADLINE, REMINDER))
        run = clocks.running(rows)
        if run is None or run.deadline_at is None or game.paused:
            return
        await timers_repo.place_timer(conn, game.id, DEADLINE, game.step, run.deadline_at, clock=run.clock)
        options = game.options
        wanted = {c.id: c.seconds for c in (game.pending.clocks if game.pending is not None else ())}
        length = wanted.get(run.clock)
        length = options.deadline_hours * 3600 if length is None else length
        share = options.reminder_share
        opened = game.pending.clocks if game.pending is not None else ()
        if share is None and len(opened) > 1 and options.reminder_hours > 0 and run.clock == opened[-1].id:
            share = options.reminder_nested_share  # a window inside another clock (None: as any clock)
        if share is None and 0 < length <= options.reminder_hours * 3600:
            share = options.reminder_short_share  # the lead would be past as the clock starts
        if share is None:
            remind = clocks.reminder_at(now, run.deadline_at, options.reminder_hours)
        else:
            remind = clocks.reminder_by_share(now, run.deadline_at, length, share, options.reminder_shortest)
        if remind is not None:
            await timers_repo.place_timer(conn, game.id, REMINDER, game.step, remind, clock=run.clock)

    async def remind(
        self, conn: Any, game: GameRow, roster: Roster, seats: tuple[str, ...], deadline_at: float
    ) -> None:
        assert game.pending is not None
        messages = self.presentations[game.kind].reminder(Reminder(game, roster, game.pending, deadline_at, seats))
        await self.queue(conn, game, messages, self.clock())

    async def queue(self, conn: Any, game: GameRow, messages: Sequence[Message], now: float) -> None:
        for message in messages:
            if isinstance(message, Post):
                payload: dict[str, Any] = {"content": message.text, "mention": list(message.mention)}
                if message.picture is not None:
                    payload["picture"] = {"kind": game.kind, "view": message.picture, "alt": message.alt}
                if message.buttons:
                    payload["buttons"] = list(message.buttons)
                if message.edit_key is not None:
                    payload["edit_key"] = message.edit_key
                    payload["append"] = message.append
                    if message.heading:
                        payload["heading"] = message.heading
                await outbox_repo.queue_channel(conn, game.id, game.channel_id, payload, now)
            elif isinstance(message, DM):
                payload = {"content": message.text}
                if message.buttons:
                    payload["buttons"] = list(message.buttons)
                if message.answers:
                    payload["answers"] = list(message.answers)
                    payload["step"] = game.step
                if message.member is not None:
                    payload["member"] = message.member
                await outbox_repo.queue_dm(conn, game.id, message.seat, payload, now)
