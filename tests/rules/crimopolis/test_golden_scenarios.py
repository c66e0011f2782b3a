"""Rulings Part 5: the scenarios S-1 ... S-20, field by field as rulings.md states them."""

from __future__ import annotations

from rules.crimopolis.replay_format import parse_replay

from .replaying import CONTENT, events, final, gangsters_of, golden, legal, refused, replay, strip, with_steps


def test_s1_geometry_of_city_a() -> None:
    doc = golden("s01_city_a")
    state = final(replay(doc))
    streets = state["city"]["streets"]
    frontiers = {
        "h:0,0",
        "h:0,2",
        "h:1,0",
        "h:1,2",
        "h:2,0",
        "h:2,2",
        "h:3,0",
        "h:3,1",
        "v:0,0",
        "v:0,1",
        "v:3,1",
        "v:4,0",
    }
    inner = {"h:0,1", "h:1,1", "h:2,1", "v:1,0", "v:1,1", "v:2,0", "v:3,0"}
    assert set(streets) == frontiers | inner and len(streets) == 19
    assert {s for s, v in streets.items() if v["frontier"]} == frontiers
    assert state["city"]["blocks"]["1,1"] == {
        "cells": ["1,1", "2,1"],
        "kind": "city",
        "owner": None,
        "names": ["market", "park"],
        "gangsters": {},
    }
    assert "v:2,1" not in streets
    geo = parse_replay(CONTENT, doc).start.geo  # type: ignore[union-attr]
    assert geo.blocks["1,1"].streets == ("h:1,1", "h:1,2", "h:2,1", "h:2,2", "v:1,1", "v:3,1")
    assert set(geo.adjacent["h:1,1"]) == {"h:0,1", "h:2,1", "v:1,0", "v:1,1", "v:2,0"}
    assert set(geo.adjacent["v:1,1"]) == {"h:0,1", "h:0,2", "h:1,1", "h:1,2", "v:1,0"}
    assert geo.blocks["0,1"].streets == ("h:0,1", "h:0,2", "v:0,1", "v:1,1")
    assert geo.streets["h:0,2"] == "0,2"
    assert geo.block_of["2,1"] == "1,1"


def test_s2_large_block_forms_to_the_west() -> None:
    out = replay(golden("s02_large_block_west"))
    assert refused(out) == [None, "wrong_decision", "presence", "presence"]
    assert [strip(e) for e in out["steps"][0]["events"]] == [
        {"kind": "move", "player": "ann", "from": "0,0", "to": "h:0,0", "count": 1, "hours": 1},
        {"kind": "tile_placed", "player": "ann", "tile": "T28", "cell": "0,-1", "block_side": "E", "reason": "explore"},
        {"kind": "block_formed", "block": "0,-1", "cells": ["0,-1", "1,-1"], "names": ["house", "park"]},
        {"kind": "reveal", "tile": "T03"},
    ]
    state = final(out)
    assert gangsters_of(state, "ann") == {"0,-1": 1, "h:0,0": 1, "0,0": 1}
    assert state["turn"]["hours"] == 6 and state["revealed"] == ["T02", "T03"]
    assert "1,-1" not in state["city"]["blocks"]
    doc = golden("s02_large_block_west")
    geo = parse_replay(CONTENT, with_steps(doc, [], keep=0)).start.geo  # type: ignore[union-attr]
    geo = geo.with_tile(CONTENT, "0,-1", "T28", "E")
    assert geo.blocks["0,-1"].streets == ("h:0,-1", "h:0,0", "h:1,-1", "h:1,0", "v:0,-1", "v:2,-1")


def test_s3a_a_cell_nothing_fits() -> None:
    out = replay(golden("s03a_nothing_fits"))
    for step, cost in zip(out["steps"], (1, 0), strict=True):
        assert [strip(e) for e in step["events"]] == [
            {"kind": "move", "player": "ben", "from": "3,0", "to": "h:3,1", "count": 1, "hours": cost},
            {"kind": "explore_failed", "player": "ben", "street": "h:3,1"},
        ]
        assert step["state"]["pending"] == {"kind": "turn", "player": "ben"}
    state = final(out)
    assert state["revealed"] == ["T02", "T06"]
    assert gangsters_of(state, "ben") == {"h:3,1": 2}
    assert state["turn"]["hours"] == 6


