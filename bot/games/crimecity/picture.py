"""The public board as a PNG picture (commands.md "What the bot sends on its own").

`render_board(view)` draws the public view of the rules package (`rules.views.public_view`):
the 2x2 city (rulings Part 2: Town Hall and Mansion on top, Main Street and Bank below), one
labelled token per character, the friendship points as a triangular grid with the friendship
edges (2+ points, R52) highlighted, and the dead Governor in a "removed" area (R31, Q35).

Only the public view goes in, so the picture can hold no secret, and no text chunk or clock
time is written, so the same view always gives the same bytes (commands.md "What people read").
Fonts come from Pillow itself (`ImageFont.load_default(size=...)`, Aileron), never from the
system, so CI machines without fonts draw the same picture.

Run `python -m bot.games.crimecity.picture --sample docs/` to write the sample pictures.
"""

from __future__ import annotations

import argparse
import functools
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rules.crimecity.ids import CHARACTERS, LOCATIONS, START, Character, Location

from ..palette import fixed_palette, to_palette

__all__ = ["THEMES", "render_board", "sample_views", "write_samples"]

RGB = tuple[int, int, int]

# Size of the picture. Each piece is drawn SCALE times larger and reduced (`_Pen`): Pillow's shapes are
# not anti-aliased, and a 2x box reduction smooths circles and text cheaply.
WIDTH, HEIGHT = 1000, 600
SCALE = 2
# Fixed zlib level: the bytes must not depend on Pillow's defaults changing. On a palette picture, 3 costs
# about 2 ms where 6 costs 5, for a few per cent more bytes.
_COMPRESS_LEVEL = 3

# Okabe-Ito colours (distinguishable with the common colour-vision deficiencies), black replaced
# by a wine red so that every token also shows on a dark background. Labels carry the identity
# anyway; colour only helps to find a token again in the friendship grid.
_COLOURS: dict[Character, RGB] = {
    Character.POLICEMAN: (0, 114, 178),
    Character.SECRETARY: (204, 121, 167),
    Character.BANKER: (0, 158, 115),
    Character.ARMED_GUARD: (213, 94, 0),
    Character.STORE_CLERK: (230, 159, 0),
    Character.DETECTIVE: (86, 180, 233),
    Character.GOVERNOR: (240, 228, 66),
    Character.GOVERNORS_DAUGHTER: (136, 34, 85),
}
_ABBR: dict[Character, str] = {
    Character.POLICEMAN: "POL",
    Character.SECRETARY: "SEC",
    Character.BANKER: "BAN",
    Character.ARMED_GUARD: "ARM",
    Character.STORE_CLERK: "CLK",
    Character.DETECTIVE: "DET",
    Character.GOVERNOR: "GOV",
    Character.GOVERNORS_DAUGHTER: "DAU",
}
# Names under the tokens, wrapped to fit a token's width (the built-in font is small-ish).
_NAME_LINES: dict[Character, tuple[str, ...]] = {
    Character.POLICEMAN: ("Policeman",),
    Character.SECRETARY: ("Secretary",),
    Character.BANKER: ("Banker",),
    Character.ARMED_GUARD: ("Armed", "Guard"),
    Character.STORE_CLERK: ("Store", "Clerk"),
    Character.DETECTIVE: ("Detective",),
    Character.GOVERNOR: ("Governor",),
    Character.GOVERNORS_DAUGHTER: ("Governor's", "Daughter"),
}


@dataclass(frozen=True)
class _Theme:
    bg: RGB
    panel: Mapping[Location, RGB]
    border: RGB
    text: RGB
    muted: RGB
    ring: RGB  # outline around tokens, so dark colours show on a dark panel and light on light
    cell0: RGB
    cell1: RGB
    friend: RGB
    friend_text: RGB
    dead: RGB
    badge: RGB
    badge_text: RGB


