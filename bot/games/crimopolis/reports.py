"""Crimopolis answers that read a game: a seat's status, the public board, this server's history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from ...host import EMBED_COLOUR, Caller, clip, timestamp
from . import names as nm
from . import texts
from .choices import LEGAL, choices
from .messages import picture_view
from .names import Names, hours
from .pack import PACK
from .prefs import WORDS, Prefs

if TYPE_CHECKING:
    from ...host import GameRow, Host, Roster

KIND = "crimopolis"
STATUS_LIMIT = 4096
FIELD_VALUE = 900


async def status_text(host: Host, caller: Caller, game_opt: str | None) -> str:
    """The caller's seat, colour, hands, destinies, hours, the pending decision and its deadline, their
    reaction preference and the messages that could not be DMed to them (then marked read)."""
    from .presentation import PRESENTATION

    status = await host.reports.status(caller, KIND, game_opt)
    game, roster, seat = status.game, status.roster, status.seat
    lines = [f"{texts.TITLE} — **your status** (game #{game.id} in <#{game.channel_id}>)"]
    if seat is None:
        lines.append("You host this game and hold no seat.")
        return "\n".join(lines)
    if game.status == "lobby" or status.view is None:
        lines.append(f"Lobby: {len(roster)} seat(s) taken; the game has not started.")
        return "\n".join(lines)
    view = status.view
    n = Names(roster.name_of, view)
    me = view["players"][seat]
    lines.append(
        f"You are seat {me['seat']}, {nm.EMOJI.get(me['color'], '')} {me['color']}: prestige {me['prestige']}, "
        f"bodies {me['bodies']}, supply {me['supply']}, Safe House {me['safe_house'] or 'not placed'}."
    )
    lines += texts.hand_lines(view["private"][seat])
    destinies = ", ".join(nm.card_detail(c) for c in me["destinies"]) or "none"
    lines.append(f"Destinies in front of you: {destinies}")
    lines.append(texts.turn_line(view, n, status.clock.deadline_at, game.paused))
    pending = view.get("pending")
    if pending is not None and pending["player"] == seat:
        lines.append(pending_line(host, game, roster, seat, view))
    lines.append(reactions_line(PRESENTATION.prefs, game.id, seat, roster.members_of(seat), caller.user_id))
    inbox, shown = _inbox_lines(status.inbox, budget=STATUS_LIMIT - len("\n".join(lines)))
    lines += inbox
    await host.reports.inbox_read(game.id, seat, shown)
    return clip("\n".join(lines), STATUS_LIMIT)


def pending_line(host: Host, game: GameRow, roster: Roster, seat: str, view: dict[str, Any]) -> str:
    """The open decision in the notation: the answers for a decision, the kinds of action for a turn."""
    pending = view["pending"]
    if pending["kind"] == "turn":
        return (
            f"Pending: **turn** — {hours(view['turn']['hours'])} left this turn. Write actions as "
            "`move FROM TO COUNT`, `job CARD at BLOCK from STREET=N`, `end`, ... (/crimopolis rules topic:notation)."
        )
    state = host.states.get(PACK.game, game)
    actions = LEGAL.get(game.id, game.version, seat, state)
    found = choices(actions, state, seat, Names(roster.name_of, view), roster.name_of)
    listed = ", ".join(f"`{c.value}`" for c in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    return f"Pending: **{pending['kind']}** — answer with /crimopolis decide: {listed}{more}."


def _inbox_lines(inbox: list[tuple[int, str, bool]], *, budget: int) -> tuple[list[str], list[int]]:
    unread = [(i, text) for i, text, read in inbox if not read]
    if not inbox:
        return [], []
    lines = ["", f"__Inbox__ (messages I could not DM you; {len(unread)} new)"]
    budget -= len("\n".join(lines)) + 120
    shown: list[int] = []
    for item_id, text in unread:
        if len(text) + 1 > budget and shown:
            break
        text = clip(text, max(200, budget))
        lines.append(text)
        budget -= len(text) + 1
        shown.append(item_id)
    if len(shown) < len(unread):
        lines.append(f"({len(unread) - len(shown)} more: use /crimopolis status again.)")
    elif not unread:
        lines.append("Nothing new since you last looked.")
    return lines, shown


async def board(host: Host, caller: Caller, game_opt: str | None) -> tuple[list[str], dict[str, Any] | None, str]:
    """The board's text (one or more messages), the picture's view and its alt text."""
    found = await host.reports.board(caller, KIND, game_opt)
    game, roster = found.game, found.roster
    if found.public is None:
        names = ", ".join(roster.name_of(s) for s in roster.seats) or "nobody yet"
        return [f"{texts.TITLE} — **lobby** ({len(roster)}/5): {names}"], None, ""
    public = found.public
    n = Names(roster.name_of, public)
    heading = f"{texts.TITLE} — **the board** (game #{game.id})"
    parts = texts.board_text(public, n, heading, found.clock.deadline_at, game.paused)
    return parts, picture_view(public, n), texts.board_alt(public, n)


async def history_embed(host: Host, caller: Caller, page: int = 1) -> discord.Embed:
    found = await host.reports.history(caller, KIND, page, played=True)  # commands.md: finished games
    embed = discord.Embed(title=f"{PACK.game.info.title} — finished games in this server", colour=EMBED_COLOUR)
    if not found.total:
        embed.description = "No game has finished here yet."
        return embed
    for game, roster in found.games:
        embed.add_field(name=f"Game #{game.id}", value=history_entry(game, roster), inline=False)
    more = f" · /crimopolis history page:{found.page + 1} for older games" if found.page < found.pages else ""
    embed.set_footer(text=f"Page {found.page}/{found.pages} · {found.total} games{more}")
    return embed


def history_entry(game: GameRow, roster: Roster) -> str:
    """Date, players, variant, scores and winners of one ended game."""
    when = f"<t:{int(game.ended_at)}:D>" if game.ended_at else "an unknown date"
    variant = str(game.settings.get("variant") or "standard").replace("_", " ")
    results = game.results
    players = ", ".join(roster.name_of(s) for s in roster.seats)
    if not results:
        return clip(f"Ended {when} before it started ({variant}). Players: {players or 'none'}.", FIELD_VALUE)
    scores = results.get("scores") or {}
    order = [s for group in results.get("ranking") or [] for s in group]
    table = ", ".join(f"{roster.name_of(s)} {scores[s]['total']}" for s in order if s in scores)
    winners = " and ".join(roster.name_of(s) for s in results.get("winners") or [])
    how = "" if results.get("ended") == "target" else " (ended by the host)"
    return clip(f"{when} · {variant}{how}\nScores: {table}\nWinner: **{winners}**", FIELD_VALUE)


def timestamp_or_paused(deadline_at: float | None, paused: bool) -> str:
    return "the clock is paused" if paused or deadline_at is None else timestamp(deadline_at)


def reactions_line(prefs: Prefs, game_id: int, seat: str, members: tuple[int, ...], me: int) -> str:
    """The seat's answer to reaction windows; in a shared seat, the caller's own choice too (R118)."""
    line = f"Reactions: {WORDS[prefs.get(game_id, seat, members)]}"
    if len(members) > 1:
        line += f" (the stricter of the two members'; yours: {prefs.own(game_id, seat, me)})"
    return line + " (change with /crimopolis prefs)."
