"""Shared builders for rules tests: CAST-EX and compact action notation."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from rules.crimecity import Action, GameState
from rules.crimecity.notation import parse_action
from rules.crimecity.replay import load_state

GOLDEN = Path(__file__).resolve().parent.parent / "rules" / "crimecity" / "golden"
CAST_EX = {
    "andy": {"character": "detective", "role": "pickpocket"},
    "grunkle": {"character": "banker", "role": "mob_boss"},
    "cara": {"character": "secretary", "role": "hitman"},
    "dev": {"character": "governor", "role": "bank_robber"},
    "eve": {"character": "armed_guard", "role": "fraud"},
}
PLAYERS = ["andy", "grunkle", "cara", "dev", "eve"]


def doc(rounds: list | None = None, start: dict | None = None, seats: dict | None = None, **extra: Any) -> dict:
    d: dict[str, Any] = {
        "format": "crimecity-replay/1",
        "players": list(PLAYERS),
        "garnets": dict.fromkeys(PLAYERS, 20),
        "seats": copy.deepcopy(seats or CAST_EX),
        "rounds": rounds or [],
    }
    if start is not None:
        d["start"] = start
    d.update(extra)
    return d


def golden(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text())


def act(text: str) -> Action:
    return parse_action(text, lambda s: s if s in PLAYERS else None)


def state_of(d: dict) -> GameState:
    return load_state(d)


def board(text: str) -> dict[str, list[str]]:
    """'TH{POL,SEC} MN{} ...' (rulings notation) as a replay board."""
    codes = {
        "POL": "policeman",
        "SEC": "secretary",
        "BAN": "banker",
        "ARM": "armed_guard",
        "CLK": "store_clerk",
        "DET": "detective",
        "GOV": "governor",
        "DAU": "governors_daughter",
    }
    locs = {"TH": "town_hall", "MN": "mansion", "MS": "main_street", "BK": "bank"}
    out = {}
    for part in text.split():
        loc, _, rest = part.partition("{")
        names = [n for n in rest.rstrip("}").split(",") if n]
        out[locs[loc]] = sorted(codes[n] for n in names)
    return out


def positions(text: str) -> dict[str, str]:
    return {c: loc for loc, cs in board(text).items() for c in cs}