def test_s3b_the_single_fit_is_placed_at_once() -> None:
    out = replay(golden("s03b_single_fit"))
    assert [strip(e) for e in out["steps"][0]["events"]] == [
        {"kind": "move", "player": "ben", "from": "3,0", "to": "h:3,1", "count": 1, "hours": 1},
        {"kind": "tile_placed", "player": "ben", "tile": "T40", "cell": "3,1", "block_side": "E", "reason": "explore"},
        {"kind": "block_formed", "block": "3,1", "cells": ["3,1", "4,1"], "names": ["lake", "market"]},
        {"kind": "reveal", "tile": "T03"},
    ]
    assert "4,1" not in final(out)["city"]["blocks"]


def test_s4a_own_safe_house() -> None:
    doc = golden("s04a_safe_house")
    out = replay(doc)
    assert refused(out) == [None, "not_available", None, None, None]
    assert out["steps"][0]["state"]["pending"] == {
        "kind": "explore",
        "player": "ann",
        "street": "v:0,0",
        "cell": "-1,0",
    }
    options = legal(with_steps(doc, [], keep=1), "ann")
    assert options["decision"] == "explore"
    assert options["actions"] == [
        {"kind": "explore", "tile": "T02", "block_side": None},
        {"kind": "explore", "tile": "T03", "block_side": None},
        {"kind": "explore", "tile": "sh_yellow", "block_side": None},
    ]
    placed = out["steps"][2]
    assert [e["kind"] for e in placed["events"]] == ["tile_placed"]  # nothing is revealed
    assert placed["state"]["revealed"] == ["T02", "T03"] and placed["state"]["stack"] == 41
    assert [strip(e) for e in out["steps"][3]["events"]] == [
        {"kind": "recruit", "player": "ann", "block": "-1,0", "hours": 2}
    ]
    assert events(out["steps"][4], "move")[0]["hours"] == 0
    state = final(out)
    assert gangsters_of(state, "ann") == {"-1,0": 2, "0,0": 1}
    assert state["turn"]["hours"] == 4
    assert state["players"]["ann"]["safe_house"] == "-1,0"
    assert state["city"]["blocks"]["-1,0"]["kind"] == "safe_house" and state["city"]["blocks"]["-1,0"]["owner"] == "ann"


def test_s4b_no_revealed_tile_left() -> None:
    doc = golden("s04b_out_of_tiles")
    out = replay(doc)
    assert refused(out) == [None, None, None, None]
    assert out["steps"][0]["state"]["pending"] == {"kind": "explore", "player": "ann", "street": "h:1,7", "cell": "1,7"}
    assert legal(with_steps(doc, [], keep=1), "ann")["actions"] == [
        {"kind": "explore", "tile": "sh_green", "block_side": None},
        {"kind": "explore", "tile": None, "block_side": None},
    ]
    after = out["steps"][1]["state"]
    assert after["players"]["ben"]["safe_house"] == "1,7"
    assert after["city"]["blocks"]["1,7"]["owner"] == "ben"
    assert events(out["steps"][1], "tile_placed")[0]["player"] == "ann"
    assert [strip(e) for e in out["steps"][2]["events"]] == [
        {"kind": "turn_end", "player": "ann", "hours_left": 6, "carry": 6, "timeout": False},
        {"kind": "turn_start", "player": "ben", "number": 41, "hours": 13},
    ]
    assert [strip(e) for e in out["steps"][3]["events"]] == [
        {"kind": "recruit", "player": "ben", "block": "1,7", "hours": 2}
    ]


