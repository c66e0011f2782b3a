"""The procedures of rulings Appendix A: setup, turns, actions, card resolution, timeouts, the end.

A `Run` applies one accepted action (or the setup, or a turn start) to a state it owns and collects the
events in order. Every decision goes through `decide`, which gives R108's automatic answers and, in a
turn that timed out (R38), the defaults of R109.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .answers import Answer, answers, default, explore_options, setup_placements
from .content import Content, Design
from .ids import DELTA, OPPOSITE, parse_cell
from .state import BUDGET, OVER, PLAY, SETUP, TOMBSTONES, State

Event = tuple[str | None, str, dict[str, Any]]  # (audience: None = all, or a player; kind; fields)
AUTO = ("setup_hq", "setup_tile", "explore", "keep", "target", "destiny")


class Run:
    def __init__(self, content: Content, state: State) -> None:
        self.c = content
        self.s = state
        self.ev: list[Event] = []

    # ---- events ---------------------------------------------------------------------------------------

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        self.ev.append((None, kind, data))

    def emit_to(self, player: str, kind: str, data: dict[str, Any]) -> None:
        self.ev.append((player, kind, data))

    # ---- decks and tiles ------------------------------------------------------------------------------

    def reveal(self) -> None:
        s = self.s
        if s.stack:
            tile = s.stack.pop(0)
            s.revealed.append(tile)
            self.emit("reveal", {"tile": tile})

    def draw(self, deck: str, n: int) -> list[str]:
        cards = self.s.decks[deck][:n]
        del self.s.decks[deck][:n]
        return cards

    def bottom(self, card: str) -> None:
        self.s.decks[self.c.deck_of(card)].append(card)

    def draw_event(self, player: str, deck: str, cards: list[str]) -> None:
        self.emit("draw", {"player": player, "deck": deck, "count": len(cards)})
        self.emit_to(player, "drew", {"player": player, "deck": deck, "cards": list(cards)})

    def place(self, tile: str, cell: str, side: str | None, player: str, reason: str) -> None:
        s, c = self.s, self.c
        older = None
        if side is not None:
            xy = parse_cell(cell)
            assert xy is not None
            dx, dy = DELTA[side]
            partner = s.geo.at.get((xy[0] + dx, xy[1] + dy))
            if partner is not None and s.geo.tiles[partner][1] == OPPOSITE[side]:
                older = s.geo.block_of[partner]
        s.geo = s.geo.with_tile(c, cell, tile, side)
        self.emit("tile_placed", {"player": player, "tile": tile, "cell": cell, "block_side": side, "reason": reason})
        if older is not None:
            new = s.geo.block_of[cell]
            if new != older and older in s.gangsters:
                s.gangsters[new] = s.gangsters.pop(older)
            block = s.geo.blocks[new]
            self.emit("block_formed", {"block": new, "cells": list(block.cells), "names": list(block.names)})

    # ---- setup (R22-R29) ------------------------------------------------------------------------------

    def start_setup(self) -> None:
        s = self.s
        self.reveal()
        self.reveal()
        for p in s.players:
            cards = self.draw("jobs", 2)
            s.pl[p].jobs.extend(cards)
            self.draw_event(p, "jobs", cards)
        self.setup_player(0)

    def setup_player(self, seat: int) -> None:
        s = self.s
        p = s.players[seat]
        s.setup = (seat, 0)
        if seat == 0:
            self.place(self.c.hq(s.color(p)), "0,0", None, p, "hq")
            self.after_hq(p)
        else:
            self.decide("setup_hq", p)

    def after_hq(self, p: str) -> None:
        s = self.s
        block = s.geo.block_of[s.geo.cell_of_tile[self.c.hq(s.color(p))]]
        s.pl[p].supply -= 1
        s.add(block, p, 1)
        self.emit("recruit", {"player": p, "block": block, "hours": 0})
        self.setup_tile_step(p, 1)

    def setup_tile_step(self, p: str, k: int) -> None:
        s = self.s
        seat = s.players.index(p)
        if k <= 2 and setup_placements(self.c, s, p):
            s.setup = (seat, k)
            self.decide("setup_tile", p, step=k)
            return
        if k <= 2:
            self.emit("setup_skipped", {"player": p, "steps": 3 - k})
        if seat + 1 < len(s.players):
            self.setup_player(seat + 1)
            return
        s.setup = None
        s.phase = PLAY
        self.start_turn(s.players[0], BUDGET, 1)

    # ---- turns (R30-R42) ------------------------------------------------------------------------------

    def start_turn(self, p: str, budget: int, number: int) -> None:
        s = self.s
        s.number, s.active, s.hours, s.timed_out = number, p, budget, False
        s.presence = set()
        for loc, (who, _) in s.gangsters.items():
            if who == p and loc[0] not in "hv":
                s.presence.update(s.geo.blocks[loc].cells)
        self.emit("turn_start", {"player": p, "number": number, "hours": budget})
        self.destinies()

    def destinies(self) -> None:
        s = self.s
        p = s.active
        assert p is not None
        lying = s.pl[p].destinies
        if not lying:
            self.decide("turn", p)
            return
        negative = all(self.c.designs[d].effect.kind == "hours" and self.c.designs[d].effect.amount < 0 for d in lying)
        if len(lying) == 1 or negative:
            for d in list(lying):
                self.execute(d)
            self.decide("turn", p)
            return
        self.decide("destiny", p)

    def execute(self, card: str) -> None:
        s = self.s
        p = s.active
        assert p is not None
        s.pl[p].destinies.remove(card)
        self.emit("destiny_executed", {"player": p, "card": card})
        self.effect(self.c.designs[card], card, p, {})
        self.bottom(card)

    def end_turn(self, timeout: bool) -> None:
        s = self.s
        p = s.active
        assert p is not None
        carry = s.hours if (not timeout or s.opts.timeout_time == "pass") else 0
        self.emit("turn_end", {"player": p, "hours_left": s.hours, "carry": carry, "timeout": timeout})
        s.pending = None
        s.presence = set()
        if s.final is not None and s.final["last"] == p:
            self.finish("target")
        else:
            self.start_turn(s.seat_after(p), BUDGET + carry, s.number + 1)

    def finish(self, reason: str) -> None:
        s = self.s
        # A card in the middle of a procedure (an unanswered keep, a card being resolved) stays where it is:
        # out of the decks, shown nowhere (rulings.md of the project: "A host end in the middle of a decision").
        s.phase, s.pending, s.active, s.ended = OVER, None, None, reason
        s.timed_out, s.presence, s.setup = False, set(), None
        self.emit("game_end", {"reason": reason})

    # ---- decisions (R108, R38) ------------------------------------------------------------------------

    def decide(self, kind: str, player: str, **extra: Any) -> None:
        s = self.s
        s.pending = {"kind": kind, "player": player, **extra}
        if kind in AUTO:
            options = answers(self.c, s)
            if len(options) == 1:
                self.answer(player, options[0])
                return
        self.drive()

    def drive(self) -> None:
        """In a turn that timed out, the active player's decisions get their defaults, and `turn` ends it."""
        s = self.s
        p = s.pending
        if p is None or not s.timed_out or s.phase != PLAY or p["player"] != s.active:
            return
        if p["kind"] == "turn":
            self.end_turn(True)
        else:
            self.answer(p["player"], default(self.c, s))

    def timeout(self, player: str) -> None:
        s = self.s
        assert s.pending is not None
        kind = s.pending["kind"]
        self.emit("timeout", {"player": player, "decision": kind})
        if kind in ("setup_hq", "setup_tile", "react"):
            self.answer(player, default(self.c, s))
            return
        s.timed_out = True
        self.drive()

    def answer(self, player: str, a: Answer) -> None:
        """Apply an accepted action of `player` (checked by the caller, or made by the engine)."""
        kind = a["kind"]
        getattr(self, "act_" + kind)(player, a)

    # ---- setup answers ----------------------------------------------------------------------------------

    def act_place_hq(self, p: str, a: Answer) -> None:
        self.place(self.c.hq(self.s.color(p)), a["cell"], None, p, "hq")
        self.after_hq(p)

    def act_setup_tile(self, p: str, a: Answer) -> None:
        s = self.s
        assert s.setup is not None
        k = s.setup[1]
        s.revealed.remove(a["tile"])
        self.place(a["tile"], a["cell"], a.get("block_side"), p, "setup")
        self.reveal()
        self.setup_tile_step(p, k + 1)

    # ---- turn actions -----------------------------------------------------------------------------------

    def act_timeout(self, p: str, a: Answer) -> None:
        self.timeout(p)

    def act_end(self, p: str, a: Answer) -> None:
        self.end_turn(False)

    def act_recruit(self, p: str, a: Answer) -> None:
        s = self.s
        block = self.home(p, a["to"])
        assert block is not None
        s.hours -= 2
        s.pl[p].supply -= 1
        s.add(block, p, 1)
        s.presence.update(s.geo.blocks[block].cells)
        self.emit("recruit", {"player": p, "block": block, "hours": 2})
        self.decide("turn", p)

    def home(self, p: str, which: str) -> str | None:
        """The block id of the player's Headquarters (`hq`) or Safe House (`safe_house`), if placed."""
        s = self.s
        color = s.color(p)
        tile = self.c.hq(color) if which == "hq" else self.c.safe_house(color)
        cell = s.geo.cell_of_tile.get(tile)
        return None if cell is None else s.geo.block_of[cell]

    def act_move(self, p: str, a: Answer) -> None:
        s = self.s
        geo = s.geo
        src, dst, n = geo.canonical(a["from"]), geo.canonical(a["to"]), a["count"]
        cost = move_cost(s, p, dst)
        s.hours -= cost
        s.add(src, p, -n)
        self.emit("move", {"player": p, "from": src, "to": dst, "count": n, "hours": cost})
        held = s.gangsters.get(dst)
        survivors = n
        if held is not None and held[0] != p:
            q, d = held
            k = min(n, d)
            s.add(dst, q, -k)
            s.pl[q].supply += k
            s.pl[p].supply += k
            survivors -= k
            bodies = self.add_bodies(p, k)
            self.emit("ambush", {"player": p, "defender": q, "street": dst, "removed": k, "bodies": bodies})
        if survivors:
            s.add(dst, p, survivors)
            if dst[0] not in "hv":
                s.presence.update(geo.blocks[dst].cells)
        if survivors and dst[0] in "hv" and geo.frontier(dst):
            cell = geo.streets[dst]
            assert cell is not None
            _, any_option = explore_options(self.c, s, p, cell)
            if not any_option:
                self.emit("explore_failed", {"player": p, "street": dst})
            else:
                self.decide("explore", p, street=dst, cell=cell)
                return
        self.decide("turn", p)

    def act_explore(self, p: str, a: Answer) -> None:
        s = self.s
        assert s.pending is not None
        street, cell = s.pending["street"], s.pending["cell"]
        tile = a["tile"]
        if tile is None:
            self.emit("explore_failed", {"player": p, "street": street})
        elif tile in s.revealed:
            s.revealed.remove(tile)
            self.place(tile, cell, a.get("block_side"), p, "explore")
            self.reveal()
        else:
            self.place(tile, cell, None, p, "explore")
        self.decide("turn", p)

    def enter(self, p: str, block: str, sources: dict[str, int]) -> tuple[int, str | None, int, int]:
        """Occupy or take over (R57, R61-R63): the entrants leave their streets; returns (m, defender,
        removed, bodies). The takeover's prestige is the caller's to award after its event."""
        s = self.s
        m = 0
        for street, k in sources.items():
            s.add(street, p, -k)
            m += k
        held = s.gangsters.get(block)
        defender, removed, bodies = None, 0, 0
        if held is not None and held[0] != p:
            defender, removed = held
            s.gangsters.pop(block)
            s.pl[defender].supply += removed
            s.pl[p].supply += removed
            bodies = self.add_bodies(p, removed)
            s.add(block, p, m - removed)
        else:
            s.add(block, p, m)
        s.presence.update(s.geo.blocks[block].cells)
        return m, defender, removed, bodies

    def act_occupy(self, p: str, a: Answer) -> None:
        s = self.s
        block = s.geo.canonical(a["block"])
        sources = dict(a["from"])
        s.hours -= 3
        m, _, _, _ = self.enter(p, block, sources)
        self.emit("occupy", {"player": p, "block": block, "from": sources, "count": m, "hours": 3})
        self.decide("turn", p)

    def act_takeover(self, p: str, a: Answer) -> None:
        s = self.s
        block = s.geo.canonical(a["block"])
        sources = dict(a["from"])
        s.hours -= 3
        m, q, removed, bodies = self.enter(p, block, sources)
        self.emit(
            "takeover",
            {
                "player": p,
                "block": block,
                "from": sources,
                "count": m,
                "hours": 3,
                "defender": q,
                "removed": removed,
                "bodies": bodies,
            },
        )
        self.gain(p, 1, "takeover")
        self.decide("turn", p)

    def act_job(self, p: str, a: Answer) -> None:
        s, c = self.s, self.c
        card = a["card"]
        job = c.jobs[card]
        fortunes = sorted(a.get("fortunes") or [])
        g, h, prestige = effective(c, card, fortunes)
        block = s.geo.canonical(a["block"])
        sources = dict(a["from"])
        me = s.pl[p]
        me.jobs.remove(card)
        for f in fortunes:
            me.fortunes.remove(f)
            self.emit("fortune_played", {"player": p, "card": f, "design": c.designs[f].id, "params": {}})
        s.hours -= h
        for f in fortunes:
            self.bottom(f)
        m, q, removed, bodies = self.enter(p, block, sources)
        self.emit(
            "job",
            {
                "player": p,
                "card": card,
                "location": job.location,
                "block": block,
                "from": sources,
                "count": m,
                "hours": h,
                "fortunes": fortunes,
                "defender": q,
                "removed": removed,
                "bodies": bodies,
            },
        )
        if q is not None:
            self.gain(p, 1, "takeover")
        s.job = {"player": p, "card": card, "block": block, "prestige": prestige}
        drawn = self.draw("newsflashes", 1)
        if not drawn:
            self.job_finish()
            return
        news = drawn[0]
        self.emit("newsflash", {"player": p, "card": news, "design": c.designs[news].id})
        self.resolve(news, {}, "newsflash", p)

    def job_finish(self) -> None:
        s = self.s
        job = s.job
        assert job is not None
        p, card = job["player"], job["card"]
        awarded = max(0, job["prestige"])
        self.emit("job_done", {"player": p, "card": card, "prestige": awarded})
        if awarded > 0:
            self.gain(p, awarded, "job")
        self.bottom(card)
        new = self.draw("jobs", 1)
        s.pl[p].jobs.extend(new)
        self.draw_event(p, "jobs", new)
        s.job = None
        self.decide("turn", p)

    def act_abort(self, p: str, a: Answer) -> None:
        s = self.s
        card = a["card"]
        s.pl[p].jobs.remove(card)
        s.hours -= 3
        self.bottom(card)
        self.emit("abort", {"player": p, "hours": 3})
        self.emit_to(p, "aborted", {"player": p, "card": card})
        drawn = self.draw("jobs", 2)
        s.pl[p].drawn = drawn
        self.draw_event(p, "jobs", drawn)
        if not drawn:
            self.decide("turn", p)
            return
        self.decide("keep", p)

    def act_keep(self, p: str, a: Answer) -> None:
        s = self.s
        me = s.pl[p]
        card = a["card"]
        returned = [x for x in me.drawn if x != card]
        me.jobs.append(card)
        me.drawn = []
        s.decks["jobs"][0:0] = returned
        self.emit("keep", {"player": p})
        self.emit_to(p, "kept", {"player": p, "card": card, "returned": returned})
        self.decide("turn", p)

    def act_invest(self, p: str, a: Answer) -> None:
        s = self.s
        s.hours -= 2
        self.emit("invest", {"player": p, "hours": 2})
        drawn = self.draw("fortunes", 1)
        s.pl[p].fortunes.extend(drawn)
        self.draw_event(p, "fortunes", drawn)
        self.decide("turn", p)

    def act_redraw(self, p: str, a: Answer) -> None:
        s = self.s
        me = s.pl[p]
        cards = sorted(me.jobs)
        self.emit("redraw", {"player": p, "cards": cards})
        me.jobs = []
        for card in cards:
            self.bottom(card)
        drawn = self.draw("jobs", 2)
        me.jobs.extend(drawn)
        self.draw_event(p, "jobs", drawn)
        self.decide("turn", p)

    def act_fortune(self, p: str, a: Answer) -> None:
        s, c = self.s, self.c
        card = a["card"]
        d = c.designs[card]
        params: dict[str, Any] = {}
        for key in ("to", "block", "street", "target"):
            if key in a:
                params[key] = s.geo.canonical(a[key]) if key == "block" else a[key]
        s.pl[p].fortunes.remove(card)
        self.emit("fortune_played", {"player": p, "card": card, "design": d.id, "params": dict(params)})
        self.resolve(card, params, "fortune", p)

    def act_destiny(self, p: str, a: Answer) -> None:
        self.execute(a["card"])
        self.destinies()

    # ---- resolving a card (R89-R97) ----------------------------------------------------------------------

    def resolve(self, card: str, params: dict[str, Any], origin: str, actor: str) -> None:
        s = self.s
        d = self.c.designs[card]
        s.res = {"card": card, "params": params, "origin": origin, "actor": actor, "target": params.get("target")}
        if d.target == "chosen_other" and s.res["target"] is None:
            self.decide("target", actor, card=card)
            return
        self.after_target()

    def act_target(self, p: str, a: Answer) -> None:
        s = self.s
        assert s.res is not None
        s.res["target"] = a["player"]
        self.emit("target_chosen", {"player": p, "card": s.res["card"], "target": a["player"]})
        self.after_target()

    def directed_at(self, d: Design, res: dict[str, Any]) -> str | None:
        s = self.s
        if d.target == "self":
            return str(res["actor"])
        if d.target == "chosen_other":
            return str(res["target"])
        if d.target == "block_occupant":
            held = s.gangsters.get(res["params"]["block"])
            return None if held is None else held[0]
        if d.target == "street_occupant":
            held = s.gangsters.get(res["params"]["street"])
            return None if held is None else held[0]
        return None

    def after_target(self) -> None:
        s = self.s
        res = s.res
        assert res is not None
        d = self.c.designs[res["card"]]
        whom = self.directed_at(d, res)
        if d.defendable and whom is not None:
            s.windows += 1
            self.decide("react", whom, card=res["card"])
            return
        self.settle(False)

    def act_react(self, q: str, a: Answer) -> None:
        s = self.s
        res = s.res
        assert res is not None
        card = a["card"]
        self.emit("reaction", {"player": q, "card": card, "against": res["card"]})
        cancelled = False
        if card is not None:
            s.pl[q].fortunes.remove(card)
            self.bottom(card)
            cancelled = self.c.designs[card].effect.kind == "defend"
        self.settle(cancelled)

    def settle(self, cancelled: bool) -> None:
        s = self.s
        res = s.res
        assert res is not None
        card = res["card"]
        d = self.c.designs[card]
        if cancelled:
            self.emit("cancelled", {"card": card})
            self.bottom(card)
        elif d.destiny:
            whom = self.directed_at(d, res)
            assert whom is not None
            s.pl[whom].destinies.append(card)
            self.emit("destiny_placed", {"player": whom, "card": card})
        else:
            self.effect(d, card, res["actor"], res["params"])
            self.bottom(card)
        s.res = None
        if res["origin"] == "newsflash":
            self.job_finish()
        else:
            self.decide("turn", res["actor"])

    def effect(self, d: Design, card: str, actor: str, params: dict[str, Any]) -> None:
        """R97: the effect of a card acting on `actor` (for a destiny: the player in front of whom it lay)."""
        s = self.s
        e = d.effect
        kind = e.kind
        if kind == "prestige":
            self.gain(actor, e.amount, "card")
        elif kind == "job_prestige":
            if s.job is not None:
                s.job["prestige"] += e.amount
                self.emit("job_prestige", {"player": actor, "card": card, "amount": e.amount})
        elif kind == "hours":
            change = max(-s.hours, e.amount)
            s.hours += change
            self.emit("hours", {"player": s.active, "amount": change, "hours": s.hours})
        elif kind == "recruit":
            self.effect_recruit(d, actor, params)
        elif kind == "draw_fortunes":
            drawn = self.draw("fortunes", e.count)
            s.pl[actor].fortunes.extend(drawn)
            self.draw_event(actor, "fortunes", drawn)
        elif kind == "raid":
            assert s.job is not None
            block = s.job["block"]
            k = min(e.count, s.count(block, actor))
            s.add(block, actor, -k)
            s.pl[actor].supply += k
            self.emit("removed", {"player": actor, "at": block, "count": k, "by": None, "bodies": 0})
        elif kind == "send_home":
            assert s.job is not None
            hq = self.home(actor, "hq")
            assert hq is not None
            for street in sorted(s.geo.blocks[s.job["block"]].streets):
                n = s.count(street, actor)
                if not n:
                    continue
                home = min(n, max(0, 3 - s.total(hq)))
                s.add(street, actor, -n)
                if home:
                    s.add(hq, actor, home)
                    if actor == s.active:
                        s.presence.update(s.geo.blocks[hq].cells)
                s.pl[actor].supply += n - home
                self.emit("sent_home", {"player": actor, "from": street, "home": home, "supply": n - home})
        elif kind in ("bomb", "hit"):
            at = params["block"] if kind == "bomb" else params["street"]
            held = s.gangsters.get(at)
            if held is not None and held[0] != actor:
                q = held[0]
                k = min(e.count, held[1])
                s.add(at, q, -k)
                s.pl[q].supply += k
                bodies = self.add_bodies(actor, k)
                self.emit("removed", {"player": q, "at": at, "count": k, "by": actor, "bodies": bodies})

    def effect_recruit(self, d: Design, actor: str, params: dict[str, Any]) -> None:
        s = self.s
        if d.deck == "fortunes":
            who = [actor]
        elif d.target == "all":
            assert s.active is not None
            who, q = [s.active], s.seat_after(s.active)
            while q != s.active:
                who.append(q)
                q = s.seat_after(q)
        else:
            who = [actor]
        for p in who:
            for _ in range(d.effect.count):
                if s.pl[p].supply <= 0:
                    break
                if d.deck == "fortunes":
                    block = self.home(p, params["to"])
                    if block is None or s.total(block) >= 3:
                        break
                else:
                    block = self.home(p, "hq")
                    if block is None or s.total(block) >= 3:
                        block = self.home(p, "safe_house")
                        if block is None or s.total(block) >= 3:
                            break
                s.pl[p].supply -= 1
                s.add(block, p, 1)
                if p == s.active:
                    s.presence.update(s.geo.blocks[block].cells)
                self.emit("recruit", {"player": p, "block": block, "hours": 0})

    # ---- counters (R99-R104) ----------------------------------------------------------------------------

    def gain(self, q: str, amount: int, reason: str) -> None:
        s = self.s
        me = s.pl[q]
        me.prestige += amount
        self.emit("prestige", {"player": q, "amount": amount, "reason": reason, "total": me.prestige})
        if s.phase != PLAY or s.final is not None:
            return
        # R100/E18: checked after every gain, anyone's; a start may hold a player at T already (the gainer first).
        at = [p for p in (q, *s.players) if s.pl[p].prestige >= s.opts.target_prestige]
        if at:
            assert s.active is not None
            last = s.seat_before(s.active)
            s.final = {"triggered_by": at[0], "on_turn_of": s.active, "last": last}
            self.emit("final_round", {"player": at[0], "last": last})

    def add_bodies(self, q: str, k: int) -> int:
        s = self.s
        k = min(k, TOMBSTONES - s.bodies_total())
        s.pl[q].bodies += k
        return k