# Both themes are opaque, so either picture reads on Discord's dark and light clients; "dark"
# is the default because it is what most Discord users see.
THEMES: dict[str, _Theme] = {
    "dark": _Theme(
        bg=(30, 31, 34),
        panel={
            Location.TOWN_HALL: (44, 50, 64),
            Location.MANSION: (56, 44, 64),
            Location.MAIN_STREET: (60, 52, 42),
            Location.BANK: (38, 58, 48),
        },
        border=(86, 90, 100),
        text=(242, 243, 245),
        muted=(160, 164, 172),
        ring=(242, 243, 245),
        cell0=(43, 45, 49),
        cell1=(70, 74, 84),
        friend=(255, 200, 60),
        friend_text=(20, 20, 20),
        dead=(98, 100, 106),
        badge=(255, 200, 60),
        badge_text=(20, 20, 20),
    ),
    "light": _Theme(
        bg=(246, 246, 248),
        panel={
            Location.TOWN_HALL: (226, 233, 245),
            Location.MANSION: (238, 228, 244),
            Location.MAIN_STREET: (245, 236, 222),
            Location.BANK: (224, 241, 230),
        },
        border=(176, 180, 188),
        text=(30, 31, 34),
        muted=(96, 100, 108),
        ring=(30, 31, 34),
        cell0=(234, 235, 238),
        cell1=(204, 208, 216),
        friend=(245, 176, 0),
        friend_text=(20, 20, 20),
        dead=(170, 172, 178),
        badge=(30, 31, 34),
        badge_text=(255, 255, 255),
    ),
}

_QUADRANT: dict[Location, tuple[int, int]] = {  # (column, row) per rulings Part 2
    Location.TOWN_HALL: (0, 0),
    Location.MANSION: (1, 0),
    Location.MAIN_STREET: (0, 1),
    Location.BANK: (1, 1),
}

# Layout (logical pixels).
_MARGIN = 16
_HEADER_H = 64
_CITY_X, _CITY_Y, _CITY_W, _CITY_H, _CITY_GAP = _MARGIN, 76, 620, HEIGHT - 76 - _MARGIN, 10
_TOKEN_R = 32  # the largest token; crowded locations get smaller ones
_PANEL_X = _CITY_X + _CITY_W + 20
_CELL = 40
_LABEL_W = 46


@functools.lru_cache(maxsize=32)
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Cached: decoding the embedded font costs more than drawing a whole board.
    return ImageFont.load_default(size=px)


@functools.cache
def _palette(theme: str) -> Image.Image:
    """Every colour a board of `theme` draws, and their blends (bot/games/palette.py)."""
    t = THEMES[theme]
    drawn = [t.bg, *t.panel.values(), t.border, t.text, t.muted, t.ring, t.cell0, t.cell1, t.friend,
             t.friend_text, t.dead, t.badge, t.badge_text, *_COLOURS.values(), (0, 0, 0), (255, 255, 255)]
    return fixed_palette(drawn)


def _luminance(c: RGB) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _on(c: RGB) -> RGB:
    """Black or white, whichever contrasts more with `c` (WCAG contrast ratio)."""
    lum = _luminance(c)
    return (0, 0, 0) if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else (255, 255, 255)


def _character(cid: Any) -> Character | None:
    try:
        return Character(cid)
    except ValueError:
        return None


