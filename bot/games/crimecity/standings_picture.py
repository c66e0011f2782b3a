"""A season's standings as a PNG table: the same rows as the text (bot/games/table_picture.py draws it)."""

from __future__ import annotations

from collections.abc import Sequence

from ...host import Season, Standing
from ..table_picture import DIM, TableRow, render_table
from .seasons import EC, ELIMINATED, tols

OUT = (200, 90, 90)
COLUMNS = (("#", 24), ("Player", 64), ("Garnets", 440), ("ToL", 560), ("EC", 640), ("Matches", 710), ("", 820))


def render_standings(season: Season, table: Sequence[Standing]) -> bytes:
    rows = []
    for i, s in enumerate(table, 1):
        out = s.marks.get(ELIMINATED, 0) > 0
        cells = (str(i), s.display_name[:28], str(s.balance), str(tols(s)), str(s.marks.get(EC, 0)), str(s.matches))
        if out:
            rows.append(TableRow(cells, dim=True, note="eliminated", note_colour=OUT))
        else:
            rows.append(TableRow(cells, dim=not s.on_roster, note="" if s.on_roster else "left", note_colour=DIM))
    return render_table(f"Crime City — season {season.name}", COLUMNS, rows)
