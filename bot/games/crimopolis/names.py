"""How Crimopolis things are named for people: players, colours, cards, tiles, blocks and hours.

Built from the content pack, the seats' shown names and (for blocks) a public view; nothing here reads a
hand. Card texts come from the pack (rulings Part 6); wording is ours.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.crimopolis.content import Content

from .pack import PACK

EMOJI = {"yellow": "🟡", "green": "🟢", "red": "🔴", "blue": "🔵", "black": "⚫"}
DECK_WORDS = {"jobs": ("job", "jobs"), "fortunes": ("fortune", "fortunes"), "newsflashes": ("newsflash", "newsflashes")}


def content() -> Content:
    """The pack this process plays (pack.py)."""
    return PACK.game.content


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def hours(n: int) -> str:
    return plural(n, "hour")


def location_name(loc: str) -> str:
    found = content().locations.get(loc)
    return found.name if found is not None else loc


def card_title(card: str) -> str:
    if card in content().jobs:
        return content().jobs[card].title
    design = content().designs.get(card)
    return design.title if design is not None else card


def card(card_id: str) -> str:
    """`J03 Crack the Night Safe`."""
    return f"{card_id} {card_title(card_id)}"


def job_detail(card_id: str) -> str:
    """`J03 Crack the Night Safe (Bank: 3 gangsters, 4 h, 5 prestige)`."""
    job = content().jobs[card_id]
    return (
        f"{card_id} {job.title} ({location_name(job.location)}: {plural(job.gangsters, 'gangster')}, "
        f"{job.hours} h, {job.prestige} prestige)"
    )


def fortune_detail(card_id: str) -> str:
    """`F41 Sabotage (turn; endgame 0): <text>`."""
    d = content().designs[card_id]
    return f"{card_id} {d.title} ({d.timing}; endgame {d.endgame}): {d.text}"


def card_detail(card_id: str) -> str:
    if card_id in content().jobs:
        return job_detail(card_id)
    d = content().designs[card_id]
    if d.deck == "fortunes":
        return fortune_detail(card_id)
    return f"{card_id} {d.title}: {d.text}"


def card_text(card_id: str) -> str:
    d = content().designs.get(card_id)
    return "" if d is None else d.text


def tile(tile_id: str) -> str:
    """`T17 Speakeasy (4 streets)`, `yellow Headquarters`, `green Safe House`."""
    t = content().tiles[tile_id]
    if t.kind == "headquarters":
        return f"{t.color} Headquarters"
    if t.kind == "safe_house":
        return f"{t.color} Safe House"
    return f"{tile_id} {location_name(t.location or '')} ({t.streets} streets)"


class Names:
    """Names within one game: `name(seat)` from the roster, colours and blocks from a public view."""

    def __init__(self, name: Callable[[str | None], str], view: Mapping[str, Any] | None = None) -> None:
        self.name = name
        self.view = view or {}

    @property
    def players(self) -> Mapping[str, Any]:
        return self.view.get("players") or {}

    def color(self, seat: str) -> str:
        return str(self.players.get(seat, {}).get("color", ""))

    def who(self, seat: str | None) -> str:
        """`🟡 ann`."""
        if seat is None:
            return "nobody"
        emoji = EMOJI.get(self.color(seat), "")
        return f"{emoji} {self.name(seat)}".strip()

    def block(self, block_id: str, *, me: str | None = None) -> str:
        """`Bank (0,1)`, `House/Lake (1,1)`, `ann's Headquarters (0,0)` (`your Headquarters` for `me`)."""
        blocks = (self.view.get("city") or {}).get("blocks") or {}
        b = blocks.get(block_id)
        if b is None:
            return block_id
        if b["kind"] == "city":
            return f"{'/'.join(location_name(n) for n in b['names'])} ({block_id})"
        what = "Headquarters" if b["kind"] == "headquarters" else "Safe House"
        owner = b.get("owner")
        whose = "your" if owner is not None and owner == me else f"{self.name(owner)}'s"
        return f"{whose} {what} ({block_id})"

    def place(self, loc: str, *, me: str | None = None) -> str:
        """A street section as its id, a block by its name."""
        return loc if loc[:2] in ("h:", "v:") else self.block(loc, me=me)

    def block_of(self, cell: str) -> str:
        """The id of the block holding `cell` (a block may be named by any of its cells)."""
        blocks = (self.view.get("city") or {}).get("blocks") or {}
        for bid, b in blocks.items():
            if cell in b["cells"]:
                return str(bid)
        return cell
