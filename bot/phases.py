"""Phase changes inside one transaction: open a phase, resolve the draft or a round, end the game.

Each function takes the open connection of the caller's transaction, so the state change, the
timers and the outgoing messages (outbox) commit together or not at all.
"""

from __future__ import annotations

import logging
from typing import Any

import aiosqlite

from rules.crimecity import GameState, new_game, public_view, resolve_draft, resolve_round
from rules.crimecity.ids import ROLE_GOALS

from . import codec, formatting
from .roster import Roster
from .storage import games as games_repo
from .storage import outbox as outbox_repo
from .storage import panels as panels_repo
from .storage import submissions as subs_repo
from .storage import timers as timers_repo
from .storage.models import DRAFT, EC, ENDED, ROUND, GameRow

log = logging.getLogger(__name__)

PLAYERS = 5


class PhaseConflict(RuntimeError):
    """Another resolution already moved this game on (the compare-and-set failed)."""


def reminder_at(now: float, deadline_at: float, hours: float = 1.0) -> float | None:
    """`hours` before the deadline (the game's reminder_hours); None when 0 or already past."""
    if hours <= 0:
        return None
    at = deadline_at - hours * 3600
    return at if at > now else None


async def schedule_deadline(
    conn: aiosqlite.Connection, game_id: int, phase_seq: int, now: float, due: float, reminder_hours: float = 1.0
) -> None:
    await timers_repo.clear_timers(conn, game_id)
    await timers_repo.add_timer(conn, game_id, "deadline", phase_seq, due)
    await schedule_reminder(conn, game_id, phase_seq, now, due, reminder_hours)


async def schedule_reminder(
    conn: aiosqlite.Connection, game_id: int, phase_seq: int, now: float, due: float, reminder_hours: float
) -> None:
    """(Re)place the phase's one reminder timer; it is persisted, so a restart keeps it."""
    await timers_repo.clear_timers(conn, game_id, ("reminder",))
    remind = reminder_at(now, due, reminder_hours)
    if remind is not None:
        await timers_repo.add_timer(conn, game_id, "reminder", phase_seq, remind)


async def open_phase(
    conn: aiosqlite.Connection, game: GameRow, now: float, *, status: str, round_no: int, **fields: Any
) -> int:
    """Move to the next phase (compare-and-set) with a fresh deadline; returns the new phase_seq."""
    seconds = game.deadline_hours * 3600
    deadline_at, remaining = (None, seconds) if game.paused else (now + seconds, None)
    ok = await games_repo.advance_phase(
        conn,
        game.id,
        game.phase_seq,
        status=status,
        round=round_no,
        deadline_at=deadline_at,
        paused_remaining=remaining,
        **fields,
    )
    if not ok:
        raise PhaseConflict(f"game {game.id} moved on")
    seq = game.phase_seq + 1
    await timers_repo.clear_timers(conn, game.id)
    if deadline_at is not None:
        await schedule_deadline(conn, game.id, seq, now, deadline_at, game.reminder_hours)
    return seq


async def submitted_seats(conn: aiosqlite.Connection, game: GameRow) -> set[str]:
    if game.status == DRAFT:
        return set(await subs_repo.drafts(conn, game.id))
    if game.status == ROUND:
        rows = await subs_repo.round_submissions(conn, game.id, game.round)
        return {seat for seat, row in rows.items() if row.submitted}
    return set()


async def all_submitted(conn: aiosqlite.Connection, game: GameRow) -> bool:
    return len(await submitted_seats(conn, game)) >= PLAYERS


def channel_payload(content: str, *, board: dict[str, Any] | None = None, mention: list[int] | None = None) -> dict:
    return {"content": formatting.clip(content), "board": board, "mention": mention or []}


def dm_payload(content: str) -> dict:
    return {"content": formatting.clip(content)}


# ---- resolution --------------------------------------------------------------------------------


async def resolve_phase(conn: aiosqlite.Connection, game: GameRow, now: float) -> bool:
    roster = Roster(await games_repo.players(conn, game.id))
    if game.status == DRAFT:
        await _resolve_draft(conn, game, roster, now)
        return True
    if game.status == ROUND:
        await _resolve_round(conn, game, roster, now)
        return True
    return False


