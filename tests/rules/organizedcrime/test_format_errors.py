"""Format errors of replay.md (and the errata): each is a FormatError whose message starts with the JSON path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.contract import FormatError
from rules.organizedcrime.game import GAME

from .frames import SF2, TIMEOUT, A, frame


def _base() -> dict[str, Any]:
    return frame(start={"players": {"green": {"hitmen": {"1": "o13"}}}}, dice=[[1, 1]],
                 actions=[A("green", "declare", piece="green:1", dir="right"), A("green", "roll")])


def _with(path: str, value: Any, doc: dict[str, Any] | None = None) -> dict[str, Any]:
    doc = copy.deepcopy(doc or _base())
    keys = path.split(".")
    cur: Any = doc
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur.setdefault(k, {})
    if value is DELETE:
        del cur[keys[-1]]
    elif isinstance(cur, list):
        cur[int(keys[-1])] = value
    else:
        cur[keys[-1]] = value
    return doc


DELETE = object()
P = "start.players"

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("not an object", [], "file"),  # type: ignore[list-item]
    ("format", _with("format", "organizedcrime-replay/2"), "format"),
    ("content", _with("content", "oc-h2"), "content"),
    ("one player", _with("players", ["green"]), "players"),
    ("five players", _with("players", ["a", "b", "c", "d", "e"]), "players"),
    ("repeated player", _with("players", ["green", "green", "white"]), "players"),
    ("bad player id", _with("players", ["green", "yel low", "white"]), "players[1]"),
    ("player id with a newline", _with("players", ["green", "yellow\n", "white"]), "players[1]"),
    ("piece with a newline", _with("actions.0.piece", "green:1\n"), "actions[0].piece"),
    ("options type", _with("options", []), "options"),
    ("ballots", _with("options.ballots", "secret"), "options.ballots"),
    ("round cap", _with("options.round_cap", 0), "options.round_cap"),
    ("auto income", _with("options.auto_income", "yes"), "options.auto_income"),
    ("bases missing one", _with("setup.bases", {"green": 0, "yellow": 1}), "setup.bases.white"),
    ("bases repeated", _with("setup.bases", {"green": 0, "yellow": 0, "white": 2}), "setup.bases"),
    ("base unknown", _with("setup.bases.white", 7), "setup.bases.white"),
    ("start without first", _with("setup.first", DELETE), "start"),
    ("money negative", _with(f"{P}.green.money", -10000), f"{P}.green.money"),
    ("money unit", _with(f"{P}.green.money", 15000), f"{P}.green.money"),
    ("debtor with money", _with("start.debts", [{"debtor": "green", "creditor": "treasury", "amount": 10000}]),
     f"{P}.green.money"),
    ("unknown space", _with(f"{P}.green.hitmen", {"1": "o99"}), f"{P}.green.hitmen.1"),
    ("hitman on a boss space", _with(f"{P}.green.hitmen", {"1": "b0"}), f"{P}.green.hitmen.1"),
    ("on another's home", _with(f"{P}.green.hitmen", {"1": "h1"}), f"{P}.green.hitmen.1"),
    ("on an unused home", _with(f"{P}.green.hitmen", {"1": "h3"}), f"{P}.green.hitmen.1"),
    ("boss on another's boss space", _with(f"{P}.green.boss", "b2"), f"{P}.green.boss"),
    ("number above bought", _with(f"{P}.green.hitmen_bought", 0), f"{P}.green.hitmen"),
    ("too many men", _with(f"{P}.green.hitmen_bought", 21), f"{P}.green"),
    ("city twice", _with(f"{P}.yellow.cities", ["boston"], _with(f"{P}.green.cities", ["boston"])),
     f"{P}.yellow.cities"),
    ("circles", _with(f"{P}.yellow.officials", {"senator": 2}, _with(f"{P}.green.officials", {"senator": 1})),
     f"{P}"),
    ("card twice", _with(f"{P}.yellow.power", ["PW01"], _with(f"{P}.green.power", ["PW01"])), f"{P}.yellow.power[0]"),
    ("wrong hand", _with(f"{P}.green.power", ["CO01"]), f"{P}.green.power[0]"),
    ("limits kind", _with(f"{P}.green.limits", [{"card": "PN01", "turns_left": 1}]), f"{P}.green.limits[0].card"),
    ("limits turns", _with(f"{P}.green.limits", [{"card": "PN10", "turns_left": 0}]),
     f"{P}.green.limits[0].turns_left"),
    ("deck not the free cards", _with("start.decks", {"power": {"draw": ["PW01"], "discard": []}}),
     "start.decks.power"),
    ("active eliminated", _with("start.active", "white", _with(f"{P}.white", {"alive": False})), "start.active"),
    ("fewer than two members", _with(f"{P}.white", {"alive": False}, _with(f"{P}.yellow", {"alive": False})),
     f"{P}"),
    ("alive false with a field", _with(f"{P}.white", {"alive": False, "money": 0}), f"{P}.white.money"),
    ("debt with an eliminated party", _with("start.debts", [{"debtor": "yellow", "creditor": "white", "amount": 10000}],
                                            _with(f"{P}.white", {"alive": False}, _with(f"{P}.yellow.money", 0))),
     "start.debts[0].creditor"),
    ("debt amount", _with("start.debts", [{"debtor": "yellow", "creditor": "treasury", "amount": 0}],
                          _with(f"{P}.yellow.money", 0)), "start.debts[0].amount"),
    ("dice entry", _with("dice", [[1, 7]]), "dice[0]"),
    ("dice exhausted", _with("dice", []), "dice"),
    ("shuffle entry", _with("shuffles.power", [["PW01"]]), "shuffles.power[0]"),
    ("shuffle missing", _with("shuffles.penalty", []), "shuffles.penalty[0]"),
    ("action not an object", _with("actions.1", "roll"), "actions[1]"),
    ("unknown act", _with("actions.1", {"by": "green", "act": "fly"}), "actions[1].act"),
    ("by missing", _with("actions.1", {"act": "roll"}), "actions[1].by"),
    ("by on a timeout", _with("actions.1", {"by": "green", "act": "timeout"}), "actions[1].by"),
    ("timeout field", _with("actions.1", {"act": "timeout", "why": "late"}), "actions[1].why"),
    ("unknown player", _with("actions.1", {"by": "blue", "act": "roll"}), "actions[1].by"),
    ("unknown attack player", _with("actions.0.attack", "blue"), "actions[0].attack"),
    ("piece form", _with("actions.0.piece", "green-1"), "actions[0].piece"),
    ("piece of an unknown player", _with("actions.0.piece", "blue:1"), "actions[0].piece"),
    ("string for a number", _with("actions.1", {"by": "green", "act": "buy_hitmen", "count": "2"}),
     "actions[1].count"),
    ("unknown card", _with("actions.1", {"by": "green", "act": "cash", "card": "PW99"}), "actions[1].card"),
    ("unknown space step", _with("actions.1", {"by": "green", "act": "step", "to": "x1"}), "actions[1].to"),
    ("unknown meeting target", _with("actions.1", {"by": "green", "act": "meeting", "piece": "green:1",
                                                   "target": "atlantis"}), "actions[1].target"),
    ("list for a string", _with("actions.1", {"by": "green", "act": "step", "to": ["o14"]}), "actions[1].to"),
    ("targets not a list", _with("actions.1", {"by": "green", "act": "hit", "card": "PW01", "targets": "green:0"}),
     "actions[1].targets"),
]

# null is not an absent field (docs/organizedcrime/rulings.md 14): each is a wrong JSON type
NULLS = ["content", "options", "setup", "start", "dice", "shuffles", "actions", "options.ballots",
         "options.auto_income", "setup.bases", "setup.first", "shuffles.power", "start.players", f"{P}.green",
         f"{P}.green.money", f"{P}.green.boss", f"{P}.green.hitmen", f"{P}.green.hitmen_bought", f"{P}.green.cities",
         f"{P}.green.business", f"{P}.green.power", f"{P}.green.limits", f"{P}.green.turns_taken", "start.debts",
         "start.decks", "start.decks.power", "start.turn", "start.round", "start.active"]
CASES += [(f"{path} null", _with(path, None), path) for path in NULLS]


@pytest.mark.parametrize(("name", "doc", "path"), CASES, ids=[c[0] for c in CASES])
def test_format_error_names_the_field(name: str, doc: Any, path: str) -> None:
    with pytest.raises(FormatError) as info:
        GAME.replay(doc)
    assert str(info.value).startswith(path), str(info.value)


def test_an_action_after_the_end_is_a_format_error() -> None:
    doc = frame(players=SF2, start={"players": {"green": {"hitmen": {"1": "o13"}}}}, actions=[
        A("green", "declare", piece="green:1", dir="right")], options={"round_cap": 1})
    doc["actions"] += [TIMEOUT, TIMEOUT, TIMEOUT]
    with pytest.raises(FormatError) as info:
        GAME.replay(doc)
    assert str(info.value).startswith("actions[3]")


def test_legal_on_an_ended_game_or_for_a_stranger_is_a_format_error() -> None:
    doc = frame(players=SF2, options={"round_cap": 1}, actions=[TIMEOUT, TIMEOUT])
    assert GAME.replay(doc)["result"]["reason"] == "round_cap"
    with pytest.raises(FormatError):
        GAME.legal(doc, "green")
    with pytest.raises(FormatError):
        GAME.legal(_base(), "blue")


def test_unknown_keys_are_ignored_where_e23_says() -> None:
    doc = _base()
    doc["extra"] = 1
    doc["options"] = {"colour": "blue"}
    doc["setup"]["note"] = "x"
    doc["start"]["note"] = "x"
    doc["start"]["players"]["green"]["note"] = "x"
    assert GAME.replay(doc)["log"][1]["refused"] is None


def test_optional_lists_may_be_left_out_and_unused_chance_is_allowed() -> None:
    doc = _base()
    doc["dice"].append([6, 6])
    doc["shuffles"]["power"].append(["PW01"])
    assert GAME.replay(doc)["log"][1]["events"][0]["dice"] == [1, 1]
    del doc["actions"], doc["dice"]
    assert GAME.replay(doc)["log"] == []


def test_e7_the_first_shuffle_may_list_only_the_free_cards() -> None:
    doc = _base()
    doc["start"]["players"]["green"]["power"] = ["PW01"]
    doc["shuffles"]["power"] = [[f"PW{i:02d}" for i in range(2, 25)]]
    out = GAME.replay(doc)
    assert out["prelude"][0] == {"audience": "public", "kind": "shuffled", "deck": "power", "cards": 23}


def test_null_is_accepted_where_replay_md_writes_it() -> None:
    doc = _with("options.round_cap", None, _with("actions.0.attack", None))
    assert GAME.replay(doc)["log"][0]["refused"] is None
