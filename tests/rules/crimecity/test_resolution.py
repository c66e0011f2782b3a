"""Resolution order and goals (rulings R65-R83, Q13, Q15-Q18, Q40) on constructed rounds."""

from __future__ import annotations

from rules.crimecity.replay import run_replay
from tests.support.rules_helpers import board, doc, positions


def mv(d: str, c: str) -> dict:
    return {"kind": "move", "direction": d, "character": c}


def cv(c: str) -> dict:
    return {"kind": "converse", "character": c}


def ab(**kw) -> dict:
    return {"kind": "ability", **kw}


def fr(f: str, **kw) -> dict:
    return {"kind": "friend", "friend": f, **kw}


def one_round(subs: dict, start: dict | None = None, seats: dict | None = None) -> dict:
    out = run_replay(doc([{p: {"actions": a} for p, a in subs.items()}], start=start, seats=seats))
    return out["rounds"][0]


def test_send_then_toggles_apply_from_destination_q16() -> None:
    # Dev (Governor, Mansion) sends the Daughter to Town Hall; Andy moves her horizontally: TH -> MN.
    r = one_round({"dev": [ab(target="governors_daughter", destination="town_hall"), cv("governors_daughter")],
                   "andy": [mv("horizontal", "governors_daughter"), cv("store_clerk")]})
    assert r["rejected"] == {}
    assert "governors_daughter" in r["board"]["mansion"]


def test_two_different_sends_cancel_q17() -> None:
    start = {"positions": positions("TH{POL,SEC} MN{GOV,DAU,BAN} MS{CLK,DET} BK{ARM}"),
             "friendship": {"banker+governor": 2}}
    subs = {"dev": [ab(target="governors_daughter", destination="bank"), cv("banker")],
            "grunkle": [fr("governor", target="governors_daughter", destination="town_hall"), cv("governor")]}
    r = one_round(subs, start)
    assert r["rejected"] == {} and "governors_daughter" in r["board"]["mansion"]
    subs["grunkle"][0] = fr("governor", target="governors_daughter", destination="bank")
    r = one_round(subs, start)
    assert "governors_daughter" in r["board"]["bank"]  # identical sends apply once


def test_detain_blocks_every_location_change_q15() -> None:
    seats = {**doc()["seats"], "eve": {"character": "policeman", "role": "fraud"}}
    start = {"positions": positions("TH{POL,SEC,GOV} MN{DAU} MS{CLK,DET} BK{BAN,ARM}")}
    r = one_round({"eve": [ab(target="secretary"), mv("vertical", "banker")],
                   "dev": [ab(target="secretary", destination="bank"), cv("policeman")],
                   "andy": [mv("horizontal", "secretary"), ab(target="banker")]}, start, seats)
    assert r["rejected"] == {}
    assert "secretary" in r["board"]["town_hall"]
    assert "banker" in r["board"]["mansion"]  # BK -> MN by the vertical move (same column)


def test_summon_goes_to_the_summoners_new_place_q18() -> None:
    seats = {**doc()["seats"], "eve": {"character": "governors_daughter", "role": "fraud"}}
    # Eve (Daughter, Mansion) is moved to the Bank by Andy; she summons the Governor there.
    r = one_round({"eve": [ab(), cv("governor")], "andy": [mv("vertical", "governors_daughter"), cv("store_clerk")]},
                  seats=seats)
    assert r["board"]["bank"] == ["armed_guard", "banker", "governor", "governors_daughter"]


def test_summons_to_different_places_cancel() -> None:
    seats = {**doc()["seats"], "eve": {"character": "governors_daughter", "role": "fraud"}}
    start = {"positions": positions("TH{POL,SEC} MN{GOV,DAU} MS{CLK,DET,BAN} BK{ARM}"),
             "friendship": {"banker+governors_daughter": 2}}
    r = one_round({"eve": [ab(), cv("governor")], "grunkle": [fr("governors_daughter"), cv("store_clerk")],
                   "dev": [mv("vertical", "secretary"), cv("governors_daughter")]}, start, seats)
    assert r["rejected"] == {}
    assert "governor" in r["board"]["mansion"]