def test_s5_street_capacity_counts_every_gang() -> None:
    out = replay(golden("s05_capacity_ambush"))
    assert refused(out) == ["capacity", None, None]
    for step in out["steps"][1:]:
        assert [e["kind"] for e in step["events"]] == ["move", "ambush"]
        assert {k: events(step, "ambush")[0][k] for k in ("removed", "bodies")} == {"removed": 1, "bodies": 1}
    assert out["steps"][1]["state"]["city"]["streets"]["h:1,1"]["gangsters"] == {"ben": 1}
    state = final(out)
    assert state["city"]["streets"]["h:1,1"]["gangsters"] == {}
    assert state["players"]["ann"]["bodies"] == 2 and state["players"]["ann"]["supply"] == 6
    assert state["players"]["ben"]["supply"] == 6 and state["tombstones"] == 38 and state["turn"]["hours"] == 5


def test_s6_the_survivor_explores() -> None:
    out = replay(golden("s06_ambush_explore"))
    first = out["steps"][0]
    assert [e["kind"] for e in first["events"]] == ["move", "ambush"]
    assert first["state"]["pending"] == {"kind": "explore", "player": "ann", "street": "v:0,1", "cell": "-1,1"}
    assert [strip(e) for e in out["steps"][1]["events"]] == [
        {
            "kind": "tile_placed",
            "player": "ann",
            "tile": "T03",
            "cell": "-1,1",
            "block_side": None,
            "reason": "explore",
        },
        {"kind": "reveal", "tile": "T04"},
    ]
    state = final(out)
    assert state["city"]["streets"]["v:0,1"]["gangsters"] == {"ann": 1}
    ann = state["players"]["ann"]
    assert (ann["bodies"], ann["supply"]) == (1, 5) and state["players"]["ben"]["supply"] == 6
    assert state["revealed"] == ["T02", "T04"] and state["turn"]["hours"] == 6


def test_s7_move_costs() -> None:
    out = replay(golden("s07_move_costs"))
    assert refused(out) == [None, None, "not_yours", None, None, None, None, "no_gangsters", None, None, "time", None]
    left = [s["state"]["turn"]["hours"] for s in out["steps"][:11]]
    assert left == [6, 6, 6, 3, 3, 2, 2, 2, 1, 0, 0]
    # commands.md: a refusal names the rule in its words ("not enough hours"), as the bot shows it after "not allowed"
    assert out["steps"][10]["refused"]["message"].startswith("not enough hours: this costs ")
    assert out["steps"][8]["state"]["city"]["blocks"]["0,1"]["gangsters"] == {}
    end = out["steps"][11]
    assert [strip(e) for e in end["events"]] == [
        {"kind": "turn_end", "player": "ann", "hours_left": 0, "carry": 0, "timeout": False},
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 7},
    ]
    assert gangsters_of(final(out), "ann") == {"0,0": 1, "h:1,1": 2}


def test_s8_presence_at_the_beginning_or_during_the_turn() -> None:
    out = replay(golden("s08_presence"))
    assert refused(out) == ["presence", None, "presence", None, None, None]
    assert events(out["steps"][4], "turn_start")[0]["hours"] == 20
    job = out["steps"][5]
    assert [e["kind"] for e in job["events"]] == ["job", "newsflash", "job_done", "prestige", "draw", "drew"]
    assert events(job, "newsflash")[0]["card"] == "N01" and events(job, "job")[0]["hours"] == 2
    assert events(job, "drew")[0]["cards"] == ["J03"]
    state = final(out)
    assert state["players"]["ann"]["prestige"] == 2
    assert gangsters_of(state, "ann") == {"0,0": 1, "0,1": 1, "v:1,1": 1}
    assert state["turn"]["hours"] == 18


