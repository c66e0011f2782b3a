"""The `strong` level: plays toward its goal and reasons about the seats it cannot see.

Each round it reads its knowledge (view and received events only), draws worlds consistent with it
(belief.py), and picks the legal actions whose resolution by the rules engine brings its goal closest
across those worlds (search.py, heuristics.py); the action slot that moves nobody builds friendships
toward useful abilities or gathers information (social.py). The Mob Boss guesses the first untried
assignment that fits what it knows (mob_boss.py). The draft and the EC choice are in drafting.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from ...contract import JSON, Event, Move, Pending
from ..actions import Submission
from ..ids import Character, Role
from ..state import GameState
from ..validate import BUY_COST
from . import drafting
from .heuristics import score
from .knowledge import Knowledge, ec_choice, read
from .mob_boss import next_guess
from .random_player import random_submission_for, round_move
from .search import best_actions, worlds
from .social import plan_buys, side_value
from .viewstate import own_state

SAMPLES = 48


class StrongPlayer:
    level = "strong"

    def __init__(self, samples: int = SAMPLES) -> None:
        self.samples = samples

    def decide(self, view: dict[str, JSON], pending: Pending, seen: Sequence[Event], rng: Random) -> Move | None:
        me = view.get("player")
        if not isinstance(me, str) or me not in pending.awaited:
            return None
        if pending.decision == "draft":
            return drafting.draft_move(view)
        if pending.decision == "round":
            return round_move(self.submission(read(view, seen), rng))
        if pending.decision == "ec":
            choice = ec_choice(seen, me)
            return None if choice is None else drafting.ec_move(seen, choice[0])
        return None

    def submission(self, k: Knowledge, rng: Random) -> Submission:
        state = own_state(k)
        guess = next_guess(k) if k.role is Role.MOB_BOSS and k.completed is None else None
        alive = k.own in k.positions
        if k.completed is not None or (not alive and k.role is not Role.MOB_BOSS):
            # Nothing left to gain on the board: any legal submission will do, and it costs no garnets.
            sub = random_submission_for(state, k.me, rng)
            return Submission(sub.actions, (), guess)
        extras = Submission((), (), guess)
        judge = mob_judge if k.role is Role.MOB_BOSS else score
        actions, _ = best_actions(
            state, k.me, worlds(k, rng, self.samples), lambda a: side_value(k, a), extras, rng, judge
        )
        return Submission(actions, plan_buys(k, actions, BUY_COST), guess)


def mob_judge(state: GameState, player: str) -> float:
    """The Mob Boss's board: being beside the Detective lets it converse toward his ability."""
    own = state.own(player)
    pos = state.positions
    if own not in pos or Character.DETECTIVE not in pos:
        return 0.0
    return 0.05 if pos[own] is pos[Character.DETECTIVE] else 0.0
