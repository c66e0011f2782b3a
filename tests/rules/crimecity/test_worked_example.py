"""The rule book's worked example, rulings Part 4 (WE-1 to WE-6), field by field."""

from __future__ import annotations

import pytest

from rules.crimecity import check_action, single_move_only
from rules.crimecity.replay import run_replay
from tests.support.rules_helpers import act, board, doc, golden, positions, state_of

WE = golden("we1_we3.replay.json")


@pytest.fixture(scope="module")
def out() -> dict:
    return run_replay(WE)


def test_we1_round1_board_friendship_and_private(out: dict) -> None:
    r1 = out["rounds"][0]
    assert r1["rejected"] == {}
    assert r1["board"] == board("TH{POL,BAN,GOV} MN{DAU} MS{SEC,CLK,DET} BK{ARM}")
    assert r1["friendship"] == {"policeman+secretary": 1, "governor+governors_daughter": 1, "armed_guard+banker": 1}
    assert r1["private"] == {
        "andy": [{"kind": "investigation", "character": "store_clerk", "role": "none"}],
        "cara": [{"kind": "identification", "player": "andy", "character": "detective"}],
    }
    assert r1["completed"] == {}
    assert r1["cooldowns"] == {
        "andy": ["ability:detective", "move:secretary"],
        "grunkle": ["ability:banker", "move:governor"],
        "cara": ["ability:secretary", "converse:policeman"],
        "dev": ["converse:governors_daughter", "move:governors_daughter"],
        "eve": ["converse:banker", "move:governors_daughter"],
    }


def test_we1_pickpocket_progress() -> None:
    st = state_of(doc(WE["rounds"][:1]))
    assert {c.value for c in st.progress["andy"].stolen} == {"store_clerk", "secretary"}


WE2 = [
    ("andy", "move vertical secretary", "cooldown"),
    ("andy", "move horizontal secretary", "cooldown"),
    ("andy", "ability governor", "cooldown"),
    ("andy", "move vertical detective", None),
    ("andy", "converse store_clerk", None),
    ("andy", "converse secretary", None),
    ("andy", "converse policeman", "not_here"),
    ("grunkle", "move horizontal governor", "cooldown"),
    ("grunkle", "move vertical governor", "cooldown"),
    ("grunkle", "ability", "cooldown"),
    ("grunkle", "move horizontal armed_guard", None),
    ("grunkle", "move vertical banker", None),
    ("grunkle", "converse governor", None),
    ("grunkle", "converse policeman", None),
]


@pytest.mark.parametrize(("player", "action", "code"), WE2)
def test_we2_round2_validity(player: str, action: str, code: str | None) -> None:
    st = state_of(doc(WE["rounds"][:1]))
    err = check_action(st, player, act(action))
    assert (err.code if err else None) == code


def test_we2_eve_must_submit_one_move() -> None:
    d = doc(WE["rounds"][:1] + [{"eve": {"actions": [
        {"kind": "move", "direction": "vertical", "character": "armed_guard"},
        {"kind": "converse", "character": "banker"}]}}])
    assert single_move_only(state_of(doc(WE["rounds"][:1])), "eve")
    assert run_replay(d)["rounds"][1]["rejected"]["eve"]["code"] == "not_here"
    d["rounds"][1]["eve"]["actions"] = [{"kind": "move", "direction": "vertical", "character": "armed_guard"}]
    assert run_replay(d)["rounds"][1]["rejected"] == {}


def test_we3_round2(out: dict) -> None:
    r2 = out["rounds"][1]
    assert r2["rejected"] == {}
    assert r2["board"] == board("TH{POL,BAN,GOV} MN{ARM,DAU} MS{SEC,CLK,DET} BK{}")
    assert r2["friendship"] == {
        "policeman+secretary": 1, "governor+governors_daughter": 1, "armed_guard+banker": 1,
        "detective+store_clerk": 1, "banker+governor": 2, "detective+secretary": 1,
        "secretary+store_clerk": 1, "governor+policeman": 1,
    }
    assert r2["completed"] == {} and r2["private"] == {}
    assert r2["cooldowns"]["eve"] == ["move:armed_guard"]
    assert r2["cooldowns"]["andy"] == ["converse:store_clerk", "move:detective"]
    st = state_of(doc(WE["rounds"][:1]))
    assert check_action(st, "grunkle", act("friend governor policeman bank")).code == "not_networked"


