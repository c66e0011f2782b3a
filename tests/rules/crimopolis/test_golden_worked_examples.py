"""Rulings Part 4: the rule book's worked examples WE-1 ... WE-12, field by field as rulings.md states them."""

from __future__ import annotations

from .replaying import act, events, final, gangsters_of, golden, legal, refused, replay, strip, with_steps


def test_we1_setup_initial_events() -> None:
    out = replay(golden("we01_setup"))
    init = out["initial"]["events"]
    assert init == [
        {"kind": "reveal", "audience": "all", "tile": "T09"},
        {"kind": "reveal", "audience": "all", "tile": "T33"},
        {"kind": "draw", "audience": "all", "player": "yara", "deck": "jobs", "count": 2},
        {"kind": "drew", "audience": "yara", "player": "yara", "deck": "jobs", "cards": ["J01", "J02"]},
        {"kind": "draw", "audience": "all", "player": "gus", "deck": "jobs", "count": 2},
        {"kind": "drew", "audience": "gus", "player": "gus", "deck": "jobs", "cards": ["J03", "J04"]},
        {"kind": "draw", "audience": "all", "player": "rita", "deck": "jobs", "count": 2},
        {"kind": "drew", "audience": "rita", "player": "rita", "deck": "jobs", "cards": ["J05", "J06"]},
        {
            "kind": "tile_placed",
            "audience": "all",
            "player": "yara",
            "tile": "hq_yellow",
            "cell": "0,0",
            "block_side": None,
            "reason": "hq",
        },
        {"kind": "recruit", "audience": "all", "player": "yara", "block": "0,0", "hours": 0},
    ]
    state = out["initial"]["state"]
    assert state["phase"] == "setup" and state["turn"] is None
    assert state["pending"] == {"kind": "setup_tile", "player": "yara", "step": 1}
    assert out["options"] == {
        "variant": "standard",
        "target_prestige": 21,
        "gangsters": 7,
        "clock_tiles_first": False,
        "influence_on_the_streets": False,
        "big_business": False,
        "timeout_time": "forfeit",
    }


def test_we1_setup_steps() -> None:
    out = replay(golden("we01_setup"))
    assert refused(out) == [None] * 8
    placed = [
        (e["player"], e["tile"], e["cell"], e["block_side"], e["reason"])
        for s in out["steps"]
        for e in events(s, "tile_placed")
    ]
    assert placed == [
        ("yara", "T09", "-1,0", None, "setup"),
        ("yara", "T33", "1,0", None, "setup"),
        ("gus", "hq_green", "2,0", None, "hq"),
        ("gus", "T41", "2,-1", None, "setup"),
        ("gus", "T34", "3,0", None, "setup"),
        ("rita", "hq_red", "4,0", None, "hq"),
        ("rita", "T01", "4,1", None, "setup"),
        ("rita", "T27", "5,0", "E", "setup"),
    ]
    reveals = [[e["tile"] for e in events(s, "reveal")] for s in out["steps"]]
    assert reveals == [["T41"], ["T34"], [], ["T01"], ["T27"], [], ["T02"], ["T03"]]
    pendings = [s["state"]["pending"] for s in out["steps"]]
    assert pendings[1] == {"kind": "setup_hq", "player": "gus"}
    assert pendings[2] == {"kind": "setup_tile", "player": "gus", "step": 1}
    assert pendings[4] == {"kind": "setup_hq", "player": "rita"}
    assert [strip(e) for e in events(out["steps"][2], "recruit")] == [
        {"kind": "recruit", "player": "gus", "block": "2,0", "hours": 0}
    ]
    assert strip(out["steps"][7]["events"][-1]) == {"kind": "turn_start", "player": "yara", "number": 1, "hours": 7}


