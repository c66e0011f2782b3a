"""An independent reading of Crimopolis's legality (spec/crimopolis: rulings.md, errata.md, replay.md
"Refusals"): given what the views show and a candidate action, the refusal code the spec requires, or None.

Written from the spec's text, not from `rules/crimopolis/`: it reads the content pack's JSON files itself,
rebuilds the geometry from the placed tiles (R7-R18), and keeps the turn's presence history (R35) from the
states it is shown (`Tracker`). Only the views (public and per seat) and the events are used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

SPEC = Path("/work/shared/spec/crimopolis/content")
if not SPEC.is_dir():  # the pack is also shipped with the package; same files
    SPEC = Path(__file__).resolve().parents[3] / "rules" / "crimopolis" / "content"


def _load(name: str) -> Any:
    return json.loads((SPEC / name).read_text())


_TILES = _load("tiles.json")
CITY_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in _TILES["city_tiles"]}
GANG_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in _TILES["gang_tiles"]}
JOBS: dict[str, dict[str, Any]] = {j["id"]: j for j in _load("jobs.json")["jobs"]}
FORTUNE: dict[str, dict[str, Any]] = {c: d for d in _load("fortunes.json")["designs"] for c in d["cards"]}
NEWS: dict[str, dict[str, Any]] = {c: d for d in _load("newsflashes.json")["designs"] for c in d["cards"]}
COLORS = ("yellow", "green", "red", "blue", "black")
SIDES = ("N", "E", "S", "W")
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

_INT = r"(?:0|-?[1-9][0-9]*)"
CELL_RE = re.compile(rf"^{_INT},{_INT}$")
STREET_RE = re.compile(rf"^[hv]:{_INT},{_INT}$")

# replay.md "Actions": the fields of every kind (E10); `?` marks the optional ones
FIELDS: dict[str, tuple[str, ...]] = {
    "place_hq": ("cell",),
    "setup_tile": ("tile", "cell", "block_side?"),
    "recruit": ("to",),
    "move": ("from", "to", "count"),
    "occupy": ("block", "from"),
    "takeover": ("block", "from"),
    "job": ("card", "block", "from", "fortunes?"),
    "abort": ("card",),
    "keep": ("card",),
    "invest": (),
    "fortune": ("card", "to?", "block?", "street?", "target?"),
    "redraw": (),
    "end": (),
    "explore": ("tile", "block_side?"),
    "target": ("player",),
    "react": ("card",),
    "destiny": ("card",),
    "timeout": (),
}
TURN = ("recruit", "move", "occupy", "takeover", "job", "abort", "invest", "fortune", "redraw", "end")
ANSWERS = {
    "setup_hq": ("place_hq",),
    "setup_tile": ("setup_tile",),
    "turn": TURN,
    "explore": ("explore",),
    "keep": ("keep",),
    "target": ("target",),
    "react": ("react",),
    "destiny": ("destiny",),
}
COST = {"recruit": 2, "occupy": 3, "takeover": 3, "abort": 3, "invest": 2}  # R32


def parse_cell(c: str) -> tuple[int, int]:
    x, y = c.split(",")
    return int(x), int(y)


def cell_id(x: int, y: int) -> str:
    return f"{x},{y}"


def edge(cell: tuple[int, int], side: str) -> str:
    """R10: h:x,y is the north edge of (x, y), v:x,y its west edge."""
    x, y = cell
    return {"N": f"h:{x},{y}", "S": f"h:{x},{y + 1}", "W": f"v:{x},{y}", "E": f"v:{x + 1},{y}"}[side]


def vertices(street: str) -> set[tuple[int, int]]:
    x, y = parse_cell(street[2:])
    return {(x, y), (x + 1, y)} if street[0] == "h" else {(x, y), (x, y + 1)}


def streets_of_tile(tile: str) -> int:
    return CITY_TILES[tile]["streets"] if tile in CITY_TILES else 4


def side_is_street(tile: str, block_side: str | None, side: str) -> bool:
    return streets_of_tile(tile) == 4 or side != block_side


class City:
    """The geometry of a view's placed tiles, rebuilt from R7-R18."""

    def __init__(self, tiles: Mapping[str, Mapping[str, Any]]) -> None:
        self.at: dict[tuple[int, int], tuple[str, str | None]] = {
            parse_cell(c): (v["tile"], v["block_side"]) for c, v in tiles.items()
        }
        self.streets: dict[str, bool] = {}  # id -> frontier
        for cell, (t, b) in self.at.items():
            for side in SIDES:
                if side_is_street(t, b, side):
                    dx, dy = STEP[side]
                    other = (cell[0] + dx, cell[1] + dy)
                    self.streets[edge(cell, side)] = other not in self.at
        # blocks: a 3-street tile whose block side meets another's block side pairs with it (R14)
        self.block_of: dict[tuple[int, int], str] = {}
        self.block_cells: dict[str, list[tuple[int, int]]] = {}
        for cell in sorted(self.at, key=lambda c: (c[1], c[0])):
            if cell in self.block_of:
                continue
            cells = [cell]
            t, b = self.at[cell]
            if streets_of_tile(t) == 3 and b is not None:
                dx, dy = STEP[b]
                other = (cell[0] + dx, cell[1] + dy)
                if other in self.at:
                    t2, b2 = self.at[other]
                    if streets_of_tile(t2) == 3 and b2 == OPP[b]:
                        cells.append(other)
            bid = cell_id(*min(cells, key=lambda c: (c[1], c[0])))
            for c in cells:
                self.block_of[c] = bid
            self.block_cells[bid] = sorted(cells, key=lambda c: (c[1], c[0]))

    def block_streets(self, bid: str) -> set[str]:
        out = set()
        for cell in self.block_cells[bid]:
            t, b = self.at[cell]
            for side in SIDES:
                if side_is_street(t, b, side):
                    out.add(edge(cell, side))
        return out

    def block_kind(self, bid: str) -> str:
        t = self.at[self.block_cells[bid][0]][0]
        return "city" if t in CITY_TILES else GANG_TILES[t]["kind"]

    def block_color(self, bid: str) -> str | None:
        t = self.at[self.block_cells[bid][0]][0]
        return GANG_TILES[t]["color"] if t in GANG_TILES else None

    def block_names(self, bid: str) -> set[str]:
        return {CITY_TILES[self.at[c][0]]["location"] for c in self.block_cells[bid] if self.at[c][0] in CITY_TILES}

    def fits(self, cell: tuple[int, int], tile: str, block_side: str | None) -> bool:
        """R13: every side facing a placed tile meets a side of the same type."""
        if cell in self.at:
            return False
        for side in SIDES:
            dx, dy = STEP[side]
            nb = self.at.get((cell[0] + dx, cell[1] + dy))
            if nb is None:
                continue
            if side_is_street(tile, block_side, side) != side_is_street(nb[0], nb[1], OPP[side]):
                return False
        return True

    def orientations(self, tile: str) -> tuple[str | None, ...]:
        return SIDES if streets_of_tile(tile) == 3 else (None,)

    def fits_somehow(self, cell: tuple[int, int], tile: str) -> bool:
        return any(self.fits(cell, tile, b) for b in self.orientations(tile))

    def frontier_cell(self, street: str) -> tuple[int, int]:
        x, y = parse_cell(street[2:])
        a, b = ((x, y - 1), (x, y)) if street[0] == "h" else ((x - 1, y), (x, y))
        return b if a in self.at else a