def test_s9_over_occupation() -> None:
    out = replay(golden("s09_overoccupation"))
    assert refused(out) == ["count", None, None, "capacity"]
    job = out["steps"][1]
    assert job["state"]["turn"]["hours"] == 2
    assert job["state"]["city"]["blocks"]["1,0"]["gangsters"] == {"ann": 4}
    assert events(job, "newsflash")[0]["card"] == "N01" and events(job, "job_done")[0]["prestige"] == 6
    assert events(job, "drew")[0]["cards"] == ["J01"]
    assert out["steps"][2]["state"]["turn"]["hours"] == 1
    assert out["steps"][2]["state"]["city"]["blocks"]["1,0"]["gangsters"] == {"ann": 3}


def test_s10_job_takeover_and_own_reaction() -> None:
    out = replay(golden("s10_job_takeover"))
    assert refused(out) == ["count", None, None]
    job = out["steps"][1]
    assert [strip(e) for e in job["events"]] == [
        {
            "kind": "job",
            "player": "ann",
            "card": "J02",
            "location": "bank",
            "block": "0,1",
            "from": {"h:0,1": 2, "v:1,1": 1},
            "count": 3,
            "hours": 3,
            "fortunes": [],
            "defender": "ben",
            "removed": 1,
            "bodies": 1,
        },
        {"kind": "prestige", "player": "ann", "amount": 1, "reason": "takeover", "total": 1},
        {"kind": "newsflash", "player": "ann", "card": "N15", "design": "sloppy_work"},
    ]
    assert job["state"]["pending"] == {"kind": "react", "player": "ann", "card": "N15"}
    assert [strip(e) for e in out["steps"][2]["events"]] == [
        {"kind": "reaction", "player": "ann", "card": None, "against": "N15"},
        {"kind": "job_prestige", "player": "ann", "card": "N15", "amount": -1},
        {"kind": "job_done", "player": "ann", "card": "J02", "prestige": 2},
        {"kind": "prestige", "player": "ann", "amount": 2, "reason": "job", "total": 3},
        {"kind": "draw", "player": "ann", "deck": "jobs", "count": 1},
        {"kind": "drew", "player": "ann", "deck": "jobs", "cards": ["J01"]},
    ]
    state = final(out)
    ann = state["players"]["ann"]
    assert gangsters_of(state, "ann") == {"0,0": 1, "0,1": 2}
    assert (ann["bodies"], ann["prestige"], ann["supply"]) == (1, 3, 4)
    assert state["turn"]["hours"] == 4 and state["players"]["ben"]["supply"] == 6


def test_s11_fortunes_played_with_a_job() -> None:
    doc = golden("s11_job_fortunes")
    out = replay(doc)
    assert refused(out) == ["count", "time", "wrong_timing", None]
    job = out["steps"][3]
    assert [strip(e) for e in events(job, "fortune_played")] == [
        {"kind": "fortune_played", "player": "ann", "card": f, "design": d, "params": {}}
        for f, d in (("F14", "inside_man"), ("F20", "extra_muscle"), ("F24", "headline"))
    ]
    j = events(job, "job")[0]
    assert (j["count"], j["hours"], j["fortunes"]) == (2, 2, ["F14", "F20", "F24"])
    assert strip(events(job, "job_prestige")[0]) == {
        "kind": "job_prestige",
        "player": "ann",
        "card": "N20",
        "amount": 1,
    }
    assert events(job, "job_done")[0]["prestige"] == 8
    assert [e["kind"] for e in job["events"]][:5] == ["fortune_played"] * 3 + ["job", "newsflash"]
    state = final(out)
    assert state["turn"]["hours"] == 1 and state["players"]["ann"]["prestige"] == 8
    assert state["private"]["ann"]["fortunes"] == ["F01"]
    # F14, F20, F24 are at the bottom of the fortune deck in that order
    from rules.crimopolis.replay import play_steps

    run, _, _ = play_steps(CONTENT, parse_replay(CONTENT, doc), with_output=False)
    assert run.s.decks["fortunes"][-3:] == ["F14", "F20", "F24"]


