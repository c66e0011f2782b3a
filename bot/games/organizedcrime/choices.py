"""The caller's legal choices now, for autocomplete and the panel: everything comes from
`rules.organizedcrime.legal` (the engine's own list), filtered by what was typed, in its order.

A choice is (display name, value): the value is what the option takes (a piece `green:1`, a space
`o04`, a card id, a path item in notation), the name says it in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.contract import NoChance
from rules.organizedcrime.engine import Engine
from rules.organizedcrime.legal import destinations_for, legal_actions

from ...host import MAX_CHOICES, matches
from . import names as n
from .moves import Context
from .notation import describe, write
from .pack import PACK
from .public import public_view

Choice = tuple[str, str]
MAX_TEXT = 100  # Discord's limit for a choice's name and value


def legal(ctx: Context) -> list[dict[str, Any]]:
    return legal_actions(Engine(PACK.game.content, ctx.state, NoChance()), ctx.seat)


def of(ctx: Context, act: str, where: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    return [a for a in legal(ctx) if a["act"] == act and (where is None or where(a))]


def pick(found: Iterable[Choice], current: str) -> list[Choice]:
    """Filtered by what was typed, first 25, each at most 100 characters, values unique."""
    out: list[Choice] = []
    seen: set[str] = set()
    for name, value in found:
        if value in seen or len(value) > MAX_TEXT or not matches(current, name, value):
            continue
        seen.add(value)
        out.append((name[:MAX_TEXT], value))
        if len(out) >= MAX_CHOICES:
            break
    return out


def where_is(ctx: Context, piece: str) -> str:
    pl = public_view(ctx.state)["players"].get(n.owner(piece)) or {}
    return n.space(pl.get("pieces", {}).get(piece))


def bases(ctx: Context, current: str) -> list[Choice]:
    return pick(((describe(a, ctx.names), str(a["base"])) for a in of(ctx, "base")), current)


def counts(ctx: Context, current: str) -> list[Choice]:
    found = sorted(a["count"] for a in of(ctx, "buy_hitmen"))
    return pick(((describe({"act": "buy_hitmen", "count": k}, ctx.names), str(k)) for k in found), current)


def cards(ctx: Context, act: str, current: str) -> list[Choice]:
    return pick(((describe(a, ctx.names), a["card"]) for a in of(ctx, act)), current)


def declare_pieces(ctx: Context, current: str, other: str | None = None) -> list[Choice]:
    seen = []
    for a in of(ctx, "declare"):
        piece = ctx.names.piece(a["piece"])
        if piece != other and piece not in seen:
            seen.append(piece)
    found = [(f"{p}{' (Boss)' if p.endswith(':0') else ''} on {where_is(ctx, parse(ctx, p))}", p) for p in seen]
    return pick(found, current)


def parse(ctx: Context, text: str) -> str:
    return ctx.names.parse_piece(text, ctx.seat, ctx.lookup)


def movers(ctx: Context, current: str) -> list[Choice]:
    seen: list[str] = []
    for a in of(ctx, "move"):
        if a["piece"] not in seen:
            seen.append(a["piece"])
    return pick(((f"{ctx.names.piece(p)} on {where_is(ctx, p)}", ctx.names.piece(p)) for p in seen), current)


def shares(ctx: Context, piece_text: str | None, current: str) -> list[Choice]:
    piece = _maybe_piece(ctx, piece_text)
    # in `legal` order, the first of each share (commands.md): ascending for one piece
    found = list(dict.fromkeys(a["share"] for a in of(ctx, "move") if piece is None or a["piece"] == piece))
    return pick(((f"{k} counts", str(k)) for k in found), current)


def destinations(ctx: Context, piece_text: str | None, share: Any, current: str) -> list[Choice]:
    """rulings B.3 for the chosen mover and share, as if its move had begun (commands.md `move to`)."""
    piece = _maybe_piece(ctx, piece_text)
    try:
        k = int(share)
    except (TypeError, ValueError):
        return []
    if piece is None or not of(ctx, "move", lambda a: a["piece"] == piece and a["share"] == k):
        return []
    found = destinations_for(Engine(PACK.game.content, ctx.state, NoChance()), piece, k)
    return pick(((f"{n.space(d['to'])} (via {', '.join(d['steps'])})", str(d["to"])) for d in found), current)


def path_items(ctx: Context, current: str) -> list[Choice]:
    public = public_view(ctx.state)
    acts = [a for a in legal(ctx) if a["act"] in ("step", "rub", "hit", "stop")]
    return pick(((describe(a, ctx.names, public), write(a, ctx.names)) for a in acts), current)


def acquirers(ctx: Context, current: str) -> list[Choice]:
    return pick(((describe(a, ctx.names), ctx.names.piece(a["piece"])) for a in of(ctx, "acquire")), current)


def meeting_pieces(ctx: Context, current: str) -> list[Choice]:
    seen: list[str] = []
    for a in of(ctx, "meeting"):
        if a["piece"] not in seen:
            seen.append(a["piece"])
    return pick(((f"{ctx.names.piece(p)} landed on {where_is(ctx, p)}", ctx.names.piece(p)) for p in seen), current)


def targets(ctx: Context, piece_text: str | None, current: str) -> list[Choice]:
    piece = _maybe_piece(ctx, piece_text)
    found = [a for a in of(ctx, "meeting") if piece is None or a["piece"] == piece]
    return pick(((n.target(a["target"]), a["target"]) for a in found), current)


def gift_cards(ctx: Context, current: str) -> list[Choice]:
    found = [a["card"] for a in of(ctx, "give", lambda a: "card" in a)]
    return pick(((n.card(c), c) for c in dict.fromkeys(found)), current)


def vote_counts(ctx: Context, side: str | None, current: str) -> list[Choice]:
    wanted = side if side in ("for", "against") else "for"
    found = sorted({a["votes"] for a in of(ctx, "vote", lambda a: a["side"] == wanted)})
    return pick(((f"{k} vote{'s' if k != 1 else ''} {wanted}", str(k)) for k in found), current)


def removals(ctx: Context, current: str) -> list[Choice]:
    return pick(((describe(a, ctx.names), " ".join(ctx.names.piece(p) for p in a["pieces"]))
                 for a in of(ctx, "remove")), current)


def _maybe_piece(ctx: Context, text: str | None) -> str | None:
    if not text:
        return None
    try:
        return parse(ctx, str(text))
    except Exception:
        return None
