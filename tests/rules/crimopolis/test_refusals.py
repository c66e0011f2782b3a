"""replay.md "Refusals": every code of every action kind, and the order when an action breaks several rules."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.contract import Action, NoChance
from rules.crimopolis.game import GAME
from rules.crimopolis.replay_format import begin, parse_replay

from .replaying import act, final, golden, refused, replay, with_steps


def city_a(**start: Any) -> dict[str, Any]:
    """CITY-A (rulings Part 4) with changes to its start block."""
    doc = golden("s01_city_a")
    doc["start"].update(copy.deepcopy(start))
    return doc


def codes(doc: dict[str, Any], *steps: dict[str, Any]) -> list[str | None]:
    return refused(replay(with_steps(doc, list(steps))))


STREETS_ANN = {"0,0": {"ann": 1}, "h:0,1": {"ann": 2}, "v:1,1": {"ann": 1}, "h:1,1": {"ann": 1}, "3,0": {"ben": 1}}


def test_order_game_over_then_not_your_turn_then_wrong_decision_then_malformed() -> None:
    doc = city_a()
    assert codes(doc, act("ben", "move", from_="0,0", to="0,0", count=9)) == ["not_your_turn"]
    assert codes(doc, act("ann", "explore", tile=None, block_side="N")) == ["wrong_decision"]
    assert codes(doc, act("ann", "move", from_="0,0", to="0,0", count=9)) == ["malformed"]
    over = with_steps(doc, [{"host": "end"}, act("ben", "end"), {"host": "end"}])
    assert refused(replay(over)) == [None, "game_over", "game_over"]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"kind": "end", "extra": 1}, "malformed"),
        ({"kind": "recruit"}, "malformed"),
        ({"kind": "recruit", "to": "home"}, "malformed"),
        ({"kind": "recruit", "to": "hq", "count": "x"}, "malformed"),  # E10: an extra field, not a type error
        ({"kind": "move", "from": "0,0", "to": "h:0,1", "count": 0}, "malformed"),
        ({"kind": "move", "from": "0,0", "to": "h:0,1", "count": 4}, "malformed"),
        ({"kind": "move", "from": "h:0,1", "to": "h:0,1", "count": 1}, "malformed"),
        ({"kind": "move", "from": "2,1", "to": "1,1", "count": 1}, "malformed"),  # the same block by two cells
        ({"kind": "move", "from": "0,0", "to": "h:0,1"}, "malformed"),
        ({"kind": "occupy", "block": "0,1", "from": {}}, "malformed"),
        ({"kind": "occupy", "block": "0,1", "from": {"h:0,1": 0}}, "malformed"),
        ({"kind": "occupy", "block": "0,1", "from": {"0,0": 1}}, "malformed"),
        ({"kind": "occupy", "block": "h:0,1", "from": {"h:0,1": 1}}, "malformed"),
        ({"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 1}, "fortunes": ["F14", "F14"]}, "malformed"),
        ({"kind": "fortune", "card": "F01", "to": "hq"}, "malformed"),
        ({"kind": "fortune", "card": "F08"}, "malformed"),
        ({"kind": "fortune", "card": "F08", "to": "home"}, "malformed"),
        ({"kind": "fortune", "card": "F28", "block": "h:3,0"}, "malformed"),
        ({"kind": "fortune", "card": "F31", "street": "3,0"}, "malformed"),
        ({"kind": "fortune", "card": "F41"}, "malformed"),
        ({"kind": "fortune", "card": "F14", "block": "0,1"}, "malformed"),
    ],
)
def test_malformed(action: dict[str, Any], code: str) -> None:
    doc = city_a(gangsters=STREETS_ANN)
    assert codes(doc, {"player": "ann", "action": action}) == [code]


def test_recruit_codes_in_order() -> None:
    doc = city_a()
    assert codes(doc, act("ann", "recruit", to="safe_house")) == ["bad_target"]
    full = city_a(gangsters={"0,0": {"ann": 3}, "h:0,1": {"ann": 3}, "h:1,1": {"ann": 1}, "3,0": {"ben": 1}})
    assert codes(full, act("ann", "recruit", to="hq")) == ["no_gangsters"]  # supply 0 comes before capacity
    three = city_a(gangsters={"0,0": {"ann": 3}, "3,0": {"ben": 1}})
    assert codes(three, act("ann", "recruit", to="hq")) == ["capacity"]
    tired = city_a(turn={"player": "ann", "hours": 1, "number": 9})
    assert codes(tired, act("ann", "recruit", to="hq")) == ["time"]


def test_move_codes_in_order() -> None:
    doc = city_a(gangsters=STREETS_ANN, turn={"player": "ann", "hours": 0, "number": 9})
    steps = [
        act("ann", "move", from_="5,5", to="h:0,1", count=1),  # from: no tile
        act("ann", "move", from_="h:0,1", to="h:9,9", count=3),  # to: no section (before no_gangsters)
        act("ann", "move", from_="h:0,1", to="h:2,2", count=3),  # 2 there
        act("ann", "move", from_="h:0,1", to="h:2,2", count=1),  # not adjacent
        act("ann", "move", from_="0,0", to="1,0", count=1),  # block to block
        act("ann", "move", from_="h:0,1", to="0,1", count=1),  # an empty city block
        act("ann", "move", from_="v:1,1", to="1,1", count=1),  # an empty large block
        act("ann", "move", from_="h:1,1", to="h:0,1", count=1),  # 2 + 1 = 3: fine, free (own there)
        act("ann", "move", from_="v:1,1", to="h:0,1", count=1),  # 3 + 1 > 3
        act("ann", "move", from_="h:0,1", to="v:0,1", count=1),  # legal but 1 hour with 0 left
    ]
    assert codes(doc, *steps) == [
        "bad_location",
        "bad_location",
        "no_gangsters",
        "not_adjacent",
        "not_adjacent",
        "not_yours",
        "not_yours",
        None,
        "capacity",
        "time",
    ]


def test_move_into_another_players_headquarters_is_not_yours() -> None:
    doc = city_a(gangsters={"0,0": {"ann": 1}, "h:3,0": {"ann": 1}, "3,0": {"ben": 1}})
    assert codes(doc, act("ann", "move", from_="h:3,0", to="3,0", count=1)) == ["not_yours"]


def test_occupy_codes_in_order() -> None:
    doc = city_a(gangsters={**STREETS_ANN, "2,0": {"ben": 1}}, turn={"player": "ann", "hours": 2, "number": 9})
    steps = [
        act("ann", "occupy", block="9,9", from_={"h:0,1": 1}),
        act("ann", "occupy", block="0,1", from_={"h:9,9": 1}),
        act("ann", "occupy", block="0,0", from_={"h:0,1": 1}),
        act("ann", "occupy", block="2,0", from_={"h:2,1": 1}),
        act("ann", "occupy", block="0,1", from_={"h:1,1": 1}),
        act("ann", "occupy", block="0,1", from_={"h:0,1": 3}),
        act("ann", "occupy", block="0,1", from_={"h:0,1": 2, "v:1,1": 1, "h:0,2": 0}),
        act("ann", "occupy", block="1,1", from_={"h:1,1": 1, "v:1,1": 1}),
    ]
    assert codes(doc, *steps) == [
        "bad_location",
        "bad_location",
        "protected",
        "not_empty",
        "not_adjacent",
        "no_gangsters",
        "malformed",
        "time",
    ]
    four = city_a(gangsters={"0,0": {"ann": 1}, "h:0,1": {"ann": 3}, "v:1,1": {"ann": 1}, "3,0": {"ben": 1}})
    assert codes(four, act("ann", "occupy", block="0,1", from_={"h:0,1": 3, "v:1,1": 1})) == ["count"]


def test_takeover_codes_in_order() -> None:
    doc = city_a(
        gangsters={
            "0,0": {"ann": 1},
            "h:0,1": {"ann": 3},
            "v:1,1": {"ann": 1},
            "h:1,1": {"ann": 1},
            "1,1": {"ann": 1},
            "3,0": {"ben": 1},
            "0,1": {"ben": 1},
        }
    )
    steps = [
        act("ann", "takeover", block="3,0", from_={"h:3,0": 1}),
        act("ann", "takeover", block="1,0", from_={"h:1,1": 1}),  # empty
        act("ann", "takeover", block="1,1", from_={"h:1,1": 1}),  # her own
        act("ann", "takeover", block="0,1", from_={"h:1,1": 1}),
        act("ann", "takeover", block="0,1", from_={"v:0,1": 1}),  # exists, ann has none there
        act("ann", "takeover", block="0,1", from_={"h:0,1": 1}),  # m - d = 0
    ]
    assert codes(doc, *steps) == ["protected", "not_occupied", "not_occupied", "not_adjacent", "no_gangsters", "count"]
    tired = copy.deepcopy(doc)
    tired["start"]["turn"]["hours"] = 2
    assert codes(tired, act("ann", "takeover", block="0,1", from_={"h:0,1": 2})) == ["time"]


def test_job_codes_in_order() -> None:
    doc = city_a(
        gangsters={"0,0": {"ann": 1}, "h:0,1": {"ann": 1}, "h:1,1": {"ann": 1}, "1,1": {"ann": 1}, "3,0": {"ben": 1}},
        players={"ann": {"jobs": ["J01", "J37", "J05"], "fortunes": ["F01", "F14"]}, "ben": {"jobs": ["J02", "J38"]}},
        turn={"player": "ann", "hours": 1, "number": 9},
    )
    steps = [
        act("ann", "job", card="J09", block="9,9", from_={"h:0,1": 1}),  # no_card first
        act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1}, fortunes=["F20"]),  # fortune not held
        act("ann", "job", card="J01", block="9,9", from_={"h:0,1": 1}, fortunes=["F01"]),  # wrong_timing first
        act("ann", "job", card="J01", block="9,9", from_={"h:0,1": 1}),
        act("ann", "job", card="J01", block="0,1", from_={"h:9,9": 1}),  # E20: bad_location before location
        act("ann", "job", card="J01", block="0,0", from_={"h:0,1": 1}),  # a Headquarters
        act("ann", "job", card="J05", block="0,1", from_={"h:0,1": 1}),  # post office job at the bank
        act("ann", "job", card="J37", block="2,1", from_={"h:1,1": 1}),  # she is in the large block
        act("ann", "job", card="J01", block="0,1", from_={"h:1,1": 1}),  # not a street of the bank
        act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1, "v:0,1": 1}),  # none on v:0,1
        act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1}),  # 2 hours, 1 left
        act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1}, fortunes=["F14"]),  # 0 hours: fine
    ]
    assert codes(doc, *steps) == [
        "no_card",
        "no_card",
        "wrong_timing",
        "bad_location",
        "bad_location",
        "location",
        "location",
        "presence",
        "not_adjacent",
        "no_gangsters",
        "time",
        None,
    ]


def test_job_count_bounds() -> None:
    doc = city_a(gangsters={"0,0": {"ann": 1}, "h:0,1": {"ann": 3}, "v:1,1": {"ann": 1}, "3,0": {"ben": 1}})
    # J01 needs 1 and takes at most 3 (R67)
    assert codes(doc, act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 3, "v:1,1": 1})) == ["count"]
    out = replay(with_steps(doc, [act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 3})]))
    assert refused(out) == [None] and final(out)["city"]["blocks"]["0,1"]["gangsters"] == {"ann": 3}


def test_abort_invest_redraw_codes() -> None:
    doc = city_a(
        turn={"player": "ann", "hours": 2, "number": 9},
        decks={"fortunes": []},
        players={
            "ann": {"jobs": ["J01", "J37"], "fortunes": [f"F{i:02d}" for i in range(1, 49)]},
            "ben": {"jobs": ["J02", "J38"]},
        },
    )
    assert codes(
        doc,
        act("ann", "abort", card="J02"),
        act("ann", "abort", card="J01"),
        act("ann", "invest"),
        act("ann", "redraw"),
    ) == ["no_card", "time", "deck_empty", "not_identical"]
    poor = city_a(turn={"player": "ann", "hours": 1, "number": 9})
    assert codes(poor, act("ann", "invest")) == ["time"]
    one = city_a(players={"ann": {"jobs": ["J33"]}, "ben": {"jobs": ["J02", "J38"]}})
    assert codes(one, act("ann", "redraw")) == ["not_identical"]  # E14: exactly two


def test_fortune_codes() -> None:
    hand = ["F01", "F08", "F14", "F28", "F31", "F35", "F41", "F44"]
    doc = city_a(
        gangsters={"0,0": {"ann": 3}, "h:0,1": {"ann": 1}, "3,0": {"ben": 1}, "v:3,0": {"ben": 1}, "0,1": {"ben": 1}},
        players={"ann": {"jobs": ["J01", "J37"], "fortunes": hand}, "ben": {"jobs": ["J02", "J38"]}},
    )
    steps = [
        act("ann", "fortune", card="F02"),
        act("ann", "fortune", card="F14"),
        act("ann", "fortune", card="F35"),
        act("ann", "fortune", card="F44"),
        act("ann", "fortune", card="F08", to="safe_house"),
        act("ann", "fortune", card="F08", to="hq"),  # the Headquarters holds 3
        act("ann", "fortune", card="F28", block="9,9"),
        act("ann", "fortune", card="F28", block="1,0"),  # nobody there
        act("ann", "fortune", card="F28", block="0,0"),  # her own
        act("ann", "fortune", card="F28", block="3,0"),  # no own gangster on its streets
        act("ann", "fortune", card="F31", street="h:9,9"),
        act("ann", "fortune", card="F31", street="h:1,1"),
        act("ann", "fortune", card="F31", street="v:3,0"),  # not adjacent to h:0,1
        act("ann", "fortune", card="F41", target="ann"),
    ]
    assert codes(doc, *steps) == [
        "no_card",
        "wrong_timing",
        "wrong_timing",
        "wrong_timing",
        "bad_target",
        "capacity",
        "bad_location",
        "bad_target",
        "bad_target",
        "not_adjacent",
        "bad_location",
        "bad_target",
        "not_adjacent",
        "bad_target",
    ]
    empty = city_a(
        gangsters={"0,0": {"ann": 1}, "h:0,1": {"ann": 3}, "h:1,1": {"ann": 3}, "3,0": {"ben": 1}},
        players={"ann": {"jobs": ["J01", "J37"], "fortunes": ["F08"]}, "ben": {"jobs": ["J02", "J38"]}},
    )
    assert codes(empty, act("ann", "fortune", card="F08", to="hq")) == ["no_gangsters"]
    # bombing from the street next to the bank (h:0,1) is legal
    assert codes(doc, act("ann", "fortune", card="F28", block="0,1")) == [None]


def test_decision_answers_codes() -> None:
    doc = golden("s16_abort")
    assert refused(replay(with_steps(doc, [act("ann", "keep", card="J01")], keep=1))) == [None, "not_available"]
    doc = golden("s12a_stool_pigeon_alibi")
    steps = [act("ben", "react", card="F36"), act("ben", "react", card="F01")]
    assert refused(replay(with_steps(doc, steps, keep=3)))[3:] == ["no_card", "no_card"]
    held = copy.deepcopy(doc)
    held["start"]["players"]["ben"]["fortunes"] = ["F35", "F01"]
    assert refused(replay(with_steps(held, [act("ben", "react", card="F01")], keep=3)))[3:] == ["wrong_timing"]
    destiny = golden("s13_two_destinies")
    destiny["start"]["players"]["ben"]["destinies"] = ["N36"]
    assert refused(replay(with_steps(destiny, [act("ben", "destiny", card="N36")], keep=0))) == ["wrong_decision"]


def test_explore_codes() -> None:
    doc = golden("s04a_safe_house")
    steps = [
        act("ann", "explore", tile="T05", block_side=None),  # placed already: not available
        act("ann", "explore", tile="hq_yellow", block_side=None),
        act("ann", "explore", tile=None, block_side=None),  # a revealed tile fits
        act("ann", "explore", tile="T02", block_side="N"),  # malformed: a 4-street tile
    ]
    assert refused(replay(with_steps(doc, steps, keep=1)))[1:] == [
        "not_available",
        "not_available",
        "not_available",
        "malformed",
    ]
    three = golden("s15a_timeout_forfeit")  # revealed T02, T28 (3-street), cell 0,-1 above the Headquarters
    steps = [act("ann", "explore", tile="T28", block_side="S"), act("ann", "explore", tile="T28")]
    assert refused(replay(with_steps(three, steps, keep=1)))[1:] == ["illegal_placement", "malformed"]


def test_explore_a_safe_house_that_does_not_fit_is_illegal_placement() -> None:
    doc = golden("s03a_nothing_fits")  # E6
    doc["start"]["revealed"] = ["T40", "T02"]
    out = replay(with_steps(doc, [act("ben", "explore", tile="sh_green", block_side=None)], keep=1))
    assert out["steps"][0]["state"]["pending"]["kind"] == "turn"  # T40 fits alone: placed at once
    doc["start"]["revealed"] = ["T40", "T36"]
    out = replay(with_steps(doc, [act("ben", "explore", tile="sh_green", block_side=None)], keep=1))
    assert out["steps"][0]["state"]["pending"]["kind"] == "explore"
    assert refused(out) == [None, "illegal_placement"]


def test_place_hq_codes() -> None:
    doc = golden("we01_setup")
    steps = [
        act("gus", "place_hq", cell="1,0"),  # taken
        act("gus", "place_hq", cell="5,5"),  # nothing next to it
        act("gus", "place_hq", cell="2,0"),
    ]
    assert refused(replay(with_steps(doc, steps, keep=2)))[2:] == ["illegal_placement", "not_adjacent", None]


def test_place_hq_facing_a_block_side() -> None:
    doc = golden("we01_setup")
    doc["chance"]["tiles"] = ["T27", "T28"] + [t for t in doc["chance"]["tiles"] if t not in ("T27", "T28")]
    steps = [
        act("yara", "setup_tile", tile="T27", cell="1,0", block_side="E"),
        act("yara", "setup_tile", tile="T09", cell="-1,0"),
        act("gus", "place_hq", cell="2,0"),
    ]
    assert refused(replay(with_steps(doc, steps, keep=0))) == [None, None, "illegal_placement"]


def test_a_destiny_answer_naming_a_job_is_refused_not_a_format_error() -> None:
    doc = golden("s13_two_destinies")
    doc["start"]["players"]["ben"]["destinies"] = ["N36", "F41"]
    # both negative hours: executed at once, no destiny decision; the answer is the wrong decision
    assert refused(replay(with_steps(doc, [act("ben", "destiny", card="J01")], keep=0))) == ["wrong_decision"]


def test_the_bots_check_keeps_the_order_for_an_unreadable_action() -> None:
    """Q44: the bot shows the refusal a replay would give; an action of the wrong kind is wrong_decision even
    when its fields could not be read (an unknown tile, a card of another family, an unknown player)."""
    state = begin(GAME.content, parse_replay(GAME.content, city_a())).s
    assert state.pending["kind"] == "turn" and state.pending["player"] == "ann"

    def code(seat: str | None, move: dict[str, Any]) -> str | None:
        refusal = GAME.check(state, seat, move)
        return None if refusal is None else refusal.code

    assert code("ann", {"kind": "explore", "tile": "T99", "block_side": None}) == "wrong_decision"
    assert code("ann", {"kind": "keep", "card": "F01"}) == "wrong_decision"
    assert code("ann", {"kind": "target", "player": "zed"}) == "wrong_decision"
    assert code("ann", {"kind": "move", "from": "0,0", "to": "nowhere", "count": 1}) == "malformed"
    assert code("ben", {"kind": "explore", "tile": "T99", "block_side": None}) == "not_your_turn"
    assert code(None, {"host": "stop"}) == "malformed"
    over = GAME.step(state, [Action(None, {"host": "end"})], NoChance()).state
    assert GAME.check(over, None, {"host": "stop"}).code == "game_over"
    assert GAME.check(over, None, {"host": "end"}).code == "game_over"