class Tracker:
    """The turn's presence history (R35) as cells, rebuilt from every state the game passes through:
    the cells of every block that holds one of the active player's gangsters at any state of the turn."""

    def __init__(self) -> None:
        self.turn: tuple[int, str] | None = None
        self.cells: set[str] = set()

    def see(self, view: Mapping[str, Any]) -> None:
        turn = view.get("turn")
        if turn is None:
            self.turn = None
            self.cells = set()
            return
        key = (turn["number"], turn["player"])
        if key != self.turn:
            self.turn, self.cells = key, set()
        for b in view["city"]["blocks"].values():
            if turn["player"] in b["gangsters"]:
                self.cells |= set(b["cells"])


class Malformed(Exception):
    pass


def _held(view: Mapping[str, Any], loc: str) -> tuple[str, int] | None:
    g = loc_gangsters(view, loc)
    return next(iter(g.items())) if g else None


def loc_gangsters(view: Mapping[str, Any], loc: str) -> dict[str, int]:
    city = view["city"]
    if loc in city["streets"]:
        return dict(city["streets"][loc]["gangsters"])
    return dict(city["blocks"][loc]["gangsters"])


def expected(view: Mapping[str, Any], private: Mapping[str, Any], presence: set[str], seat: str, a: Any) -> str | None:
    """The refusal code replay.md requires for `a` sent by `seat` (None: legal). `view` is the public view,
    `private` the seat's own private part (`jobs`, `fortunes`, `drawn`)."""
    if view["phase"] == "over":
        return "game_over"
    pending = view["pending"]
    if pending is None or pending["player"] != seat:
        return "not_your_turn"
    if not isinstance(a, dict) or a.get("kind") not in FIELDS:
        return "malformed"  # not an action at all (a format error in a file; `malformed` through `check`)
    kind = a["kind"]
    if kind != "timeout" and kind not in ANSWERS[pending["kind"]]:
        return "wrong_decision"
    city = City(view["city"]["tiles"])
    players = list(view["players"])
    try:
        _malformed(city, players, a)
    except Malformed:
        return "malformed"
    return _Rules(view, private, presence, seat, city).code(a)


def _is_loc(v: Any) -> bool:
    return isinstance(v, str) and (CELL_RE.match(v) is not None or STREET_RE.match(v) is not None)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _malformed(city: City, players: Sequence[str], a: Mapping[str, Any]) -> None:
    kind = a["kind"]
    spec = FIELDS[kind]
    names = {f.rstrip("?") for f in spec}
    for key in a:
        if key != "kind" and key not in names:
            raise Malformed(key)
    for f in spec:
        if not f.endswith("?") and f not in a:
            raise Malformed(f)

    def loc_ok(v: Any) -> str:
        if not _is_loc(v):
            raise Malformed(v)
        return str(v)

    def from_ok(v: Any) -> None:
        if not isinstance(v, dict) or not v:
            raise Malformed("from")
        for k, n in v.items():
            if not _is_loc(k) or not _is_int(n) or STREET_RE.match(k) is None or n < 1:
                raise Malformed("from")

    def card_ok(v: Any, family: Mapping[str, Any]) -> None:
        if not isinstance(v, str) or v not in family:
            raise Malformed(v)

    def named(v: str) -> str:
        if CELL_RE.match(v):
            c = parse_cell(v)
            if c in city.block_of:
                return city.block_of[c]
        return v

    if kind in ("place_hq",):
        if not isinstance(a["cell"], str) or not CELL_RE.match(a["cell"]):
            raise Malformed("cell")
    elif kind == "recruit":
        if a["to"] not in ("hq", "safe_house"):
            raise Malformed("to")
    elif kind == "move":
        f, t = loc_ok(a["from"]), loc_ok(a["to"])
        if not _is_int(a["count"]) or not 1 <= a["count"] <= 3:
            raise Malformed("count")
        if named(f) == named(t):
            raise Malformed("same")
    elif kind in ("occupy", "takeover", "job"):
        b = a["block"]
        if not _is_loc(b) or not CELL_RE.match(b):
            raise Malformed("block")
        from_ok(a["from"])
        if kind == "job":
            card_ok(a["card"], JOBS)
            fs = a.get("fortunes", [])
            if not isinstance(fs, list):
                raise Malformed("fortunes")
            for x in fs:
                card_ok(x, FORTUNE)
            if len(set(fs)) != len(fs):
                raise Malformed("fortunes twice")
    elif kind in ("abort", "keep"):
        card_ok(a["card"], JOBS)
    elif kind == "fortune":
        card_ok(a["card"], FORTUNE)
        if "to" in a and a["to"] not in ("hq", "safe_house"):
            raise Malformed("to")
        if "block" in a and (not _is_loc(a["block"]) or not CELL_RE.match(a["block"])):
            raise Malformed("block")
        if "street" in a and (not _is_loc(a["street"]) or not STREET_RE.match(a["street"])):
            raise Malformed("street")
        if "target" in a and a["target"] not in players:
            raise Malformed("target")
        d = FORTUNE[a["card"]]
        need = set()
        if d["timing"] == "turn":  # parameters by effect (Part 6.2); only `turn` fortunes are played so
            need = {"recruit": {"to"}, "bomb": {"block"}, "hit": {"street"}}.get(d["effect"]["kind"], set())
            if d["target"] == "chosen_other":
                need = need | {"target"}
        given = {k for k in ("to", "block", "street", "target") if k in a}
        if given != need:
            raise Malformed("params")
    elif kind in ("setup_tile", "explore"):
        t = a["tile"]
        if kind == "setup_tile":
            if not isinstance(a["cell"], str) or not CELL_RE.match(a["cell"]):
                raise Malformed("cell")
            if t not in CITY_TILES and t not in GANG_TILES:
                raise Malformed("tile")
        elif t is not None and t not in CITY_TILES and t not in GANG_TILES:
            raise Malformed("tile")
        b = a.get("block_side")
        if b is not None and b not in SIDES:
            raise Malformed("side")
        three = t is not None and streets_of_tile(t) == 3
        if three and b is None:
            raise Malformed("side missing")
        if not three and b is not None:
            raise Malformed("side present")
    elif kind == "target":
        if a["player"] not in players:
            raise Malformed("player")
    elif kind == "react":
        if a["card"] is not None:
            card_ok(a["card"], FORTUNE)
    elif kind == "destiny":
        if not isinstance(a["card"], str) or (a["card"] not in NEWS and a["card"] not in FORTUNE):
            raise Malformed("card")


