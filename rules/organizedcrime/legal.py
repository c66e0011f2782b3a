"""What a player could submit now (replay.md "Output of legal"): every accepted action, enumerated as stated,
each checked by `refuse` itself so the list and the checks never disagree."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from .actions import awaited, refuse
from .engine import Engine
from .state import alive, canon, members, men_left, number, where


def candidates(eng: Engine, player: str) -> list[dict[str, Any]]:
    st, c = eng.st, eng.c
    phase = st["phase"]
    pl = st["pl"][player]
    out: list[dict[str, Any]] = []
    others = [p for p in members(st) if p != player]
    if phase == "choose_base":
        out += [{"act": "base", "base": b} for b in eng.free_bases()]
    elif phase == "turn":
        if player != st["active"]:
            return []
        ts = st["ts"]
        most = min(men_left(c, pl), pl["money"] // c.n("man_price"))
        out += [{"act": "buy_hitmen", "count": n} for n in range(1, most + 1)]
        out += [{"act": "buy_power"}, {"act": "income"}, {"act": "roll"}, {"act": "pass"}]
        out += [{"act": "buy_official", "card": card} for card in pl["official"]]
        out += [{"act": "cash", "card": card} for card in pl["power"]]
        if ts["dice"] is None and len(ts["movers"]) < 2:
            declared = {m["piece"] for m in ts["movers"]}
            for piece in canon(st, pl["pieces"]):
                if piece in declared:
                    continue
                for d in ("right", "left"):
                    for attack in [None, *others]:
                        out.append({"act": "declare", "piece": piece, "dir": d, "attack": attack, "_ok": True})
        if ts["dice"] is not None:
            for m in ts["movers"]:
                if m["status"] == "declared":
                    out += [{"act": "move", "piece": m["piece"], "share": s} for s in eng.allowed_shares(m["piece"])]
        for o in ts["opportunities"]:
            if o["used"]:
                continue
            if o["type"] == "city":
                out.append({"act": "acquire", "piece": o["piece"]})
                out.append({"act": "meeting", "piece": o["piece"], "target": o["city"]})
            else:
                group = c.business if o["type"] == "business" else c.illegal
                out += [{"act": "meeting", "piece": o["piece"], "target": t} for t in group]
    elif phase == "path":
        if player != st["active"]:
            return []
        return path_items(eng)
    elif phase in ("bargain", "session"):
        out += [{"act": "income"}, {"act": "call_vote"}, {"act": "place"}, {"act": "adjourn"}]
        out += [{"act": "cash", "card": card} for card in pl["power"]]
        for to in others:
            out += [{"act": "give", "to": to, "money": m} for m in range(c.n("money_unit"), pl["money"] + 1,
                                                                        c.n("money_unit"))]
            out += [{"act": "give", "to": to, "card": card} for card in pl["power"] + pl["official"]]
    elif phase == "vote":
        mt = st["meeting"]
        ent = (mt["entitlements"] or {}).get(player, 0)
        out.append({"act": "vote", "side": "abstain"})
        for side in ("for", "against"):
            out += [{"act": "vote", "side": side, "votes": n} for n in range(1, ent + 1)]
    elif phase == "penalty_choice":
        mt = st["meeting"]
        hitmen = canon(st, [p for p in pl["pieces"] if number(p) > 0])
        k = mt["choose"] or 0
        out += [{"act": "remove", "pieces": list(combo)} for combo in combinations(hitmen, k)]
    elif phase == "penalty_window":
        out += [{"act": "penalty"}, {"act": "no_penalty"}]
    return out


def path_items(eng: Engine) -> list[dict[str, Any]]:
    """The legal items of the move in progress (rulings B.2), computed in one search."""
    st = eng.st
    path = st["ts"]["path"]
    n = path["usable"]
    walk, node = eng.path_walk()
    out: list[dict[str, Any]] = []
    if path["used"] < path["share"]:
        for to, _, _ in eng.c.adjacent[node.space]:
            if walk.step_valid(node, to) and walk.completable(walk.after_step(node, to), n, walk.hits):
                out.append({"act": "step", "to": to})
        for t in walk.targets(node):
            if walk.completable(walk.after_rub(node, (t,), True), n, walk.hits):
                out.append({"act": "rub", "target": t})
    for card, targets in eng.legal_hits(walk, node, n):
        out.append({"act": "hit", "card": card, "targets": list(targets)})
    if path["used"] == n:
        out.append({"act": "stop"})
    return out


def legal_actions(eng: Engine, player: str) -> list[dict[str, Any]]:
    st = eng.st
    if st["phase"] in (None, "over") or not alive(st, player):
        return []
    if st["phase"] == "path":
        found = candidates(eng, player)
    else:
        found = []
        for a in candidates(eng, player):
            if a.pop("_ok", False) or refuse(eng, player, a) is None:  # `_ok`: generated legal (declarations)
                found.append(a)
    unique = {json.dumps(a, sort_keys=True): a for a in found}
    return [unique[k] for k in sorted(unique)]


def legal_doc(eng: Engine, player: str) -> dict[str, Any]:
    st = eng.st
    destinations = None
    if st["phase"] == "path" and player == st["active"]:
        path = st["ts"]["path"]
        walk, node = eng.path_walk()
        destinations = walk.destinations(node, path["usable"])
    return {
        "format": "organizedcrime-legal/1",
        "player": player,
        "decision": st["phase"],
        "awaited": player in awaited(st),
        "actions": legal_actions(eng, player) if alive(st, player) else [],
        "destinations": destinations,
    }


def destinations_for(eng: Engine, piece: str, share: int) -> list[dict[str, Any]]:
    """The destinations of a waiting mover with a given share, as if its move had begun (commands.md `move to`)."""
    from .walk import Node

    st = eng.st
    ts = st["ts"]
    if ts is None or ts["dice"] is None or not any(m["piece"] == piece for m in ts["movers"]):
        return []
    if share not in eng.allowed_shares(piece):
        return []  # no move has that share; and the walk's search grows with the share
    m = eng.mover(piece)
    space = where(st, piece)
    if space is None:
        return []
    walk = eng.walk_for(piece, m["dir"], m["attack"], share)
    node = Node(space, None, m["dir"], False, 0, frozenset(), frozenset(), False)
    return walk.destinations(node, walk.usable(node))
