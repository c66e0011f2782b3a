"""The errata (errata.md) that neither a golden case nor another test reaches, each on a small replay file."""

from __future__ import annotations

from typing import Any

from rules.organizedcrime.game import GAME

from .frames import SF2, SF4, TIMEOUT, A, frame, yellow_turn

G, Y, W, R = "green", "yellow", "white", "red"


def _kinds(out: dict[str, Any], i: int) -> list[str]:
    return [e["kind"] for e in out["log"][i]["events"]]


def _event(out: dict[str, Any], i: int, kind: str) -> dict[str, Any]:
    return next(e for e in out["log"][i]["events"] if e["kind"] == kind)


def test_e5_a_forfeited_attacker_whose_target_is_gone_lapses() -> None:
    start = {"players": {G: {"hitmen": {"1": "o13", "2": "o20"}}, Y: {"boss": "o13"}}}
    out = GAME.replay(frame(start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "declare", piece="green:2", dir="right", attack=Y),
        A(G, "roll"), A(G, "move", piece="green:1", share=1), A(G, "rub", target="yellow:0"), TIMEOUT]))
    assert _kinds(out, 5) == ["timed_out", "move_ended", "attack_lapsed", "turn_ended", "turn_began"]
    mover = out["turns"][0]["state"]["turn_state"]["movers"][1]
    assert mover == {"piece": "green:2", "dir": "right", "attack": Y, "share": None, "status": "forfeited",
                     "end": "o20", "outcome": "lapsed"}  # E11 too: a forfeited mover's share is null
    assert out["state"]["players"][G]["pieces"]["green:2"] == "o20" and out["state"]["debts"] == []


def test_e10_the_game_ending_in_a_move_leaves_the_move_as_it_was() -> None:
    start = {"players": {G: {"hitmen": {"1": "o13"}}, Y: {"boss": "o13"}}}
    out = GAME.replay(frame(players=SF2, start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "rub", target="yellow:0")]))
    assert _kinds(out, 3) == ["rubbed_out", "eliminated", "game_over"]
    ts = out["state"]["turn_state"]
    assert ts["movers"][0]["status"] == "moving" and ts["movers"][0]["end"] is None
    assert ts["path"] == {"piece": "green:1", "share": 2, "used": 1, "usable": 2, "space": "o13", "prev": None,
                          "heading": "right", "turned": False}
    assert out["state"]["phase"] == "over" and out["pending"] is None
    assert [t["state"]["phase"] for t in out["turns"]] == ["over"]  # E9


def test_e12_a_timeout_before_the_roll_leaves_the_movers_declared() -> None:
    start = {"players": {G: {"hitmen": {"1": "o13", "2": "o20"}}}}
    out = GAME.replay(frame(start=start, actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "declare", piece="green:2", dir="left"), TIMEOUT]))
    assert _kinds(out, 2) == ["timed_out", "turn_ended", "turn_began"]
    movers = out["turns"][0]["state"]["turn_state"]["movers"]
    assert [(m["status"], m["share"], m["end"]) for m in movers] == [("declared", None, None)] * 2
    assert out["turns"][0]["state"]["phase"] is None  # E9: between turns


def test_e13_counts_used_with_a_hit_still_open_has_the_empty_destination() -> None:
    start = {"players": {G: {"hitmen": {"1": "o13", "2": "o30"}, "power": ["PW01"]}, Y: {"hitmen": {"1": "o14"}}}}
    doc = frame(start=start, dice=[[1, 1]], actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "declare", piece="green:2", dir="right"), A(G, "roll"),
        A(G, "move", piece="green:1", share=1), A(G, "step", to="o14")])
    legal = GAME.legal(doc, G)
    assert legal["decision"] == "path"
    assert legal["actions"] == [{"act": "hit", "card": "PW01", "targets": ["yellow:1"]}, {"act": "stop"}]
    assert legal["destinations"] == [{"to": "o14", "steps": []}]
    assert GAME.legal(doc, Y)["destinations"] is None  # E36: destinations only for the active player


