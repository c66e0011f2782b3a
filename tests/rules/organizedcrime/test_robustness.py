"""No input file crashes the reader: golden files mutated at random give a result or a FormatError, never
another exception (the CLI turns FormatError into `error: …` and exit 2)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

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