def test_we1_expected_state() -> None:
    state = final(replay(golden("we01_setup")))
    assert state["phase"] == "play"
    assert state["turn"] == {"player": "yara", "number": 1, "hours": 7, "timed_out": False}
    assert state["pending"] == {"kind": "turn", "player": "yara"}
    assert state["revealed"] == ["T02", "T03"]
    assert state["stack"] == 40
    assert state["decks"] == {"jobs": 42, "newsflashes": 42, "fortunes": 48}
    assert {p: v["supply"] for p, v in state["players"].items()} == {"yara": 6, "gus": 6, "rita": 6}
    blocks = state["city"]["blocks"]
    assert blocks["0,0"]["gangsters"] == {"yara": 1} and blocks["2,0"]["gangsters"] == {"gus": 1}
    assert blocks["4,0"]["gangsters"] == {"rita": 1}
    assert blocks["2,0"] == {
        "cells": ["2,0"],
        "kind": "headquarters",
        "owner": "gus",
        "names": [],
        "gangsters": {"gus": 1},
    }
    streets = state["city"]["streets"]
    assert len(streets) == 27
    inner = {"v:0,0", "v:1,0", "v:2,0", "v:3,0", "v:4,0", "v:5,0", "h:2,0", "h:4,1"}
    assert {s for s, v in streets.items() if not v["frontier"]} == inner
    assert "v:6,0" not in streets
    assert state["city"]["tiles"]["5,0"] == {"tile": "T27", "block_side": "E"}
    assert {p: v["color"] for p, v in state["players"].items()} == {"yara": "yellow", "gus": "green", "rita": "red"}
    assert state["private"]["rita"] == {"jobs": ["J05", "J06"], "fortunes": [], "drawn": []}


def test_we1_refusals_and_legal_before_step_8() -> None:
    doc = golden("we01_setup")
    tries = [
        act("rita", "setup_tile", tile="T27", cell="5,0", block_side="W"),
        act("rita", "setup_tile", tile="T27", cell="5,0"),
        act("rita", "setup_tile", tile="T27", cell="6,0", block_side="E"),
        act("rita", "setup_tile", tile="T03", cell="4,-1"),
    ]
    out = replay(with_steps(doc, tries, keep=7))
    assert refused(out)[7:] == ["illegal_placement", "malformed", "not_adjacent", "not_available"]
    before = final(out)
    assert before["revealed"] == ["T27", "T02"]
    assert before["pending"] == {"kind": "setup_tile", "player": "rita", "step": 2}
    got = legal(with_steps(doc, [], keep=7), "rita")
    assert got["decision"] == "setup_tile"
    listed = {(a["tile"], a["cell"], a["block_side"]) for a in got["actions"]}
    assert listed == {
        ("T27", "4,-1", "E"),
        ("T27", "4,-1", "N"),
        ("T27", "4,-1", "W"),
        ("T27", "5,0", "E"),
        ("T27", "5,0", "N"),
        ("T27", "5,0", "S"),
        ("T02", "4,-1", None),
        ("T02", "5,0", None),
    }
    assert len(got["actions"]) == 8
    # E24: sorted by the JSON text, so grouped by block side first, null last
    assert [a["block_side"] for a in got["actions"]] == ["E", "E", "N", "N", "S", "W", None, None]
    assert legal(with_steps(doc, [], keep=7), "yara") == {"player": "yara", "decision": None, "actions": []}


def test_we2_carry() -> None:
    out = replay(golden("we02_carry"))
    assert refused(out) == [None, None, None, None, "time", None]
    hours = [s["state"]["turn"]["hours"] for s in out["steps"][:4]]
    assert hours == [5, 3, 2, 1]
    assert out["steps"][1]["state"]["city"]["blocks"]["0,0"]["gangsters"] == {"ann": 3}
    end = out["steps"][5]
    assert [strip(e) for e in end["events"]] == [
        {"kind": "turn_end", "player": "ann", "hours_left": 1, "carry": 1, "timeout": False},
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 8},
    ]
    state = final(out)
    assert state["players"]["ann"]["supply"] == 4
    assert gangsters_of(state, "ann") == {"h:1,1": 3}


