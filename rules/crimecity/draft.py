"""The draft: priority by bid, roles before characters, paid bids (rulings R6-R12, Q29, Q30)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import RuleError
from .ids import CHARACTERS, FORBIDDEN, ROLES, Character, Role
from .state import Seat


@dataclass(frozen=True, slots=True)
class DraftSubmission:
    bid: int = 0
    roles: tuple[Role, ...] = ROLES
    characters: tuple[Character, ...] = CHARACTERS


@dataclass(frozen=True, slots=True)
class DraftResult:
    priority: tuple[str, ...]
    seats: dict[str, Seat]
    unassigned: tuple[Character, ...]
    garnets: dict[str, int]


T = TypeVar("T")


def complete_ranking(ranking: Iterable[T], full: Sequence[T]) -> tuple[T, ...]:
    """Complete a partial ranking in the rule book's order (Q30); repeats are refused.

    >>> [r.value for r in complete_ranking([Role.MOB_BOSS], ROLES)]
    ['mob_boss', 'bank_robber', 'hitman', 'pickpocket', 'fraud']
    """
    ranking = tuple(ranking)
    if len(set(ranking)) != len(ranking):
        raise RuleError("malformed", "A ranking cannot name the same entry twice.")
    return ranking + tuple(x for x in full if x not in ranking)


def check_draft_submission(sub: DraftSubmission, balance: int) -> None:
    """Refuse a bid the player cannot pay (R6)."""
    if sub.bid < 0:
        raise RuleError("garnets", "A bid cannot be negative.")
    if sub.bid > balance:
        raise RuleError("garnets", f"A bid cannot exceed your balance of {balance} garnets (rule R6).")


def resolve_draft(
    players: list[str] | tuple[str, ...],
    submissions: dict[str, DraftSubmission],
    placements: list[str] | tuple[str, ...],
    garnets: dict[str, int],
) -> DraftResult:
    """Allocate seats. Missing submissions bid 0 with the book's order (Q30).

    Priority: higher bid first, then better placement in the previous match (R7, Q29).
    """
    subs = {p: submissions.get(p) or DraftSubmission() for p in players}
    place = {p: i for i, p in enumerate(placements)}
    priority = tuple(sorted(players, key=lambda p: (-subs[p].bid, place.get(p, len(place)))))
    free_roles = list(ROLES)
    free_chars = list(CHARACTERS)
    seats: dict[str, Seat] = {}
    for p in priority:
        sub = subs[p]
        role = next(r for r in complete_ranking(sub.roles, ROLES) if r in free_roles)
        free_roles.remove(role)
        char = next(
            c for c in complete_ranking(sub.characters, CHARACTERS) if c in free_chars and role not in FORBIDDEN[c]
        )
        free_chars.remove(char)
        seats[p] = Seat(char, role)
    paid = {p: garnets.get(p, 0) - subs[p].bid for p in players}
    return DraftResult(priority, {p: seats[p] for p in players}, tuple(free_chars), paid)
