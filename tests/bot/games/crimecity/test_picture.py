"""The board picture: a valid, deterministic, secret-free PNG of the public view."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.crimecity.picture import HEIGHT, WIDTH, render_board, sample_views, write_samples
from rules.crimecity.ids import CHARACTERS, LOCATIONS, START, Character, pair_key


def start_view(**changes: Any) -> dict[str, Any]:
    board: dict[str, list[str]] = {loc.value: [] for loc in LOCATIONS}
    for c, loc in START.items():
        board[loc.value].append(c.value)
    view: dict[str, Any] = {
        "round": 1,
        "rounds_total": 6,
        "board": {k: sorted(v) for k, v in board.items()},
        "dead": [],
        "friendship": {},
        "over": False,
    }
    view.update(changes)
    return view


def midgame_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "round": 3,
        "rounds_total": 6,
        "board": {
            "town_hall": ["banker", "governor", "policeman"],
            "mansion": ["governors_daughter"],
            "main_street": ["detective", "secretary", "store_clerk"],
            "bank": ["armed_guard"],
        },
        "dead": [],
        "friendship": {"armed_guard+banker": 1, "banker+governor": 2},
        "over": False,
    }
    view.update(changes)
    return view


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def chunk_types(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, types = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        types.append(data[pos + 4 : pos + 8])
        pos += 12 + length
    return types


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_png_of_the_expected_size(theme: str) -> None:
    img = decode(render_board(midgame_view(), theme=theme))
    assert img.format == "PNG"
    assert img.size == (WIDTH, HEIGHT)
    # Opaque (no alpha, no transparent palette entry), so it reads the same on Discord's dark and light
    # clients; a palette of the drawing's colours and their blends (a third of the bytes).
    assert img.mode == "P" and "transparency" not in img.info


def test_default_theme_is_dark_and_themes_differ() -> None:
    view = midgame_view()
    dark, light = render_board(view, theme="dark"), render_board(view, theme="light")
    assert render_board(view) == dark
    assert dark != light
    assert sum(decode(dark).convert("RGB").getpixel((2, 2))) < 150  # type: ignore[arg-type]
    assert sum(decode(light).convert("RGB").getpixel((2, 2))) > 600  # type: ignore[arg-type]


def test_unknown_theme_is_refused() -> None:
    with pytest.raises(KeyError):
        render_board(midgame_view(), theme="neon")


def test_same_view_same_bytes() -> None:
    assert render_board(midgame_view()) == render_board(midgame_view())
    assert render_board(midgame_view(), theme="light") == render_board(midgame_view(), theme="light")


def test_order_of_ids_in_the_view_does_not_matter() -> None:
    view = midgame_view()
    shuffled = midgame_view(
        board={k: list(reversed(v)) for k, v in reversed(view["board"].items())},
        friendship=dict(reversed(view["friendship"].items())),
    )
    assert render_board(view) == render_board(shuffled)


def test_different_positions_different_bytes() -> None:
    moved = start_view()
    moved["board"] = {k: list(v) for k, v in moved["board"].items()}
    moved["board"]["town_hall"].remove("secretary")
    moved["board"]["main_street"].append("secretary")
    assert render_board(start_view()) != render_board(moved)


def test_round_friendship_and_over_change_the_picture() -> None:
    base = render_board(midgame_view())
    assert render_board(midgame_view(round=4)) != base
    assert render_board(midgame_view(over=True)) != base
    assert render_board(midgame_view(friendship={"armed_guard+banker": 1, "banker+governor": 1})) != base


def test_dead_governor_is_drawn_differently() -> None:
    alive = midgame_view()
    board = {k: [c for c in v if c != "governor"] for k, v in alive["board"].items()}
    dead = midgame_view(board=board, dead=["governor"])
    missing = midgame_view(board=board)  # gone from the board but not listed as dead
    assert len({render_board(alive), render_board(dead), render_board(missing)}) == 3
    # The "removed" area sits at the bottom right and is empty when nobody is dead.
    corner = (WIDTH - 320, HEIGHT - 60, WIDTH - 20, HEIGHT - 10)
    blank = decode(render_board(missing)).crop(corner)
    drawn = decode(render_board(dead)).crop(corner)
    assert len(blank.getcolors(1 << 20) or []) == 1
    assert len(drawn.getcolors(1 << 20) or []) > 10


def test_no_metadata_chunks() -> None:
    for theme in ("dark", "light"):
        data = render_board(midgame_view(dead=["governor"], over=True), theme=theme)
        assert set(chunk_types(data)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}
        assert decode(data).info == {}


def test_unknown_ids_are_skipped() -> None:
    view = midgame_view(
        board={"town_hall": ["policeman", "mayor"], "airport": ["banker"]},
        friendship={"mayor+policeman": 3, "nonsense": 1, "policeman+policeman": 2},
        dead=["nobody"],
    )
    assert decode(render_board(view)).size == (WIDTH, HEIGHT)


def test_write_samples(tmp_path: Any) -> None:
    paths = write_samples(tmp_path)
    assert sorted(p.name for p in paths) == sorted(sample_views())
    assert {"board-round1.png", "board-midgame.png", "board-light.png"} == {p.name for p in paths}
    for p in paths:
        assert decode(p.read_bytes()).size == (WIDTH, HEIGHT)


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    dead = draw(st.booleans())
    alive = [c for c in CHARACTERS if not (dead and c is Character.GOVERNOR)]
    where = {c: draw(st.sampled_from(LOCATIONS)) for c in alive}
    board = {loc.value: sorted(c.value for c in alive if where[c] is loc) for loc in LOCATIONS}
    pairs = [pair_key(a, b) for i, a in enumerate(CHARACTERS) for b in CHARACTERS[i + 1 :]]
    friendship = draw(st.dictionaries(st.sampled_from(pairs), st.integers(0, 5000), max_size=len(pairs)))
    return {
        "round": draw(st.integers(1, 6)),
        "rounds_total": draw(st.integers(1, 6)),
        "board": board,
        "dead": ["governor"] if dead else [],
        "friendship": dict(sorted(friendship.items())),
        "over": draw(st.booleans()),
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view=boards(), theme=st.sampled_from(["dark", "light"]))
def test_any_valid_board_renders(view: dict[str, Any], theme: str) -> None:
    data = render_board(view, theme=theme)
    img = decode(data)
    assert img.size == (WIDTH, HEIGHT)
    assert render_board(view, theme=theme) == data


def test_renders_the_rules_public_view() -> None:
    from rules.crimecity.state import new_game
    from rules.crimecity.views import public_view

    view = public_view(new_game(["a", "b", "c", "d", "e"], {}))
    assert render_board(view) == render_board(start_view())


def test_the_presentation_draws_with_render_board() -> None:
    from bot.games.crimecity import PRESENTATION

    assert PRESENTATION.picture(start_view()) == render_board(start_view())


def test_a_board_is_the_same_whatever_was_drawn_before() -> None:
    """Pieces are cached per process: what a picture looks like must not depend on what came before it."""
    from bot.games.crimecity import picture

    picture._sprite.cache_clear()
    picture._text_mask.cache_clear()
    first = render_board(midgame_view())
    for view in (start_view(), midgame_view(round=5, over=True), midgame_view(dead=["governor"])):
        for theme in ("dark", "light"):
            render_board(view, theme=theme)
    assert render_board(midgame_view()) == first


def test_pieces_look_as_drawn_twice_as_large_and_reduced() -> None:
    """The reason for the sprites: a disc and a rounded box come out as smooth as on a picture drawn at 2x,
    pixel for pixel, wherever they fall within a pixel."""
    from PIL import ImageDraw

    from bot.games.crimecity.picture import SCALE, _Pen

    bg, fill, ring = (30, 31, 34), (0, 114, 178), (242, 243, 245)
    for cx, cy, r in ((40.0, 50.0, 20.0), (40.5, 50.25, 17.3), (61.75, 38.5, 9.6)):
        small = Image.new("RGB", (120, 100), bg)
        with _Pen(small).shapes(bg) as s:
            s.circle(cx, cy, r + 2.5, ring)
            s.rect((cx - 10, cy + r + 4, cx + 26, cy + r + 28), fill, radius=6)
        big = Image.new("RGB", (120 * SCALE, 100 * SCALE), bg)
        d = ImageDraw.Draw(big)
        rr = r + 2.5
        d.ellipse([round(v * SCALE) - k for v, k in ((cx - rr, 0), (cy - rr, 0), (cx + rr, 1), (cy + rr, 1))],
                  fill=ring)
        box = (cx - 10, cy + r + 4, cx + 26, cy + r + 28)
        d.rounded_rectangle([round(box[0] * SCALE), round(box[1] * SCALE), round(box[2] * SCALE) - 1,
                             round(box[3] * SCALE) - 1], radius=6 * SCALE, fill=fill)
        assert small.tobytes() == big.reduce(SCALE).tobytes()
        blends = {c for _, c in small.getcolors(1 << 16) or []} - {bg, fill, ring}
        assert len(blends) >= 3, "edges are smoothed"


def test_text_looks_as_drawn_twice_as_large_and_reduced() -> None:
    from PIL import ImageDraw

    from bot.games.crimecity.picture import SCALE, _font, _Pen, _stroke

    bg, ink = (246, 246, 248), (30, 31, 34)
    for bold in (False, True):
        small = Image.new("RGB", (300, 60), bg)
        _Pen(small).text((20, 30), "Main Street 3", 24, ink, anchor="lm", bold=bold)
        big = Image.new("RGB", (300 * SCALE, 60 * SCALE), bg)
        stroke = _stroke(24, bold)
        ImageDraw.Draw(big).text((20 * SCALE, 30 * SCALE), "Main Street 3", font=_font(24 * SCALE), fill=ink,
                                 anchor="lm", stroke_width=stroke, stroke_fill=ink)
        ours, theirs = small.tobytes(), big.reduce(SCALE).tobytes()
        # a blend of the reduced coverage against one of reduced colours: equal to a unit's rounding
        assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) <= 1
