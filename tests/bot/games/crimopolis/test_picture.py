"""The board picture: drawn from the public view only, deterministic (the same view gives the same bytes, no text
chunk, no clock), cropped to the explored city and scaled to a fixed canvas, never below 56 pixels a tile (a
larger city makes the canvas grow)."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from bot.games.crimopolis import picture
from bot.games.crimopolis.messages import picture_view
from bot.games.crimopolis.names import Names
from bot.games.crimopolis.texts import board_alt
from rules.contract import Action, SeededChance
from rules.crimopolis import GAME
from tests.support.leakscan import png_text_chunks


def played_view(steps: int = 200, seed: int = 1) -> dict[str, Any]:
    state = GAME.setup(["p1", "p2", "p3", "p4"], {}, SeededChance(f"picture-{seed}")).state
    rng = random.Random(seed)
    for _ in range(steps):
        pending = GAME.pending(state)
        if pending is None:
            break
        move = GAME.random_move(state, pending.awaited[0], rng)
        assert move is not None
        state = GAME.step(state, [Action(pending.awaited[0], move)], SeededChance("-")).state
    n = Names({"p1": "ann", "p2": "ben", "p3": "cat", "p4": "dan"}.get, GAME.view(state, None))  # type: ignore[arg-type]
    return picture_view(GAME.view(state, None), n)


def strip(width: int) -> dict[str, Any]:
    """A city one row high and `width` tiles long (as a view: the picture reads nothing else)."""
    view = played_view(0)
    tiles = {f"{x},0": {"tile": "T01", "block_side": None} for x in range(width)}
    blocks = {
        f"{x},0": {"cells": [f"{x},0"], "kind": "city", "owner": None, "names": ["bank"], "gangsters": {}}
        for x in range(width)
    }
    view["city"] = {"tiles": tiles, "blocks": blocks, "streets": {}}
    return view


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_the_same_view_gives_the_same_bytes() -> None:
    view = played_view()
    first = picture.render_board(view)
    assert picture.render_board(dict(view)) == first
    assert first.startswith(b"\x89PNG") and png_text_chunks(first) == []
    assert picture.render_board(played_view(steps=50)) != first, "another city, another picture"


def test_legible_at_any_size() -> None:
    small = picture._Canvas(played_view(5))
    assert small.t == picture.MAX_TILE and (small.width, small.height) == (picture.WIDTH, picture.HEIGHT)
    big = picture._Canvas(strip(60))
    assert big.t == picture.MIN_TILE and big.width > picture.WIDTH, "a large city grows the canvas"
    png = picture.render_board(strip(60))
    assert size(png)[0] == big.width
    mid = picture._Canvas(strip(12))
    assert picture.MIN_TILE <= mid.t <= picture.MAX_TILE and mid.width == picture.WIDTH


def test_alt_text_says_what_it_shows() -> None:
    view = played_view()
    alt = board_alt(view, Names(view["names"].get, view))  # type: ignore[arg-type]
    assert alt.startswith("Crimopolis city map") and " (yellow) " in alt and "ann (" in alt and len(alt) <= 1024
    assert "private" not in view and "stack" in view and isinstance(view["stack"], int)
