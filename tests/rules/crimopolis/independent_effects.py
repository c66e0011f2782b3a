"""An independent reading of what Crimopolis's cards do (rulings.md R64-R97, R40-R42, R103c; errata E2, E22):
given the engine state before a step (as `encode_state` gives it: hands, decks, supplies, gangsters, hours) and
the action, the state the spec requires after it, for every step that moves cards: `job` (with its fortunes,
its newsflash and the decisions the newsflash opens), `fortune`, `react`, `target`, `invest`, `abort`, `keep`,
`redraw`, and the destinies executed when `end` starts the next turn.

Written from the spec and the content pack's JSON, not from `rules/crimopolis/`. Only the outcome of a
takeover's arithmetic is checked against R62-R63 rather than rebuilt; the geometry comes from
independent_legality.City.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tests.rules.crimopolis.independent_legality import FORTUNE, JOBS, NEWS, City, parse_cell

TOMBSTONES = 40  # R101


def design(card: str) -> dict[str, Any]:
    return FORTUNE[card] if card.startswith("F") else NEWS[card]


class Model:
    """Predicts one step. `ctx` carries a job or a fortune whose resolution waits for a decision."""

    def __init__(self) -> None:
        self.ctx: dict[str, Any] | None = None
        self.ending = False  # a timeout: the turn ends once no decision of the active player is left (R38)
        self.counts: dict[str, int] = {}

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    # ---- small helpers on the encoded state -------------------------------------------------------
    @staticmethod
    def held(w: Mapping[str, Any], loc: str) -> tuple[str | None, int]:
        v = w["gangsters"].get(loc)
        return (None, 0) if v is None else (v[0], int(v[1]))

    @staticmethod
    def add(w: dict[str, Any], loc: str, player: str, n: int) -> None:
        owner, have = Model.held(w, loc)
        assert owner in (None, player), (loc, owner, player)
        if have + n > 0:
            w["gangsters"][loc] = [player, have + n]
        else:
            w["gangsters"].pop(loc, None)

    @staticmethod
    def bury(w: dict[str, Any], player: str, k: int) -> None:
        left = TOMBSTONES - sum(p["bodies"] for p in w["pl"].values())
        w["pl"][player]["bodies"] += min(k, left)  # R101

    @staticmethod
    def draw(w: dict[str, Any], deck: str, n: int) -> list[str]:
        got: list[str] = w["decks"][deck][:n]  # R79: an empty deck yields nothing
        del w["decks"][deck][:n]
        return got

    @staticmethod
    def bottom(w: dict[str, Any], card: str) -> None:
        deck = "jobs" if card.startswith("J") else "fortunes" if card.startswith("F") else "newsflashes"
        w["decks"][deck].append(card)  # R80

    @staticmethod
    def own_block(w: Mapping[str, Any], player: str, kind: str) -> str | None:
        color = w["colors"][w["players"].index(player)]
        name = ("hq_" if kind == "hq" else "sh_") + color
        for cell, (tile, _side) in w["tiles"].items():
            if tile == name:
                return str(cell)  # a Headquarters or Safe House is a one-cell block named by its cell
        return None

    # ---- steps --------------------------------------------------------------------------------------
    def predict(
        self, w0: Mapping[str, Any], view: Mapping[str, Any], seat: str, a: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The state after `a`; `pending` is set to the expected decision's (kind, player)."""
        w = copy.deepcopy(dict(w0))
        w["colors"] = [view["players"][p]["color"] for p in w["players"]]
        self.city = City(view["city"]["tiles"])
        kind = a["kind"]
        me = w["pl"][seat]
        w["expect"] = ("turn", w["active"])
        if kind == "invest":  # R75
            self.count("invest")
            w["hours"] -= 2
            me["fortunes"] += self.draw(w, "fortunes", 1)
        elif kind == "abort":  # R74
            self.count("abort")
            w["hours"] -= 3
            me["jobs"].remove(a["card"])
            self.bottom(w, a["card"])
            got = self.draw(w, "jobs", 2)
            if len(got) == 2:
                me["drawn"] = got
                w["expect"] = ("keep", seat)
            else:  # R74, R108: a single card drawn is kept at once
                self.count(f"abort:drew_{len(got)}")
                me["jobs"] += got
        elif kind == "keep":  # R74: the other card goes back on top
            self.count("keep")
            other = [c for c in me["drawn"] if c != a["card"]]
            me["jobs"].append(a["card"])
            w["decks"]["jobs"][:0] = other
            me["drawn"] = []
        elif kind == "redraw":  # R77, R80: both to the bottom in ascending id order
            self.count("redraw")
            pair = sorted(me["jobs"])
            me["jobs"] = []
            w["decks"]["jobs"] += pair
            me["jobs"] += self.draw(w, "jobs", 2)
        elif kind == "job":
            self.job(w, seat, a)
        elif kind == "fortune":
            self.fortune(w, seat, a)
        elif kind == "target":
            assert self.ctx is not None
            self.count("target")
            self.ctx["target"] = a["player"]
            self.after_target(w)
        elif kind == "react":
            assert self.ctx is not None
            if a["card"] is None:
                self.count("react:none")
                self.apply(w)
            else:  # R93, R97.13, E2: the reaction first, then the cancelled card
                self.count("react:defend")
                me["fortunes"].remove(a["card"])
                self.bottom(w, a["card"])
                self.bottom(w, self.ctx["card"])
                self.finish(w)
        else:
            raise ValueError(kind)
        return w

    def predict_timeout(self, w0: Mapping[str, Any], view: Mapping[str, Any], seat: str) -> dict[str, Any]:
        """R38, R109, E4: the active player's `timeout` at a `keep`, `target` or own `react` decision."""
        pend = w0["pending"]
        kind = pend["kind"]
        if kind == "keep":  # the card drawn first
            self.ending = True
            self.count("timeout:keep")
            return self.predict(w0, view, seat, {"kind": "keep", "card": w0["pl"][seat]["drawn"][0]})
        if kind == "target":  # the first other player in seat order after the active player
            self.ending = True
            self.count("timeout:target")
            ps = list(w0["players"])
            i = ps.index(seat)
            return self.predict(w0, view, seat, {"kind": "target", "player": ps[(i + 1) % len(ps)]})
        assert kind == "react"  # E4: only the window is answered, and the turn goes on
        self.count("timeout:own_react")
        return self.predict(w0, view, seat, {"kind": "react", "card": None})

    def turn_start(self, w0: Mapping[str, Any], player: str, budget: int) -> dict[str, Any]:
        """R40-R42, R34, E2, E7: the new turn's budget, then every destiny in placement order, each discarded
        as soon as executed (the house pack's destinies are all negative `hours`, so the order is automatic)."""
        w = copy.deepcopy(dict(w0))
        w["hours"] = budget
        w["hours_events"] = []
        if len(w["pl"][player]["destinies"]) >= 2:
            self.count("destinies:two_or_more")
        for card in w["pl"][player]["destinies"]:
            eff = design(card)["effect"]
            assert eff["kind"] == "hours"
            self.count("destiny:" + design(card)["design"])
            before = w["hours"]
            w["hours"] = max(0, w["hours"] + eff["amount"])
            w["hours_events"].append((w["hours"] - before, w["hours"]))  # E7, E22: the change made, even 0
            self.bottom(w, card)
        w["pl"][player]["destinies"] = []
        return w

    def job(self, w: dict[str, Any], seat: str, a: Mapping[str, Any]) -> None:
        me = w["pl"][seat]
        card = JOBS[a["card"]]
        fortunes = list(a.get("fortunes") or [])
        sums = {"job_gangsters": 0, "job_hours": 0, "job_prestige": 0}
        for f in fortunes:
            eff = FORTUNE[f]["effect"]
            sums[eff["kind"]] += eff["amount"]
            self.count("fortune:" + FORTUNE[f]["design"])
            me["fortunes"].remove(f)
        for f in sorted(fortunes):  # R69.1, R80: discarded at the same step, ascending ids
            self.bottom(w, f)
        h = max(0, card["hours"] + sums["job_hours"])  # R73
        w["hours"] -= h
        self.count("job")
        # R69.2: enter as an occupation or a takeover (R57, R61-R63)
        block = self.city.block_of[parse_cell(a["block"])]
        m = 0
        for s, n in a["from"].items():
            self.add(w, s, seat, -n)
            m += n
        owner, d = self.held(w, block)
        me["supply"] += 0
        if owner is not None and owner != seat:
            self.count("job:takeover")
            w["gangsters"].pop(block)
            w["pl"][owner]["supply"] += d
            me["supply"] += d
            self.add(w, block, seat, m - d)
            self.bury(w, seat, d)
            me["prestige"] += 1
        else:
            self.add(w, block, seat, m)
        me["jobs"].remove(a["card"])
        self.ctx = {"what": "job", "player": seat, "job": a["card"], "block": block, "prestige": card["prestige"]}
        self.ctx["prestige_sum"] = sums["job_prestige"]
        news = self.draw(w, "newsflashes", 1)
        if not news:  # Q41
            self.count("newsflash:none_left")
            self.job_end(w)
            return
        self.count("newsflash:" + NEWS[news[0]]["design"])
        self.ctx["card"] = news[0]
        self.resolve(w)

    def fortune(self, w: dict[str, Any], seat: str, a: Mapping[str, Any]) -> None:
        card = a["card"]
        w["pl"][seat]["fortunes"].remove(card)
        self.count("fortune:" + FORTUNE[card]["design"])
        self.ctx = {"what": "fortune", "player": seat, "card": card, "params": dict(a)}
        self.resolve(w)

    def resolve(self, w: dict[str, Any]) -> None:
        """R89: target, reaction window, then the effect (or the destiny's placement)."""
        ctx = self.ctx
        assert ctx is not None
        d = design(ctx["card"])
        player = ctx["player"]
        t = d["target"]
        if t == "self":
            ctx["target"] = player
        elif t == "chosen_other":
            if ctx["what"] == "fortune":
                ctx["target"] = ctx["params"]["target"]
            else:
                others = [p for p in w["players"] if p != player]
                if len(others) > 1:  # R90, R108: only one other player is chosen at once
                    ctx["target"] = None
                    w["expect"] = ("target", player)
                    return
                ctx["target"] = others[0]
        elif t == "block_occupant":
            block = self.city.block_of[parse_cell(ctx["params"]["block"])]
            ctx["block"] = block
            ctx["target"] = self.held(w, block)[0]
        elif t == "street_occupant":
            ctx["target"] = self.held(w, ctx["params"]["street"])[0]
        else:
            ctx["target"] = None
        self.after_target(w)

    def after_target(self, w: dict[str, Any]) -> None:
        ctx = self.ctx
        assert ctx is not None
        d = design(ctx["card"])
        if d["defendable"] and ctx["target"] is not None:  # R92: the window opens whatever the hand holds
            w["expect"] = ("react", ctx["target"])
            return
        self.apply(w)

    def apply(self, w: dict[str, Any]) -> None:
        """R89.4, R94, R97."""
        ctx = self.ctx
        assert ctx is not None
        card = ctx["card"]
        d = design(card)
        eff = d["effect"]
        k = eff["kind"]
        player = ctx["player"]
        me = w["pl"][player]
        if d["destiny"]:
            w["pl"][ctx["target"]]["destinies"].append(card)
            self.count("destiny_placed")
            self.finish(w)
            return
        self.count("effect:" + k)
        if k == "prestige":
            me["prestige"] += eff["amount"]
        elif k == "job_prestige":
            ctx["prestige_sum"] += eff["amount"]
        elif k == "hours":
            w["hours"] = max(0, w["hours"] + eff["amount"])
        elif k == "draw_fortunes":
            got = self.draw(w, "fortunes", eff["count"])
            if len(got) < eff["count"]:
                self.count("draw_fortunes:deck_short")  # R79, E22: yields what is left, maybe nothing
            me["fortunes"] += got
        elif k == "recruit" and ctx["what"] == "fortune":
            block = self.own_block(w, player, ctx["params"]["to"])
            assert block is not None
            for _ in range(eff["count"]):
                if me["supply"] > 0 and self.held(w, block)[1] < 3:
                    me["supply"] -= 1
                    self.add(w, block, player, 1)
        elif k == "recruit":  # a newsflash: Headquarters, else Safe House, else nothing; `all` in seat order
            i = w["players"].index(player)
            order = [w["players"][(i + j) % len(w["players"])] for j in range(len(w["players"]))]
            for p in order if d["target"] == "all" else [player]:
                for _ in range(eff["count"]):
                    pl = w["pl"][p]
                    if pl["supply"] < 1:
                        break
                    for kind in ("hq", "sh"):
                        b = self.own_block(w, p, kind)
                        if b is not None and self.held(w, b)[1] < 3:
                            pl["supply"] -= 1
                            self.add(w, b, p, 1)
                            self.count("recruit:" + kind)
                            break
        elif k == "raid":
            n = min(eff["count"], self.held(w, ctx["block"])[1] if self.held(w, ctx["block"])[0] == player else 0)
            self.add(w, ctx["block"], player, -n)
            me["supply"] += n
        elif k == "send_home":  # E1: sections in ascending string order
            hq = self.own_block(w, player, "hq")
            assert hq is not None
            for s in sorted(self.city.block_streets(ctx["block"])):
                owner, n = self.held(w, s)
                if owner != player:
                    continue
                self.add(w, s, player, -n)
                for _ in range(n):
                    if self.held(w, hq)[1] < 3:
                        self.add(w, hq, player, 1)
                        self.count("send_home:hq")
                    else:
                        me["supply"] += 1
                        self.count("send_home:supply")
        elif k in ("bomb", "hit"):
            loc = ctx["block"] if k == "bomb" else ctx["params"]["street"]
            victim, have = self.held(w, loc)
            assert victim is not None and victim != player
            n = min(eff["count"], have)
            self.add(w, loc, victim, -n)
            w["pl"][victim]["supply"] += n
            self.bury(w, player, n)
        else:
            assert k == "none", k
        self.bottom(w, card)
        self.finish(w)

    def finish(self, w: dict[str, Any]) -> None:
        """R89.5: the interrupted procedure goes on."""
        assert self.ctx is not None
        if self.ctx["what"] == "job":
            self.job_end(w)
        self.ctx = None
        w["expect"] = ("turn", w["active"])

    def job_end(self, w: dict[str, Any]) -> None:
        ctx = self.ctx
        assert ctx is not None
        me = w["pl"][ctx["player"]]
        me["prestige"] += max(0, ctx["prestige"] + ctx["prestige_sum"])  # R69.4, R73
        self.bottom(w, ctx["job"])
        me["jobs"] += self.draw(w, "jobs", 1)  # R69.5
        self.ctx = None
        w["expect"] = ("turn", w["active"])


