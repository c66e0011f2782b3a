"""A computer player decides from its seat's view, the pending decision and its own events alone.

Structurally it never receives the state. Here, other seats' secrets (who plays which character, their
roles, cooldowns, balances, progress, completions) are redrawn in the state while this seat's view and
events stay identical, and the decision must not move. Events meant for other seats are ignored."""

from __future__ import annotations

import inspect
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from rules.contract import Action, Event, SeededChance
from rules.crimecity.game import ROUND, Match
from rules.crimecity.ids import CHARACTERS, FORBIDDEN, ROLES, Role
from rules.crimecity.state import Progress, Seat
from rules.players import ComputerPlayer, levels, make, player_rng, registered
from tests.support.computer_players import GAME

SEATS = tuple(f"p{i}" for i in range(1, 6))


def _snapshots(secret: str) -> list[tuple[Match, dict[str, list[Event]]]]:
    """A random game's round states (rounds 2 on) with the events each seat had received by then."""
    rng = Random(secret)
    chance = SeededChance(secret)
    out = GAME.setup(SEATS, registered("crimecity").setup_for({"garnets": 10}, secret), chance)
    state, seen = out.state, {s: [e for e in out.events if e.visible_to(s)] for s in SEATS}
    shots = []
    while GAME.pending(state) is not None:
        if state.phase == ROUND and state.game is not None and state.game.round >= 2:
            shots.append((state, {s: list(v) for s, v in seen.items()}))
        pending = GAME.pending(state)
        actions = [Action(s, m) for s in pending.awaited if (m := GAME.random_move(state, s, rng)) is not None]
        out = GAME.step(state, actions, chance)
        state = out.state
        for s in SEATS:
            seen[s] += [e for e in out.events if e.visible_to(s)]
    return shots


def _others_changed(state: Match, seat: str, rng: Random) -> Match:
    """`state` with every other seat's secrets redrawn (any valid seating that keeps `seat`'s own)."""
    game = state.game
    assert game is not None
    mine = game.seats[seat]
    others = [p for p in game.players if p != seat]
    while True:
        chars = [c for c in CHARACTERS if c is not mine.character]
        roles = [r for r in ROLES if r is not mine.role]
        rng.shuffle(chars)
        rng.shuffle(roles)
        seats = {p: Seat(c, r) for p, c, r in zip(others, chars, roles, strict=False)}
        dead_gov = not game.governor_alive and mine.character.value != "governor"
        if dead_gov and not any(s.character.value == "governor" for s in seats.values()):
            continue  # the Governor's death is public: someone still plays him
        if all(s.role not in FORBIDDEN[s.character] for s in seats.values()):
            break
    seats[seat] = mine
    progress = {
        p: game.progress[p] if p == seat else Progress(frozenset(rng.sample(CHARACTERS, 3)), rng.randint(0, 1), 0)
        for p in game.players
    }
    cooldowns = {p: game.cooldowns[p] if p == seat else frozenset({"move:banker", "converse:detective"})
                 for p in game.players}
    garnets = {p: game.garnets[p] if p == seat else rng.randint(0, 30) for p in game.players}
    completed = {p: r for p, r in game.completed.items() if p == seat}
    completed.update({p: 1 for p in others if rng.random() < 0.3})
    changed = game.with_changes(seats={p: seats[p] for p in game.players}, progress=progress,
                                cooldowns=cooldowns, garnets=garnets, completed=completed)
    return replace(state, game=changed)


def test_decide_takes_the_view_never_the_state() -> None:
    for level in levels("crimecity"):
        player = make("crimecity", level)
        assert isinstance(player, ComputerPlayer)
        assert list(inspect.signature(player.decide).parameters) == ["view", "pending", "seen", "rng"]


@pytest.mark.parametrize("level", ["strong", "random"])
def test_other_seats_secrets_do_not_move_a_decision(level: str) -> None:
    player = make("crimecity", level)
    rng = Random(7)
    checked = 0
    for n, (state, seen) in enumerate(_snapshots("no-peeking")[::2]):
        pending = GAME.pending(state)
        assert pending is not None
        for seat in SEATS[: 2 if level == "strong" else 5]:
            view = GAME.view(state, seat)
            base = player.decide(view, pending, seen[seat], player_rng("np", seat, n))
            assert base is not None
            for _ in range(3):
                changed = _others_changed(state, seat, rng)
                assert changed.game != state.game
                again = GAME.view(changed, seat)
                assert again == view, "a seat's view must not show other seats' secrets"
                assert player.decide(again, pending, seen[seat], player_rng("np", seat, n)) == base
                checked += 1
    assert checked >= 12


def test_events_for_other_seats_are_ignored() -> None:
    state, seen = _snapshots("no-peeking-events")[1]
    pending = GAME.pending(state)
    assert pending is not None
    leaks: list[Any] = [
        Event.to("p2", "investigation", {"kind": "investigation", "character": c.value,
                                         "role": Role.HITMAN.value, "round": 1})
        for c in CHARACTERS
    ]
    leaks.append(Event.to(["p3", "p4"], "identification",
                          {"kind": "identification", "player": "p5", "character": "banker", "round": 1}))
    strong = make("crimecity", "strong")
    view = GAME.view(state, "p1")
    base = strong.decide(view, pending, seen["p1"], player_rng("ev", "p1", 1))
    assert strong.decide(view, pending, [*seen["p1"], *leaks], player_rng("ev", "p1", 1)) == base
