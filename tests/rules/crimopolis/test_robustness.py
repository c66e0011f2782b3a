"""No input file crashes the engine: a mutated golden file replays or is a FormatError, never a traceback."""

from __future__ import annotations

import copy
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contract import FormatError

from .replaying import GOLDEN, golden, legal, replay

NAMES = sorted(p.name.removesuffix(".replay.json") for p in GOLDEN.glob("*.replay.json"))
VALUES: list[Any] = [
    None,
    True,
    0,
    1,
    2,
    3,
    4,
    -1,
    99,
    10**30,
    1.5,
    "",
    "x",
    "0,0",
    "1,1",
    "2,1",
    "-1,0",
    "h:0,0",
    "h:0,1",
    "v:1,1",
    "h:99,99",
    "T01",
    "T28",
    "sh_yellow",
    "sh_green",
    "hq_blue",
    "J01",
    "J37",
    "N36",
    "F01",
    "F28",
    "F35",
    "F41",
    "ann",
    "ben",
    "cat",
    "N",
    "E",
    "hq",
    "safe_house",
    "end",
    "move",
    [],
    {},
    ["J01"],
    {"h:0,1": 1},
    {"ann": 1},
]


def _nodes(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _nodes(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _nodes(v, (*path, i))
    return out


def mutate(doc: Any, rng: Random) -> Any:
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _nodes(doc) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        roll = rng.random()
        if roll < 0.7:
            parent[last] = copy.deepcopy(rng.choice(VALUES))
        elif roll < 0.85:
            del parent[last]
        elif isinstance(parent, dict):
            parent[rng.choice(["x", "kind", "player", "count", "from", "to"])] = copy.deepcopy(rng.choice(VALUES))
        else:
            parent.insert(last, copy.deepcopy(rng.choice(VALUES)))
    return doc


def survives(doc: Any) -> None:
    try:
        out = replay(doc)
    except FormatError:
        return
    assert out["format"] == "crimopolis-result/1"
    for p in out["players"]:
        assert legal(doc, p)["player"] == p


@pytest.mark.parametrize("name", NAMES)
def test_mutated_golden_files_replay_or_are_format_errors(name: str) -> None:
    rng = Random(name)
    base = golden(name)
    for _ in range(40):
        survives(mutate(base, rng))


JSONS = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from([v for v in VALUES if isinstance(v, str)]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["kind", "from", "to", "count", "card", "block", "x"]), inner, max_size=4)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=JSONS, player=st.sampled_from(["ann", "ben"]))
def test_any_action_replays_or_is_a_format_error(action: Any, player: str) -> None:
    doc = golden("s14_bombing_tombstones")
    doc["steps"] = [{"player": player, "action": action}]
    survives(doc)
