"""Names people read and type: players (by name and colour), pieces, spaces, cards, targets and money.

Everything shown is built from the public view (colours, Home Bases) and the content files (space, card
and category names); a card's title is shown only where its id may be (the caller's own hand, or a card
already played face up). Parsing accepts what commands.md's "Writing an action" allows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from rules.contract import ParseError
from rules.organizedcrime.content import Content

from .pack import PACK

TREASURY = "treasury"
PIECE = re.compile(r"^(?P<who>.+?)\s*:\s*(?P<n>\d{1,3})$")
CARD = re.compile(r"\b([A-Z]{2}\d{2})\b")


def content() -> Content:
    return PACK.game.content


@cache
def _space_docs() -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in content().docs["board.json"]["spaces"]}


@cache
def _card_docs() -> dict[str, dict[str, Any]]:
    out = {}
    for deck in content().docs["decks.json"]["decks"].values():
        for card in deck["cards"]:
            out[card["id"]] = card
    return out


@cache
def _targets() -> dict[str, str]:
    cat = content().docs["catalogue.json"]
    return {e["id"]: e["name"] for group in ("cities", "business", "illegal", "offices") for e in cat[group]}


@cache
def _unique_space_names() -> dict[str, str]:
    """Lower-cased space name -> id, for names only one space has (Boston, State Government)."""
    counts: dict[str, list[str]] = {}
    for sid, doc in _space_docs().items():
        counts.setdefault(doc["name"].casefold(), []).append(sid)
    return {name: ids[0] for name, ids in counts.items() if len(ids) == 1}


for _cached in (_space_docs, _card_docs, _targets, _unique_space_names):
    PACK.on_change(_cached.cache_clear)


def space_name(sid: str) -> str:
    doc = _space_docs().get(sid)
    return sid if doc is None else str(doc["name"])


def space(sid: str | None) -> str:
    """`o04 Mistake`: the id always, so non-unique names stay unambiguous."""
    if sid is None:
        return "off the board"
    return f"{sid} {space_name(sid)}"


def card_title(cid: str) -> str:
    doc = _card_docs().get(cid)
    return cid if doc is None else str(doc.get("title") or cid)


def card(cid: str) -> str:
    """`PW13 Two Hits`."""
    return f"{cid} {card_title(cid)}"


def card_text(cid: str) -> str:
    doc = _card_docs().get(cid)
    return "" if doc is None else str(doc.get("text") or "")


def card_kind(cid: str) -> str:
    return content().cards[cid].kind


def deck_name(deck: str) -> str:
    return {"power": "Power", "official": "Corrupt Official", "mistake": "Mistake", "penalty": "Penalty"}.get(
        deck, deck
    )


def target(tid: str) -> str:
    return _targets().get(tid, tid)


def money(amount: int) -> str:
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def number(piece: str) -> int:
    return int(piece.rsplit(":", 1)[1])


def owner(piece: str) -> str:
    return piece.rsplit(":", 1)[0]


class Names:
    """Seats as people read them in one game: `andy (green)`, pieces `green:1`."""

    def __init__(self, public: Mapping[str, Any], shown: Callable[[str], str]) -> None:
        self.players: dict[str, Any] = dict(public.get("players") or {})
        self.order: list[str] = list(self.players)
        self._shown = shown

    def colour(self, seat: str) -> str | None:
        pl = self.players.get(seat)
        return None if pl is None else pl.get("colour")

    def name(self, seat: str | None) -> str:
        if seat is None:
            return "nobody"
        if seat == TREASURY:
            return "the Treasury"
        return self._shown(seat)

    def player(self, seat: str | None) -> str:
        """A player in the game's texts: his colour (`green`, as the Bylaws say), or his name before he
        has a Home Base."""
        if seat is None or seat == TREASURY:
            return self.name(seat)
        return self.colour(seat) or self.name(seat)

    def full(self, seat: str | None) -> str:
        """`green (andy)`: where people look up who is who (the board's player lines, results, refusals)."""
        if seat is None or seat == TREASURY:
            return self.name(seat)
        colour = self.colour(seat)
        return f"{colour} ({self.name(seat)})" if colour else self.name(seat)

    def tag(self, seat: str) -> str:
        """What a piece is prefixed with: the colour, else the name."""
        return self.colour(seat) or self.name(seat)

    def piece(self, pid: str) -> str:
        return f"{self.tag(owner(pid))}:{number(pid)}"

    def pieces(self, pids: list[str]) -> str:
        return ", ".join(self.piece(p) for p in pids) or "none"

    # ---- reading what people type -------------------------------------------------------------------

    def seat_of(self, text: str, lookup: Callable[[str], str | None] | None = None) -> str:
        """A player by colour, seat id, or (through the roster's lookup) a name or mention."""
        want = text.strip()
        low = want.casefold()
        for seat in self.order:
            if low in (seat.casefold(), (self.colour(seat) or "").casefold(), self.name(seat).casefold()):
                return seat
        found = lookup(want) if lookup is not None else None
        if found is not None:
            return found
        raise ParseError(f"no player {want!r} in this game")

    def parse_piece(self, text: str, me: str | None, lookup: Callable[[str], str | None] | None = None) -> str:
        """`green:1`, `p1:1`, `andy:1`; the caller's own pieces also `boss` or `#1`."""
        want = text.strip()
        low = want.casefold()
        if me is not None and low == "boss":
            return f"{me}:0"
        if me is not None and re.fullmatch(r"#\d{1,3}", want):
            return f"{me}:{int(want[1:])}"
        m = PIECE.match(want)
        if m is None:
            raise ParseError(f"{want!r} is not a piece: write it like green:1 (or boss, #2 for your own)")
        return f"{self.seat_of(m['who'], lookup)}:{int(m['n'])}"


def parse_space(text: str) -> str:
    """A space by its id (`o04`) or a name only one space has (`Boston`); `o04 Mistake` works too."""
    want = text.strip()
    if not want:
        raise ParseError("no space given")
    kinds = content().kinds
    first, _, after = want.partition(" ")
    first = first.casefold()
    if first in kinds:
        if after.strip() and after.strip().casefold() != space_name(first).casefold():
            raise ParseError(f"{want!r}: {first} is {space(first)}, not {after.strip()[:40]!r}")
        return first
    found = _unique_space_names().get(want.casefold())
    if found is not None:
        return found
    raise ParseError(f"{want!r} is not a space: give its id (o04) or a name only one space has (Boston)")


def parse_card(text: str) -> str:
    m = CARD.search(text.strip().upper())
    if m is None or m.group(1) not in content().cards:
        raise ParseError(f"{text.strip()!r} is not a card id (like PW17)")
    return m.group(1)


def parse_target(text: str) -> str:
    want = text.strip().casefold()
    for tid, name in _targets().items():
        if want in (tid, name.casefold()):
            return tid
    raise ParseError(f"{text.strip()!r} is not a City, category or office")


def seat_names(roster: Any) -> Callable[[str], str]:
    return lambda seat: str(roster.name_of(seat))