S11_START = yellow_turn(green={"hitmen": {"1": "o04", "2": "o05"}}, white={"hitmen": {"1": "o04"}},
                        yellow={"money": 210000, "boss": "o03", "power": ["PW20"]})
S11 = [A(Y, "declare", piece="yellow:0", dir="right"), A(Y, "roll"), A(Y, "move", piece="yellow:0", share=5),
       A(Y, "step", to="o04"), A(Y, "rub", target="green:1"), A(Y, "rub", target="white:1"),
       A(Y, "step", to="o05"), A(Y, "rub", target="green:2"), A(Y, "pass"), A(G, "penalty"), A(W, "penalty"),
       A(G, "call_vote"), A(Y, "vote", side="abstain"), A(W, "vote", side="abstain"), A(G, "vote", side="abstain")]


def test_e15_e18_e41_penalty_meetings_numbered_place_refused_turn_kept() -> None:
    doc = frame(start=S11_START, dice=[[4, 1]], actions=S11 + [
        A(G, "place"), A(W, "place"), A(Y, "income"), A(G, "adjourn")])
    out = GAME.replay(doc)
    assert _event(out, 10, "meeting_called")["meeting"] == 1
    assert [out["log"][i]["refused"]["code"] for i in (15, 16, 17)] == ["no_opportunity", "not_yours", "wrong_phase"]
    assert _event(out, 18, "meeting_called") == {"audience": "public", "kind": "meeting_called", "meeting": 2,
                                                 "type": "penalty", "caller": W,
                                                 "issue": {"type": "penalty", "offender": Y}}
    state = out["state"]
    assert (state["active"], state["turn"], state["round"], state["meeting"]["id"]) == (Y, 2, 1, 2)
    assert [r["piece"] for r in state["turn_state"]["rubouts"]] == ["green:1", "white:1", "green:2"]
    # E36: while the caller is awaited, another member may still give and cash (nothing else)
    legal = GAME.legal(doc, Y)
    assert legal["awaited"] is False and legal["decision"] == "bargain"
    assert {a["act"] for a in legal["actions"]} == {"give", "cash"}
    assert {"act": "cash", "card": "PW20"} in legal["actions"]


def test_e16_e40_an_active_player_eliminated_in_his_turn() -> None:
    # green's Boss rubs out yellow:1, then lands on a Mistake that removes him (MK05, avoided by nobody)
    start = {"players": {G: {"boss": "o03", "hitmen": {"2": "h0"}, "hitmen_bought": 2, "turns_taken": 3,
                             "cities": ["boston"], "limits": [{"card": "PN10", "turns_left": 2}]},
                         Y: {"hitmen": {"1": "o03"}}}}
    out = GAME.replay(frame(start=start, dice=[[1, 1]], tops={"mistake": "MK05"}, actions=[
        A(G, "declare", piece="green:0", dir="right"), A(G, "roll"), A(G, "move", piece="green:0", share=2),
        A(G, "rub", target="yellow:1"), A(G, "step", to="o04")]))
    assert _kinds(out, 4) == ["stepped", "move_ended", "mistake", "removed", "eliminated", "turn_ended",
                              "turn_began"]
    assert _event(out, 4, "turn_ended")["cause"] == "eliminated"
    assert _event(out, 4, "turn_began")["player"] == Y  # E40: no penalty window for yellow
    green = out["state"]["players"][G]
    assert green == {
        "alive": False, "base": 0, "colour": "green", "money": 0, "votes": 0, "men_left": 0, "hitmen_bought": 2,
        "turns_taken": 3, "pieces": {}, "cities": [], "business": {}, "illegal": {}, "officials": {}, "income": 0,
        "cards": {"power": 0, "official": 0}, "limits": [], "eliminated": {"turn": 1, "cause": "mistake", "by": None}}
    assert out["turns"][0]["state"]["window"] is None and out["turns"][0]["state"]["players"][G]["turns_taken"] == 3


