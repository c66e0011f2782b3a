"""Each printed ability: its parameters and where it may act (rulings §1.4, Q7, Q41).

`options` enumerates every legal parameter set for an actor on S0; `check` explains why one
parameter set is not legal. Both read only S0 (Q5).
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import Action
from .errors import RuleError
from .ids import CHARACTERS, LOCATIONS, Character, Location
from .state import GameState

C = Character
TARGET_ONLY = frozenset({C.POLICEMAN, C.ARMED_GUARD, C.STORE_CLERK, C.DETECTIVE})
NO_PARAMS = frozenset({C.BANKER, C.GOVERNORS_DAUGHTER})
BANKER_PLACES = frozenset({Location.TOWN_HALL, Location.BANK})

# (target, destination, player)
Params = tuple[Character | None, Location | None, str | None]


def fits(owner: Character, action: Action) -> bool:
    """Whether the action's fields are exactly the ability's parameters (else `malformed`)."""
    if action.extra or action.character is not None or action.direction is not None:
        return False
    t, d, p = action.target is not None, action.destination is not None, action.player is not None
    if owner in TARGET_ONLY:
        return t and not d and not p
    if owner in NO_PARAMS:
        return not (t or d or p)
    if owner is C.GOVERNOR:
        return t and d and not p
    return (t != p) and not d  # Secretary: exactly one of player / target


def condition_holds(state: GameState, owner: Character, actor: Character) -> bool:
    """The ability's own condition (replay.md `unavailable`)."""
    if owner is C.BANKER:
        return state.positions[actor] in BANKER_PLACES
    if owner is C.GOVERNOR:
        return state.governor_alive
    return True


def check(state: GameState, owner: Character, actor: Character, action: Action) -> RuleError | None:
    """Target (`bad_target`) then co-location (`not_here`) checks for well-formed parameters."""
    pos = state.positions
    target = action.target
    name = owner.title
    if owner is C.POLICEMAN or owner is C.ARMED_GUARD or owner is C.GOVERNOR:
        assert target is not None, "these abilities take a target (fits)"
        if not state.alive(target):
            return RuleError("bad_target", f"{target.title} is dead and cannot be targeted (rule Q26).")
        if owner is C.ARMED_GUARD and target is actor:
            return RuleError(
                "bad_target", f"{name}'s ability moves another character, not the one using it (rule Q41)."
            )
        if owner is C.GOVERNOR and action.destination is pos[target]:
            return RuleError(
                "bad_target", f"{name} must send {target.title} to another location, not where it already is (Q16)."
            )
        if pos[target] is not pos[actor]:
            return RuleError(
                "not_here", f"{name}'s ability needs {target.title} in the same location as {actor.title} (rule Q5)."
            )
        return None
    if owner is C.STORE_CLERK:
        assert target is not None, "the Store Clerk's ability takes a target (fits)"
        if not state.alive(target):
            return RuleError("bad_target", f"{target.title} is dead and cannot be targeted (rule Q26).")
        if target is actor:
            return RuleError("bad_target", "A conversation needs two different characters (rule Q41).")
    if owner is C.SECRETARY and action.player is not None and action.player not in state.seats:
        return RuleError("bad_target", f"{action.player} is not a player of this game.")
    return None


def options(state: GameState, owner: Character, actor: Character) -> Iterator[Params]:
    """Every legal parameter set for `actor` using `owner`'s ability (condition included)."""
    if not condition_holds(state, owner, actor):
        return
    pos = state.positions
    here = pos[actor]
    if owner in NO_PARAMS:
        yield (None, None, None)
    elif owner is C.DETECTIVE:
        for c in CHARACTERS:
            yield (c, None, None)
    elif owner is C.SECRETARY:
        for p in state.players:
            yield (None, None, p)
        for c in CHARACTERS:
            yield (c, None, None)
    elif owner is C.STORE_CLERK:
        for c in pos:
            if c is not actor:
                yield (c, None, None)
    elif owner is C.POLICEMAN or owner is C.ARMED_GUARD:
        for c, loc in pos.items():
            if loc is here and not (owner is C.ARMED_GUARD and c is actor):
                yield (c, None, None)
    else:  # Governor: any co-located living character, itself included, to any other place
        for c, loc in pos.items():
            if loc is here:
                for d in LOCATIONS:
                    if d is not loc:
                        yield (c, d, None)


def has_option(state: GameState, owner: Character, actor: Character) -> bool:
    return next(options(state, owner, actor), None) is not None