def move_cost(s: State, p: str, dst: str) -> int:
    """R47, R48: 1 hour for the group; 0 onto a section holding the player's gangsters, or into a block."""
    if dst[0] not in "hv":
        return 0
    return 0 if s.count(dst, p) > 0 else 1


def effective(c: Content, card: str, fortunes: Sequence[str]) -> tuple[int, int, int]:
    """R73: the job's gangsters, hours and prestige after the job fortunes (bounds applied to the sums)."""
    job = c.jobs[card]
    g, h, p = job.gangsters, job.hours, job.prestige
    for f in fortunes:
        e = c.designs[f].effect
        if e.kind == "job_gangsters":
            g += e.amount
        elif e.kind == "job_hours":
            h += e.amount
        elif e.kind == "job_prestige":
            p += e.amount
    return max(1, g), max(0, h), p


def new_game(content: Content, players: tuple[str, ...], opts: Any, orders: dict[str, list[str]]) -> Run:
    """Setup from the chance orders (tiles, jobs, newsflashes, fortunes; top first)."""
    s = State(content, players, opts)
    s.stack = list(orders["tiles"])
    for deck in ("jobs", "newsflashes", "fortunes"):
        s.decks[deck] = list(orders[deck])
    run = Run(content, s)
    run.start_setup()
    return run


__all__ = ["AUTO", "Event", "Run", "SETUP", "effective", "move_cost", "new_game"]