def test_s12a_stool_pigeon_defended() -> None:
    doc = golden("s12a_stool_pigeon_alibi")
    out = replay(doc)
    assert refused(out) == [None, "bad_target", None, "not_your_turn", None]
    assert out["steps"][0]["state"]["pending"] == {"kind": "target", "player": "ann", "card": "N36"}
    assert [strip(e) for e in out["steps"][2]["events"]] == [
        {"kind": "target_chosen", "player": "ann", "card": "N36", "target": "ben"}
    ]
    assert out["steps"][2]["state"]["pending"] == {"kind": "react", "player": "ben", "card": "N36"}
    react = out["steps"][4]
    assert [strip(e) for e in react["events"]][:3] == [
        {"kind": "reaction", "player": "ben", "card": "F35", "against": "N36"},
        {"kind": "cancelled", "card": "N36"},
        {"kind": "job_done", "player": "ann", "card": "J01", "prestige": 2},
    ]
    assert events(react, "drew")[0]["cards"] == ["J04"]
    state = final(out)
    assert state["players"]["ben"]["destinies"] == [] and state["private"]["ben"]["fortunes"] == []
    from rules.crimopolis.replay import play_steps

    run, _, _ = play_steps(CONTENT, parse_replay(CONTENT, doc), with_output=False)
    assert run.s.decks["newsflashes"][-1] == "N36" and run.s.decks["fortunes"][-1] == "F35"


def test_s12b_stool_pigeon_becomes_a_destiny() -> None:
    doc = golden("s12b_stool_pigeon_destiny")
    out = replay(doc)
    assert refused(out) == [None, None, None, None]
    assert [strip(e) for e in out["steps"][2]["events"]][:3] == [
        {"kind": "reaction", "player": "ben", "card": None, "against": "N36"},
        {"kind": "destiny_placed", "player": "ben", "card": "N36"},
        {"kind": "job_done", "player": "ann", "card": "J01", "prestige": 2},
    ]
    assert out["steps"][2]["state"]["players"]["ben"]["destinies"] == ["N36"]
    assert [strip(e) for e in out["steps"][3]["events"]] == [
        {"kind": "turn_end", "player": "ann", "hours_left": 5, "carry": 5, "timeout": False},
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 12},
        {"kind": "destiny_executed", "player": "ben", "card": "N36"},
        {"kind": "hours", "player": "ben", "amount": -2, "hours": 10},
    ]
    assert final(out)["players"]["ben"]["destinies"] == []
    from rules.crimopolis.replay import play_steps

    run, _, _ = play_steps(CONTENT, parse_replay(CONTENT, doc), with_output=False)
    assert run.s.decks["newsflashes"][-1] == "N36"


def test_s13_two_destinies_at_once_never_below_zero() -> None:
    out = replay(golden("s13_two_destinies"))
    assert [strip(e) for e in out["initial"]["events"]] == [
        {"kind": "turn_start", "player": "ben", "number": 12, "hours": 4},
        {"kind": "destiny_executed", "player": "ben", "card": "N36"},
        {"kind": "hours", "player": "ben", "amount": -2, "hours": 2},
        {"kind": "destiny_executed", "player": "ben", "card": "F41"},
        {"kind": "hours", "player": "ben", "amount": -2, "hours": 0},
    ]
    assert out["initial"]["state"]["pending"] == {"kind": "turn", "player": "ben"}
    assert refused(out) == ["time", None]
    assert events(out["steps"][1], "turn_end")[0]["carry"] == 0