def test_e19_sealed_defaults_in_seat_order() -> None:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}}}
    out = GAME.replay(frame(start=start, dice=[[1, 1]], options={"ballots": "sealed"}, actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling"),
        A(G, "call_vote"), A(W, "vote", side="against", votes=1), TIMEOUT]))
    assert _event(out, 6, "vote_called")["order"] == [Y, W, G]
    events = out["log"][8]["events"]
    assert [(e["kind"], e.get("player"), e["audience"]) for e in events] == [
        ("timed_out", None, "public"),
        ("ballot_sealed", G, "public"), ("ballot", G, [G]),
        ("ballot_sealed", Y, "public"), ("ballot", Y, [Y]),
        ("ballots_revealed", None, "public"), ("vote_result", None, "public")]
    assert events[0]["players"] == [G, Y]
    assert events[2] | {"audience": None} == {"audience": None, "kind": "ballot", "meeting": 1, "player": G,
                                              "side": "abstain", "votes": 0, "default": True}
    assert events[1]["default"] is True
    assert events[5]["ballots"] == [{"player": Y, "side": "abstain", "votes": 0},
                                    {"player": W, "side": "against", "votes": 1},
                                    {"player": G, "side": "abstain", "votes": 0}]


def test_e27_a_start_round_beyond_the_cap_ends_after_the_first_turn() -> None:
    out = GAME.replay(frame(players=SF2, start={"round": 4}, options={"round_cap": 2}, actions=[TIMEOUT]))
    assert _kinds(out, 0) == ["timed_out", "turn_ended", "game_over"]
    assert out["result"]["reason"] == "round_cap"
    assert [t["state"]["phase"] for t in out["turns"]] == [None]  # E9: written before game_over


def test_e34_tied_groups_are_settled_depth_first() -> None:
    # bases: green 7, yellow 7, white 5, red 5; green and yellow tie again (4, 4), then 3 vs 6; only then white, red
    dice = [[3, 4], [4, 3], [2, 3], [1, 4], [2, 2], [1, 3], [1, 2], [3, 3], [6, 6], [1, 1]]
    doc = {"format": "organizedcrime-replay/1", "players": list(SF4), "setup": {"first": G}, "dice": dice,
           "shuffles": frame(players=SF4)["shuffles"]}
    out = GAME.replay(doc)
    rolls = [(e["player"], e["total"]) for e in out["prelude"] if e["kind"] == "setup_roll"]
    assert rolls == [(G, 7), (Y, 7), (W, 5), (R, 5), (G, 4), (Y, 4), (G, 3), (Y, 6), (W, 12), (R, 2)]
    assert out["setup"]["base_order"] == [Y, G, W, R]
    # the file names the first player: known from the start, while the Home Bases are still being chosen
    assert out["setup"]["first"] == G and out["state"]["first"] == G and out["pending"]["players"] == [Y]


def test_e38_limits_keep_their_arrival_order() -> None:
    start = {"players": {G: {"officials": {"judge": 2}, "limits": [{"card": "PN12", "turns_left": 1},
                                                                   {"card": "PN10", "turns_left": 3}]}}}
    out = GAME.replay(frame(start=start, actions=[TIMEOUT]))
    assert out["state"]["players"][G]["limits"] == [{"card": "PN10", "turns_left": 2}]
    assert out["prelude"][-1]["kind"] == "turn_began"
    assert _kinds(out, 0) == ["timed_out", "turn_ended", "limit_expired", "turn_began"]
    first = GAME.replay(frame(start=start))
    assert first["state"]["players"][G]["limits"] == [{"card": "PN12", "turns_left": 1},
                                                      {"card": "PN10", "turns_left": 3}]


def test_e39_winners_in_standing_order() -> None:
    start = {"players": {G: {"money": 100000}, Y: {"money": 200000}, W: {"money": 200000}}}
    out = GAME.replay(frame(start=start, options={"round_cap": 1}, actions=[TIMEOUT, TIMEOUT, TIMEOUT]))
    assert out["result"]["winners"] == [Y, W]
    assert [r["player"] for r in out["result"]["standing"]] == [Y, W, G]
    assert out["log"][2]["events"][-1] == {"audience": "public", "kind": "game_over", "reason": "round_cap",
                                           "winners": [Y, W]}


