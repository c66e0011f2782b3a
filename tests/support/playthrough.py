"""Random legal play of any registered game through the contract alone, as the host would drive it.

Used by the contract suite (tests/rules/test_contract.py) and by each game's own property tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from random import Random
from typing import Any

from rules.contract import HOST_END, Action, Event, Game, LogEntry, Outcome, Record, SeededChance

SEED_TOKEN = "chance-seed-7f3a9c"  # the secret seed every playthrough uses: it must show up nowhere


@dataclass
class Playthrough:
    game: Game
    seats: tuple[str, ...]
    settings: dict[str, Any]
    setup_chance: tuple[dict[str, Any], ...]
    state: Any
    log: list[LogEntry] = field(default_factory=list)
    events: list[tuple[Event, bool]] = field(default_factory=list)  # (event, game over after its step)
    publics: list[dict[str, Any]] = field(default_factory=list)  # public views while the game ran
    hidden: set[str] = field(default_factory=set)  # everything game.hidden() said while it ran
    draws: int = 0

    def record(self) -> Record:
        return Record(
            self.game.info.id,
            self.seats,
            {s: f"name-{s}" for s in self.seats},
            self.settings,
            self.setup_chance,
            tuple(self.log),
        )

    def apply(self, actions: list[Action]) -> Outcome:
        chance = SeededChance(SEED_TOKEN, start=self.draws)
        out = self.game.step(self.state, actions, chance)
        self.draws = chance.draws
        self.log.append(LogEntry(tuple(actions), tuple(chance.drawn)))
        self.state = out.state
        over = self.game.results(self.state) is not None
        self.events.extend((e, over) for e in out.events)
        if not over:
            self.hidden |= self.game.hidden(self.state)
            self.publics.append(self.game.view(self.state, None))
        return out


def start(game: Game, rng: Random, players: int | None = None, settings: dict[str, Any] | None = None) -> Playthrough:
    n = players or rng.randint(game.info.min_players, game.info.max_players)
    seats = tuple(f"p{i}" for i in range(1, n + 1))
    chance = SeededChance(SEED_TOKEN)
    given = dict(settings or {})
    out = game.setup(seats, given, chance)
    play = Playthrough(game, seats, given, tuple(chance.drawn), out.state, draws=chance.draws)
    play.events.extend((e, False) for e in out.events)
    play.hidden |= game.hidden(out.state)
    play.publics.append(game.view(out.state, None))
    return play


def play_random(
    game: Game,
    rng: Random,
    *,
    players: int | None = None,
    settings: dict[str, Any] | None = None,
    max_steps: int = 20_000,
    timeout_rate: float = 0.03,
    end_rate: float = 0.0,
    skip_rate: float = 0.1,
) -> Playthrough:
    """From setup to the end (or `max_steps`): random legal moves, some skipped seats, some timeouts."""
    play = start(game, rng, players, settings)
    for _ in range(max_steps):
        pending = game.pending(play.state)
        if pending is None:
            break
        if end_rate and rng.random() < end_rate:
            play.apply([Action(None, dict(HOST_END))])
            continue
        if rng.random() < timeout_rate:
            play.apply(collected(play, rng, pending, skip_rate) + game.timeout_actions(play.state))
            continue
        if pending.together:
            play.apply(collected(play, rng, pending, skip_rate))
            continue
        movers = [s for s in (*pending.awaited, *pending.optional)]
        rng.shuffle(movers)
        for seat in movers:
            move = game.random_move(play.state, seat, rng)
            if move is not None:
                assert game.check(play.state, seat, move) is None, (seat, move, game.check(play.state, seat, move))
                play.apply([Action(seat, move)])
                break
        else:
            play.apply(game.timeout_actions(play.state))
    return play


def collected(play: Playthrough, rng: Random, pending: Any, skip_rate: float) -> list[Action]:
    if not pending.together:
        return []
    out = []
    for seat in pending.awaited:
        if rng.random() < skip_rate:
            continue
        move = play.game.random_move(play.state, seat, rng)
        if move is not None:
            assert play.game.check(play.state, seat, move) is None, (seat, move)
            out.append(Action(seat, move))
    return out


def canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
