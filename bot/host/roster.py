"""Seats (the ids the rules know: p1, p2, ...) and who holds them.

Rules never see Discord ids: everything crossing into `rules` uses seats, everything shown to
people goes through `name_of`, which never gives two seats the same name. A shared seat (a game's
team mode, `HostOptions.shared_seats`) has two members: either is found by `seat_of`, and the seat is
named by both ("ann & bob"); `user_of` and `user_name_of` give its first member.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from ..storage.models import SeatRow

_MENTION = re.compile(r"^<@!?(\d+)>$")


class Roster:
    def __init__(self, seats: Iterable[SeatRow]) -> None:
        self.players: list[SeatRow] = sorted(seats, key=lambda p: p.join_seq)
        self._by_seat = {p.seat: p for p in self.players}
        self._by_user = {u: p for p in self.players for u in p.members}
        self._names = _unique_names(self.players)

    def __len__(self) -> int:
        return len(self.players)

    @property
    def seats(self) -> list[str]:
        return [p.seat for p in self.players]

    def seat_of(self, user_id: int) -> str | None:
        p = self._by_user.get(user_id)
        return None if p is None else p.seat

    def player(self, seat: str) -> SeatRow | None:
        return self._by_seat.get(seat)

    def members_of(self, seat: str) -> tuple[int, ...]:
        """The members holding the seat, first member first (none for a computer player)."""
        p = self._by_seat.get(seat)
        return () if p is None else p.members

    def user_of(self, seat: str) -> int | None:
        p = self._by_seat.get(seat)
        return None if p is None else p.user_id

    def name_of(self, seat: str | None) -> str:
        """The seat's name as shown: unique in the game (a repeated name gets its user name or number), with
        markdown and mentions escaped, so a name can neither format a message nor ping anyone."""
        if seat is None:
            return "no player"
        return discord.utils.escape_mentions(discord.utils.escape_markdown(self._names.get(seat, seat)))

    def ref_of(self, seat: str) -> str:
        """How a choice names the seat (an autocomplete value, a menu option): its holder's mention, never
        a name two members could share; a computer player by its seat id."""
        p = self._by_seat.get(seat)
        return seat if p is None or p.user_id is None else f"<@{p.user_id}>"

    def user_name_of(self, seat: str) -> str:
        p = self._by_seat.get(seat)
        return seat if p is None else p.user_name

    def lookup(self, text: str) -> str | None:
        """A seat from a mention, a user id, a shown name, a display name or a user name, else None."""
        text = text.strip()
        match = _MENTION.match(text)
        if match:
            return self.seat_of(int(match.group(1)))
        if text.isascii() and text.isdigit() and int(text) in self._by_user:  # not "²": int() refuses it
            return self._by_user[int(text)].seat
        if text in self._by_seat:
            return text
        # As typed first, so a display name that starts with "@" (e.g. "@everyone") is found too.
        for low in dict.fromkeys((text.casefold(), text.lstrip("@").casefold())):
            shown = [s for s, name in self._names.items() if name.casefold() == low]
            if len(shown) == 1:
                return shown[0]
            for attr in ("display_name", "user_name"):
                hits = [p.seat for p in self.players for who in _people(p) if getattr(who, attr).casefold() == low]
                if len(hits) == 1:
                    return hits[0]
        return None


@dataclass(frozen=True, slots=True)
class _Person:
    """One member of a seat (or a computer player), for naming."""

    key: tuple[str, int]  # (seat, 0 for its first member, 1 for its partner)
    display_name: str
    user_name: str


def _people(p: SeatRow) -> list[_Person]:
    out = [_Person((p.seat, 0), p.display_name, p.user_name)]
    if p.partner_id is not None:
        out.append(_Person((p.seat, 1), p.partner_display or str(p.partner_id), p.partner_name or str(p.partner_id)))
    return out


def _unique_names(players: list[SeatRow]) -> dict[str, str]:
    """Each seat's shown name: its members' names made unique among every member of the game, a shared
    seat's two joined by " & "."""
    people = [who for p in players for who in _people(p)]
    names = {who.key: who.display_name for who in people}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    for who in people:
        if counts[who.display_name.casefold()] > 1 and who.user_name != who.display_name:
            names[who.key] = f"{who.display_name} ({who.user_name})"
    seen: dict[str, int] = {}
    for who in people:  # still equal (same user names too): number them in join order
        key = names[who.key].casefold()
        seen[key] = seen.get(key, 0) + 1
    repeats = {k for k, n in seen.items() if n > 1}
    order: dict[str, int] = {}
    for who in people:
        key = names[who.key].casefold()
        if key in repeats:
            order[key] = order.get(key, 0) + 1
            names[who.key] = f"{names[who.key]} #{order[key]}"
    out: dict[str, str] = {}
    for who in people:
        seat = who.key[0]
        out[seat] = f"{out[seat]} & {names[who.key]}" if seat in out else names[who.key]
    return out
