"""The Mob Boss guesses untried assignments that fit what it knew, and can rebuild its earlier guesses."""

from __future__ import annotations

from dataclasses import replace

from rules.crimecity.ids import CHARACTERS, Character, Role
from rules.crimecity.players.belief import consistent
from rules.crimecity.players.knowledge import RoleFact
from rules.crimecity.players.mob_boss import expected_left, guess_sequence, next_guess
from tests.rules.crimecity.players.test_belief import knowing

C, R = Character, Role


def test_guesses_never_repeat_and_fit_what_was_known_then() -> None:
    facts = (RoleFact(1, C.STORE_CLERK, R.NONE), RoleFact(3, C.DETECTIVE, R.HITMAN))
    k6 = replace(knowing(roles=facts), round=6)
    seq = guess_sequence(k6, 6)
    assert len(set(seq)) == 6
    for rnd, guess in enumerate(seq, start=1):
        assert guess in consistent(k6.known_before(rnd))
    assert dict(zip(CHARACTERS, seq[-1], strict=True)) == next_guess(k6)


def test_a_guess_is_perfect_once_the_facts_leave_one_assignment() -> None:
    truth = {C.POLICEMAN: R.HITMAN, C.SECRETARY: R.NONE, C.BANKER: R.MOB_BOSS, C.ARMED_GUARD: R.NONE,
             C.STORE_CLERK: R.BANK_ROBBER, C.DETECTIVE: R.PICKPOCKET, C.GOVERNOR: R.FRAUD,
             C.GOVERNORS_DAUGHTER: R.NONE}
    facts = tuple(RoleFact(1, c, r) for c, r in truth.items() if c not in (C.BANKER, C.GOVERNORS_DAUGHTER))
    k = knowing(roles=facts)
    assert len(consistent(k)) == 1 and next_guess(k) == truth


def test_the_detective_asks_where_the_answer_splits_the_belief_most() -> None:
    k = knowing()
    ranked = expected_left(k, asks_role=True)
    assert ranked[0][0] <= ranked[-1][0]
    assert ranked[-1][1] is C.BANKER  # asking about its own character tells it nothing
    assert ranked[-1][0] == len(consistent(k))
