"""Determinized one-round search: which actions bring the seat's goal closest, whatever the others do.

A *world* is one guess at the hidden part of the game: a seating of the other players drawn from the
belief (rules/crimecity/players/belief.py) and, for each of them, a submission of the random level in
that seating. Every candidate submission is resolved by the rules engine (`resolve_round`) in every
world, the same worlds for all candidates, and scored by rules/crimecity/players/heuristics.py.

To stay fast the search goes in two stages: each movement action and each ability that moves or holds a
character is scored alone, then the best few of each are scored in pairs. Actions that move nobody
(conversations, information) are chosen by `side_value` and add no board effect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from ..actions import ABILITY, CONVERSE, FRIEND, Action, Submission
from ..ids import Character
from ..legal import legal_actions
from ..resolve import resolve_round
from ..state import GameState
from .belief import consistent, seat_others
from .heuristics import score
from .knowledge import Knowledge
from .random_player import random_submission_for
from .viewstate import state_for

C = Character
BOARD_OWNERS = frozenset({C.POLICEMAN, C.ARMED_GUARD, C.BANKER, C.GOVERNOR, C.GOVERNORS_DAUGHTER})
TOP = 5


@dataclass(frozen=True, slots=True)
class World:
    state: GameState
    others: dict[str, Submission | None]


def owner(a: Action, own: Character) -> Character | None:
    if a.kind == ABILITY:
        return own
    if a.kind == FRIEND:
        return a.friend
    return None


def moves_the_board(a: Action, own: Character) -> bool:
    return a.is_move or owner(a, own) in BOARD_OWNERS


def worlds(k: Knowledge, rng: Random, count: int) -> list[World]:
    pool = consistent(k)
    out = []
    for _ in range(count):
        seats = seat_others(k, pool[rng.randrange(len(pool))], rng)
        state = state_for(k, seats)
        others: dict[str, Submission | None] = {
            p: random_submission_for(state, p, rng) for p in k.players if p != k.me
        }
        out.append(World(state, others))
    return out


def value(
    worlds_: Sequence[World], me: str, actions: tuple[Action, ...], extras: Submission,
    judge: Callable[[GameState, str], float] = score,
) -> float:
    """Mean score of `actions` (plus `extras`' purchases and guess) over the worlds."""
    sub = Submission(actions, extras.buys, extras.guess)
    total = 0.0
    for w in worlds_:
        subs = dict(w.others)
        subs[me] = sub
        total += judge(resolve_round(w.state, subs, trusted=True, publish=False).state, me)
    return total / max(len(worlds_), 1)


def best_actions(
    state: GameState,
    me: str,
    worlds_: Sequence[World],
    side: Callable[[Action], float],
    extras: Submission,
    rng: Random,
    judge: Callable[[GameState, str], float] = score,
) -> tuple[tuple[Action, ...], float]:
    """The legal set of actions (R39) with the best board value plus side value, and that value."""
    own = state.own(me)
    legal = legal_actions(state, me)
    moves = [a for a in legal if a.is_move]
    holds = [a for a in legal if not a.is_move and moves_the_board(a, own)]
    quiet = sorted(
        (a for a in legal if not a.is_move and not moves_the_board(a, own)),
        key=lambda a: -side(a),
    )
    jitter = {id(a): rng.random() * 1e-6 for a in legal}

    def noise(actions: tuple[Action, ...]) -> float:
        return sum(jitter[id(a)] for a in actions)

    memo: dict[tuple[Action, ...], float] = {}

    def board(actions: tuple[Action, ...]) -> float:
        if actions not in memo:
            memo[actions] = value(worlds_, me, actions, extras, judge)
        return memo[actions]

    if not holds and not quiet:  # the lone movement action (R39)
        alone: list[tuple[float, tuple[Action, ...]]] = [(board((m,)) + noise((m,)), (m,)) for m in moves]
        scored = alone
        top = max(scored, key=lambda x: x[0])
        return top[1], top[0]

    single = {a: board((a,)) for a in moves + holds}
    nothing = board(())
    best_moves = sorted(moves, key=lambda a: -(single[a] + jitter[id(a)]))[:TOP]
    best_holds = sorted(holds, key=lambda a: -(single[a] + side(a) + jitter[id(a)]))[:TOP]
    first_quiet = quiet[0] if quiet else None
    second_quiet = next((a for a in quiet[1:] if a.key(own) != quiet[0].key(own)), None)

    options: list[tuple[float, tuple[Action, ...]]] = []
    if first_quiet is not None:
        q = side(first_quiet)
        options += [(single[m] + q, (m, first_quiet)) for m in moves]
        options += [(single[h] + side(h) + q, (h, first_quiet)) for h in holds if h.key(own) != first_quiet.key(own)]
        if second_quiet is not None:
            options.append((nothing + q + side(second_quiet), (first_quiet, second_quiet)))
    for m in best_moves:
        for h in best_holds:
            options.append((board((m, h)) + side(h), (m, h)))
    for i, a in enumerate(best_holds):
        for b in best_holds[i + 1 :]:
            if a.key(own) != b.key(own):
                options.append((board((a, b)) + side(a) + side(b), (a, b)))
    if not options:  # only board-moving abilities and no quiet partner: a move must pair with one
        options = [(board((m, h)) + side(h), (m, h)) for m in moves for h in holds]
    scored = [(v + noise(acts), acts) for v, acts in options]
    top = max(scored, key=lambda x: x[0])
    return top[1], top[0]


def side_effect_pairs(a: Action, own: Character) -> list[tuple[Character, Character]]:
    """The friendship pairs an action raises by one (R51)."""
    if a.kind == CONVERSE and a.character is not None:
        return [(own, a.character)]
    if owner(a, own) is C.STORE_CLERK and a.target is not None:
        return [(own, a.target)]
    return []


def info_owner(a: Action, own: Character) -> Character | None:
    o = owner(a, own)
    return o if o in (C.DETECTIVE, C.SECRETARY) else None