class _Pen:
    """Draws on the picture at its own size, each piece as it would look drawn at SCALE and reduced.

    Pillow's shapes are not anti-aliased, so the board used to be drawn twice as large and reduced: four
    times the pixels for a few rounded corners and discs. Now a group of shapes (a token, a chip, a cell with
    its number, a panel) is drawn at SCALE on the colour under it and reduced, as one cached sprite; text is
    pasted through a cached coverage mask drawn the same way. A board repeats its pieces from one picture to
    the next, so most are drawn once per process.
    """

    def __init__(self, image: Image.Image) -> None:
        self.img = image

    def shapes(self, under: RGB) -> _Shapes:
        """Shapes to draw as one sprite on `under`, the colour its box covers (nothing else lies there)."""
        return _Shapes(self.img, under)

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None, *, under: RGB,
             radius: float = 0, outline: RGB | None = None, width: float = 0) -> None:
        with self.shapes(under) as s:
            s.rect(box, fill, radius=radius, outline=outline, width=width)

    def rule(self, x0: int, x1: int, y: int, fill: RGB) -> None:
        """A horizontal line one pixel high: on whole pixels, it needs no smoothing."""
        self.img.paste(fill, (x0, y, x1 + 1, y + 1))

    def text(
        self, xy: tuple[float, float], s: str, size: int, fill: RGB, *, anchor: str = "la", bold: bool = False
    ) -> None:
        if not s:
            return
        mask, left, top = _text_mask(s, size, anchor, bold)
        self.img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)

    @staticmethod
    def width(s: str, size: int) -> float:
        return _font(size * SCALE).getlength(s) / SCALE


_Op = tuple[Any, ...]  # ("rect" | "circle" | "line" | "text", ...) in logical pixels, hashable for the cache


class _Shapes:
    """Records shapes; on leaving, pastes them as one sprite (see `_Pen`)."""

    def __init__(self, image: Image.Image, under: RGB) -> None:
        self.img = image
        self.under = under
        self.ops: list[_Op] = []
        self.box = [math.inf, math.inf, -math.inf, -math.inf]

    def _cover(self, x0: float, y0: float, x1: float, y1: float) -> None:
        b = self.box
        b[0], b[1], b[2], b[3] = min(b[0], x0), min(b[1], y0), max(b[2], x1), max(b[3], y1)

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None, *, radius: float = 0,
             outline: RGB | None = None, width: float = 0) -> None:
        self.ops.append(("rect", box, fill, radius, outline, width))
        self._cover(*box)

    def circle(self, cx: float, cy: float, r: float, fill: RGB, *, outline: RGB | None = None,
               width: float = 0) -> None:
        self.ops.append(("rect", (cx - r, cy - r, cx + r, cy + r), fill, -1, outline, width))
        self._cover(cx - r, cy - r, cx + r, cy + r)

    def line(self, pts: Sequence[tuple[float, float]], fill: RGB, width: float) -> None:
        self.ops.append(("line", tuple(pts), fill, width))
        for x, y in pts:
            self._cover(x - width, y - width, x + width, y + width)

    def text(self, xy: tuple[float, float], s: str, size: int, fill: RGB, *, anchor: str = "la",
             bold: bool = False) -> None:
        self.ops.append(("text", xy, s, size, fill, anchor, bold))
        left, top, right, bottom = _font(size * SCALE).getbbox(s, anchor=anchor, stroke_width=_stroke(size, bold))
        self._cover(xy[0] + left / SCALE, xy[1] + top / SCALE, xy[0] + right / SCALE, xy[1] + bottom / SCALE)

    def __enter__(self) -> _Shapes:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None or not self.ops:
            return
        x0, y0 = math.floor(self.box[0]) - 1, math.floor(self.box[1]) - 1
        w, h = math.ceil(self.box[2]) + 1 - x0, math.ceil(self.box[3]) + 1 - y0
        local = tuple(_moved(op, x0, y0) for op in self.ops)
        self.img.paste(_sprite(local, w, h, self.under), (x0, y0))


def _moved(op: _Op, dx: float, dy: float) -> _Op:
    kind = op[0]
    if kind == "rect":
        x0, y0, x1, y1 = op[1]
        return (kind, (x0 - dx, y0 - dy, x1 - dx, y1 - dy), *op[2:])
    if kind == "line":
        return (kind, tuple((x - dx, y - dy) for x, y in op[1]), *op[2:])
    x, y = op[1]
    return (kind, (x - dx, y - dy), *op[2:])


def _scaled(v: float) -> int:
    return round(v * SCALE)


