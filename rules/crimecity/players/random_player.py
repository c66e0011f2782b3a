"""The `random` level: a uniformly random legal submission, built from the seat's view.

Uniform over the legal sets of actions of R39 ({M, N}, {N1, N2}, or the lone {M} when no non-movement
action is legal). The extras follow the engine's random play (rules/crimecity/simulate.py): a Mob Boss
always adds a uniformly random well-formed guess (a guess costs nothing), and one friendship point is
bought one time in ten when the balance allows. The draft ranks at random and bids a random amount half
of the time; an EC choice is a uniform pick among the candidates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random

from ...contract import JSON, Event, Move, Pending
from ..actions import Action, Submission
from ..ids import CHARACTERS, ROLES, Character, Role
from ..legal import legal_actions
from ..state import GameState
from ..validate import BUY_COST
from .knowledge import ec_choice, read
from .viewstate import own_state

BUY_RATE = 0.1


class RandomPlayer:
    level = "random"

    def decide(self, view: dict[str, JSON], pending: Pending, seen: Sequence[Event], rng: Random) -> Move | None:
        me = view.get("player")
        if not isinstance(me, str) or me not in pending.awaited:
            return None
        if pending.decision == "draft":
            return random_draft(view, rng)
        if pending.decision == "round":
            k = read(view, seen)
            return round_move(random_submission_for(own_state(k), k.me, rng))
        if pending.decision == "ec":
            choice = ec_choice(seen, me)
            if choice is None or not choice[0]:
                return None
            return {"kind": "ec", "player": rng.choice(choice[0])}
        return None


def round_move(sub: Submission) -> Move:
    return {"kind": "round", **sub.to_json()}


def random_draft(view: Mapping[str, JSON], rng: Random) -> Move:
    roles = [r.value for r in ROLES]
    chars = [c.value for c in CHARACTERS]
    rng.shuffle(roles)
    rng.shuffle(chars)
    balance = int(view.get("garnets") or 0)
    bid = rng.randint(0, balance) if rng.random() < 0.5 else 0
    return {"kind": "draft", "bid": bid, "roles": roles, "characters": chars}


def random_actions(state: GameState, me: str, rng: Random) -> tuple[Action, ...]:
    """A uniformly random legal set of actions (R39, R40), in random order."""
    legal = legal_actions(state, me)
    moves = [a for a in legal if a.is_move]
    others = [a for a in legal if not a.is_move]
    if not others:
        return (rng.choice(moves),)
    own = state.own(me)
    keys = [a.key(own) for a in others]
    counts: dict[str, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    n = len(others)
    pairs = (n * n - sum(c * c for c in counts.values())) // 2  # unordered pairs with distinct keys
    mixed = len(moves) * n
    pick = rng.randrange(mixed + pairs)
    if pick < mixed:
        chosen = (moves[pick // n], others[pick % n])
    else:
        while True:  # uniform over ordered pairs with distinct keys, hence over unordered ones
            i, j = rng.randrange(n), rng.randrange(n)
            if keys[i] != keys[j]:
                chosen = (others[i], others[j])
                break
    return chosen if rng.random() < 0.5 else (chosen[1], chosen[0])


def random_guess(rng: Random) -> dict[Character, Role]:
    roles = list(ROLES) + [Role.NONE] * 3
    rng.shuffle(roles)
    return dict(zip(CHARACTERS, roles, strict=True))


def random_submission_for(state: GameState, me: str, rng: Random) -> Submission:
    """The random level's submission for seat `me` in `state` (a state the seat built from its own view,
    or one a strong player imagines for another seat)."""
    actions = random_actions(state, me, rng)
    buys: tuple[tuple[Character, Character], ...] = ()
    if state.garnets.get(me, 0) >= BUY_COST and rng.random() < BUY_RATE:
        a, b = rng.sample(list(state.positions), 2)
        buys = ((a, b),)
    guess = random_guess(rng) if state.role(me) is Role.MOB_BOSS else None
    return Submission(actions, buys, guess)
