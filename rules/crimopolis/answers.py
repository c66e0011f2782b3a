"""The answers of the decisions other than `turn`: what R108 answers by itself when there is one, what
R109's defaults pick, and what `legal` lists. Each list is in the order R109 reads it."""

from __future__ import annotations

from typing import Any

from .content import Content
from .ids import cell_id, parse_cell
from .state import State

Answer = dict[str, Any]


def hq_cells(c: Content, s: State) -> list[str]:
    """Every cell a Headquarters may go on (R25), in cell order."""
    geo = s.geo
    any_hq = next(t for t in c.tiles if c.tiles[t].kind == "headquarters")
    cells = [xy for xy in geo.empty_adjacent() if geo.fits(c, any_hq, None, xy)]
    cells.sort(key=lambda xy: (xy[1], xy[0]))
    return [cell_id(*xy) for xy in cells]


def setup_placements(c: Content, s: State, player: str) -> list[tuple[str, str, str | None]]:
    """(tile, cell, block side) of every legal setup placement (R27), in R109's order: row order, then the
    cells N, E, S, W of the player's Headquarters, then side order."""
    geo = s.geo
    hq = geo.cell_of_tile.get(c.hq(s.color(player)))
    if hq is None:
        return []
    cells = geo.neighbours_empty(hq)
    out = []
    for tile in s.revealed:
        for xy in cells:
            for side in geo.orientations(c, tile, xy):
                out.append((tile, cell_id(*xy), side))
    return out


def explore_options(c: Content, s: State, player: str, cell: str) -> tuple[list[tuple[str | None, str | None]], bool]:
    """The options of R53 for the empty cell, in R109's order, and whether any of (a)-(c) exists.
    `None` (placing nothing) is listed last, only when no revealed tile fits (R53d)."""
    geo = s.geo
    xy = parse_cell(cell)
    assert xy is not None
    out: list[tuple[str | None, str | None]] = []
    for tile in s.revealed:
        for side in geo.orientations(c, tile, xy):
            out.append((tile, side))
    from_row = bool(out)
    own = c.safe_house(s.color(player))
    if own not in geo.cell_of_tile and geo.fits(c, own, None, xy):
        out.append((own, None))
    if not s.revealed:
        for other in s.players:
            sh = c.safe_house(s.color(other))
            if other != player and sh not in geo.cell_of_tile and geo.fits(c, sh, None, xy):
                out.append((sh, None))
    if not out:
        return [], False
    if not from_row:
        out.append((None, None))
    return out, True


def answers(c: Content, s: State) -> list[Answer]:
    """The legal answers of the pending decision (not `turn`), in R109's order."""
    p = s.pending
    assert p is not None
    kind, player = p["kind"], p["player"]
    if kind == "setup_hq":
        return [{"kind": "place_hq", "cell": cell} for cell in hq_cells(c, s)]
    if kind == "setup_tile":
        return [
            {"kind": "setup_tile", "tile": t, "cell": cell, "block_side": side}
            for t, cell, side in setup_placements(c, s, player)
        ]
    if kind == "explore":
        return [
            {"kind": "explore", "tile": t, "block_side": side}
            for t, side in explore_options(c, s, player, p["cell"])[0]
        ]
    if kind == "keep":
        return [{"kind": "keep", "card": card} for card in dict.fromkeys(s.pl[player].drawn)]
    if kind == "target":
        assert s.active is not None
        others, q = [], s.seat_after(s.active)
        while q != s.active:
            others.append(q)
            q = s.seat_after(q)
        return [{"kind": "target", "player": q} for q in others if q != player]
    if kind == "destiny":
        return [{"kind": "destiny", "card": card} for card in s.pl[player].destinies]
    if kind == "react":
        out: list[Answer] = [{"kind": "react", "card": None}]
        seen: set[str] = set()
        for card in sorted(s.pl[player].fortunes):
            d = c.designs[card]
            if d.timing == "reaction" and d.id not in seen:
                seen.add(d.id)
                out.append({"kind": "react", "card": card})
        return out
    raise AssertionError(kind)


def default(c: Content, s: State) -> Answer:
    """R109's default answer of the pending decision."""
    p = s.pending
    assert p is not None
    kind = p["kind"]
    if kind == "turn":
        return {"kind": "end"}
    if kind == "react":
        return {"kind": "react", "card": None}
    if kind == "explore":
        for a in answers(c, s):
            if a["tile"] in s.revealed:
                return a
        return {"kind": "explore", "tile": None, "block_side": None}
    options = answers(c, s)
    assert options, kind
    return options[0]