def test_we3_leaving_a_headquarters_and_free_moves() -> None:
    out = replay(golden("we03_moves"))
    assert [events(s, "move")[0]["hours"] for s in out["steps"]] == [1, 0, 0]
    state = final(out)
    assert gangsters_of(state, "ann") == {"h:0,1": 2}
    assert state["turn"]["hours"] == 6


def test_we4_exploring() -> None:
    out = replay(golden("we04_explore"))
    first = out["steps"][0]
    assert [strip(e) for e in first["events"]] == [
        {"kind": "move", "player": "ann", "from": "0,0", "to": "h:0,0", "count": 2, "hours": 1}
    ]
    assert first["state"]["pending"] == {"kind": "explore", "player": "ann", "street": "h:0,0", "cell": "0,-1"}
    options = legal(with_steps(golden("we04_explore"), [], keep=1), "ann")["actions"]
    assert {(a["tile"], a["block_side"]) for a in options} == {("T02", None), ("T03", None), ("sh_yellow", None)}
    second = out["steps"][1]
    assert [strip(e) for e in second["events"]] == [
        {
            "kind": "tile_placed",
            "player": "ann",
            "tile": "T03",
            "cell": "0,-1",
            "block_side": None,
            "reason": "explore",
        },
        {"kind": "reveal", "tile": "T04"},
    ]
    state = final(out)
    assert state["turn"]["hours"] == 6
    assert state["revealed"] == ["T02", "T04"] and state["stack"] == 40
    assert state["city"]["streets"]["h:0,0"]["frontier"] is False
    assert gangsters_of(state, "ann") == {"h:0,0": 2}


def test_we5_ambush() -> None:
    out = replay(golden("we05_ambush"))
    assert [strip(e) for e in out["steps"][0]["events"]] == [
        {"kind": "move", "player": "ann", "from": "h:0,1", "to": "h:1,1", "count": 1, "hours": 1},
        {"kind": "ambush", "player": "ann", "defender": "ben", "street": "h:1,1", "removed": 1, "bodies": 1},
    ]
    state = final(out)
    assert state["city"]["streets"]["h:1,1"]["gangsters"] == {}
    assert state["players"]["ann"]["bodies"] == 1 and state["players"]["ann"]["supply"] == 6
    assert state["players"]["ben"]["supply"] == 6
    assert state["tombstones"] == 39 and state["turn"]["hours"] == 6


def test_we6_takeover() -> None:
    doc = golden("we06_takeover")
    out = replay(doc)
    assert refused(out) == ["count", None]
    assert [strip(e) for e in out["steps"][1]["events"]] == [
        {
            "kind": "takeover",
            "player": "ann",
            "block": "1,0",
            "from": {"h:1,0": 3, "v:1,0": 2},
            "count": 5,
            "hours": 3,
            "defender": "ben",
            "removed": 2,
            "bodies": 2,
        },
        {"kind": "prestige", "player": "ann", "amount": 1, "reason": "takeover", "total": 1},
    ]
    state = final(out)
    ann = state["players"]["ann"]
    assert gangsters_of(state, "ann") == {"0,0": 1, "1,0": 3}
    assert (ann["bodies"], ann["prestige"], ann["supply"]) == (2, 1, 3)
    assert state["players"]["ben"]["supply"] == 6
    assert state["turn"]["hours"] == 4 and state["tombstones"] == 38
    takeovers = [a for a in legal(with_steps(doc, [], keep=1), "ann")["actions"] if a["kind"] == "takeover"]
    assert takeovers == [
        {"kind": "takeover", "block": "1,0", "from": {"h:1,0": 1, "v:1,0": 2}},
        {"kind": "takeover", "block": "1,0", "from": {"h:1,0": 2, "v:1,0": 1}},
        {"kind": "takeover", "block": "1,0", "from": {"h:1,0": 2, "v:1,0": 2}},
        {"kind": "takeover", "block": "1,0", "from": {"h:1,0": 3, "v:1,0": 1}},
        {"kind": "takeover", "block": "1,0", "from": {"h:1,0": 3, "v:1,0": 2}},
        {"kind": "takeover", "block": "1,0", "from": {"h:1,0": 3}},
    ]