@functools.lru_cache(maxsize=2048)
def _sprite(ops: tuple[_Op, ...], w: int, h: int, under: RGB) -> Image.Image:
    image = Image.new("RGB", (w * SCALE, h * SCALE), under)
    d = ImageDraw.Draw(image)
    for op in ops:
        if op[0] == "rect":
            (x0, y0, x1, y1), fill, radius, outline, width = op[1:]
            box = (_scaled(x0), _scaled(y0), _scaled(x1) - 1, _scaled(y1) - 1)
            if radius < 0:
                d.ellipse(box, fill=fill, outline=outline, width=_scaled(width))
            else:
                d.rounded_rectangle(box, radius=_scaled(radius), fill=fill, outline=outline, width=_scaled(width))
        elif op[0] == "line":
            pts, fill, width = op[1:]
            d.line([(_scaled(x), _scaled(y)) for x, y in pts], fill=fill, width=_scaled(width))
        else:
            (x, y), s, size, fill, anchor, bold = op[1:]
            stroke = _stroke(size, bold)
            d.text((x * SCALE, y * SCALE), s, font=_font(size * SCALE), fill=fill, anchor=anchor,
                   stroke_width=stroke, stroke_fill=fill)
    return image.reduce(SCALE)


def _stroke(size: int, bold: bool) -> int:
    """A faux bold: FreeType's stroke, as wide at every size as it was on the picture drawn at SCALE."""
    return max(1, round(size * SCALE / 26)) if bold else 0


@functools.lru_cache(maxsize=4096)
def _text_mask(s: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, int, int]:
    """The coverage of `s` drawn at SCALE and reduced, with its offset from the anchor point (logical px)."""
    font, stroke = _font(size * SCALE), _stroke(size, bold)
    left, top, right, bottom = font.getbbox(s, anchor=anchor, stroke_width=stroke)
    x0, y0 = math.floor(left / SCALE), math.floor(top / SCALE)
    w, h = max(1, math.ceil(right / SCALE) - x0), max(1, math.ceil(bottom / SCALE) - y0)
    mask = Image.new("L", (w * SCALE, h * SCALE), 0)
    ImageDraw.Draw(mask).text((-x0 * SCALE, -y0 * SCALE), s, font=font, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)
    return mask.reduce(SCALE), x0, y0


def _token(pen: _Pen, t: _Theme, c: Character, cx: float, cy: float, r: float, *, under: RGB,
           dead: bool = False) -> None:
    fill = t.dead if dead else _COLOURS[c]
    with pen.shapes(under) as s:
        s.circle(cx, cy, r + 2.5, t.ring)
        s.circle(cx, cy, r, fill)
        s.text((cx, cy + 1), _ABBR[c], round(r * 0.8), _on(fill), anchor="mm", bold=True)
        if dead:
            # A cross over the token: "removed" must not rely on the grey alone.
            k = r * 0.78
            for a, b in (((-k, -k), (k, k)), ((-k, k), (k, -k))):
                s.line([(cx + a[0], cy + a[1]), (cx + b[0], cy + b[1])], fill=t.ring, width=4)


def _chip(pen: _Pen, t: _Theme, c: Character, cx: float, cy: float, *, under: RGB, dead: bool) -> None:
    """A small label for the grid axes, coloured like the character's token."""
    w, h = 36, 24
    fill = t.dead if dead else _COLOURS[c]
    with pen.shapes(under) as s:
        s.rect((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), fill, radius=6)
        s.text((cx, cy + 1), _ABBR[c], 14, _on(fill), anchor="mm", bold=True)
        if dead:
            s.line([(cx - w / 2 + 3, cy), (cx + w / 2 - 3, cy)], fill=_on(fill), width=2)