class _Rules:
    def __init__(
        self, view: Mapping[str, Any], private: Mapping[str, Any], presence: set[str], seat: str, city: City
    ) -> None:
        self.v, self.priv, self.presence, self.p, self.city = view, private, presence, seat, city
        self.me = view["players"][seat]
        self.color = self.me["color"]
        self.hours = view["turn"]["hours"] if view["turn"] else 0

    # ---- locations ------------------------------------------------------------------------------------

    def loc(self, v: str) -> str | None:
        """A location's id (blocks by id), or None when it names nothing in the city (`bad_location`)."""
        if STREET_RE.match(v):
            return v if v in self.city.streets else None
        c = parse_cell(v)
        return self.city.block_of.get(c)

    def own_block(self, kind: str) -> str | None:
        for bid in self.city.block_cells:
            if self.city.block_kind(bid) == kind and self.city.block_color(bid) == self.color:
                return bid
        return None

    def mine(self, loc: str) -> int:
        return loc_gangsters(self.v, loc).get(self.p, 0)

    def total(self, loc: str) -> int:
        return sum(loc_gangsters(self.v, loc).values())

    def code(self, a: Mapping[str, Any]) -> str | None:
        kind = a["kind"]
        if kind in ("end", "timeout"):
            return None
        code: str | None = getattr(self, "k_" + kind)(a)
        return code

    def time(self, cost: int) -> str | None:
        return "time" if cost > self.hours else None

    # ---- turn actions ---------------------------------------------------------------------------------

    def recruit_refusal(self, to: str) -> str | None:
        """A gangster from the supply into the seat's own Headquarters (`hq`) or Safe House: the action's or a
        fortune's."""
        dest = self.own_block("headquarters" if to == "hq" else "safe_house")
        if dest is None:
            return "bad_target"
        if self.me["supply"] == 0:
            return "no_gangsters"
        if self.total(dest) >= 3:
            return "capacity"
        return None

    def k_recruit(self, a: Mapping[str, Any]) -> str | None:
        return self.recruit_refusal(a["to"]) or self.time(2)

    def k_move(self, a: Mapping[str, Any]) -> str | None:
        f, t, n = self.loc(a["from"]), self.loc(a["to"]), a["count"]
        if f is None or t is None:
            return "bad_location"
        if self.mine(f) < n:
            return "no_gangsters"
        fs, ts = f in self.city.streets, t in self.city.streets
        if fs and ts:
            ok = f != t and bool(vertices(f) & vertices(t))
        elif fs:
            ok = f in self.city.block_streets(t)
        elif ts:
            ok = t in self.city.block_streets(f)
        else:
            ok = False  # never block to block (R45)
        if not ok:
            return "not_adjacent"
        if not ts:
            kind = self.city.block_kind(t)
            if kind != "city":
                if self.city.block_color(t) != self.color:
                    return "not_yours"
            elif self.mine(t) == 0:
                return "not_yours"
        if self.total(t) + n > 3:  # R20 (everyone's) and R21 (a block holding 3 or more accepts nobody)
            return "capacity"
        cost = 0 if (not ts or self.mine(t) > 0) else 1  # R47, R48
        return self.time(cost)

    def _entry(self, a: Mapping[str, Any]) -> tuple[str | None, str | None, int]:
        """bad_location for the block then each from section: (code, block id, m)."""
        b = self.loc(a["block"])
        if b is None:
            return "bad_location", None, 0
        for s in a["from"]:
            if self.loc(s) is None:
                return "bad_location", b, 0
        return None, b, sum(a["from"].values())

    def _sources(self, b: str, a: Mapping[str, Any]) -> str | None:
        streets = self.city.block_streets(b)
        if any(s not in streets for s in a["from"]):
            return "not_adjacent"
        if any(self.mine(s) < n for s, n in a["from"].items()):
            return "no_gangsters"
        return None

    def k_occupy(self, a: Mapping[str, Any]) -> str | None:
        no, b, m = self._entry(a)
        if no or b is None:
            return no
        if self.city.block_kind(b) != "city":
            return "protected"
        if self.total(b) > 0:
            return "not_empty"
        no = self._sources(b, a)
        if no:
            return no
        if not 1 <= m <= 3:
            return "count"
        return self.time(3)

    def k_takeover(self, a: Mapping[str, Any]) -> str | None:
        no, b, m = self._entry(a)
        if no or b is None:
            return no
        if self.city.block_kind(b) != "city":
            return "protected"
        held = _held(self.v, b)
        if held is None or held[0] == self.p:
            return "not_occupied"
        no = self._sources(b, a)
        if no:
            return no
        if not 1 <= m - held[1] <= 3:
            return "count"
        return self.time(3)

    def k_job(self, a: Mapping[str, Any]) -> str | None:
        card, fs = a["card"], a.get("fortunes", [])
        if card not in self.priv["jobs"] or any(f not in self.priv["fortunes"] for f in fs):
            return "no_card"
        if any(FORTUNE[f]["timing"] != "job" for f in fs):
            return "wrong_timing"
        no, b, m = self._entry(a)  # E20: bad_location before location
        if no or b is None:
            return no
        job = JOBS[card]
        if self.city.block_kind(b) != "city" or job["location"] not in self.city.block_names(b):
            return "location"
        if any(cell_id(*c) in self.presence for c in self.city.block_cells[b]):
            return "presence"
        no = self._sources(b, a)
        if no:
            return no
        dg = sum(FORTUNE[f]["effect"]["amount"] for f in fs if FORTUNE[f]["effect"]["kind"] == "job_gangsters")
        dh = sum(FORTUNE[f]["effect"]["amount"] for f in fs if FORTUNE[f]["effect"]["kind"] == "job_hours")
        g = max(1, job["gangsters"] + dg)  # R73: bounds on the sums
        h = max(0, job["hours"] + dh)
        held = _held(self.v, b)
        d = 0 if held is None else held[1]  # the block holds no own gangster here (presence)
        if not g <= m - d <= max(3, g):  # R67
            return "count"
        return self.time(h)

    def k_abort(self, a: Mapping[str, Any]) -> str | None:
        if a["card"] not in self.priv["jobs"]:
            return "no_card"
        return self.time(3)

    def k_invest(self, a: Mapping[str, Any]) -> str | None:
        if self.v["decks"]["fortunes"] == 0:
            return "deck_empty"
        return self.time(2)

    def k_redraw(self, a: Mapping[str, Any]) -> str | None:
        jobs = self.priv["jobs"]
        if len(jobs) != 2 or JOBS[jobs[0]]["location"] != JOBS[jobs[1]]["location"]:  # E14
            return "not_identical"
        return None

    def k_fortune(self, a: Mapping[str, Any]) -> str | None:
        card = a["card"]
        if card not in self.priv["fortunes"]:
            return "no_card"
        d = FORTUNE[card]
        if d["timing"] != "turn":
            return "wrong_timing"
        kind = d["effect"]["kind"]
        if kind == "recruit":
            refusal = self.recruit_refusal(a["to"])
            if refusal is not None:
                return refusal
        elif kind in ("bomb", "hit"):  # a rival's block (bomb) or street (hit), next to one of ours
            x = self.loc(a["block"] if kind == "bomb" else a["street"])
            if x is None:
                return "bad_location"
            held = _held(self.v, x)
            if held is None or held[0] == self.p:
                return "bad_target"
            if kind == "bomb":
                near = [s for s in self.city.block_streets(x) if s in self.city.streets]
            else:
                near = [o for o in self.city.streets if o != x and vertices(o) & vertices(x)]
            if not any(self.mine(o) > 0 for o in near):
                return "not_adjacent"
        if d["target"] == "chosen_other" and a["target"] == self.p:
            return "bad_target"
        return None

    # ---- other decisions ------------------------------------------------------------------------------

    def k_place_hq(self, a: Mapping[str, Any]) -> str | None:
        c = parse_cell(a["cell"])
        if c in self.city.at:
            return "illegal_placement"
        if not any((c[0] + dx, c[1] + dy) in self.city.at for dx, dy in STEP.values()):
            return "not_adjacent"
        if not self.city.fits(c, "hq_" + self.color, None):
            return "illegal_placement"
        return None

    def k_setup_tile(self, a: Mapping[str, Any]) -> str | None:
        t, c = a["tile"], parse_cell(a["cell"])
        if t not in self.v["revealed"]:
            return "not_available"
        hq = self.own_block("headquarters")
        assert hq is not None
        h = self.city.block_cells[hq][0]
        if abs(h[0] - c[0]) + abs(h[1] - c[1]) != 1:
            return "not_adjacent"
        if not self.city.fits(c, t, a.get("block_side")):
            return "illegal_placement"
        return None

    def k_explore(self, a: Mapping[str, Any]) -> str | None:
        cell = parse_cell(self.v["pending"]["cell"])
        t, b = a["tile"], a.get("block_side")
        row = self.v["revealed"]
        if t is None:
            if any(self.city.fits_somehow(cell, r) for r in row):
                return "not_available"  # R53(d)
            return None
        placed = {x[0] for x in self.city.at.values()}
        offered = set(row)
        for p in self.v["players"]:
            sh = "sh_" + self.v["players"][p]["color"]
            if sh in placed:
                continue
            if p == self.p or not row:  # R53(b), R53(c)
                offered.add(sh)
        if t not in offered:
            return "not_available"
        if not self.city.fits(cell, t, b):
            return "illegal_placement"  # E6
        return None

    def k_keep(self, a: Mapping[str, Any]) -> str | None:
        return None if a["card"] in self.priv["drawn"] else "not_available"

    def k_target(self, a: Mapping[str, Any]) -> str | None:
        return "bad_target" if a["player"] == self.p else None

    def k_react(self, a: Mapping[str, Any]) -> str | None:
        card = a["card"]
        if card is None:
            return None
        if card not in self.priv["fortunes"]:
            return "no_card"
        if FORTUNE[card]["timing"] != "reaction":
            return "wrong_timing"
        return None

    def k_destiny(self, a: Mapping[str, Any]) -> str | None:
        return None if a["card"] in self.me["destinies"] else "not_available"


