"""The `random` level: every legal set of actions equally likely, built from the seat's view."""

from __future__ import annotations

from collections import Counter
from random import Random

from rules.crimecity.actions import Action, Submission
from rules.crimecity.ids import Character, Location, Role
from rules.crimecity.legal import legal_actions
from rules.crimecity.players.random_player import random_actions, random_draft, random_guess
from rules.crimecity.state import GameState, Seat, new_game
from rules.crimecity.validate import validate_submission

C, R = Character, Role
SEATS = {"p1": Seat(C.DETECTIVE, R.PICKPOCKET), "p2": Seat(C.BANKER, R.MOB_BOSS), "p3": Seat(C.SECRETARY, R.HITMAN),
         "p4": Seat(C.GOVERNOR, R.BANK_ROBBER), "p5": Seat(C.ARMED_GUARD, R.FRAUD)}


def _sets(state: GameState, me: str) -> set[frozenset[Action]]:
    legal = legal_actions(state, me)
    moves = [a for a in legal if a.is_move]
    others = [a for a in legal if not a.is_move]
    own = state.own(me)
    out = {frozenset((m, n)) for m in moves for n in others}
    out |= {frozenset((a, b)) for a in others for b in others if a.key(own) != b.key(own)}
    return out


def test_every_legal_set_of_actions_is_equally_likely() -> None:
    state = new_game(list(SEATS), SEATS, {p: 10 for p in SEATS})
    everything = _sets(state, "p1")
    rng = Random(11)
    draws = 60 * len(everything)
    counts = Counter(frozenset(random_actions(state, "p1", rng)) for _ in range(draws))
    assert set(counts) == everything  # nothing illegal, nothing missing
    expected = draws / len(everything)
    chi2 = sum((counts[s] - expected) ** 2 / expected for s in everything)
    assert chi2 < 1.3 * len(everything)  # far from the 2x a skewed draw gives (fixed seed: no flakiness)
    for actions in list(counts)[:50]:
        assert validate_submission(state, "p1", Submission(tuple(actions))) is None


def test_a_lone_move_when_nothing_else_is_legal() -> None:
    # WE-2's Eve: the Armed Guard alone in the Bank, no network, must submit exactly one move
    start = new_game(list(SEATS), SEATS, {})
    state = start.with_changes(positions={**start.positions, C.BANKER: Location.TOWN_HALL})
    acts = random_actions(state, "p5", Random(1))
    assert len(acts) == 1 and isinstance(acts[0], Action) and acts[0].is_move


def test_draft_and_guess_are_well_formed() -> None:
    rng = Random(2)
    for _ in range(50):
        d = random_draft({"garnets": 7}, rng)
        assert 0 <= d["bid"] <= 7 and len(set(d["roles"])) == 5 and len(set(d["characters"])) == 8
        g = random_guess(rng)
        assert sorted(Counter(g.values()).values()) == [1, 1, 1, 1, 1, 3]
