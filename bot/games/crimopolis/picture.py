"""The public board as a PNG picture: the city on its unbounded grid, and beside it the revealed row, the pile
sizes and the scoreboard (commands.md "What people read").

**Legible at any size**: the picture is cropped to the explored bounding box (the placed tiles and the empty
cells beyond their frontier sections) and the tiles are scaled to fill a fixed canvas (1280 x 880), between
56 and 150 pixels a tile. A city too large for the canvas at 56 pixels makes the canvas grow instead, so a tile's
names and counters never get smaller than that.

Only the public view goes in (plus the seats' shown names), no text chunk or clock time is written, and the
drawing depends on nothing else, so the same view always gives the same bytes. Fonts come from Pillow itself
(`ImageFont.load_default(size=...)`), never from the system.

Run `python -m bot.games.crimopolis.picture OUT.png` to draw a sample city.
"""

from __future__ import annotations

import functools
import io
import sys
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .. import discs
from ..palette import fixed_palette, to_palette
from . import names as nm

__all__ = ["render_board"]

RGB = tuple[int, int, int]
WIDTH, HEIGHT = 1280, 880
SIDEBAR = 380
MARGIN = 34  # room for the axis labels
MIN_TILE, MAX_TILE = 56, 150
_COMPRESS_LEVEL = 3  # on a palette image: 2.5 ms, for a few % more bytes than 6

BG: RGB = (246, 243, 236)
INK: RGB = (34, 34, 34)
MUTED: RGB = (110, 110, 110)
ROAD: RGB = (158, 158, 162)
ROAD_EDGE: RGB = (120, 120, 126)
FRONTIER: RGB = (230, 120, 20)
EMPTY: RGB = (215, 210, 198)
GANG: dict[str, RGB] = {
    "yellow": (240, 196, 25),
    "green": (34, 150, 70),
    "red": (214, 48, 49),
    "blue": (41, 98, 214),
    "black": (33, 33, 33),
}
LOCATION_COLOURS: dict[str, RGB] = {
    "slate": (172, 186, 204),
    "olive": (176, 196, 132),
    "plum": (204, 170, 204),
    "brick": (222, 164, 132),
}


WHITE: RGB = (255, 255, 255)
UNKNOWN: RGB = (200, 200, 200)  # a block of a location the content does not colour


def _pale(colour: RGB) -> RGB:
    """A gang's colour for a block it occupies (its headquarters take the colour itself)."""
    r, g, b = (int(v + (255 - v) * 0.45) for v in colour)
    return r, g, b


@functools.cache
def palette() -> Image.Image:
    gangs = list(GANG.values())
    return fixed_palette(
        [BG, INK, MUTED, ROAD, ROAD_EDGE, FRONTIER, EMPTY, WHITE, UNKNOWN, *gangs, *map(_pale, gangs),
         _pale(MUTED), *LOCATION_COLOURS.values()]
    )


@functools.lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _cell(cell: str) -> tuple[int, int]:
    x, _, y = cell.partition(",")
    return int(x), int(y)


def _street_cells(street: str) -> tuple[tuple[int, int], tuple[int, int]]:
    x, y = _cell(street[2:])
    if street[0] == "h":
        return (x, y - 1), (x, y)
    return (x - 1, y), (x, y)