# ---- the driver: seeded random games, candidates legal and mutated, compared with GAME.check -----------


def _candidates(view: Mapping[str, Any], private: Mapping[str, Any], seat: str, rng: Any) -> list[dict[str, Any]]:
    """Actions for `seat`'s pending decision, most of them wrong in one or more ways."""
    city = City(view["city"]["tiles"])
    streets = sorted(city.streets)
    cells = sorted(cell_id(*c) for c in city.at)
    near = sorted({cell_id(c[0] + dx, c[1] + dy) for c in city.at for dx, dy in STEP.values()} - set(cells))
    ghost = [f"h:{rng.randint(-6, 6)},{rng.randint(-6, 6)}" for _ in range(3)]
    ghost = [g for g in ghost if g not in city.streets] + ["v:40,40"]
    mine = [loc for loc in streets if seat in view["city"]["streets"][loc]["gangsters"]]
    mine += [b for b, v in view["city"]["blocks"].items() if seat in v["gangsters"]]
    anyloc = streets + cells + near[:4] + ghost
    jobs_held, fort_held = list(private["jobs"]), list(private["fortunes"])
    kind = view["pending"]["kind"]
    out: list[dict[str, Any]] = []

    def pick(xs: Sequence[Any]) -> Any:
        return xs[rng.randrange(len(xs))] if xs else None

    def some_from(block: str) -> dict[str, int]:
        bid = city.block_of.get(parse_cell(block)) if CELL_RE.match(block) else None
        pool = sorted(city.block_streets(bid)) if bid else []
        pool = [s for s in pool if s in city.streets]
        if not pool or rng.random() < 0.15:
            pool = pool + [pick(streets)] + ghost[:1]
        k = rng.randint(1, min(3, len(pool)))
        return {s: rng.choice((1, 1, 2, 3)) for s in rng.sample(pool, k)}

    if kind == "turn":
        for to in ("hq", "safe_house"):
            out.append({"kind": "recruit", "to": to})
        for _ in range(10):
            f = pick(mine) if mine and rng.random() < 0.8 else pick(anyloc)
            if f is None:
                continue
            if rng.random() < 0.7:
                if STREET_RE.match(f):
                    opts = [s for s in streets if s != f and vertices(s) & vertices(f)]
                    opts += [b for b in city.block_cells if f in city.block_streets(b)]
                else:
                    bid = city.block_of.get(parse_cell(f))
                    opts = sorted(city.block_streets(bid)) if bid else list(streets)
                t = pick(opts) or pick(anyloc)
            else:
                t = pick(anyloc)
            out.append({"kind": "move", "from": f, "to": t, "count": rng.choice((1, 1, 2, 3))})
        blocks = sorted(city.block_cells)
        for _ in range(4):
            b = pick(blocks + near[:2])
            out.append({"kind": "occupy", "block": b, "from": some_from(b)})
            b = pick(blocks)
            out.append({"kind": "takeover", "block": b, "from": some_from(b)})
        for _ in range(6):
            card = pick(jobs_held) if jobs_held and rng.random() < 0.85 else pick(sorted(JOBS))
            loc = JOBS[card]["location"]
            fitting = [b for b in blocks if loc in city.block_names(b)]
            b = pick(fitting) if fitting and rng.random() < 0.8 else pick(blocks)
            fs = [f for f in fort_held if rng.random() < 0.5]
            if rng.random() < 0.1:
                fs.append(pick(sorted(FORTUNE)))
            out.append({"kind": "job", "card": card, "block": b, "from": some_from(b), "fortunes": sorted(set(fs))})
        # entries built from the seat's own gangsters on a block's streets, so that the late checks
        # (count, time, presence, over-occupation) are reached
        for b in blocks:
            own = {s: view["city"]["streets"][s]["gangsters"].get(seat, 0) for s in city.block_streets(b)}
            own = {s: n for s, n in own.items() if n}
            if not own:
                continue
            for _ in range(2):
                src = {s: rng.randint(1, n + (rng.random() < 0.1)) for s, n in own.items() if rng.random() < 0.8}
                if not src:
                    continue
                any_cell = cell_id(*rng.choice(city.block_cells[b]))
                out.append({"kind": "occupy", "block": any_cell, "from": src})
                out.append({"kind": "takeover", "block": any_cell, "from": src})
                for card in jobs_held:
                    fs = sorted(f for f in fort_held if FORTUNE[f]["timing"] == "job" and rng.random() < 0.6)
                    out.append({"kind": "job", "card": card, "block": any_cell, "from": src, "fortunes": fs})
        for cs in city.block_cells.values():  # a large block named by both of its cells (malformed)
            if len(cs) == 2:
                out.append({"kind": "move", "from": cell_id(*cs[0]), "to": cell_id(*cs[1]), "count": 1})
        for card in fort_held:  # every target a card could take
            ek = FORTUNE[card]["effect"]["kind"]
            if ek == "bomb":
                for c in cells:
                    out.append({"kind": "fortune", "card": card, "block": c})
            elif ek == "hit":
                for st in streets:
                    out.append({"kind": "fortune", "card": card, "street": st})
            elif ek == "recruit":
                out.append({"kind": "fortune", "card": card, "to": "safe_house"})
                out.append({"kind": "fortune", "card": card, "to": "hq", "target": seat})
        out.append({"kind": "abort", "card": pick(jobs_held) or "J01"})
        out.append({"kind": "abort", "card": pick(sorted(JOBS))})
        out += [{"kind": "invest"}, {"kind": "redraw"}, {"kind": "end"}]
        for card in fort_held + [pick(sorted(FORTUNE))]:
            d = FORTUNE[card]
            a: dict[str, Any] = {"kind": "fortune", "card": card}
            ek = d["effect"]["kind"]
            if ek == "recruit":
                a["to"] = rng.choice(("hq", "safe_house"))
            elif ek == "bomb":
                a["block"] = pick(cells + near[:1])
            elif ek == "hit":
                a["street"] = pick(streets + ghost[:1])
            if d["target"] == "chosen_other":
                a["target"] = pick(list(view["players"]))
            out.append(a)
    elif kind == "explore":
        placed = {x[0] for x in city.at.values()}
        tiles = list(view["revealed"]) + ["sh_" + c for c in COLORS[: len(view["players"])] if "sh_" + c not in placed]
        tiles.append(pick(sorted(CITY_TILES)))
        for t in tiles:
            for b in city.orientations(t):
                out.append({"kind": "explore", "tile": t, "block_side": b})
        out.append({"kind": "explore", "tile": None, "block_side": None})
    elif kind == "setup_hq":
        for c in cells[:2] + near + ["9,9", "-3,0"]:
            out.append({"kind": "place_hq", "cell": c})
    elif kind == "setup_tile":
        for t in list(view["revealed"]) + [pick(sorted(CITY_TILES))]:
            for c in near[:8] + cells[:1]:
                for b in city.orientations(t):
                    out.append({"kind": "setup_tile", "tile": t, "cell": c, "block_side": b})
    elif kind == "keep":
        for j in list(private["drawn"]) + jobs_held + [pick(sorted(JOBS))]:
            out.append({"kind": "keep", "card": j})
    elif kind == "target":
        for p in view["players"]:
            out.append({"kind": "target", "player": p})
    elif kind == "react":
        for f in [None, *fort_held, pick(sorted(FORTUNE))]:
            out.append({"kind": "react", "card": f})
    elif kind == "destiny":
        for d in list(view["players"][seat]["destinies"]) + ["N01", "F41"]:
            out.append({"kind": "destiny", "card": d})
    # another decision's answers: wrong_decision
    out.append(
        pick(
            [
                {"kind": "end"},
                {"kind": "invest"},
                {"kind": "keep", "card": "J01"},
                {"kind": "react", "card": None},
                {"kind": "target", "player": seat},
                {"kind": "explore", "tile": None, "block_side": None},
            ]
        )
    )
    out.append({"kind": "timeout"})
    return out