async def _resolve_draft(conn: aiosqlite.Connection, game: GameRow, roster: Roster, now: float) -> None:
    drafts = {seat: codec.draft_from_row(row) for seat, row in (await subs_repo.drafts(conn, game.id)).items()}
    placements = placements_of(game, roster)
    garnets = {p.seat: p.start_garnets for p in roster.players}
    result = resolve_draft(roster.seats, drafts, placements, garnets)
    state = new_game(roster.seats, result.seats, garnets=result.garnets, rounds_total=game.rounds_total)
    draft_info = {
        "priority": list(result.priority),
        "unassigned": [c.value for c in result.unassigned],
        "garnets": dict(result.garnets),
        "placements": placements,
        "resolved_at": now,  # when round 1 opened (games.phase_opened_at)
    }
    seq = await open_phase(
        conn, game, now, status=ROUND, round_no=state.round, state_json=state.to_dict(), draft_json=draft_info
    )
    log.info("game %s: draft resolved, round %s open (phase %s)", game.id, state.round, seq)
    game = await games_repo.get_game(conn, game.id)
    assert game is not None
    footer = _open_footer(game)
    content = formatting.board_text(
        public_view(state),
        heading=f"**Crime City — Round {state.round}**: the draft is resolved; starting positions",
        submitted=[],
        footer=footer,
    )
    await outbox_repo.queue_channel(
        conn, game.id, game.channel_id, channel_payload(content, board=public_view(state)), now
    )
    for seat in roster.seats:
        s = state.seats[seat]
        text = (
            f"**Crime City** (<#{game.channel_id}>): the draft is resolved.\n"
            + formatting.seat_text(s.character.value, s.role.value, ROLE_GOALS[s.role], state.garnets.get(seat))
            + f"\nRound {state.round} is open: submit with /crimecity act (here or in the game's channel)."
        )
        await outbox_repo.queue_dm(conn, game.id, seat, dm_payload(text), now)


async def _resolve_round(conn: aiosqlite.Connection, game: GameRow, roster: Roster, now: float) -> None:
    assert game.state is not None
    state = GameState.from_dict(game.state)
    rows = await subs_repo.round_submissions(conn, game.id, game.round)
    subs = {seat: codec.submission_from_row(row) for seat, row in rows.items()}
    result = resolve_round(state, {seat: subs.get(seat) for seat in roster.seats})
    new_state = result.state
    resolved_round = state.round
    board_view: dict[str, Any] | None = None
    results: dict[str, Any] | None = None
    dms: list[tuple[str, str]] = []
    for event in result.events:
        if event.audience is None:
            if event.kind == "board":
                board_view = event.data
            elif event.kind == "game_over":
                results = event.data
            continue
        await subs_repo.add_private_result(conn, game.id, event.audience, resolved_round, event.kind, event.data, now)
        dms.append((event.audience, formatting.private_result_text(event.data, roster.name_of)))
    rejected = {seat: err.to_json() for seat, err in result.rejected.items()}
    for seat, err in result.rejected.items():
        dms.append(
            (
                seat,
                f"Your submission for round {resolved_round} was refused at resolution: {err.message} "
                "You resolved as if you had submitted nothing (rule R44).",
            )
        )
    if board_view is None:
        board_view = public_view(new_state)
    await subs_repo.put_round_log(conn, game.id, resolved_round, rejected, board_view, now)

    if new_state.over:
        if not await games_repo.advance_phase(
            conn, game.id, game.phase_seq, state_json=new_state.to_dict(), round=resolved_round
        ):
            raise PhaseConflict(f"game {game.id} moved on")
        game = await games_repo.get_game(conn, game.id)
        assert game is not None
        heading = f"**Crime City — Round {resolved_round}**: the board after the round (final)"
        content = formatting.board_text(board_view, heading=heading)
        await outbox_repo.queue_channel(conn, game.id, game.channel_id, channel_payload(content, board=board_view), now)
    else:
        await open_phase(conn, game, now, status=ROUND, round_no=new_state.round, state_json=new_state.to_dict())
        game = await games_repo.get_game(conn, game.id)
        assert game is not None
        heading = f"**Crime City — Round {resolved_round}**: the board after the round"
        content = formatting.board_text(board_view, heading=heading, submitted=[], footer=_open_footer(game))
        await outbox_repo.queue_channel(conn, game.id, game.channel_id, channel_payload(content, board=board_view), now)
    log.info("game %s: round %s resolved", game.id, resolved_round)
    # Exactly one DM per seat per round, in seat order, even with nothing to tell: how many DMs a
    # player gets (and the channel's "read your inbox" notes when DMs are closed) must not depend
    # on roles or results.
    for seat in roster.seats:
        lines = [text for to, text in dms if to == seat] or ["Nothing new for you this round."]
        text = "\n".join(lines)
        await outbox_repo.queue_dm(
            conn, game.id, seat, dm_payload(f"**Crime City — Round {resolved_round}**\n{text}"), now
        )
    if new_state.over:
        await end_game(conn, game, now, results or {}, early=False)


