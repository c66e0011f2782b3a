"""Smooth discs and kept text masks: a disc pasted at its own size has the drawn colours inside, a smoothed edge
and its centre where asked; text pasted from a kept mask is what `ImageDraw.text` draws, to the pixel."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.games import discs

BG = (10, 20, 30)
FILL = (200, 40, 40)
RING = (240, 240, 240)


def test_a_disc_has_its_colours_inside_and_a_smooth_edge() -> None:
    light = (250, 250, 250)
    img = Image.new("RGB", (60, 60), light)
    discs.disc(img, 30.5, 30.5, 12, FILL, RING, 2)
    assert img.getpixel((30, 30)) == FILL
    assert img.getpixel((30, 19)) == RING  # inside the outline, 1 pixel from the edge
    assert img.getpixel((30, 5)) == light and img.getpixel((5, 5)) == light
    outer = [(x, y) for x in range(60) for y in range(60) if (x + 0.5 - 30.5) ** 2 + (y + 0.5 - 30.5) ** 2 >= 11**2]
    edge = {img.getpixel(xy) for xy in outer} - {light, RING}
    assert edge, "the edge blends into the picture"
    for colour in edge:  # a blend of the ring and the background, never darker than both (no black fringe)
        assert all(min(a, b) <= c <= max(a, b) for a, b, c in zip(light, RING, colour, strict=True)), colour


def test_a_disc_is_centred_where_asked() -> None:
    for x, y in ((20.0, 20.0), (20.5, 21.5), (33.25, 18.75)):
        img = Image.new("L", (60, 60), 0).convert("RGB")
        discs.disc(img, x, y, 8, (255, 255, 255))
        bbox = img.convert("L").point(lambda v: 255 if v > 127 else 0).getbbox()
        assert bbox is not None
        cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        # placed to the half pixel, and Pillow's box includes its last pixel: within three quarters of a pixel
        assert abs(cx - x) <= 0.75 and abs(cy - y) <= 0.75, (x, y, bbox)
        assert 15 <= bbox[2] - bbox[0] <= 17


def test_text_from_a_kept_mask_is_what_imagedraw_draws() -> None:
    font = ImageFont.load_default(size=14)
    for anchor, at in (("la", (12, 9)), ("mm", (80, 30)), ("ma", (60, 40))):
        theirs = Image.new("RGB", (160, 60), BG)
        ImageDraw.Draw(theirs).text(at, "Turn 5 · $1,200,000", font=font, fill=FILL, anchor=anchor)
        for _ in range(2):  # drawn, then from the kept mask
            mine = Image.new("RGB", (160, 60), BG)
            discs.text(mine, *at, "Turn 5 · $1,200,000", font, FILL, anchor)
            assert ImageChops.difference(mine, theirs).getbbox() is None, anchor
    blank = Image.new("RGB", (10, 10), BG)
    discs.text(blank, 2, 2, "", font, FILL)
    assert blank.getcolors() == [(100, BG)]