def _mutate(a: Mapping[str, Any], rng: Any) -> dict[str, Any]:
    """A field-level change (replay.md code 4), most of the time out of range."""
    b = dict(a)
    keys = [k for k in b if k != "kind"]
    r = rng.random()
    if r < 0.2:
        b["extra"] = 1
    elif r < 0.35 and keys:
        del b[rng.choice(keys)]
    elif "count" in b and r < 0.55:
        b["count"] = rng.choice((0, 4, -1))
    elif "from" in b and isinstance(b["from"], dict) and r < 0.75:
        choice = rng.randrange(4)
        if choice == 0:
            b["from"] = {}
        elif choice == 1:
            b["from"] = {k: 0 for k in b["from"]}
        elif choice == 2:
            b["from"] = {"0,0": 1}
        else:
            b["block"] = "h:0,0"
    elif "fortunes" in b and b["fortunes"] and r < 0.85:
        b["fortunes"] = [b["fortunes"][0], b["fortunes"][0]]
    elif "block_side" in b:
        b["block_side"] = None if b["block_side"] else "N"
    elif b.get("kind") == "move":
        b["to"] = b["from"]
    elif b.get("kind") == "recruit":
        b["to"] = "basement"
    elif b.get("kind") == "fortune":
        b["street"] = "0,0"
    else:
        b["extra"] = None
    return b


