"""Random legal play for tests, simulation and the `random` level: a legal action drawn by act, with weights
that keep games moving (take income, land, roll, pass) rather than uniformly over huge enumerations."""

from __future__ import annotations

from random import Random
from typing import Any

from .actions import awaited
from .engine import Engine
from .legal import legal_actions

WEIGHTS = {
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
        acts = [a for a in legal_actions(eng, seat) if a["act"] in ("give", "cash")]
        return _pick(rng, acts, {"give": 1, "cash": 3}) if acts else None
    acts = legal_actions(eng, seat)
    if not acts:
        return None
    return _pick(rng, acts, WEIGHTS.get(phase, {}))


def _pick(rng: Random, acts: list[dict[str, Any]], weights: dict[str, float]) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        groups.setdefault(a["act"], []).append(a)
    names = sorted(groups)
    chosen = rng.choices(names, [weights.get(n, 1.0) for n in names])[0]
    group = groups[chosen]
    if chosen == "buy_hitmen":
        return group[min(len(group) - 1, int(rng.expovariate(0.7)))] if group else group[0]
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
