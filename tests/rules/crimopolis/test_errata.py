"""Errata (spec errata.md) that no other test pins down, each stated as the erratum words it."""

from __future__ import annotations

import copy
from typing import Any

from rules.crimopolis.replay import play_steps
from rules.crimopolis.replay_format import parse_replay
from rules.crimopolis.state import State

from .replaying import CONTENT, act, events, final, golden, replay, strip, with_steps


def city_a(**start: Any) -> dict[str, Any]:
    doc = golden("s01_city_a")
    doc["start"].update(copy.deepcopy(start))
    return doc


def end_state(doc: dict[str, Any]) -> State:
    run, _, _ = play_steps(CONTENT, parse_replay(CONTENT, doc), with_output=False)
    return run.s


def test_e1_heat_takes_sections_in_string_order_not_numeric_order() -> None:
    # The bank 0,-2 has the streets h:0,-2 (north) and h:0,-1 (south): as strings "h:0,-1" < "h:0,-2",
    # so h:0,-1 fills the last place in the Headquarters and h:0,-2 goes to the supply.
    doc = {
        "format": "crimopolis-replay/1",
        "players": ["ann", "ben"],
        "start": {
            "turn": {"player": "ann"},
            "city": [
                {"cell": "0,0", "tile": "hq_yellow"},
                {"cell": "1,0", "tile": "hq_green"},
                {"cell": "0,-1", "tile": "T02"},
                {"cell": "0,-2", "tile": "T01"},
            ],
            "gangsters": {"0,0": {"ann": 2}, "h:0,-2": {"ann": 2}, "h:0,-1": {"ann": 1}, "1,0": {"ben": 1}},
            "players": {"ann": {"jobs": ["J01"]}},
            "decks": {"newsflashes": ["N29"]},
        },
        "steps": [
            act("ann", "job", card="J01", block="0,-2", from_={"h:0,-2": 1}),
            act("ann", "react", card=None),
        ],
    }
    out = replay(doc)
    assert [strip(e) for e in events(out["steps"][1], "sent_home")] == [
        {"kind": "sent_home", "player": "ann", "from": "h:0,-1", "home": 1, "supply": 0},
        {"kind": "sent_home", "player": "ann", "from": "h:0,-2", "home": 0, "supply": 1},
    ]
    assert final(out)["city"]["blocks"]["0,0"]["gangsters"] == {"ann": 3}


def test_e2_an_alibi_goes_to_the_bottom_before_the_card_it_cancels() -> None:
    doc = city_a(
        gangsters={"0,0": {"ann": 1}, "h:3,0": {"ann": 1}, "3,0": {"ben": 1}},
        players={
            "ann": {"jobs": ["J01", "J37"], "fortunes": ["F28"]},
            "ben": {"jobs": ["J02", "J38"], "fortunes": ["F35"]},
        },
    )
    doc["steps"] = [act("ann", "fortune", card="F28", block="3,0"), act("ben", "react", card="F35")]
    out = replay(doc)
    assert [strip(e) for e in out["steps"][1]["events"]] == [
        {"kind": "reaction", "player": "ben", "card": "F35", "against": "F28"},
        {"kind": "cancelled", "card": "F28"},
    ]
    assert end_state(doc).decks["fortunes"][-2:] == ["F35", "F28"]  # procedure order, not id order


def test_e2_destinies_of_one_deck_go_to_the_bottom_in_execution_order() -> None:
    doc = city_a(
        turn={"player": "ben", "hours": 7, "number": 10},
        players={"ann": {"jobs": ["J01", "J37"]}, "ben": {"jobs": ["J02", "J38"], "destinies": ["N37", "N36"]}},
    )
    out = replay(doc)
    assert [e["card"] for e in events(out["initial"], "destiny_executed")] == ["N37", "N36"]
    assert end_state(doc).decks["newsflashes"][-2:] == ["N37", "N36"]


def test_e8_abort_with_an_empty_job_deck_draws_only_the_aborted_card() -> None:
    jobs = [f"J{i:02}" for i in range(1, 49)]
    doc = city_a(players={"ann": {"jobs": jobs[:24]}, "ben": {"jobs": jobs[24:]}})
    doc["steps"] = [act("ann", "abort", card="J05")]
    out = replay(doc)
    assert out["initial"]["state"]["decks"]["jobs"] == 0
    assert [strip(e) for e in out["steps"][0]["events"]] == [
        {"kind": "abort", "player": "ann", "hours": 3},
        {"kind": "aborted", "player": "ann", "card": "J05"},
        {"kind": "draw", "player": "ann", "deck": "jobs", "count": 1},
        {"kind": "drew", "player": "ann", "deck": "jobs", "cards": ["J05"]},
        {"kind": "keep", "player": "ann"},  # one card drawn: kept at once (R74, R108)
        {"kind": "kept", "player": "ann", "card": "J05", "returned": []},
    ]
    state = final(out)
    assert state["pending"] == {"kind": "turn", "player": "ann"} and state["players"]["ann"]["jobs"] == 24


