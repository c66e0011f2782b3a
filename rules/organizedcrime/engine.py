"""The rules in motion: setup, the turn, moves, money, elimination, meetings, penalties (rulings Part 1, App. B).

An `Engine` wraps one mutable state for one step: actions apply in place, events are appended to `events`
in the order things happen, each `{"audience": "public" | [players], "kind": …, fields}`. The end of the
game raises `GameOver` internally so that nothing further happens (Q41, E10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contract import Chance
from .content import DECKS, Content
from .state import (
    TREASURY,
    State,
    alive,
    base_owner,
    by_space,
    canon,
    city_owner,
    entitlement,
    free_circles,
    income_value,
    left_of,
    members,
    men_left,
    new_turn_state,
    number,
    owner,
    position,
    where,
)
from .walk import Node, Walk

Snapshot = Callable[[State], None]


class GameOver(Exception):
    """The game ended: unwind the step (nothing further happens)."""


class Engine:
    def __init__(self, content: Content, st: State, chance: Chance, snapshot: Snapshot | None = None) -> None:
        self.c = content
        self.st = st
        self.chance = chance
        self.events: list[dict[str, Any]] = []
        self.snapshot = snapshot

    # ---- events ----------------------------------------------------------------------------------------

    def emit(self, kind: str, audience: Any = "public", **fields: Any) -> None:
        if audience != "public":
            players = self.st["players"]
            audience = sorted(set(audience), key=players.index)
        self.events.append({"audience": audience, "kind": kind, **fields})

    # ---- setup (R7–R12) -----------------------------------------------------------------------------------

    def shuffle_all(self) -> None:
        for deck in DECKS:
            order = self.chance.shuffle(deck, list(self.c.decks[deck]))
            self.st["decks"][deck] = {"draw": list(order), "discard": []}
            self.emit("shuffled", deck=deck, cards=len(order))

    def rank(self, group: list[str], stage: str) -> list[str]:
        totals = {p: self.roll_setup(p, stage) for p in group}
        out: list[str] = []
        for total in sorted(set(totals.values()), reverse=True):
            tied = [p for p in group if totals[p] == total]
            out += tied if len(tied) == 1 else self.rank(tied, stage)
        return out

    def roll_setup(self, player: str, stage: str) -> int:
        dice = list(self.chance.dice(self.c.n("dice"), self.c.n("die_faces")))
        self.emit("setup_roll", player=player, dice=dice, total=sum(dice), stage=stage)
        return sum(dice)

    def begin_setup(self, bases: dict[str, int] | None, first: str | None) -> None:
        st = self.st
        st["phase"] = "choose_base"
        st["first"] = first  # a first player the file names is known from the start; a rolled one after R10
        if bases:
            for p in st["players"]:
                self.place_base(p, bases[p])
            self.after_bases(first)
            return
        order = self.rank(list(st["players"]), "bases")
        st["base_order"] = list(order)
        st["choosers"] = list(order)
        st["first_given"] = first
        self.emit("base_order", order=order)
        self.next_chooser()

    def free_bases(self) -> list[int]:
        taken = set(self.st["bases"].values())
        return [b for b in self.c.bases if b not in taken]

    def place_base(self, player: str, base: int) -> None:
        st = self.st
        st["bases"][player] = base
        pl = st["pl"][player]
        pl["base"] = base
        pl["pieces"] = {f"{player}:0": self.c.bases[base].boss}

    def choose_base(self, player: str, base: int, auto: bool) -> None:
        self.place_base(player, base)
        self.st["choosers"].remove(player)
        self.emit("base_chosen", player=player, base=base, auto=auto)
        self.next_chooser()

    def next_chooser(self) -> None:
        st = self.st
        if not st["choosers"]:
            self.after_bases(st["first_given"])
            return
        free = self.free_bases()
        if len(free) == 1:
            self.choose_base(st["choosers"][0], free[0], True)

    def after_bases(self, first: str | None) -> None:
        st = self.st
        if first is None:
            group = list(st["players"])
            while True:
                totals = {p: self.roll_setup(p, "first") for p in group}
                best = max(totals.values())
                group = [p for p in group if totals[p] == best]
                if len(group) == 1:
                    break
            first = group[0]
            st["first"] = first
            self.emit("first_player", player=first)
        st["first"] = first
        st["round"] = 0
        self.begin_turn(first, 1)

    # ---- the turn (R13–R18, B.7) -------------------------------------------------------------------------

    def begin_turn(self, player: str, rnd: int, turn: int | None = None) -> None:
        st = self.st
        st["turn"] = st["turn"] + 1 if turn is None else turn
        st["round"] = rnd
        st["active"] = player
        value = income_value(self.c, st["pl"][player])
        st["ts"] = new_turn_state(value)
        st["window"] = None
        st["queue"] = []
        st["phase"] = "turn"
        self.emit("turn_began", turn=st["turn"], round=rnd, player=player, income=value)
        if st["options"]["auto_income"] and value > 0:
            self.collect_income()

    def collect_income(self) -> None:
        st = self.st
        ts = st["ts"]
        ts["income_collected"] = True
        self.emit("income", player=st["active"], amount=ts["income_value"])
        self.receive(st["active"], ts["income_value"])

    def end_turn(self, cause: str) -> None:
        st = self.st
        active = st["active"]
        st["phase"] = None
        self.emit("turn_ended", turn=st["turn"], player=active, cause=cause, rolled=st["ts"]["dice"] is not None)
        if not alive(st, active):
            self.next_turn()
            return
        pl = st["pl"][active]
        pl["turns_taken"] += 1
        for lim in list(pl["limits"]):
            lim["turns_left"] -= 1
            if lim["turns_left"] <= 0:
                pl["limits"].remove(lim)
                st["decks"]["penalty"]["discard"].append(lim["card"])
                self.emit("limit_expired", player=active, card=lim["card"])
        first_seq: dict[str, int] = {}
        for r in st["ts"]["rubouts"]:
            if alive(st, r["owner"]) and r["owner"] != active:
                first_seq.setdefault(r["owner"], r["seq"])
        offended = sorted(first_seq, key=first_seq.__getitem__)
        if offended:
            st["window"] = {"offender": active, "offended": [{"player": p, "answer": "undecided"} for p in offended]}
            st["phase"] = "penalty_window"
            self.emit("penalty_window", offender=active, offended=offended)
            return
        self.next_turn()

    def next_turn(self) -> None:
        st = self.st
        st["phase"] = None
        self.write_snapshot()
        active = st["active"]
        nxt = left_of(st, active)
        rnd = st["round"] + 1 if position(st, nxt) <= position(st, active) else st["round"]
        cap = st["options"]["round_cap"]
        if cap is not None and rnd > cap:
            self.game_over("round_cap")
        self.begin_turn(nxt, rnd)

    def write_snapshot(self) -> None:
        st = self.st
        if st["snapped"] == st["turn"] or st["turn"] == 0:
            return
        st["snapped"] = st["turn"]
        if self.snapshot is not None:
            self.snapshot(st)

    def answer_window(self, player: str, call: bool, default: bool) -> None:
        window = self.st["window"]
        for o in window["offended"]:
            if o["player"] == player:
                o["answer"] = "called" if call else "declined"
        self.emit("penalty_called" if call else "penalty_declined", player=player, default=default)

    def maybe_close_window(self) -> None:
        window = self.st["window"]
        if window is None or any(o["answer"] == "undecided" for o in window["offended"]):
            return
        self.st["queue"] = [o["player"] for o in window["offended"] if o["answer"] == "called"]
        self.st["window"] = None
        self.run_queue()

    def run_queue(self) -> None:
        st = self.st
        while st["queue"]:
            caller = st["queue"].pop(0)
            offender = st["active"]
            if not alive(st, offender):
                self.emit("penalty_cancelled", caller=caller, offender=offender)
                continue
            if not alive(st, caller):
                continue
            self.open_meeting("penalty", caller, {"type": "penalty", "offender": offender})
            return
        self.next_turn()

    # ---- money (R94–R101, B.5 with E1) ----------------------------------------------------------------------

    def receive(self, player: str, amount: int) -> None:
        self.st["pl"][player]["money"] += amount
        self.apply_debts(player)

    def apply_debts(self, player: str) -> None:
        st = self.st
        pl = st["pl"][player]
        while pl["money"] > 0:
            debt = next((d for d in st["debts"] if d["debtor"] == player), None)
            if debt is None:
                return
            pay = min(pl["money"], debt["amount"])
            pl["money"] -= pay
            debt["amount"] -= pay
            self.emit("debt_paid", debtor=player, creditor=debt["creditor"], amount=pay, left=debt["amount"])
            if debt["amount"] == 0:
                st["debts"].remove(debt)
            if debt["creditor"] != TREASURY:
                self.receive(debt["creditor"], pay)

    def charge(self, player: str, amount: int, to: str, reason: str) -> None:
        st = self.st
        pl = st["pl"][player]
        pay = min(pl["money"], amount)
        if pay > 0:
            pl["money"] -= pay
            self.emit("paid", **{"from": player, "to": to, "amount": pay, "reason": reason})
        if amount - pay > 0:
            st["debts"].append({"debtor": player, "creditor": to, "amount": amount - pay})
            self.emit("debt", debtor=player, creditor=to, amount=amount - pay, reason=reason)
        if pay > 0 and to != TREASURY:
            self.receive(to, pay)

    # ---- decks (R112–R117) ---------------------------------------------------------------------------------

    def draw(self, deck: str) -> str | None:
        d = self.st["decks"][deck]
        if not d["draw"]:
            if not d["discard"]:
                return None
            order = self.chance.shuffle(deck, list(d["discard"]))
            d["draw"] = list(order)
            d["discard"] = []
            self.emit("shuffled", deck=deck, cards=len(order))
        return str(d["draw"].pop(0))

    def draw_to_hand(self, player: str, deck: str) -> None:
        card = self.draw(deck)
        if card is None:
            self.emit("deck_empty", player=player, deck=deck)
            return
        hand = self.st["pl"][player]["power" if deck == "power" else "official"]
        hand.append(card)
        hand.sort()
        self.emit("drew", player=player, deck=deck)
        self.emit("drew_card", [player], player=player, deck=deck, card=card)

    # ---- pieces and elimination (R102–R111, B.6 with E2) -----------------------------------------------------

    def remove_piece(self, piece: str, cause: str) -> None:
        space = self.st["pl"][owner(piece)]["pieces"].pop(piece)
        self.emit("removed", piece=piece, space=space, cause=cause)

    def eliminate(self, x: str, cause: str, by: str | None) -> None:
        st = self.st
        c = self.c
        pl = st["pl"][x]
        pieces = canon(st, pl["pieces"])
        m = pl["money"]
        to_by = (m // (2 * c.n("money_unit"))) * c.n("money_unit") if cause == "rubout" else 0
        holdings = {
            "cities": sorted(pl["cities"]),
            "business": {k: v for k, v in sorted(pl["business"].items()) if v},
            "illegal": {k: v for k, v in sorted(pl["illegal"].items()) if v},
            "officials": {k: v for k, v in sorted(pl["officials"].items()) if v},
        }
        cards = {"power": len(pl["power"]), "official": len(pl["official"]), "limits": len(pl["limits"])}
        self.emit("eliminated", player=x, cause=cause, by=by, money=m, to_by=to_by, to_treasury=m - to_by,
                  pieces=pieces, holdings=holdings, cards=cards)
        pl["pieces"] = {}
        pl["cities"], pl["business"], pl["illegal"], pl["officials"] = [], {}, {}, {}
        if cause == "rubout" and by is not None:
            got = sorted(pl["power"] + pl["official"])
            taker = st["pl"][by]
            taker["power"] = sorted(taker["power"] + pl["power"])
            taker["official"] = sorted(taker["official"] + pl["official"])
            if got:
                self.emit("received_cards", [by], player=by, **{"from": x}, cards=got)
        else:
            st["decks"]["power"]["discard"] += sorted(pl["power"])
            st["decks"]["official"]["discard"] += sorted(pl["official"])
        st["decks"]["penalty"]["discard"] += sorted(lim["card"] for lim in pl["limits"])
        pl["power"], pl["official"], pl["limits"] = [], [], []
        pl["money"] = 0
        pl["alive"] = False
        pl["eliminated"] = {"turn": st["turn"], "cause": cause, "by": by if cause == "rubout" else None}
        st["elim"].append(x)
        for d in st["debts"]:
            if d["creditor"] == x:
                d["creditor"] = TREASURY
                self.emit("debt_transferred", debtor=d["debtor"], **{"from": x}, amount=d["amount"])
        if cause == "rubout" and by is not None and to_by > 0:
            self.receive(by, to_by)
        for d in [d for d in st["debts"] if d["debtor"] == x]:
            st["debts"].remove(d)
            self.emit("debt_settled", debtor=x, creditor=d["creditor"], amount=d["amount"])
            if d["creditor"] != TREASURY:
                self.receive(d["creditor"], d["amount"])
        window = st["window"]
        if window is not None:
            window["offended"] = [o for o in window["offended"] if o["player"] != x]
        if len(members(st)) == 1:
            self.game_over("last_survivor")

    def standing(self) -> list[dict[str, Any]]:
        st = self.st
        rows = [{"player": p, "votes": entitlement(self.c, st, p), "money": st["pl"][p]["money"],
                 "income": income_value(self.c, st["pl"][p])} for p in members(st)]
        return sorted(rows, key=lambda r: (-r["votes"], -r["money"], -r["income"], st["players"].index(r["player"])))

    def result(self, reason: str) -> dict[str, Any]:
        st = self.st
        standing = self.standing()
        if reason == "last_survivor":
            winners = [standing[0]["player"]] if standing else []
        else:
            top = standing[0] if standing else None
            winners = [r["player"] for r in standing if top is not None and
                       (r["votes"], r["money"], r["income"]) == (top["votes"], top["money"], top["income"])]
        eliminated = [{"player": p, **st["pl"][p]["eliminated"]} for p in st["elim"]]
        return {"reason": reason, "winners": winners, "standing": standing, "eliminated": eliminated}

    def game_over(self, reason: str) -> None:
        st = self.st
        result = self.result(reason)
        st["result"] = result
        self.emit("game_over", reason=reason, winners=result["winners"])
        st["phase"] = "over"
        self.write_snapshot()
        raise GameOver

    # ---- moves (R34–R66, B.1–B.4) -------------------------------------------------------------------------

    def mover(self, piece: str) -> dict[str, Any]:
        return next(m for m in self.st["ts"]["movers"] if m["piece"] == piece)

    def walk_for(self, piece: str, declared: str, attack: str | None, share: int) -> Walk:
        st = self.st
        pl = st["pl"][owner(piece)]
        hits = {cid: (self.c.cards[cid].min, self.c.cards[cid].max) for cid in pl["power"]
                if self.c.cards[cid].kind == "hit"}
        return Walk(self.c, st["players"], by_space(st), set(members(st)), base_owner(st), piece, declared, attack,
                    share, hits)

    def path_walk(self) -> tuple[Walk, Node]:
        path = self.st["ts"]["path"]
        m = self.mover(path["piece"])
        walk = self.walk_for(path["piece"], m["dir"], m["attack"], path["share"])
        node = Node(path["space"], path["prev"], path["heading"], path["turned"], path["used"], frozenset(),
                    frozenset(), False)
        return walk, node

    def allowed_shares(self, piece: str) -> list[int]:
        ts = self.st["ts"]
        total = sum(ts["dice"])
        movers = ts["movers"]
        if len(movers) == 1:
            return [total]
        other = next(m for m in movers if m["piece"] != piece)
        if other["share"] is None:
            return sorted({(total + 1) // 2, total // 2}, reverse=True)
        return [total - other["share"]]

    def start_move(self, piece: str, share: int) -> None:
        st = self.st
        m = self.mover(piece)
        m["share"] = share
        m["status"] = "moving"
        space = where(st, piece)
        assert space is not None
        walk = self.walk_for(piece, m["dir"], m["attack"], share)
        node = Node(space, None, m["dir"], False, 0, frozenset(), frozenset(), False)
        usable = walk.usable(node)
        st["ts"]["path"] = {"piece": piece, "share": share, "used": 0, "usable": usable, "space": space,
                            "prev": None, "heading": m["dir"], "turned": False}
        st["phase"] = "path"
        self.emit("move_began", piece=piece, share=share, usable=usable)
        self.after_item()

    def legal_hits(self, walk: Walk, node: Node, n: int) -> list[tuple[str, tuple[str, ...]]]:
        out = []
        for card, targets in walk.hit_items(node, walk.hits):
            rest = {k: v for k, v in walk.hits.items() if k != card}
            if walk.completable(walk.after_rub(node, targets, False), n, rest):
                out.append((card, targets))
        return out

    def after_item(self) -> None:
        """R55: with N counts used the move ends by itself unless a Hit item is still legal."""
        path = self.st["ts"]["path"]
        if path is None or path["used"] != path["usable"]:
            return
        walk, node = self.path_walk()
        if not self.legal_hits(walk, node, path["usable"]):
            self.end_move("complete")

    def do_step(self, to: str) -> None:
        st = self.st
        path = st["ts"]["path"]
        piece = path["piece"]
        kind, d = self.c.edge[(path["space"], to)]
        frm = path["space"]
        path["prev"], path["space"] = frm, to
        path["used"] += 1
        if kind == "ring" and d is not None:
            path["heading"] = d
            if d == self.mover(piece)["dir"]:
                path["turned"] = True
        st["pl"][owner(piece)]["pieces"][piece] = to
        self.emit("stepped", piece=piece, **{"from": frm}, to=to, count=path["used"])
        self.after_item()

    def do_rub(self, targets: list[str], card: str | None) -> None:
        st = self.st
        ts = st["ts"]
        path = ts["path"]
        mover = path["piece"]
        m = self.mover(mover)
        count = None
        if card is None:
            path["used"] += 1
            count = path["used"]
        else:
            pl = st["pl"][st["active"]]
            pl["power"].remove(card)
            st["decks"]["power"]["discard"].append(card)
            self.emit("hit_played", piece=mover, card=card, targets=list(targets))
        bosses = []
        for x in targets:
            o = owner(x)
            space = st["pl"][o]["pieces"].pop(x)
            seq = len(ts["rubouts"]) + 1
            ts["rubouts"].append({"seq": seq, "by": mover, "piece": x, "owner": o})
            self.emit("rubbed_out", by=mover, piece=x, space=space, count=count, card=card, seq=seq)
            if number(x) == 0:
                bosses.append(o)
        attacked_alive = m["attack"] is not None and alive(st, m["attack"])
        for o in bosses:
            self.eliminate(o, "rubout", st["active"])
        if attacked_alive and m["attack"] in bosses:
            self.emit("attack_succeeded", piece=mover, player=m["attack"])
            home = self.c.bases[st["pl"][st["active"]]["base"]].home
            st["pl"][st["active"]]["pieces"][mover] = home
            path["space"] = home
            self.emit("returned_home", piece=mover, space=home)
            self.end_move("attack")
            return
        self.after_item()

    def end_move(self, reason: str) -> None:
        st = self.st
        ts = st["ts"]
        path = ts["path"]
        piece = path["piece"]
        m = self.mover(piece)
        space = where(st, piece) or path["space"]
        self.emit("move_ended", piece=piece, space=space, used=path["used"], unused=path["usable"] - path["used"],
                  reason=reason)
        m["status"] = "moved"
        m["end"] = space
        ts["path"] = None
        st["phase"] = "turn"
        if reason == "attack":
            m["outcome"] = "succeeded"
            return
        if self.attack_outcome(m, space):
            return
        if reason == "complete" and where(st, piece) is not None:
            self.landing(piece, space)

    def attack_outcome(self, m: dict[str, Any], space: str) -> bool:
        """R59–R60 at the end of a move or a forfeit; True when the mover was removed (a failed attack)."""
        st = self.st
        if m["attack"] is None:
            return False
        if not alive(st, m["attack"]):
            m["outcome"] = "lapsed"
            self.emit("attack_lapsed", piece=m["piece"], player=m["attack"])
            return False
        m["outcome"] = "failed"
        active = st["active"]
        self.emit("attack_failed", piece=m["piece"], player=m["attack"])
        self.charge(active, self.c.n("attack_debt"), m["attack"], "attack")
        self.remove_piece(m["piece"], "failed_attack")
        if number(m["piece"]) == 0:
            self.eliminate(active, "failed_attack", None)
        return True

    def landing(self, piece: str, space: str) -> None:
        st = self.st
        active = st["active"]
        kind = self.c.kinds[space]
        if kind in ("power", "official"):
            self.draw_to_hand(active, kind)
        elif kind == "mistake":
            card = self.draw("mistake")
            if card is None:
                self.emit("deck_empty", player=active, deck="mistake")
                return
            st["decks"]["mistake"]["discard"].append(card)
            info = self.c.cards[card]
            officials = st["pl"][active]["officials"]
            avoided = any(officials.get(o, 0) > 0 for o in info.avoided_by)
            self.emit("mistake", player=active, piece=piece, card=card, avoided=avoided)
            if avoided:
                return
            if info.kind == "remove_mover":
                self.remove_piece(piece, "mistake")
                if number(piece) == 0:
                    self.eliminate(active, "mistake", None)
            else:
                self.charge(active, info.amount, TREASURY, "fine")
        elif kind in ("city", "business", "illegal"):
            st["ts"]["opportunities"].append({"piece": piece, "space": space, "type": kind,
                                              "city": self.c.space_city.get(space), "used": False})

    def forfeit_all(self) -> None:
        """R122: every unmoved mover forfeits its move; they stop at the active player's elimination (E21)."""
        st = self.st
        for m in st["ts"]["movers"]:
            if not alive(st, st["active"]):
                return
            if m["status"] != "declared":
                continue
            space = where(st, m["piece"])
            self.emit("move_ended", piece=m["piece"], space=space, used=0, unused=None, reason="forfeit")
            m["status"] = "forfeited"
            m["end"] = space
            self.attack_outcome(m, space or "")

    # ---- meetings (R75–R93) ----------------------------------------------------------------------------------

    def open_meeting(self, kind: str, caller: str, issue: dict[str, Any]) -> None:
        st = self.st
        st["meetings"] += 1
        st["meeting"] = {"id": st["meetings"], "type": kind, "caller": caller, "issue": issue, "phase": "bargain",
                         "order": None, "entitlements": None, "ballots": [], "voted": [], "result": None,
                         "marker_pending": False, "card": None, "choose": None}
        st["sealed"] = {}
        st["phase"] = "bargain"
        self.emit("meeting_called", meeting=st["meetings"], type=kind, caller=caller, issue=dict(issue))

    def call_vote(self) -> None:
        st = self.st
        mt = st["meeting"]
        caller = mt["caller"]
        order = []
        p = caller
        for _ in members(st):
            p = left_of(st, p)
            order.append(p)
        ent = {p: entitlement(self.c, st, p) for p in order}
        mt["order"], mt["entitlements"], mt["phase"] = order, ent, "vote"
        st["phase"] = "vote"
        self.emit("vote_called", meeting=mt["id"], order=order, entitlements=ent)

    def next_voter(self) -> str:
        mt = self.st["meeting"]
        return str(mt["order"][len(mt["voted"])])

    def cast(self, player: str, side: str, votes: int, default: bool) -> None:
        st = self.st
        mt = st["meeting"]
        if st["options"]["ballots"] == "sealed":
            self.emit("ballot_sealed", meeting=mt["id"], player=player, default=default)
            self.emit("ballot", [player], meeting=mt["id"], player=player, side=side, votes=votes, default=default)
            st["sealed"][player] = {"side": side, "votes": votes}
            mt["voted"].append(player)
            if len(mt["voted"]) == len(mt["order"]):
                ballots = [{"player": p, **st["sealed"][p]} for p in mt["order"]]
                mt["ballots"] = ballots
                st["sealed"] = {}
                self.emit("ballots_revealed", meeting=mt["id"], ballots=[dict(b) for b in ballots])
                self.vote_result()
            return
        self.emit("ballot", meeting=mt["id"], player=player, side=side, votes=votes, default=default)
        mt["ballots"].append({"player": player, "side": side, "votes": votes})
        mt["voted"].append(player)
        if len(mt["voted"]) == len(mt["order"]):
            self.vote_result()

    def vote_result(self) -> None:
        st = self.st
        mt = st["meeting"]
        yes = sum(b["votes"] for b in mt["ballots"] if b["side"] == "for")
        no = sum(b["votes"] for b in mt["ballots"] if b["side"] == "against")
        carried = yes > no
        mt["result"] = {"for": yes, "against": no, "carried": carried}
        mt["phase"] = "session"
        st["phase"] = "session"
        self.emit("vote_result", meeting=mt["id"], **{"for": yes}, against=no, carried=carried)
        if not carried:
            return
        if mt["type"] == "acquisition":
            mt["marker_pending"] = True
            if self.can_place() is None:
                self.place()
            return
        self.penalty()

    def can_place(self) -> str | None:
        """The refusal code for placing the approved Marker now (R74), or None."""
        st = self.st
        mt = st["meeting"]
        if mt is None or mt["type"] != "acquisition" or not mt["marker_pending"]:
            return "no_opportunity"
        caller = mt["caller"]
        issue = mt["issue"]
        if issue["type"] == "city":
            if city_owner(st, issue["target"]) is not None:
                return "taken"
        elif free_circles(self.c, st, issue["type"], issue["target"]) <= 0:
            return "taken"
        pl = st["pl"][caller]
        if men_left(self.c, pl) < 1:
            return "no_men"
        if pl["money"] < self.c.n("man_price"):
            return "funds"
        return None

    def place(self) -> None:
        st = self.st
        mt = st["meeting"]
        caller, issue = mt["caller"], mt["issue"]
        pl = st["pl"][caller]
        pl["money"] -= self.c.n("man_price")
        if issue["type"] == "city":
            pl["cities"] = sorted(pl["cities"] + [issue["target"]])
        else:
            group = pl[issue["type"]]
            group[issue["target"]] = group.get(issue["target"], 0) + 1
        mt["marker_pending"] = False
        self.emit("acquired", player=caller, type=issue["type"], target=issue["target"], cost=self.c.n("man_price"),
                  vote=True)

    def penalty(self) -> None:
        st = self.st
        mt = st["meeting"]
        offender, caller = mt["issue"]["offender"], mt["caller"]
        card = self.draw("penalty")
        if card is None:
            self.emit("deck_empty", player=offender, deck="penalty")
            return
        mt["card"] = card
        info = self.c.cards[card]
        self.emit("penalty_card", player=offender, caller=caller, card=card)
        if info.kind != "lose_official_votes":
            st["decks"]["penalty"]["discard"].append(card)
        pl = st["pl"][offender]
        if info.kind == "remove_offender":
            hitters = {r["by"] for r in st["ts"]["rubouts"] if r["owner"] == caller}
            gone = canon(st, [p for p in hitters if p in pl["pieces"]])
            for p in gone:
                self.remove_piece(p, "penalty")
            if any(number(p) == 0 for p in gone):
                self.eliminate(offender, "penalty", None)
        elif info.kind == "remove_hitmen":
            k = info.count or 0
            hitmen = canon(st, [p for p in pl["pieces"] if number(p) > 0])
            if len(hitmen) <= k:
                for p in hitmen:
                    self.remove_piece(p, "penalty")
            else:
                mt["choose"] = k
                mt["phase"] = "penalty_choice"
                st["phase"] = "penalty_choice"
        elif info.kind == "pay_caller":
            self.charge(offender, info.amount, caller, "penalty")
        else:
            pl["limits"].append({"card": card, "turns_left": info.turns})

    def remove_chosen(self, pieces: list[str]) -> None:
        st = self.st
        for p in canon(st, pieces):
            self.remove_piece(p, "penalty")
        st["meeting"]["choose"] = None
        st["meeting"]["phase"] = "session"
        st["phase"] = "session"

    def adjourn(self) -> None:
        st = self.st
        mt = st["meeting"]
        if mt["marker_pending"]:
            self.emit("placement_lapsed", meeting=mt["id"], player=mt["caller"])
        self.emit("meeting_closed", meeting=mt["id"])
        st["meeting"] = None
        st["sealed"] = {}
        if mt["type"] == "acquisition":
            st["phase"] = "turn"
            return
        self.run_queue()