def _header(pen: _Pen, t: _Theme, view: Mapping[str, Any]) -> None:
    rnd = view.get("round")
    total = view.get("rounds_total")
    title = f"Round {rnd}" if rnd is not None else "Crime City"
    if rnd is not None and total:
        title += f" of {total}"
    mid = _HEADER_H / 2 + 4
    pen.text((_MARGIN + 4, mid), title, 34, t.text, anchor="lm", bold=True)
    if view.get("over"):
        label = "FINAL BOARD"
        w = pen.width(label, 20) + 28
        x1 = WIDTH - _MARGIN
        with pen.shapes(t.bg) as s:
            s.rect((x1 - w, mid - 18, x1, mid + 18), t.badge, radius=18)
            s.text((x1 - w / 2, mid + 1), label, 20, t.badge_text, anchor="mm", bold=True)
    else:
        pen.text((WIDTH - _MARGIN, mid), "CRIME CITY", 20, t.muted, anchor="rm", bold=True)


def _rows(n: int) -> list[int]:
    """How many tokens go on each row of a location: one row up to 4, then two balanced rows."""
    if n <= 4:
        return [n] if n else []
    per = max(4, math.ceil(n / 2))
    out = []
    while n > 0:
        out.append(min(per, n))
        n -= per
    return out


def _city(pen: _Pen, t: _Theme, board: Mapping[Location, list[Character]]) -> None:
    qw = (_CITY_W - _CITY_GAP) / 2
    qh = (_CITY_H - _CITY_GAP) / 2
    for loc in LOCATIONS:
        col, row = _QUADRANT[loc]
        x0 = _CITY_X + col * (qw + _CITY_GAP)
        y0 = _CITY_Y + row * (qh + _CITY_GAP)
        pen.rect((x0, y0, x0 + qw, y0 + qh), t.panel[loc], under=t.bg, radius=14, outline=t.border, width=2)
        pen.text((x0 + 16, y0 + 26), loc.title, 24, t.text, anchor="lm", bold=True)
        chars = board.get(loc, [])
        if chars:
            pen.text((x0 + qw - 16, y0 + 26), str(len(chars)), 20, t.muted, anchor="rm", bold=True)
        rows = _rows(len(chars))
        if not rows:
            continue
        area_top, area_h = y0 + 50, qh - 54
        pitch = area_h / len(rows)
        step = min(88, (qw - 16) / max(rows))
        # Shrink tokens so that a row's circles and two name lines fit their pitch.
        r = min(_TOKEN_R, (step - 10) / 2, (pitch - 48) / 2)
        name_px = 14 if max(rows) >= 4 else 16
        block = 2 * r + 8 + 2 * (name_px + 2)
        top = area_top + (pitch - block) / 2
        i = 0
        for k_row, count in enumerate(rows):
            left = x0 + (qw - step * count) / 2
            cy = top + k_row * pitch + r + 2
            for k in range(count):
                c = chars[i]
                i += 1
                cx = left + step * (k + 0.5)
                _token(pen, t, c, cx, cy, r, under=t.panel[loc])
                for j, line in enumerate(_NAME_LINES[c]):
                    pen.text((cx, cy + r + 7 + j * (name_px + 2)), line, name_px, t.text, anchor="mt")


def _networks(points: Mapping[frozenset[Character], int], dead: set[Character]) -> list[list[Character]]:
    """Friendship networks (R52-R53, R58): components of 2+ edges among living characters."""
    parent = {c: c for c in CHARACTERS}

    def find(c: Character) -> Character:
        while parent[c] is not c:
            c = parent[c]
        return c

    for pair, n in points.items():
        a, b = sorted(pair, key=CHARACTERS.index)
        if n >= 2 and a not in dead and b not in dead:
            parent[find(b)] = find(a)
    groups: dict[Character, list[Character]] = {}
    for c in CHARACTERS:
        groups.setdefault(find(c), []).append(c)
    return [g for g in groups.values() if len(g) > 1]


