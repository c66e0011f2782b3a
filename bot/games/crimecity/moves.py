"""Building Crime City moves from what a player typed or picked (the rules check them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.crimecity.notation import parse_action

from ...host import Caller, Played, Turn
from .reports import require_round

if TYPE_CHECKING:
    from ...host import Host

KIND = "crimecity"


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
