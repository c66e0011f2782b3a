"""A season as a league (docs/seasons.md): what a finished match brings to it, and its words.

A match's placement is a list of groups of seats, best first; seats in one group tied. Each seat (a
player, or a team sharing a seat) scores one point for every seat placed below it, so a win among four
is worth 3 and a tie shares the better place. A seat of the first group wins the match (a `win` mark),
unless the whole table tied.

>>> [(seat, points) for seat, points, _ in changes([["a"], ["b", "c"], ["d"]])]
[('a', 3), ('b', 1), ('c', 1)]
>>> wins([["a", "b"], ["c"]]), wins([["a", "b"]])
(['a', 'b'], [])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..host import Season, SeasonOutcome, Standing, UserError, clip
from .ledger import fit_newest
from .table_picture import TableRow, render_table

WIN = "win"
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def ordinal(place: int) -> str:
    return ORDINALS[place - 1] if 0 < place <= len(ORDINALS) else f"{place}th"


def changes(groups: Sequence[Sequence[str]]) -> list[tuple[str, int, str]]:
    """(seat, points, why) for every seat that scored: one point per seat placed below it."""
    total = sum(len(g) for g in groups)
    out: list[tuple[str, int, str]] = []
    above = 0
    for group in groups:
        below = total - above - len(group)
        tie = "=" if len(group) > 1 else ""
        out += [(seat, below, f"placed {ordinal(above + 1)}{tie} of {total}") for seat in group if below]
        above += len(group)
    return out


def wins(groups: Sequence[Sequence[str]]) -> list[str]:
    if not groups or len(groups) == 1:
        return []
    return list(groups[0])


def outcome(groups: Sequence[Sequence[str]], summary: Mapping[str, Any]) -> SeasonOutcome:
    """A finished match for its season: placements, points as ledger rows, a `win` mark per winner."""
    order = [seat for group in groups for seat in group]
    return SeasonOutcome(order, changes(groups), {seat: {WIN: 1} for seat in wins(groups)}, dict(summary))


def in_groups(groups: Sequence[Sequence[str]], members_of: Callable[[str], Sequence[Any]]) -> list[list[Any]]:
    """The groups with each seat's members: a seat of one member as its user, a shared seat as the list of its
    two (a computer player's seat has none, and is left out)."""
    out = []
    for group in groups:
        seats = [list(members_of(seat)) for seat in group]
        out.append([users[0] if len(users) == 1 else users for users in seats if users])
    return [g for g in out if g]


# ---- reading it back ----------------------------------------------------------------------------------


def ranked(table: Sequence[Standing]) -> list[Standing]:
    """By points, then wins, then name (S5 of Crime City's seasons: members who left stay listed)."""
    return sorted(table, key=lambda s: (-s.balance, -s.marks.get(WIN, 0), s.display_name.casefold(), s.user_id))


def standing_line(s: Standing) -> str:
    won = s.marks.get(WIN, 0)
    bits = [
        f"**{s.display_name}** — {s.balance} point{'s' if s.balance != 1 else ''}",
        f"{won} win{'s' if won != 1 else ''}",
        f"{s.matches} match{'es' if s.matches != 1 else ''}",
    ]
    if not s.on_roster:
        bits.append("left the roster")
    return " · ".join(bits)


def standings_text(title: str, season: Season, table: Sequence[Standing]) -> str:
    state = "open" if season.status == "open" else "ended"
    lines = [f"**{title} — season {season.name}** ({state}): standings by points"]
    if not table:
        lines.append("Nobody is on the roster yet: members join with `/season join`.")
    for i, s in enumerate(ranked(table), 1):
        lines.append(f"{i}. {standing_line(s)}")
    lines.append("A match gives each player a point for every player placed below them.")
    return clip("\n".join(lines), 4000)


def history_text(title: str, season: Season, matches: Sequence[Any], names: Mapping[int, str]) -> str:
    lines = [f"**{title} — season {season.name}**: its matches, oldest first"]
    if not matches:
        lines.append("No match has been played in this season yet.")
    rows: list[str] = []
    for i, m in enumerate(matches, 1):
        where = f"game #{m.game_id}" if m.game_id is not None else "played off the bot"
        groups = m.summary.get("groups") or [[u] for u in m.placements]
        places, above = [], 0
        for group in groups:  # a group's seats tie; a seat is a user, or a shared seat's list of users
            who = " = ".join(" & ".join(names.get(u, str(u)) for u in (seat if isinstance(seat, list) else [seat]))
                             for seat in group)
            places.append(f"{above + 1}. {who}")
            above += len(group)
        tail = " (ended by the host)" if m.summary.get("ended") == "host" else ""
        rows.append(f"**Match {i}** — {where}, <t:{int(m.played_at)}:D>: {', '.join(places) or 'no placement'}{tail}")
    return fit_newest(lines, rows)


def parse_placement(text: str, lookup: Callable[[str], int]) -> list[list[int]]:
    """`Ann, Bob = Cara, Dan` (names or mentions; `=` ties) → groups of user ids, best first, each once."""
    groups: list[list[int]] = []
    seen: set[int] = set()
    for part in [p for p in text.replace(";", ",").split(",") if p.strip()]:
        group = []
        for name in [n for n in part.split("=") if n.strip()]:
            user = lookup(name)
            if user in seen:
                raise UserError(f"{name.strip()} is listed twice in the placement.")
            seen.add(user)
            group.append(user)
        if group:
            groups.append(group)
    if len(seen) < 2:
        raise UserError("List at least two players from first to last, comma-separated (`=` between tied players).")
    return groups


COLUMNS = (("#", 24), ("Player", 64), ("Points", 440), ("Wins", 560), ("Matches", 660), ("", 790))


def standings_picture(title: str, season: Season, table: Sequence[Standing]) -> bytes:
    """The rows of `standings_text` as a table picture, in the same order."""
    rows = [
        TableRow(
            (str(i), s.display_name[:28], str(s.balance), str(s.marks.get(WIN, 0)), str(s.matches)),
            dim=not s.on_roster,
            note="" if s.on_roster else "left",
        )
        for i, s in enumerate(ranked(table), 1)
    ]
    return render_table(f"{title} — season {season.name}", COLUMNS, rows)
