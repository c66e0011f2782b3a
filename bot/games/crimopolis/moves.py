"""Sending a player's action: built from what they typed or picked, checked by the rules, applied by the host
(`host.play.submit`: one action at a time, `Pending.together` is False), then told back in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.crimopolis.actions import needed_params

from ...host import Caller, Played, Refused, Turn, UserError
from . import texts
from .choices import describe
from .names import Names
from .notation import format_action, parse, with_param
from .pack import PACK
from .public import public_view

if TYPE_CHECKING:
    from ...host import Host

KIND = "crimopolis"
SEAT = re.compile(r"\bp[1-5]\b")
Build = Callable[[Turn], dict[str, Any]]


def from_text(text: str) -> Build:
    """An action typed in the notation (players looked up in the game's roster)."""

    def build(turn: Turn) -> dict[str, Any]:
        action = parse(text, turn.roster.lookup)
        if action["kind"] == "fortune":
            card = action["card"]
            needed = needed_params(PACK.game.content, card) if card in PACK.game.content.designs else ()
            action = with_param(action, needed, turn.roster.lookup)
        return action

    return build


def fixed(action: dict[str, Any]) -> Build:
    return lambda turn: dict(action)


def by_id(caller: Caller) -> Caller:
    """The caller as if in a DM: a panel or prompt names its game, wherever it is clicked."""
    return replace(caller, guild_id=None, channel_id=None)


async def play(host: Host, caller: Caller, build: Build, game_opt: str | None) -> Played:
    """The caller's action for the open decision; auto-answered reaction windows it opened are settled too.
    A refusal says which action was refused and why (the rules' message names the rule), players by name."""
    played, _ = await play_now(host, caller, build, game_opt)
    return played


async def play_now(host: Host, caller: Caller, build: Build, game_opt: str | None) -> tuple[Played, bool]:
    """`play`, and whether its step is still the game as it is (no reaction was answered after it)."""
    from .presentation import PRESENTATION

    seen: dict[str, Any] = {}

    def tracked(turn: Turn) -> dict[str, Any]:
        seen["names"] = turn.roster.name_of
        move = build(turn)
        seen["move"] = move
        return move

    try:
        played = await host.play.submit(caller, KIND, tracked, game_opt)
    except Refused as error:
        raise Refused(error.code, refusal_text(error.message, seen)) from None
    moved_on = played.advance is not None and await PRESENTATION.settle(played.advance.game.id)
    return played, played.advance is not None and not moved_on


def refusal_text(message: str, seen: dict[str, Any]) -> str:
    """`move 0,0 h:0,1 2`: <the rules' reason>, with seat ids (p1 ...) given as the players' names."""
    name = seen.get("names")
    if name is not None:
        message = SEAT.sub(lambda m: str(name(m.group(0))), message)
    move = seen.get("move")
    if move is None:
        return message
    try:
        shown = format_action(move, name or str)
    except (KeyError, TypeError):  # a move the notation cannot write back (a malformed one)
        return message
    return f"`{shown}` — {message}"


def done_text(played: Played) -> str:
    """What was done: the action in words and what it made happen (the caller's own cards included)."""
    turn = played.turn
    public = public_view(turn.state)
    n = Names(turn.roster.name_of, public)
    lines = [f"✅ {describe(played.move, turn.state, turn.seat, n)}"]
    advance = played.advance
    if advance is not None:
        after = Names(turn.roster.name_of, public_view(advance.state))
        for e in advance.events:
            if e.kind in ("turn_start", "turn_end", "game_end") or e.kind == played.move.get("kind"):
                continue
            if not e.visible_to(turn.seat):
                continue  # another seat's cards (a reaction can finish the active player's job)
            line = texts.event_line(e, after) if e.is_public else texts.private_line(e)
            if line:
                lines.append(line)
    return "\n".join(lines[:12])


def not_yours(turn: Turn | None) -> UserError:
    if turn is None:
        return UserError("Nothing awaits you in this game now.")
    return UserError("That is not your decision now.")
