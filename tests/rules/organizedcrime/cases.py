"""Every worked example (WE-…) and scenario (S-…) of rulings.md, and replay.md's example as corrected by the
errata, as replay files with the expectations the spec states, written by hand from its text.

`python -m tests.rules.organizedcrime.cases` writes them to golden/ (NAME.replay.json and NAME.expect.json);
test_golden.py reads only the golden files.

Expectations: {"log": i, "kinds": [...]} (the event kinds of entry i, in order; i = -1 the last one), {"log": i,
"event": KIND, "fields": {...}} (the first such event has these fields), {"log": i, "refused": CODE}, {"prelude":
KINDS}, {"state": "a.b.c", "equals": v}, {"hands": P, "equals": v}, {"legal": P, "actions": [...]} or
"destinations", {"pending": {...}}, {"result": "a.b", "equals": v}, {"format_error": PATH-PREFIX}.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .frames import SF2, SF4, TIMEOUT, A, frame, yellow_turn

GOLDEN = Path(__file__).resolve().parent / "golden"
Case = tuple[str, dict[str, Any], list[dict[str, Any]]]


def step(to: str) -> dict[str, Any]:
    return {"act": "step", "to": to}


def kinds(i: int, *names: str) -> dict[str, Any]:
    return {"log": i, "kinds": list(names)}


def ev(i: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"log": i, "event": kind, "fields": fields}


def refused(i: int, code: str) -> dict[str, Any]:
    return {"log": i, "refused": code}


def state(path: str, value: Any) -> dict[str, Any]:
    return {"state": path, "equals": value}


def legal(player: str, actions: list[dict[str, Any]] | None = None, destinations: Any = "skip",
          decision: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"legal": player}
    if actions is not None:
        out["actions"] = actions
    if destinations != "skip":
        out["destinations"] = destinations
    if decision is not None:
        out["decision"] = decision
    return out


def dest(to: str, *steps: str) -> dict[str, Any]:
    return {"to": to, "steps": list(steps)}


G, Y, W, R = "green", "yellow", "white", "red"


def we_a() -> list[Case]:
    start = {"players": {G: {"hitmen": {"1": "o00", "2": "h0"}}}}
    head = [A(G, "declare", piece="green:1", dir="right"), A(G, "declare", piece="green:2", dir="left"), A(G, "roll")]
    return [
        ("we_a_roll", frame(start=start, dice=[[4, 2]], actions=head), [
            ev(2, "rolled", total=6, shares=[3, 3], dice=[4, 2]),
            legal(G, [{"act": "move", "piece": "green:1", "share": 3}, {"act": "move", "piece": "green:2", "share": 3}],
                  destinations=None, decision="turn") | {"only": "move"},
        ]),
        ("we_a_green1", frame(start=start, dice=[[4, 2]], actions=head + [A(G, "move", piece="green:1", share=3)]), [
            legal(G, [step("o01")], [dest("i00", "o01", "o02", "i00"), dest("i15", "o01", "o02", "i15"),
                                     dest("o03", "o01", "o02", "o03")], decision="path"),
        ]),
        ("we_a_green2", frame(start=start, dice=[[4, 2]], actions=head + [
            A(G, "move", piece="green:2", share=3), A(G, "step", to="b0")]), [
            refused(4, "bad_step"),
            legal(G, [step("o05"), step("o06")], [dest("o03", "o05", "o04", "o03"), dest("o04", "o06", "o05", "o04")]),
        ]),
    ]


def we_b() -> list[Case]:
    start = yellow_turn(green={"hitmen": {"1": "o03", "2": "o04"}}, yellow={"hitmen": {"1": "o06"}, "power": ["PW01"]})
    moves = [A(Y, "declare", piece="yellow:1", dir="left"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=6),
             A(Y, "step", to="o05"), A(Y, "step", to="o04"), A(Y, "rub", target="green:2"), A(Y, "step", to="o03"),
             A(Y, "hit", card="PW01", targets=["green:1"]), A(Y, "step", to="o02")]
    rest = [A(Y, "step", to="i15"), A(Y, "pass"), A(G, "penalty"), A(G, "call_vote"),
            A(Y, "vote", side="against", votes=2), A(W, "vote", side="for", votes=2), A(G, "vote", side="for", votes=2),
            A(G, "adjourn")]
    full = moves + rest
    variant = yellow_turn(green={"hitmen": {"1": "o03", "2": "o04"}},
                          yellow={"hitmen": {"1": "o06"}, "power": ["PW01", "PW13"]})
    return [
        ("we_b_at_o02", frame(start=start, dice=[[4, 2]], actions=moves), [
            legal(Y, [step("i00"), step("i15"), step("o01")]),
        ]),
        ("we_b_two_hits_alone", frame(start=variant, dice=[[4, 2]], actions=moves[:7] + [
            A(Y, "hit", card="PW13", targets=["green:1"])]), [refused(7, "bad_target")]),
        ("we_b", frame(start=start, dice=[[4, 2]], actions=full), [
            ev(3, "stepped", piece="yellow:1", **{"from": "o06"}, to="o05", count=1),
            ev(4, "stepped", to="o04", count=2),
            ev(5, "rubbed_out", by="yellow:1", piece="green:2", space="o04", count=3, card=None, seq=1),
            ev(6, "stepped", to="o03", count=4),
            kinds(7, "hit_played", "rubbed_out"),
            ev(7, "hit_played", piece="yellow:1", card="PW01", targets=["green:1"]),
            ev(7, "rubbed_out", piece="green:1", card="PW01", count=None, seq=2),
            ev(8, "stepped", to="o02", count=5),
            kinds(9, "stepped", "move_ended", "drew", "drew_card"),
            ev(9, "stepped", to="i15", count=6),
            ev(9, "move_ended", piece="yellow:1", space="i15", used=6, unused=0, reason="complete"),
            ev(9, "drew", player=Y, deck="official"),
            {"log": 9, "event": "drew_card", "fields": {"card": "CO01", "player": Y, "deck": "official"},
             "audience": [Y]},
            kinds(10, "turn_ended", "penalty_window"),
            ev(10, "turn_ended", turn=2, player=Y, cause="pass", rolled=True),
            ev(10, "penalty_window", offender=Y, offended=[G]),
            kinds(11, "penalty_called", "meeting_called"),
            ev(11, "meeting_called", meeting=1, type="penalty", caller=G, issue={"type": "penalty", "offender": Y}),
            ev(12, "vote_called", meeting=1, order=[Y, W, G], entitlements={Y: 2, W: 2, G: 2}),
            kinds(15, "ballot", "vote_result", "penalty_card", "removed"),
            ev(15, "vote_result", **{"for": 4}, against=2, carried=True),
            ev(15, "penalty_card", player=Y, caller=G, card="PN01"),
            ev(15, "removed", piece="yellow:1", space="i15", cause="penalty"),
            kinds(16, "meeting_closed", "turn_began"),
            ev(16, "turn_began", turn=3, round=1, player=W),
            state("players.yellow.pieces", {"yellow:0": "b1"}),
            state("players.yellow.cards", {"power": 0, "official": 1}),
            state("players.green.pieces", {"green:0": "b0"}),
            state("decks.power.discard", ["PW01"]),
            state("decks.penalty.discard", ["PN01"]),
        ]),
    ]


def we_c() -> list[Case]:
    yellow = {"hitmen": {str(n): "h1" for n in range(1, 6)}, "power": ["PW17"], "official_cards": ["CO01"]}
    start = {"players": {G: {"hitmen": {"1": "o13"}, "power": ["PW01", "PW13"]}, Y: yellow}}
    acts = [A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "roll"),
            A(G, "move", piece="green:1", share=7), A(G, "step", to="o14"), A(G, "step", to="o15"),
            A(G, "step", to="h1"), A(G, "rub", target="yellow:1"), A(G, "rub", target="yellow:2"),
            A(G, "rub", target="yellow:3"), A(G, "step", to="b1"),
            A(G, "hit", card="PW13", targets=["yellow:5", "yellow:4"]), A(G, "step", to="b1"),
            A(G, "hit", card="PW01", targets=["yellow:0"])]
    c1 = [
        refused(9, "bad_step"),
        ev(10, "rubbed_out", piece="yellow:4", seq=4), ev(10, "hit_played", targets=["yellow:4", "yellow:5"]),
        ev(11, "stepped", to="b1", count=7),
        kinds(12, "hit_played", "rubbed_out", "eliminated", "received_cards", "attack_succeeded", "returned_home",
              "move_ended"),
        ev(12, "rubbed_out", piece="yellow:0", space="b1", card="PW01", seq=6, count=None, by="green:1"),
        ev(12, "eliminated", player=Y, cause="rubout", by=G, money=150000, to_by=70000, to_treasury=80000,
           pieces=[]),
        {"log": 12, "event": "received_cards", "fields": {"player": G, "from": Y, "cards": ["CO01", "PW17"]},
         "audience": [G]},
        ev(12, "attack_succeeded", piece="green:1", player=Y),
        ev(12, "returned_home", piece="green:1", space="h0"),
        ev(12, "move_ended", space="h0", used=7, unused=0, reason="attack"),
    ]
    after = [state("players.green.money", 220000), state("players.green.votes", 3),
             state("players.green.pieces", {"green:0": "b0", "green:1": "h0"}),
             {"hands": G, "equals": {"power": ["PW17"], "official": ["CO01"]}},
             state("decks.power.discard", ["PW13", "PW01"]), state("players.yellow.alive", False)]
    c2_start = {"players": {G: {"hitmen": {"1": "o13"}}, Y: {"hitmen": {str(n): "h1" for n in range(1, 6)}}}}
    c2 = [A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "roll"),
          A(G, "move", piece="green:1", share=11), A(G, "step", to="o14"), A(G, "step", to="o15"),
          A(G, "step", to="h1")] + [A(G, "rub", target=f"yellow:{n}") for n in range(1, 6)] + [
          A(G, "step", to="b1"), A(G, "rub", target="yellow:0")]
    return [
        ("we_c1", frame(start=start, dice=[[3, 4]], actions=acts), c1 + after),
        ("we_c1_pass", frame(start=start, dice=[[3, 4]], actions=acts + [A(G, "pass")]), [
            kinds(13, "turn_ended", "turn_began"), ev(13, "turn_began", turn=2, round=1, player=W)]),
        ("we_c1_sf2", frame(players=SF2, start=start, dice=[[3, 4]], actions=acts), [
            kinds(12, "hit_played", "rubbed_out", "eliminated", "received_cards", "game_over"),
            ev(12, "game_over", reason="last_survivor", winners=[G]),
            state("players.green.pieces", {"green:0": "b0", "green:1": "b1"}),
            {"result": "reason", "equals": "last_survivor"}, {"result": "winners", "equals": [G]},
            {"pending": None}]),
        ("we_c2", frame(start=c2_start, dice=[[5, 6]], actions=c2), [
            kinds(-1, "rubbed_out", "eliminated", "attack_succeeded", "returned_home", "move_ended"),
            ev(-1, "rubbed_out", piece="yellow:0", count=10),
            ev(-1, "eliminated", to_by=70000),
            ev(-1, "returned_home", space="h0"),
            ev(-1, "move_ended", used=10, unused=1, reason="attack"),
            state("players.green.money", 220000)]),
    ]


def we_d_to_g() -> list[Case]:
    d_start = {"players": {G: {"hitmen": {"1": "o03", "2": "o13"}}}}
    d = [A(G, "declare", piece="green:1", dir="right"), A(G, "declare", piece="green:2", dir="left"), A(G, "roll"),
         A(G, "move", piece="green:1", share=5), A(G, "move", piece="green:1", share=3), step("o04") | {"by": G},
         step("o05") | {"by": G}, step("o06") | {"by": G}, A(G, "move", piece="green:2", share=3),
         A(G, "move", piece="green:2", share=4)]
    e_start = {"players": {G: {"cities": ["new_york"], "illegal": {"narcotics": 1}, "business": {"trucking": 1}}}}
    f_start = {"players": {G: {"official_cards": ["CO07"]}}}
    return [
        ("we_d", frame(start=d_start, dice=[[6, 1]], actions=d), [
            ev(2, "rolled", total=7, shares=[4, 3]), refused(3, "bad_share"), ev(4, "move_began", share=3),
            refused(8, "bad_share"), ev(9, "move_began", piece="green:2", share=4, usable=4)]),
        ("we_e", frame(start=e_start, actions=[A(G, "income"), A(G, "income")]), [
            {"prelude": ["shuffled"] * 4 + ["turn_began"]},
            {"prelude_event": "turn_began", "fields": {"income": 90000}},
            kinds(0, "income"), ev(0, "income", player=G, amount=90000), refused(1, "already"),
            state("players.green.money", 240000)]),
        ("we_e_auto", frame(start=e_start, options={"auto_income": True}, actions=[A(G, "income")]), [
            {"prelude": ["shuffled"] * 4 + ["turn_began", "income"]}, refused(0, "already")]),
        ("we_f", frame(start=f_start, actions=[A(G, "buy_official", card="CO07")]), [
            ev(0, "bought_official", player=G, card="CO07", office="governor", cost=40000),
            state("players.green.money", 110000), state("players.green.officials", {"governor": 1}),
            state("players.green.men_left", 19), state("players.green.votes", 4),
            state("decks.official.discard", ["CO07"])]),
        ("we_f_taken", frame(start={"players": {G: {"official_cards": ["CO07"]}, Y: {"officials": {"governor": 3}}}},
                             actions=[A(G, "buy_official", card="CO07")]), [refused(0, "taken")]),
        ("we_f_funds", frame(start={"players": {G: {"official_cards": ["CO07"], "money": 30000}}},
                             actions=[A(G, "buy_official", card="CO07")]), [refused(0, "funds")]),
    ]


def s01_to_s05() -> list[Case]:
    def mv(piece: str, d: str, dice: list[int], share: int, *more: dict[str, Any]) -> list[dict[str, Any]]:
        return [A(G, "declare", piece=piece, dir=d), A(G, "roll"), A(G, "move", piece=piece, share=share), *more]

    one = {"players": {G: {"hitmen": {"1": "o02"}}}}
    s05_start = yellow_turn(green={"hitmen": {"1": "o04", "2": "o05", "3": "o05"}},
                            yellow={"hitmen": {"1": "o06"}, "power": ["PW01", "PW09", "PW13"]})
    s05 = [A(Y, "declare", piece="yellow:1", dir="left"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=3),
           A(Y, "step", to="o05")]

    def hit(card: str, *targets: str) -> dict[str, Any]:
        return {"act": "hit", "card": card, "targets": list(targets)}

    s04_start = {"players": {Y: {"boss": "o30"}, G: {"hitmen": {"1": "o15"}}}}
    s04 = [A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "roll"),
           A(G, "move", piece="green:1", share=3)]
    return [
        ("s01", frame(start=one, dice=[[1, 1]], actions=mv("green:1", "left", [1, 1], 2, A(G, "step", to="i00"),
                                                         A(G, "step", to="o03"))), [
            refused(3, "bad_step"), refused(4, "bad_step"),
            legal(G, [step("i15"), step("o01")], [dest("i14", "i15", "i14"), dest("o00", "o01", "o00")])]),
        ("s02_start", frame(start={"players": {G: {"hitmen": {"1": "o04"}}}}, dice=[[1, 1]],
                            actions=mv("green:1", "right", [1, 1], 2, A(G, "step", to="o03"))), [
            refused(3, "bad_step"), legal(G, [step("o05")])]),
        ("s02_after", frame(start={"players": {G: {"hitmen": {"1": "o04"}}}}, dice=[[1, 1]],
                            actions=mv("green:1", "right", [1, 1], 2, A(G, "step", to="o05"), A(G, "step", to="o04"),
                                       A(G, "step", to="h0"))), [
            refused(4, "bad_step"), refused(5, "bad_step"), legal(G, [step("o06")])]),
        ("s03_right", frame(start={"players": {G: {"hitmen": {"1": "i03"}}}}, dice=[[1, 1]],
                            actions=mv("green:1", "right", [1, 1], 2)), [
            legal(G, destinations=[dest("i04", "o12", "i04"), dest("o11", "o12", "o11"), dest("o13", "o12", "o13")])]),
        ("s03_left", frame(start={"players": {G: {"hitmen": {"1": "i03"}}}}, dice=[[1, 1]],
                           actions=mv("green:1", "left", [1, 1], 2)), [
            legal(G, destinations=[dest("i01", "i02", "i01")])]),
        ("s04_start", frame(start=s04_start, dice=[[2, 1]], actions=s04), [
            ev(2, "move_began", usable=3),
            legal(G, [step("h1"), step("o16")], [dest("b1", "o16", "h1", "b1"), dest("o15", "o16", "h1", "o15"),
                                                 dest("o17", "h1", "o16", "o17"), dest("o18", "o16", "o17", "o18")])]),
        ("s04_h1", frame(start=s04_start, dice=[[2, 1]], actions=s04 + [
            A(G, "step", to="h1"), A(G, "step", to="b1"), A(G, "step", to="o15")]), [
            refused(4, "dead_end"), refused(5, "bad_step"), legal(G, [step("o16")])]),
        ("s04_completion", frame(start=s04_start, dice=[[2, 1]], actions=s04 + [
            A(G, "step", to="h1"), A(G, "step", to="o16"), A(G, "step", to="o17")]), [
            kinds(5, "stepped", "move_ended", "attack_failed", "paid", "debt", "removed"),
            ev(5, "move_ended", space="o17", used=3, reason="complete"),
            ev(5, "attack_failed", piece="green:1", player=Y),
            ev(5, "paid", **{"from": G, "to": Y}, amount=150000, reason="attack"),
            ev(5, "debt", debtor=G, creditor=Y, amount=50000, reason="attack"),
            ev(5, "removed", piece="green:1", space="o17", cause="failed_attack"),
            state("turn_state.opportunities", [])]),
        ("s05_o05", frame(start=s05_start, dice=[[2, 1]], actions=s05), [
            legal(Y, [hit("PW01", "green:2"), hit("PW01", "green:3"), hit("PW09", "green:2", "green:3"),
                      hit("PW09", "green:2"), hit("PW09", "green:3"), hit("PW13", "green:2", "green:3"),
                      {"act": "rub", "target": "green:2"}, {"act": "rub", "target": "green:3"}, step("o04")])]),
        ("s05_o04", frame(start=s05_start, dice=[[2, 1]], actions=s05 + [
            A(Y, "step", to="o04"), A(Y, "hit", card="PW13", targets=["green:1"])]), [
            refused(5, "bad_target"),
            legal(Y, [hit("PW01", "green:1"), hit("PW09", "green:1"), {"act": "rub", "target": "green:1"},
                      step("o03")])]),
    ]


def s06_to_s09() -> list[Case]:
    s06_start = {"players": {G: {"hitmen": {"1": "o13"}}, Y: {"hitmen": {"1": "h1", "2": "h1", "3": "h1"}}}}
    s06 = [A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "roll"),
           A(G, "move", piece="green:1", share=5), A(G, "step", to="o14"), A(G, "step", to="o15"),
           A(G, "step", to="h1"), A(G, "rub", target="yellow:1"), A(G, "rub", target="yellow:2"),
           A(G, "pass"), A(Y, "penalty"), A(Y, "call_vote"), A(W, "vote", side="for", votes=2),
           A(G, "vote", side="against", votes=1), A(Y, "vote", side="for", votes=4), A(Y, "adjourn")]
    s07_start = {"players": {G: {"money": 0, "cities": ["new_york"], "hitmen": {"1": "o03"}}, Y: {"money": 100000}},
                 "debts": [{"debtor": G, "creditor": "treasury", "amount": 20000},
                           {"debtor": G, "creditor": Y, "amount": 50000}]}
    s07 = [A(G, "buy_hitmen", count=1), A(G, "income"), A(G, "buy_hitmen", count=1), A(G, "income")]
    s08_start = {"players": {
        G: {"money": 50000, "hitmen": {"1": "o21"}}, Y: {"money": 0},
        W: {"money": 250000, "boss": "o23", "hitmen": {"1": "h2"}, "cities": ["miami"], "officials": {"judge": 1},
            "power": ["PW02"], "official_cards": ["CO07"], "limits": [{"card": "PN10", "turns_left": 1}]}},
        "debts": [{"debtor": Y, "creditor": W, "amount": 40000}]}
    s08 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=3),
           A(G, "step", to="o22"), A(G, "step", to="o23"), A(G, "rub", target="white:0"), A(G, "pass")]
    s09_start = {"turn": 3, "round": 1, "active": W, "players": {
        G: {"money": 100000},
        W: {"money": 0, "boss": "o11", "hitmen": {"1": "h2"}, "officials": {"judge": 1}, "power": ["PW05"],
            "official_cards": ["CO02"]}},
        "debts": [{"debtor": W, "creditor": G, "amount": 30000}]}
    s09 = [A(W, "declare", piece="white:0", dir="right"), A(W, "roll"), A(W, "move", piece="white:0", share=3),
           A(W, "step", to="o12"), A(W, "step", to="o13"), A(W, "step", to="o14")]
    return [
        ("s06", frame(start=s06_start, dice=[[3, 2]], actions=s06, tops={"penalty": "PN07"}), [
            kinds(7, "rubbed_out", "move_ended", "attack_failed", "paid", "debt", "removed"),
            ev(7, "move_ended", space="h1", reason="complete"),
            ev(7, "paid", **{"from": G, "to": Y}, amount=150000, reason="attack"),
            ev(7, "debt", debtor=G, creditor=Y, amount=50000, reason="attack"),
            ev(7, "removed", piece="green:1", space="h1", cause="failed_attack"),
            kinds(8, "turn_ended", "penalty_window"), ev(8, "penalty_window", offender=G, offended=[Y]),
            ev(9, "meeting_called", meeting=1, type="penalty", caller=Y),
            ev(10, "vote_called", order=[W, G, Y], entitlements={W: 2, G: 1, Y: 4}),
            kinds(13, "ballot", "vote_result", "penalty_card", "debt"),
            ev(13, "vote_result", **{"for": 6}, against=1, carried=True),
            ev(13, "penalty_card", card="PN07", player=G, caller=Y),
            ev(13, "debt", debtor=G, creditor=Y, amount=50000, reason="penalty"),
            kinds(14, "meeting_closed", "turn_began"), ev(14, "turn_began", turn=2, player=Y),
            state("debts", [{"debtor": G, "creditor": Y, "amount": 50000},
                            {"debtor": G, "creditor": Y, "amount": 50000}]),
            state("players.yellow.money", 300000), state("players.yellow.pieces", {"yellow:0": "b1", "yellow:3": "h1"}),
            state("players.green.money", 0), state("players.green.votes", 1)]),
        ("s07", frame(start=s07_start, actions=s07), [
            {"prelude_event": "turn_began", "fields": {"income": 40000}},
            refused(0, "funds"), kinds(1, "income", "debt_paid", "debt_paid"),
            ev(1, "income", amount=40000),
            {"log": 1, "event": "debt_paid",
             "fields": {"debtor": G, "creditor": "treasury", "amount": 20000, "left": 0}},
            {"log": 1, "event": "debt_paid", "nth": 1, "fields": {"debtor": G, "creditor": Y, "amount": 20000,
                                                                  "left": 30000}},
            refused(2, "funds"), refused(3, "already"),
            state("players.green.money", 0), state("players.green.votes", 1), state("players.yellow.money", 120000),
            state("debts", [{"debtor": G, "creditor": Y, "amount": 30000}])]),
        ("s08", frame(start=s08_start, dice=[[1, 2]], actions=s08[:-1]), [
            kinds(5, "rubbed_out", "eliminated", "received_cards", "debt_transferred", "move_ended"),
            ev(5, "rubbed_out", piece="white:0", space="o23", count=3, seq=1),
            ev(5, "eliminated", player=W, cause="rubout", by=G, money=250000, to_by=120000, to_treasury=130000,
               pieces=["white:1"], holdings={"cities": ["miami"], "business": {}, "illegal": {},
                                             "officials": {"judge": 1}},
               cards={"power": 1, "official": 1, "limits": 1}),
            {"log": 5, "event": "received_cards", "fields": {"cards": ["CO07", "PW02"]}, "audience": [G]},
            ev(5, "debt_transferred", debtor=Y, **{"from": W}, amount=40000),
            ev(5, "move_ended", space="o23", used=3, reason="complete"),
            state("players.green.money", 170000), state("players.green.votes", 2),
            {"hands": G, "equals": {"power": ["PW02"], "official": ["CO07"]}},
            state("decks.penalty.discard", ["PN10"]),
            state("debts", [{"debtor": Y, "creditor": "treasury", "amount": 40000}]),
            state("turn_state.opportunities", [{"piece": "green:1", "space": "o23", "type": "city",
                                               "city": "new_york", "used": False}]),
            state("free.officials.judge", 3),
            legal(G, decision="turn")]),
        ("s08_pass", frame(start=s08_start, dice=[[1, 2]], actions=s08), [
            kinds(6, "turn_ended", "turn_began"), ev(6, "turn_began", turn=2, player=Y)]),
        ("s09", frame(start=s09_start, dice=[[2, 1]], actions=s09, tops={"mistake": "MK05"}), [
            kinds(5, "stepped", "move_ended", "mistake", "removed", "eliminated", "debt_settled", "turn_ended",
                  "turn_began"),
            ev(5, "move_ended", space="o14"),
            ev(5, "mistake", player=W, piece="white:0", card="MK05", avoided=False),
            ev(5, "removed", piece="white:0", space="o14", cause="mistake"),
            ev(5, "eliminated", player=W, cause="mistake", by=None, money=0, pieces=["white:1"],
               holdings={"cities": [], "business": {}, "illegal": {}, "officials": {"judge": 1}},
               cards={"power": 1, "official": 1, "limits": 0}),
            ev(5, "debt_settled", debtor=W, creditor=G, amount=30000),
            ev(5, "turn_ended", turn=3, cause="eliminated"),
            ev(5, "turn_began", turn=4, round=2, player=G),
            state("players.green.money", 130000), state("decks.power.discard", ["PW05"]),
            state("decks.official.discard", ["CO02"]), state("decks.mistake.discard", ["MK05"])]),
    ]


def s10_to_s13() -> list[Case]:
    s10_start = {"turn": 2, "round": 1, "active": Y, "players": {
        G: {"money": 230000, "officials": {"judge": 1}},
        Y: {"money": 90000, "cities": ["chicago"], "hitmen": {"1": "o15"}},
        W: {"money": 100000, "officials": {"governor": 1}, "limits": [{"card": "PN10", "turns_left": 1}]},
        R: {"money": 0, "officials": {"senator": 1}}}}
    s10 = [A(Y, "declare", piece="yellow:1", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=2),
           A(Y, "step", to="o16"), A(Y, "step", to="o17"), A(Y, "meeting", piece="yellow:1", target="narcotics"),
           A(Y, "call_vote"), A(G, "vote", side="for", votes=1), A(W, "vote", side="for", votes=2),
           A(R, "vote", side="against", votes=4), A(R, "vote", side="against", votes=3),
           A(G, "vote", side="abstain"), A(Y, "vote", side="for", votes=1)]
    s11_start = yellow_turn(green={"hitmen": {"1": "o04", "2": "o05"}}, white={"hitmen": {"1": "o04"}},
                            yellow={"money": 210000, "boss": "o03", "power": ["PW20"]})
    s11 = [A(Y, "declare", piece="yellow:0", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:0", share=5),
           A(Y, "step", to="o04"), A(Y, "rub", target="green:1"), A(Y, "rub", target="white:1"),
           A(Y, "step", to="o05"), A(Y, "rub", target="green:2"), A(Y, "pass")]
    s12 = [A(G, "call_vote"), A(Y, "vote", side="against", votes=3), A(W, "vote", side="for", votes=2),
           A(G, "vote", side="for", votes=2), A(G, "adjourn")]
    s13_start = {"turn": 3, "round": 1, "active": W, "players": {
        W: {"money": 100000, "officials": {"governor": 1, "judge": 1}, "limits": [{"card": "PN12", "turns_left": 1}],
            "hitmen": {"1": "o26"}}}}
    s13 = [A(W, "declare", piece="white:1", dir="right"), A(W, "roll"), A(W, "move", piece="white:1", share=2),
           A(W, "step", to="o27"), A(W, "step", to="o28")]
    return [
        ("s10", frame(players=SF4, start=s10_start, dice=[[1, 1]], actions=s10), [
            {"prelude_event": "turn_began", "fields": {"income": 40000, "player": Y, "turn": 2}},
            ev(5, "meeting_called", meeting=1, type="acquisition", caller=Y,
               issue={"type": "illegal", "target": "narcotics", "piece": "yellow:1"}),
            ev(6, "vote_called", order=[W, R, G, Y], entitlements={W: 2, R: 3, G: 5, Y: 1}),
            refused(7, "not_yours"), refused(9, "votes"),
            ev(12, "vote_result", **{"for": 3}, against=3, carried=False),
            {"pending": {"decision": "session", "players": [Y], "optional": [G, W, R]}}]),
        ("s11", frame(start=s11_start, dice=[[4, 1]], actions=s11 + [A(W, "penalty"), A(G, "penalty")]), [
            ev(4, "rubbed_out", piece="green:1", seq=1), ev(5, "rubbed_out", piece="white:1", seq=2),
            kinds(7, "rubbed_out", "move_ended", "drew", "drew_card"),
            ev(7, "rubbed_out", piece="green:2", seq=3),
            ev(7, "move_ended", space="o05"), {"log": 7, "event": "drew_card", "fields": {"card": "CO01"}},
            ev(8, "penalty_window", offender=Y, offended=[G, W]),
            kinds(9, "penalty_called"),
            kinds(10, "penalty_called", "meeting_called"), ev(10, "meeting_called", caller=G, meeting=1),
            state("queue", [W])]),
        ("s11_twice", frame(start=s11_start, dice=[[4, 1]], actions=s11 + [
            A(G, "penalty"), A(G, "penalty"), A(Y, "penalty")]), [
            refused(10, "already"), refused(11, "not_yours")]),
        ("s12", frame(start=s11_start, dice=[[4, 1]], actions=s11 + [A(W, "penalty"), A(G, "penalty")] + s12), [
            ev(11, "vote_called", order=[Y, W, G], entitlements={Y: 3, W: 2, G: 2}),
            kinds(14, "ballot", "vote_result", "penalty_card", "removed", "eliminated"),
            ev(14, "vote_result", **{"for": 4}, against=3, carried=True),
            ev(14, "penalty_card", card="PN01", player=Y, caller=G),
            ev(14, "removed", piece="yellow:0", space="o05", cause="penalty"),
            ev(14, "eliminated", player=Y, cause="penalty", money=210000, to_treasury=210000, to_by=0,
               cards={"power": 1, "official": 1, "limits": 0}),
            kinds(15, "meeting_closed", "penalty_cancelled", "turn_began"),
            ev(15, "penalty_cancelled", caller=W, offender=Y),
            ev(15, "turn_began", turn=3, round=1, player=W),
            state("decks.power.discard", ["PW20"]), state("decks.official.discard", ["CO01"]),
            state("decks.penalty.discard", ["PN01"])]),
        ("s13_turn", frame(start=s13_start, dice=[[1, 1]], actions=s13), [
            state("players.white.votes", 4), {"log": 4, "event": "drew", "fields": {"player": W, "deck": "power"}}]),
        ("s13", frame(start=s13_start, dice=[[1, 1]], actions=s13 + [A(W, "pass")]), [
            kinds(5, "turn_ended", "limit_expired", "turn_began"), ev(5, "limit_expired", player=W, card="PN12"),
            ev(5, "turn_began", turn=4, round=2, player=G), state("players.white.votes", 6),
            state("decks.penalty.discard", ["PN12"])]),
    ]


def s14_to_s17() -> list[Case]:
    s14_start = {"players": {G: {"hitmen": {"1": "o01", "2": "h0"}}}}
    s14 = [A(G, "declare", piece="green:1", dir="left"), A(G, "declare", piece="green:2", dir="right"), A(G, "roll"),
           A(G, "move", piece="green:2", share=2), A(G, "step", to="o05"), A(G, "step", to="o06"),
           A(G, "meeting", piece="green:2", target="trucking"), A(G, "acquire", piece="green:2"),
           A(G, "move", piece="green:1", share=2), A(G, "move", piece="green:1", share=1), A(G, "step", to="o00"),
           A(G, "meeting", piece="green:1", target="oakland"), A(G, "acquire", piece="green:1"),
           A(G, "meeting", piece="green:2", target="trucking"), A(G, "call_vote"), A(Y, "vote", side="for", votes=2),
           A(W, "vote", side="against", votes=1), A(G, "vote", side="abstain"), A(G, "adjourn")]
    green_after = {"alive": True, "base": 0, "colour": "green", "money": 130000, "votes": 2, "men_left": 16,
                   "hitmen_bought": 2, "turns_taken": 0,
                   "pieces": {"green:0": "b0", "green:1": "o00", "green:2": "o06"}, "cities": ["oakland"],
                   "business": {"trucking": 1}, "illegal": {}, "officials": {}, "income": 40000,
                   "cards": {"power": 0, "official": 0}, "limits": [], "eliminated": None}
    turn_state = {"dice": [2, 1], "income_value": 0, "income_collected": False,
                  "movers": [{"piece": "green:1", "dir": "left", "attack": None, "share": 1, "status": "moved",
                              "end": "o00", "outcome": None},
                             {"piece": "green:2", "dir": "right", "attack": None, "share": 2, "status": "moved",
                              "end": "o06", "outcome": None}],
                  "path": None,
                  "opportunities": [{"piece": "green:2", "space": "o06", "type": "business", "city": None,
                                     "used": True},
                                    {"piece": "green:1", "space": "o00", "type": "city", "city": "oakland",
                                     "used": True}],
                  "rubouts": []}
    s15_start = {"players": {G: {"money": 0, "cities": ["boston"], "hitmen": {"1": "o20"}}, Y: {"money": 150000}}}
    s15 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=3),
           A(G, "step", to="o21"), A(G, "step", to="o22"), A(G, "step", to="o23"),
           A(G, "meeting", piece="green:1", target="new_york"), A(G, "call_vote"), A(Y, "vote", side="for", votes=2),
           A(W, "vote", side="for", votes=2), A(G, "vote", side="for", votes=1)]
    yellow_rest = [p for p in [f"PW{i:02d}" for i in range(1, 25)] if p not in ("PW05", "PW18", "PW02")]
    s16_start = {"players": {Y: {"power": yellow_rest}, G: {"hitmen": {"1": "o06"}}},
                 "decks": {"power": {"draw": [], "discard": ["PW05", "PW18", "PW02"]}}}
    s16 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
           A(G, "step", to="o07"), A(G, "step", to="o08")]
    s17_start = {"players": {G: {"officials": {"judge": 1}, "hitmen": {"1": "o02"}}}}
    s17 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
           A(G, "step", to="i00"), A(G, "step", to="i01")]
    return [
        ("s14", frame(start=s14_start, dice=[[2, 1]], actions=s14), [
            ev(2, "rolled", shares=[2, 1]), refused(6, "needs_city"), refused(7, "no_opportunity"),
            refused(8, "bad_share"), refused(11, "first_city"),
            ev(12, "acquired", player=G, type="city", target="oakland", cost=10000, vote=False),
            ev(13, "meeting_called", type="acquisition"),
            ev(14, "vote_called", entitlements={Y: 2, W: 2, G: 2}),
            kinds(17, "ballot", "vote_result", "acquired"),
            ev(17, "acquired", type="business", target="trucking", cost=10000, vote=True),
            state("players.green", green_after), state("turn_state", turn_state), state("phase", "turn"),
            state("free.business", {"construction": 3, "restaurants": 3, "trucking": 2, "vending": 3}),
            state("free.officials", {"governor": 3, "judge": 3, "senator": 2}),
            state("decks", {"power": {"facedown": 24, "discard": []}, "official": {"facedown": 15, "discard": []},
                            "mistake": {"facedown": 12, "discard": []}, "penalty": {"facedown": 12, "discard": []}}),
            state("meeting", None), state("window", None), state("queue", []), state("debts", [])]),
        ("s14_pass", frame(start=s14_start, dice=[[2, 1]], actions=s14 + [A(G, "pass")]), [
            state("players.green.income", 40000), state("players.green.turns_taken", 1)]),
        ("s15", frame(start=s15_start, dice=[[1, 2]], actions=s15 + [
            A(G, "place"), A(Y, "give", to=G, money=10000), A(G, "place"), A(G, "adjourn")]), [
            ev(7, "vote_called", entitlements={Y: 2, W: 2, G: 1}),
            kinds(10, "ballot", "vote_result"), ev(10, "vote_result", carried=True),
            state("players.green.cities", ["boston", "new_york"]),
            refused(11, "funds"), kinds(12, "gave"), ev(12, "gave", **{"from": Y, "to": G, "money": 10000}),
            ev(13, "acquired", type="city", target="new_york", vote=True), kinds(14, "meeting_closed")]),
        ("s15_lapse", frame(start=s15_start, dice=[[1, 2]], actions=s15 + [A(G, "adjourn")]), [
            kinds(11, "placement_lapsed", "meeting_closed"), state("players.green.cities", ["boston"]),
            {"prelude_event": "turn_began", "fields": {"income": 40000}}]),
        ("s16", frame(start=s16_start, dice=[[1, 1]], actions=s16,
                      shuffles={"power": [["PW18", "PW02", "PW05"]]}), [
            kinds(4, "stepped", "move_ended", "shuffled", "drew", "drew_card"),
            ev(4, "shuffled", deck="power", cards=3), {"log": 4, "event": "drew_card", "fields": {"card": "PW18"}},
            state("decks.power", {"facedown": 2, "discard": []})]),
        ("s16_bad_shuffle", frame(start=s16_start, dice=[[1, 1]], actions=s16,
                                  shuffles={"power": [["PW18", "PW02"]]}), [{"format_error": "shuffles.power[0]"}]),
        ("s17", frame(start=s17_start, dice=[[1, 1]], actions=s17, tops={"mistake": "MK02"}), [
            kinds(4, "stepped", "move_ended", "mistake"), ev(4, "mistake", card="MK02", avoided=True),
            state("players.green.pieces.green:1", "i01"), state("decks.mistake.discard", ["MK02"])]),
        ("s17_fine", frame(start=s17_start, dice=[[1, 1]], actions=s17, tops={"mistake": "MK09"}), [
            kinds(4, "stepped", "move_ended", "mistake", "paid"), ev(4, "mistake", card="MK09", avoided=False),
            ev(4, "paid", **{"from": G, "to": "treasury"}, amount=50000, reason="fine")]),
    ]


def s18_to_s21() -> list[Case]:
    s18_start = {"players": {Y: {"boss": "h1", "hitmen": {"1": "h1", "2": "o17"}}, G: {"hitmen": {"1": "o15"}}}}
    s18 = [A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "roll"),
           A(G, "move", piece="green:1", share=2), A(G, "step", to="h1")]
    s18b_start = {"players": {R: {"boss": "o16", "money": 30000}, G: {"hitmen": {"1": "o15"}}}}
    s18b = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
            A(G, "step", to="o16")]
    s19_start = {"players": {G: {"hitmen": {"1": "o13", "2": "o19"}, "power": ["PW03"]},
                             Y: {"boss": "o18", "money": 60000}}}
    s19 = [A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "declare", piece="green:2", dir="left"),
           A(G, "roll"), A(G, "move", piece="green:2", share=1), A(G, "step", to="o18"),
           A(G, "hit", card="PW03", targets=["yellow:0"]), A(G, "move", piece="green:1", share=2),
           A(G, "step", to="o14"), A(G, "step", to="o15")]
    s20_start = {"players": {G: {"hitmen": {"1": "o13"}}, Y: {"hitmen": {"1": "h1"}}}}
    attack = A(G, "declare", piece="green:1", dir="right", attack=Y)
    s21_start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}, W: {"money": 220000}}}
    s21 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
           A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling"),
           A(G, "call_vote"), A(G, "vote", side="for", votes=2), A(W, "vote", side="against", votes=3),
           A(W, "vote", side="for", votes=1), TIMEOUT]
    return [
        ("s18_h1", frame(players=SF4, start=s18_start, dice=[[1, 1]], actions=s18), [
            legal(G, [{"act": "rub", "target": "yellow:0"}, {"act": "rub", "target": "yellow:1"}, step("o16")])]),
        ("s18", frame(players=SF4, start=s18_start, dice=[[1, 1]], actions=s18 + [A(G, "rub", target="yellow:0")]), [
            kinds(4, "rubbed_out", "eliminated", "attack_succeeded", "returned_home", "move_ended"),
            ev(4, "rubbed_out", piece="yellow:0", count=2), ev(4, "eliminated", to_by=70000,
                                                               pieces=["yellow:1", "yellow:2"]),
            ev(4, "returned_home", space="h0"), ev(4, "move_ended", reason="attack")]),
        ("s18_track_start", frame(players=SF4, start=s18b_start, dice=[[1, 1]], actions=s18b), [
            legal(G, [{"act": "rub", "target": "red:0"}, step("o17")])]),
        ("s18_track", frame(players=SF4, start=s18b_start, dice=[[1, 1]], actions=s18b + [
            A(G, "rub", target="red:0")]), [
            kinds(4, "rubbed_out", "eliminated", "move_ended"),
            ev(4, "eliminated", player=R, cause="rubout", to_by=10000, to_treasury=20000),
            ev(4, "move_ended", space="o16", reason="complete"),
            state("turn_state.opportunities", [{"piece": "green:1", "space": "o16", "type": "business", "city": None,
                                               "used": False}])]),
        ("s19", frame(start=s19_start, dice=[[2, 1]], actions=s19), [
            kinds(4, "stepped"),
            kinds(5, "hit_played", "rubbed_out", "eliminated", "move_ended", "drew", "drew_card"),
            ev(5, "eliminated", player=Y, to_by=30000), ev(5, "move_ended", space="o18"),
            ev(5, "drew", deck="power"),
            kinds(8, "stepped", "move_ended", "attack_lapsed", "drew", "drew_card"),
            ev(8, "move_ended", space="o15", used=2), ev(8, "attack_lapsed", piece="green:1", player=Y),
            ev(8, "drew", deck="official"), state("players.green.money", 180000),
            state("players.green.pieces.green:1", "o15")]),
        ("s20a", frame(start=s20_start, actions=[attack, TIMEOUT]), [
            kinds(1, "timed_out", "turn_ended", "turn_began"), ev(1, "timed_out", decision="turn", players=[G]),
            ev(1, "turn_ended", cause="timeout", rolled=False), ev(1, "turn_began", turn=2, player=Y),
            state("players.green.money", 150000)]),
        ("s20b", frame(start=s20_start, dice=[[6, 6]], actions=[attack, A(G, "roll"), TIMEOUT]), [
            kinds(2, "timed_out", "move_ended", "attack_failed", "paid", "debt", "removed", "turn_ended", "turn_began"),
            ev(2, "move_ended", piece="green:1", space="o13", used=0, unused=None, reason="forfeit"),
            ev(2, "paid", amount=150000), ev(2, "debt", amount=50000),
            ev(2, "turn_ended", cause="timeout", rolled=True),
            ev(2, "turn_began", turn=2, player=Y)]),
        ("s20c", frame(start=s20_start, dice=[[3, 1]], actions=[
            attack, A(G, "roll"), A(G, "move", piece="green:1", share=4), A(G, "step", to="o14"),
            A(G, "step", to="o15"), A(G, "step", to="h1"), A(G, "rub", target="yellow:1"), TIMEOUT, TIMEOUT]), [
            kinds(6, "rubbed_out", "move_ended", "attack_failed", "paid", "debt", "removed"),
            kinds(7, "timed_out", "turn_ended", "penalty_window"), ev(7, "timed_out", decision="turn", players=[G]),
            ev(7, "turn_ended", cause="timeout"), ev(7, "penalty_window", offended=[Y]),
            kinds(8, "timed_out", "penalty_declined", "turn_began"),
            ev(8, "timed_out", decision="penalty_window", players=[Y]),
            ev(8, "penalty_declined", player=Y, default=True), ev(8, "turn_began", turn=2, player=Y)]),
        ("s20d", frame(start=s20_start, dice=[[3, 1]], actions=[
            A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=4),
            A(G, "step", to="o14"), TIMEOUT]), [
            kinds(4, "timed_out", "move_ended", "turn_ended", "turn_began"),
            ev(4, "timed_out", decision="path", players=[G]),
            ev(4, "move_ended", space="o14", used=1, unused=3, reason="timeout"),
            ev(4, "turn_ended", cause="timeout")]),
        ("s21", frame(start=s21_start, dice=[[1, 1]], actions=s21, options={"ballots": "sealed"}), [
            ev(6, "vote_called", entitlements={Y: 2, W: 3, G: 2}, order=[Y, W, G]),
            kinds(7, "ballot_sealed", "ballot"),
            {"log": 7, "event": "ballot_sealed", "fields": {"player": G, "default": False}, "audience": "public"},
            {"log": 7, "event": "ballot", "fields": {"player": G, "side": "for", "votes": 2}, "audience": [G]},
            kinds(8, "ballot_sealed", "ballot"), refused(9, "already"),
            kinds(10, "timed_out", "ballot_sealed", "ballot", "ballots_revealed", "vote_result"),
            ev(10, "timed_out", decision="vote", players=[Y]),
            ev(10, "ballots_revealed", ballots=[{"player": Y, "side": "abstain", "votes": 0},
                                                {"player": W, "side": "against", "votes": 3},
                                                {"player": G, "side": "for", "votes": 2}]),
            ev(10, "vote_result", **{"for": 2}, against=3, carried=False)]),
    ]


def s22_to_s27() -> list[Case]:
    s22_start = {"players": {G: {"money": 190000, "hitmen": {"1": "o03"}},
                             Y: {"money": 150000, "officials": {"judge": 1}, "hitmen": {"1": "o13"}}}}
    s22 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
           A(G, "step", to="o04"), A(G, "step", to="o05"), A(G, "pass"),
           A(Y, "declare", piece="yellow:1", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=2),
           A(Y, "step", to="o14"), A(Y, "step", to="o15"), A(Y, "pass")]
    s23_start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}},
                             Y: {"money": 90000, "power": ["PW17", "PW01"]}}}
    s23 = [A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
           A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="numbers"),
           A(Y, "cash", card="PW01"), A(Y, "cash", card="PW17"), A(Y, "give", to=W, card="PW01"), A(G, "call_vote"),
           A(Y, "give", to=W, money=10000)]
    s24_start = {"players": {G: {"official_cards": ["CO07"], "hitmen": {"1": "o05"}},
                             Y: {"officials": {"governor": 2}}, W: {"officials": {"governor": 1}, "power": ["PW02"]}}}
    s24 = [A(Y, "buy_power"), A(G, "give", to=Y, money=10000), A(G, "buy_official", card="CO08"),
           A(G, "buy_official", card="CO07"), A(G, "pass"), A(G, "roll"), A(G, "declare", piece="green:2", dir="right"),
           A(G, "declare", piece="green:1", dir="right", attack=G), A(G, "buy_hitmen", count=16),
           A(G, "buy_hitmen", count=0), A(G, "cash", card="PW02"), A(W, "cash", card="PW02")]
    codes = ["not_yours", "wrong_phase", "no_card", "taken", "before_roll", "not_declared", "bad_piece", "bad_target",
             "funds", "malformed", "no_card", "not_yours"]
    s25_start = yellow_turn(green={"hitmen": {"1": "o04"}},
                            yellow={"hitmen": {"1": "o03", "2": "h1", "4": "o30", "5": "o31"}, "hitmen_bought": 5})
    s25 = [A(Y, "declare", piece="yellow:1", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:1", share=3),
           A(Y, "step", to="o04"), A(Y, "rub", target="green:1"), A(Y, "step", to="o05"), A(Y, "pass"),
           A(G, "penalty"), A(G, "call_vote"), A(Y, "vote", side="abstain"), A(W, "vote", side="abstain"),
           A(G, "vote", side="for", votes=1)]
    s26_dice = [[3, 3], [5, 1], [2, 2], [1, 1], [6, 5], [4, 4], [6, 2], [1, 2], [3, 1], [2, 1]]
    s26 = frame(dice=s26_dice, actions=[A(Y, "base", base=2), A(G, "base", base=2), A(G, "base", base=0), TIMEOUT])
    del s26["setup"], s26["start"]
    s27_start = {"players": {G: {"hitmen": {"1": "o08"}}, Y: {"hitmen": {"1": "o08"}}}}
    s27 = [A(G, "declare", piece="green:0", dir="left"), A(G, "declare", piece="green:1", dir="right"), A(G, "roll"),
           A(G, "move", piece="green:0", share=1)]
    return [
        ("s22", frame(players=SF2, start=s22_start, dice=[[1, 1], [1, 1]], actions=s22,
                      options={"round_cap": 1}), [
            kinds(11, "turn_ended", "game_over"), ev(11, "turn_ended", turn=2, player=Y),
            ev(11, "game_over", reason="round_cap", winners=[Y]),
            {"result": "standing", "equals": [{"player": Y, "votes": 4, "money": 150000, "income": 0},
                                              {"player": G, "votes": 2, "money": 190000, "income": 0}]},
            {"result": "reason", "equals": "round_cap"}, {"pending": None},
            {"turns": 1, "equals_field": {"turn": 2, "round": 1, "player": Y}},
            {"turns": 1, "state": "phase", "equals": None}]),
        ("s23", frame(start=s23_start, dice=[[1, 1]], actions=s23), [
            refused(6, "no_card"), kinds(7, "cashed"), ev(7, "cashed", player=Y, card="PW17", amount=100000),
            kinds(8, "gave", "gave_card"), ev(8, "gave", **{"from": Y, "to": W, "deck": "power"}),
            {"log": 8, "event": "gave_card", "fields": {"from": Y, "to": W, "card": "PW01"}, "audience": [Y, W]},
            ev(9, "vote_called", entitlements={Y: 2, W: 2, G: 2}), refused(10, "wrong_phase"),
            state("players.yellow.money", 190000)]),
        ("s24", frame(start=s24_start, actions=s24), [refused(i, code) for i, code in enumerate(codes)]),
        ("s25", frame(start=s25_start, dice=[[2, 1]], actions=s25 + [
            A(G, "adjourn"), A(Y, "remove", pieces=["yellow:0", "yellow:1"]), A(Y, "remove", pieces=["yellow:2"]),
            A(Y, "remove", pieces=["yellow:2", "yellow:1"])], tops={"penalty": "PN06"}), [
            kinds(11, "ballot", "vote_result", "penalty_card"), ev(11, "vote_result", **{"for": 1}, against=0,
                                                                  carried=True),
            ev(11, "penalty_card", card="PN06"), refused(12, "wrong_phase"), refused(13, "bad_piece"),
            refused(14, "bad_piece"), kinds(15, "removed", "removed"),
            ev(15, "removed", piece="yellow:1", space="o05", cause="penalty"),
            {"log": 15, "event": "removed", "nth": 1, "fields": {"piece": "yellow:2", "space": "h1"}},
            state("phase", "session")]),
        ("s25_choice", frame(start=s25_start, dice=[[2, 1]], actions=s25, tops={"penalty": "PN06"}), [
            {"pending": {"decision": "penalty_choice", "players": [Y], "optional": []}},
            legal(Y, [{"act": "remove", "pieces": p} for p in (
                ["yellow:1", "yellow:2"], ["yellow:1", "yellow:4"], ["yellow:1", "yellow:5"], ["yellow:2", "yellow:4"],
                ["yellow:2", "yellow:5"], ["yellow:4", "yellow:5"])])]),
        ("s25_timeout", frame(start=s25_start, dice=[[2, 1]], actions=s25 + [TIMEOUT], tops={"penalty": "PN06"}), [
            kinds(12, "timed_out", "removed", "removed"),
            ev(12, "removed", piece="yellow:4", space="o30"),
            {"log": 12, "event": "removed", "nth": 1, "fields": {"piece": "yellow:5", "space": "o31"}}]),
        ("s26", s26, [
            {"prelude": ["shuffled"] * 4 + ["setup_roll"] * 5 + ["base_order"]},
            {"prelude_event": "setup_roll", "fields": {"player": G, "total": 6, "stage": "bases", "dice": [3, 3]}},
            {"prelude_event": "setup_roll", "nth": 3, "fields": {"player": G, "total": 2}},
            {"prelude_event": "setup_roll", "nth": 4, "fields": {"player": Y, "total": 11}},
            {"prelude_event": "base_order", "fields": {"order": [Y, G, W]}},
            ev(0, "base_chosen", player=Y, base=2, auto=False), refused(1, "taken"),
            ev(2, "base_chosen", player=G, base=0, auto=False),
            kinds(3, "timed_out", "base_chosen", "setup_roll", "setup_roll", "setup_roll", "setup_roll", "setup_roll",
                  "first_player", "turn_began"),
            ev(3, "timed_out", decision="choose_base", players=[W]), ev(3, "base_chosen", player=W, base=1, auto=True),
            ev(3, "setup_roll", player=G, total=8, stage="first"),
            {"log": 3, "event": "setup_roll", "nth": 3, "fields": {"player": G, "total": 4}},
            {"log": 3, "event": "setup_roll", "nth": 4, "fields": {"player": Y, "total": 3}},
            ev(3, "first_player", player=G), ev(3, "turn_began", turn=1, round=1, player=G),
            state("players.green.pieces", {"green:0": "b0"}), state("players.yellow.pieces", {"yellow:0": "b2"}),
            state("players.white.pieces", {"white:0": "b1"}), state("players.white.money", 150000),
            {"setup": {"base_order": [Y, G, W], "bases": {Y: 2, G: 0, W: 1}, "first": G}}]),
        ("s26_choosing", {**s26, "actions": s26["actions"][:1]}, [
            state("turn", 0), state("round", 0), state("active", None), state("turn_state", None),
            state("players.green.base", None), state("players.green.pieces", {}),
            {"pending": {"decision": "choose_base", "players": [G], "optional": []}},
            legal(G, [{"act": "base", "base": 0}, {"act": "base", "base": 1}, {"act": "base", "base": 3}])]),
        ("s27_boss", frame(start=s27_start, dice=[[1, 1]], actions=s27), [
            ev(2, "rolled", shares=[1, 1]), legal(G, [step("h0")])]),
        ("s27", frame(start=s27_start, dice=[[1, 1]], actions=s27 + [
            A(G, "step", to="h0"), A(G, "move", piece="green:1", share=1)]), [
            kinds(4, "stepped", "move_ended"), ev(4, "move_ended", space="h0"),
            legal(G, [{"act": "rub", "target": "yellow:1"}, step("o09")])]),
        ("s27_rub", frame(start=s27_start, dice=[[1, 1]], actions=s27 + [
            A(G, "step", to="h0"), A(G, "move", piece="green:1", share=1), A(G, "rub", target="yellow:1")]), [
            kinds(6, "rubbed_out", "move_ended", "drew", "drew_card"), ev(6, "rubbed_out", count=1, seq=1),
            ev(6, "move_ended", space="o08", used=1), {"log": 6, "event": "drew_card", "fields": {"card": "PW01"}}]),
    ]


def replay_md_example() -> list[Case]:
    """replay.md's example input made whole (E3: first shuffles of official, mistake, penalty) with E4's output."""
    power_draw = ["PW03", "PW04", "PW05", "PW06"] + [f"PW{i:02d}" for i in range(8, 25)]
    start = {
        "turn": 5, "round": 2, "active": Y,
        "players": {
            G: {"money": 130000, "boss": "o03", "hitmen": {"1": "o05", "3": "h0"}, "hitmen_bought": 3,
                "cities": ["boston"], "business": {"trucking": 1}, "illegal": {}, "officials": {"judge": 1},
                "power": ["PW07"], "official_cards": ["CO02"], "limits": [{"card": "PN10", "turns_left": 1}],
                "turns_taken": 2},
            Y: {"money": 0, "hitmen": {"1": "o16"}},
            W: {"alive": False}},
        "debts": [{"debtor": Y, "creditor": "treasury", "amount": 20000}],
        "decks": {"power": {"draw": power_draw, "discard": ["PW01", "PW02"]}},
    }
    doc = frame(start=start, dice=[[4, 2], [6, 1]], actions=[
        A(Y, "declare", piece="yellow:1", dir="left", attack=None), A(Y, "roll"), TIMEOUT],
        options={"ballots": "open", "round_cap": None, "auto_income": False},
        shuffles={"power": [["PW18", "PW02", "PW05"]]})
    doc["content"] = "oc-h1"
    printed = frame(start=start, shuffles={"power": [["PW18", "PW02", "PW05"]], "official": [], "mistake": [],
                                           "penalty": []})
    return [
        ("replay_md_example", doc, [
            {"prelude": ["shuffled", "shuffled", "shuffled", "turn_began"]},
            {"prelude_event": "shuffled", "fields": {"deck": "official", "cards": 14}},
            {"prelude_event": "shuffled", "nth": 2, "fields": {"deck": "penalty", "cards": 11}},
            {"prelude_event": "turn_began", "fields": {"turn": 5, "round": 2, "player": Y, "income": 0}},
            kinds(0, "declared"), ev(0, "declared", player=Y, piece="yellow:1", dir="left", attack=None),
            kinds(1, "rolled"), ev(1, "rolled", dice=[4, 2], total=6, shares=[6]),
            kinds(2, "timed_out", "move_ended", "turn_ended", "turn_began"),
            ev(2, "move_ended", piece="yellow:1", reason="forfeit", unused=None),
            ev(2, "turn_began", turn=6, round=3, player=G, income=60000),
            {"pending": {"decision": "turn", "players": [G], "optional": []}},
            {"hands": W, "equals": {"power": [], "official": []}},
            {"hands": G, "equals": {"power": ["PW07"], "official": ["CO02"]}},
            {"setup": {"base_order": None, "bases": {G: 0, Y: 1, W: 2}, "first": G}},
            state("players.white.eliminated", {"turn": None, "cause": "before_start", "by": None}),
            {"result": None},
            {"turns": 0, "equals_field": {"turn": 5, "round": 2, "player": Y}}]),
        ("replay_md_printed_shuffles", printed, [{"format_error": "shuffles.official"}]),
    ]


def errata_examples() -> list[Case]:
    """E1's worked example (a receiver who owes the payer) and E2's order (an attacker who owes the eliminated)."""
    e1_start = {"players": {G: {"money": 140000, "hitmen": {"1": "o13"}}, Y: {"money": 0}},
                "debts": [{"debtor": Y, "creditor": G, "amount": 40000}]}
    e2_start = {"players": {G: {"money": 0, "hitmen": {"1": "o21"}}, W: {"money": 100000, "boss": "o23"}},
                "debts": [{"debtor": G, "creditor": W, "amount": 20000}]}
    return [
        ("e1_charge", frame(start=e1_start, dice=[[1, 1]], actions=[
            A(G, "declare", piece="green:1", dir="right", attack=Y), A(G, "roll"), TIMEOUT]), [
            kinds(2, "timed_out", "move_ended", "attack_failed", "paid", "debt", "debt_paid", "debt_paid", "removed",
                  "turn_ended", "turn_began"),
            ev(2, "paid", **{"from": G, "to": Y}, amount=140000, reason="attack"),
            ev(2, "debt", debtor=G, creditor=Y, amount=60000),
            ev(2, "debt_paid", debtor=Y, creditor=G, amount=40000, left=0),
            {"log": 2, "event": "debt_paid", "nth": 1, "fields": {"debtor": G, "creditor": Y, "amount": 40000,
                                                                  "left": 20000}},
            state("players.green.money", 0), state("players.yellow.money", 140000),
            state("debts", [{"debtor": G, "creditor": Y, "amount": 20000}])]),
        ("e2_attacker_owes", frame(start=e2_start, dice=[[1, 2]], actions=[
            A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=3),
            A(G, "step", to="o22"), A(G, "step", to="o23"), A(G, "rub", target="white:0")]), [
            kinds(5, "rubbed_out", "eliminated", "debt_transferred", "debt_paid", "move_ended"),
            ev(5, "eliminated", to_by=50000, to_treasury=50000),
            ev(5, "debt_transferred", debtor=G, **{"from": W}, amount=20000),
            ev(5, "debt_paid", debtor=G, creditor="treasury", amount=20000, left=0),
            state("players.green.money", 30000), state("debts", [])]),
    ]


def all_cases() -> list[Case]:
    return (we_a() + we_b() + we_c() + we_d_to_g() + s01_to_s05() + s06_to_s09() + s10_to_s13() + s14_to_s17()
            + s18_to_s21() + s22_to_s27() + replay_md_example() + errata_examples())


def write(target: Path = GOLDEN) -> int:
    target.mkdir(exist_ok=True)
    for name, doc, expect in all_cases():
        (target / f"{name}.replay.json").write_text(json.dumps(doc, indent=1) + "\n")
        (target / f"{name}.expect.json").write_text(json.dumps(expect, indent=1) + "\n")
    return len(all_cases())


if __name__ == "__main__":
    sys.stdout.write(f"{write()} golden cases written to {GOLDEN}\n")