class _Canvas:
    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        city = view["city"]
        self.tiles: dict[tuple[int, int], Mapping[str, Any]] = {_cell(c): t for c, t in city["tiles"].items()}
        empty: set[tuple[int, int]] = set()
        for street, s in city["streets"].items():
            if s["frontier"]:
                empty.update(xy for xy in _street_cells(street) if xy not in self.tiles)
        self.empty = empty
        cells = set(self.tiles) | empty or {(0, 0)}
        self.x0, self.x1 = min(x for x, _ in cells), max(x for x, _ in cells)
        self.y0, self.y1 = min(y for _, y in cells), max(y for _, y in cells)
        cols, rows = self.x1 - self.x0 + 1, self.y1 - self.y0 + 1
        fit = min((WIDTH - SIDEBAR - 2 * MARGIN) // cols, (HEIGHT - 2 * MARGIN) // rows)
        self.t = max(MIN_TILE, min(MAX_TILE, fit))
        self.width = max(WIDTH, 2 * MARGIN + cols * self.t + SIDEBAR)
        self.height = max(HEIGHT, 2 * MARGIN + rows * self.t)
        # drawn at its own size: rectangles and straight streets need no smoothing, text is smoothed by FreeType
        # and the counters by `discs`
        self.image = Image.new("RGB", (self.width, self.height), BG)
        self.draw = ImageDraw.Draw(self.image)
        self.block_of = {_cell(c): bid for bid, b in city["blocks"].items() for c in b["cells"]}

    # ---- helpers ---------------------------------------------------------------------------------

    def xy(self, x: int, y: int) -> tuple[float, float]:
        return MARGIN + (x - self.x0) * self.t, MARGIN + (y - self.y0) * self.t

    def rect(
        self, box: tuple[float, float, float, float], fill: RGB, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.draw.rectangle([round(v) for v in box], fill=fill, outline=outline, width=width)

    def line(self, points: list[tuple[float, float]], fill: RGB, width: int) -> None:
        self.draw.line([(round(x), round(y)) for x, y in points], fill=fill, width=width)

    def text(self, at: tuple[float, float], text: str, size: int, fill: RGB = INK, anchor: str = "la") -> None:
        discs.text(self.image, at[0], at[1], text, _font(size), fill, anchor)

    def counter(self, at: tuple[float, float], colour: str, count: int) -> None:
        r = max(9, self.t // 7)
        x, y = at
        fill = GANG.get(colour, MUTED)
        discs.disc(self.image, x, y, r, fill, WHITE, 2)
        ink = INK if colour == "yellow" else WHITE
        self.text((x, y), str(count), max(10, r + 2), ink, anchor="mm")

    # ---- the city ----------------------------------------------------------------------------------------

    def band(self) -> float:
        return max(9.0, self.t * 0.2)

    def block_box(self, x: int, y: int, side: str | None) -> tuple[float, float, float, float]:
        px, py = self.xy(x, y)
        s = self.band()
        left, top, right, bottom = px + s, py + s, px + self.t - s, py + self.t - s
        if side == "N":
            top = py
        elif side == "S":
            bottom = py + self.t
        elif side == "W":
            left = px
        elif side == "E":
            right = px + self.t
        return left, top, right, bottom

    def draw_city(self) -> None:
        view = self.view
        city = view["city"]
        names = view.get("names") or {}
        colours = {seat: p["color"] for seat, p in view["players"].items()}
        for x, y in sorted(self.empty, key=lambda c: (c[1], c[0])):
            px, py = self.xy(x, y)
            self.rect((px + 3, py + 3, px + self.t - 3, py + self.t - 3), EMPTY)
        for x, y in sorted(self.tiles, key=lambda c: (c[1], c[0])):
            px, py = self.xy(x, y)
            self.rect((px, py, px + self.t, py + self.t), ROAD, ROAD_EDGE)
        for _bid, b in sorted(city["blocks"].items()):
            cells = [_cell(c) for c in b["cells"]]
            fill = self.block_fill(b, colours)
            for x, y in cells:
                side = self.tiles[(x, y)]["block_side"]
                # the side joining a large block's partner reaches the edge; a lone 3-street tile's block side too
                self.rect(self.block_box(x, y, side), fill)
            self.block_side_marks(b, cells)
        for street, s in sorted(city["streets"].items()):
            if s["frontier"]:
                self.frontier(street)
        for bid, b in sorted(city["blocks"].items()):
            self.block_label(bid, b, names)
        for street, s in sorted(city["streets"].items()):
            for seat, count in s["gangsters"].items():
                self.counter(self.street_middle(street), colours.get(seat, ""), count)
        self.axes()

    def block_fill(self, b: Mapping[str, Any], colours: Mapping[str, str]) -> RGB:
        if b["kind"] != "city":
            base = GANG.get(colours.get(b["owner"], ""), MUTED)
            return base if b["kind"] == "headquarters" else _pale(base)
        first = nm.content().locations.get(b["names"][0]) if b["names"] else None
        return LOCATION_COLOURS.get(first.color if first else "", UNKNOWN)

    def block_side_marks(self, b: Mapping[str, Any], cells: list[tuple[int, int]]) -> None:
        """A lone 3-street tile's block side as a dark bar (a large block's shared side is drawn as one block)."""
        if len(cells) != 1:
            return
        x, y = cells[0]
        side = self.tiles[(x, y)]["block_side"]
        if side is None:
            return
        px, py = self.xy(x, y)
        t, w = self.t, max(3, self.t // 18)
        ends = {
            "N": [(px, py + w / 2), (px + t, py + w / 2)],
            "S": [(px, py + t - w / 2), (px + t, py + t - w / 2)],
            "W": [(px + w / 2, py), (px + w / 2, py + t)],
            "E": [(px + t - w / 2, py), (px + t - w / 2, py + t)],
        }[side]
        self.line(ends, INK, w)

    def frontier(self, street: str) -> None:
        """The outer edge of a frontier section, dashed in orange."""
        x, y = _cell(street[2:])
        px, py = self.xy(x, y)
        t = self.t
        a, b = ((px, py), (px + t, py)) if street[0] == "h" else ((px, py), (px, py + t))
        steps = 6
        for i in range(0, steps, 2):
            p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
            q = (a[0] + (b[0] - a[0]) * (i + 1) / steps, a[1] + (b[1] - a[1]) * (i + 1) / steps)
            self.line([p, q], FRONTIER, max(3, t // 20))

    def street_middle(self, street: str) -> tuple[float, float]:
        x, y = _cell(street[2:])
        px, py = self.xy(x, y)
        if street[0] == "h":
            return px + self.t / 2, py
        return px, py + self.t / 2

    def block_label(self, bid: str, b: Mapping[str, Any], names: Mapping[str, str]) -> None:
        boxes = [self.block_box(x, y, self.tiles[(x, y)]["block_side"]) for x, y in (_cell(c) for c in b["cells"])]
        left = min(bx[0] for bx in boxes)
        top = min(bx[1] for bx in boxes)
        right = max(bx[2] for bx in boxes)
        bottom = max(bx[3] for bx in boxes)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        size = max(9, self.t // 9)
        if b["kind"] == "city":
            labels = [nm.location_name(n) for n in b["names"]]
            one = "/".join(labels)
            if len(labels) > 1 and _font(size).getlength(one) <= right - left - 4:
                labels = [one]
        else:
            owner = names.get(b["owner"], b["owner"] or "")
            labels = [("HQ " if b["kind"] == "headquarters" else "SH ") + str(owner)[:12]]
        for i, label in enumerate(labels):
            self.text((cx, top + 4 + i * (size + 3)), _fit(label, size, right - left - 4), size, INK, anchor="ma")
        for seat, count in b["gangsters"].items():
            colour = self.view["players"].get(seat, {}).get("color", "")
            self.counter((cx, cy + size / 2), colour, count)

    def axes(self) -> None:
        size = 12
        for x in range(self.x0, self.x1 + 1):
            px, _ = self.xy(x, self.y0)
            self.text((px + self.t / 2, MARGIN / 2), str(x), size, MUTED, anchor="mm")
        for y in range(self.y0, self.y1 + 1):
            _, py = self.xy(self.x0, y)
            self.text((MARGIN / 2, py + self.t / 2), str(y), size, MUTED, anchor="mm")

    # ---- beside the city ---------------------------------------------------------------------------------

    def sidebar(self) -> None:
        view = self.view
        left = self.width - SIDEBAR + 12
        names = view.get("names") or {}
        y = MARGIN
        self.text((left, y), "Crimopolis", 26)
        y += 38
        turn, final = view.get("turn"), view.get("final")
        if turn:
            who = names.get(turn["player"], turn["player"])
            self.text((left, y), f"Turn {turn['number']}: {who}"[:34], 17)
            y += 24
            self.text((left, y), f"{turn['hours']} hours left this turn", 15, MUTED)
            y += 22
        else:
            self.text((left, y), {"setup": "Setup", "over": "Game over"}.get(view["phase"], view["phase"]), 17)
            y += 24
        if final:
            self.text(
                (left, y), f"Final round: ends after {names.get(final['last'], final['last'])}"[:40], 14, FRONTIER
            )
            y += 22
        y += 10
        self.text((left, y), "Revealed tiles", 16)
        y += 24
        for tile_id in view["revealed"]:
            t = nm.content().tiles[tile_id]
            loc = nm.content().locations.get(t.location or "")
            self.rect(
                (left, y, left + 26, y + 26), LOCATION_COLOURS.get(loc.color if loc else "", UNKNOWN), INK
            )
            self.text((left + 34, y + 4), f"{tile_id} {nm.location_name(t.location or '')} · {t.streets} streets", 14)
            y += 32
        if not view["revealed"]:
            self.text((left, y), "none", 14, MUTED)
            y += 22
        y += 8
        decks = view["decks"]
        for line in (
            f"Stack {view['stack']} · Tombstones {view['tombstones']}",
            f"Jobs {decks['jobs']} · News {decks['newsflashes']} · Fortunes {decks['fortunes']}",
        ):
            self.text((left, y), line, 14)
            y += 22
        y += 12
        self.text((left, y), "Scoreboard", 16)
        y += 26
        for seat, p in sorted(view["players"].items(), key=lambda sp: sp[1]["seat"]):
            discs.disc(self.image, left + 9, y + 9, 9, GANG.get(p["color"], MUTED))
            self.text((left + 26, y), f"{names.get(seat, seat)}"[:22], 15)
            y += 22
            self.text(
                (left + 26, y),
                f"prestige {p['prestige']} · bodies {p['bodies']} · supply {p['supply']}",
                13,
                MUTED,
            )
            y += 18
            dest = ", ".join(p["destinies"]) or "none"
            self.text((left + 26, y), f"jobs {p['jobs']} · fortunes {p['fortunes']} · destinies {dest}"[:46], 13, MUTED)
            y += 26

    def png(self) -> bytes:
        out = to_palette(self.image, palette())  # a third of the bytes, and 40 ms less to encode a large city
        buf = io.BytesIO()
        out.save(buf, format="PNG", compress_level=_COMPRESS_LEVEL, optimize=False)
        return buf.getvalue()


def _fit(text: str, size: int, width: float) -> str:
    """`text` cut to fit `width` logical pixels at `size`."""
    font = _font(size)
    while text and font.getlength(text) > width:
        text = text[:-2] + "…" if len(text) > 2 else text[:-1]
    return text


def render_board(view: Mapping[str, Any]) -> bytes:
    """The PNG of a public view (`rules.crimopolis` `view(state, None)` plus `names`: seat -> shown name)."""
    canvas = _Canvas(view)
    canvas.draw_city()
    canvas.sidebar()
    return canvas.png()


def _sample() -> dict[str, Any]:
    import random

    from rules.contract import Action, SeededChance

    from .pack import PACK

    state = PACK.game.setup(["p1", "p2", "p3"], {}, SeededChance("sample")).state
    rng = random.Random(7)
    for _ in range(150):
        pending = PACK.game.pending(state)
        if pending is None:
            break
        seat = pending.awaited[0]
        move = PACK.game.random_move(state, seat, rng)
        assert move is not None
        state = PACK.game.step(state, [Action(seat, move)], SeededChance("x")).state
    return {**PACK.game.view(state, None), "names": {"p1": "ann", "p2": "ben", "p3": "cat"}}


if __name__ == "__main__":
    with open(sys.argv[1] if len(sys.argv) > 1 else "crimopolis-board.png", "wb") as fh:
        fh.write(render_board(_sample()))
