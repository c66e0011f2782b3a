"""Crime City's answers that read the game: status, board, history, and the host's game-specific moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from rules.crimecity.actions import Action
from rules.crimecity.game import DRAFT, EC, ROUND
from rules.crimecity.notation import format_action, format_guess
from rules.crimecity.validate import BUY_COST

from ...host import EMBED_COLOUR, Board, Caller, Member, Refused, Status, Turn, UserError, clip, timestamp
from . import texts
from .presentation import learned_lines, round_of

if TYPE_CHECKING:
    from ...host import GameRow, Host, Roster

KIND = "crimecity"
STATUS_LIMIT = 4096  # an embed description: /crimecity status is answered as one
FIELD_VALUE = 600  # 8 history fields of at most ~660 characters keep a page under 6,000


def round_no(turn: Turn) -> int:
    return turn.state.game.round if turn.state.game is not None else 0


def require_round(turn: Turn) -> None:
    pending = turn.game.pending
    if pending is not None and pending.decision == DRAFT:
        raise UserError("You cannot do that yet: the game is in its draft. Submit with /crimecity draft first.")
    if pending is None or pending.decision != ROUND:
        raise UserError("No round is open for submissions in this game, so you cannot submit now.")


def phase_line(game: GameRow, deadline_at: float | None) -> str:
    pending = game.pending
    if game.status == "lobby":
        return "Lobby: waiting for players."
    if pending is None:
        return "The game has ended."
    if pending.decision == EC:
        return "The game is over; the EC is being decided."
    if pending.decision == DRAFT:
        what = "Draft"
    else:
        total = game.settings.get("rounds", 6)
        what = f"Round {round_of(pending)} of {total}"
    if game.paused or deadline_at is None:
        return f"{what}: the clock is paused."
    return f"{what}: deadline {timestamp(deadline_at)}."


# ---- the board ---------------------------------------------------------------------------------------


async def board_text(host: Host, caller: Caller, game_opt: str | None) -> tuple[str, dict[str, Any] | None]:
    board: Board = await host.reports.board(caller, KIND, game_opt)
    game, roster = board.game, board.roster
    if game.status == "lobby":
        joined = ", ".join(roster.name_of(s) for s in roster.seats) or "nobody yet"
        return f"**Crime City — lobby** ({len(roster)}/5): {joined}", None
    public = board.public
    names = [roster.name_of(s) for s in board.submitted or []]
    if public is None or "board" not in public:
        line = phase_line(game, board.clock.deadline_at)
        text = f"**Crime City — draft**\n{line}\nSubmitted: {', '.join(names) or 'nobody yet'}"
        return text, None
    in_round = game.pending is not None and game.pending.decision == ROUND
    final = "" if in_round else " (final)"
    text = texts.board_text(
        public,
        heading=f"**Crime City — Round {public['round']}**{final}",
        submitted=names if in_round else None,
        footer=phase_line(game, board.clock.deadline_at),
    )
    view = {k: v for k, v in public.items() if k not in ("phase", "seats")}
    return text, view


# ---- a player's status -------------------------------------------------------------------------------


async def status_text(host: Host, caller: Caller, game_opt: str | None) -> str:
    status: Status = await host.reports.status(caller, KIND, game_opt)
    game, roster, seat = status.game, status.roster, status.seat
    lines = [
        f"**Crime City — your status** (game #{game.id} in <#{game.channel_id}>)",
        phase_line(game, status.clock.deadline_at),
    ]
    if seat is None:
        lines.append("You host this game and do not hold a seat.")
        return clip("\n".join(lines), STATUS_LIMIT)
    view = status.view or {}
    if game.status == "lobby":
        lines.append(f"Players ({len(roster)}/5): " + ", ".join(roster.name_of(s) for s in roster.seats))
    elif game.pending is not None and game.pending.decision == DRAFT:
        lines.append(f"Garnets: {view.get('garnets', 0)}")
        draft = status.mine
        if draft is None:
            lines.append("Your draft submission: none yet (/crimecity draft).")
        else:
            lines.append(f"Your draft submission: bid {draft['bid']}")
            lines.append("Roles: " + ", ".join(texts.role_title(r) for r in draft["roles"]))
            lines.append("Characters: " + ", ".join(texts.char_title(c) for c in draft["characters"]))
    if "seat" in view:
        lines.extend(_seat_lines(view, roster, status.mine, game))
    learned = learned_lines(status.learned, roster)
    if learned:
        lines.append("")
        lines.append("__What you have learned__")
        lines.extend(learned)
    inbox, shown = _inbox_lines(status.inbox, budget=STATUS_LIMIT - len("\n".join(lines)))
    lines.extend(inbox)
    await host.reports.inbox_read(game.id, seat, shown)
    return clip("\n".join(lines), STATUS_LIMIT)


def _inbox_lines(inbox: list[tuple[int, str, bool]], *, budget: int) -> tuple[list[str], list[int]]:
    """Unread undeliverable DMs, oldest first, as many as fit; returns the lines and the ids shown."""
    if not inbox:
        return [], []
    unread = [(i, text) for i, text, read in inbox if not read]
    lines = ["", f"__Inbox__ (messages I could not DM you; {len(unread)} new)"]
    budget -= len("\n".join(lines)) + 160  # room for the "more" line and the cog's hint line
    shown: list[int] = []
    for item_id, text in unread:
        if len(text) + 1 > budget and shown:
            break
        text = clip(text, max(200, budget))
        lines.append(text)
        budget -= len(text) + 1
        shown.append(item_id)
    if len(shown) < len(unread):
        lines.append(f"({len(unread) - len(shown)} more: use /crimecity status again to read them.)")
    elif not unread:
        lines.append("Nothing new since you last looked.")
    return lines, shown


def _seat_lines(view: dict[str, Any], roster: Roster, mine: dict[str, Any] | None, game: GameRow) -> list[str]:
    own = view["seat"]
    lines = ["", texts.seat_text(own["character"], own["role"], own["goal"], view["garnets"])]
    if not own["alive"]:
        lines.append("Your character is dead: you submit one movement action per round (rule Q27).")
    if view.get("completed"):
        lines.append(f"Your goal is complete (round {view['completed']}).")
    progress = view.get("progress") or {}
    if progress.get("stolen"):
        lines.append("Stolen from: " + ", ".join(texts.char_title(c) for c in progress["stolen"]))
    if progress.get("bank_turns"):
        lines.append(f"Turns at the Bank that count: {progress['bank_turns']}")
    if progress.get("fraud_stage"):
        lines.append(f"Fraud stage one reached in round {progress['fraud_stage']}")
    cooldowns = view.get("cooldowns") or []
    lines.append("On cooldown this round: " + (", ".join(map(texts.cooldown_title, cooldowns)) or "nothing"))
    if game.pending is not None and game.pending.decision == ROUND:
        rnd = view["round"]
        lines.append("")
        if mine is None or mine.get("actions") is None:
            lines.append(f"Your round {rnd} actions: not submitted yet (/crimecity act).")
        else:
            acts = ", ".join(f"`{format_action(Action.from_json(a), roster.name_of)}`" for a in mine["actions"])
            lines.append(f"Your round {rnd} actions: {acts}")
        if mine is not None and mine.get("buy"):
            pairs = ", ".join(f"{texts.char_title(a)} + {texts.char_title(b)}" for a, b in mine["buy"])
            lines.append(f"Friendship purchases: {pairs} ({BUY_COST * len(mine['buy'])} garnets)")
        if mine is not None and mine.get("guess"):
            from rules.crimecity.ids import Character, Role

            guess = {Character(c): Role(r) for c, r in mine["guess"].items()}
            lines.append("Your guess: " + format_guess(guess))
    return lines


# ---- history -----------------------------------------------------------------------------------------


async def history_embed(host: Host, interaction: discord.Interaction, page: int) -> discord.Embed:
    from ...host import caller_of

    return await history_embed_for(host, caller_of(interaction), page)


async def history_embed_for(host: Host, caller: Caller, page: int) -> discord.Embed:
    found = await host.reports.history(caller, KIND, page)
    embed = discord.Embed(title="Crime City — finished games in this server", colour=EMBED_COLOUR)
    if not found.total:
        embed.description = "No game has finished here yet."
        return embed
    for game, roster in found.games:
        embed.add_field(name=f"Game #{game.id}", value=history_entry(game, roster), inline=False)
    more = f" · /crimecity history page:{found.page + 1} for older games" if found.page < found.pages else ""
    embed.set_footer(text=f"Page {found.page}/{found.pages} · {found.total} games{more}")
    return embed


def history_entry(game: GameRow, roster: Roster) -> str:
    """Date, rounds played, completion order, ToL and EC of one ended game, names only."""
    when = f"<t:{int(game.ended_at)}:D>" if game.ended_at else "an unknown date"
    results = game.results
    if not results or not results.get("draft_resolved", True):
        return f"Ended {when}, before the first round."
    rounds = results.get("ended_after_round", 0)
    lines = [f"Ended {when} after {rounds} round{'s' if rounds != 1 else ''}."]
    groups = results.get("completion_order") or []
    if groups:
        order = " · ".join(f"{i}. " + ", ".join(roster.name_of(p) for p in g) for i, g in enumerate(groups, 1))
        lines.append(f"Completion order: {order}")
    else:
        lines.append("Nobody completed their goal.")
    tol = ", ".join(roster.name_of(p) for p in results.get("tol") or []) or "none"
    ec_seat = results.get("ec")
    ec = roster.name_of(ec_seat) if ec_seat else "not decided"
    lines.append(f"ToL: {tol} · EC: {ec}")
    return clip("\n".join(lines), FIELD_VALUE)


# ---- moves that need words -----------------------------------------------------------------------------


async def choose_ec(host: Host, caller: Caller, target: Member | str, game_opt: str | None) -> str:
    """`target`: a member, or a seat by its id or name (a computer player's seat)."""
    seated = await host.finder.seated(caller, KIND, game_opt, need_seat=False)
    game, roster = seated.game, seated.roster
    pending = game.pending
    if pending is None or pending.decision != EC:
        raise UserError("There is no EC decision to make in this game.")
    ec = (host.states.get(host.presentations[KIND].game, game).results or {}).get("ec_pending") or {}
    if isinstance(target, str):
        choice, shown = roster.lookup(target), target
    else:
        choice, shown = roster.seat_of(target.user_id), target.display_name
    if choice not in ec.get("candidates", []):
        names = ", ".join(roster.name_of(s) for s in ec.get("candidates", []))
        raise UserError(f"{shown} is not a candidate for EC; the candidates are {names}.")
    if seated.seat in ec.get("deciders", []):
        played = await host.play.submit(caller, KIND, lambda turn: {"kind": "ec", "player": choice}, game_opt)
        assert played.advance is not None
        if any(e.kind == "game_over" for e in played.advance.events):
            return f"{roster.name_of(choice)} is the EC."
        votes = played.advance.state.ec_votes
        chosen = [votes.get(s) for s in ec["deciders"]]
        if None in chosen:
            return f"Your vote for {roster.name_of(choice)} is recorded; waiting for the other deciders."
        return (
            "Your vote is recorded, but the deciders disagree: the choice must be unanimous "
            "(rule R88). Change your vote with /crimecity ec, or the host decides."
        )
    if await host.finder.is_admin(game, caller):
        await host.hosting.move(caller, KIND, {"host": "ec", "player": choice}, game_opt)
        return f"As host you decided: {roster.name_of(choice)} is the EC."
    from ...host import NotAllowed

    raise NotAllowed("You are not one of the players who decide the EC.")


async def set_garnets(host: Host, caller: Caller, player: Member, amount: int, game_opt: str | None) -> str:
    game = await host.finder.game(caller, KIND, game_opt)
    await host.finder.require_admin(game, caller)
    roster = await host.finder.roster(game.id)
    seat = roster.seat_of(player.user_id)
    if seat is None:
        raise UserError(f"{player.display_name} is not a player in this game.")
    if game.status == "lobby":
        balances = {**(game.settings.get("balances") or {}), seat: amount}
        await host.lobby.update_settings(caller, KIND, {"balances": balances})
    else:
        try:
            await host.hosting.move(caller, KIND, {"host": "garnets", "seat": seat, "amount": amount}, game_opt)
        except Refused as exc:
            if exc.code == "wrong_phase":
                raise UserError("The game is over; balances are final.") from None
            raise
    return f"{player.display_name} now has {amount} garnets."


async def set_placements(host: Host, caller: Caller, order: str, game_opt: str | None) -> str:
    game = await host.finder.game(caller, KIND, game_opt)
    await host.finder.require_admin(game, caller)
    roster = await host.finder.roster(game.id)
    if game.status != "lobby" and (game.pending is None or game.pending.decision != DRAFT):
        raise UserError("Placements can only be set before the draft resolves.")
    seats: list[str] = []
    for name in [n for n in order.replace(";", ",").split(",") if n.strip()]:
        seat = roster.lookup(name)
        if seat is None:
            raise UserError(f"No player named {name.strip()!r} in this game.")
        if seat in seats:
            raise UserError(f"{roster.name_of(seat)} is listed twice.")
        seats.append(seat)
    if not seats:
        raise UserError("List the players from first to last, comma-separated.")
    if game.status == "lobby":
        await host.lobby.update_settings(caller, KIND, {"placements": seats})
    else:
        await host.hosting.move(caller, KIND, {"host": "placements", "order": seats}, game_opt)
    full = seats + [s for s in roster.seats if s not in seats]
    return "Draft tie-break order: " + ", ".join(roster.name_of(s) for s in full)