def test_hitman_kills_after_all_goals_and_pickpocket_steals_the_governor_same_round() -> None:
    # Cara (Secretary, Hitman) ends alone with the Governor in the Mansion.
    start = {"positions": positions("TH{POL,BAN} MN{GOV,SEC} MS{CLK,DET,DAU} BK{ARM}")}
    r = one_round({"cara": [cv("governor"), ab(player="andy")]}, start)
    assert r["completed"] == {"cara": 1}
    assert r["dead"] == ["governor"] and "governor" not in r["board"]["mansion"]
    assert r["private"]["cara"][-1] == {"kind": "goal_complete", "role": "hitman"}
    assert r["private"]["cara"][0]["kind"] == "identification"


def test_bank_robber_needs_two_turns_not_in_a_row_q9() -> None:
    seats = {**doc()["seats"], "dev": {"character": "store_clerk", "role": "bank_robber"},
             "andy": {"character": "detective", "role": "pickpocket"}}
    start = {"positions": positions("TH{POL,SEC} MN{GOV,DAU} MS{DET} BK{BAN,ARM,CLK}"),
             "progress": {"dev": {"bank_turns": 1}}}
    # The Armed Guard leaves the Bank: Dev's second qualifying turn.
    r = one_round({"andy": [mv("vertical", "armed_guard"), ab(target="banker")]}, start, seats)
    assert r["completed"] == {"dev": 1}


def test_fraud_two_stages_in_order_q12() -> None:
    start = {"positions": positions("TH{POL,ARM} MN{GOV,DAU} MS{CLK,DET,SEC} BK{BAN}")}
    d = doc([{}, {"andy": {"actions": [mv("vertical", "secretary"), ab(target="banker")]}}], start=start)
    out = run_replay(d)
    assert out["rounds"][0]["completed"] == {}
    assert out["rounds"][1]["completed"] == {"eve": 2}


def test_pickpocket_completes_instantly_at_main_street_q11() -> None:
    start = {"positions": positions("TH{POL} MN{GOV} MS{CLK,DET,SEC,DAU,BAN} BK{ARM}")}
    assert one_round({}, start)["completed"] == {"andy": 1}


def test_mob_boss_perfect_guess() -> None:
    guess = {"detective": "pickpocket", "banker": "mob_boss", "secretary": "hitman", "governor": "bank_robber",
             "armed_guard": "fraud", "policeman": "none", "store_clerk": "none", "governors_daughter": "none"}
    d = doc([{"grunkle": {"actions": [cv("armed_guard"), mv("vertical", "banker")], "guess": guess}}])
    out = run_replay(d)["rounds"][0]
    assert out["completed"] == {"grunkle": 1}
    wrong = dict(guess, policeman="fraud", armed_guard="none")
    d["rounds"][0]["grunkle"]["guess"] = wrong
    assert run_replay(d)["rounds"][0]["completed"] == {}


def test_game_ends_at_four_completions_and_at_rounds_total() -> None:
    start = {"round": 2, "completed": {"andy": 1, "cara": 1, "dev": 1},
             "positions": positions("TH{POL,ARM} MN{GOV,DAU} MS{CLK,DET,SEC} BK{BAN}"),
             "progress": {"eve": {"fraud_stage": 1}}}
    d = doc([{"andy": {"actions": [mv("vertical", "secretary"), ab(target="banker")]}}], start=start)
    out = run_replay(d)
    assert out["result"]["ended_after_round"] == 2
    assert out["result"]["ec"] == "grunkle"
    short = run_replay(doc([{}, {}], rounds_total=2))
    assert short["result"] is not None and short["result"]["ended_after_round"] == 2


def test_board_notation_helper() -> None:
    assert board("TH{} MN{GOV} MS{} BK{}")["mansion"] == ["governor"]
