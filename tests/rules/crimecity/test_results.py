"""ToL, EC and awards (rulings R84-R96), on hand-built completion maps."""

from __future__ import annotations

import pytest

from rules.crimecity import Seat, final_results, new_game
from rules.crimecity.ids import Character as C
from rules.crimecity.ids import Role as R
from rules.crimecity.results import award

P = ["a", "b", "c", "d", "e"]
SEATS = {
    "a": Seat(C.DETECTIVE, R.PICKPOCKET), "b": Seat(C.BANKER, R.MOB_BOSS), "c": Seat(C.SECRETARY, R.HITMAN),
    "d": Seat(C.GOVERNOR, R.BANK_ROBBER), "e": Seat(C.ARMED_GUARD, R.FRAUD),
}


def results(completed: dict[str, int], garnets: dict[str, int] | None = None, rnd: int = 6):
    st = new_game(P, SEATS, garnets or dict.fromkeys(P, 10)).with_changes(completed=completed, round=rnd, over=True)
    return final_results(st)


def test_award_table_and_example_r92() -> None:
    assert [award(p, 1) for p in (1, 2, 3, 4, 5)] == [15, 10, 7, 4, 0]
    res = results({"a": 2, "b": 2, "c": 4})
    assert (res.awards["a"], res.awards["b"], res.awards["c"]) == (13, 13, 7)


def test_one_non_completer_is_ec_and_first_gets_tol() -> None:
    res = results({"a": 1, "b": 2, "c": 3, "d": 3})
    assert res.ec == "e" and res.ec_pending is None
    assert res.tol == ["a"]
    assert res.completion_order == [["a"], ["b"], ["c", "d"]]
    assert res.awards == {"a": 15, "b": 10, "c": 5, "d": 5, "e": 0}
    assert res.final_garnets == {"a": 25, "b": 20, "c": 15, "d": 15, "e": 10}


def test_two_or_three_non_completers_leave_the_choice_to_the_first() -> None:
    res = results({"c": 3, "a": 3, "b": 5})
    assert res.ec is None
    assert res.ec_pending == {"deciders": ["a", "c"], "candidates": ["d", "e"], "unanimous": True}
    assert res.tol == ["a", "c"]
    solo = results({"a": 1, "b": 2})
    assert solo.ec_pending == {"deciders": ["a"], "candidates": ["c", "d", "e"], "unanimous": False}


def test_four_or_five_non_completers_lowest_balance() -> None:
    res = results({"a": 4}, garnets={"a": 0, "b": 3, "c": 2, "d": 5, "e": 9})
    assert res.ec == "c" and res.tol == ["a"]
    tie = results({}, garnets={"a": 1, "b": 1, "c": 2, "d": 5, "e": 9})
    assert tie.ec is None and tie.tol == []
    assert tie.ec_pending == {"deciders": P, "candidates": ["a", "b"], "unanimous": True}


def test_awards_count_before_lowest_balance_q33() -> None:
    # d completes alone and earns 15, so b (lowest after awards) is EC though d started lowest.
    res = results({"d": 2}, garnets={"a": 5, "b": 3, "c": 4, "d": 0, "e": 6})
    assert res.ec == "b"


def test_all_five_completed_last_group_reclassified_r84() -> None:
    res = results({"a": 1, "b": 2, "c": 2, "d": 3, "e": 3})
    assert res.tol == ["a"]
    assert res.ec_pending == {"deciders": ["a"], "candidates": ["d", "e"], "unanimous": False}
    assert res.awards == {"a": 15, "b": 8, "c": 8, "d": 2, "e": 2}  # R94: actual positions


def test_four_first_together_void_tols() -> None:
    res = results({"a": 2, "b": 2, "c": 2, "d": 2})
    assert res.tol == [] and res.ec == "e"
    assert res.awards["a"] == 13


@pytest.mark.parametrize("n", [1, 2, 3])
def test_small_first_group_gets_tols(n: int) -> None:
    res = results(dict.fromkeys(P[:n], 1))
    assert res.tol == P[:n]


def test_everyone_at_once_is_all_non_completers() -> None:
    res = results(dict.fromkeys(P, 2), garnets={"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})
    assert res.tol == [] and res.ec == "a"
    assert res.awards == dict.fromkeys(P, 13)