def test_e20_remove_offender_removes_every_hitter_first_then_eliminates() -> None:
    # yellow:1 hits first (seq 1), then the Boss (seq 2); the removals still come in canonical order
    start = yellow_turn(green={"hitmen": {"1": "o03", "2": "o13"}},
                        yellow={"boss": "o03", "hitmen": {"1": "o13", "2": "h1"}})
    out = GAME.replay(frame(start=start, dice=[[1, 1]], tops={"penalty": "PN01"}, actions=[
        A(Y, "declare", piece="yellow:1", dir="right"), A(Y, "declare", piece="yellow:0", dir="right"), A(Y, "roll"),
        A(Y, "move", piece="yellow:1", share=1), A(Y, "rub", target="green:2"),
        A(Y, "move", piece="yellow:0", share=1), A(Y, "rub", target="green:1"), A(Y, "pass"), A(G, "penalty"),
        A(G, "call_vote"), A(Y, "vote", side="against", votes=1), A(W, "vote", side="for", votes=2),
        A(G, "vote", side="for", votes=2)]))
    assert [(r["seq"], r["by"], r["piece"]) for r in out["state"]["turn_state"]["rubouts"]] == [
        (1, "yellow:1", "green:2"), (2, "yellow:0", "green:1")]
    events = out["log"][12]["events"]
    assert [e["kind"] for e in events] == ["ballot", "vote_result", "penalty_card", "removed", "removed",
                                           "eliminated"]
    assert [(e["piece"], e["space"], e["cause"]) for e in events if e["kind"] == "removed"] == [
        ("yellow:0", "o03", "penalty"), ("yellow:1", "o13", "penalty")]
    assert events[-1]["pieces"] == ["yellow:2"] and events[-1]["cause"] == "penalty" and events[-1]["by"] is None
    assert out["state"]["players"][Y]["eliminated"] == {"turn": 2, "cause": "penalty", "by": None}  # E42


def _meeting_doc(options: dict[str, Any] | None, votes: list[dict[str, Any]]) -> dict[str, Any]:
    start = {"players": {G: {"cities": ["boston"], "hitmen": {"1": "o05"}}}}
    return frame(start=start, dice=[[1, 1]], options=options, actions=[
        A(G, "declare", piece="green:1", dir="right"), A(G, "roll"), A(G, "move", piece="green:1", share=2),
        A(G, "step", to="o06"), A(G, "step", to="o07"), A(G, "meeting", piece="green:1", target="gambling"),
        A(G, "call_vote"), *votes])


def test_e14_meeting_ballots_entries() -> None:
    open_ = GAME.replay(_meeting_doc(None, [A(Y, "vote", side="abstain"), A(W, "vote", side="against", votes=1)]))
    meeting = open_["state"]["meeting"]
    assert meeting["ballots"] == [{"player": Y, "side": "abstain", "votes": 0},
                                  {"player": W, "side": "against", "votes": 1}]
    assert meeting["voted"] == [Y, W] and meeting["order"] == [Y, W, G] and meeting["result"] is None
    sealed = _meeting_doc({"ballots": "sealed"}, [A(W, "vote", side="against", votes=1)])
    meeting = GAME.replay(sealed)["state"]["meeting"]
    assert meeting["ballots"] == [] and meeting["voted"] == [W]
    sealed["actions"] += [A(G, "vote", side="for", votes=2), A(Y, "vote", side="abstain")]
    meeting = GAME.replay(sealed)["state"]["meeting"]
    assert meeting["ballots"] == [{"player": Y, "side": "abstain", "votes": 0},
                                  {"player": W, "side": "against", "votes": 1},
                                  {"player": G, "side": "for", "votes": 2}]
    assert meeting["voted"] == [W, G, Y] and meeting["result"] == {"for": 2, "against": 1, "carried": True}


def test_e23_unknown_keys_of_a_deck_object_are_ignored_and_an_action_s_are_malformed() -> None:
    start = {"decks": {"power": {"draw": [f"PW{i:02d}" for i in range(1, 25)], "discard": [], "note": "x"}}}
    out = GAME.replay(frame(start=start, actions=[A(G, "buy_power", why="cards")]))
    assert out["log"][0]["refused"]["code"] == "malformed"
    assert out["state"]["decks"]["power"]["facedown"] == 24
