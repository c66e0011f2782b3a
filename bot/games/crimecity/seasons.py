"""Crime City's words for a season (docs/crimecity/seasons.md): what a match brings to the ledger, the
standings and history texts, the export files, and an off-bot match as the host types it.

Marks (counts in the season, host/seasons.py): `tol` (+1 a token of life won, -1 one used), `ec` (the
match's elimination candidate) and `eliminated` (lost a death match).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.crimecity.results import placement

from ...host import Season, Standing, UserError, clip
from ..ledger import fit_newest

TOL, EC, ELIMINATED = "tol", "ec", "eliminated"
PLACES = ("1st", "2nd", "3rd", "4th", "5th")


def placement_of(results: Mapping[str, Any], seats: Sequence[str]) -> list[str]:
    """The match's final placement, best first (rules/crimecity/results.py `placement`)."""
    return placement(dict(results), list(seats))


def ledger_changes(
    settings: Mapping[str, Any], match: Any, results: Mapping[str, Any], seats: Sequence[str], *, detail: bool = True
) -> list[tuple[str, int, str]]:
    """A finished match's changes to each seat's balance, one row per cause; their sum is the final
    balance minus the balance the match started from (R95). Without `detail` (a game ended without
    revealing its seats) a bid is not told apart from what was spent in the rounds."""
    if settings.get("import"):
        start = {s: int(match.garnets.get(s, 0)) for s in seats}  # a file's game starts from its own balances
    else:
        given = settings.get("balances") or {}
        start = {s: int(given.get(s, settings.get("garnets", 0))) for s in seats}
    before_draft = {s: int(match.garnets.get(s, 0)) for s in seats}
    after_draft = {s: int(((match.draft or {}).get("garnets") or before_draft).get(s, 0)) for s in seats}
    awards = {s: int((results.get("awards") or {}).get(s, 0)) for s in seats}
    final = {s: int((results.get("final_garnets") or {}).get(s, 0)) for s in seats}
    order = [s for group in results.get("completion_order") or [] for s in group]
    out: list[tuple[str, int, str]] = []
    for seat in seats:
        rows = [
            (before_draft[seat] - start[seat], "balance set by the host before the draft"),
            (after_draft[seat] - before_draft[seat], "draft bid"),
            (final[seat] - awards[seat] - after_draft[seat], "friendship points and host changes in the rounds"),
            (awards[seat], _award_reason(seat, order, results)),
        ]
        if not detail:
            spent = final[seat] - awards[seat] - before_draft[seat]
            rows = [rows[0], (spent, "spent in the match (bid, friendship points, host changes)"), rows[3]]
        out += [(seat, amount, why) for amount, why in rows if amount]
    return out


def _award_reason(seat: str, order: list[str], results: Mapping[str, Any]) -> str:
    done = 0
    for group in results.get("completion_order") or []:
        if seat in group:
            place = PLACES[min(done, len(PLACES) - 1)]
            return f"award ({place} to complete{', shared' if len(group) > 1 else ''})"
        done += len(group)
    del order
    return "award"


# ---- reading it back ----------------------------------------------------------------------------------


def tols(s: Standing) -> int:
    return max(0, s.marks.get(TOL, 0))


def standings_text(season: Season, table: Sequence[Standing]) -> str:
    state = "open" if season.status == "open" else "ended"
    lines = [f"**Crime City — season {season.name}** ({state}): standings by garnets"]
    if not table:
        lines.append("Nobody is on the roster yet: members join with the season's `join` command.")
    for i, s in enumerate(table, 1):
        lines.append(f"{i}. {standing_line(s)}")
    return clip("\n".join(lines), 4000)


def standing_line(s: Standing) -> str:
    bits = [
        f"**{s.display_name}** — {s.balance} garnets",
        f"ToL {tols(s)}",
        f"EC {s.marks.get(EC, 0)}",
        f"{s.matches} match{'es' if s.matches != 1 else ''}",
    ]
    if s.marks.get(ELIMINATED, 0) > 0:
        bits.append("eliminated")
    if not s.on_roster:
        bits.append("left the roster")
    return " · ".join(bits)


def history_text(season: Season, matches: Sequence[Any], names: Mapping[int, str]) -> str:
    lines = [f"**Crime City — season {season.name}**: its matches, oldest first"]
    if not matches:
        lines.append("No match has been played in this season yet.")
    rows: list[str] = []
    for i, m in enumerate(matches, 1):
        where = f"game #{m.game_id}" if m.game_id is not None else "played off the bot"
        order = ", ".join(f"{j}. {names.get(u, str(u))}" for j, u in enumerate(m.placements, 1))
        extra = []
        tol = m.summary.get("tol") or []
        if tol:
            extra.append("ToL: " + ", ".join(names.get(u, str(u)) for u in tol))
        if m.summary.get("ec"):
            extra.append(f"EC: {names.get(m.summary['ec'], str(m.summary['ec']))}")
        tail = f" ({' · '.join(extra)})" if extra else ""
        rows.append(f"**Match {i}** — {where}, <t:{int(m.played_at)}:D>: {order or 'no placement'}{tail}")
    return fit_newest(lines, rows)


# ---- an off-bot match, as typed -----------------------------------------------------------------------


def parse_changes(text: str, lookup: Any) -> dict[int, int]:
    """`Ann +7, Bob -3` (names or mentions, then a signed number) → user id → change."""
    out: dict[int, int] = {}
    for item in [i.strip() for i in text.replace(";", ",").split(",") if i.strip()]:
        name, _, number = item.rpartition(" ")
        try:
            amount = int(number)
        except ValueError:
            raise UserError(f"{item!r}: write a player and a number, e.g. `Ann +7` or `Bob -3`.") from None
        user = lookup(name)
        if user in out:
            raise UserError(f"{name.strip()} is listed twice in the garnet changes.")
        out[user] = amount
    return out
