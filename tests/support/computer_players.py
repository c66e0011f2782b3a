"""Helpers for the computer-player tests: full games with every decision recorded, mid-game positions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from rules import registry
from rules.contract import JSON, Event, Move, Pending
from rules.players import ComputerPlayer, make, registered
from rules.tournament import play

GAME = registry.get("crimecity")


@dataclass
class Decision:
    seat: str
    view: dict[str, JSON]
    pending: Pending
    seen: tuple[Event, ...]
    move: Move | None


@dataclass
class Recorder:
    """A computer player that remembers every decision it made (and for which seat)."""

    inner: ComputerPlayer
    decisions: list[Decision] = field(default_factory=list)

    @property
    def level(self) -> str:
        return self.inner.level

    def decide(self, view: dict[str, JSON], pending: Pending, seen: Sequence[Event], rng: Random) -> Move | None:
        move = self.inner.decide(view, pending, seen, rng)
        self.decisions.append(Decision(str(view.get("player")), view, pending, tuple(seen), move))
        return move


def recorded_game(
    levels: Sequence[str | ComputerPlayer], secret: str, *, draft_by: str | None = None
) -> tuple[Any, list[Decision]]:
    """One whole Crime City game as a tournament hosts it; every decision of every seat, in order."""
    entry = registered("crimecity")
    players = [Recorder(make("crimecity", p) if isinstance(p, str) else p) for p in levels]
    draft = Recorder(make("crimecity", draft_by)) if draft_by else None
    settings = entry.setup_for(dict(entry.tournament_settings), secret)
    state, _ = play(GAME, players, settings, secret, draft_player=draft, settle=entry.settle)
    decisions = [d for p in [*players, *([draft] if draft else [])] for d in p.decisions]
    return state, decisions