WE4 = [
    ("andy", "move vertical secretary", None),
    ("andy", "ability secretary", None),
    ("andy", "move horizontal detective", "cooldown"),
    ("andy", "converse store_clerk", "cooldown"),
    ("andy", "converse secretary", None),
    ("grunkle", "move horizontal governor", None),
    ("grunkle", "ability", None),
    ("grunkle", "move vertical detective", "cooldown"),
    ("grunkle", "converse governor", "cooldown"),
    ("grunkle", "converse policeman", None),
    ("grunkle", "friend governor policeman bank", None),
    ("dev", "friend banker", None),
    ("dev", "converse banker", "cooldown"),
    ("dev", "converse policeman", "cooldown"),
]


@pytest.mark.parametrize(("player", "action", "code"), WE4)
def test_we4_round3_validity(player: str, action: str, code: str | None) -> None:
    st = state_of(WE)
    err = check_action(st, player, act(action))
    assert (err.code if err else None) == code


WE5_START = {
    "round": 4,
    "positions": positions("TH{POL,BAN,DET} MN{ARM,GOV,DAU} MS{SEC,CLK} BK{}"),
    "friendship": {"banker+detective": 1},
}


def test_we5_banker_detective_friendship() -> None:
    r4 = {
        "grunkle": {"actions": [{"kind": "converse", "character": "detective"},
                                {"kind": "move", "direction": "horizontal", "character": "store_clerk"}]},
        "andy": {"actions": [{"kind": "converse", "character": "policeman"},
                             {"kind": "ability", "target": "secretary"}]},
    }
    st4 = state_of(doc(start=WE5_START))
    assert check_action(st4, "andy", act("friend banker")).code == "not_networked"
    assert check_action(st4, "grunkle", act("friend detective governor")).code == "not_networked"
    out4 = run_replay(doc([r4], start=WE5_START))["rounds"][0]
    assert out4["board"] == board("TH{POL,BAN,DET} MN{ARM,GOV,DAU} MS{SEC} BK{CLK}")
    assert out4["friendship"] == {"banker+detective": 2, "detective+policeman": 1}
    assert out4["private"] == {"andy": [{"kind": "investigation", "character": "secretary", "role": "hitman"}]}
    st5 = state_of(doc([r4], start=WE5_START))
    assert {c.value for c in st5.progress["andy"].stolen} == {"policeman", "banker"}
    for player, text, code in [
        ("andy", "friend banker", None), ("grunkle", "friend detective governor", None),
        ("andy", "ability governor", "cooldown"), ("grunkle", "converse detective", "cooldown"),
        ("andy", "converse banker", None), ("andy", "converse policeman", "cooldown"),
    ]:
        err = check_action(st5, player, act(text))
        assert (err.code if err else None) == code, (player, text)
    r5 = {
        "andy": {"actions": [{"kind": "friend", "friend": "banker"}, {"kind": "converse", "character": "banker"}]},
        "grunkle": {"actions": [{"kind": "friend", "friend": "detective", "target": "governor"},
                                {"kind": "ability"}]},
    }
    out5 = run_replay(doc([r4, r5], start=WE5_START))["rounds"][1]
    assert out5["rejected"] == {}
    assert out5["board"] == board("TH{POL} MN{ARM,GOV,DAU} MS{SEC} BK{BAN,CLK,DET}")
    assert out5["friendship"]["banker+detective"] == 3
    assert out5["private"] == {"grunkle": [{"kind": "investigation", "character": "governor", "role": "bank_robber"}]}
    st6 = state_of(doc([r4, r5], start=WE5_START))
    assert {c.value for c in st6.progress["andy"].stolen} == {"policeman", "banker", "store_clerk"}
    for player, text, code in [
        ("andy", "friend banker", "cooldown"), ("grunkle", "friend detective governor", "cooldown"),
        ("grunkle", "ability", "cooldown"), ("andy", "ability secretary", None),
    ]:
        err = check_action(st6, player, act(text))
        assert (err.code if err else None) == code, (player, text)


def test_we6_banker_condition_applies_to_the_actor() -> None:
    st = state_of(doc(start={
        "positions": positions("TH{POL,BAN} MN{ARM,DAU} MS{SEC,CLK,DET} BK{GOV}"),
        "friendship": {"banker+detective": 2},
    }))
    assert check_action(st, "andy", act("friend banker")).code == "unavailable"
    assert check_action(st, "grunkle", act("friend detective governor")) is None
