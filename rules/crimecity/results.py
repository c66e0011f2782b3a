"""End-of-game results: completion order, ToL, EC and garnet awards (rulings R84-R96)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .state import GameState

BASE_AWARDS = (15, 10, 7, 4)
TIE_PENALTY = 2
MAX_TOL_GROUP = 3


@dataclass(frozen=True, slots=True)
class Results:
    ended_after_round: int
    completion_order: list[list[str]]
    awards: dict[str, int]
    final_garnets: dict[str, int]
    tol: list[str]
    ec: str | None
    ec_pending: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "ended_after_round": self.ended_after_round,
            "completion_order": self.completion_order,
            "awards": self.awards,
            "final_garnets": self.final_garnets,
            "tol": self.tol,
            "ec": self.ec,
            "ec_pending": self.ec_pending,
        }


def award(position: int, group_size: int) -> int:
    """R91: 15/10/7/4 by position, 2 less for a shared position, never negative.

    >>> award(1, 2), award(3, 1), award(5, 1)
    (13, 7, 0)
    """
    base = BASE_AWARDS[position - 1] if position <= len(BASE_AWARDS) else 0
    return max(0, base - TIE_PENALTY) if group_size >= 2 else base


def final_results(state: GameState, ended_after_round: int | None = None) -> Results:
    """Results from the completions so far; usable when a host ends a game early too."""
    players = sorted(state.players)
    rounds = sorted(set(state.completed.values()))
    groups = [sorted(p for p in players if state.completed.get(p) == r) for r in rounds]
    awards = dict.fromkeys(players, 0)
    earlier = 0
    for g in groups:
        for p in g:
            awards[p] = award(earlier + 1, len(g))
        earlier += len(g)
    final = {p: state.garnets.get(p, 0) + awards[p] for p in players}

    # R84: when all five completed, the last group counts as non-completers for ToL/EC.
    counted = groups[:-1] if len(state.completed) == len(players) and groups else groups
    completers = {p for g in counted for p in g}
    non = [p for p in players if p not in completers]
    first = counted[0] if counted else []
    tol = list(first) if 1 <= len(first) <= MAX_TOL_GROUP else []

    ec: str | None = None
    pending: dict[str, Any] | None = None
    if len(non) == 1:
        ec = non[0]
    elif len(non) in (2, 3):
        pending = {"deciders": list(first), "candidates": non, "unanimous": len(first) > 1}
    elif non:
        low = min(final[p] for p in non)
        tied = [p for p in non if final[p] == low]
        if len(tied) == 1:
            ec = tied[0]
        else:
            pending = {"deciders": players, "candidates": tied, "unanimous": True}
    if ended_after_round is None:  # R82: the round that brought the fourth completion, else the last round
        done = sorted(state.completed.values())
        ended_after_round = done[3] if len(done) >= 4 else state.round
    return Results(ended_after_round, groups, awards, final, tol, ec, pending)


def placement(results: dict[str, Any], seats: list[str]) -> list[str]:
    """The match's final placement, best first (what the next match's draft breaks ties by, R7, Q29).

    Completion order first: the earlier a player completed, the better; players who completed in the same
    round are ordered by their final garnet balance (more first), then by seat order. Then those who did
    not complete, by final balance, then seat order; the EC is last. `seats` is the seat order.

    >>> r = {"completion_order": [["p3"], ["p1", "p2"]], "final_garnets": {"p1": 5, "p2": 9, "p3": 1, "p4": 7, "p5": 7},
    ...      "ec": "p4"}
    >>> placement(r, ["p1", "p2", "p3", "p4", "p5"])
    ['p3', 'p2', 'p1', 'p5', 'p4']
    """
    final = results.get("final_garnets") or {}
    order = {s: i for i, s in enumerate(seats)}

    def key(seat: str) -> tuple[int, int]:
        return (-int(final.get(seat, 0)), order.get(seat, len(order)))

    out: list[str] = []
    for group in results.get("completion_order") or []:
        out += sorted(group, key=key)
    ec = results.get("ec")
    rest = sorted((s for s in seats if s not in out and s != ec), key=key)
    return out + rest + ([ec] if ec in seats and ec not in out else [])
