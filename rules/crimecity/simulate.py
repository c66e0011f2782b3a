"""Random legal games for hosts who tune the game (`python -m rules simulate`).

Randomness comes only from the `Random` instance passed in (seeded by the caller), so the same
seed gives the same figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from .actions import HORIZONTAL, MOVE, MOVE_KEY, VERTICAL, Action, Pair, Submission
from .draft import DraftSubmission, resolve_draft
from .ids import CHARACTERS, ROLES, Role
from .legal import _non_moves
from .resolve import resolve_round
from .results import final_results
from .state import GameState, new_game
from .validate import BUY_COST

PLAYERS = ("p1", "p2", "p3", "p4", "p5")


def _random_move(state: GameState, player: str, rng: Random) -> Action:
    """Uniform over the legal moves (any living character off cooldown, either direction)."""
    cds = state.cooldowns.get(player, ())
    chars = [c for c in state.positions if MOVE_KEY[c] not in cds]
    return Action(MOVE, direction=HORIZONTAL if rng.random() < 0.5 else VERTICAL, character=rng.choice(chars))


def random_submission(state: GameState, player: str, rng: Random, buy_rate: float = 0.1) -> Submission:
    """A uniformly shaped random legal submission (R39): {M, N}, {N1, N2} or the lone {M}."""
    others = _non_moves(state, player)
    own = state.own(player)
    actions: tuple[Action, ...]
    if not others:
        actions = (_random_move(state, player, rng),)
    else:
        first = rng.choice(others)
        key = first.key(own)
        pool = [a for a in others if a.key(own) != key]
        second = rng.choice(pool) if pool and rng.random() >= 0.5 else _random_move(state, player, rng)
        actions = (first, second)
    buys: tuple[Pair, ...] = ()
    if state.garnets.get(player, 0) >= BUY_COST and rng.random() < buy_rate:
        a, b = rng.sample(list(state.positions), 2)
        buys = ((a, b),)
    guess = None
    if state.role(player) is Role.MOB_BOSS:
        roles = list(ROLES) + [Role.NONE] * 3
        rng.shuffle(roles)
        guess = dict(zip(CHARACTERS, roles, strict=True))
    return Submission(actions, buys, guess)


def random_game(rng: Random, rounds_total: int = 6, garnets: int = 10) -> GameState:
    """Draft with random bids and rankings, then random legal rounds until the game ends."""
    bank = dict.fromkeys(PLAYERS, garnets)
    subs = {}
    for p in PLAYERS:
        roles, chars = list(ROLES), list(CHARACTERS)
        rng.shuffle(roles)
        rng.shuffle(chars)
        subs[p] = DraftSubmission(rng.randint(0, garnets // 2), tuple(roles), tuple(chars))
    placements = list(PLAYERS)
    rng.shuffle(placements)
    draft = resolve_draft(PLAYERS, subs, placements, bank)
    state = new_game(PLAYERS, draft.seats, draft.garnets, rounds_total)
    while not state.over:
        subs_r = {p: random_submission(state, p, rng) for p in PLAYERS}
        state = resolve_round(state, subs_r, trusted=True).state
    return state


@dataclass
class Figures:
    games: int = 0
    role_completed: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    tol_count: Counter[int] = field(default_factory=Counter)
    ec: Counter[str] = field(default_factory=Counter)
    governor_killed: int = 0

    def add(self, state: GameState) -> None:
        self.games += 1
        for p in state.completed:
            self.role_completed[state.role(p).value] += 1
        self.rounds[state.round] += 1
        res = final_results(state)
        self.tol_count[len(res.tol)] += 1
        if res.ec is not None:
            self.ec["decided by the rules"] += 1
        else:
            pending = res.ec_pending
            assert pending is not None, "no EC yet: the decision is pending"
            kind = "left to the first finishers" if len(pending["candidates"]) and not (
                pending["unanimous"] and len(pending["deciders"]) == len(state.players)
            ) else "a unanimous vote of all players (garnet tie)"
            self.ec[kind] += 1
        self.governor_killed += not state.governor_alive

    def report(self) -> str:
        n = max(self.games, 1)
        lines = [f"Simulated {self.games} games of random legal play.", "", "Goal completed (share of games):"]
        for r in ROLES:
            lines.append(f"  {r.title:<16} {100 * self.role_completed[r.value] / n:6.2f}%")
        lines += ["", "Game length:"]
        for k in sorted(self.rounds):
            lines.append(f"  ended after round {k}: {100 * self.rounds[k] / n:6.2f}%")
        lines += ["", "ToLs given:"]
        for k in sorted(self.tol_count):
            lines.append(f"  {k} ToL(s): {100 * self.tol_count[k] / n:6.2f}%")
        lines += ["", "EC:"]
        for kind in sorted(self.ec):
            lines.append(f"  {kind}: {100 * self.ec[kind] / n:6.2f}%")
        lines.append(f"\nGovernor killed by the Hitman: {100 * self.governor_killed / n:.2f}%")
        return "\n".join(lines)


def simulate(games: int, seed: int, tick: Callable[[], None] | None = None) -> Figures:
    rng = Random(seed)
    figs = Figures()
    for _ in range(games):
        figs.add(random_game(rng))
        if tick is not None:
            tick()
    return figs
