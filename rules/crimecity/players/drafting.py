"""The strong level's draft (R6-R12) and its EC choice (R88, R89).

Roles are ranked by how often the strong level completes each first (measured with the tournament,
docs/computer-players.md); characters by how well they serve the role ranked first (their start and
their ability), the rest in the rule book's order. The bid buys priority: a share of the balance,
less when the previous match's placement already wins the ties.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...contract import JSON, Event, Move
from ..ids import CHARACTERS, Character, Role

C = Character
ROLE_ORDER: tuple[Role, ...] = (Role.PICKPOCKET, Role.BANK_ROBBER, Role.HITMAN, Role.FRAUD, Role.MOB_BOSS)
CHARACTER_ORDER: Mapping[Role, tuple[Character, ...]] = {
    Role.PICKPOCKET: (C.GOVERNORS_DAUGHTER, C.POLICEMAN, C.SECRETARY, C.STORE_CLERK, C.ARMED_GUARD, C.BANKER),
    Role.BANK_ROBBER: (C.STORE_CLERK, C.DETECTIVE, C.GOVERNORS_DAUGHTER, C.GOVERNOR, C.SECRETARY),
    Role.HITMAN: (C.STORE_CLERK, C.ARMED_GUARD, C.SECRETARY, C.POLICEMAN, C.BANKER, C.DETECTIVE),
    Role.FRAUD: (C.POLICEMAN, C.STORE_CLERK, C.BANKER, C.GOVERNOR, C.DETECTIVE),
    Role.MOB_BOSS: (C.SECRETARY, C.POLICEMAN, C.STORE_CLERK, C.BANKER),
}
BID_SHARE = 0.3


def draft_move(view: Mapping[str, JSON]) -> Move:
    top = ROLE_ORDER[0]
    preferred = CHARACTER_ORDER[top]
    chars = list(preferred) + [c for c in CHARACTERS if c not in preferred]
    balance = int(view.get("garnets") or 0)
    placements = list(view.get("placements") or ())
    me = view.get("player")
    first = bool(placements) and placements[0] == me
    bid = 0 if first else int(balance * BID_SHARE)
    return {"kind": "draft", "bid": bid, "roles": [r.value for r in ROLE_ORDER], "characters": [c.value for c in chars]}


def ec_move(seen: Sequence[Event], candidates: Sequence[str]) -> Move | None:
    """The candidate with the fewest final garnets (the rules' own test for 4-5, R89), then by name: a
    choice every strong decider makes alike, so a unanimous decision comes at once."""
    if not candidates:
        return None
    final: Mapping[str, JSON] = {}
    for event in reversed(seen):
        if event.kind == "results" and event.is_public:
            final = (event.data.get("results") or {}).get("final_garnets") or {}
            break
    pick = min(candidates, key=lambda p: (int(final.get(p, 0)), p))
    return {"kind": "ec", "player": pick}
