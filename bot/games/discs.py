"""Smooth discs, and text drawn once, on a picture drawn at its own size.

Pillow's shapes are not anti-aliased, so a board used to be drawn twice as large and reduced: four times the
pixels to fill and a reduction of the whole picture, for the few discs that need it (text is smoothed by
FreeType and rectangles sit on whole pixels). A disc is drawn twice as large alone, reduced, and pasted through
its own coverage mask instead; each (size, colours, place within a pixel) is drawn once per process. Text is
pasted the same way: FreeType takes a sixth of a millisecond to draw a line, and a board repeats its lines
(piece numbers, space names, a player's money) from one picture to the next.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def disc(img: Image.Image, x: float, y: float, r: float, fill: RGB, outline: RGB | None = None,
         width: int = 1) -> None:
    """A disc of radius `r` centred on (`x`, `y`), with an `outline` `width` pixels wide inside its edge."""
    pad = math.ceil(r) + 1
    left, top = math.floor(x) - pad, math.floor(y) - pad
    colour, mask = _sprite(r, fill, outline, width, round((x - left) * 2), round((y - top) * 2), pad)
    img.paste(colour, (left, top), mask)


@functools.lru_cache(maxsize=2048)
def _sprite(r: float, fill: RGB, outline: RGB | None, width: int, cx2: int, cy2: int,
            pad: int) -> tuple[Image.Image, Image.Image]:
    side = 2 * (2 * pad + 1)
    box = [cx2 - 2 * r, cy2 - 2 * r, cx2 + 2 * r, cy2 + 2 * r]
    # the pixels around the disc take its edge's colour, so the reduced edge blends into the picture, not black
    colour = Image.new("RGB", (side, side), outline or fill)
    ImageDraw.Draw(colour).ellipse(box, fill=fill, outline=outline, width=2 * width if outline else 0)
    mask = Image.new("L", (side, side), 0)
    ImageDraw.Draw(mask).ellipse(box, fill=255)
    return colour.reduce(2), mask.reduce(2)


def text(img: Image.Image, x: float, y: float, line: str, font: Font, colour: RGB, anchor: str = "la") -> None:
    """`line` in `font` anchored at (`x`, `y`) as `ImageDraw.text` would (to the nearest pixel)."""
    if not line:
        return
    mask, left, top = _text_mask(line, font, anchor)
    img.paste(colour, (round(x) + left, round(y) + top), mask)


@functools.lru_cache(maxsize=4096)
def _text_mask(line: str, font: Font, anchor: str) -> tuple[Image.Image, int, int]:
    left, top, right, bottom = (int(v) for v in font.getbbox(line, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), line, font=font, fill=255, anchor=anchor)
    return mask, left, top