def _friendship(pen: _Pen, t: _Theme, points: Mapping[frozenset[Character], int], dead: set[Character]) -> None:
    """The lower triangle of the 8x8 pair table, its legend and the networks it makes."""
    x0, y0 = _PANEL_X, _CITY_Y
    pen.text((x0, y0 + 12), "Friendship points", 22, t.text, anchor="lm", bold=True)
    gx, gy = x0 + _LABEL_W, y0 + 32 + 30
    cols, rows = CHARACTERS[:-1], CHARACTERS[1:]
    for j, c in enumerate(cols):
        _chip(pen, t, c, gx + (j + 0.5) * _CELL, gy - 16, under=t.bg, dead=c in dead)
    for i, r in enumerate(rows):
        cy = gy + (i + 0.5) * _CELL
        _chip(pen, t, r, x0 + _LABEL_W / 2 - 4, cy, under=t.bg, dead=r in dead)
        for j, c in enumerate(cols[: i + 1]):
            n = points.get(frozenset((r, c)), 0)
            gone = r in dead or c in dead
            # R58: a dead Governor's edges stay visible but connect nothing, so no highlight.
            edge = n >= 2 and not gone
            fill = t.friend if edge else t.cell1 if n else t.cell0
            cx = gx + (j + 0.5) * _CELL
            with pen.shapes(t.bg) as s:
                s.rect((cx - _CELL / 2 + 2, cy - _CELL / 2 + 2, cx + _CELL / 2 - 2, cy + _CELL / 2 - 2), fill, radius=5)
                if n:
                    label = str(n) if n < 1000 else "999+"
                    size = 21 if len(label) <= 2 else 15
                    colour = t.friend_text if edge else t.muted if gone else t.text
                    s.text((cx, cy + 1), label, size, colour, anchor="mm", bold=edge)
                else:
                    s.text((cx, cy), "\u00b7", 20, t.muted, anchor="mm")
    # Legend: what the highlight means, in words (colour is never the only cue).
    ly = gy + len(rows) * _CELL + 20
    pen.rect((x0, ly - 10, x0 + 20, ly + 10), t.friend, under=t.bg, radius=4)
    pen.text((x0 + 30, ly), "2+ points: friends, abilities shared", 15, t.text, anchor="lm")
    networks = _networks(points, dead)
    if not networks:
        return
    ny = ly + 34
    pen.text((x0, ny), "Networks", 18, t.muted, anchor="lm", bold=True)
    # Networks flow left to right after the heading, wrapping below it when a row is full.
    x, y = x0 + 92, ny
    for group in networks:
        width = len(group) * 40 - 4
        if x + width > WIDTH - _MARGIN:
            x, y = x0 + 92, y + 32
        pen.rect((x - 4, y - 15, x + width + 4, y + 15), t.cell1, under=t.bg, radius=8)
        for k, c in enumerate(group):
            _chip(pen, t, c, x + 18 + k * 40, y, under=t.cell1, dead=False)
        x += width + 16


def _removed(pen: _Pen, t: _Theme, dead: Sequence[Character]) -> None:
    if not dead:
        return
    x0, cy = _PANEL_X, HEIGHT - _MARGIN - 26
    pen.rule(x0, WIDTH - _MARGIN, cy - 38, t.border)
    for k, c in enumerate(dead):
        cx = x0 + 24 + k * 170
        _token(pen, t, c, cx, cy, 22, under=t.bg, dead=True)
        pen.text((cx + 34, cy - 10), c.title.removeprefix("The "), 17, t.text, anchor="lm", bold=True)
        pen.text((cx + 34, cy + 11), "dead, removed from the board", 15, t.muted, anchor="lm")


