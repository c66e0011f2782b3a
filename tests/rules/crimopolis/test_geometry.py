"""The city model (R7-R18, rulings Part 2): placing a tile updates exactly what a rebuild would give."""

from __future__ import annotations

from random import Random

from rules.crimopolis.geometry import Geometry
from rules.crimopolis.ids import cell_id

from .replaying import CONTENT


def _same(a: Geometry, b: Geometry) -> None:
    assert a.tiles == b.tiles and a.xy == b.xy and a.at == b.at and a.cell_of_tile == b.cell_of_tile
    assert a.streets == b.streets
    assert a.adjacent == b.adjacent
    assert a.block_of == b.block_of and a.blocks == b.blocks
    assert {k: v for k, v in a.street_blocks.items() if v} == b.street_blocks


def test_placing_tiles_one_by_one_equals_building_the_city_at_once() -> None:
    for seed in range(8):
        rng = Random(seed)
        geo = Geometry(CONTENT, {"0,0": ("hq_yellow", None)})
        tiles = list(CONTENT.city_tiles) + ["sh_yellow", "hq_green"]
        rng.shuffle(tiles)
        for tile in tiles:
            spots = sorted(geo.empty_adjacent())
            rng.shuffle(spots)
            for xy in spots[:8]:
                sides = geo.orientations(CONTENT, tile, xy)
                if sides:
                    side = rng.choice(sides)
                    geo = geo.with_tile(CONTENT, cell_id(*xy), tile, side)
                    _same(geo, Geometry(CONTENT, geo.tiles))
                    break
        assert len(geo.tiles) > 30
        large = [b for b in geo.blocks.values() if b.large]
        if large:
            b = large[0]
            assert len(b.streets) == 6 and b.id == b.cells[0]


def test_a_section_is_adjacent_to_at_most_six() -> None:
    geo = Geometry(
        CONTENT,
        {
            cell_id(x, y): ("T01", None) if (x, y) != (0, 0) else ("hq_yellow", None)
            for x in range(-2, 3)
            for y in range(-2, 3)
        },
    )
    assert max(len(v) for v in geo.adjacent.values()) == 6
    assert len(geo.adjacent["h:0,0"]) == 6 and set(geo.adjacent["h:0,0"]) == {
        "h:-1,0",
        "v:0,-1",
        "v:0,0",
        "h:1,0",
        "v:1,-1",
        "v:1,0",
    }
