"""The city as the rules see it (R7-R18, rulings Part 2): street sections, frontiers, adjacency, blocks.

A `Geometry` is derived from the placed tiles alone and never changes; placing a tile builds a new one
(a city has at most 58 tiles, so rebuilding is cheap and keeps every derived fact consistent).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .content import Content
from .ids import DELTA, OPPOSITE, SIDES, cell_id, edge, edge_cells, edge_neighbours, parse_cell

Placed = tuple[str, str | None]  # (tile id, block side of a 3-street tile or None)


@dataclass(frozen=True, slots=True)
class Block:
    id: str  # its first cell in cell order (R18)
    cells: tuple[str, ...]  # cell order
    kind: str  # city, headquarters, safe_house
    color: str | None  # the owner's colour for Headquarters and Safe Houses
    names: tuple[str, ...]  # sorted location ids; () for Headquarters and Safe Houses
    streets: tuple[str, ...]  # its street sections, in string order

    @property
    def large(self) -> bool:
        return len(self.cells) == 2


class Geometry:
    __slots__ = ("tiles", "xy", "at", "streets", "adjacent", "block_of", "blocks", "street_blocks", "cell_of_tile")

    def __init__(self, content: Content, tiles: Mapping[str, Placed]) -> None:
        self.tiles: dict[str, Placed] = dict(tiles)
        self.xy: dict[str, tuple[int, int]] = {}
        self.at: dict[tuple[int, int], str] = {}
        self.cell_of_tile: dict[str, str] = {t: c for c, (t, _) in self.tiles.items()}
        for cell in self.tiles:
            xy = parse_cell(cell)
            assert xy is not None, cell
            self.xy[cell] = xy
            self.at[xy] = cell
        streets: dict[str, str | None] = {}
        for cell, (_, side) in self.tiles.items():
            x, y = self.xy[cell]
            for s in SIDES:
                if s == side:
                    continue
                e = edge(x, y, s)
                dx, dy = DELTA[s]
                other = (x + dx, y + dy)
                streets[e] = None if other in self.at else cell_id(*other)
        self.streets = streets  # street id -> the empty cell of a frontier, else None
        self.adjacent: dict[str, tuple[str, ...]] = {
            e: tuple(n for n in edge_neighbours(e) if n in streets) for e in streets
        }
        self.block_of: dict[str, str] = {}
        self.blocks: dict[str, Block] = {}
        for cell in self.tiles:
            if cell not in self.block_of:
                self._add_block(content, self._block_cells(cell))
        sb: dict[str, list[str]] = {}
        for block in self.blocks.values():
            for e in block.streets:
                sb.setdefault(e, []).append(block.id)
        self.street_blocks: dict[str, tuple[str, ...]] = {e: tuple(sorted(v)) for e, v in sb.items()}

    def _block_cells(self, cell: str) -> list[str]:
        """The cells of the block holding `cell` (its partner too, when two block sides meet), in cell order."""
        cells = [cell]
        side = self.tiles[cell][1]
        if side is not None:
            x, y = self.xy[cell]
            dx, dy = DELTA[side]
            partner = self.at.get((x + dx, y + dy))
            if partner is not None and self.tiles[partner][1] == OPPOSITE[side]:
                cells.append(partner)
        cells.sort(key=lambda c: (self.xy[c][1], self.xy[c][0]))
        return cells

    def _add_block(self, content: Content, cells: list[str]) -> Block:
        t = content.tiles[self.tiles[cells[0]][0]]
        block_streets: list[str] = []
        for c in cells:
            cx, cy = self.xy[c]
            cs = self.tiles[c][1]
            block_streets.extend(edge(cx, cy, s) for s in SIDES if s != cs)
        names = (
            () if t.kind != "city" else tuple(sorted({content.tiles[self.tiles[c][0]].location or "" for c in cells}))
        )
        block = Block(cells[0], tuple(cells), t.kind, t.color, names, tuple(sorted(block_streets)))
        for c in cells:
            self.block_of[c] = block.id
        self.blocks[block.id] = block
        return block

    # ---- locations ------------------------------------------------------------------------------------

    def location(self, loc: str) -> str | None:
        """The canonical id of a location named in an action: a street that exists, or the id of the block
        holding that cell; None when it names nothing in the city."""
        if loc[0] in "hv":
            return loc if loc in self.streets else None
        return self.block_of.get(loc)

    def canonical(self, loc: str) -> str:
        """Blocks by their id; anything else as given."""
        if loc[0] in "hv":
            return loc
        return self.block_of.get(loc, loc)

    def frontier(self, street: str) -> bool:
        return self.streets.get(street) is not None

    # ---- placement (R13) --------------------------------------------------------------------------------

    def side_type(self, content: Content, tile: str, block_side: str | None, side: str) -> str:
        return "block" if content.tiles[tile].streets == 3 and side == block_side else "street"

    def fits(self, content: Content, tile: str, block_side: str | None, xy: tuple[int, int]) -> bool:
        """Whether `tile` turned to `block_side` may be placed on the empty cell `xy`."""
        if xy in self.at:
            return False
        x, y = xy
        three = content.tiles[tile].streets == 3
        for s in SIDES:
            dx, dy = DELTA[s]
            other = self.at.get((x + dx, y + dy))
            if other is None:
                continue
            mine_block = three and s == block_side
            theirs = self.tiles[other][1]
            theirs_block = theirs is not None and theirs == OPPOSITE[s]
            if mine_block != theirs_block:
                return False
        return True

    def orientations(self, content: Content, tile: str, xy: tuple[int, int]) -> list[str | None]:
        """Every legal orientation of `tile` on `xy`, in side order (None for a 4-street tile)."""
        if content.tiles[tile].streets == 3:
            return [s for s in SIDES if self.fits(content, tile, s, xy)]
        return [None] if self.fits(content, tile, None, xy) else []

    def neighbours_empty(self, cell: str) -> list[tuple[int, int]]:
        """The empty cells around a placed cell, in side order N, E, S, W."""
        x, y = self.xy[cell]
        out = []
        for s in SIDES:
            dx, dy = DELTA[s]
            if (x + dx, y + dy) not in self.at:
                out.append((x + dx, y + dy))
        return out

    def empty_adjacent(self) -> set[tuple[int, int]]:
        """Every empty cell next to at least one placed tile."""
        out: set[tuple[int, int]] = set()
        for x, y in self.at:
            for dx, dy in DELTA.values():
                if (x + dx, y + dy) not in self.at:
                    out.add((x + dx, y + dy))
        return out

    def with_tile(self, content: Content, cell: str, tile: str, block_side: str | None) -> Geometry:
        """The city with one more tile: only what the new tile touches is recomputed (the result equals a
        geometry built from all the tiles; the tests check it)."""
        g = Geometry.__new__(Geometry)
        g.tiles = {**self.tiles, cell: (tile, block_side)}
        xy = parse_cell(cell)
        assert xy is not None and xy not in self.at, cell
        g.xy = {**self.xy, cell: xy}
        g.at = {**self.at, xy: cell}
        g.cell_of_tile = {**self.cell_of_tile, tile: cell}
        g.streets = dict(self.streets)
        x, y = xy
        new_edges = []
        for s in SIDES:
            if s == block_side:
                continue
            e = edge(x, y, s)
            dx, dy = DELTA[s]
            other = (x + dx, y + dy)
            if e not in g.streets:
                new_edges.append(e)
            g.streets[e] = None if other in g.at else cell_id(*other)
        g.adjacent = dict(self.adjacent)
        for e in new_edges:
            for n in (e, *edge_neighbours(e)):
                if n in g.streets:
                    g.adjacent[n] = tuple(m for m in edge_neighbours(n) if m in g.streets)
        g.block_of = dict(self.block_of)
        g.blocks = dict(self.blocks)
        g.street_blocks = dict(self.street_blocks)
        cells = g._block_cells(cell)
        for c in cells:
            old = self.block_of.get(c)
            if old is not None:
                for e in self.blocks[old].streets:
                    g.street_blocks[e] = tuple(b for b in g.street_blocks[e] if b != old)
                del g.blocks[old]
        block = g._add_block(content, cells)
        for e in block.streets:
            g.street_blocks[e] = tuple(sorted((*g.street_blocks.get(e, ()), block.id)))
        return g


def street_cells(street: str) -> tuple[str, str]:
    a, b = edge_cells(street)
    return cell_id(*a), cell_id(*b)
