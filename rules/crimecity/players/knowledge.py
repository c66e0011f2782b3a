"""What one seat knows, read from its view and the events it received (never from the state).

`Knowledge` is the seat's own data (character, role, cooldowns, garnets, progress), the public board
and friendship totals, and the facts its information actions and the public boards revealed, each
tagged with the round after which it was known.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...contract import JSON, Event
from ..ids import CHARACTERS, LOCATIONS, Character, Location, Role
from ..state import Progress


@dataclass(frozen=True, slots=True)
class RoleFact:
    """A Detective's investigation: `character` holds `role` (Role.NONE: no hidden role)."""

    round: int
    character: Character
    role: Role


@dataclass(frozen=True, slots=True)
class ControlFact:
    """A Secretary's identification: `character` is controlled by `player` (None: by nobody)."""

    round: int
    character: Character
    player: str | None


@dataclass(frozen=True, slots=True)
class HitmanFact:
    """The Governor died after `round`: the Hitman's character ended that round alone in its location."""

    round: int
    suspects: frozenset[Character]


@dataclass(frozen=True, slots=True)
class Knowledge:
    me: str
    players: tuple[str, ...]
    own: Character
    role: Role
    round: int
    rounds_total: int
    positions: Mapping[Character, Location]
    governor_alive: bool
    friendship: Mapping[str, int]
    cooldowns: frozenset[str]
    garnets: int
    progress: Progress
    completed: int | None
    roles: tuple[RoleFact, ...] = ()
    controls: tuple[ControlFact, ...] = ()
    hitman: HitmanFact | None = None

    @property
    def others(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.me)

    def known_before(self, rnd: int) -> Knowledge:
        """The facts this seat had when it decided round `rnd` (those learned after earlier rounds)."""
        return Knowledge(
            self.me,
            self.players,
            self.own,
            self.role,
            rnd,
            self.rounds_total,
            self.positions,
            self.governor_alive,
            self.friendship,
            self.cooldowns,
            self.garnets,
            self.progress,
            self.completed,
            tuple(f for f in self.roles if f.round < rnd),
            tuple(f for f in self.controls if f.round < rnd),
            self.hitman if self.hitman is not None and self.hitman.round < rnd else None,
        )


class NotARoundView(ValueError):
    """The view is not a seat's view of a running round (no seat, or the draft)."""


def read(view: Mapping[str, JSON], seen: Sequence[Event]) -> Knowledge:
    """Knowledge from a seat's `CrimeCity.view` of a round (or the EC phase) and its received events."""
    seat = view.get("seat")
    if not isinstance(seat, dict) or "board" not in view:
        raise NotARoundView("not a seat's view of the rounds")
    positions: dict[Character, Location] = {}
    board: Mapping[str, Any] = view["board"]
    for loc in LOCATIONS:
        for c in board.get(loc.value, ()):
            positions[Character(c)] = loc
    positions = {c: positions[c] for c in CHARACTERS if c in positions}  # the engine's order
    pr = view.get("progress") or {}
    progress = Progress(
        frozenset(Character(c) for c in pr.get("stolen", ())),
        int(pr.get("bank_turns", 0)),
        int(pr.get("fraud_stage", 0)),
    )
    me = str(view["player"])
    roles: list[RoleFact] = []
    controls: list[ControlFact] = []
    hitman: HitmanFact | None = None
    own = Character(seat["character"])
    role = Role(seat["role"])
    for event in seen:
        if not event.visible_to(me):
            continue  # the host passes only this seat's events; anything else is ignored, never read
        data = event.data
        if event.kind == "investigation":
            roles.append(RoleFact(int(data["round"]), Character(data["character"]), Role(data["role"])))
        elif event.kind == "identification":
            player = data.get("player")
            controls.append(ControlFact(int(data["round"]), Character(data["character"]), player))
        elif event.kind == "board" and hitman is None and event.is_public:
            shown = data.get("view") or {}
            if Character.GOVERNOR.value in (shown.get("dead") or ()) and role is not Role.HITMAN:
                alone = [names[0] for names in (shown.get("board") or {}).values() if len(names) == 1]
                hitman = HitmanFact(int(data["round"]), frozenset(Character(c) for c in alone))
    return Knowledge(
        me=me,
        players=tuple(view.get("players") or (me,)),
        own=own,
        role=role,
        round=int(view["round"]),
        rounds_total=int(view["rounds_total"]),
        positions=positions,
        governor_alive=not view.get("dead"),
        friendship=dict(view.get("friendship") or {}),
        cooldowns=frozenset(view.get("cooldowns") or ()),
        garnets=int(view.get("garnets") or 0),
        progress=progress,
        completed=view.get("completed"),
        roles=tuple(roles),
        controls=tuple(controls),
        hitman=hitman,
    )


def ec_choice(seen: Sequence[Event], me: str) -> tuple[list[str], bool] | None:
    """The candidates (and whether the choice must be unanimous) of the last EC decision sent to `me`."""
    for event in reversed(seen):
        if event.kind == "ec_decide" and event.visible_to(me) and not event.is_public:
            return [str(c) for c in event.data.get("candidates") or ()], bool(event.data.get("unanimous"))
    return None
