"""The public board as a PNG (commands.md "What people read"): the two rings of rulings Part 2 placed by
`board.json`'s `draw` (angle, radius), Home Bases in their colours, pieces as numbered discs (Bosses
larger), owned Cities filled with the owner's colour, and a side panel with each player's money, votes,
Men, cards, holdings and debts, the decks and the meeting.

Only the public view goes in, so the picture holds no secret; no clock time and no text chunk is
written and the zlib level is fixed, so the same view always gives the same bytes. Fonts come from
Pillow itself (`ImageFont.load_default(size=...)`), never from the system.
"""

from __future__ import annotations

import functools
import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .. import discs
from ..palette import fixed_palette, to_palette
from . import names as n
from .pack import PACK

RGB = tuple[int, int, int]
WIDTH, HEIGHT = 1240, 900
SCALE = 2  # the background is drawn twice as large, then reduced: Pillow's shapes are not anti-aliased
CENTRE = (455, 450)
UNIT = 330  # pixels for draw.radius 1.0
COMPRESS = 3  # after the palette: 2.7 ms to encode (6: 7 ms) for 20% more bytes
PANEL_X = 930

BG: RGB = (28, 30, 36)
INK: RGB = (235, 235, 230)
DIM: RGB = (150, 152, 160)
EDGE: RGB = (90, 94, 104)
LINE: RGB = (8, 8, 10)
KIND_COLOURS: dict[str, RGB] = {
    "city": (212, 175, 55),
    "power": (140, 90, 200),
    "official": (70, 130, 200),
    "mistake": (210, 80, 60),
    "business": (60, 160, 110),
    "illegal": (170, 60, 130),
    "government": (120, 124, 134),
}
PLAYER_COLOURS: dict[str, RGB] = {
    "green": (40, 160, 80),
    "yellow": (235, 195, 20),
    "white": (240, 240, 240),
    "red": (215, 50, 45),
}
KIND_WORDS = {"city": "City", "power": "Power", "official": "Corrupt Official", "mistake": "Mistake",
              "business": "Business Inv.", "illegal": "Illegal Act.", "government": "Government"}


DARK: RGB = (20, 20, 20)  # text on a light fill


@functools.cache
def palette() -> Image.Image:
    return fixed_palette([BG, INK, DIM, EDGE, LINE, DARK, *KIND_COLOURS.values(), *PLAYER_COLOURS.values()])


@functools.cache
def font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=px)


def _space_docs() -> list[dict[str, Any]]:
    return list(n.content().docs["board.json"]["spaces"])


def position(doc: dict[str, Any]) -> tuple[float, float]:
    draw = doc.get("draw") or {}
    angle = math.radians(float(draw.get("angle", 0)))
    r = float(draw.get("radius", 1.0)) * UNIT
    return CENTRE[0] + r * math.cos(angle), CENTRE[1] - r * math.sin(angle)


def _text_colour(fill: RGB) -> RGB:
    return DARK if sum(fill) > 420 else INK


class Canvas:
    """Drawing in the picture's pixels, on an image `scale` times as large (the background, once: its lines
    and boxes are not anti-aliased by Pillow) or as large (each picture: discs are smoothed one by one)."""

    def __init__(self, base: Image.Image | None = None, scale: int = 1) -> None:
        self.scale = scale
        self.img = base.copy() if base is not None else Image.new("RGB", (WIDTH * scale, HEIGHT * scale), BG)
        self.d = ImageDraw.Draw(self.img)

    def _s(self, v: float) -> float:
        return v * self.scale

    def circle(self, x: float, y: float, r: float, fill: RGB, outline: RGB | None = None, width: int = 1) -> None:
        if self.scale == 1:
            discs.disc(self.img, x, y, r, fill, outline, width)
            return
        s = self._s
        self.d.ellipse([s(x - r), s(y - r), s(x + r), s(y + r)], fill=fill, outline=outline,
                       width=width * self.scale)

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB, outline: RGB | None = None) -> None:
        s = self._s
        self.d.rounded_rectangle([s(x - w / 2), s(y - h / 2), s(x + w / 2), s(y + h / 2)], radius=4 * self.scale,
                                 fill=fill, outline=outline, width=self.scale)

    def line(self, a: tuple[float, float], b: tuple[float, float], colour: RGB, width: int = 2) -> None:
        s = self._s
        self.d.line([s(a[0]), s(a[1]), s(b[0]), s(b[1])], fill=colour, width=width * self.scale)

    def text(self, x: float, y: float, text: str, size: int, colour: RGB = INK, anchor: str = "la") -> None:
        if self.scale == 1:
            discs.text(self.img, x, y, text, font(size), colour, anchor)
            return
        self.d.text((self._s(x), self._s(y)), text, font=font(size * self.scale), fill=colour, anchor=anchor)

    def png(self) -> bytes:
        out = self.img.reduce(self.scale) if self.scale > 1 else self.img  # a box filter, faster than resize()
        # A palette: a third of the bytes to upload, and faster to encode. One fixed palette for every
        # picture (the drawing's colours and their blends), not one computed per picture: 1 ms, not 6.
        out = to_palette(out, palette())
        buf = io.BytesIO()
        out.save(buf, format="PNG", compress_level=COMPRESS, optimize=False)
        return buf.getvalue()


