"""What actions that move nobody are worth: friendships toward useful abilities, and information.

A friendship edge (2 points, R52) gives the seat every ability of the friend's network from the next
round on (R54); an edge is worth the sum, over the owners it newly reaches, of how much each owner's
ability helps the seat's role (`USEFUL`). Information is worth the share of the assignments it is
expected to rule out, which matters to the Mob Boss and little to anyone else.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..actions import Action
from ..ids import CHARACTERS, Character, Role, pair_key
from .heuristics import USEFUL
from .knowledge import Knowledge
from .mob_boss import candidates_left, expected_left
from .search import info_owner, side_effect_pairs

C = Character
EDGE = 2
W_EDGE = {Role.MOB_BOSS: 0.5}
W_EDGE_DEFAULT = 0.06
HALF = 0.4  # a first point is worth this share of the edge it prepares
W_INFO = {C.DETECTIVE: 1.0, C.SECRETARY: 0.5}
W_INFO_OTHERS = 0.002
UNLISTED = 0.05  # an owner a role has no use for still widens the network a little
BUY_MAX = 2  # points bought at once toward one edge
BUY_GAIN = 0.9  # the least edge gain worth garnets


def component(friendship: Mapping[str, int], start: Character, governor_alive: bool) -> set[Character]:
    """`start` and every character its friendship edges reach (R53, R58)."""
    if start is C.GOVERNOR and not governor_alive:
        return set()
    adjacent: dict[Character, list[Character]] = {}
    for key, points in friendship.items():
        if points < EDGE:
            continue
        a, b = (Character(x) for x in key.split("+"))
        if not governor_alive and C.GOVERNOR in (a, b):
            continue
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
    seen = {start}
    stack = [start]
    while stack:
        for nxt in adjacent.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def edge_gain(k: Knowledge, friend: Character, friendship: Mapping[str, int] | None = None) -> float:
    """How much an edge own-`friend` would add: the usefulness of the owners it newly reaches."""
    fr = k.friendship if friendship is None else friendship
    if not (k.governor_alive or C.GOVERNOR not in (k.own, friend)):
        return 0.0
    mine = component(fr, k.own, k.governor_alive)
    theirs = component(fr, friend, k.governor_alive)
    useful = USEFUL.get(k.role, {})
    gained = sorted(theirs - mine, key=CHARACTERS.index)
    return sum(useful.get(o, UNLISTED) for o in gained)


def points(friendship: Mapping[str, int], a: Character, b: Character) -> int:
    return friendship.get(pair_key(a, b), 0)


def side_value(k: Knowledge, a: Action) -> float:
    """The value of an action beyond the board: friendship it builds and information it brings."""
    own = k.own
    total = 0.0
    if k.round < k.rounds_total:  # an edge made now helps from the next round (R54)
        weight = W_EDGE.get(k.role, W_EDGE_DEFAULT)
        for _, friend in side_effect_pairs(a, own):
            have = points(k.friendship, own, friend)
            if have >= EDGE:
                continue
            share = 1.0 if have + 1 >= EDGE else HALF
            total += weight * share * edge_gain(k, friend)
    asked = info_owner(a, own)
    if asked is not None:
        total += info_value(k, a, asked)
    return total


def info_value(k: Knowledge, a: Action, asked: Character) -> float:
    if k.role is not Role.MOB_BOSS or k.completed is not None:
        return W_INFO_OTHERS
    n = candidates_left(k)
    if n <= 1:
        return 0.0
    if asked is C.SECRETARY and a.target is None:
        return W_INFO_OTHERS  # who plays a character says nothing of roles here
    target = a.target
    for left, c in expected_left(k, asks_role=asked is C.DETECTIVE):
        if c is target:
            return W_INFO[asked] * (n - left) / n
    return 0.0


def raised(k: Knowledge, actions: tuple[Action, ...]) -> dict[str, int]:
    """The friendship totals after this seat's own actions (the others' are unknown)."""
    fr = dict(k.friendship)
    for a in actions:
        for x, y in side_effect_pairs(a, k.own):
            key = pair_key(x, y)
            fr[key] = fr.get(key, 0) + 1
    return fr


def plan_buys(k: Knowledge, actions: tuple[Action, ...], cost: int) -> tuple[tuple[Character, Character], ...]:
    """Friendship points worth buying now (3 garnets each, R61): the points that complete the most useful
    edge from the next round, when there are rounds left to use it."""
    rounds_after = k.rounds_total - k.round
    if k.completed is not None or k.own not in k.positions or rounds_after < 1:
        return ()
    fr = raised(k, actions)
    budget = k.garnets // cost
    best: tuple[float, Character, int] | None = None
    for friend in CHARACTERS:
        if friend is k.own or friend not in k.positions:
            continue
        need = EDGE - points(fr, k.own, friend)
        if need <= 0 or need > budget or need > BUY_MAX:
            continue
        gain = edge_gain(k, friend, fr)
        if gain < BUY_GAIN or rounds_after < 2:
            continue
        if best is None or gain > best[0]:
            best = (gain, friend, need)
    if best is None:
        return ()
    _, friend, need = best
    return ((k.own, friend),) * need
