"""Rules the scenarios of rulings.md do not reach: reshuffles on every deck, an empty Penalty deck, a Boss who
fails an attack at a timeout (E21), sealed ballots all cast, two attackers on one Home Base, a vote-limit penalty."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.organizedcrime.content import FILES, validate
from rules.organizedcrime.game import GAME, OrganizedCrime

from .frames import DECK_IDS, TIMEOUT, A, frame, yellow_turn

G, Y, W = "green", "yellow", "white"
CONTENT = Path(__file__).resolve().parents[3] / "rules" / "organizedcrime" / "content"


def _kinds(out: dict[str, Any], i: int) -> list[str]:
    return [e["kind"] for e in out["log"][i]["events"]]


def test_a_mistake_landing_reshuffles_the_mistake_deck() -> None:
    start = {"players": {G: {"hitmen": {"1": "o02"}}},
             "decks": {"mistake": {"draw": [], "discard": list(DECK_IDS["mistake"])}}}
    order = ["MK06"] + [x for x in DECK_IDS["mistake"] if x != "MK06"]
    out = GAME.replay(frame(start=start, dice=[[1, 1]], shuffles={"mistake": [order]}, actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="i00"), A(G, "step", to="i01")]))
    assert _kinds(out, 4) == ["stepped", "move_ended", "shuffled", "mistake", "paid"]
    assert out["state"]["decks"]["mistake"] == {"facedown": 11, "discard": ["MK06"]}


def test_buying_power_reshuffles_and_an_empty_deck_refuses() -> None:
    held = DECK_IDS["power"][2:]
    start = {"players": {G: {"money": 400000}, Y: {"power": held}},
             "decks": {"power": {"draw": [], "discard": ["PW02", "PW01"]}}}
    out = GAME.replay(frame(start=start, shuffles={"power": [["PW01", "PW02"]]}, actions=[
        A(G, "buy_power"), A(G, "buy_power"), A(G, "buy_power")]))
    assert _kinds(out, 0) == ["bought_power", "shuffled", "drew", "drew_card"]
    assert _kinds(out, 1) == ["bought_power", "drew", "drew_card"]
    assert out["log"][2]["refused"]["code"] == "funds"
    assert out["hands"][G]["power"] == ["PW01", "PW02"] and out["state"]["players"][G]["money"] == 0


def _penalty_turn(penalty_deck: dict[str, Any] | None, top: str | None = None) -> dict[str, Any]:
    start = yellow_turn(green={"hitmen": {"1": "o04"}, "officials": {"judge": 1}},
                        yellow={"hitmen": {"1": "o03"}, "officials": {"judge": 1, "governor": 1}})
    if penalty_deck is not None:
        start["decks"] = {"penalty": penalty_deck}
    return frame(start=start, dice=[[1, 1]], tops={"penalty": top} if top else None, actions=[
        A(Y, "declare", piece="yellow:1", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=2),
        A(Y, "step", to="o04"), A(Y, "rub", target="green:1"), A(Y, "pass"), A(G, "penalty"), A(G, "call_vote"),
        A(Y, "vote", side="abstain"), A(W, "vote", side="for", votes=1), A(G, "vote", side="for", votes=1)])


def test_an_empty_penalty_deck_makes_a_carried_penalty_do_nothing() -> None:
    # A replacement Penalty deck of one vote-limit card, lying in front of white: the deck holds no card at all.
    docs = {name: json.loads((CONTENT / name).read_text()) for name in FILES}
    cards = docs["decks.json"]["decks"]["penalty"]["cards"]
    docs["decks.json"]["decks"]["penalty"]["cards"] = [c for c in cards if c["id"] == "PN10"]
    game = OrganizedCrime(validate(docs))
    doc = _penalty_turn({"draw": [], "discard": []})
    doc["start"]["players"][W] = {"limits": [{"card": "PN10", "turns_left": 2}]}
    out = game.replay(doc)
    assert _kinds(out, 10) == ["ballot", "vote_result", "deck_empty"]
    assert out["log"][10]["events"][-1] == {"audience": "public", "kind": "deck_empty", "player": Y,
                                           "deck": "penalty"}
    assert out["pending"]["decision"] == "session"


def test_a_vote_limit_penalty_lies_in_front_of_the_offender() -> None:
    out = GAME.replay(_penalty_turn(None, top="PN12"))
    assert _kinds(out, 10) == ["ballot", "vote_result", "penalty_card"]
    yellow = out["state"]["players"][Y]
    assert yellow["limits"] == [{"card": "PN12", "turns_left": 1}]
    assert yellow["votes"] == 1 + 1 + 2 * (2 - 1)
    assert out["state"]["decks"]["penalty"]["discard"] == []


def test_a_boss_who_fails_an_attack_at_a_timeout_ends_his_turn() -> None:
    start = {"players": {G: {"boss": "o13", "hitmen": {"1": "o20"}}}}
    out = GAME.replay(frame(start=start, dice=[[2, 2]], actions=[
        A(G, "declare", piece="green:0", dir="right", attack=Y), A(G, "declare", piece="green:1", dir="right"),
        A(G, "roll"), TIMEOUT]))
    assert _kinds(out, 3) == ["timed_out", "move_ended", "attack_failed", "paid", "debt", "removed", "eliminated",
                              "debt_settled", "turn_ended", "turn_began"]
    ended = out["log"][3]["events"][-2]
    assert ended["cause"] == "timeout" and ended["player"] == G
    assert out["state"]["players"][G]["turns_taken"] == 0
    movers = out["turns"][0]["state"]["turn_state"]["movers"]
    assert [m["status"] for m in movers] == ["forfeited", "declared"]  # E21: the forfeits stop at the elimination


def test_sealed_ballots_are_revealed_when_the_last_is_in() -> None:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}}}
    out = GAME.replay(frame(start=start, dice=[[1, 1]], options={"ballots": "sealed"}, actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling"),
        A(G, "call_vote"), A(W, "vote", side="for", votes=2), A(G, "vote", side="for", votes=2),
        A(Y, "vote", side="against", votes=1)]))
    assert out["log"][8]["events"][1]["audience"] == [G]
    assert _kinds(out, 9) == ["ballot_sealed", "ballot", "ballots_revealed", "vote_result", "acquired"]
    revealed = out["log"][9]["events"][2]["ballots"]
    assert [b["player"] for b in revealed] == [Y, W, G]


def test_two_attackers_on_one_home_base_the_second_lapses() -> None:
    start = {"players": {G: {"hitmen": {"1": "o15", "2": "o13"}, "power": ["PW01"]}, Y: {"hitmen": {}}}}
    out = GAME.replay(frame(start=start, dice=[[2, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "declare", piece="green:2", dir="right",
                                                                     attack=Y),
        A(G, "roll"), A(G, "move", piece="green:1", share=2), A(G, "step", to="h1"), A(G, "step", to="b1"),
        A(G, "hit", card="PW01", targets=["yellow:0"]), A(G, "move", piece="green:2", share=1),
        A(G, "step", to="o14")]))
    assert _kinds(out, 6) == ["hit_played", "rubbed_out", "eliminated", "attack_succeeded", "returned_home",
                              "move_ended"]
    assert _kinds(out, 8) == ["stepped", "move_ended", "attack_lapsed", "mistake"] + [
        e["kind"] for e in out["log"][8]["events"][4:]]
    assert out["state"]["turn_state"]["movers"][1]["outcome"] == "lapsed"