def render_board(view: dict[str, Any]) -> bytes:
    c = Canvas(_background())
    docs = {d["id"]: d for d in _space_docs()}
    pos = {sid: position(d) for sid, d in docs.items()}
    players = view.get("players") or {}
    colour_of = {seat: PLAYER_COLOURS.get(pl.get("colour") or "", DIM) for seat, pl in players.items()}
    for seat, pl in players.items():
        for city in pl.get("cities") or []:
            sid = n.content().cities[city][1]
            x, y = pos[sid]
            c.circle(x, y, 16, fill=colour_of[seat], outline=KIND_COLOURS["city"], width=3)
            c.text(x, y, sid, 10, _text_colour(colour_of[seat]), "mm")
    _pieces(c, players, pos, colour_of)
    _centre(c, view)
    _panel(c, view, colour_of)
    return c.png()


@functools.cache
def _background() -> Image.Image:
    """What never changes: the tracks, the black line, the spaces (unowned), the legend; drawn large and
    reduced once."""
    c = Canvas(scale=SCALE)
    docs = {d["id"]: d for d in _space_docs()}
    pos = {sid: position(d) for sid, d in docs.items()}
    _black_line(c, docs)
    for a, b, _kind in _edges():
        c.line(pos[a], pos[b], EDGE, 2)
    bases = n.content().bases
    for sid, d in docs.items():
        x, y = pos[sid]
        kind = d["kind"]
        if kind in ("home", "boss"):
            fill = PLAYER_COLOURS.get(bases[d["base"]].colour, DIM)
            size = 30 if kind == "home" else 26
            c.rect(x, y, size, size, fill=tuple(int(v * 0.55) for v in fill), outline=fill)  # type: ignore[arg-type]
            c.text(x, y, sid, 10, INK, "mm")
        elif kind == "government":
            c.rect(x, y, 34, 22, fill=KIND_COLOURS[kind], outline=INK)
            c.text(x, y, sid, 10, INK, "mm")
        else:
            fill = KIND_COLOURS.get(kind, DIM)
            c.circle(x, y, 15, fill=fill)
            c.text(x, y, sid, 10, _text_colour(fill), "mm")
    y = HEIGHT - 20 - 16 * len(KIND_WORDS)
    for kind, word in KIND_WORDS.items():
        c.circle(PANEL_X + 6, y + 7, 6, fill=KIND_COLOURS[kind])
        c.text(PANEL_X + 18, y, word, 12, DIM)
        y += 16
    return c.img.reduce(SCALE)


@functools.cache
def _edges() -> tuple[tuple[str, str, str], ...]:
    return tuple((e["a"], e["b"], e["type"]) for e in n.content().docs["board.json"]["edges"])


for _cached in (_background, _edges):  # drawn from the content's board
    PACK.on_change(_cached.cache_clear)


def _black_line(c: Canvas, docs: dict[str, dict[str, Any]]) -> None:
    """Between the tracks everywhere but at the Government spaces (R45)."""
    govs = sorted(float(d["draw"]["angle"]) for d in docs.values() if d["kind"] == "government")
    r = 0.81 * UNIT
    for i, start in enumerate(govs):
        end = govs[(i + 1) % len(govs)] + (360 if i == len(govs) - 1 else 0)
        steps = 24
        a0, a1 = start + 7, end - 7
        pts = []
        for k in range(steps + 1):
            ang = math.radians(a0 + (a1 - a0) * k / steps)
            pts.append((CENTRE[0] + r * math.cos(ang), CENTRE[1] - r * math.sin(ang)))
        for p, q in zip(pts, pts[1:], strict=False):
            c.line(p, q, LINE, 5)


def _pieces(c: Canvas, players: dict[str, Any], pos: dict[str, tuple[float, float]], colour_of: dict[str, RGB]) -> None:
    by_space: dict[str, list[tuple[str, int]]] = {}
    for seat, pl in players.items():
        for piece, space in sorted((pl.get("pieces") or {}).items(), key=lambda kv: n.number(kv[0])):
            by_space.setdefault(space, []).append((seat, n.number(piece)))
    for space, found in sorted(by_space.items()):
        if space not in pos:
            continue
        x, y = pos[space]
        dx, dy = x - CENTRE[0], y - CENTRE[1]
        dist = math.hypot(dx, dy) or 1.0
        ux, uy = dx / dist, dy / dist  # outward
        tx, ty = -uy, ux  # along the ring
        inward = dist < 0.7 * UNIT
        sign = -1 if inward else 1
        shown = found[:8]
        for i, (seat, num) in enumerate(shown):
            row, col = divmod(i, 4)
            off = 24 + row * 20
            along = (col - (min(len(shown) - row * 4, 4) - 1) / 2) * 19
            px, py = x + sign * ux * off + tx * along, y + sign * uy * off + ty * along
            r = 11 if num == 0 else 8.5
            fill = colour_of.get(seat, DIM)
            c.circle(px, py, r, fill=fill, outline=LINE if num else INK, width=2 if num == 0 else 1)
            c.text(px, py, "B" if num == 0 else str(num), 11 if num == 0 else 9, _text_colour(fill), "mm")
        if len(found) > len(shown):
            c.text(x + sign * ux * 68, y + sign * uy * 68, f"+{len(found) - len(shown)}", 11, INK, "mm")


