"""Building Crime City moves from what a player typed or picked (the rules check them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.crimecity import CHARACTERS
from rules.crimecity.draft import DraftSubmission, complete_ranking
from rules.crimecity.game import DRAFT, GAME, draft_move
from rules.crimecity.ids import ROLES, Character, Role
from rules.crimecity.notation import parse_action, parse_character, parse_guess, parse_role

from ...host import Caller, Played, Refused, Turn, UserError
from .reports import require_round

if TYPE_CHECKING:
    from ...host import Host

KIND = "crimecity"
MAX_POINTS = 50  # friendship points in one purchase (the option's range)


def round_move(turn: Turn, **changes: Any) -> dict[str, Any]:
    """The seat's round move with some parts replaced (actions, purchases and the guess are one move)."""
    mine = turn.mine or {"kind": "round", "actions": None, "buy": [], "guess": None}
    return {**mine, **changes, "kind": "round"}


async def submit_actions(host: Host, caller: Caller, first: str, second: str | None, game_opt: str | None) -> Played:
    """Round actions (from /crimecity act and the panel), kept together with the seat's extras."""

    def build(turn: Turn) -> dict[str, Any]:
        require_round(turn)
        actions = [parse_action(first, turn.roster.lookup)]
        if second and second.strip():
            actions.append(parse_action(second, turn.roster.lookup))
        return round_move(turn, actions=[a.to_json() for a in actions])

    return await host.play.submit(caller, KIND, build, game_opt)


def _ranking(text: str | None, parse: Any) -> list[Any]:
    if not text or not text.strip():
        return []
    items = [parse(part) for part in text.replace(";", ",").split(",") if part.strip()]
    if len(set(items)) != len(items):
        raise Refused("malformed", "A ranking cannot name the same entry twice.")
    return items


async def submit_draft(
    host: Host, caller: Caller, *, bid: int, roles: str | None, characters: str | None, game_opt: str | None = None
) -> tuple[DraftSubmission, Played]:
    """A draft submission from typed rankings (completed in the rule book's order, Q30)."""
    role_list = _ranking(roles, parse_role)
    if Role.NONE in role_list:
        raise Refused("malformed", "Rank only the five hidden roles; 'none' is not one you can draft.")
    sub = DraftSubmission(
        bid,
        tuple(complete_ranking(role_list, ROLES)),
        tuple(complete_ranking(_ranking(characters, parse_character), CHARACTERS)),
    )

    def build(turn: Turn) -> dict[str, Any]:
        if turn.game.pending is None or turn.game.pending.decision != DRAFT:
            raise UserError("The draft is not open in this game, so you cannot submit a draft now.")
        return draft_move(sub)

    return sub, await host.play.submit(caller, KIND, build, game_opt)


async def submit_guess(host: Host, caller: Caller, text: str, game_opt: str | None = None) -> dict[Character, Role]:
    guess = parse_guess(text)

    def build(turn: Turn) -> dict[str, Any]:
        require_round(turn)
        return round_move(turn, guess={c.value: r.value for c, r in guess.items()})

    await host.play.submit(caller, KIND, build, game_opt)
    return guess


async def buy_friendship(
    host: Host, caller: Caller, a: str, b: str, points: int, game_opt: str | None = None
) -> tuple[list[list[str]], int]:
    """Sets this round's purchases of the pair a-b to `points` (0 removes them); (purchases, balance)."""
    ca, cb = parse_character(a), parse_character(b)
    if points < 0:
        raise UserError("Points cannot be negative (use 0 to cancel a purchase).")
    if points > MAX_POINTS:
        raise UserError(f"At most {MAX_POINTS} points at a time.")

    def build(turn: Turn) -> dict[str, Any]:
        require_round(turn)
        pair = sorted([ca.value, cb.value])
        kept = [p for p in (turn.mine or {}).get("buy") or [] if sorted(p) != pair]
        return round_move(turn, buy=kept + [[ca.value, cb.value]] * points)

    played = await host.play.submit(caller, KIND, build, game_opt)
    balance = GAME.view(played.turn.state, played.turn.seat).get("garnets", 0)
    return played.move["buy"], balance
