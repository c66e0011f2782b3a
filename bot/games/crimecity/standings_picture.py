"""A season's standings as a PNG table: the same rows as the text, drawn with Pillow's own font so that
the same standings always give the same bytes."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from ...host import Season, Standing
from .picture import _font
from .seasons import EC, ELIMINATED, tols

BG, FG, DIM, LINE, OUT = (24, 26, 32), (235, 235, 240), (160, 165, 180), (60, 64, 76), (200, 90, 90)
WIDTH, ROW, TOP, MARGIN = 900, 34, 88, 24
COLUMNS = (("#", 24), ("Player", 64), ("Garnets", 440), ("ToL", 560), ("EC", 640), ("Matches", 710), ("", 820))
MAX_ROWS = 60


def render_standings(season: Season, table: Sequence[Standing]) -> bytes:
    shown = list(table)[:MAX_ROWS]
    height = TOP + ROW * max(1, len(shown)) + MARGIN + (ROW if len(table) > MAX_ROWS else 0)
    image = Image.new("RGB", (WIDTH, height), BG)
    pen = ImageDraw.Draw(image)
    pen.text((MARGIN, 18), f"Crime City — season {season.name}"[:70], font=_font(26), fill=FG)
    for title, x in COLUMNS:
        pen.text((x, TOP - 30), title, font=_font(16), fill=DIM)
    pen.line((MARGIN, TOP - 6, WIDTH - MARGIN, TOP - 6), fill=LINE, width=2)
    if not shown:
        pen.text((64, TOP + 6), "Nobody is on the roster yet.", font=_font(18), fill=DIM)
    for i, s in enumerate(shown):
        y = TOP + i * ROW + 6
        out = s.marks.get(ELIMINATED, 0) > 0
        colour = DIM if out or not s.on_roster else FG
        cells = (str(i + 1), s.display_name[:28], str(s.balance), str(tols(s)), str(s.marks.get(EC, 0)), str(s.matches))
        for (_, x), cell in zip(COLUMNS, cells, strict=False):
            pen.text((x, y), cell, font=_font(18), fill=colour)
        if out:
            pen.text((COLUMNS[-1][1], y), "eliminated", font=_font(16), fill=OUT)
        elif not s.on_roster:
            pen.text((COLUMNS[-1][1], y), "left", font=_font(16), fill=DIM)
    if len(table) > MAX_ROWS:
        pen.text((64, TOP + MAX_ROWS * ROW + 6), f"… and {len(table) - MAX_ROWS} more", font=_font(16), fill=DIM)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()