def test_s14_bombing_a_headquarters_drive_by_last_tombstone() -> None:
    out = replay(golden("s14_bombing_tombstones"))
    assert refused(out) == [None, None, None, None]
    assert [strip(e) for e in out["steps"][0]["events"]] == [
        {"kind": "fortune_played", "player": "ann", "card": "F28", "design": "bombing", "params": {"block": "3,0"}}
    ]
    assert out["steps"][0]["state"]["pending"] == {"kind": "react", "player": "ben", "card": "F28"}
    assert [strip(e) for e in out["steps"][1]["events"]] == [
        {"kind": "reaction", "player": "ben", "card": None, "against": "F28"},
        {"kind": "removed", "player": "ben", "at": "3,0", "count": 2, "by": "ann", "bodies": 1},
    ]
    assert out["steps"][2]["state"]["pending"] == {"kind": "react", "player": "ben", "card": "F31"}
    assert [strip(e) for e in out["steps"][3]["events"]] == [
        {"kind": "reaction", "player": "ben", "card": None, "against": "F31"},
        {"kind": "removed", "player": "ben", "at": "v:3,0", "count": 1, "by": "ann", "bodies": 0},
    ]
    state = final(out)
    assert gangsters_of(state, "ben") == {"3,0": 1} and state["players"]["ben"]["supply"] == 6
    assert state["players"]["ann"]["bodies"] == 21 and state["tombstones"] == 0 and state["turn"]["hours"] == 7


def test_s15a_timeout_with_a_decision_pending() -> None:
    out = replay(golden("s15a_timeout_forfeit"))
    assert out["steps"][0]["state"]["pending"] == {
        "kind": "explore",
        "player": "ann",
        "street": "h:0,0",
        "cell": "0,-1",
    }
    assert [strip(e) for e in out["steps"][1]["events"]] == [
        {"kind": "timeout", "player": "ann", "decision": "explore"},
        {
            "kind": "tile_placed",
            "player": "ann",
            "tile": "T02",
            "cell": "0,-1",
            "block_side": None,
            "reason": "explore",
        },
        {"kind": "reveal", "tile": "T03"},
        {"kind": "turn_end", "player": "ann", "hours_left": 3, "carry": 0, "timeout": True},
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 7},
    ]


def test_s15b_timeout_passes_the_hours_with_the_option() -> None:
    out = replay(golden("s15b_timeout_pass"))
    assert out["options"]["timeout_time"] == "pass"
    evs = [strip(e) for e in out["steps"][1]["events"]]
    assert evs[-2:] == [
        {"kind": "turn_end", "player": "ann", "hours_left": 3, "carry": 3, "timeout": True},
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 10},
    ]


def test_s16_abort_and_the_returned_card() -> None:
    doc = golden("s16_abort")
    out = replay(doc)
    assert refused(out) == [None, None, None]
    abort = out["steps"][0]
    assert abort["events"] == [
        {"kind": "abort", "audience": "all", "player": "ann", "hours": 3},
        {"kind": "aborted", "audience": "ann", "player": "ann", "card": "J01"},
        {"kind": "draw", "audience": "all", "player": "ann", "deck": "jobs", "count": 2},
        {"kind": "drew", "audience": "ann", "player": "ann", "deck": "jobs", "cards": ["J09", "J10"]},
    ]
    assert abort["state"]["pending"] == {"kind": "keep", "player": "ann"}
    assert abort["state"]["private"]["ann"]["drawn"] == ["J09", "J10"]
    assert legal(with_steps(doc, [], keep=1), "ann")["actions"] == [
        {"kind": "keep", "card": "J09"},
        {"kind": "keep", "card": "J10"},
    ]
    assert out["steps"][1]["events"] == [
        {"kind": "keep", "audience": "all", "player": "ann"},
        {"kind": "kept", "audience": "ann", "player": "ann", "card": "J10", "returned": ["J09"]},
    ]
    job = out["steps"][2]
    assert events(job, "job")[0]["block"] == "1,1"
    assert events(job, "job_done")[0]["prestige"] == 2 and events(job, "drew")[0]["cards"] == ["J09"]
    state = final(out)
    assert state["private"]["ann"]["jobs"] == ["J09", "J10"] and state["turn"]["hours"] == 2
    from rules.crimopolis.replay import play_steps

    run, _, _ = play_steps(CONTENT, parse_replay(CONTENT, doc), with_output=False)
    assert run.s.decks["jobs"][-2:] == ["J01", "J37"]