def _started_at_t(holder: str) -> dict[str, Any]:
    """CITY-A on turn 9 with `holder` at 25 prestige (T = 21) and no final round: ann does J01 (+2), then ends."""
    jobs = {"ann": ["J01", "J37"], "ben": ["J03", "J38"]}
    doc = city_a(
        turn={"player": "ann", "hours": 7, "number": 9},
        final=None,
        gangsters={"0,0": {"ann": 1}, "h:0,1": {"ann": 2}, "3,0": {"ben": 1}},
        players={p: {"jobs": cards} | ({"prestige": 25} if p == holder else {}) for p, cards in jobs.items()},
        decks={"newsflashes": ["N01"]},
    )
    doc["steps"] = [act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1}, fortunes=[]), act("ann", "end")]
    return doc


def test_e18_a_start_at_t_waits_for_the_next_gain_of_anyone() -> None:
    # ben starts at 25 with `final: null`; ann's gain of 2 (to 2) is the next gain, so it rings the bell, and
    # `final_round` names ben, the one at T: the game ends when ben, the seat before ann, ends his turn.
    for holder in ("ben", "ann"):
        out = replay(_started_at_t(holder))
        kinds = [e["kind"] for e in out["steps"][0]["events"]]
        assert kinds.index("final_round") == kinds.index("prestige") + 1, (holder, kinds)
        bell = strip(events(out["steps"][0], "final_round")[0])
        assert bell == {"kind": "final_round", "player": holder, "last": "ben"}, bell
        state = out["steps"][0]["state"]
        assert state["final"] == {"triggered_by": holder, "on_turn_of": "ann", "last": "ben"}, state["final"]


def test_e19_a_bombed_block_is_named_by_its_id() -> None:
    doc = city_a(
        gangsters={"0,0": {"ann": 1}, "h:2,1": {"ann": 1}, "3,0": {"ben": 1}, "2,1": {"ben": 2}},
        players={"ann": {"jobs": ["J01", "J37"], "fortunes": ["F28"]}, "ben": {"jobs": ["J02", "J38"]}},
    )
    doc["steps"] = [act("ann", "fortune", card="F28", block="2,1"), act("ben", "react", card=None)]
    out = replay(doc)
    assert [strip(e) for e in out["steps"][0]["events"]] == [
        {"kind": "fortune_played", "player": "ann", "card": "F28", "design": "bombing", "params": {"block": "1,1"}}
    ]
    assert [strip(e) for e in events(out["steps"][1], "removed")] == [
        {"kind": "removed", "player": "ben", "at": "1,1", "count": 2, "by": "ann", "bodies": 2}
    ]


def test_e21_the_redrawn_cards_are_shown_in_id_order() -> None:
    doc = city_a(players={"ann": {"jobs": ["J34", "J33"]}, "ben": {"jobs": ["J02", "J38"]}})
    doc["steps"] = [act("ann", "redraw")]
    out = replay(doc)
    assert strip(events(out["steps"][0], "redraw")[0]) == {"kind": "redraw", "player": "ann", "cards": ["J33", "J34"]}
    assert end_state(doc).decks["jobs"][-2:] == ["J33", "J34"]  # R80: at one step, ascending id order


def test_e22_a_draw_of_nothing_is_still_reported() -> None:
    fortunes = [f"F{i:02}" for i in range(1, 49)]
    doc = city_a(
        gangsters={"0,0": {"ann": 1}, "h:0,1": {"ann": 1}, "3,0": {"ben": 1}},
        players={"ann": {"jobs": ["J01", "J37"]}, "ben": {"jobs": ["J02", "J38"], "fortunes": fortunes}},
        decks={"newsflashes": ["N40"]},
    )
    doc["steps"] = [act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1})]
    evs = [strip(e) for e in replay(doc)["steps"][0]["events"]]
    assert evs[1:4] == [
        {"kind": "newsflash", "player": "ann", "card": "N40", "design": "word_on_the_street"},
        {"kind": "draw", "player": "ann", "deck": "fortunes", "count": 0},
        {"kind": "drew", "player": "ann", "deck": "fortunes", "cards": []},
    ]


def test_e22_an_hours_change_of_nothing_is_still_reported() -> None:
    doc = city_a(
        turn={"player": "ben", "hours": 0, "number": 10},
        players={"ann": {"jobs": ["J01", "J37"]}, "ben": {"jobs": ["J02", "J38"], "destinies": ["N36"]}},
    )
    assert [strip(e) for e in replay(doc)["initial"]["events"]] == [
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 0},
        {"kind": "destiny_executed", "player": "ben", "card": "N36"},
        {"kind": "hours", "player": "ben", "amount": 0, "hours": 0},
    ]


def test_e23_gangsters_entering_by_an_effect_join_the_presence_history() -> None:
    # ann starts the turn with nobody in her Headquarters 0,0; each way in adds its cell.
    base = {"gangsters": {"h:0,1": {"ann": 2}, "3,0": {"ben": 1}}}
    recruit = city_a(**base)
    recruit["steps"] = [act("ann", "recruit", to="hq")]
    fresh = city_a(**base, decks={"newsflashes": ["N33"]})
    fresh["steps"] = [act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1})]
    heat = city_a(**base, decks={"newsflashes": ["N29"]})
    heat["steps"] = [act("ann", "job", card="J01", block="0,1", from_={"h:0,1": 1}), act("ann", "react", card=None)]
    for doc in (recruit, fresh, heat):
        assert "0,0" not in end_state(with_steps(doc, [], keep=0)).presence
        s = end_state(doc)
        assert s.gangsters["0,0"] == ("ann", 1) and "0,0" in s.presence
