"""Read-only answers: the public board and a player's private status.

Mixed into GameService. The board is built from `rules.public_view` only; the status from
`rules.view_for` of the caller's own seat, so neither can show another seat's secrets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.crimecity import GameState, public_view, view_for
from rules.crimecity.notation import format_action, format_guess
from rules.crimecity.validate import BUY_COST

from . import codec, formatting, phases
from .context import Caller
from .errors import NotAllowed
from .roster import Roster
from .storage import games as games_repo
from .storage import outbox as outbox_repo
from .storage import submissions as subs_repo
from .storage.models import DRAFT, EC, ENDED, LOBBY, ROUND, GameRow

if TYPE_CHECKING:
    from .games import GameService


STATUS_LIMIT = 4096  # an embed description: /crimecity status is answered as one


@dataclass(frozen=True, slots=True)
class BoardReport:
    text: str
    view: dict[str, Any] | None  # for the picture; None before the first round


def _phase_line(game: GameRow) -> str:
    if game.status == LOBBY:
        return "Lobby: waiting for players."
    if game.status == DRAFT:
        what = "Draft"
    elif game.status == ROUND:
        what = f"Round {game.round} of {game.rounds_total}"
    elif game.status == EC:
        return "The game is over; the EC is being decided."
    else:
        return "The game has ended."
    if game.paused:
        return f"{what}: the clock is paused."
    return f"{what}: deadline {formatting.timestamp(game.deadline_at)}."


class ReportsMixin:
    async def board(self: GameService, caller: Caller, game_opt: str | None = None) -> BoardReport:
        game = await self.find_game(caller, game_opt)
        async with self.db.read() as conn:
            roster = Roster(await games_repo.players(conn, game.id))
            done = await phases.submitted_seats(conn, game)
        names = [roster.name_of(s) for s in roster.seats if s in done]
        if game.status == LOBBY:
            joined = ", ".join(p.display_name for p in roster.players) or "nobody yet"
            return BoardReport(f"**Crime City — lobby** ({len(roster)}/5): {joined}", None)
        if game.state is None:
            text = f"**Crime City — draft**\n{_phase_line(game)}\nSubmitted: {', '.join(names) or 'nobody yet'}"
            return BoardReport(text, None)
        state = GameState.from_dict(game.state)
        view = public_view(state)
        final = " (final)" if game.status in (EC, ENDED) else ""
        text = formatting.board_text(
            view,
            heading=f"**Crime City — Round {view['round']}**{final}",
            submitted=names if game.status == ROUND else None,
            footer=_phase_line(game),
        )
        return BoardReport(text, view)

    async def status(self: GameService, caller: Caller, game_opt: str | None = None) -> str:
        seated = await self.seated(caller, game_opt, need_seat=False)
        game, roster, seat = seated.game, seated.roster, seated.seat
        lines = [f"**Crime City — your status** (game #{game.id} in <#{game.channel_id}>)", _phase_line(game)]
        if seat is None:
            if not self.is_admin(game, caller):
                raise NotAllowed("You are not a player in this game.")
            lines.append("You host this game and do not hold a seat.")
            return formatting.clip("\n".join(lines), STATUS_LIMIT)
        async with self.db.read() as conn:
            drafts = await subs_repo.drafts(conn, game.id)
            rows = await subs_repo.round_submissions(conn, game.id, game.round) if game.status == ROUND else {}
            learned = await subs_repo.private_results(conn, game.id, seat)
            inbox = await outbox_repo.inbox(conn, game.id, seat)
        if game.status == LOBBY:
            lines.append(f"Players ({len(roster)}/5): " + ", ".join(p.display_name for p in roster.players))
        elif game.status == DRAFT:
            player = roster.player(seat)
            lines.append(f"Garnets: {player.start_garnets if player else 0}")
            draft = drafts.get(seat)
            if draft is None:
                lines.append("Your draft submission: none yet (/crimecity draft).")
            else:
                lines.append(f"Your draft submission: bid {draft.bid}")
                lines.append("Roles: " + ", ".join(formatting.role_title(r) for r in draft.roles))
                lines.append("Characters: " + ", ".join(formatting.char_title(c) for c in draft.characters))
        if game.state is not None:
            lines.extend(self._seat_lines(GameState.from_dict(game.state), seat, roster, rows.get(seat), game))
        if learned:
            lines.append("")
            lines.append("__What you have learned__")
            lines.extend(f"Round {rnd}: {formatting.private_result_text(d, roster.name_of)}" for rnd, _k, d in learned)
        lines.extend(await self._inbox_lines(game.id, seat, inbox, budget=STATUS_LIMIT - len("\n".join(lines))))
        return formatting.clip("\n".join(lines), STATUS_LIMIT)

    async def _inbox_lines(
        self: GameService, game_id: int, seat: str, inbox: list[tuple[int, str, bool]], *, budget: int
    ) -> list[str]:
        """Unread undeliverable DMs, oldest first, as many as fit; only those shown are marked read."""
        if not inbox:
            return []
        unread = [(i, text) for i, text, read in inbox if not read]
        lines = ["", f"__Inbox__ (messages I could not DM you; {len(unread)} new)"]
        budget -= len("\n".join(lines)) + 160  # room for the "more" line and the cog's hint line
        shown: list[int] = []
        for item_id, text in unread:
            if len(text) + 1 > budget and shown:
                break
            text = formatting.clip(text, max(200, budget))
            lines.append(text)
            budget -= len(text) + 1
            shown.append(item_id)
        if len(shown) < len(unread):
            lines.append(f"({len(unread) - len(shown)} more: use /crimecity status again to read them.)")
        elif not unread:
            lines.append("Nothing new since you last looked.")
        if shown:
            async with self.db.transaction() as conn:
                await outbox_repo.mark_inbox_read(conn, game_id, seat, self.clock(), ids=shown)
        return lines

    def _seat_lines(
        self: GameService, state: GameState, seat: str, roster: Roster, row: Any, game: GameRow
    ) -> list[str]:
        view = view_for(state, seat)
        own = view["seat"]
        lines = ["", formatting.seat_text(own["character"], own["role"], own["goal"], view["garnets"])]
        if not own["alive"]:
            lines.append("Your character is dead: you submit one movement action per round (rule Q27).")
        if view["completed"]:
            lines.append(f"Your goal is complete (round {view['completed']}).")
        progress = view.get("progress") or {}
        if progress.get("stolen"):
            lines.append("Stolen from: " + ", ".join(formatting.char_title(c) for c in progress["stolen"]))
        if progress.get("bank_turns"):
            lines.append(f"Turns at the Bank that count: {progress['bank_turns']}")
        if progress.get("fraud_stage"):
            lines.append(f"Fraud stage one reached in round {progress['fraud_stage']}")
        cooldowns = view.get("cooldowns") or []
        lines.append("On cooldown this round: " + (", ".join(map(formatting.cooldown_title, cooldowns)) or "nothing"))
        if game.status == ROUND:
            lines.append("")
            sub = None if row is None else codec.submission_from_row(row)
            if sub is None:
                lines.append(f"Your round {game.round} actions: not submitted yet (/crimecity act).")
            else:
                acts = ", ".join(f"`{format_action(a, roster.name_of)}`" for a in sub.actions)
                lines.append(f"Your round {game.round} actions: {acts}")
            if row is not None and row.buys:
                pairs = ", ".join(f"{formatting.char_title(a)} + {formatting.char_title(b)}" for a, b in row.buys)
                lines.append(f"Friendship purchases: {pairs} ({BUY_COST * len(row.buys)} garnets)")
            if row is not None and row.guess:
                lines.append("Your guess: " + format_guess(codec.submission_guess(row.guess)))
        return lines
