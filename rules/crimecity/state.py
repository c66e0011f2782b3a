"""The game state S0 between rounds (rulings Appendix B).

A `GameState` is treated as immutable: `resolve_round` returns a new one. It serializes to
plain JSON (`to_dict`/`from_dict`) so the bot can persist it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .ids import CHARACTERS, START, Character, Location, Role, pair_key


@dataclass(frozen=True, slots=True)
class Seat:
    character: Character
    role: Role


@dataclass(frozen=True, slots=True)
class Progress:
    """Per-player goal progress (R22, R24, R25)."""

    stolen: frozenset[Character] = frozenset()
    bank_turns: int = 0
    fraud_stage: int = 0  # 0, or the round in which stage one was reached

    def to_dict(self) -> dict[str, Any]:
        return {
            "stolen": sorted(c.value for c in self.stolen),
            "bank_turns": self.bank_turns,
            "fraud_stage": self.fraud_stage,
        }


@dataclass(frozen=True, slots=True)
class GameState:
    players: tuple[str, ...]
    seats: dict[str, Seat]
    rounds_total: int = 6
    round: int = 1  # the round about to be played (its S0)
    positions: dict[Character, Location] = field(default_factory=lambda: dict(START))
    governor_alive: bool = True
    friendship: dict[str, int] = field(default_factory=dict)  # pair_key -> points
    cooldowns: dict[str, frozenset[str]] = field(default_factory=dict)
    garnets: dict[str, int] = field(default_factory=dict)
    progress: dict[str, Progress] = field(default_factory=dict)
    completed: dict[str, int] = field(default_factory=dict)
    over: bool = False

    # ---- derived facts -------------------------------------------------------------------
    def own(self, player: str) -> Character:
        return self.seats[player].character

    def role(self, player: str) -> Role:
        return self.seats[player].role

    def controller(self, character: Character) -> str | None:
        for p in self.players:
            if self.seats[p].character is character:
                return p
        return None

    def role_of(self, character: Character) -> Role:
        p = self.controller(character)
        return Role.NONE if p is None else self.seats[p].role

    def alive(self, character: Character) -> bool:
        return character is not Character.GOVERNOR or self.governor_alive

    def points(self, a: Character, b: Character) -> int:
        return self.friendship.get(pair_key(a, b), 0)

    @property
    def unassigned(self) -> list[Character]:
        taken = {s.character for s in self.seats.values()}
        return [c for c in CHARACTERS if c not in taken]

    def with_changes(self, **changes: Any) -> GameState:
        return replace(self, **changes)

    # ---- persistence ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "seats": {p: {"character": s.character.value, "role": s.role.value} for p, s in self.seats.items()},
            "rounds_total": self.rounds_total,
            "round": self.round,
            "positions": {c.value: loc.value for c, loc in self.positions.items()},
            "governor_alive": self.governor_alive,
            "friendship": dict(sorted(self.friendship.items())),
            "cooldowns": {p: sorted(k) for p, k in self.cooldowns.items()},
            "garnets": dict(self.garnets),
            "progress": {p: pr.to_dict() for p, pr in self.progress.items()},
            "completed": dict(self.completed),
            "over": self.over,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> GameState:
        return GameState(
            players=tuple(d["players"]),
            seats={p: Seat(Character(s["character"]), Role(s["role"])) for p, s in d["seats"].items()},
            rounds_total=d["rounds_total"],
            round=d["round"],
            positions={Character(c): Location(loc) for c, loc in d["positions"].items()},
            governor_alive=d["governor_alive"],
            friendship=dict(d["friendship"]),
            cooldowns={p: frozenset(k) for p, k in d["cooldowns"].items()},
            garnets=dict(d["garnets"]),
            progress={
                p: Progress(frozenset(Character(c) for c in pr["stolen"]), pr["bank_turns"], pr["fraud_stage"])
                for p, pr in d["progress"].items()
            },
            completed=dict(d["completed"]),
            over=d["over"],
        )


def new_game(
    players: list[str] | tuple[str, ...],
    seats: dict[str, Seat],
    garnets: dict[str, int] | None = None,
    rounds_total: int = 6,
) -> GameState:
    """The state at the start of round 1 (R13, R15)."""
    garnets = garnets or {}
    return GameState(
        players=tuple(players),
        seats=dict(seats),
        rounds_total=rounds_total,
        garnets={p: garnets.get(p, 0) for p in players},
        cooldowns={p: frozenset() for p in players},
        progress={p: Progress() for p in players},
    )
