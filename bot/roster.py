"""Seats (rules player ids p1..p5) and the Discord members who hold them.

Rules never see Discord ids: everything crossing into `rules` uses seats, everything shown to
people goes through `name_of`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .storage.models import PlayerRow

_MENTION = re.compile(r"^<@!?(\d+)>$")


class Roster:
    def __init__(self, players: Iterable[PlayerRow]) -> None:
        self.players: list[PlayerRow] = sorted(players, key=lambda p: p.join_seq)
        self._by_seat = {p.seat: p for p in self.players}
        self._by_user = {p.user_id: p for p in self.players}

    def __len__(self) -> int:
        return len(self.players)

    @property
    def seats(self) -> list[str]:
        return [p.seat for p in self.players]

    def seat_of(self, user_id: int) -> str | None:
        p = self._by_user.get(user_id)
        return None if p is None else p.seat

    def player(self, seat: str) -> PlayerRow | None:
        return self._by_seat.get(seat)

    def user_of(self, seat: str) -> int | None:
        p = self._by_seat.get(seat)
        return None if p is None else p.user_id

    def name_of(self, seat: str | None) -> str:
        if seat is None:
            return "no player"
        p = self._by_seat.get(seat)
        return seat if p is None else p.display_name

    def user_name_of(self, seat: str) -> str:
        p = self._by_seat.get(seat)
        return seat if p is None else p.user_name

    def lookup(self, text: str) -> str | None:
        """A seat from a mention, a display name or a user name (case-insensitive), else None."""
        text = text.strip()
        match = _MENTION.match(text)
        if match:
            return self.seat_of(int(match.group(1)))
        if text.isascii() and text.isdigit() and int(text) in self._by_user:  # not "²": int() refuses it
            return self._by_user[int(text)].seat
        # As typed first, so a display name that starts with "@" (e.g. "@everyone") is found too.
        for low in dict.fromkeys((text.casefold(), text.lstrip("@").casefold())):
            for attr in ("display_name", "user_name"):
                hits = [p.seat for p in self.players if getattr(p, attr).casefold() == low]
                if len(hits) == 1:
                    return hits[0]
        return None
