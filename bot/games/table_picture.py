"""A season's standings as a PNG table, for any game: the rows of the text, drawn with Pillow's own font so
that the same rows always give the same bytes.

>>> png = render_table("Season spring", (("#", 24), ("Player", 64)), [TableRow(("1", "Ann"))])
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == render_table("Season spring", (("#", 24), ("Player", 64)),
...                                                         [TableRow(("1", "Ann"))])
(True, True)
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
BG, FG, DIM, LINE = (24, 26, 32), (235, 235, 240), (160, 165, 180), (60, 64, 76)
WIDTH, ROW, TOP, MARGIN = 900, 34, 88, 24
MAX_ROWS = 60


@dataclass(frozen=True, slots=True)
class TableRow:
    cells: Sequence[str]
    dim: bool = False  # a player who left or is out: the row in grey
    note: str = ""  # drawn in the last column, e.g. "left"
    note_colour: RGB = DIM


@functools.cache
def font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=px)


def render_table(title: str, columns: Sequence[tuple[str, int]], rows: Sequence[TableRow]) -> bytes:
    """`columns` are (heading, x); a row's cells go under them in order, its note at the last column's x."""
    shown = list(rows)[:MAX_ROWS]
    height = TOP + ROW * max(1, len(shown)) + MARGIN + (ROW if len(rows) > MAX_ROWS else 0)
    image = Image.new("RGB", (WIDTH, height), BG)
    pen = ImageDraw.Draw(image)
    pen.text((MARGIN, 18), title[:70], font=font(26), fill=FG)
    for heading, x in columns:
        pen.text((x, TOP - 30), heading, font=font(16), fill=DIM)
    pen.line((MARGIN, TOP - 6, WIDTH - MARGIN, TOP - 6), fill=LINE, width=2)
    if not shown:
        pen.text((64, TOP + 6), "Nobody is on the roster yet.", font=font(18), fill=DIM)
    for i, row in enumerate(shown):
        y = TOP + i * ROW + 6
        for (_, x), cell in zip(columns, row.cells, strict=False):
            pen.text((x, y), cell, font=font(18), fill=DIM if row.dim else FG)
        if row.note:
            pen.text((columns[-1][1], y), row.note, font=font(16), fill=row.note_colour)
    if len(rows) > MAX_ROWS:
        pen.text((64, TOP + MAX_ROWS * ROW + 6), f"… and {len(rows) - MAX_ROWS} more", font=font(16), fill=DIM)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()
