"""Belief over the hidden seats: every role assignment consistent with what a seat knows.

An assignment gives each of the 8 characters a role (5 roles once, `none` three times) that the
character may hold (R10). There are 2,564 of them; a seat's knowledge (its own seat, investigations,
identifications, the Governor's death) keeps those that fit, all equally likely. A determinization
then seats the other players on the assigned characters (fixed where an identification said who).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from random import Random

from ..ids import CHARACTERS, FORBIDDEN, ROLES, Character, Role
from ..state import Seat
from .knowledge import Knowledge

Assignment = tuple[Role, ...]  # indexed like CHARACTERS
INDEX = {c: i for i, c in enumerate(CHARACTERS)}


def _all() -> tuple[Assignment, ...]:
    out = []
    for places in permutations(range(len(CHARACTERS)), len(ROLES)):
        roles = [Role.NONE] * len(CHARACTERS)
        for role, i in zip(ROLES, places, strict=True):
            roles[i] = role
        if all(roles[i] not in FORBIDDEN[c] for i, c in enumerate(CHARACTERS)):
            out.append(tuple(roles))
    return tuple(out)


ASSIGNMENTS: tuple[Assignment, ...] = _all()

# (character index, role) facts; (character index, controlled?) facts; the Hitman's suspects (or None)
Key = tuple[tuple[tuple[int, Role], ...], tuple[tuple[int, bool], ...], tuple[int, ...] | None]


def key_of(k: Knowledge) -> Key:
    roles = {(INDEX[k.own], k.role)} | {(INDEX[f.character], f.role) for f in k.roles}
    controls = {(INDEX[f.character], f.player is not None) for f in k.controls}
    suspects = None if k.hitman is None else tuple(sorted(INDEX[c] for c in k.hitman.suspects))
    return tuple(sorted(roles)), tuple(sorted(controls)), suspects


@lru_cache(maxsize=4096)
def _consistent(key: Key) -> tuple[Assignment, ...]:
    roles, controls, suspects = key
    out = []
    for a in ASSIGNMENTS:
        if any(a[i] is not r for i, r in roles):
            continue
        if any((a[i] is not Role.NONE) is not controlled for i, controlled in controls):
            continue
        if suspects is not None and a.index(Role.HITMAN) not in suspects:
            continue
        out.append(a)
    return tuple(out)


def consistent(k: Knowledge) -> tuple[Assignment, ...]:
    """The assignments that fit everything `k` knows. Never empty: facts that contradict each other
    (which real events cannot produce) are dropped, the seat's own first kept."""
    found = _consistent(key_of(k))
    if found:
        return found
    roles, _controls, _suspects = key_of(k)
    own_only: Key = (tuple(f for f in roles if f[0] == INDEX[k.own]), (), None)
    return _consistent(own_only)


def role_of(a: Assignment, c: Character) -> Role:
    return a[INDEX[c]]


def seat_others(k: Knowledge, a: Assignment, rng: Random | None) -> dict[str, Seat]:
    """Seats for every player: this seat's own, the others on the assignment's other characters (those an
    identification tied to a player stay with that player, the rest at random; in order without `rng`)."""
    seats = {k.me: Seat(k.own, k.role)}
    free = [c for c in CHARACTERS if a[INDEX[c]] is not Role.NONE and c is not k.own]
    others = list(k.others)
    for fact in k.controls:
        p = fact.player
        if p is not None and p in others and fact.character in free:
            seats[p] = Seat(fact.character, a[INDEX[fact.character]])
            others.remove(p)
            free.remove(fact.character)
    if rng is not None:
        rng.shuffle(free)
    for p, c in zip(others, free, strict=False):
        seats[p] = Seat(c, a[INDEX[c]])
    return {p: seats[p] for p in k.players if p in seats}


def marginals(assignments: Sequence[Assignment]) -> list[dict[Role, int]]:
    """Per character, how many of the assignments give it each role."""
    out: list[dict[Role, int]] = [{} for _ in CHARACTERS]
    for a in assignments:
        for i, r in enumerate(a):
            out[i][r] = out[i].get(r, 0) + 1
    return out