FIELDS = ("prestige", "bodies", "supply", "jobs", "fortunes", "destinies", "drawn")


def diff(mine: Mapping[str, Any], eng: Mapping[str, Any], paused_job: str | None) -> list[str]:
    """The fields that differ. While a job waits for a decision, where its card lies is not said by the spec
    (it is shown at step 1 and discarded at step 4), so it is left out of hands and decks."""
    out = []

    def norm(cards: Sequence[str]) -> list[str]:
        return [c for c in cards if c != paused_job]

    for p in mine["pl"]:
        for f in FIELDS:
            a, b = mine["pl"][p][f], eng["pl"][p][f]
            if f in ("jobs", "fortunes"):
                a, b = sorted(norm(a)), sorted(norm(b))
            if a != b:
                out.append(f"{p}.{f}: spec {a} engine {b}")
    for deck in ("jobs", "newsflashes", "fortunes"):
        if norm(mine["decks"][deck]) != norm(eng["decks"][deck]):
            out.append(f"deck {deck}: spec {mine['decks'][deck][-4:]} engine {eng['decks'][deck][-4:]}")
    if mine["hours"] != eng["hours"]:
        out.append(f"hours: spec {mine['hours']} engine {eng['hours']}")
    if mine["gangsters"] != eng["gangsters"]:
        keys = set(mine["gangsters"]) | set(eng["gangsters"])
        d = {k: (mine["gangsters"].get(k), eng["gangsters"].get(k)) for k in keys}
        out.append(f"gangsters: { ({k: v for k, v in d.items() if v[0] != v[1]}) }")
    pend = eng["pending"]
    got = None if pend is None else (pend["kind"], pend.get("player"))
    if got != tuple(mine["expect"]) and not (mine["expect"][0] == "turn" and pend is None):
        out.append(f"pending: spec {mine['expect']} engine {got}")
    return out


