"""Refusal codes in replay.md's check order: malformed (E22), not_in_game, wrong_phase, not_yours, the act's own."""

from __future__ import annotations

from typing import Any

import pytest

from rules.organizedcrime.game import GAME

from .frames import A, frame, yellow_turn

G, Y, W = "green", "yellow", "white"


def _codes(doc: dict[str, Any]) -> list[str | None]:
    return [None if e["refused"] is None else e["refused"]["code"] for e in GAME.replay(doc)["log"]]


def _turn(*actions: dict[str, Any], start: dict[str, Any] | None = None, dice: Any = None) -> list[str | None]:
    start = start or {"players": {G: {"hitmen": {"1": "o13", "2": "o13"}}}}
    return _codes(frame(start=start, dice=dice or [[2, 2]], actions=list(actions)))


MALFORMED = [
    A(G, "declare", piece="green:1", dir="up"),
    A(G, "declare", piece="green:1"),
    A(G, "declare", piece="green:1", dir="right", speed=3),
    A(G, "buy_hitmen", count=0),
    A(G, "buy_hitmen"),
    A(G, "roll", twice=True),
    A(G, "give", to=Y),
    A(G, "give", to=Y, money=10000, card="PW01"),
    A(G, "give", to=Y, money=15000),
    A(G, "give", to=Y, money=-10000),
    A(G, "vote", side="maybe"),
    A(G, "vote", side="for"),
    A(G, "vote", side="abstain", votes=1),
    A(G, "vote", side="for", votes=0),
    A(G, "hit", card="PW01", targets=[]),
    A(G, "hit", card="PW01", targets=["yellow:1", "yellow:1"]),
    A(G, "remove", pieces=["green:1", "green:1"]),
    A(G, "base", base=9),
]


@pytest.mark.parametrize("action", MALFORMED, ids=[str(sorted(a.items())) for a in MALFORMED])
def test_malformed_comes_first(action: dict[str, Any]) -> None:
    assert _turn(action) == ["malformed"]


def test_a_non_positive_share_is_bad_share_and_an_empty_remove_is_bad_piece() -> None:
    codes = _turn(A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=0),
                  A(G, "move", piece="green:1", share=-4))
    assert codes == [None, None, "bad_share", "bad_share"]


def test_not_in_game_comes_before_wrong_phase_and_not_yours() -> None:
    start = {"players": {W: {"alive": False}, G: {"hitmen": {"1": "o13"}}}}
    assert _turn(A(W, "vote", side="abstain"), A(W, "roll"), start=start) == ["not_in_game", "not_in_game"]


def test_wrong_phase_comes_before_not_yours() -> None:
    assert _turn(A(Y, "call_vote"), A(Y, "step", to="o14"), A(Y, "roll")) == ["wrong_phase", "wrong_phase",
                                                                             "not_yours"]


def test_turn_checks_in_order() -> None:
    codes = _turn(A(G, "move", piece="green:1", share=4), A(G, "pass"), A(G, "roll"),
                  A(G, "declare", piece="green:1", dir="right", attack=W),
                  A(G, "declare", piece="green:1", dir="left"), A(G, "declare", piece="green:2", dir="left"),
                  A(G, "declare", piece="green:0", dir="left"), A(G, "roll"), A(G, "roll"),
                  A(G, "declare", piece="green:0", dir="left"), A(G, "pass"), A(G, "move", piece="green:9", share=2),
                  A(G, "move", piece="green:1", share=3))
    assert codes == ["before_roll", "before_roll", "not_declared", None, "already", None, "already", None,
                     "after_roll", "after_roll", "must_move", "bad_piece", "bad_share"]


def test_income_refusals() -> None:
    start = {"players": {G: {"cities": ["boston"]}}}
    assert _turn(A(G, "income"), A(G, "income"), start=start) == [None, "already"]
    assert _turn(A(G, "income")) == ["no_income"]


def test_buy_power_funds_then_deck_empty() -> None:
    rich = {"players": {G: {"money": 200000, "power": [f"PW{i:02d}" for i in range(1, 25)]}}}
    assert _turn(A(G, "buy_power"), start=rich) == ["deck_empty"]
    poor = {"players": {G: {"money": 190000, "power": [f"PW{i:02d}" for i in range(1, 25)]}}}
    assert _turn(A(G, "buy_power"), start=poor) == ["funds"]


def test_no_men_before_funds() -> None:
    start = {"players": {G: {"hitmen_bought": 19, "money": 0}}}
    assert _turn(A(G, "buy_hitmen", count=2), A(G, "buy_hitmen", count=1), start=start) == ["no_men", "funds"]


def test_gifts_need_a_member_and_the_money_or_card() -> None:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}, Y: {"money": 0},
                         W: {"power": ["PW02"]}}}
    doc = frame(start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling"),
        A(Y, "give", to=Y, money=10000), A(Y, "give", to=G, money=10000), A(W, "give", to=G, card="PW03"),
        A(W, "give", to=G, card="PW02"), A(G, "place"), A(W, "adjourn")])
    assert _codes(doc)[6:] == ["bad_target", "funds", "no_card", None, "wrong_phase", "wrong_phase"]


def test_meeting_no_opportunity_then_bad_target() -> None:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05", "2": "o13"}}}}
    doc = frame(start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:2", target="gambling"),
        A(G, "meeting", piece="green:1", target="trucking"), A(G, "meeting", piece="green:1", target="judge"),
        A(G, "acquire", piece="green:1"), A(G, "meeting", piece="green:1", target="gambling")])
    assert _codes(doc)[5:] == ["no_opportunity", "bad_target", "bad_target", "no_opportunity", None]


def test_a_taken_circle_refuses_the_meeting() -> None:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}, Y: {"illegal": {"gambling": 3}}}}
    doc = frame(start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling")])
    assert _codes(doc)[5] == "taken"


def test_stop_before_the_counts_are_used_and_step_without_counts() -> None:
    codes = _turn(A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=4),
                  A(G, "stop"))
    assert codes[-1] == "counts_left"


def test_penalty_window_refusals() -> None:
    start = yellow_turn(green={"hitmen": {"1": "o04"}}, yellow={"hitmen": {"1": "o03"}})
    doc = frame(start=start, dice=[[1, 1]], actions=[
        A(Y, "declare", piece="yellow:1", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=2),
        A(Y, "step", to="o04"), A(Y, "rub", target="green:1"), A(Y, "pass"), A(W, "penalty"), A(G, "roll"),
        A(G, "no_penalty"), A(G, "penalty")])
    codes = _codes(doc)
    assert codes[6:9] == ["not_yours", "wrong_phase", None]
    assert codes[9] == "wrong_phase"  # the window closed with green's answer; green's turn began


def test_open_ballots_out_of_turn_and_too_many_votes() -> None:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}}}
    doc = frame(start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling"),
        A(G, "vote", side="for", votes=1), A(G, "call_vote"), A(W, "vote", side="for", votes=1),
        A(Y, "vote", side="for", votes=3), A(Y, "vote", side="for", votes=2), A(Y, "give", to=G, money=10000)])
    assert _codes(doc)[6:] == ["wrong_phase", None, "not_yours", "votes", None, "wrong_phase"]