def _parse(
    view: Mapping[str, Any],
) -> tuple[dict[Location, list[Character]], set[Character], dict[frozenset[Character], int]]:
    order = {c: i for i, c in enumerate(CHARACTERS)}
    board: dict[Location, list[Character]] = {}
    for key, ids in (view.get("board") or {}).items():
        try:
            loc = Location(key)
        except ValueError:
            continue  # not a location of this game: nothing sensible to draw
        chars = {c for c in map(_character, ids) if c is not None}
        board[loc] = sorted(chars, key=order.__getitem__)  # rule-book order reads better than a-z
    dead = {c for c in map(_character, view.get("dead") or ()) if c is not None}
    points: dict[frozenset[Character], int] = {}
    for key, value in (view.get("friendship") or {}).items():
        a, _, b = str(key).partition("+")
        ca, cb = _character(a), _character(b)
        if ca is None or cb is None or ca is cb:
            continue
        points[frozenset((ca, cb))] = max(0, int(value))
    return board, dead, points


def render_board(view: Mapping[str, Any], *, theme: str = "dark") -> bytes:
    """The public board as PNG bytes, the same bytes for the same view.

    `view` is `rules.views.public_view(state)`: round, rounds_total (optional), board
    (location -> character ids), dead, friendship (pair key -> points), over. Unknown ids are
    skipped rather than refused: a picture is a courtesy next to the text board.
    """
    t = THEMES[theme]
    board, dead, points = _parse(view)
    image = Image.new("RGB", (WIDTH, HEIGHT), t.bg)
    pen = _Pen(image)
    _header(pen, t, view)
    _city(pen, t, board)
    _friendship(pen, t, points, dead)
    _removed(pen, t, sorted(dead, key=CHARACTERS.index))
    out = io.BytesIO()
    # No pnginfo, no optimize (its result may change between zlib builds): deterministic bytes.
    to_palette(image, _palette(theme)).save(out, format="PNG", optimize=False, compress_level=_COMPRESS_LEVEL)
    return out.getvalue()


def sample_views() -> dict[str, tuple[dict[str, Any], str]]:
    """Views for the docs pictures: file name -> (view, theme)."""
    start: dict[str, list[str]] = {loc.value: [] for loc in LOCATIONS}
    for c, loc in START.items():
        start[loc.value].append(c.value)
    round1 = {
        "round": 1,
        "rounds_total": 6,
        "board": {k: sorted(v) for k, v in start.items()},
        "dead": [],
        "friendship": {},
        "over": False,
    }
    midgame = {
        "round": 4,
        "rounds_total": 6,
        "board": {
            "town_hall": ["banker", "governor", "policeman"],
            "mansion": ["governors_daughter"],
            "main_street": ["detective", "secretary", "store_clerk"],
            "bank": ["armed_guard"],
        },
        "dead": [],
        "friendship": {
            "armed_guard+banker": 1,
            "banker+governor": 2,
            "detective+store_clerk": 3,
            "policeman+secretary": 1,
            "detective+secretary": 2,
            "governor+governors_daughter": 1,
        },
        "over": False,
    }
    final = {
        "round": 6,
        "rounds_total": 6,
        "board": {
            "town_hall": ["policeman", "secretary"],
            "mansion": ["armed_guard", "governors_daughter"],
            "main_street": ["banker", "detective", "store_clerk"],
            "bank": [],
        },
        "dead": ["governor"],
        "friendship": {
            "banker+governor": 3,
            "banker+detective": 2,
            "detective+store_clerk": 4,
            "armed_guard+governors_daughter": 2,
            "policeman+secretary": 1,
            "governor+policeman": 1,
        },
        "over": True,
    }
    return {
        "board-round1.png": (round1, "dark"),
        "board-midgame.png": (midgame, "dark"),
        "board-light.png": (final, "light"),
    }


def write_samples(directory: Path) -> list[Path]:
    """Write the docs pictures into `directory`; returns their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (view, theme) in sample_views().items():
        path = directory / name
        path.write_bytes(render_board(view, theme=theme))
        paths.append(path)
    return paths


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Write the sample board pictures.")
    parser.add_argument("--sample", metavar="DIR", type=Path, required=True, help="directory, e.g. docs/")
    for written in write_samples(parser.parse_args().sample):
        print(written)
