"""Computer players are deterministic: the same game secret gives the same decisions, move for move,
so a game with computer players replays exactly (their `Random` comes from the host, per seat and step)."""

from __future__ import annotations

from random import Random

from rules.players import make, player_rng
from tests.support.computer_players import GAME, recorded_game
from tests.support.playthrough import canonical

SEATS = ["strong", "random", "strong", "random", "random"]


def _moves(decisions: list) -> list[str]:
    return [canonical({"seat": d.seat, "move": d.move}) for d in decisions]


def test_the_same_secret_gives_the_same_game_move_for_move() -> None:
    a_state, a = recorded_game(SEATS, "same-secret")
    b_state, b = recorded_game(SEATS, "same-secret")
    assert _moves(a) == _moves(b)
    assert canonical(GAME.encode_state(a_state)) == canonical(GAME.encode_state(b_state))


def test_another_secret_gives_another_game() -> None:
    _, a = recorded_game(SEATS, "one-secret")
    _, b = recorded_game(SEATS, "another-secret")
    assert _moves(a) != _moves(b)


def test_a_decision_depends_on_its_inputs_only() -> None:
    _, decisions = recorded_game(SEATS, "inputs-only")
    strong = make("crimecity", "strong")
    rounds = [d for d in decisions if d.pending.decision == "round" and d.seat in ("p1", "p3")][:6]
    assert rounds
    for i, d in enumerate(rounds):
        first = strong.decide(d.view, d.pending, d.seen, player_rng("s", d.seat, i))
        again = make("crimecity", "strong").decide(d.view, d.pending, d.seen, player_rng("s", d.seat, i))
        assert first == again


def test_the_host_rng_is_a_function_of_secret_seat_and_step() -> None:
    draws = {(s, n): player_rng("k", s, n).random() for s in ("p1", "p2") for n in (1, 2)}
    assert len(set(draws.values())) == 4
    assert player_rng("k", "p1", 1).random() == draws[("p1", 1)]
    assert Random(0).random() not in draws.values()
