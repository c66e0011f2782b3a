"""Friendship networks: components of the S0 graph of pairs with 2+ points (R52-R60)."""

from __future__ import annotations

from .ids import Character
from .state import GameState

EDGE_POINTS = 2


def network_of(state: GameState, character: Character) -> frozenset[Character]:
    """The characters reachable from `character` through friendship edges, itself excluded.

    A dead Governor is no node and no link (R58); a dead character has no network (R60).
    """
    if not state.alive(character):
        return frozenset()
    adjacency: dict[str, list[str]] = {}
    gov = Character.GOVERNOR.value
    for key, points in state.friendship.items():
        if points < EDGE_POINTS:
            continue
        a, b = key.split("+")
        if not state.governor_alive and gov in (a, b):
            continue
        adjacency.setdefault(a, []).append(b)
        adjacency.setdefault(b, []).append(a)
    start = character.value
    seen = {start}
    stack = [start]
    while stack:
        for nxt in adjacency.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    seen.discard(start)
    return frozenset(Character(c) for c in seen)