def canonical(view: Mapping[str, Any], private: Mapping[str, Any], a: Mapping[str, Any]) -> dict[str, Any]:
    """replay.md "Output of legal": the one form in which `legal` lists the choice `a` makes."""
    city = City(view["city"]["tiles"])
    b = dict(a)

    def block_id(v: str) -> str:
        return city.block_of.get(parse_cell(v), v) if CELL_RE.match(v) else v

    def lowest(cards: Sequence[str]) -> list[str]:
        # cards of one design are interchangeable: the lowest-id ones held stand for them
        by: dict[str, list[str]] = {}
        for c in cards:
            by.setdefault(_design(c), []).append(c)
        out = []
        for d, cs in by.items():
            held = sorted(f for f in private["fortunes"] if _design(f) == d)
            out += held[: len(cs)]
        return sorted(out)

    kind = b["kind"]
    if kind == "move":
        b["from"], b["to"] = block_id(b["from"]), block_id(b["to"])
    if kind in ("occupy", "takeover", "job") or (kind == "fortune" and "block" in b):
        b["block"] = block_id(b["block"])
    if kind == "job":
        b["fortunes"] = lowest(b.get("fortunes", []))
    if kind in ("setup_tile", "explore"):
        b.setdefault("block_side", None)
    if kind in ("fortune", "react") and b["card"] is not None:
        b["card"] = lowest([b["card"]])[0]
    return b


def _design(card: str) -> str:
    return str(FORTUNE[card]["design"])


def drive(
    seed: int, steps: int = 400, sample: float = 0.5, explorer: bool = False
) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """Plays one seeded random game; returns the divergences (what, seat, action, mine, engine, context)
    and counters of what was compared. An `explorer` game walks onto frontiers and does no jobs, so that
    the stack and the revealed row run out (R53c, R54, Q47)."""
    from random import Random

    from rules.contract import Action, SeededChance
    from rules.crimopolis.game import GAME
    from rules.crimopolis.legal import legal_actions

    rng = Random(seed)
    n = 2 + seed % 4
    seats = tuple(f"p{i}" for i in range(1, n + 1))
    choices: list[dict[str, Any]] = [
        {},
        {"variant": "lucky_speed"},
        {"timeout_time": "pass", "gangsters": 5},
        {"variant": "deeper_strategy"},
    ]
    settings = dict(choices[seed % 4])
    if explorer:
        settings = {"variant": "deeper_strategy", "target_prestige": 60}
    forfeit = settings.get("timeout_time", "forfeit") == "forfeit"
    chance = SeededChance(f"xcp-{seed}")
    state = GAME.setup(seats, settings, chance).state
    tracker = Tracker()
    tracker.see(GAME.view(state, None))
    bad: list[tuple[Any, ...]] = []
    stats: dict[str, int] = {}

    def compare(what: str, seat: str, a: Any, pub: Any, priv: Any) -> None:
        mine = expected(pub, priv, tracker.cells, seat, a)
        ref = GAME.check(state, seat, a)
        eng = None if ref is None else ref.code
        stats[what] = stats.get(what, 0) + 1
        key = f"{a.get('kind') if isinstance(a, dict) else '?'}:{mine}"
        stats[key] = stats.get(key, 0) + 1
        if mine != eng:
            bad.append((what, seat, a, mine, eng, pub["pending"], pub["turn"]))
        elif mine is None and what != "legal" and a["kind"] != "timeout":
            # the converse of "every listed action passes": every legal choice is listed, once
            stats["listed"] = stats.get("listed", 0) + 1
            if json.dumps(canonical(pub, priv, a), sort_keys=True) not in listed:
                bad.append(("not listed by legal", seat, a, canonical(pub, priv, a)))

    for _ in range(steps):
        pend = GAME.pending(state)
        if pend is None:
            break
        seat = pend.awaited[0]
        pub = GAME.view(state, None)
        priv = GAME.view(state, seat)["private"][seat]
        legal = legal_actions(GAME.content, state, seat)
        listed = {json.dumps(a, sort_keys=True) for a in legal}
        # R108, Q35: a decision other than `turn` and `react` waits only when it has two answers or more
        if not legal or (pub["pending"]["kind"] not in ("turn", "react") and len(legal) < 2):
            bad.append(("R108: a decision waits with fewer than two answers", pub["pending"], legal))
        for what, seen in (
            ("state:explore_empty_row", pub["pending"]["kind"] == "explore" and not pub["revealed"]),
            ("state:stack_empty", pub["stack"] == 0),
            ("state:over_occupied", any(sum(b["gangsters"].values()) > 3 for b in pub["city"]["blocks"].values())),
            ("state:react_own_turn", pub["pending"]["kind"] == "react" and pub["turn"]["player"] == seat),
        ):
            if seen:
                stats[what] = stats.get(what, 0) + 1
        rate = sample if not explorer or pub["stack"] == 0 else sample / 20  # explorers: the late game
        if rng.random() < rate:
            for a in legal if len(legal) <= 40 else rng.sample(legal, 40):
                compare("legal", seat, a, pub, priv)
            for a in _candidates(pub, priv, seat, rng):
                compare("candidate", seat, a, pub, priv)
                if rng.random() < 0.3:
                    compare("mutated", seat, _mutate(a, rng), pub, priv)
            other = rng.choice([s for s in seats if s != seat])
            for a in [*legal[:3], {"kind": "timeout"}]:
                compare("wrong_seat", other, a, pub, priv)
            for a in rng.sample(legal, min(3, len(legal))):  # a legal action also steps (R110's converse)
                GAME.step(state, [Action(seat, a)], chance)
                stats["stepped"] = stats.get("stepped", 0) + 1
            if GAME.check(state, None, {"host": "end"}) is not None:
                bad.append(("host end refused while the game runs", pub["pending"]))
        # choose: mostly the engine's own random policy, sometimes any legal action, rarely a timeout
        r = rng.random()
        if explorer and legal and pub["pending"]["kind"] == "turn":
            front = [
                a for a in legal if a["kind"] == "move" and pub["city"]["streets"].get(a["to"], {}).get("frontier")
            ]
            calm = [a for a in legal if a["kind"] in ("move", "recruit", "occupy")]
            legal = front or calm or legal
            r = max(r, 0.12)  # no timeouts, no investing
        own_react = pub["pending"]["kind"] == "react" and pub["turn"] is not None and pub["turn"]["player"] == seat
        if own_react and rng.random() < 0.5:
            r = 0.0  # E4: a timeout at one's own reaction window answers only that window
        if r < 0.02 or not legal or (pub["pending"]["kind"] != "turn" and r < 0.1):
            move: dict[str, Any] = {"kind": "timeout"}
        elif r < 0.12 and {"kind": "invest"} in legal:
            move = {"kind": "invest"}  # hoard fortunes, so that their checks are reached with cards held
        elif r < 0.35 or explorer:
            move = rng.choice(legal)
        else:
            move = dict(GAME.random_move(state, seat, rng) or {"kind": "timeout"})
        before = pub["turn"]
        out = GAME.step(state, [Action(seat, move)], chance)
        state = out.state
        after = GAME.view(state, None)
        tracker.see(after)
        _hours(before, after, pub, move, out.events, forfeit, bad, stats)
        if move["kind"] == "timeout":
            defaults(pub, priv, seat, out.events, bad, stats)
        if move["kind"] == "move" and after["pending"] is not None:
            explore_after_move(pub, after, move, out.events, bad, stats)
        if own_react and move["kind"] == "timeout":
            stats["e4"] = stats.get("e4", 0) + 1
            if after["turn"] is None or after["turn"]["number"] != pub["turn"]["number"] or after["turn"]["timed_out"]:
                bad.append(("E4: the turn did not go on after a timeout at the own react window", after["turn"]))
    if GAME.pending(state) is None:  # after the end every action, the host's too, is refused game_over
        pub = GAME.view(state, None)
        for seat in seats:
            compare("over", seat, {"kind": "end"}, pub, GAME.view(state, seat)["private"][seat])
        ref = GAME.check(state, None, {"host": "end"})
        if ref is None or ref.code != "game_over":
            bad.append(("host end after the end", ref))
    return bad, stats


