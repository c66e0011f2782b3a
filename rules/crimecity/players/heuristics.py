"""How close a board is to a seat's goal: estimated rounds to completion, per role (rules R22-R25).

Each estimate counts single-axis moves ("flips") still needed, as if the others kept still and the
seat could make one flip per round; it is a ranking of boards, not a promise. `score` turns it into a
value in [0, 1]: 1 for a completed goal, `DISCOUNT ** rounds` for one still reachable in the rounds
left, 0 otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from math import comb

from ..actions import MOVE_KEY
from ..ids import CHARACTERS, LOCATIONS, Character, Location, Role
from ..state import GameState

C = Character
L = Location
DISCOUNT = 0.5
SOON = 0.8  # the share of a board's value that is about completing soon (a ToL), the rest about in time
STEP = 0.55  # how often a round's planned progress survives the others' moves
PP_TARGET = 4
BITS = {L.TOWN_HALL: 0, L.MANSION: 1, L.MAIN_STREET: 2, L.BANK: 3}
NEIGHBOURS = {loc: tuple(x for x in LOCATIONS if bin(BITS[x] ^ BITS[loc]).count("1") == 1) for loc in LOCATIONS}
CHAR_BIT = {c: 1 << i for i, c in enumerate(CHARACTERS)}
UNREACHABLE = 99
MAIN_STREET = LOCATIONS.index(L.MAIN_STREET)


def flips(a: Location, b: Location) -> int:
    """Single-axis moves from a to b (a diagonal is two).

    >>> flips(Location.TOWN_HALL, Location.BANK), flips(Location.BANK, Location.MANSION)
    (2, 1)
    """
    return bin(BITS[a] ^ BITS[b]).count("1")


def rounds_to_goal(state: GameState, player: str) -> int:
    """Estimated rounds from `state`'s board until `player`'s goal completes (0: completed).

    The moves this seat used in the round just played are on cooldown in the next (R46), which the
    estimate takes into account."""
    if player in state.completed:
        return 0
    role = state.role(player)
    own = state.own(player)
    pos = state.positions
    if role is Role.MOB_BOSS or own not in pos:
        return UNREACHABLE  # not a matter of the board (the Mob Boss), or no character left (R29)
    locked = state.cooldowns.get(player, frozenset())
    here = pos[own]
    pr = state.progress.get(player)
    if role is Role.BANK_ROBBER:
        left = 2 - (pr.bank_turns if pr else 0)
        needs = [(own, flips(here, L.BANK))]
        needs += [(c, 1) for c in (C.ARMED_GUARD, C.POLICEMAN) if pos[c] is L.BANK]
        return max(_rounds(needs, locked), 1) + left - 1
    if role is Role.HITMAN:
        if not state.governor_alive:
            return UNREACHABLE
        gov = pos[C.GOVERNOR]
        best = UNREACHABLE
        for loc in LOCATIONS:
            needs = [(own, flips(here, loc)), (C.GOVERNOR, flips(gov, loc))]
            needs += [(c, 1) for c, at in pos.items() if at is loc and c is not own and c is not C.GOVERNOR]
            best = min(best, _rounds(needs, locked))
        return max(best, 1)
    if role is Role.FRAUD:
        sec = pos.get(C.SECRETARY, L.TOWN_HALL)
        if pr is not None and pr.fraud_stage:
            return max(1, _rounds([(own, flips(here, L.TOWN_HALL)), (C.SECRETARY, flips(sec, L.TOWN_HALL))], locked))
        first = _rounds([(own, flips(here, L.TOWN_HALL)), (C.SECRETARY, int(sec is L.TOWN_HALL))], locked)
        back = 2 if sec is L.TOWN_HALL else flips(sec, L.TOWN_HALL)  # moved out, it cannot come back at once
        return max(first, 1) + back
    if role is Role.PICKPOCKET:
        stolen = 0
        for c in pr.stolen if pr else ():
            stolen |= CHAR_BIT[c]
        occupancy = tuple(
            sum(CHAR_BIT[c] for c, at in pos.items() if at is loc and c is not own) for loc in LOCATIONS
        )
        left = state.rounds_total - state.round + 1
        moved = MOVE_KEY[own] in locked
        roam = _pickpocket(LOCATIONS.index(here), stolen, occupancy, min(left, 4), moved)
        return min(roam, _camp(here, stolen, occupancy[MAIN_STREET], moved))
    return UNREACHABLE


def _rounds(needs: list[tuple[Character, int]], locked: frozenset[str]) -> int:
    """Rounds for single-axis moves on characters, one a round, never the same character two rounds in a
    row (R46); a round later when every character to move is on this seat's cooldown."""
    total = sum(f for _, f in needs)
    if total == 0:
        return 0
    top = max(f for _, f in needs)
    rounds = max(total, 2 * top - 1)
    if all(MOVE_KEY[c] in locked for c, f in needs if f > 0):
        rounds += 1
    return rounds


