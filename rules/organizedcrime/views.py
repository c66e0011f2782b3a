"""What the public and each player may see (replay.md "The public state"), built as allow-lists."""

from __future__ import annotations

from typing import Any

from .content import DECKS, Content
from .state import State, entitlement, free_circles, income_value, men_left

MOVER_FIELDS = ("piece", "dir", "attack", "share", "status", "end", "outcome")
PATH_FIELDS = ("piece", "share", "used", "usable", "space", "prev", "heading", "turned")
MEETING_FIELDS = ("id", "type", "caller", "issue", "phase", "order", "entitlements", "ballots", "voted", "result",
                  "marker_pending", "card", "choose")


def player_view(c: Content, st: State, p: str) -> dict[str, Any]:
    pl = st["pl"][p]
    base = pl["base"]
    return {
        "alive": pl["alive"],
        "base": base,
        "colour": None if base is None else c.bases[base].colour,
        "money": pl["money"],
        "votes": entitlement(c, st, p),
        "men_left": men_left(c, pl),
        "hitmen_bought": pl["hitmen_bought"],
        "turns_taken": pl["turns_taken"],
        "pieces": dict(pl["pieces"]),
        "cities": sorted(pl["cities"]),
        "business": {k: v for k, v in sorted(pl["business"].items()) if v >= 1},
        "illegal": {k: v for k, v in sorted(pl["illegal"].items()) if v >= 1},
        "officials": {k: v for k, v in sorted(pl["officials"].items()) if v >= 1},
        "income": income_value(c, pl) if pl["alive"] else 0,
        "cards": {"power": len(pl["power"]), "official": len(pl["official"])},
        "limits": [{"card": x["card"], "turns_left": x["turns_left"]} for x in pl["limits"]],
        "eliminated": None if pl["eliminated"] is None else dict(pl["eliminated"]),
    }


def turn_state_view(ts: dict[str, Any] | None) -> dict[str, Any] | None:
    if ts is None:
        return None
    path = ts["path"]
    return {
        "dice": None if ts["dice"] is None else list(ts["dice"]),
        "income_value": ts["income_value"],
        "income_collected": ts["income_collected"],
        "movers": [{k: m[k] for k in MOVER_FIELDS} for m in ts["movers"]],
        "path": None if path is None else {k: path[k] for k in PATH_FIELDS},
        "opportunities": [dict(o) for o in ts["opportunities"]],
        "rubouts": [dict(r) for r in ts["rubouts"]],
    }


def meeting_view(m: dict[str, Any] | None) -> dict[str, Any] | None:
    if m is None:
        return None
    out = {k: m[k] for k in MEETING_FIELDS}
    out["issue"] = dict(m["issue"])
    out["ballots"] = [dict(b) for b in m["ballots"]]
    out["voted"] = list(m["voted"])
    out["order"] = None if m["order"] is None else list(m["order"])
    out["entitlements"] = None if m["entitlements"] is None else dict(m["entitlements"])
    out["result"] = None if m["result"] is None else dict(m["result"])
    return out


def public_state(c: Content, st: State) -> dict[str, Any]:
    free = {
        "cities": sorted(x for x in c.cities if not any(x in st["pl"][p]["cities"] for p in st["players"])),
        "business": {k: free_circles(c, st, "business", k) for k in sorted(c.business)},
        "illegal": {k: free_circles(c, st, "illegal", k) for k in sorted(c.illegal)},
        "officials": {k: free_circles(c, st, "officials", k) for k in sorted(c.offices)},
    }
    window = st["window"]
    return {
        "turn": st["turn"],
        "round": st["round"],
        "active": st["active"],
        "first": st["first"],
        "phase": st["phase"],
        "players": {p: player_view(c, st, p) for p in st["players"]},
        "debts": [dict(d) for d in st["debts"]],
        "decks": {d: {"facedown": len(st["decks"][d]["draw"]), "discard": list(st["decks"][d]["discard"])}
                  for d in DECKS},
        "free": free,
        "turn_state": turn_state_view(st["ts"]),
        "meeting": meeting_view(st["meeting"]),
        "window": None if window is None else {"offender": window["offender"],
                                               "offended": [dict(o) for o in window["offended"]]},
        "queue": list(st["queue"]),
    }


def hands(st: State) -> dict[str, Any]:
    return {p: {"power": sorted(st["pl"][p]["power"]), "official": sorted(st["pl"][p]["official"])}
            for p in st["players"]}


def seat_view(c: Content, st: State, seat: str) -> dict[str, Any]:
    """The public state plus what only `seat` knows: his hand and his own sealed ballot."""
    view = public_state(c, st)
    if seat in st["pl"]:
        view["hand"] = hands(st)[seat]
        ballot = st["sealed"].get(seat)
        view["my_ballot"] = None if ballot is None else dict(ballot)
    return view