def _open_footer(game: GameRow) -> str:
    what = "the draft" if game.status == DRAFT else f"Round {game.round}"
    if game.deadline_at is None:
        return f"{what} is open for submissions; the clock is paused."
    return f"{what} is open: submit with /crimecity act before {formatting.timestamp(game.deadline_at)}."


def placements_of(game: GameRow, roster: Roster) -> list[str]:
    """The host's order, completed with the remaining players in join order."""
    given = [s for s in (game.placements or []) if s in roster.seats]
    return given + [s for s in roster.seats if s not in given]


# ---- the end -----------------------------------------------------------------------------------


async def end_game(
    conn: aiosqlite.Connection, game: GameRow, now: float, results: dict[str, Any], *, early: bool
) -> None:
    """Post the results; finish now when the rules decide the EC, else wait for /crimecity ec."""
    roster = Roster(await games_repo.players(conn, game.id))
    await games_repo.update_game(conn, game.id, results_json=results, deadline_at=None, paused_remaining=None)
    await timers_repo.clear_timers(conn, game.id)
    pending = results.get("ec_pending")
    content = formatting.results_text(results, roster.name_of, ec_seat=results.get("ec"), early=early)
    await outbox_repo.queue_channel(conn, game.id, game.channel_id, channel_payload(content), now)
    game = await games_repo.get_game(conn, game.id)
    assert game is not None
    if results.get("ec") is not None or not pending:
        await finish(conn, game, now, ec_seat=results.get("ec"))
        return
    await games_repo.update_game(conn, game.id, status=EC)
    candidates = ", ".join(roster.name_of(s) for s in pending["candidates"])
    how = "All deciders must agree. " if pending.get("unanimous") else ""
    for seat in pending["deciders"]:
        text = (
            f"**Crime City** (<#{game.channel_id}>): the game is over and you decide the EC among {candidates}. "
            f"{how}Choose with /crimecity ec player:<member>."
        )
        await outbox_repo.queue_dm(conn, game.id, seat, dm_payload(text), now)
    log.info("game %s: over, EC pending", game.id)


async def finish(conn: aiosqlite.Connection, game: GameRow, now: float, *, ec_seat: str | None) -> None:
    """The game has ended: the EC is known (or left open by the host), then the reveal."""
    roster = Roster(await games_repo.players(conn, game.id))
    await games_repo.update_game(
        conn, game.id, status=ENDED, ec_seat=ec_seat, ended_at=now, deadline_at=None, paused_remaining=None
    )
    await timers_repo.clear_timers(conn, game.id)
    await panels_repo.forget_panels(conn, game.id)
    lines = []
    if game.status == EC:
        lines.append(
            f"**Crime City**: the EC is {roster.name_of(ec_seat)}." if ec_seat else "**Crime City** has ended."
        )
    if game.reveal and game.state is not None:
        state = GameState.from_dict(game.state)
        seats = {s: {"character": st.character.value, "role": st.role.value} for s, st in state.seats.items()}
        lines.append(formatting.reveal_text(seats, roster.seats, roster.name_of, [c.value for c in state.unassigned]))
    if lines:
        await outbox_repo.queue_channel(conn, game.id, game.channel_id, channel_payload("\n".join(lines)), now)
    log.info("game %s: ended", game.id)


async def queue_reminders(conn: aiosqlite.Connection, game: GameRow, now: float) -> None:
    roster = Roster(await games_repo.players(conn, game.id))
    done = await submitted_seats(conn, game)
    if game.status == DRAFT:
        what = "the draft (/crimecity draft)"
    else:
        what = f"round {game.round} (/crimecity panel or /crimecity act)"
    for seat in roster.seats:
        if seat not in done:
            text = (
                f"**Crime City** (<#{game.channel_id}>): reminder, you have not submitted for {what} yet. "
                f"Deadline: {formatting.timestamp(game.deadline_at)}."
            )
            await outbox_repo.queue_dm(conn, game.id, seat, dm_payload(text), now)
