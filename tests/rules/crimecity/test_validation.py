"""Refusal codes and their order (replay.md "Edge cases"; rulings R34-R44, Q21-Q27, Q41)."""

from __future__ import annotations

import pytest

from rules.crimecity import Submission, validate_submission
from rules.crimecity.ids import Character as C
from rules.crimecity.ids import Role as R
from tests.support.rules_helpers import act, doc, positions, state_of


def code(state, player: str, *texts: str, buys=(), guess=None) -> str | None:
    err = validate_submission(state, player, Submission(tuple(act(t) for t in texts), tuple(buys), guess))
    return err.code if err else None


@pytest.fixture
def s0():
    return state_of(doc())


def test_shapes(s0) -> None:
    assert code(s0, "andy") == "shape"
    assert code(s0, "andy", "move vertical secretary", "move horizontal banker") == "shape"
    assert code(s0, "andy", "converse store_clerk", "ability governor", "move vertical banker") == "shape"
    assert code(s0, "andy", "move vertical secretary") == "shape"  # a non-movement exists
    assert code(s0, "andy", "converse store_clerk") == "shape"  # a lone action must be a move
    assert code(s0, "andy", "converse store_clerk", "ability governor") is None
    assert code(s0, "andy", "move vertical secretary", "converse store_clerk") is None


def test_malformed_comes_first(s0) -> None:
    assert code(s0, "andy", "ability", "move vertical secretary", "move vertical banker") == "malformed"
    assert code(s0, "grunkle", "ability policeman", "converse armed_guard") == "malformed"
    assert code(s0, "cara", "ability", "converse policeman") == "malformed"  # Secretary needs a parameter
    assert code(s0, "dev", "ability policeman", "converse governors_daughter") == "malformed"  # needs a place


def test_duplicate_keys_q21(s0) -> None:
    assert code(s0, "andy", "converse store_clerk", "converse store_clerk") == "duplicate"
    # Different kinds on the same character are fine.
    assert code(s0, "andy", "converse store_clerk", "move vertical store_clerk") is None


def test_single_defect_codes(s0) -> None:
    assert code(s0, "andy", "converse detective", "ability banker") == "bad_target"  # self
    assert code(s0, "eve", "ability armed_guard", "move vertical banker") == "bad_target"  # ARM on itself
    assert code(s0, "dev", "ability governor mansion", "converse governors_daughter") == "bad_target"
    assert code(s0, "andy", "friend detective banker", "converse store_clerk") == "not_networked"  # own as friend
    assert code(s0, "andy", "friend banker", "converse store_clerk") == "not_networked"
    assert code(s0, "andy", "converse banker", "ability banker") == "not_here"
    assert code(s0, "eve", "ability policeman", "move vertical banker") == "not_here"


def test_self_targets_allowed_q41(s0) -> None:
    pol = state_of(doc(seats={**doc()["seats"], "eve": {"character": "policeman", "role": "fraud"}}))
    assert code(pol, "eve", "ability policeman", "move vertical policeman") is None
    assert code(s0, "dev", "ability governor town_hall", "move vertical banker") is None
    assert code(s0, "andy", "ability detective", "move vertical detective") is None


def test_guess_rules(s0) -> None:
    truth = {c: s0.role_of(c) for c in C}
    assert code(s0, "grunkle", "converse armed_guard", "move vertical banker", guess=truth) is None
    assert code(s0, "andy", "converse store_clerk", "ability banker", guess=truth) == "guess"
    partial = dict(list(truth.items())[:7])
    assert code(s0, "grunkle", "converse armed_guard", "move vertical banker", guess=partial) == "guess"
    bad = dict(truth)
    bad[C.POLICEMAN] = R.HITMAN
    assert code(s0, "grunkle", "converse armed_guard", "move vertical banker", guess=bad) == "guess"


def test_buys(s0) -> None:
    ok = ((C.BANKER, C.DETECTIVE),) * 6
    assert code(s0, "andy", "converse store_clerk", "ability banker", buys=ok) is None
    assert code(s0, "andy", "converse store_clerk", "ability banker", buys=ok + ok[:1]) == "garnets"
    assert code(s0, "andy", "converse store_clerk", "ability banker", buys=((C.BANKER, C.BANKER),)) == "bad_target"


def dead_gov_state():
    return state_of(doc(start={
        "round": 3, "governor_alive": False,
        "positions": positions("TH{POL,SEC} MN{DAU} MS{CLK,DET} BK{BAN,ARM}"),
        "friendship": {"banker+governor": 2, "detective+governor": 2, "armed_guard+governor": 3},
    }))


def test_dead_governor_rules_q26_q27() -> None:
    st = dead_gov_state()
    assert code(st, "andy", "move vertical governor", "converse store_clerk") == "bad_target"
    assert code(st, "dev", "converse store_clerk", "move vertical banker") == "unavailable"
    assert code(st, "dev", "move vertical banker") is None  # no character left: one move
    assert code(st, "grunkle", "friend governor banker bank", "converse armed_guard") == "unavailable"
    # The dead Governor links nothing: banker and detective are not networked through him.
    assert code(st, "grunkle", "friend detective governor", "converse armed_guard") == "not_networked"
    # Detective may still investigate him, and the Secretary still names his player.
    assert code(st, "andy", "ability governor", "converse store_clerk") is None
    assert code(st, "andy", "converse store_clerk", "ability banker", buys=((C.GOVERNOR, C.BANKER),)) == "bad_target"


def test_order_network_before_condition() -> None:
    st = state_of(doc(start={"positions": positions("TH{POL,SEC} MN{DAU,GOV} MS{CLK,DET,BAN} BK{ARM}")}))
    # Banker at Main Street: own ability's condition fails.
    assert code(st, "grunkle", "ability", "converse store_clerk") == "unavailable"
