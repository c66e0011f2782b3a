"""The board as a picture: posted with the text board after every round, on demand through
/crimecity board (ephemeral unless `public`), the same bytes for the same state, and the docs
picture docs/board-game-round2.png is exactly what the bot posted after round 2 of the worked example.

Regenerate the docs picture (after a deliberate change to the drawing) with
`CRIMECITY_WRITE_DOCS=1 .venv/bin/python -m pytest tests/bot/games/crimecity/test_gamenight_board.py`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bot.games.crimecity.picture import render_board
from rules.crimecity import public_view
from tests.support.crimecity import CAST, WE1, WE3, assert_no_secret, match_of
from tests.support.table import NAMES, Table, draft_cast, open_game

DOCS_PICTURE = Path(__file__).resolve().parents[4] / "docs" / "board-game-round2.png"


def picture(message) -> bytes:
    (name, data), *_ = [(a.filename, a.data) for a in message.attachments]
    assert name == "board.png" and data.startswith(b"\x89PNG")
    return data


async def test_board_picture_after_every_round_and_on_demand(table: Table) -> None:
    t = table
    fd = t.fd
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    start = fd.channel_messages(t.chan)[-1]
    assert "starting positions" in start.text()
    start_png = picture(start)
    for rnd in (WE1, WE3):
        for n in NAMES:
            first, second = rnd[n]
            await t.cmd(t.players[n], "act", first=first, **({"second": second} if second else {}))
        await t.idle()
    rounds = [m for m in fd.channel_messages(t.chan) if "the board after the round" in m.text()]
    assert [("Round 1**" in m.text(), "Round 2**" in m.text()) for m in rounds] == [(True, False), (False, True)]
    after1, after2 = (picture(m) for m in rounds)
    assert len({start_png, after1, after2}) == 3, "each board its own picture"
    painter = t.bot.delivery.painter
    assert painter is not None and painter.drawn >= 3, "drawn by the picture worker process"

    # the picture is drawn from the public view alone: the same state gives the same bytes
    logged = await t.bot.db.fetchall("SELECT data_json FROM events WHERE kind = 'board' AND public = 1 ORDER BY id")
    assert after2 == render_board(json.loads(logged[1]["data_json"])["view"])
    if os.environ.get("CRIMECITY_WRITE_DOCS"):
        DOCS_PICTURE.write_bytes(after2)
    assert DOCS_PICTURE.read_bytes() == after2, "docs picture is stale: see this module's docstring"

    # on demand: ephemeral by default, with the picture; twice the same bytes; public when asked
    mine = await t.cmd(t.players["eve"], "board")
    assert mine.ephemeral and "Round 3" in mine.text()
    again = await t.cmd(t.players["andy"], "board", dm=True)
    assert picture(mine) == picture(again)
    assert picture(mine) == render_board(public_view((await match_of(t)).game))
    before = len(fd.channel_messages(t.chan))
    shown = await t.cmd(t.players["eve"], "board", public=True)
    assert not shown.ephemeral and len(fd.channel_messages(t.chan)) == before + 1
    assert picture(fd.channel_messages(t.chan)[-1]) == picture(mine)
    for message in fd.channel_messages(t.chan):
        assert_no_secret(message.text(), "a channel post")
