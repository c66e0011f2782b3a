"""Submission validity on S0, in the order of replay.md "Edge cases" (rulings R34-R44).

Layered like a chess move check: can it be read (`malformed`), is it shaped right (`shape`),
is each action allowed (network, condition, target, place, cooldown), then the extras.
"""

from __future__ import annotations

from collections import Counter

from . import abilities
from .actions import (
    ABILITY,
    ABILITY_KEY,
    CONVERSE,
    CONVERSE_KEY,
    DIRECTIONS,
    FRIEND,
    FRIEND_KEY,
    MOVE,
    Action,
    Submission,
)
from .errors import RuleError
from .ids import CHARACTERS, ROLES, Character, Role
from .network import network_of
from .state import GameState

BUY_COST = 3


def is_malformed(state: GameState, player: str, action: Action) -> bool:
    """The action's fields do not fit its kind or ability (replay.md `malformed`)."""
    if action.kind == MOVE:
        return (
            action.extra
            or action.direction not in DIRECTIONS
            or action.character is None
            or any(x is not None for x in (action.friend, action.target, action.destination, action.player))
        )
    if action.kind == CONVERSE:
        return (
            action.extra
            or action.character is None
            or any(x is not None for x in (action.direction, action.friend, action.target, action.destination))
            or action.player is not None
        )
    if action.kind == ABILITY:
        return action.friend is not None or not abilities.fits(state.own(player), action)
    if action.kind == FRIEND:
        return action.friend is None or not abilities.fits(action.friend, action)
    return True


def _cooldown_message(state: GameState, player: str, key: str) -> str:
    kind, _, name = key.partition(":")
    title = Character(name).title
    what = {
        "move": f"You moved {title} last round",
        "converse": f"You conversed with {title} last round",
        "ability": f"You used {title}'s ability last round",
        "friend": f"You used {title}'s ability as a friendship action last round",
    }[kind]
    return (
        f"{what}; a character cannot receive the same kind of action from you two rounds in a row "
        "(on cooldown, rule R46)."
    )


def check_action(state: GameState, player: str, action: Action) -> RuleError | None:
    """Whether one well-formed action is allowed for `player` now, alone (R35-R41)."""
    if is_malformed(state, player, action):
        return RuleError("malformed", "That action's fields do not fit its kind or ability.")
    own = state.own(player)
    pos = state.positions
    if action.kind == MOVE:
        assert action.character is not None, "a well-formed move names its character"
        if not state.alive(action.character):
            return RuleError("bad_target", f"{action.character.title} is dead and cannot be moved (rule Q26).")
    else:
        if not state.alive(own):
            return RuleError(
                "unavailable", "Your character is dead: you can only submit one movement action (rule Q27)."
            )
        if action.kind == CONVERSE:
            x = action.character
            assert x is not None, "a well-formed conversation names its character"
            if x is own:
                return RuleError("bad_target", "You cannot converse with your own character (rule Q41).")
            if not state.alive(x):
                return RuleError("bad_target", f"{x.title} is dead and cannot be conversed with (rule Q26).")
            if pos[x] is not pos[own]:
                return RuleError(
                    "not_here",
                    f"{x.title} is not at {pos[own].title} with {own.title}; you can only converse with a "
                    "character in your own character's location (rule R36).",
                )
        else:
            owner = own if action.kind == ABILITY else action.friend
            assert owner is not None, "a well-formed friendship action names its friend"
            if action.kind == FRIEND:
                if owner is Character.GOVERNOR and not state.governor_alive:
                    return RuleError("unavailable", "The Governor is dead: nobody can use his ability (rule R20).")
                if owner is own:
                    return RuleError(
                        "not_networked",
                        "You cannot use your own character's ability as a friendship action (rule R56).",
                    )
                if owner not in network_of(state, own):
                    return RuleError(
                        "not_networked",
                        f"{owner.title} is not in {own.title}'s friendship network: a chain of pairs with 2 "
                        "or more points at the start of the round is needed (rules R38, R54).",
                    )
            if not abilities.condition_holds(state, owner, own):
                return RuleError(
                    "unavailable",
                    f"{owner.title}'s ability can only be used from the Town Hall or the Bank (rule Q7)."
                    if owner is Character.BANKER
                    else f"{owner.title}'s ability is not available.",
                )
            err = abilities.check(state, owner, own, action)
            if err is not None:
                return err
    key = action.key(own)
    if key in state.cooldowns.get(player, ()):
        return RuleError("cooldown", _cooldown_message(state, player, key))
    return None


