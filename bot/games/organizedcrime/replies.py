"""Answers that read the game: a seat's status, the board, the server's history, a move's receipt,
and the replies to the host's own buttons (My status, Submit, History).

A status holds the caller's own seat's view (his hand included) and his inbox, nothing of another seat;
the board and the history hold public views and results only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from ...host import EMBED_COLOUR, Caller, Played, UserError, clip, timestamp
from . import names as n
from .board import board_text, holdings, turns
from .events import DECISIONS, private_line, public_line, results_text, turn_heading
from .moves import KIND, Context
from .names import Names
from .pack import PACK
from .prompts import deadline_words, what_to_do
from .public import public_view

if TYPE_CHECKING:
    from ...host import GameRow, Host, Roster

STATUS_LIMIT = 4096  # an embed description


@dataclass(frozen=True, slots=True)
class Reply:
    """An ephemeral answer to a host button: the shape `bot.host.presenting.Reply` has."""

    text: str
    view: Any = None
    embed: Any = None


def names_of(game: GameRow, roster: Roster) -> tuple[dict[str, Any] | None, Names]:
    if game.state is None:
        return None, Names({"players": {s: {} for s in roster.seats}}, roster.name_of)
    public = public_view(PACK.game.decode_state(game.state))
    return public, Names(public, roster.name_of)


# ---- a move's receipt --------------------------------------------------------------------------------


def started_text(game_id: int, roster: Roster) -> str:
    seats = ", ".join(f"{i}. {roster.name_of(s)}" for i, s in enumerate(roster.seats, 1))
    return (f"**Organized Crime** begins (game #{game_id}). Seat order: {seats}. The decks are shuffled and the dice "
            "rolled below.")


def receipt(ctx: Context, played: list[Played], *, what_next: bool = True) -> str:
    """What the caller's actions did, in words (public events, then what only he learned), and what next."""
    seat = ctx.seat
    lines: list[str] = []
    last = played[-1]
    assert last.advance is not None
    state = last.advance.state
    public = public_view(state)
    names = Names(public, ctx.turn.roster.name_of)
    for p in played:
        if p.advance is None:
            continue
        for e in p.advance.events:
            if e.is_public:
                if e.kind == "turn_began":
                    lines.append(f"**{turn_heading(e.data['turn'], e.data['round'], e.data['player'], names)}**")
                    continue
                line = public_line(e, names)
            elif seat in e.audience:
                line = private_line(e, seat, names)
            else:
                line = None
            if line:
                lines.append(line)
    pending = PACK.game.pending(state)
    if what_next and pending is not None and seat in pending.awaited:
        sealed = last.advance.game.settings.get("ballots") == "sealed"
        lines.append(f"➡ Next: {what_to_do(public, seat, pending.decision, names, sealed=sealed)}")
    return clip("\n".join(lines) or "Done.", 2000)


# ---- status --------------------------------------------------------------------------------------------


async def status_text(host: Host, caller: Caller, game_opt: str | None) -> str:
    status = await host.reports.status(caller, KIND, game_opt)
    game, roster, seat = status.game, status.roster, status.seat
    lines = [f"**Organized Crime — your status** (game #{game.id} in <#{game.channel_id}>)"]
    if game.status == "lobby":
        lines.append("The lobby is open: " + (", ".join(roster.name_of(s) for s in roster.seats) or "nobody yet") + ".")
        return "\n".join(lines)
    if seat is None:
        lines.append("You host this game and hold no seat: `/organizedcrime board` shows the public board.")
        return "\n".join(lines)
    view = status.view or {}
    state = PACK.game.decode_state(game.state) if game.state is not None else None
    names = Names(view, roster.name_of)
    pl = (view.get("players") or {}).get(seat) or {}
    base = f", Home Base {pl['base']}" if pl.get("base") is not None else ", no Home Base yet"
    lines.append(f"You are **{names.full(seat)}**{base}.")
    if not pl.get("alive", True):
        e = pl.get("eliminated") or {}
        lines.append(f"You are out of the game (turn {e.get('turn')}, {e.get('cause')}).")
    else:
        lines.append(f"Money {n.money(pl.get('money', 0))} · votes {pl.get('votes', 0)} · unused Men "
                     f"{pl.get('men_left', 0)} · income now {n.money(pl.get('income', 0))}")
        lines.append(f"Holdings: {holdings(pl)}")
        limits = pl.get("limits") or []
        if limits:
            lines.append("Vote-limit cards: " + ", ".join(f"{n.card(x['card'])} ({turns(x['turns_left'])} left)"
                                                           for x in limits))
        debts = [d for d in view.get("debts") or [] if seat in (d["debtor"], d["creditor"])]
        for d in debts:
            if d["debtor"] == seat:
                lines.append(f"You owe {names.player(d['creditor'])} {n.money(d['amount'])}.")
            else:
                lines.append(f"{names.player(d['debtor'])} owes you {n.money(d['amount'])}.")
        pieces = pl.get("pieces") or {}
        lines.append("Your pieces: " + (", ".join(f"{names.piece(p)} on {s}" for p, s in
                                                   sorted(pieces.items(), key=lambda kv: n.number(kv[0])))
                                         or "none on the board"))
    hand = view.get("hand") or {}
    held = [*hand.get("power", []), *hand.get("official", [])]
    lines.append("")
    lines.append("__Your hand__ (only you see it)")
    lines.extend(f"{n.card(c)} — {n.card_text(c)}" for c in held)
    if not held:
        lines.append("no card")
    if view.get("my_ballot"):
        b = view["my_ballot"]
        lines.append(f"Your sealed ballot: {b['side']} {b['votes']}.")
    lines.append("")
    pending = game.pending
    if pending is None or state is None:
        lines.append("The game is over.")
        if game.results:
            lines.append(results_text(game.results, names))
    else:
        head = DECISIONS.get(pending.decision, pending.decision)
        if view.get("turn"):
            head = f"{turn_heading(view['turn'], view['round'], view.get('active'), names)} · now: {head}"
        lines.append(f"**{head}**")
        if seat in pending.awaited:
            sealed = game.settings.get("ballots") == "sealed"
            lines.append(f"➡ It is up to you: {what_to_do(view, seat, pending.decision, names, sealed=sealed)}")
        elif seat in pending.optional:
            lines.append("You may give money or cards, or cash a Money card, while this meeting is open.")
        else:
            waiting = ", ".join(names.full(s) for s in pending.awaited)
            lines.append(f"Waiting for {waiting}.")
        clock = status.clock
        if clock.deadline_at is None and clock.remaining is not None:
            lines.append(f"The clock is paused ({clock.remaining / 60:.0f} min left).")
        else:
            lines.append(deadline_words(clock.deadline_at, game.paused))
    unread = [(i, text) for i, text, read in status.inbox if not read]
    if unread:
        lines.append("")
        lines.append(f"__Inbox__ ({len(unread)} message{'s' if len(unread) != 1 else ''} I could not DM you)")
        budget = STATUS_LIMIT - len("\n".join(lines)) - 80
        shown: list[int] = []
        for item_id, text in unread:
            if len(text) + 1 > budget and shown:
                break
            lines.append(clip(text, max(200, budget)))
            budget -= len(text) + 1
            shown.append(item_id)
        if len(shown) < len(unread):
            lines.append(f"({len(unread) - len(shown)} more: use /organizedcrime status again.)")
        await host.reports.inbox_read(game.id, seat, shown)
    return clip("\n".join(lines), STATUS_LIMIT)


