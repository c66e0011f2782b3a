"""Per-player views (boardgame.io's playerView): secrets are left out by construction."""

from __future__ import annotations

from typing import Any

from .ids import LOCATIONS, ROLE_GOALS, Character
from .state import GameState


def public_view(state: GameState) -> dict[str, Any]:
    """What everyone may know: round, positions, the dead, friendship totals (R31). No seat."""
    board: dict[str, list[str]] = {loc.value: [] for loc in LOCATIONS}
    for c, loc in state.positions.items():
        board[loc.value].append(c.value)
    for names in board.values():
        names.sort()
    return {
        "round": state.round,
        "rounds_total": state.rounds_total,
        "board": board,
        "dead": [] if state.governor_alive else [Character.GOVERNOR.value],
        "friendship": {k: v for k, v in sorted(state.friendship.items()) if v > 0},
        "over": state.over,
    }


def view_for(state: GameState, player: str) -> dict[str, Any]:
    """The public view plus this player's own seat and private state, nobody else's."""
    seat = state.seats[player]
    pr = state.progress.get(player)
    view = public_view(state)
    view["player"] = player
    view["seat"] = {
        "character": seat.character.value,
        "role": seat.role.value,
        "goal": ROLE_GOALS[seat.role],
        "alive": state.alive(seat.character),
    }
    view["cooldowns"] = sorted(state.cooldowns.get(player, ()))
    view["garnets"] = state.garnets.get(player, 0)
    view["progress"] = pr.to_dict() if pr is not None else None
    view["completed"] = state.completed.get(player)
    return view
