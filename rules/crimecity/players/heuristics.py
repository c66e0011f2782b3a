"""How close a board is to a seat's goal: estimated rounds to completion, per role (rules R22-R25).

Each estimate counts single-axis moves ("flips") still needed, as if the others kept still and the
seat could make one flip per round; it is a ranking of boards, not a promise. `score` turns it into a
value in [0, 1]: 1 for a completed goal, `DISCOUNT ** rounds` for one still reachable in the rounds
left, 0 otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from ..ids import CHARACTERS, LOCATIONS, Character, Location, Role
from ..state import GameState

C = Character
L = Location
DISCOUNT = 0.5
PP_TARGET = 4
BITS = {L.TOWN_HALL: 0, L.MANSION: 1, L.MAIN_STREET: 2, L.BANK: 3}
NEIGHBOURS = {loc: tuple(x for x in LOCATIONS if bin(BITS[x] ^ BITS[loc]).count("1") == 1) for loc in LOCATIONS}
CHAR_BIT = {c: 1 << i for i, c in enumerate(CHARACTERS)}
UNREACHABLE = 99


def flips(a: Location, b: Location) -> int:
    """Single-axis moves from a to b (a diagonal is two).

    >>> flips(Location.TOWN_HALL, Location.BANK), flips(Location.BANK, Location.MANSION)
    (2, 1)
    """
    return bin(BITS[a] ^ BITS[b]).count("1")


def rounds_to_goal(state: GameState, player: str) -> int:
    """Estimated rounds from `state`'s board until `player`'s goal completes (0: completed)."""
    if player in state.completed:
        return 0
    role = state.role(player)
    own = state.own(player)
    pos = state.positions
    if role is Role.MOB_BOSS or own not in pos:
        return UNREACHABLE  # not a matter of the board (the Mob Boss), or no character left (R29)
    here = pos[own]
    pr = state.progress.get(player)
    if role is Role.BANK_ROBBER:
        left = 2 - (pr.bank_turns if pr else 0)
        need = flips(here, L.BANK) + (pos[C.ARMED_GUARD] is L.BANK) + (pos[C.POLICEMAN] is L.BANK)
        return max(need, 1) + left - 1
    if role is Role.HITMAN:
        if not state.governor_alive:
            return UNREACHABLE
        gov = pos[C.GOVERNOR]
        best = UNREACHABLE
        for loc in LOCATIONS:
            crowd = sum(1 for c, at in pos.items() if at is loc and c is not own and c is not C.GOVERNOR)
            best = min(best, flips(here, loc) + flips(gov, loc) + crowd)
        return max(best, 1)
    if role is Role.FRAUD:
        sec = pos.get(C.SECRETARY, L.TOWN_HALL)
        if pr is not None and pr.fraud_stage:
            return max(1, flips(here, L.TOWN_HALL) + flips(sec, L.TOWN_HALL))
        return flips(here, L.TOWN_HALL) + (sec is L.TOWN_HALL) + 1
    if role is Role.PICKPOCKET:
        stolen = 0
        for c in pr.stolen if pr else ():
            stolen |= CHAR_BIT[c]
        occupancy = tuple(
            sum(CHAR_BIT[c] for c, at in pos.items() if at is loc and c is not own) for loc in LOCATIONS
        )
        left = state.rounds_total - state.round + 1
        return _pickpocket(LOCATIONS.index(here), stolen, occupancy, min(left, 4))
    return UNREACHABLE


@lru_cache(maxsize=65536)
def _pickpocket(here: int, stolen: int, occupancy: tuple[int, ...], depth: int) -> int:
    """Fewest rounds (at most `depth`) of one own flip a round until 4 steals and Main Street (R24)."""
    best = UNREACHABLE
    frontier = [(here, stolen)]
    for step in range(1, depth + 1):
        nxt = []
        for at, got in frontier:
            for loc in (LOCATIONS[at], *NEIGHBOURS[LOCATIONS[at]]):
                i = LOCATIONS.index(loc)
                took = got | occupancy[i]
                if bin(took).count("1") >= PP_TARGET and loc is L.MAIN_STREET:
                    return step
                nxt.append((i, took))
        frontier = list(dict.fromkeys(nxt))
    return best


def score(state: GameState, player: str) -> float:
    """The value of a board after a round for `player`: 1 completed, DISCOUNT**rounds if reachable in time."""
    if player in state.completed:
        return 1.0
    if state.over:
        return 0.0
    need = rounds_to_goal(state, player)
    left = state.rounds_total - state.round + 1
    if need > left:
        return 0.0
    return float(DISCOUNT**need)


# How much a friendship action with each owner helps each role (a tie-break for the free action slot).
USEFUL: Mapping[Role, Mapping[Character, float]] = {
    Role.BANK_ROBBER: {C.GOVERNOR: 1.0, C.ARMED_GUARD: 0.7, C.BANKER: 0.6, C.POLICEMAN: 0.5},
    Role.HITMAN: {C.GOVERNORS_DAUGHTER: 1.0, C.GOVERNOR: 0.9, C.ARMED_GUARD: 0.5, C.POLICEMAN: 0.5, C.BANKER: 0.3},
    Role.PICKPOCKET: {C.GOVERNOR: 1.0, C.GOVERNORS_DAUGHTER: 0.6, C.ARMED_GUARD: 0.5, C.BANKER: 0.5},
    Role.FRAUD: {C.GOVERNOR: 1.0, C.ARMED_GUARD: 0.6, C.POLICEMAN: 0.6, C.BANKER: 0.4},
    Role.MOB_BOSS: {C.DETECTIVE: 1.0, C.SECRETARY: 0.6},
    Role.NONE: {},
}
