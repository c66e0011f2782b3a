"""Every action a player may submit now (OpenSpiel's `legal_actions`), built directly from S0.

Generated, not filtered: the bot's autocomplete calls this on every keystroke.
"""

from __future__ import annotations

import json
from typing import Any

from . import abilities
from .actions import (
    ABILITY,
    ABILITY_KEY,
    CONVERSE,
    CONVERSE_KEY,
    FRIEND,
    FRIEND_KEY,
    HORIZONTAL,
    MOVE,
    MOVE_KEY,
    VERTICAL,
    Action,
)
from .ids import Character, Location
from .network import network_of
from .state import GameState
from .validate import check_action, has_non_move

_Key = tuple[str, Character | None, Character | None, Location | None, str | None]
_CACHE: dict[_Key, Action] = {}
_CACHE_LIMIT = 20_000


def _action(
    kind: str,
    friend: Character | None = None,
    target: Character | None = None,
    destination: Location | None = None,
    player: str | None = None,
) -> Action:
    """Interned actions: they are immutable, and building frozen dataclasses dominates otherwise."""
    key = (kind, friend, target, destination, player)
    a = _CACHE.get(key)
    if a is None:
        if len(_CACHE) > _CACHE_LIMIT:  # player ids make the key space open-ended in a long-lived bot
            _CACHE.clear()
        a = _CACHE[key] = Action(kind, friend=friend, target=target, destination=destination, player=player)
    return a


def single_move_only(state: GameState, player: str) -> bool:
    """True when the player has no legal non-movement action and submits one move (R39, Q22)."""
    return not has_non_move(state, player)


_MOVE_H = {c: Action(MOVE, direction=HORIZONTAL, character=c) for c in Character}
_MOVE_V = {c: Action(MOVE, direction=VERTICAL, character=c) for c in Character}
_CONVERSE = {c: Action(CONVERSE, character=c) for c in Character}


def _moves(state: GameState, player: str) -> list[Action]:
    cds = state.cooldowns.get(player, frozenset())
    out = []
    for c in state.positions:
        if MOVE_KEY[c] not in cds:
            out.append(_MOVE_H[c])
            out.append(_MOVE_V[c])
    return out


def _non_moves(state: GameState, player: str) -> list[Action]:
    own = state.own(player)
    if not state.alive(own):
        return []
    cds = state.cooldowns.get(player, frozenset())
    out = []
    here = state.positions[own]
    for c, loc in state.positions.items():
        if loc is here and c is not own and CONVERSE_KEY[c] not in cds:
            out.append(_CONVERSE[c])
    if ABILITY_KEY[own] not in cds:
        for t, d, p in abilities.options(state, own, own):
            out.append(_action(ABILITY, None, t, d, p))
    for friend in sorted(network_of(state, own)):
        if FRIEND_KEY[friend] not in cds:
            for t, d, p in abilities.options(state, friend, own):
                out.append(_action(FRIEND, friend, t, d, p))
    return out


def legal_actions(state: GameState, player: str) -> list[Action]:
    """Every individually legal action, moves first. Empty once the game is over.

    If the player has no legal non-movement action, only moves are listed (single_move_only).
    """
    if state.over:
        return []
    return _moves(state, player) + _non_moves(state, player)


def legal_seconds(state: GameState, player: str, first: Action) -> list[Action]:
    """Actions that may stand beside `first` in one submission (no shared key, one move at most)."""
    if state.over or check_action(state, player, first) is not None:
        return []
    own = state.own(player)
    first_key = first.key(own)
    pool = _non_moves(state, player) if first.is_move else legal_actions(state, player)
    return [a for a in pool if a.key(own) != first_key]


def sorted_json(actions: list[Action]) -> list[dict[str, Any]]:
    """Actions in replay.md's `legal` order: by their JSON text with sorted keys."""
    return sorted((a.to_json() for a in actions), key=lambda d: json.dumps(d, sort_keys=True))


__all__ = ["legal_actions", "legal_seconds", "single_move_only", "sorted_json", "ABILITY", "FRIEND"]
