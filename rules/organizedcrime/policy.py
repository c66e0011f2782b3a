"""Random legal play for tests, simulation and the `random` level: a legal action drawn by act, with weights
that keep games moving (take income, land, roll, pass) rather than uniformly over huge enumerations."""

from __future__ import annotations

from random import Random
from typing import Any

from .actions import awaited, refuse
from .engine import Engine
from .legal import candidates

WEIGHTS: dict[str, dict[str, float]] = {
    "turn": {"income": 10, "acquire": 8, "meeting": 3, "buy_hitmen": 2, "buy_power": 0.3, "buy_official": 3,
             "cash": 3, "declare": 6, "roll": 6, "move": 10, "pass": 3},
    "path": {"step": 3, "rub": 4, "hit": 3, "stop": 3},
    "bargain": {"call_vote": 6, "income": 6, "cash": 2, "give": 0.3},
    "session": {"adjourn": 5, "place": 8, "income": 6, "cash": 2, "give": 0.3},
}


def random_action(eng: Engine, seat: str, rng: Random) -> dict[str, Any] | None:
    st = eng.st
    phase = st["phase"]
    if seat not in awaited(st):
        if phase not in ("bargain", "session") or rng.random() > 0.08:
            return None
        return _pick(eng, seat, rng, candidates(eng, seat), {"give": 1, "cash": 3, "income": 0, "place": 0,
                                                             "adjourn": 0, "call_vote": 0})
    return _pick(eng, seat, rng, candidates(eng, seat), WEIGHTS.get(phase, {}))


def _pick(eng: Engine, seat: str, rng: Random, acts: list[dict[str, Any]],
          weights: dict[str, float]) -> dict[str, Any] | None:
    """A weighted act first, then one of its legal instances; acts with none are dropped and drawn again."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        groups.setdefault(a["act"], []).append(a)
    names = [n for n in sorted(groups) if weights.get(n, 1.0) > 0]
    checked = eng.st["phase"] != "path"  # path items are legal already
    while names:
        chosen = rng.choices(names, [weights.get(n, 1.0) for n in names])[0]
        group = groups[chosen]
        if checked:
            group = [a for a in group if a.pop("_ok", False) or refuse(eng, seat, a) is None]
        if group:
            return _instance(rng, chosen, group)
        names.remove(chosen)
    return None


def _instance(rng: Random, chosen: str, group: list[dict[str, Any]]) -> dict[str, Any]:
    if chosen == "buy_hitmen":
        return group[min(len(group) - 1, int(rng.expovariate(0.7)))]
    if chosen == "give":
        small = [a for a in group if "card" in a or a["money"] <= 50000]
        return rng.choice(small or group)
    if chosen == "declare":
        plain = [a for a in group if a["attack"] is None]
        if plain and rng.random() < 0.75:
            return rng.choice(plain)
    if chosen == "vote":
        side = rng.choice(sorted({a["side"] for a in group}))
        return rng.choice([a for a in group if a["side"] == side])
    return rng.choice(group)