# Rounds to reach Main Street by own moves, never two in a row: by flips, and whether it just moved.
_TO_MAIN = {(0, False): 0, (0, True): 0, (1, False): 1, (1, True): 2, (2, False): 3, (2, True): 4}


def _camp(here: Location, stolen: int, at_main: int, moved: bool) -> int:
    """Rounds to finish by going to Main Street and staying there, pulling one new character in a round."""
    trip = _TO_MAIN[(flips(here, L.MAIN_STREET), moved)]
    have = bin(stolen | (at_main if trip else 0)).count("1")
    return max(1, trip + max(0, PP_TARGET - have))


@lru_cache(maxsize=65536)
def _pickpocket(here: int, stolen: int, occupancy: tuple[int, ...], depth: int, locked: bool) -> int:
    """Fewest rounds (at most `depth`) until 4 steals and Main Street (R24), moving its own character one
    step at a time and never two rounds in a row (R46; `locked`: it moved in the round just played)."""
    frontier = {(here, stolen, locked)}
    for step in range(1, depth + 1):
        nxt = set()
        for at, got, moved in frontier:
            options = (at,) if moved else (at, *(LOCATIONS.index(x) for x in NEIGHBOURS[LOCATIONS[at]]))
            for i in options:
                took = got | occupancy[i]
                if i == MAIN_STREET and bin(took).count("1") >= PP_TARGET:
                    return step
                nxt.add((i, took, i != at))
        frontier = nxt
    return UNREACHABLE


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
    return SOON * DISCOUNT**need + (1 - SOON) * _in_time(need, left)


@lru_cache(maxsize=256)
def _in_time(need: int, left: int) -> float:
    """The chance that `need` rounds of progress, each coming off with STEP, fit in `left` rounds."""
    return sum(comb(left, k) * STEP**k * (1 - STEP) ** (left - k) for k in range(need, left + 1))


# How much a friendship action with each owner helps each role (a tie-break for the free action slot).
USEFUL: Mapping[Role, Mapping[Character, float]] = {
    Role.BANK_ROBBER: {C.GOVERNOR: 1.0, C.ARMED_GUARD: 0.7, C.BANKER: 0.6, C.POLICEMAN: 0.5},
    Role.HITMAN: {C.GOVERNORS_DAUGHTER: 1.0, C.GOVERNOR: 0.9, C.ARMED_GUARD: 0.5, C.POLICEMAN: 0.5, C.BANKER: 0.3},
    Role.PICKPOCKET: {C.GOVERNOR: 1.0, C.GOVERNORS_DAUGHTER: 0.6, C.ARMED_GUARD: 0.5, C.BANKER: 0.5},
    Role.FRAUD: {C.GOVERNOR: 1.0, C.ARMED_GUARD: 0.6, C.POLICEMAN: 0.6, C.BANKER: 0.4},
    Role.MOB_BOSS: {C.DETECTIVE: 1.0, C.SECRETARY: 0.6},
    Role.NONE: {},
}