def test_s17_last_turn_and_a_tie_broken_by_body_count() -> None:
    out = replay(golden("s17_end_and_scoring"))
    assert refused(out) == [None, None, None, None, None, "game_over"]
    job = out["steps"][0]
    assert strip(events(job, "prestige")[0]) == {
        "kind": "prestige",
        "player": "ann",
        "amount": 2,
        "reason": "job",
        "total": 21,
    }
    assert strip(events(job, "final_round")[0]) == {"kind": "final_round", "player": "ann", "last": "cat"}
    assert job["state"]["final"] == {"triggered_by": "ann", "on_turn_of": "ann", "last": "cat"}
    carries = [events(s, "turn_end")[0]["carry"] for s in out["steps"][2:5]]
    assert carries == [2, 9, 16]
    assert [strip(e) for e in out["steps"][4]["events"]] == [
        {"kind": "turn_end", "player": "cat", "hours_left": 16, "carry": 16, "timeout": False},
        {"kind": "game_end", "reason": "target"},
    ]
    res = out["result"]
    assert res["ended"] == "target"
    assert res["scores"]["ann"] == {
        "prestige": 21,
        "small_blocks": 2,
        "large_blocks": 0,
        "bodies": 1,
        "most_bodies": 0,
        "fortunes": 2,
        "streets": 0,
        "big_business": 0,
        "total": 26,
    }
    assert res["scores"]["ben"] == {
        "prestige": 19,
        "small_blocks": 0,
        "large_blocks": 3,
        "bodies": 2,
        "most_bodies": 2,
        "fortunes": 0,
        "streets": 0,
        "big_business": 0,
        "total": 26,
    }
    assert res["scores"]["cat"]["total"] == 23 and res["scores"]["cat"]["small_blocks"] == 1
    assert res["ranking"] == [["ben"], ["ann"], ["cat"]] and res["winners"] == ["ben"]
    assert legal(golden("s17_end_and_scoring"), "ann") == {"player": "ann", "decision": None, "actions": []}


def test_s18_influence_on_the_streets_and_big_business() -> None:
    res = replay(golden("s18_streets_bigbusiness"))["result"]
    assert res["scores"]["ann"]["streets"] == 2 and res["scores"]["ben"]["streets"] == 2
    assert res["scores"]["ann"]["total"] == 25 and res["scores"]["ben"]["total"] == 12


def test_s19_fresh_faces() -> None:
    out = replay(golden("s19_fresh_faces"))
    job = out["steps"][0]
    assert [e["kind"] for e in job["events"]][:4] == ["job", "newsflash", "recruit", "recruit"]
    assert [strip(e) for e in events(job, "recruit")] == [
        {"kind": "recruit", "player": "ann", "block": "0,0", "hours": 0},
        {"kind": "recruit", "player": "ben", "block": "4,0", "hours": 0},
    ]
    assert events(job, "job_done")[0]["prestige"] == 2
    assert [e["kind"] for e in job["events"]][4] == "job_done"


def test_s20a_police_raid() -> None:
    out = replay(golden("s20a_police_raid"))
    assert [strip(e) for e in out["steps"][1]["events"]][:3] == [
        {"kind": "reaction", "player": "ann", "card": None, "against": "N25"},
        {"kind": "removed", "player": "ann", "at": "0,1", "count": 1, "by": None, "bodies": 0},
        {"kind": "job_done", "player": "ann", "card": "J02", "prestige": 3},
    ]
    assert final(out)["city"]["blocks"]["0,1"]["gangsters"] == {"ann": 1}


def test_s20b_heat_on_the_street() -> None:
    out = replay(golden("s20b_heat"))
    assert [strip(e) for e in events(out["steps"][1], "sent_home")] == [
        {"kind": "sent_home", "player": "ann", "from": "h:0,1", "home": 1, "supply": 0},
        {"kind": "sent_home", "player": "ann", "from": "v:1,1", "home": 1, "supply": 1},
    ]
    state = final(out)
    assert gangsters_of(state, "ann") == {"0,0": 3, "0,1": 1}
    assert state["players"]["ann"]["supply"] == 3
