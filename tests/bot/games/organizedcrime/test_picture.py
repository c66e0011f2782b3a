"""The board picture: drawn from the public view only, the same view giving the same bytes (no clock time,
no metadata), with Pillow's own font; it shows what the view says (pieces in their colours, owned Cities)."""

from __future__ import annotations

import inspect
import io
from random import Random

from PIL import Image

from bot.games.organizedcrime import picture
from bot.games.organizedcrime.board import alt_text
from bot.games.organizedcrime.names import Names
from rules.contract import Action, SeededChance
from rules.organizedcrime.game import GAME
from tests.support.leakscan import png_text_chunks


def views() -> list[dict]:
    """Public views along a random 4-player game: setup, early, middle, the end."""
    chance = SeededChance("picture")
    state = GAME.setup(["p1", "p2", "p3", "p4"], {}, chance).state
    out = [GAME.view(state, None)]
    rng = Random(3)
    for i in range(2000):
        pending = GAME.pending(state)
        if pending is None:
            break
        seat = pending.awaited[0]
        state = GAME.step(state, [Action(seat, GAME.random_move(state, seat, rng))], chance).state
        if i in (10, 60, 150):
            out.append(GAME.view(state, None))
    out.append(GAME.view(state, None))
    return out


def test_the_same_view_gives_the_same_bytes_and_no_metadata() -> None:
    found = views()
    pngs = [picture.render_board(v) for v in found]
    assert pngs == [picture.render_board(v) for v in found]
    assert len(set(pngs)) == len(pngs), "different boards, different pictures"
    for png in pngs:
        assert png_text_chunks(png) == []
        img = Image.open(io.BytesIO(png))
        assert img.size == (picture.WIDTH, picture.HEIGHT) and img.format == "PNG"


def test_the_picture_shows_the_pieces_in_their_colours() -> None:
    view = views()[2]
    img = Image.open(io.BytesIO(picture.render_board(view))).convert("RGB")
    colours = {pl["colour"] for pl in view["players"].values() if pl["alive"] and pl["colour"]}
    board = img.crop((0, 0, 900, picture.HEIGHT)).tobytes()  # the board only, not the side panel
    pixels = set(zip(board[0::3], board[1::3], board[2::3], strict=True))
    for colour in colours:
        assert picture.PLAYER_COLOURS[colour] in pixels, colour


def test_fonts_come_from_pillow_and_the_alt_text_says_what_is_shown() -> None:
    source = inspect.getsource(picture)
    assert "truetype(" not in source and "load_default(size=" in source
    view = views()[2]
    names = Names(view, lambda s: f"Boss{s[1:]}")
    alt = alt_text(view, names)
    assert alt.startswith("Organized Crime board") and len(alt) <= 1024
    for seat in view["players"]:
        assert names.full(seat) in alt
