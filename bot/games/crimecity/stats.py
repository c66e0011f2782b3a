"""`/crimecity stats`: a server's finished games counted per member, seasons or not.

Only games whose draft resolved count. A goal's role is counted only for games that revealed their seats
at the end (a host can end a game without revealing them; then the role stays unsaid).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.crimecity.game import GAME

from ...host import GameRow, Roster, clip
from .texts import role_title

HIDDEN = "a role not revealed"
TOP = 20


@dataclass
class Line:
    name: str
    games: int = 0
    goals: Counter[str] = field(default_factory=Counter)  # role (or HIDDEN) -> goals completed
    rounds: list[int] = field(default_factory=list)  # the rounds in which goals were completed
    tol: int = 0
    ec: int = 0

    @property
    def completed(self) -> int:
        return sum(self.goals.values())

    def average(self) -> str:
        return f"{sum(self.rounds) / len(self.rounds):.1f}" if self.rounds else "—"


def count(games: Sequence[tuple[GameRow, Roster]]) -> tuple[int, dict[int, Line]]:
    """(games counted, per user id their line); names as of their newest game."""
    lines: dict[int, Line] = {}
    played = 0
    for game, roster in games:  # newest first: the first name seen is the newest
        results = game.results or {}
        if not results.get("draft_resolved", True) or game.state is None:
            continue
        match: Any = GAME.decode_state(game.state)
        if match.game is None:
            continue
        played += 1
        state = match.game
        for seat in roster.seats:
            user = roster.user_of(seat)
            if user is None:
                continue
            line = lines.setdefault(user, Line(roster.name_of(seat)))
            line.games += 1
            done = state.completed.get(seat)
            if done is not None:
                role = state.role(seat).value if game.options.reveal else HIDDEN
                line.goals[role] += 1
                line.rounds.append(int(done))
            line.tol += seat in (results.get("tol") or [])
            line.ec += results.get("ec") == seat
    return played, lines


def summary_text(played: int, lines: dict[int, Line]) -> str:
    out = [f"**Crime City in this server** — {played} finished game{'s' if played != 1 else ''}"]
    if not lines:
        out.append("No game has finished here yet.")
    ranked = sorted(lines.values(), key=lambda x: (-x.games, -x.completed, x.name.casefold()))
    for line in ranked[:TOP]:
        out.append(
            f"**{line.name}** — {line.games} played · {line.completed} goal{'s' if line.completed != 1 else ''}"
            f" · ToL {line.tol} · EC {line.ec}"
            f" · average completion round {line.average()}"
        )
    if len(ranked) > TOP:
        out.append(f"… and {len(ranked) - TOP} more: ask for one with /crimecity stats player:")
    return clip("\n".join(out), 4000)


def player_text(name: str, line: Line | None) -> str:
    if line is None:
        return f"**{name}** has not finished a Crime City game in this server yet."
    by_role = ", ".join(
        f"{role_title(r).removeprefix('The ') if r != HIDDEN else HIDDEN} {n}"
        for r, n in sorted(line.goals.items(), key=lambda i: (-i[1], i[0] == HIDDEN, i[0]))
    )
    return "\n".join(
        [
            f"**Crime City — {line.name}** in this server",
            f"Games played: {line.games}",
            f"Goals completed: {line.completed}" + (f" ({by_role})" if by_role else ""),
            f"Tokens of life: {line.tol} · times EC: {line.ec}",
            f"Average completion round: {line.average()}",
        ]
    )