def _cost(pub: Mapping[str, Any], a: Mapping[str, Any]) -> int:
    """R32, R48, R73: what the hours drop by when `a` is applied (negative for Strong Coffee)."""
    kind = a["kind"]
    if kind in COST:
        return COST[kind]
    if kind == "move":
        t = a["to"]
        if CELL_RE.match(t):
            return 0
        return 0 if pub["turn"]["player"] in pub["city"]["streets"][t]["gangsters"] else 1
    if kind == "job":
        fs = a.get("fortunes", [])
        dh = sum(FORTUNE[f]["effect"]["amount"] for f in fs if FORTUNE[f]["effect"]["kind"] == "job_hours")
        return max(0, int(JOBS[a["card"]]["hours"]) + int(dh))
    if kind == "fortune" and FORTUNE[a["card"]]["effect"]["kind"] == "hours" and FORTUNE[a["card"]]["target"] == "self":
        return -int(FORTUNE[a["card"]]["effect"]["amount"])
    return 0


def _hours(
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any],
    pub: Mapping[str, Any],
    move: Mapping[str, Any],
    events: Sequence[Any],
    forfeit: bool,
    bad: list[tuple[Any, ...]],
    stats: dict[str, int],
) -> None:
    """The 7-hour budget (R31-R34, R37, R38, R41, R48, R73, R97.6): the hours after a step, and the budget of
    every turn that starts, are what the spec's accounting gives."""
    now = after["turn"]
    if now is None:
        return
    starts = [e for e in events if e.kind == "turn_start"]
    if before is not None and now["number"] == before["number"]:
        cost = _cost(pub, move) if move["kind"] in TURN and pub["pending"]["kind"] == "turn" else 0
        want = before["hours"] - cost
        stats["hours:step"] = stats.get("hours:step", 0) + 1
        if now["hours"] != want:
            bad.append(("hours", move, want, now["hours"], before))
        return
    if len(starts) != 1:
        bad.append(("turn_start events", move, [e.data for e in starts]))
        return
    if before is None:
        carry = 0  # R29, R31: turn 1 has 7 hours
    else:
        timed_out = move["kind"] == "timeout" or before["timed_out"]
        left = before["hours"] - (_cost(pub, move) if move["kind"] in TURN else 0)
        carry = 0 if timed_out and forfeit else left  # R37, R38
    budget = starts[0].data["hours"]
    stats["hours:turn_start"] = stats.get("hours:turn_start", 0) + 1
    if budget != 7 + carry:
        bad.append(("budget", move, 7 + carry, budget, before))
    # R40, R41 (house destinies are all negative `hours`): executed at once, in the order they were placed
    new = starts[0].data["player"]
    first = events.index(starts[0])
    placed = [e.data["card"] for e in events[:first] if e.kind == "destiny_placed" and e.data["player"] == new]
    lying = list(pub["players"][new]["destinies"]) + placed
    done = [e.data["card"] for e in events[events.index(starts[0]) :] if e.kind == "destiny_executed"]
    if lying:
        key = "destinies:several" if len(lying) >= 2 else "destinies:one"
        stats[key] = stats.get(key, 0) + 1
    if done != lying:
        bad.append(("destiny order", move, lying, done))
    h = budget
    for e in events[events.index(starts[0]) :]:
        if e.kind == "destiny_executed":
            card = e.data["card"]
            d = NEWS.get(card) or FORTUNE[card]
            if d["effect"]["kind"] == "hours":
                h = max(0, h + d["effect"]["amount"])  # R34, each in turn (E7)
    if now["hours"] != h:
        bad.append(("destinies", move, h, now["hours"], before))