def has_non_move(state: GameState, player: str) -> bool:
    """Q22: whether the player has at least one legal non-movement action on S0."""
    own = state.own(player)
    if not state.alive(own):
        return False
    cds = state.cooldowns.get(player, frozenset())
    here = state.positions[own]
    for c, loc in state.positions.items():
        if loc is here and c is not own and CONVERSE_KEY[c] not in cds:
            return True
    if ABILITY_KEY[own] not in cds and abilities.has_option(state, own, own):
        return True
    for friend in network_of(state, own):
        if FRIEND_KEY[friend] not in cds and abilities.has_option(state, friend, own):
            return True
    return False


def check_guess(state: GameState, player: str, guess: dict[Character, Role]) -> RuleError | None:
    """R26, R42, Q14: only the Mob Boss, all 8 characters, each role once and 'none' three times."""
    if state.role(player) is not Role.MOB_BOSS:
        return RuleError("guess", "Only the Mob Boss may submit a guess of every character's role (rule Q14).")
    if set(guess) != set(CHARACTERS):
        missing = ", ".join(c.value for c in CHARACTERS if c not in guess)
        return RuleError("guess", f"A guess must name a role for all 8 characters; missing: {missing} (rule R42).")
    counts = Counter(guess.values())
    if any(counts[r] != 1 for r in ROLES) or counts[Role.NONE] != 3:
        return RuleError(
            "guess", "A guess must use each of the 5 roles exactly once and 'none' exactly three times (rule R42)."
        )
    return None


def check_buys(state: GameState, player: str, buys: tuple[tuple[Character, Character], ...]) -> RuleError | None:
    """R61-R63, Q24: distinct living pairs, and 3 garnets each within the balance."""
    for a, b in buys:
        if a is b:
            return RuleError("bad_target", "A friendship purchase needs two different characters (rule R61).")
        if not (state.alive(a) and state.alive(b)):
            return RuleError("bad_target", "The dead Governor cannot gain friendship points (rule Q24).")
    cost = BUY_COST * len(buys)
    balance = state.garnets.get(player, 0)
    if cost > balance:
        return RuleError(
            "garnets", f"{len(buys)} point(s) cost {cost} garnets but you have {balance} (rule R63)."
        )
    return None


def validate_submission(state: GameState, player: str, sub: Submission) -> RuleError | None:
    """The first refusal that applies, in replay.md's order; None when the submission is valid."""
    actions = sub.actions
    for a in actions:
        if is_malformed(state, player, a):
            return RuleError("malformed", "That action's fields do not fit its kind or ability.")
    if not actions:
        return RuleError("shape", "A submission needs at least one action (rule R39).")
    if len(actions) > 2:
        return RuleError("shape", "A submission holds at most two actions (rule R39).")
    if len(actions) == 2 and actions[0].is_move and actions[1].is_move:
        return RuleError("shape", "Only one movement action is allowed per round (rule R39).")
    for a in actions:
        err = check_action(state, player, a)
        if err is not None:
            return err
    own = state.own(player)
    if len(actions) == 2 and actions[0].key(own) == actions[1].key(own):
        return RuleError(
            "duplicate", "The same action on the same character cannot appear twice in one submission (rule Q21)."
        )
    if len(actions) == 1:
        if not actions[0].is_move:
            return RuleError(
                "shape", "You must submit two actions; a single action is allowed only as a movement (rule R39)."
            )
        if has_non_move(state, player):
            return RuleError(
                "shape",
                "You have a legal non-movement action, so you must submit two actions, at most one of them "
                "a movement (rules R39, Q22).",
            )
    if sub.guess is not None:
        err = check_guess(state, player, sub.guess)
        if err is not None:
            return err
    return check_buys(state, player, sub.buys)