# ---- the board -----------------------------------------------------------------------------------------


async def board_of(host: Host, caller: Caller, game_opt: str | None) -> tuple[str, dict[str, Any] | None, Names]:
    board = await host.reports.board(caller, KIND, game_opt)
    game, roster = board.game, board.roster
    if game.status == "lobby" or board.public is None:
        joined = ", ".join(roster.name_of(s) for s in roster.seats) or "nobody yet"
        return f"**Organized Crime — lobby** ({len(roster)}/4): {joined}", None, Names({}, roster.name_of)
    names = Names(board.public, roster.name_of)
    text = board_text(board.public, names)
    if game.pending is not None:
        text += "\n" + deadline_words(board.clock.deadline_at, game.paused)
    return clip(text, 4096), board.public, names


# ---- history -------------------------------------------------------------------------------------------


async def history_embed(host: Host, caller: Caller, page: int = 1) -> discord.Embed:
    found = await host.reports.history(caller, KIND, page, played=True)  # commands.md: finished games
    embed = discord.Embed(title="Organized Crime — finished games in this server", colour=EMBED_COLOUR)
    if not found.total:
        embed.description = "No game has finished here yet."
        return embed
    for game, roster in found.games:
        embed.add_field(name=f"Game #{game.id}", value=history_entry(game, roster), inline=False)
    more = f" · page:{found.page + 1} for older games" if found.page < found.pages else ""
    embed.set_footer(text=f"Page {found.page}/{found.pages} · {found.total} games{more}")
    return embed


def history_entry(game: GameRow, roster: Roster) -> str:
    """Date, players, winners, reason, turns (commands.md `/organizedcrime history`)."""
    when = f"<t:{int(game.ended_at)}:D>" if game.ended_at else "an unknown date"
    public, names = names_of(game, roster)
    players = ", ".join(names.full(s) for s in roster.seats)
    result = game.results or {}
    if public is None:
        return clip(f"Ended {when} in the lobby. Players: {players or 'none'}.", 600)
    winners = ", ".join(names.full(w) for w in result.get("winners") or []) or "none"
    reason = {"last_survivor": "last Boss standing", "round_cap": "round cap", "host": "ended by the host"}.get(
        result.get("reason", ""), "ended")
    return clip(f"Ended {when} after {public.get('turn', 0)} turns ({reason}).\nPlayers: {players}\n"
                f"Winners: {winners}", 600)


# ---- the host's buttons ----------------------------------------------------------------------------------


def by_id(caller: Caller) -> Caller:
    return replace(caller, guild_id=None, channel_id=None)


async def status_reply(host: Host, caller: Caller, game_id: int) -> Reply:
    return Reply(await status_text(host, by_id(caller), str(game_id)))


async def submit_reply(host: Host, caller: Caller, game_id: int) -> Reply:
    from .panel import open_panel, panel_view

    try:
        screen = await open_panel(host, by_id(caller), str(game_id))
    except UserError as exc:
        return Reply(exc.message)
    return Reply(screen.text, view=panel_view(screen))


async def history_reply(host: Host, caller: Caller) -> Reply:
    return Reply("", embed=await history_embed(host, caller))


__all__ = ["Reply", "board_of", "history_embed", "receipt", "status_text", "timestamp"]
