"""No input file crashes the reader: golden files mutated at random give a result or a FormatError, never
another exception (the CLI turns FormatError into `error: …` and exit 2)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from rules.contract import FormatError
from rules.organizedcrime.game import GAME

GOLDEN = Path(__file__).resolve().parent / "golden"
VALUES: list[Any] = [None, True, False, 0, -1, 1, 7, 10**30, 1.5, "", "x", "green", "green:1", "o04", "PW01", [], {},
                     [1], ["green:1"], {"a": 1}, "treasury", "h1", "b1", [[1, 1]], [["PW01"]], "timeout"]


def _paths(x: Any, pre: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield pre
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, (*pre, k))
    elif isinstance(x, list) and len(x) < 30:  # long card lists would soak up the mutations
        for i, v in enumerate(x):
            yield from _paths(v, (*pre, i))


def _mutate(doc: Any, rng: Random) -> Any:
    doc = copy.deepcopy(doc)
    paths = [p for p in _paths(doc) if p]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        cur = doc
        try:
            for k in path[:-1]:
                cur = cur[k]
            r = rng.random()
            if r < 0.7:
                cur[path[-1]] = rng.choice(VALUES)
            elif r < 0.85 and isinstance(cur, dict):
                cur.pop(path[-1], None)
            elif isinstance(cur, dict):
                cur["zz"] = rng.choice(VALUES)
        except (KeyError, IndexError, TypeError):
            pass
    return doc


def test_mutated_files_give_a_result_or_a_format_error() -> None:
    docs = [json.loads(p.read_text()) for p in sorted(GOLDEN.glob("*.replay.json"))]
    rng = Random(20261201)
    outcomes = {"ok": 0, "format": 0}
    for _ in range(1500):
        doc = _mutate(rng.choice(docs), rng)
        try:
            GAME.replay(doc)
            outcomes["ok"] += 1
            for player in doc["players"][:2]:
                try:
                    GAME.legal(doc, player)
                except FormatError:
                    pass
        except FormatError:
            outcomes["format"] += 1
    assert outcomes["ok"] > 100 and outcomes["format"] > 100, outcomes


def _s01() -> dict[str, Any]:
    return json.loads(next(iter(sorted(GOLDEN.glob("s01*.replay.json")))).read_text())


def test_a_hitman_number_in_other_digits_or_thousands_of_them_is_a_format_error_naming_it() -> None:
    for key in ("²", "١", "1" * 5000, "01", "0"):
        doc = _s01()
        player = doc["players"][0]
        doc["start"]["players"].setdefault(player, {})["hitmen"] = {key: "o02"}
        with pytest.raises(FormatError, match=rf"^start\.players\.{player}\.hitmen\.{key[:50]}"):
            GAME.replay(doc)


def test_money_of_thousands_of_digits_is_a_format_error_and_any_sum_of_the_game_can_be_written() -> None:
    doc = _s01()
    player = doc["players"][0]
    doc["start"]["players"].setdefault(player, {})["money"] = int("9" * 3997 + "0000")
    with pytest.raises(FormatError, match=rf"^start\.players\.{player}\.money: money of more than 4000 digits"):
        GAME.replay(doc)
    doc["start"]["players"][player]["money"] = int("9" * 3996 + "0000")
    json.dumps(GAME.replay(doc))  # the largest accepted money, played on, is still written


def _golden(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.replay.json").read_text())


def test_a_piece_of_thousands_of_digits_in_an_action_is_refused_not_a_crash() -> None:
    big = "1" * 5000
    for name, action, code in (
        ("s05_o05", {"by": "yellow", "act": "hit", "card": "PW09", "targets": [f"green:{big}", "green:2"]},
         "bad_target"),
        ("s25_choice", {"by": "yellow", "act": "remove", "pieces": [f"yellow:{big}", "yellow:1"]}, "bad_piece"),
    ):
        doc = _golden(name)
        doc["actions"].append(action)
        last = GAME.replay(doc)["log"][-1]
        assert last["refused"] is not None and last["refused"]["code"] == code, (name, last["refused"])
