"""`simulate(games, seed)`: random legal play (rules/organizedcrime/policy.py) with what a host tuning the game
wants to know: game length, outcomes by reason, paths to victory, eliminations by cause, seat advantage,
meetings called and carried, debts.

Games run on the engine in place (no copies) with the host's `SeededChance`; a house round cap (default 30)
ends games that random play would drag on; a small share of decisions time out, as absent players do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ..contract import SeededChance
from .actions import awaited, optional, perform, timeout
from .content import Content
from .engine import Engine, GameOver
from .policy import random_action
from .state import State, new_state

ROUND_CAP = 30
TIMEOUT_RATE = 0.01


@dataclass
class Report:
    board: str = "oc-h1"  # the content board's id
    games: int = 0
    by_players: Counter[int] = field(default_factory=Counter)
    turns: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    paths: Counter[str] = field(default_factory=Counter)
    eliminations: Counter[str] = field(default_factory=Counter)
    seat_wins: dict[int, Counter[int]] = field(default_factory=dict)
    meetings: Counter[str] = field(default_factory=Counter)
    carried: Counter[str] = field(default_factory=Counter)
    debts_incurred: Counter[str] = field(default_factory=Counter)
    games_with_debt: int = 0
    steps: int = 0

    def add(self, st: State, events: list[dict[str, Any]], steps: int) -> None:
        self.games += 1
        self.steps += steps
        n = len(st["players"])
        self.by_players[n] += 1
        self.turns.append(st["turn"])
        self.rounds.append(st["round"])
        result = st["result"] or {}
        reason = result.get("reason", "unfinished")
        self.reasons[reason] += 1
        last_cause = None
        debt = False
        for e in events:
            kind = e["kind"]
            if kind == "eliminated":
                self.eliminations[e["cause"]] += 1
                last_cause = e["cause"]
            elif kind == "meeting_called":
                self.meetings[e["type"] if e["type"] == "penalty" else f"{e['type']}:{e['issue']['type']}"] += 1
            elif kind == "vote_result" and e["carried"]:
                self.carried[self._meeting_kind(events, e["meeting"])] += 1
            elif kind == "debt":
                self.debts_incurred[e["reason"]] += e["amount"]
                debt = True
        self.games_with_debt += debt
        self.paths[f"{reason} ({last_cause})" if reason == "last_survivor" else reason] += 1
        wins = self.seat_wins.setdefault(n, Counter())
        for w in result.get("winners", []):
            wins[st["players"].index(w)] += 1

    @staticmethod
    def _meeting_kind(events: list[dict[str, Any]], meeting: int) -> str:
        for e in events:
            if e["kind"] == "meeting_called" and e["meeting"] == meeting:
                return str(e["type"] if e["type"] == "penalty" else f"{e['type']}:{e['issue']['type']}")
        return "?"

    def report(self) -> str:
        g = max(self.games, 1)
        lines = [f"Organized Crime: {self.games} random games (board {self.board}, house round cap {ROUND_CAP}, "
                 f"{TIMEOUT_RATE:.0%} of decisions time out)"]
        lines.append("players: " + ", ".join(f"{k}: {v}" for k, v in sorted(self.by_players.items())))
        lines.append(f"length: turns mean {_mean(self.turns):.1f}, median {_median(self.turns)}, max "
                     f"{max(self.turns, default=0)}; rounds mean {_mean(self.rounds):.1f}, median "
                     f"{_median(self.rounds)}; {self.steps / g:.0f} actions a game")
        lines.append("outcomes: " + ", ".join(f"{k} {v} ({v / g:.0%})" for k, v in self.reasons.most_common()))
        lines.append("paths to victory (the last elimination's cause): "
                     + ", ".join(f"{k} {v} ({v / g:.0%})" for k, v in self.paths.most_common()))
        total = sum(self.eliminations.values())
        lines.append(f"eliminations: {total} ({total / g:.2f} a game): "
                     + ", ".join(f"{k} {v}" for k, v in self.eliminations.most_common()))
        for n in sorted(self.seat_wins):
            wins = self.seat_wins[n]
            games = self.by_players[n]
            shares = ", ".join(f"seat {s + 1} {wins[s] / max(games, 1):.0%}" for s in range(n))
            lines.append(f"seat advantage, {n} players (wins per game; joint winners count for each): {shares}")
        calls = sum(self.meetings.values())
        lines.append(f"meetings: {calls} called ({calls / g:.1f} a game), "
                     f"{sum(self.carried.values())} carried: "
                     + ", ".join(f"{k} {self.carried[k]}/{v}" for k, v in self.meetings.most_common()))
        lines.append(f"debts: in {self.games_with_debt} games ({self.games_with_debt / g:.0%}); incurred "
                     + ", ".join(f"{k} ${v:,}" for k, v in self.debts_incurred.most_common()))
        return "\n".join(lines) + "\n"


def _mean(xs: list[int]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _median(xs: list[int]) -> int:
    return sorted(xs)[len(xs) // 2] if xs else 0


def play_one(c: Content, players: int, rng: Random, chance_seed: str, round_cap: int = ROUND_CAP,
             max_steps: int = 20000) -> tuple[State, list[dict[str, Any]], int]:
    """One random game on the engine in place: the final state, every event, the number of actions."""
    seats = [f"p{i}" for i in range(1, players + 1)]
    st = new_state(seats, {"ballots": "open", "round_cap": round_cap, "auto_income": False}, c.n("start_money"))
    chance = SeededChance(chance_seed)
    eng = Engine(c, st, chance)
    try:
        eng.shuffle_all()
        eng.begin_setup(None, None)
    except GameOver:
        pass
    steps = 0
    while st["phase"] not in (None, "over") and steps < max_steps:
        steps += 1
        try:
            if rng.random() < TIMEOUT_RATE:
                timeout(eng)
                continue
            seats_now = awaited(st) + optional(st)
            rng.shuffle(seats_now)
            for seat in seats_now:
                move = random_action(eng, seat, rng)
                if move is not None:
                    perform(eng, seat, move)
                    break
            else:
                timeout(eng)
        except GameOver:
            break
    return st, eng.events, steps


def simulate(c: Content, games: int, seed: int, tick: Callable[[], None] | None = None) -> Report:
    report = Report(board=c.board_id)
    low, high = c.n("players_min"), min(c.n("players_max"), len(c.bases))  # a seat needs a Home Base
    for g in range(games):
        rng = Random(f"oc-sim:{seed}:{g}")
        players = low + g % (high - low + 1) if high >= low else low
        st, events, steps = play_one(c, players, rng, f"oc-sim-chance:{seed}:{g}")
        report.add(st, events, steps)
        if tick is not None:
            tick()
    return report
