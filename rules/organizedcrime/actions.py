"""Actions in replay notation: reading them (format errors vs `malformed`), checking them in replay.md's order,
applying them, and the timeout defaults of R122.

An action here is the replay action without `by` (the contract's move); `by` is passed beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..contract import FormatError
from .content import Content
from .engine import Engine
from .state import (
    TREASURY,
    State,
    alive,
    canon,
    city_owner,
    entitlement,
    free_circles,
    men_left,
    number,
    owner,
    where,
)

PIECE = re.compile(r"^(.+):(0|[1-9][0-9]*)$")
PLAYER_ID = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")

SPEC: dict[str, dict[str, str]] = {
    "base": {"base": "int"},
    "buy_hitmen": {"count": "int"},
    "buy_power": {},
    "buy_official": {"card": "card"},
    "income": {},
    "cash": {"card": "card"},
    "declare": {"piece": "piece", "dir": "str", "attack": "player?"},
    "roll": {},
    "move": {"piece": "piece", "share": "int"},
    "step": {"to": "space"},
    "rub": {"target": "piece"},
    "hit": {"card": "card", "targets": "pieces"},
    "stop": {},
    "acquire": {"piece": "piece"},
    "meeting": {"piece": "piece", "target": "target"},
    "pass": {},
    "give": {"to": "player", "money": "int", "card": "card"},
    "call_vote": {},
    "vote": {"side": "str", "votes": "int"},
    "place": {},
    "adjourn": {},
    "remove": {"pieces": "pieces"},
    "penalty": {},
    "no_penalty": {},
}
OPTIONAL = {"declare": {"attack"}, "give": {"money", "card"}, "vote": {"votes"}}

PHASE_ACTS = {
    "choose_base": {"base"},
    "turn": {"buy_hitmen", "buy_power", "buy_official", "income", "cash", "declare", "roll", "move", "acquire",
             "meeting", "pass"},
    "path": {"step", "rub", "hit", "stop"},
    "bargain": {"income", "cash", "give", "call_vote"},
    "vote": {"vote"},
    "session": {"income", "cash", "give", "place", "adjourn"},
    "penalty_choice": {"remove"},
    "penalty_window": {"penalty", "no_penalty"},
}


class Malformed(Exception):
    """The fields do not fit the act (a refusal, not a format error)."""


def read(raw: Any, players: list[str], c: Content, where_: str) -> tuple[dict[str, Any], str | None]:
    """The action (without `by`) and a `malformed` message or None; FormatError for what is not the notation."""
    if not isinstance(raw, Mapping):
        raise FormatError(f"{where_}: an action must be an object, not {type(raw).__name__}")
    act = raw.get("act")
    if not isinstance(act, str):
        raise FormatError(f"{where_}.act: missing or not a string")
    if act == "timeout":
        extra = sorted(k for k in raw if k != "act")
        if extra:
            raise FormatError(f"{where_}.{extra[0]}: a timeout has no other field")
        return {"act": "timeout"}, None
    if act not in SPEC:
        raise FormatError(f"{where_}.act: unknown act {act!r}")
    spec = SPEC[act]
    for key, kind in spec.items():
        if key in raw:
            _typed(raw[key], kind, players, c, f"{where_}.{key}")
    action = {k: v for k, v in raw.items() if k != "by"}
    return action, _malformed(action, c)


def _typed(value: Any, kind: str, players: list[str], c: Content, at: str) -> None:
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormatError(f"{at}: must be an integer, not {value!r}")
        return
    if kind == "player?" and value is None:
        return
    if kind == "pieces":
        if not isinstance(value, list):
            raise FormatError(f"{at}: must be a list of pieces, not {value!r}")
        for i, item in enumerate(value):
            _typed(item, "piece", players, c, f"{at}[{i}]")
        return
    if not isinstance(value, str):
        raise FormatError(f"{at}: must be a string, not {value!r}")
    if kind in ("player", "player?") and value not in players:
        raise FormatError(f"{at}: unknown player {value!r}")
    if kind == "piece":
        m = PIECE.fullmatch(value)
        if m is None or m.group(1) not in players:
            raise FormatError(f"{at}: not a piece PLAYER:N of a known player: {value!r}")
    if kind == "space" and value not in c.kinds:
        raise FormatError(f"{at}: unknown space {value!r}")
    if kind == "card" and value not in c.cards:
        raise FormatError(f"{at}: unknown card {value!r}")
    if kind == "target" and not (value in c.cities or value in c.business or value in c.illegal
                                 or value in c.offices):
        raise FormatError(f"{at}: unknown city, category or office {value!r}")


def _malformed(a: dict[str, Any], c: Content) -> str | None:
    act = a["act"]
    spec = SPEC[act]
    optional = OPTIONAL.get(act, set())
    extra = sorted(k for k in a if k != "act" and k not in spec)
    if extra:
        return f"{act} has no field {extra[0]!r}"
    missing = [k for k in spec if k not in a and k not in optional]
    if missing:
        return f"{act} needs the field {missing[0]!r}"
    if act == "base" and a["base"] not in c.bases:
        return f"{a['base']} is not a Home Base"
    if act == "buy_hitmen" and a["count"] < 1:
        return "buy at least one Hit-Man"
    if act == "declare" and a["dir"] not in ("right", "left"):
        return "dir is right or left"
    if act == "hit" and (not a["targets"] or len(set(a["targets"])) != len(a["targets"])):
        return "targets is a non-empty set of pieces"
    if act == "remove" and len(set(a["pieces"])) != len(a["pieces"]):
        return "pieces is a set (no repeats)"
    if act == "give":
        if ("money" in a) == ("card" in a):
            return "give exactly one of money or card"
        if "money" in a and (a["money"] <= 0 or a["money"] % c.n("money_unit")):
            return f"money is a positive multiple of {c.n('money_unit')}"
    if act == "vote":
        if a["side"] not in ("for", "against", "abstain"):
            return "side is for, against or abstain"
        if a["side"] == "abstain" and "votes" in a:
            return "an abstention casts no votes"
        if a["side"] != "abstain" and "votes" not in a:
            return "a ballot for or against needs votes"
        if "votes" in a and a["votes"] < 1:
            return "cast at least one vote"
    return None


# ---- checks (replay.md "Refusal codes", in order) ---------------------------------------------------------


Refusal = tuple[str, str]


def refuse(eng: Engine, by: str, a: dict[str, Any]) -> Refusal | None:
    st, c = eng.st, eng.c
    act = a["act"]
    if not alive(st, by):
        return "not_in_game", f"{by} has been eliminated (R109)."
    phase = st["phase"]
    mt = st["meeting"]
    if act not in PHASE_ACTS.get(phase, set()):
        return "wrong_phase", f"{act} is not allowed now (the game waits for {phase})."
    if act == "income" and mt is not None and mt["type"] == "penalty":
        return "wrong_phase", "Income is not collected during a penalty meeting (R31)."
    owner_ = _owner_of(st, act, by)
    if owner_ is not None:
        return "not_yours", owner_
    return _own(eng, c, st, by, a)


def _owner_of(st: State, act: str, by: str) -> str | None:
    phase = st["phase"]
    mt = st["meeting"]
    if phase in ("turn", "path") or act == "income":
        return None if by == st["active"] else f"Only {st['active']} may do that on this turn."
    if act == "base":
        return None if by == st["choosers"][0] else f"{st['choosers'][0]} chooses a Home Base now."
    if act in ("call_vote", "adjourn"):
        return None if by == mt["caller"] else f"Only the caller {mt['caller']} may do that."
    if act == "place":
        return None if by == mt["caller"] else f"Only the caller {mt['caller']} may place a Marker."
    if act == "vote":
        if st["options"]["ballots"] == "sealed":
            return None if by in mt["order"] else f"{by} does not vote in this meeting."
        voter = mt["order"][len(mt["voted"])]
        return None if by == voter else f"It is {voter}'s turn to vote (R79)."
    if act == "remove":
        off = mt["issue"]["offender"]
        return None if by == off else f"Only {off} chooses the Hit-Men to remove."
    if act in ("penalty", "no_penalty"):
        offended = [o["player"] for o in st["window"]["offended"]]
        return None if by in offended else f"{by} was not offended this turn (R84)."
    return None


def _own(eng: Engine, c: Content, st: State, by: str, a: dict[str, Any]) -> Refusal | None:
    act = a["act"]
    pl = st["pl"][by]
    ts = st["ts"]
    man = c.n("man_price")
    if act == "base":
        if a["base"] in st["bases"].values():
            return "taken", f"Home Base {a['base']} is taken."
        return None
    if act == "buy_hitmen":
        if a["count"] > men_left(c, pl):
            return "no_men", "Not enough unused Men (R20)."
        if pl["money"] < man * a["count"]:
            return "funds", "Not enough money (R19, R30)."
        return None
    if act == "buy_power":
        if pl["money"] < c.n("power_price"):
            return "funds", "Not enough money (R23)."
        deck = st["decks"]["power"]
        if not deck["draw"] and not deck["discard"]:
            return "deck_empty", "The Power deck holds no card (R116)."
        return None
    if act == "buy_official":
        card = a["card"]
        if card not in pl["official"]:
            return "no_card", f"{by} holds no Corrupt Official card {card}."
        office = c.cards[card].office
        if free_circles(c, st, "officials", office) <= 0:
            return "taken", f"No {office} circle is free."
        if men_left(c, pl) < 1:
            return "no_men", "No unused Man for the Marker (R27)."
        if pl["money"] < c.cards[card].price + man:
            return "funds", "Not enough money for the price and the Marker (R27)."
        return None
    if act == "income":
        if ts["income_collected"]:
            return "already", "Income was collected this turn (R31)."
        if ts["income_value"] == 0:
            return "no_income", "The income value is 0 (R31)."
        return None
    if act == "cash":
        card = a["card"]
        if card not in pl["power"] or c.cards[card].kind != "money":
            return "no_card", f"{by} holds no Money card {card}."
        return None
    if act == "declare":
        if ts["dice"] is not None:
            return "after_roll", "Movers are declared before the roll (R34)."
        piece = a["piece"]
        if owner(piece) != by or where(st, piece) is None:
            return "bad_piece", f"{piece} is not a piece of {by} on the board."
        if any(m["piece"] == piece for m in ts["movers"]) or len(ts["movers"]) >= 2:
            return "already", "That piece is declared, or two movers are declared (R34)."
        attack = a.get("attack")
        if attack is not None and (attack == by or not alive(st, attack)):
            return "bad_target", "An attack names another member (R35)."
        return None
    if act == "roll":
        if ts["dice"] is not None:
            return "after_roll", "The dice were thrown this turn (R16)."
        if not ts["movers"]:
            return "not_declared", "Declare a mover before the roll (R34)."
        return None
    if act == "move":
        if ts["dice"] is None:
            return "before_roll", "Roll first (R36)."
        m = next((m for m in ts["movers"] if m["piece"] == a["piece"]), None)
        if m is None or m["status"] != "declared" or where(st, a["piece"]) is None:
            return "bad_piece", f"{a['piece']} is not a mover waiting to move."
        if a["share"] not in eng.allowed_shares(a["piece"]):
            return "bad_share", f"The share must be one of {eng.allowed_shares(a['piece'])} (R36-R37)."
        return None
    if act in ("step", "rub", "hit", "stop"):
        return _path_check(eng, a)
    if act == "acquire":
        opp = _opportunity(ts, a["piece"], "city")
        if opp is None:
            return "no_opportunity", f"{a['piece']} has no unused City landing this turn (R69)."
        if city_owner(st, opp["city"]) is not None:
            return "taken", f"{opp['city']} is owned."
        if pl["cities"]:
            return "first_city", "A further City needs a meeting (R71)."
        if men_left(c, pl) < 1:
            return "no_men", "No unused Man for the Marker (R70)."
        if pl["money"] < man:
            return "funds", "Not enough money for the Marker (R70)."
        return None
    if act == "meeting":
        opp = _opportunity(ts, a["piece"], None)
        if opp is None:
            return "no_opportunity", f"{a['piece']} has no unused acquisition opportunity (R69)."
        target = a["target"]
        kind = opp["type"]
        if kind == "city":
            if target != opp["city"]:
                return "bad_target", f"The meeting may seek only {opp['city']} (R71)."
            if city_owner(st, target) is not None:
                return "taken", f"{target} is owned."
            if not pl["cities"]:
                return "first_city", "A first City is acquired without a meeting (R70)."
        else:
            if c.category_kind(target) != kind:
                return "bad_target", f"The landing allows a {kind} category only (R72)."
            if free_circles(c, st, kind, target) <= 0:
                return "taken", f"No {target} circle is free."
            if not pl["cities"]:
                return "needs_city", "A City is needed first (R67)."
        if men_left(c, pl) < 1:
            return "no_men", "No unused Man for the Marker (R73)."
        return None
    if act == "pass":
        if ts["dice"] is None:
            return "before_roll", "The dice must be thrown before passing (R16)."
        if any(m["status"] == "declared" for m in ts["movers"]):
            return "must_move", "Every declared mover must move first (R17)."
        return None
    if act == "give":
        to = a["to"]
        if to == by or not alive(st, to):
            return "bad_target", "A gift goes to another member (R81)."
        if "money" in a:
            if pl["money"] < a["money"]:
                return "funds", "Not enough money (R81, R101)."
        elif a["card"] not in pl["power"] and a["card"] not in pl["official"]:
            return "no_card", f"{by} does not hold {a['card']}."
        return None
    if act == "vote":
        mt = st["meeting"]
        if st["options"]["ballots"] == "sealed" and by in mt["voted"]:
            return "already", "The ballot is cast (R79)."
        if a.get("votes", 0) > mt["entitlements"][by]:
            return "votes", f"{by} is entitled to {mt['entitlements'][by]} votes (R77)."
        return None
    if act == "place":
        code = eng.can_place()
        if code is not None:
            return code, {"no_opportunity": "No approved Marker is waiting.", "taken": "The target is owned.",
                          "no_men": "No unused Man for the Marker.", "funds": "Not enough money for the Marker."}[code]
        return None
    if act == "remove":
        mt = st["meeting"]
        off = st["pl"][mt["issue"]["offender"]]
        pieces = a["pieces"]
        if len(pieces) != mt["choose"] or any(number(p) == 0 or p not in off["pieces"] for p in pieces):
            return "bad_piece", f"Choose exactly {mt['choose']} of your Hit-Men other than the Boss (R89)."
        return None
    if act in ("penalty", "no_penalty"):
        entry = next(o for o in st["window"]["offended"] if o["player"] == by)
        if entry["answer"] != "undecided":
            return "already", "The penalty was answered (R85)."
        return None
    return None  # call_vote, adjourn


def _opportunity(ts: dict[str, Any], piece: str, kind: str | None) -> dict[str, Any] | None:
    for o in ts["opportunities"]:
        if o["piece"] == piece and not o["used"] and (kind is None or o["type"] == kind):
            return dict(o)
    return None


def _path_check(eng: Engine, a: dict[str, Any]) -> Refusal | None:
    st = eng.st
    path = st["ts"]["path"]
    act = a["act"]
    n = path["usable"]
    walk, node = eng.path_walk()
    if act == "stop":
        if path["used"] != n:
            return "counts_left", f"The move must use {n} counts (R54)."
        return None
    if act == "hit":
        card = a["card"]
        pl = st["pl"][st["active"]]
        if card not in pl["power"] or eng.c.cards[card].kind != "hit":
            return "no_card", f"{st['active']} holds no Hit card {card}."
        info = eng.c.cards[card]
        targets = canon(st, a["targets"])
        if not info.min <= len(targets) <= info.max or not all(walk.rub_ok(node, t) for t in targets):
            return "bad_target", f"{card} rubs out {info.min}-{info.max} opposing pieces on the mover's space (R51)."
        rest = {k: v for k, v in walk.hits.items() if k != card}
        if not walk.completable(walk.after_rub(node, targets, False), n, rest):
            return "dead_end", "After it the move could not be completed (R54)."
        return None
    if path["used"] >= path["share"]:
        return "no_counts", "No count is left (R38)."
    if act == "step":
        if not walk.step_valid(node, a["to"]):
            return "bad_step", f"{path['space']} to {a['to']} is not a step allowed now (R38-R45)."
        nxt = walk.after_step(node, a["to"])
    else:
        if not walk.rub_ok(node, a["target"]):
            return "bad_target", f"{a['target']} cannot be rubbed out here (R47-R48)."
        nxt = walk.after_rub(node, (a["target"],), True)
    if not walk.completable(nxt, n, walk.hits):
        return "dead_end", "After it the move could not be completed (R54)."
    return None


# ---- applying ------------------------------------------------------------------------------------------


def perform(eng: Engine, by: str, a: dict[str, Any]) -> None:
    """Apply an action that `refuse` accepted."""
    st, c = eng.st, eng.c
    act = a["act"]
    pl = st["pl"][by]
    ts = st["ts"]
    man = c.n("man_price")
    if act == "base":
        eng.choose_base(by, a["base"], False)
    elif act == "buy_hitmen":
        first = pl["hitmen_bought"] + 1
        pieces = [f"{by}:{n}" for n in range(first, first + a["count"])]
        home = c.bases[pl["base"]].home
        for p in pieces:
            pl["pieces"][p] = home
        pl["hitmen_bought"] += a["count"]
        pl["money"] -= man * a["count"]
        eng.emit("bought_hitmen", player=by, pieces=pieces, cost=man * a["count"])
    elif act == "buy_power":
        pl["money"] -= c.n("power_price")
        eng.emit("bought_power", player=by, cost=c.n("power_price"))
        eng.draw_to_hand(by, "power")
    elif act == "buy_official":
        info = c.cards[a["card"]]
        pl["official"].remove(a["card"])
        st["decks"]["official"]["discard"].append(a["card"])
        pl["officials"][info.office] = pl["officials"].get(info.office, 0) + 1
        pl["money"] -= info.price + man
        eng.emit("bought_official", player=by, card=a["card"], office=info.office, cost=info.price + man)
    elif act == "income":
        eng.collect_income()
    elif act == "cash":
        pl["power"].remove(a["card"])
        st["decks"]["power"]["discard"].append(a["card"])
        amount = c.cards[a["card"]].amount
        eng.emit("cashed", player=by, card=a["card"], amount=amount)
        eng.receive(by, amount)
    elif act == "declare":
        attack = a.get("attack")
        ts["movers"].append({"piece": a["piece"], "dir": a["dir"], "attack": attack, "share": None,
                             "status": "declared", "end": None, "outcome": None})
        eng.emit("declared", player=by, piece=a["piece"], dir=a["dir"], attack=attack)
    elif act == "roll":
        dice = list(eng.chance.dice(c.n("dice"), c.n("die_faces")))
        ts["dice"] = dice
        total = sum(dice)
        shares = [total] if len(ts["movers"]) == 1 else [(total + 1) // 2, total // 2]
        eng.emit("rolled", player=by, dice=dice, total=total, shares=shares)
    elif act == "move":
        eng.start_move(a["piece"], a["share"])
    elif act == "step":
        eng.do_step(a["to"])
    elif act == "rub":
        eng.do_rub([a["target"]], None)
    elif act == "hit":
        eng.do_rub(canon(st, a["targets"]), a["card"])
    elif act == "stop":
        eng.end_move("complete")
    elif act == "acquire":
        opp = next(o for o in ts["opportunities"] if o["piece"] == a["piece"] and not o["used"]
                   and o["type"] == "city")
        opp["used"] = True
        pl["cities"] = sorted(pl["cities"] + [opp["city"]])
        pl["money"] -= man
        eng.emit("acquired", player=by, type="city", target=opp["city"], cost=man, vote=False)
    elif act == "meeting":
        opp = next(o for o in ts["opportunities"] if o["piece"] == a["piece"] and not o["used"])
        opp["used"] = True
        eng.open_meeting("acquisition", by, {"type": opp["type"], "target": a["target"], "piece": a["piece"]})
    elif act == "pass":
        eng.end_turn("pass")
    elif act == "give":
        if "money" in a:
            pl["money"] -= a["money"]
            eng.emit("gave", **{"from": by, "to": a["to"], "money": a["money"]})
            eng.receive(a["to"], a["money"])
        else:
            card = a["card"]
            deck = c.cards[card].deck
            hand = "power" if deck == "power" else "official"
            pl[hand].remove(card)
            st["pl"][a["to"]][hand] = sorted(st["pl"][a["to"]][hand] + [card])
            eng.emit("gave", **{"from": by, "to": a["to"], "deck": deck})
            eng.emit("gave_card", [by, a["to"]], **{"from": by, "to": a["to"], "card": card})
    elif act == "call_vote":
        eng.call_vote()
    elif act == "vote":
        eng.cast(by, a["side"], a.get("votes", 0), False)
    elif act == "place":
        eng.place()
    elif act == "adjourn":
        eng.adjourn()
    elif act == "remove":
        eng.remove_chosen(list(a["pieces"]))
    elif act in ("penalty", "no_penalty"):
        eng.answer_window(by, act == "penalty", False)
        eng.maybe_close_window()
    after_action(eng)


def after_action(eng: Engine) -> None:
    """B.7: a turn whose active player was eliminated ends at once (R110)."""
    st = eng.st
    if st["phase"] in ("turn", "path") and st["meeting"] is None and not alive(st, st["active"]):
        eng.end_turn("eliminated")


def awaited(st: State) -> list[str]:
    """replay.md `pending.players`, in the order of R122."""
    phase = st["phase"]
    mt = st["meeting"]
    if phase == "choose_base":
        return [st["choosers"][0]]
    if phase in ("turn", "path"):
        return [st["active"]]
    if phase in ("bargain", "session"):
        return [mt["caller"]]
    if phase == "vote":
        if st["options"]["ballots"] == "sealed":
            return [p for p in st["players"] if p in mt["order"] and p not in mt["voted"]]
        return [mt["order"][len(mt["voted"])]]
    if phase == "penalty_choice":
        return [mt["issue"]["offender"]]
    if phase == "penalty_window":
        return [o["player"] for o in st["window"]["offended"] if o["answer"] == "undecided"]
    return []


def optional(st: State) -> list[str]:
    if st["phase"] in ("bargain", "session"):
        caller = st["meeting"]["caller"]
        return [p for p in st["players"] if alive(st, p) and p != caller]
    return []


def timeout(eng: Engine) -> None:
    """R122: the default of the current decision only; `timed_out` first."""
    st = eng.st
    phase = st["phase"]
    players = awaited(st)
    eng.emit("timed_out", decision=phase, players=players)
    mt = st["meeting"]
    if phase == "choose_base":
        eng.choose_base(players[0], eng.free_bases()[0], True)
    elif phase in ("turn", "path"):
        if phase == "path":
            eng.end_move("timeout")
        if st["ts"]["dice"] is not None:
            eng.forfeit_all()
        eng.end_turn("timeout")
    elif phase == "bargain":
        eng.call_vote()
    elif phase == "vote":
        for p in players:
            eng.cast(p, "abstain", 0, True)
    elif phase == "session":
        eng.adjourn()
    elif phase == "penalty_choice":
        off = st["pl"][mt["issue"]["offender"]]
        hitmen = sorted((p for p in off["pieces"] if number(p) > 0), key=number)
        eng.remove_chosen(hitmen[-mt["choose"]:])
    elif phase == "penalty_window":
        for p in players:
            eng.answer_window(p, False, True)
        eng.maybe_close_window()


def entitled(eng: Engine, player: str) -> int:
    return entitlement(eng.c, eng.st, player)


__all__ = ["PHASE_ACTS", "SPEC", "TREASURY", "awaited", "optional", "perform", "read", "refuse", "timeout"]
