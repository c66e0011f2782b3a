"""Legality (replay.md "Refusals"): the first code that applies, in the stated order (Q48).

`check(content, state, player, action)` takes an action that `actions.read_action` accepted and returns
None or `(code, message)`; the message names the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import ANSWERS, malformed
from .content import Content
from .engine import effective, move_cost
from .ids import parse_cell
from .state import OVER, State

Refusal = tuple[str, str]


class No(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


def check(c: Content, s: State, player: str | None, a: Mapping[str, Any]) -> Refusal | None:
    try:
        _check(c, s, player, a)
    except No as no:
        return no.code, no.message
    return None


def wrong_decision(decision: str, kind: str) -> str | None:
    """Why an action of `kind` cannot answer `decision`, or None; read before any other field of the action."""
    if kind != "timeout" and kind not in ANSWERS[decision]:
        return f"The decision is {decision}; {kind} does not answer it (R108)."
    return None


def _check(c: Content, s: State, player: str | None, a: Mapping[str, Any]) -> None:
    if s.phase == OVER:
        raise No("game_over", "The game has ended.")
    pending = s.pending
    assert pending is not None
    if player != pending["player"]:
        raise No("not_your_turn", f"It is {pending['player']}'s decision ({pending['kind']}), not yours (R108).")
    kind = a["kind"]
    wrong = wrong_decision(pending["kind"], kind)
    if wrong:
        raise No("wrong_decision", wrong)
    why = malformed(c, a, s.geo.canonical)
    if why:
        raise No("malformed", why)
    assert player is not None
    getattr(_Checks(c, s, player), kind)(a)


class _Checks:
    def __init__(self, c: Content, s: State, player: str) -> None:
        self.c, self.s, self.p = c, s, player

    # ---- helpers -----------------------------------------------------------------------------------------

    def time(self, cost: int) -> None:
        if cost > self.s.hours:
            raise No("time", f"not enough hours: this costs {cost}, {self.s.hours} left (R33).")

    def home(self, which: str) -> str | None:
        s = self.s
        tile = (self.c.hq if which == "hq" else self.c.safe_house)(s.color(self.p))
        cell = s.geo.cell_of_tile.get(tile)
        return None if cell is None else s.geo.block_of[cell]

    def block_at(self, cell: str) -> str:
        block = self.s.geo.block_of.get(cell)
        if block is None:
            raise No("bad_location", f"There is no tile on {cell}.")
        return block

    def sources(self, block: str, sources: Mapping[str, int], code_adjacent: bool = True) -> int:
        """`from` of occupy, takeover and job: not_adjacent, then no_gangsters; returns the total."""
        b = self.s.geo.blocks[block]
        for street in sources:
            if street not in b.streets:
                raise No("not_adjacent", f"{street} is not one of the block's streets (R56).")
        for street, n in sources.items():
            if self.s.count(street, self.p) < n:
                raise No("no_gangsters", f"You do not have {n} gangsters on {street}.")
        return sum(sources.values())

    def bad_sources(self, sources: Mapping[str, int]) -> None:
        for street in sources:
            if street not in self.s.geo.streets:
                raise No("bad_location", f"There is no street section {street}.")

    # ---- setup -------------------------------------------------------------------------------------------

    def place_hq(self, a: Mapping[str, Any]) -> None:
        s, c = self.s, self.c
        cell = a["cell"]
        if cell in s.geo.tiles:
            raise No("illegal_placement", f"{cell} already holds a tile.")
        xy = parse_cell(cell)
        if xy is None or xy not in s.geo.empty_adjacent():
            raise No("not_adjacent", "A Headquarters goes next to a placed tile (R25).")
        if not s.geo.fits(c, c.hq(s.color(self.p)), None, xy):
            raise No("illegal_placement", "A block side faces that cell: a Headquarters cannot go there (R13).")

    def setup_tile(self, a: Mapping[str, Any]) -> None:
        s, c = self.s, self.c
        tile, cell = a["tile"], a["cell"]
        if tile not in s.revealed:
            raise No("not_available", f"{tile} is not in the revealed row (R27).")
        hq = s.geo.cell_of_tile[c.hq(s.color(self.p))]
        hx, hy = s.geo.xy[hq]
        xy = parse_cell(cell)
        if xy is None or abs(xy[0] - hx) + abs(xy[1] - hy) != 1:
            raise No("not_adjacent", "Setup tiles go next to your own Headquarters (R27).")
        if xy in s.geo.at or not s.geo.fits(c, tile, a.get("block_side"), xy):
            raise No("illegal_placement", "The tile cannot go there that way: sides must match (R13).")

    # ---- turn actions ------------------------------------------------------------------------------------

    def timeout(self, a: Mapping[str, Any]) -> None:
        return

    def end(self, a: Mapping[str, Any]) -> None:
        return

    def recruit(self, a: Mapping[str, Any]) -> None:
        s = self.s
        block = self.home(a["to"])
        if block is None:
            raise No("bad_target", "Your Safe House is not placed (R43).")
        if s.pl[self.p].supply <= 0:
            raise No("no_gangsters", "Your supply is empty (R43).")
        if s.total(block) >= 3:
            raise No("capacity", "That block already holds 3 gangsters (R43).")
        self.time(2)

    def move(self, a: Mapping[str, Any]) -> None:
        s = self.s
        geo = s.geo
        src, dst = geo.location(a["from"]), geo.location(a["to"])
        if src is None:
            raise No("bad_location", f"{a['from']} is not in the city.")
        if dst is None:
            raise No("bad_location", f"{a['to']} is not in the city.")
        n = a["count"]
        if s.count(src, self.p) < n:
            raise No("no_gangsters", f"You do not have {n} gangsters at {src}.")
        src_street, dst_street = src[0] in "hv", dst[0] in "hv"
        if src_street and dst_street:
            ok = dst in geo.adjacent[src]
        elif src_street:
            ok = src in geo.blocks[dst].streets
        elif dst_street:
            ok = dst in geo.blocks[src].streets
        else:
            ok = False
        if not ok:
            raise No("not_adjacent", f"{dst} is not next to {src} (R45).")
        if not dst_street:
            b = geo.blocks[dst]
            mine = s.owner_of_color(b.color) == self.p if b.kind != "city" else s.count(dst, self.p) > 0
            if not mine:
                raise No("not_yours", "A move enters only your Headquarters, Safe House or a block you occupy (R45).")
            if s.count(dst, self.p) + n > 3:
                raise No("capacity", "A block holds at most 3 gangsters (R21).")
        elif s.total(dst) + n > 3:
            raise No("capacity", "A street section holds at most 3 gangsters, counting every gang (R20).")
        self.time(move_cost(s, self.p, dst))

    def _city_block(self, a: Mapping[str, Any], code: str) -> str:
        block = self.block_at(a["block"])
        self.bad_sources(a["from"])
        b = self.s.geo.blocks[block]
        if b.kind != "city":
            raise No(code, "Headquarters and Safe Houses cannot be entered that way (R17).")
        return block

    def occupy(self, a: Mapping[str, Any]) -> None:
        s = self.s
        block = self._city_block(a, "protected")
        if s.total(block) > 0:
            raise No("not_empty", "Only an empty city block can be occupied (R56).")
        m = self.sources(block, a["from"])
        if not 1 <= m <= 3:
            raise No("count", "Occupy with 1, 2 or 3 gangsters (R56).")
        self.time(3)

    def takeover(self, a: Mapping[str, Any]) -> None:
        s = self.s
        block = self._city_block(a, "protected")
        held = s.gangsters.get(block)
        if held is None or held[0] == self.p:
            raise No("not_occupied", "Take over a city block another player occupies (R59).")
        m = self.sources(block, a["from"])
        if not 1 <= m - held[1] <= 3:
            raise No("count", f"Bring 1 to 3 more gangsters than the {held[1]} defenders (R59).")
        self.time(3)

    def job(self, a: Mapping[str, Any]) -> None:
        s, c = self.s, self.c
        me = s.pl[self.p]
        card = a["card"]
        fortunes = a.get("fortunes") or []
        if card not in me.jobs:
            raise No("no_card", f"You do not hold {card}.")
        for f in fortunes:
            if f not in me.fortunes:
                raise No("no_card", f"You do not hold {f}.")
        for f in fortunes:
            if c.designs[f].timing != "job":
                raise No("wrong_timing", f"{f} is not played with a job (R86).")
        block = self.block_at(a["block"])
        self.bad_sources(a["from"])
        b = s.geo.blocks[block]
        job = c.jobs[card]
        if b.kind != "city" or job.location not in b.names:
            raise No("location", f"{card} needs a {c.locations[job.location].name} city block (R65).")
        if any(cell in s.presence for cell in b.cells):
            raise No("presence", "You had a gangster in that block this turn (R66).")
        m = self.sources(block, a["from"])
        g, h, _ = effective(c, card, fortunes)
        held = s.gangsters.get(block)
        d = held[1] if held is not None and held[0] != self.p else 0
        if not g <= m - d <= max(3, g):
            raise No("count", f"The job needs {g} gangsters in the block afterwards, at most {max(3, g)} (R67).")
        self.time(h)

    def abort(self, a: Mapping[str, Any]) -> None:
        if a["card"] not in self.s.pl[self.p].jobs:
            raise No("no_card", f"You do not hold {a['card']}.")
        self.time(3)

    def invest(self, a: Mapping[str, Any]) -> None:
        if not self.s.decks["fortunes"]:
            raise No("deck_empty", "The fortune deck is empty (R75).")
        self.time(2)

    def redraw(self, a: Mapping[str, Any]) -> None:
        jobs = self.s.pl[self.p].jobs
        if len(jobs) != 2 or self.c.jobs[jobs[0]].location != self.c.jobs[jobs[1]].location:
            raise No("not_identical", "Only two jobs for the same location can be redrawn (R77).")

    def fortune(self, a: Mapping[str, Any]) -> None:
        s, c = self.s, self.c
        card = a["card"]
        if card not in s.pl[self.p].fortunes:
            raise No("no_card", f"You do not hold {card}.")
        d = c.designs[card]
        if d.timing != "turn":
            raise No("wrong_timing", f"{card} is not played on its own (R86).")
        kind = d.effect.kind
        if kind == "recruit":
            block = self.home(a["to"])
            if block is None:
                raise No("bad_target", "Your Safe House is not placed.")
            if s.pl[self.p].supply <= 0:
                raise No("no_gangsters", "Your supply is empty.")
            if s.total(block) >= 3:
                raise No("capacity", "That block already holds 3 gangsters (R96).")
        elif kind == "bomb":
            block = self.block_at(a["block"])
            held = s.gangsters.get(block)
            if held is None or held[0] == self.p:
                raise No("bad_target", "No other player's gangsters are in that block (R97.11).")
            if not any(s.count(st, self.p) > 0 for st in s.geo.blocks[block].streets):
                raise No("not_adjacent", "You need a gangster on one of the block's streets (R97.11).")
        elif kind == "hit":
            street = a["street"]
            if street not in s.geo.streets:
                raise No("bad_location", f"There is no street section {street}.")
            held = s.gangsters.get(street)
            if held is None or held[0] == self.p:
                raise No("bad_target", "No other player's gangsters are on that section (R97.12).")
            if not any(s.count(st, self.p) > 0 for st in s.geo.adjacent[street]):
                raise No("not_adjacent", "You need a gangster on an adjacent section (R97.12).")
        if d.target == "chosen_other" and a["target"] == self.p:
            raise No("bad_target", "Choose another player (R90).")

    # ---- other decisions ---------------------------------------------------------------------------------

    def explore(self, a: Mapping[str, Any]) -> None:
        s, c = self.s, self.c
        pending = s.pending
        assert pending is not None
        xy = parse_cell(pending["cell"])
        assert xy is not None
        tile = a["tile"]
        if tile is None:
            if any(s.geo.orientations(c, t, xy) for t in s.revealed):
                raise No("not_available", "A revealed tile fits: you must explore (R53).")
            return
        own = c.safe_house(s.color(self.p))
        if tile in s.revealed:
            pass
        elif (
            c.tiles[tile].kind == "safe_house"
            and tile not in s.geo.cell_of_tile
            and (tile == own or (not s.revealed and s.owner_of_color(c.tiles[tile].color) is not None))
        ):
            pass
        else:
            raise No("not_available", f"{tile} is not yours to place now (R53).")
        if not s.geo.fits(c, tile, a.get("block_side"), xy):
            raise No("illegal_placement", f"{tile} cannot go on {pending['cell']} that way (R13).")

    def keep(self, a: Mapping[str, Any]) -> None:
        if a["card"] not in self.s.pl[self.p].drawn:
            raise No("not_available", "Keep one of the two cards you drew (R74).")

    def target(self, a: Mapping[str, Any]) -> None:
        if a["player"] == self.p:
            raise No("bad_target", "Choose another player (R90).")

    def react(self, a: Mapping[str, Any]) -> None:
        card = a["card"]
        if card is None:
            return
        if card not in self.s.pl[self.p].fortunes:
            raise No("no_card", f"You do not hold {card}.")
        if self.c.designs[card].timing != "reaction":
            raise No("wrong_timing", f"{card} is not a reaction (R86).")

    def destiny(self, a: Mapping[str, Any]) -> None:
        if a["card"] not in self.s.pl[self.p].destinies:
            raise No("not_available", f"{a['card']} is not a destiny lying in front of you (R41).")