def _centre(c: Canvas, view: dict[str, Any]) -> None:
    phase = view.get("phase")
    if view.get("turn"):
        c.text(CENTRE[0], CENTRE[1] - 44, f"Turn {view['turn']} · Round {view['round']}", 20, INK, "mm")
        active = (view.get("players") or {}).get(view.get("active") or "", {})
        if active.get("colour") and phase != "over":
            c.text(CENTRE[0], CENTRE[1] - 16, f"{active['colour']} to play", 16, DIM, "mm")
    else:
        c.text(CENTRE[0], CENTRE[1] - 30, "Setting up", 20, INK, "mm")
    if phase:
        c.text(CENTRE[0], CENTRE[1] + 12, "game over" if phase == "over" else phase.replace("_", " "), 15, DIM, "mm")
    dice = (view.get("turn_state") or {}).get("dice")
    if dice:
        c.text(CENTRE[0], CENTRE[1] + 40, "dice " + " + ".join(map(str, dice)), 15, INK, "mm")


def _panel(c: Canvas, view: dict[str, Any], colour_of: dict[str, RGB]) -> None:
    x0, y = PANEL_X, 24
    c.text(x0, y, "Organized Crime", 20, INK)
    y += 34
    for seat, pl in (view.get("players") or {}).items():
        colour = colour_of.get(seat, DIM)
        c.circle(x0 + 9, y + 9, 9, fill=colour, outline=INK)
        name = pl.get("colour") or "(no base yet)"
        if not pl.get("alive", True):
            c.text(x0 + 26, y, f"{name}: out", 15, DIM)
            y += 30
            continue
        c.text(x0 + 26, y, f"{name}  {n.money(pl.get('money', 0))}", 15, INK)
        y += 20
        cards = pl.get("cards") or {}
        votes = pl.get("votes", 0)
        c.text(x0 + 26, y, f"{votes} vote{'s' if votes != 1 else ''} · {pl.get('men_left', 0)} Men · cards "
                           f"{cards.get('power', 0)}P {cards.get('official', 0)}CO", 12, DIM)
        y += 17
        held = [n.target(x) for x in pl.get("cities") or []]
        for group in ("business", "illegal", "officials"):
            held += [f"{n.target(k)} x{v}" for k, v in (pl.get(group) or {}).items()]
        for line in _wrap(", ".join(held) or "no holdings", 34):
            c.text(x0 + 26, y, line, 12, DIM)
            y += 16
        y += 10
    debts = view.get("debts") or []
    if debts:
        c.text(x0, y, "Debts", 14, INK)
        y += 20
        for d in debts[:6]:
            debtor = (view["players"].get(d["debtor"]) or {}).get("colour") or "?"
            creditor = "Treasury" if d["creditor"] == "treasury" else (
                (view["players"].get(d["creditor"]) or {}).get("colour") or "?")
            c.text(x0, y, f"{debtor} owes {creditor} {n.money(d['amount'])}", 12, DIM)
            y += 16
        y += 8
    c.text(x0, y, "Decks (face down · last up)", 14, INK)
    y += 20
    for deck, dd in (view.get("decks") or {}).items():
        last = f" · {dd['discard'][-1]}" if dd.get("discard") else ""
        c.text(x0, y, f"{n.deck_name(deck)}: {dd.get('facedown', 0)}{last}", 12, DIM)
        y += 16
    mt = view.get("meeting")
    if mt:
        y += 8
        issue = mt["issue"]
        caller = (view["players"].get(mt["caller"]) or {}).get("colour") or "?"
        if issue["type"] == "penalty":
            what = f"penalty on {(view['players'].get(issue['offender']) or {}).get('colour') or '?'}"
        else:
            what = n.target(issue["target"])
        c.text(x0, y, f"Meeting {mt['id']}: {caller} asks {what}", 13, INK)
        y += 18
        c.text(x0, y, f"phase: {mt['phase'].replace('_', ' ')}", 12, DIM)
        y += 16


def _wrap(text: str, width: int) -> list[str]:
    words, lines, cur = text.split(" "), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines[:3]