def view_diff(mine: Mapping[str, Any], view: Mapping[str, Any], paused: bool) -> list[str]:
    """The public view after the step against the model (replay.md "Views"): counts of hands and decks,
    destinies, supplies, prestige, body counts, tombstones, the hours left."""
    out = []
    for p, v in view["players"].items():
        pl = mine["pl"][p]
        want = {
            "prestige": pl["prestige"],
            "bodies": pl["bodies"],
            "supply": pl["supply"],
            "fortunes": len(pl["fortunes"]),
            "destinies": pl["destinies"],
        }
        if not paused:
            want["jobs"] = len(pl["jobs"])
        for k, x in want.items():
            if v[k] != x:
                out.append(f"view {p}.{k}: spec {x} engine {v[k]}")
    if not paused:
        decks = {k: len(x) for k, x in mine["decks"].items()}
        if view["decks"] != decks:
            out.append(f"view decks: spec {decks} engine {view['decks']}")
    left = TOMBSTONES - sum(p["bodies"] for p in mine["pl"].values())
    if view["tombstones"] != left:
        out.append(f"view tombstones: spec {left} engine {view['tombstones']}")
    if view["turn"] is not None and view["turn"]["hours"] != mine["hours"]:
        out.append(f"view hours: spec {mine['hours']} engine {view['turn']['hours']}")
    return out


def event_diff(pre: Mapping[str, Any], mine: Mapping[str, Any], events: Sequence[tuple[str, Any]]) -> list[str]:
    """Events against the model: `prestige` events (amount >= 1, E22) add up to each player's gain and carry
    the running total; `drew` events name exactly the cards that came into the hand."""
    out = []
    gained: dict[str, int] = {}
    for kind, data in events:
        if kind == "prestige":
            p = data["player"]
            gained[p] = gained.get(p, 0) + data["amount"]
            if data["amount"] < 1 or data["total"] != pre["pl"][p]["prestige"] + gained[p]:
                out.append(f"prestige event {data}")
    for p in mine["pl"]:
        if gained.get(p, 0) != mine["pl"][p]["prestige"] - pre["pl"][p]["prestige"]:
            out.append(f"prestige events of {p}: {gained.get(p, 0)}")
    return out
