"""Computer players for every game: the protocol the host calls, and a registry of levels per game.

A computer player decides from what its seat may know and nothing else: the seat's view
(`game.view(state, seat)`), the pending decision, and the events its seat received so far (those with
`event.visible_to(seat)`). It never receives the state. It holds no randomness of its own: the host
passes a `Random` it seeds from the game's secret seed, the seat and the step (`player_rng`), so a game
with computer players replays exactly.

    >>> levels("crimecity")
    ['random', 'strong']
    >>> make("crimecity", "strong").level
    'strong'
    >>> make("crimecity", "grandmaster")
    Traceback (most recent call last):
    ...
    rules.players.UnknownLevel: unknown level 'grandmaster' for crimecity (known: random, strong)
    >>> player_rng("s3cret", "p1", 4).random() == player_rng("s3cret", "p1", 4).random()
    True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from random import Random
from typing import Any, Protocol, runtime_checkable

from .contract import JSON, Action, Event, Move, Pending


@runtime_checkable
class ComputerPlayer(Protocol):
    """One level of play for one game. `decide` returns the seat's move, or None (nothing to submit)."""

    level: str

    def decide(self, view: dict[str, JSON], pending: Pending, seen: Sequence[Event], rng: Random) -> Move | None: ...


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How one seat did in a finished game, for `python -m rules tournament`.

    `group` splits the figures (Crime City: the seat's role); `rates` are 0/1 outcomes (printed as a
    rate with a Wilson interval), `amounts` numbers (printed as a mean with a normal interval)."""

    group: str
    rates: Mapping[str, bool]
    amounts: Mapping[str, float]


def _same(settings: Mapping[str, JSON], secret: str) -> dict[str, JSON]:
    return dict(settings)


def _never(state: Any, rng: Random) -> Action | None:
    return None


@dataclass(frozen=True, slots=True)
class GamePlayers:
    """What a game registers: its levels, and what a tournament needs to host it.

    - `outcomes`: a finished state's figures per seat;
    - `tournament_settings`: the settings a tournament uses unless told otherwise;
    - `setup_for(settings, secret)`: one game's settings (e.g. a tie-break order drawn from its secret);
    - `settle(state, rng)`: the host's move when the players cannot settle a decision among themselves
      (e.g. deciders who disagree), or None."""

    levels: Mapping[str, Callable[[], ComputerPlayer]]
    outcomes: Callable[[Any], dict[str, SeatOutcome]]
    tournament_settings: Mapping[str, JSON] = field(default_factory=dict)
    setup_for: Callable[[Mapping[str, JSON], str], dict[str, JSON]] = _same
    settle: Callable[[Any, Random], Action | None] = _never


class UnknownLevel(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def _seat_outcomes(found: Mapping[str, Mapping[str, Any]]) -> dict[str, SeatOutcome]:
    return {seat: SeatOutcome(str(o["group"]), dict(o["rates"]), dict(o["amounts"])) for seat, o in found.items()}


def _crimecity() -> GamePlayers:
    from .crimecity import players as cc  # imported here: loading the registry stays cheap

    return GamePlayers(
        levels=cc.LEVELS,
        outcomes=lambda state: _seat_outcomes(cc.outcomes(state)),
        tournament_settings=cc.TOURNAMENT_SETTINGS,
        setup_for=cc.setup_for,
        settle=cc.settle,
    )


@cache
def _table() -> dict[str, GamePlayers]:
    """Every game with computer players. A game's package exports plain pieces (its levels, scoring,
    settings, the host's ruling); they are assembled here, so a game depends on the contract alone."""
    return {"crimecity": _crimecity()}


def registered(game_id: str) -> GamePlayers:
    table = _table()
    if game_id not in table:
        known = ", ".join(sorted(table))
        raise UnknownLevel(f"no computer players for game {game_id!r} (games with some: {known})")
    return table[game_id]


def levels(game_id: str) -> list[str]:
    """The levels of play a game offers, weakest first."""
    return list(registered(game_id).levels)


def make(game_id: str, level: str) -> ComputerPlayer:
    """A computer player of `level` for `game_id`; UnknownLevel with one clear message otherwise."""
    entry = registered(game_id)
    factory = entry.levels.get(level)
    if factory is None:
        known = ", ".join(entry.levels)
        raise UnknownLevel(f"unknown level {level!r} for {game_id} (known: {known})")
    return factory()


def player_rng(secret: str, seat: str, step: int) -> Random:
    """The `Random` a host passes to a computer player: a function of the game's secret seed, the seat and
    the step number only, so the same game replays to the same decisions (and a restart changes nothing)."""
    digest = hashlib.sha256(f"player:{secret}:{seat}:{step}".encode()).digest()
    return Random(int.from_bytes(digest[:16], "big"))
