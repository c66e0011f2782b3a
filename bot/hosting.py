"""What a host (or a member with Manage Server) can do to a running game.

Mixed into GameService; each operation checks admin rights itself (Discord's default permissions
cannot guard a subgroup of a command every member uses).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from rules.crimecity import GameState, final_results
from rules.crimecity.ids import ROLE_GOALS
from rules.crimecity.replay import export_replay

from . import codec, formatting, phases
from .context import Caller, Member
from .errors import UserError
from .roster import Roster
from .storage import games as games_repo
from .storage import outbox as outbox_repo
from .storage import submissions as subs_repo
from .storage import timers as timers_repo
from .storage.models import DRAFT, EC, ENDED, LOBBY, ROUND, GameRow

if TYPE_CHECKING:
    from .games import GameService

log = logging.getLogger(__name__)


class HostingMixin:
    async def admin_resolve(self: GameService, caller: Caller, game_opt: str | None = None) -> GameRow:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        if game.status not in (DRAFT, ROUND):
            raise UserError("There is no open phase to resolve in this game.")
        async with self.db.read() as conn:
            opened = await self.phase_opened_at(conn, game)
        if opened is not None and caller.issued_at is not None and caller.issued_at < opened:
            # Two admins at once (or an admin and the deadline): this one meant the phase just resolved.
            raise UserError(f"That phase was just resolved; Round {game.round} is open now and was not resolved.")
        if not await self.resolve(game.id, game.phase_seq):
            raise UserError("That phase was just resolved.")
        log.info("game %s: resolved by the host", game.id)
        return game

    async def admin_deadline(self: GameService, caller: Caller, hours: float, game_opt: str | None = None) -> GameRow:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        if not 0 <= hours <= 24 * 60:
            raise UserError("hours must be between 0 and 1440.")
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status not in (DRAFT, ROUND):
                    raise UserError("There is no open phase with a deadline in this game.")
                now = self.clock()
                if game.paused:
                    await games_repo.update_game(conn, game.id, paused_remaining=hours * 3600)
                else:
                    await games_repo.update_game(conn, game.id, deadline_at=now + hours * 3600)
                    await phases.schedule_deadline(
                        conn, game.id, game.phase_seq, now, now + hours * 3600, game.reminder_hours
                    )
                    await self._maybe_all_in(conn, game)
                game = await self._reload(conn, game.id)
            self._committed()
        return game

    async def admin_reminder(self: GameService, caller: Caller, hours: float, game_opt: str | None = None) -> str:
        """Sets the game's reminder lead time (0 = none) and re-places the open phase's reminder."""
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        if not 0 <= hours <= 24 * 60:
            raise UserError("hours must be between 0 and 1440 (0 turns reminders off).")
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status not in (LOBBY, DRAFT, ROUND):
                    raise UserError("This game is over; there is no deadline left to remind anyone of.")
                await games_repo.update_game(conn, game.id, reminder_hours=hours)
                now = self.clock()
                if game.accepts_submissions and game.deadline_at is not None:
                    await phases.schedule_reminder(conn, game.id, game.phase_seq, now, game.deadline_at, hours)
                game = await self._reload(conn, game.id)
            self._committed()
        log.info("game %s: reminder lead time set by the host", game.id)
        if hours == 0:
            return "Reminders are off for this game."
        when = phases.reminder_at(now, game.deadline_at, hours) if game.deadline_at is not None else None
        tail = f" The next one: {formatting.timestamp(when)}." if when is not None else ""
        return f"Players who have not submitted get a DM {hours:g} h before each deadline.{tail}"

    async def admin_pause(self: GameService, caller: Caller, pause: bool, game_opt: str | None = None) -> GameRow:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status not in (DRAFT, ROUND):
                    raise UserError("There is no running phase to pause or resume.")
                now = self.clock()
                if pause:
                    if game.paused:
                        raise UserError("The clock is already paused.")
                    remaining = max(0.0, (game.deadline_at or now) - now)
                    await games_repo.update_game(conn, game.id, deadline_at=None, paused_remaining=remaining)
                    await timers_repo.clear_timers(conn, game.id)
                else:
                    if not game.paused:
                        raise UserError("The clock is not paused.")
                    due = now + (game.paused_remaining or 0.0)
                    await games_repo.update_game(conn, game.id, deadline_at=due, paused_remaining=None)
                    await phases.schedule_deadline(conn, game.id, game.phase_seq, now, due, game.reminder_hours)
                    game = await self._reload(conn, game.id)
                    await self._maybe_all_in(conn, game)
                game = await self._reload(conn, game.id)
            self._committed()
        log.info("game %s: clock %s", game.id, "paused" if pause else "resumed")
        return game

    async def admin_end(self: GameService, caller: Caller, reveal: bool, game_opt: str | None = None) -> GameRow:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                now = self.clock()
                await games_repo.update_game(conn, game.id, reveal=int(reveal))
                game = await self._reload(conn, game.id)
                if game.status in (LOBBY, DRAFT):
                    await phases.finish(conn, game, now, ec_seat=None)
                    await outbox_repo.queue_channel(
                        conn,
                        game.id,
                        game.channel_id,
                        phases.channel_payload("**Crime City**: the host ended the game before the first round."),
                        now,
                    )
                elif game.status == ROUND and game.state is not None:
                    state = GameState.from_dict(game.state)
                    results = final_results(state, ended_after_round=max(0, state.round - 1)).to_json()
                    await phases.end_game(conn, game, now, results, early=True)
                elif game.status == EC:
                    # The deciders did not decide: the host closes the game with the EC left open.
                    await phases.finish(conn, game, now, ec_seat=None)
                else:
                    raise UserError("This game has already ended.")
                game = await self._reload(conn, game.id)
            self._committed()
        log.info("game %s: ended by the host", game.id)
        return game

    async def admin_replace(
        self: GameService, caller: Caller, old: Member, new: Member, game_opt: str | None = None
    ) -> str:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status == ENDED:
                    raise UserError("This game has ended.")
                roster = Roster(await games_repo.players(conn, game.id))
                seat = roster.seat_of(old.user_id)
                if seat is None:
                    raise UserError(f"{old.display_name} does not hold a seat in this game.")
                if roster.seat_of(new.user_id) is not None:
                    raise UserError(f"{new.display_name} already holds a seat in this game.")
                await games_repo.reassign_seat(
                    conn, game.id, seat, user_id=new.user_id, user_name=new.user_name, display_name=new.display_name
                )
                roster = Roster(await games_repo.players(conn, game.id))
                now = self.clock()
                await outbox_repo.queue_dm(
                    conn, game.id, seat, phases.dm_payload(await self._seat_brief(conn, game, roster, seat)), now
                )
                note = f"**Crime City**: {new.display_name} takes over {old.display_name}'s seat."
                await outbox_repo.queue_channel(conn, game.id, game.channel_id, phases.channel_payload(note), now)
            self._committed()
        log.info("game %s: seat %s handed to another member", game.id, seat)
        return f"{new.display_name} now holds {old.display_name}'s seat; they were sent the seat's secrets by DM."

    async def _seat_brief(self: GameService, conn: Any, game: GameRow, roster: Roster, seat: str) -> str:
        """Everything the seat knows: character, role, goal and private results so far."""
        lines = [f"**Crime City** (<#{game.channel_id}>): you now hold a seat in this game."]
        if game.state is not None:
            state = GameState.from_dict(game.state)
            s = state.seats[seat]
            lines.append(
                formatting.seat_text(s.character.value, s.role.value, ROLE_GOALS[s.role], state.garnets.get(seat))
            )
            for rnd, _kind, data in await subs_repo.private_results(conn, game.id, seat):
                lines.append(f"Round {rnd}: {formatting.private_result_text(data, roster.name_of)}")
        elif game.status == DRAFT:
            lines.append("The draft is open: submit with /crimecity draft.")
        return "\n".join(lines)

    async def admin_garnets(
        self: GameService, caller: Caller, player: Member, amount: int, game_opt: str | None = None
    ) -> str:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        if amount < 0:
            raise UserError("A garnet balance cannot be negative.")
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                roster = Roster(await games_repo.players(conn, game.id))
                seat = roster.seat_of(player.user_id)
                if seat is None:
                    raise UserError(f"{player.display_name} is not a player in this game.")
                if game.status in (LOBBY, DRAFT):
                    await games_repo.set_start_garnets(conn, game.id, seat, amount)
                elif game.status == ROUND and game.state is not None:
                    state = GameState.from_dict(game.state)
                    state = state.with_changes(garnets={**state.garnets, seat: amount})
                    await games_repo.update_game(conn, game.id, state_json=state.to_dict())
                else:
                    raise UserError("The game is over; balances are final.")
            self._committed()
        log.info("game %s: a balance was set by the host", game.id)
        return f"{player.display_name} now has {amount} garnets."

    async def admin_placements(self: GameService, caller: Caller, order: str, game_opt: str | None = None) -> str:
        game = await self.find_game(caller, game_opt)
        self.require_admin(game, caller)
        async with self.lock(game.id):
            async with self.db.transaction() as conn:
                game = await self._reload(conn, game.id)
                if game.status not in (LOBBY, DRAFT):
                    raise UserError("Placements can only be set before the draft resolves.")
                roster = Roster(await games_repo.players(conn, game.id))
                seats = []
                for name in [n for n in order.replace(";", ",").split(",") if n.strip()]:
                    seat = roster.lookup(name)
                    if seat is None:
                        raise UserError(f"No player named {name.strip()!r} in this game.")
                    if seat in seats:
                        raise UserError(f"{roster.name_of(seat)} is listed twice.")
                    seats.append(seat)
                if not seats:
                    raise UserError("List the players from first to last, comma-separated.")
                await games_repo.update_game(conn, game.id, placements_json=seats)
                full = phases.placements_of(await self._reload(conn, game.id), roster)
            self._committed()
        return "Draft tie-break order: " + ", ".join(roster.name_of(s) for s in full)

    async def admin_export(self: GameService, caller: Caller, game_opt: str | None = None) -> tuple[str, bytes]:
        game = await self.find_game_any(caller, game_opt)
        self.require_admin(game, caller)
        async with self.db.read() as conn:
            roster = Roster(await games_repo.players(conn, game.id))
            drafts = await subs_repo.drafts(conn, game.id)
            rows = await subs_repo.all_round_submissions(conn, game.id)
            logged = await conn.execute_fetchall("SELECT round FROM round_log WHERE game_id = ?", (game.id,))
        if game.status == LOBBY:
            raise UserError("The game has not started; there is nothing to export yet.")
        resolved = sorted(r["round"] for r in logged)
        rounds: list[dict[str, Any]] = []
        for rnd in resolved:
            by_seat = {row.seat: codec.submission_from_row(row) for row in rows if row.round == rnd}
            rounds.append({seat: by_seat[seat] for seat in roster.seats if seat in by_seat})
        doc = export_replay(
            roster.seats,
            rounds_total=game.rounds_total,
            garnets={p.seat: p.start_garnets for p in roster.players},
            rounds=rounds,
            placements=phases.placements_of(game, roster),
            draft={seat: codec.draft_from_row(row) for seat, row in drafts.items()},
            name_of={p.seat: p.user_name for p in roster.players},
        )
        return f"crimecity-game-{game.id}.json", json.dumps(doc, indent=2, sort_keys=True).encode()
