"""replay.md "Input" and errata E5, E9-E18: what a file may hold; every format error names its field first."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.contract import FormatError

from .replaying import act, final, golden, legal, replay, with_steps


def error_of(doc: Any) -> str:
    with pytest.raises(FormatError) as err:
        replay(doc)
    return str(err.value)


def city(**start: Any) -> dict[str, Any]:
    doc = golden("s01_city_a")
    doc["start"].update(copy.deepcopy(start))
    return doc


def changed(doc: dict[str, Any], **top: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for k, v in top.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


@pytest.mark.parametrize(
    ("top", "path"),
    [
        ({"format": "crimopolis-replay/2"}, "format:"),
        ({"content": "house-2"}, "content:"),
        ({"players": None}, "players:"),
        ({"players": ["ann"]}, "players:"),
        ({"players": ["a", "b", "c", "d", "e", "f"]}, "players:"),
        ({"players": ["ann", "ann"]}, "players[1]:"),
        ({"players": ["ann", ""]}, "players[1]:"),
        ({"players": ["ann", 3]}, "players[1]:"),
        ({"steps": None}, "steps:"),
        ({"steps": {}}, "steps:"),
        ({"options": {"variant": "speedy"}}, "options.variant:"),
        ({"options": {"colour": "red"}}, "options.colour:"),
        ({"options": {"target_prestige": 4}}, "options.target_prestige:"),
        ({"options": {"target_prestige": 61}}, "options.target_prestige:"),
        ({"options": {"gangsters": 10}}, "options.gangsters:"),
        ({"options": {"gangsters": "7"}}, "options.gangsters:"),
        ({"options": {"big_business": 1}}, "options.big_business:"),
        ({"options": {"timeout_time": "keep"}}, "options.timeout_time:"),
        ({"chance": {"tiles": ["T01"]}}, "chance:"),
    ],
)
def test_top_level_errors(top: dict[str, Any], path: str) -> None:
    assert error_of(changed(golden("s01_city_a"), **top)).startswith(path)


def test_unknown_top_level_keys_are_ignored() -> None:
    out = replay(changed(golden("s01_city_a"), comment="hello"))
    assert out["format"] == "crimopolis-result/1" and out["content"] == "house-1"
    assert replay(changed(golden("s01_city_a"), content=None))["content"] == "house-1"


@pytest.mark.parametrize(
    ("step", "path"),
    [
        ("end", "steps[0]:"),
        ({"player": "ann"}, "steps[0].action:"),
        ({"action": {"kind": "end"}}, "steps[0].player:"),
        ({"player": "dave", "action": {"kind": "end"}}, "steps[0].player:"),
        ({"player": "ann", "action": {"kind": "end"}, "note": 1}, "steps[0].note:"),
        ({"host": "pause"}, "steps[0].host:"),
        ({"host": "end", "player": "ann"}, "steps[0]:"),
        ({"host": "end", "note": 1}, "steps[0].note:"),  # E11: the unknown key itself is named
        ({"player": "ann", "action": "end"}, "steps[0].action:"),
        ({"player": "ann", "action": {"kind": "dance"}}, "steps[0].action.kind:"),
        ({"player": "ann", "action": {"count": 1}}, "steps[0].action.kind:"),
        (
            {"player": "ann", "action": {"kind": "move", "from": "0,0", "to": "h:0,1", "count": "x"}},
            "steps[0].action.count:",
        ),
        (
            {"player": "ann", "action": {"kind": "move", "from": "0,0", "to": "h:0,1", "count": 1.5}},
            "steps[0].action.count:",
        ),
        (
            {"player": "ann", "action": {"kind": "move", "from": "0,0", "to": "x:0,1", "count": 1}},
            "steps[0].action.to:",
        ),
        (
            {"player": "ann", "action": {"kind": "move", "from": "00,0", "to": "h:0,1", "count": 1}},
            "steps[0].action.from:",
        ),
        ({"player": "ann", "action": {"kind": "occupy", "block": "0,1", "from": [1]}}, "steps[0].action.from:"),
        (
            {"player": "ann", "action": {"kind": "occupy", "block": "0,1", "from": {"h:0,1": "1"}}},
            "steps[0].action.from.h:0,1:",
        ),
        (
            {"player": "ann", "action": {"kind": "occupy", "block": "0 ,1", "from": {"h:0,1": 1}}},
            "steps[0].action.block:",
        ),
        (
            {"player": "ann", "action": {"kind": "job", "card": "J99", "block": "0,1", "from": {"h:0,1": 1}}},
            "steps[0].action.card:",
        ),
        (
            {"player": "ann", "action": {"kind": "job", "card": "F01", "block": "0,1", "from": {"h:0,1": 1}}},
            "steps[0].action.card:",
        ),
        (
            {
                "player": "ann",
                "action": {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 1}, "fortunes": "F14"},
            },
            "steps[0].action.fortunes:",
        ),
        (
            {
                "player": "ann",
                "action": {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 1}, "fortunes": ["J02"]},
            },
            "steps[0].action.fortunes[0]:",
        ),
        ({"player": "ann", "action": {"kind": "fortune", "card": "F41", "target": "dave"}}, "steps[0].action.target:"),
        ({"player": "ann", "action": {"kind": "fortune", "card": "F01", "to": 3}}, "steps[0].action.to:"),
        ({"player": "ann", "action": {"kind": "explore", "tile": "T49", "block_side": None}}, "steps[0].action.tile:"),
        (
            {"player": "ann", "action": {"kind": "explore", "tile": "T01", "block_side": "X"}},
            "steps[0].action.block_side:",
        ),
        ({"player": "ann", "action": {"kind": "target", "player": "dave"}}, "steps[0].action.player:"),
        ({"player": "ann", "action": {"kind": "react", "card": "N01"}}, "steps[0].action.card:"),
        ({"player": "ann", "action": {"kind": "destiny", "card": "X01"}}, "steps[0].action.card:"),
        ({"player": "ann", "action": {"kind": "recruit", "to": None}}, "steps[0].action.to:"),
        # R2: the gang tiles of a colour nobody plays are not in the game (replay.md: names nothing in the game)
        ({"player": "ann", "action": {"kind": "explore", "tile": "sh_black", "block_side": None}},
         "steps[0].action.tile:"),
        ({"player": "ann", "action": {"kind": "setup_tile", "tile": "hq_black", "cell": "1,0"}},
         "steps[0].action.tile:"),
    ],
)
def test_step_errors(step: Any, path: str) -> None:
    assert error_of(with_steps(golden("s01_city_a"), [step])).startswith(path)


def test_a_format_error_anywhere_stops_the_whole_file() -> None:
    doc = with_steps(
        golden("we02_carry"),
        [{"player": "ann", "action": {"kind": "end", "x": 1}}, {"player": "zed", "action": {"kind": "end"}}],
    )
    assert error_of(doc).startswith("steps[7].player:")


def test_extra_fields_are_refused_not_format_errors() -> None:
    doc = with_steps(golden("s01_city_a"), [{"player": "ann", "action": {"kind": "recruit", "to": "hq", "count": "x"}}])
    out = replay(doc)
    assert out["steps"][0]["refused"]["code"] == "malformed"


def test_a_long_cell_names_nothing_in_the_city() -> None:
    far = "1" + "0" * 30 + ",0"
    doc = with_steps(
        golden("s01_city_a"),
        [act("ann", "move", from_="0,0", to=far, count=1), act("ann", "occupy", block=far, from_={"h:0,1": 1})],
    )
    assert [s["refused"]["code"] for s in replay(doc)["steps"]] == ["bad_location", "bad_location"]


@pytest.mark.parametrize(
    ("start", "path"),
    [
        ({"mood": 1}, "start.mood:"),
        ({"turn": {"player": "dave"}}, "start.turn.player:"),
        ({"turn": {"hours": 7}}, "start.turn.player:"),
        ({"turn": {"player": "ann", "hours": -1}}, "start.turn.hours:"),
        ({"turn": {"player": "ann", "number": 0}}, "start.turn.number:"),
        ({"turn": {"player": "ann", "hours": 7.5}}, "start.turn.hours:"),
        ({"turn": {"player": "ann", "phase": "x"}}, "start.turn.phase:"),
        ({"city": [{"cell": "0,0", "tile": "hq_yellow"}]}, "start.city:"),  # hq_green missing
        (
            {
                "city": [
                    {"cell": "0,0", "tile": "hq_yellow"},
                    {"cell": "1,0", "tile": "hq_green"},
                    {"cell": "5,5", "tile": "hq_red"},
                ]
            },
            "start.city[2].tile:",
        ),
        ({"city": [{"cell": "0,0", "tile": "hq_yellow"}, {"cell": "0,0", "tile": "hq_green"}]}, "start.city[1].cell:"),
        (
            {
                "city": [
                    {"cell": "0,0", "tile": "hq_yellow"},
                    {"cell": "3,0", "tile": "hq_green"},
                    {"cell": "5,5", "tile": "hq_green"},
                ]
            },
            "start.city[2].tile:",
        ),
        (
            {
                "city": [
                    {"cell": "0,0", "tile": "hq_yellow"},
                    {"cell": "3,0", "tile": "hq_green"},
                    {"cell": "1,0", "tile": "T27"},
                ]
            },
            "start.city[2].block_side:",
        ),
        (
            {
                "city": [
                    {"cell": "0,0", "tile": "hq_yellow"},
                    {"cell": "3,0", "tile": "hq_green"},
                    {"cell": "1,0", "tile": "T01", "block_side": "N"},
                ]
            },
            "start.city[2].block_side:",
        ),
        (
            {
                "city": [
                    {"cell": "0,0", "tile": "hq_yellow"},
                    {"cell": "3,0", "tile": "hq_green"},
                    {"cell": "1,0", "tile": "T27", "block_side": "W"},
                ]
            },
            "start.city[2]:",
        ),  # block side vs street
        (
            {"city": [{"cell": "0,0", "tile": "hq_yellow", "rot": 1}, {"cell": "3,0", "tile": "hq_green"}]},
            "start.city[0].rot:",
        ),
        (
            {
                "city": [
                    {"cell": "0,0", "tile": "hq_yellow"},
                    {"cell": "3,0", "tile": "hq_green"},
                    {"cell": "1,0", "tile": "T99"},
                ]
            },
            "start.city[2].tile:",
        ),
        ({"gangsters": {"h:9,9": {"ann": 1}}}, "start.gangsters.h:9,9:"),
        ({"gangsters": {"9,9": {"ann": 1}}}, "start.gangsters.9,9:"),
        ({"gangsters": {"0,1": {"ann": 1, "ben": 1}}}, "start.gangsters.0,1:"),
        ({"gangsters": {"0,1": {"dave": 1}}}, "start.gangsters.0,1.dave:"),
        ({"gangsters": {"0,1": {"ann": 0}}}, "start.gangsters.0,1.ann:"),
        ({"gangsters": {"h:0,1": {"ann": 4}}}, "start.gangsters.h:0,1.ann:"),
        ({"gangsters": {"3,0": {"ann": 1}}}, "start.gangsters.3,0.ann:"),
        ({"gangsters": {"0,0": {"ann": 4}}}, "start.gangsters.0,0.ann:"),
        ({"gangsters": {"1,1": {"ann": 1}, "2,1": {}}}, "start.gangsters.2,1:"),  # E17
        ({"gangsters": {"0,1": {"ann": 5}, "1,0": {"ann": 3}}}, "start.gangsters:"),  # 8 > 7
        ({"players": {"dave": {}}}, "start.players.dave:"),
        ({"players": {"ann": {"prestige": -1}}}, "start.players.ann.prestige:"),
        ({"players": {"ann": {"bodies": 30}, "ben": {"bodies": 11}}}, "start.players:"),
        ({"players": {"ann": {"jobs": ["F01"]}}}, "start.players.ann.jobs[0]:"),
        ({"players": {"ann": {"fortunes": ["J01"]}}}, "start.players.ann.fortunes[0]:"),
        ({"players": {"ann": {"destinies": ["N01"]}}}, "start.players.ann.destinies[0]:"),  # E16
        ({"players": {"ann": {"jobs": ["J01"]}, "ben": {"jobs": ["J01"]}}}, "start.players.ben.jobs[0]:"),
        ({"players": {"ann": {"hand": []}}}, "start.players.ann.hand:"),
        ({"revealed": ["T02", "T03", "T04"]}, "start.revealed:"),  # E15
        ({"revealed": ["T01"]}, "start.revealed[0]:"),
        ({"revealed": ["T02", "T02"]}, "start.revealed[1]:"),
        ({"stack": ["T02"]}, "start.stack:"),
        ({"revealed": ["T02"], "stack": ["T02"]}, "start.stack[0]:"),
        ({"decks": {"cards": []}}, "start.decks.cards:"),
        ({"decks": {"jobs": ["J01"]}}, "start.decks.jobs[0]:"),  # in ann's hand
        ({"decks": {"jobs": ["N01"]}}, "start.decks.jobs[0]:"),
        ({"decks": {"fortunes": ["F01", "F01"]}}, "start.decks.fortunes[1]:"),
        ({"final": {"triggered_by": "ann", "on_turn_of": "ann"}}, "start.final.last:"),
        ({"final": {"triggered_by": "ann", "on_turn_of": "ann", "last": "dave"}}, "start.final.last:"),
        ({"final": {"triggered_by": "ann", "on_turn_of": "ann", "last": "ben", "x": 1}}, "start.final.x:"),
    ],
)
def test_start_errors(start: dict[str, Any], path: str) -> None:
    assert error_of(city(**start)).startswith(path)


def test_chance_and_start_together_is_an_error() -> None:
    assert error_of(changed(golden("s01_city_a"), chance={})).startswith("chance:")


def test_start_accepts_what_the_errata_allow() -> None:
    # E9 a city that is not connected; E13 no jobs; E15 fewer than 2 revealed; E17 an empty map; E18 prestige >= T
    doc = city(
        city=golden("s01_city_a")["start"]["city"] + [{"cell": "7,7", "tile": "T02"}],
        players={"ann": {"prestige": 25}},
        revealed=["T03"],
        gangsters={"0,0": {"ann": 1}, "3,0": {"ben": 1}, "1,0": {}},
    )
    state = final(replay(doc))
    assert state["revealed"] == ["T03"] and state["stack"] == 48 - 6 - 1
    assert state["private"]["ann"]["jobs"] == [] and state["players"]["ann"]["prestige"] == 25
    assert state["decks"]["jobs"] == 48
    assert state["final"] is None


def test_start_with_final_ends_after_last() -> None:
    doc = city(final={"triggered_by": "ben", "on_turn_of": "ben", "last": "ann"})
    out = replay(with_steps(doc, [act("ann", "end")]))
    assert out["result"]["ended"] == "target" and final(out)["phase"] == "over"


def test_chance_lists() -> None:
    doc = golden("we01_setup")
    bad = copy.deepcopy(doc)
    bad["chance"]["tiles"][3] = "T09"
    assert error_of(bad).startswith("chance.tiles[3]:")
    bad = copy.deepcopy(doc)
    bad["chance"]["jobs"] = ["J01"]
    assert error_of(bad).startswith("chance.jobs:")
    bad = copy.deepcopy(doc)
    bad["options"] = {"clock_tiles_first": True}
    assert error_of(bad).startswith("chance.tiles:")  # T33 ... are not all clock tiles first
    fine = copy.deepcopy(doc)
    fine["options"] = {"variant": "lucky_speed"}
    del fine["chance"]
    fine["steps"] = []
    out = replay(fine)
    # E5: clock tiles ascending, then the others ascending
    assert [e["tile"] for e in out["initial"]["events"] if e["kind"] == "reveal"] == ["T01", "T05"]
    assert out["options"]["target_prestige"] == 13 and out["options"]["gangsters"] == 6
    assert out["options"]["clock_tiles_first"] is True
    assert final(out)["players"]["yara"]["supply"] == 5


def test_legal_needs_a_player_of_the_file() -> None:
    with pytest.raises(FormatError) as err:
        legal(golden("s01_city_a"), "dave")
    assert str(err.value).startswith("--player:")
