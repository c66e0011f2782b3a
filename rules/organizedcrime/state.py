"""The engine state (rulings Appendix C) as plain JSON data, and the small queries every module needs.

The state is a dict of JSON values, so encoding is the identity and a copy is a JSON copy. Keys:
`players` (seat order), `options`, `phase` (the decision, None between turns, `over`), `turn`, `round`,
`active`, `first`, `bases`, `base_order`, `choosers`, `pl` (per player), `debts`, `decks`, `ts` (turn
state), `meeting`, `sealed` (sealed ballots not yet revealed), `window`, `queue`, `meetings` (how many
were called), `elim` (elimination order), `result`, `snapped` (the turn whose snapshot was written).
"""

from __future__ import annotations

import marshal
from functools import lru_cache
from typing import Any

from .content import Content

State = dict[str, Any]
TREASURY = "treasury"


def clone(value: Any) -> Any:
    """A deep copy of JSON data (marshal round trip: C speed, order kept; much faster than copy.deepcopy)."""
    return marshal.loads(marshal.dumps(value))


def new_player(money: int) -> dict[str, Any]:
    return {
        "alive": True, "base": None, "money": money, "hitmen_bought": 0, "pieces": {}, "cities": [],
        "business": {}, "illegal": {}, "officials": {}, "power": [], "official": [], "limits": [],
        "turns_taken": 0, "eliminated": None,
    }


def new_state(players: list[str], options: dict[str, Any], money: int) -> State:
    return {
        "players": list(players), "options": dict(options), "phase": None, "turn": 0, "round": 0,
        "active": None, "first": None, "bases": {}, "base_order": None, "choosers": [],
        "pl": {p: new_player(money) for p in players}, "debts": [],
        "decks": {}, "ts": None, "meeting": None, "sealed": {}, "window": None, "queue": [], "meetings": 0,
        "elim": [], "result": None, "snapped": None, "first_given": None,
    }


def new_turn_state(income_value: int) -> dict[str, Any]:
    return {"dice": None, "income_value": income_value, "income_collected": False, "movers": [], "path": None,
            "opportunities": [], "rubouts": []}


# Cached: a step reads pieces' owners and numbers hundreds of times (sorting by them), and ids are few.
@lru_cache(maxsize=8192)
def owner(piece: str) -> str:
    return piece.rsplit(":", 1)[0]


@lru_cache(maxsize=8192)
def number(piece: str) -> int:
    digits = piece.rsplit(":", 1)[1]
    # No piece has a number of 19 digits; one read from a file may have thousands, which int() refuses to read.
    return int(digits) if len(digits) < 19 else 10**18


def seat(st: State, player: str) -> int:
    return int(st["players"].index(player))


def canon(st: State, pieces: Any) -> list[str]:
    players = st["players"]
    return sorted(pieces, key=lambda p: (players.index(owner(p)), number(p)))


def alive(st: State, player: str) -> bool:
    return bool(st["pl"][player]["alive"])


def members(st: State) -> list[str]:
    return [p for p in st["players"] if st["pl"][p]["alive"]]


def base_owner(st: State) -> dict[int, str]:
    return {st["pl"][p]["base"]: p for p in st["players"] if st["pl"][p]["alive"] and st["pl"][p]["base"] is not None}


def where(st: State, piece: str) -> str | None:
    pl = st["pl"].get(owner(piece))
    return None if pl is None else pl["pieces"].get(piece)


def by_space(st: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in st["players"]:
        pieces = st["pl"][p]["pieces"]
        for piece in sorted(pieces, key=number):
            out.setdefault(pieces[piece], []).append(piece)
    return out


def markers(pl: dict[str, Any]) -> int:
    return int(len(pl["cities"]) + sum(pl["business"].values()) + sum(pl["illegal"].values())
               + sum(pl["officials"].values()))


def men_left(c: Content, pl: dict[str, Any]) -> int:
    if not pl["alive"]:
        return 0
    return int(c.n("men") - pl["hitmen_bought"] - markers(pl))


def income_value(c: Content, pl: dict[str, Any]) -> int:
    value = sum(c.cities[x][0] for x in pl["cities"])
    value += sum(c.business[k][0] * n for k, n in pl["business"].items())
    value += sum(c.illegal[k][0] * n for k, n in pl["illegal"].items())
    return int(value)


def entitlement(c: Content, st: State, player: str) -> int:
    pl = st["pl"][player]
    if not pl["alive"]:
        return 0
    officials = sum(pl["officials"].values())
    limited = 0
    for lim in pl["limits"]:
        count = c.cards[lim["card"]].count
        limited += officials if count is None else count
    limited = min(limited, officials)
    return int(c.n("votes_boss") + pl["money"] // c.n("vote_money") + c.n("votes_per_official") * (officials - limited))


def owned(st: State, group: str, cat: str) -> int:
    return sum(st["pl"][p][group].get(cat, 0) for p in st["players"])


def city_owner(st: State, city: str) -> str | None:
    for p in st["players"]:
        if city in st["pl"][p]["cities"]:
            return str(p)
    return None


def free_circles(c: Content, st: State, group: str, cat: str) -> int:
    kind = {"business": "business", "illegal": "illegal", "officials": "office"}[group]
    return c.circles(kind, cat) - owned(st, group, cat)


def debts_of(st: State, player: str) -> list[dict[str, Any]]:
    return [d for d in st["debts"] if d["debtor"] == player]


def left_of(st: State, player: str) -> str:
    """The next member to the left (seat order, cyclic), skipping eliminated players."""
    players = st["players"]
    i = players.index(player)
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if st["pl"][p]["alive"]:
            return str(p)
    return player


def position(st: State, player: str) -> int:
    """R126: seat position counted from the first player."""
    players = st["players"]
    return int((players.index(player) - players.index(st["first"])) % len(players))
