"""A fixed palette for a game's board pictures: quantizing to it takes 1 ms where finding one per picture
takes 6, and a palette PNG is a third of the bytes of an RGB one and faster to encode."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

RGB = tuple[int, int, int]
NEAR = 8  # a blend differs from every colour of the drawing by more than this in some channel
STEPS = 8  # blends of a pair, from one towards the other


def fixed_palette(drawn: Sequence[RGB]) -> Image.Image:
    """Every colour of `drawn`, exactly, then blends of each pair of them (what a reduction makes of edges
    and of anti-aliased text), as a 256-colour palette image. The same colours give the same palette."""
    base = list(dict.fromkeys(drawn))
    if len(base) > 128:
        raise ValueError("a fixed palette keeps room for blends: at most 128 colours of the drawing")
    blends = Image.new("RGB", (len(base) * len(base), STEPS))
    px = blends.load()
    assert px is not None
    for i, a in enumerate(base):
        for j, b in enumerate(base):
            for k in range(STEPS):
                t = (k + 1) / (STEPS + 1)
                px[i * len(base) + j, k] = tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    flat = blends.quantize(colors=256 - len(base), method=Image.Quantize.FASTOCTREE).getpalette() or []
    # Pillow maps a pixel to the palette at reduced precision: a blend too near a colour of the drawing could
    # take that colour's pixels, so those are left out.
    mixed = [
        c
        for c in zip(flat[0::3], flat[1::3], flat[2::3], strict=True)
        if min(max(abs(x - y) for x, y in zip(c, b, strict=True)) for b in base) > NEAR
    ][: 256 - len(base)]
    colours = [c for rgb in (*base, *mixed) for c in rgb]
    out = Image.new("P", (1, 1))
    out.putpalette(colours + [0] * (768 - len(colours)))
    return out


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    return img.quantize(palette=palette, dither=Image.Dither.NONE)