def test_we7_identical_jobs() -> None:
    doc = golden("we07_redraw")
    out = replay(with_steps(doc, [act("ann", "redraw")]))
    assert refused(out) == [None, None, "not_identical"]
    first, second = out["steps"][0], out["steps"][1]
    assert [strip(e) for e in first["events"] if e["audience"] == "all"] == [
        {"kind": "redraw", "player": "ann", "cards": ["J33", "J34"]},
        {"kind": "draw", "player": "ann", "deck": "jobs", "count": 2},
    ]
    assert events(first, "drew")[0] == {
        "kind": "drew",
        "audience": "ann",
        "player": "ann",
        "deck": "jobs",
        "cards": ["J35", "J36"],
    }
    assert events(second, "redraw")[0]["cards"] == ["J35", "J36"]
    assert events(second, "drew")[0]["cards"] == ["J09", "J01"]
    state = final(out)
    assert state["private"]["ann"]["jobs"] == ["J01", "J09"]
    assert state["turn"]["hours"] == 7


def test_we8_full_headquarters() -> None:
    out = replay(golden("we08_fullhq"))
    job = out["steps"][0]
    assert [e["kind"] for e in job["events"]] == ["job", "newsflash"]
    assert strip(events(job, "newsflash")[0]) == {"kind": "newsflash", "player": "ann", "card": "N29", "design": "heat"}
    assert job["state"]["pending"] == {"kind": "react", "player": "ann", "card": "N29"}
    react = out["steps"][1]
    assert [strip(e) for e in react["events"]] == [
        {"kind": "reaction", "player": "ann", "card": None, "against": "N29"},
        {"kind": "sent_home", "player": "ann", "from": "h:0,1", "home": 0, "supply": 1},
        {"kind": "job_done", "player": "ann", "card": "J01", "prestige": 2},
        {"kind": "prestige", "player": "ann", "amount": 2, "reason": "job", "total": 2},
        {"kind": "draw", "player": "ann", "deck": "jobs", "count": 1},
        {"kind": "drew", "player": "ann", "deck": "jobs", "cards": ["J03"]},
    ]
    state = final(out)
    assert gangsters_of(state, "ann") == {"0,0": 3, "0,1": 1}
    ann = state["players"]["ann"]
    assert (ann["supply"], ann["prestige"]) == (3, 2) and state["turn"]["hours"] == 5


def test_we9_to_we11_scoring() -> None:
    out = replay(golden("we09_11_scoring"))
    assert [strip(e) for e in out["steps"][0]["events"]] == [{"kind": "game_end", "reason": "host"}]
    res = out["result"]
    assert res["ended"] == "host"
    assert res["scores"]["ann"] == {
        "prestige": 12,
        "small_blocks": 2,
        "large_blocks": 3,
        "bodies": 2,
        "most_bodies": 2,
        "fortunes": 5,
        "streets": 0,
        "big_business": 0,
        "total": 26,
    }
    assert res["scores"]["ben"]["total"] == 15
    assert res["ranking"] == [["ann"], ["ben"]] and res["winners"] == ["ann"]
    state = final(out)
    assert state["phase"] == "over" and state["pending"] is None and state["turn"] is None


def test_we12_big_business() -> None:
    res = replay(golden("we12_bigbusiness"))["result"]
    ann = res["scores"]["ann"]
    assert ann["big_business"] == 6
    assert (ann["small_blocks"], ann["large_blocks"], ann["total"]) == (4, 3, 23)
    assert res["winners"] == ["ann"]