def defaults(
    pub: Mapping[str, Any],
    priv: Mapping[str, Any],
    seat: str,
    events: Sequence[Any],
    bad: list[tuple[Any, ...]],
    stats: dict[str, int],
) -> None:
    """R109: what a `timeout` answers the pending decision with, read from the events it caused."""
    kind = pub["pending"]["kind"]
    city = City(pub["city"]["tiles"])
    order = list(pub["players"])
    placed = [e.data for e in events if e.kind == "tile_placed"]
    got: Any
    if kind == "explore":
        cell = parse_cell(pub["pending"]["cell"])
        want: Any = None
        for t in pub["revealed"]:
            sides = [b for b in city.orientations(t) if city.fits(cell, t, b)]
            if sides:
                want = (t, sides[0])
                break
        got = (placed[0]["tile"], placed[0]["block_side"]) if placed else None
    elif kind == "setup_hq":
        cells = sorted(
            {(c[0] + dx, c[1] + dy) for c in city.at for dx, dy in STEP.values()} - set(city.at),
            key=lambda c: (c[1], c[0]),
        )
        want = next(cell_id(*c) for c in cells if city.fits(c, "hq_" + pub["players"][seat]["color"], None))
        got = placed[0]["cell"] if placed else None
    elif kind == "setup_tile":
        hq = city.block_cells[
            next(
                b
                for b in city.block_cells
                if city.at[city.block_cells[b][0]][0] == "hq_" + pub["players"][seat]["color"]
            )
        ][0]
        want = None
        for t in pub["revealed"]:
            for side in SIDES:
                c = (hq[0] + STEP[side][0], hq[1] + STEP[side][1])
                sides = [b for b in city.orientations(t) if city.fits(c, t, b)]
                if sides:
                    want = (t, cell_id(*c), sides[0])
                    break
            if want:
                break
        got = (placed[0]["tile"], placed[0]["cell"], placed[0]["block_side"]) if placed else None
    elif kind == "keep":
        want = priv["drawn"][0]
        got = next((e.data["card"] for e in events if e.kind == "kept"), None)
    elif kind == "target":
        active = pub["turn"]["player"]
        i = order.index(active)
        want = order[(i + 1) % len(order)]
        got = next((e.data["target"] for e in events if e.kind == "target_chosen"), None)
    elif kind == "react":
        want = None
        got = next((e.data["card"] for e in events if e.kind == "reaction"), "no reaction event")
    else:
        return
    stats[f"default:{kind}"] = stats.get(f"default:{kind}", 0) + 1
    if got != want:
        bad.append(("R109 default", kind, want, got, pub["pending"]))


# ---- the spec's own scenarios: corners random play seldom reaches (capacity, over-occupation, destinies) ---


def examples(rng: Any) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """For every file in spec/crimopolis/examples and every state it passes through: candidate actions
    appended as the next step of the file and replayed; the refusal `replay` prints must be the code this
    reading requires. Candidates a file cannot hold (format errors, replay.md "Edge cases") are skipped."""
    from rules.contract import FormatError, ParseError
    from rules.crimopolis.game import GAME

    bad: list[tuple[Any, ...]] = []
    stats: dict[str, int] = {}
    folder = SPEC.parent / "examples"
    if not folder.is_dir():
        folder = Path(__file__).resolve().parent / "golden"
    files = sorted(folder.glob("*.replay.json"))
    stats["files"] = len(files)
    for path in files:
        doc = json.loads(path.read_text())
        out = GAME.replay(doc)
        states = [out["initial"]["state"]] + [s["state"] for s in out["steps"]]
        tracker = Tracker()
        for k, st in enumerate(states):
            tracker.see(st)
            if st["pending"] is None:
                continue
            seat = st["pending"]["player"]
            pub = {key: v for key, v in st.items() if key != "private"}
            priv = st["private"][seat]
            cands: list[tuple[str, Any]] = [(seat, a) for a in _candidates(pub, priv, seat, rng)]
            cands += [(seat, _mutate(a, rng)) for _, a in cands if rng.random() < 0.2]
            if k < len(doc["steps"]) and "player" in doc["steps"][k]:
                cands.append((doc["steps"][k]["player"], doc["steps"][k]["action"]))
            other = next(p for p in st["players"] if p != seat)
            cands += [(other, {"kind": "end"}), (other, {"kind": "timeout"})]
            for who, a in cands:
                trial = dict(doc, steps=[*doc["steps"][:k], {"player": who, "action": a}])
                try:
                    res = GAME.replay(trial)
                except (FormatError, ParseError):
                    stats["format"] = stats.get("format", 0) + 1
                    continue
                refused = res["steps"][-1]["refused"]
                eng = None if refused is None else refused["code"]
                mine = expected(pub, st["private"][who], tracker.cells, who, a)
                key = f"{a.get('kind')}:{mine}"
                stats[key] = stats.get(key, 0) + 1
                if mine != eng:
                    bad.append((path.name, k, who, a, mine, eng))
    return bad, stats


def explore_after_move(
    pub: Mapping[str, Any],
    after: Mapping[str, Any],
    move: Mapping[str, Any],
    events: Sequence[Any],
    bad: list[tuple[Any, ...]],
    stats: dict[str, int],
) -> None:
    """R50-R55, R108: after a move, an exploration happens exactly when survivors stand on a frontier; it
    fails when nothing may be placed, is answered at once when there is one answer, else waits."""
    city = City(pub["city"]["tiles"])
    seat = pub["turn"]["player"]
    to = city.block_of.get(parse_cell(move["to"]), move["to"]) if CELL_RE.match(move["to"]) else move["to"]
    if to not in city.streets:
        return
    held = pub["city"]["streets"][to]["gangsters"]
    d = sum(n for p, n in held.items() if p != seat)
    survivors = move["count"] - min(move["count"], d)  # R51
    placed_tiles = {t for t, _ in city.at.values()}
    answers: list[Any] = []
    if survivors and city.streets[to]:
        cell = city.frontier_cell(to)
        row = pub["revealed"]
        answers = [(t, b) for t in row for b in city.orientations(t) if city.fits(cell, t, b)]
        plain = bool(answers)
        for p, me in pub["players"].items():
            sh = "sh_" + me["color"]
            if sh not in placed_tiles and (p == seat or not row) and city.fits(cell, sh, None):
                answers.append((sh, None))
        if answers and not plain:
            answers.append(None)  # R53(d): nothing, only when no revealed tile fits
    kinds = [e.kind for e in events]
    stats[f"explore_trigger:{min(len(answers), 2)}"] = stats.get(f"explore_trigger:{min(len(answers), 2)}", 0) + 1
    if not survivors or not city.streets[to]:
        ok = "tile_placed" not in kinds and "explore_failed" not in kinds and after["pending"]["kind"] != "explore"
    elif not answers:
        ok = "explore_failed" in kinds and after["pending"]["kind"] == "turn"
    elif len(answers) == 1:
        ok = after["pending"]["kind"] != "explore" and ("tile_placed" in kinds or "explore_failed" in kinds)
    else:
        p = after["pending"]
        ok = p["kind"] == "explore" and p["street"] == to and p["cell"] == cell_id(*city.frontier_cell(to))
    if not ok:
        bad.append(("explore trigger", move, len(answers), kinds, after["pending"]))
