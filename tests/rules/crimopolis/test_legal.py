"""`legal` (replay.md "Output of legal"): what it lists is exactly what `check` accepts among the canonical
forms, sorted as E24 says; checked against a brute-force enumeration on states of random games."""

from __future__ import annotations

import json
from itertools import product
from random import Random
from typing import Any

import pytest

from rules.contract import RecordedChance
from rules.crimopolis.checks import check
from rules.crimopolis.game import GAME
from rules.crimopolis.ids import SIDES, cell_id
from rules.crimopolis.legal import legal_actions, sort_key
from rules.crimopolis.state import OVER, State
from tests.support.playthrough import play_random

C = GAME.content


def _distributions(caps: list[tuple[str, int]]) -> list[dict[str, int]]:
    out = []
    for combo in product(*[range(n + 1) for _, n in caps]):
        if sum(combo):
            out.append({s: k for (s, _), k in zip(caps, combo, strict=True) if k})
    return out


def _canonical_fortune_sets(s: State, p: str) -> list[list[str]]:
    by: dict[str, list[str]] = {}
    for f in sorted(s.pl[p].fortunes):
        if C.designs[f].timing == "job":
            by.setdefault(C.designs[f].id, []).append(f)
    choices = [[cards[:j] for j in range(len(cards) + 1)] for cards in by.values()]
    return [sorted(x for part in combo for x in part) for combo in product(*choices)] or [[]]


def candidates(s: State, p: str) -> list[dict[str, Any]]:
    """A superset of the legal canonical actions, built without the rules."""
    assert s.pending is not None
    kind = s.pending["kind"]
    geo = s.geo
    cells = [cell_id(x, y) for (x, y) in geo.at] + [cell_id(*xy) for xy in geo.empty_adjacent()]
    if kind == "setup_hq":
        return [{"kind": "place_hq", "cell": c} for c in cells]
    if kind == "setup_tile":
        return [
            {"kind": "setup_tile", "tile": t, "cell": c, "block_side": b}
            for t in [*s.revealed, "T01", "sh_yellow"]
            for c in cells
            for b in (*SIDES, None)
        ]
    if kind == "explore":
        return [{"kind": "explore", "tile": t, "block_side": b} for t in [*C.tiles, None] for b in (*SIDES, None)]
    if kind == "keep":
        return [{"kind": "keep", "card": j} for j in C.jobs]
    if kind == "target":
        return [{"kind": "target", "player": q} for q in s.players]
    if kind == "react":
        return [{"kind": "react", "card": None}] + [{"kind": "react", "card": f} for f in C.decks["fortunes"]]
    if kind == "destiny":
        return [{"kind": "destiny", "card": d} for d in C.decks["newsflashes"] + C.decks["fortunes"]]
    me = s.pl[p]
    out: list[dict[str, Any]] = [{"kind": k} for k in ("end", "invest", "redraw")]
    out += [{"kind": "recruit", "to": t} for t in ("hq", "safe_house")]
    out += [{"kind": "abort", "card": j} for j in [*me.jobs, "J48"]]
    mine = [loc for loc, (who, _) in s.gangsters.items() if who == p]
    places = [*geo.streets, *geo.blocks]
    out += [{"kind": "move", "from": a, "to": b, "count": n} for a in mine for b in places for n in (1, 2, 3) if a != b]
    sets = _canonical_fortune_sets(s, p)
    for bid, b in geo.blocks.items():
        caps = [(st, s.count(st, p)) for st in b.streets if s.count(st, p)]
        for src in _distributions(caps):
            out.append({"kind": "occupy", "block": bid, "from": src})
            out.append({"kind": "takeover", "block": bid, "from": src})
            for card in dict.fromkeys(me.jobs):
                out += [{"kind": "job", "card": card, "block": bid, "from": src, "fortunes": f} for f in sets]
    seen = set()
    for f in sorted(me.fortunes):
        d = C.designs[f]
        if d.id in seen:
            continue
        seen.add(d.id)
        out.append({"kind": "fortune", "card": f})
        out += [{"kind": "fortune", "card": f, "to": t} for t in ("hq", "safe_house")]
        out += [{"kind": "fortune", "card": f, "block": b} for b in geo.blocks]
        out += [{"kind": "fortune", "card": f, "street": st} for st in geo.streets]
        out += [{"kind": "fortune", "card": f, "target": q} for q in s.players]
    return out


def states(seed: int, every: int) -> list[State]:
    play = play_random(GAME, Random(seed), players=2 + seed % 4)
    out = []
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    for i, entry in enumerate(play.log):
        if i % every == 0 and state.phase != OVER:
            out.append(state)
        state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
    return out


@pytest.mark.parametrize("seed", range(4))
def test_legal_is_exactly_what_check_accepts(seed: int) -> None:
    kinds = set()
    for s in states(seed, 7):
        assert s.pending is not None
        p = s.pending["player"]
        listed = legal_actions(C, s, p)
        keys = [sort_key(a) for a in listed]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        accepted = {sort_key(a) for a in candidates(s, p) if check(C, s, p, a) is None}
        assert set(keys) == accepted, (s.pending, set(keys) ^ accepted)
        for other in s.players:
            if other != p:
                assert legal_actions(C, s, other) == []
        kinds.add(s.pending["kind"])
        kinds.update(a["kind"] for a in listed)
    assert {"turn", "move", "end"} <= kinds


def test_sort_key_is_python_json_dumps_default() -> None:
    actions = [
        {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 1}, "fortunes": []},
        {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 1}, "fortunes": ["F14"]},
        {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 1}, "fortunes": ["F14", "F15"]},
        {"kind": "explore", "tile": "T02", "block_side": None},
        {"kind": "explore", "tile": None, "block_side": None},
    ]
    ordered = sorted(actions, key=sort_key)
    # E24: ["F14", "F15"] before ["F14"] before []; a string before null
    assert [a.get("fortunes") for a in ordered if a["kind"] == "job"] == [["F14", "F15"], ["F14"], []]
    assert [a["tile"] for a in ordered if a["kind"] == "explore"] == ["T02", None]
    assert sort_key(actions[0]) == json.dumps(actions[0], sort_keys=True)


def test_job_fortune_combinations_use_the_lowest_ids_of_each_design() -> None:
    from .replaying import golden, legal

    doc = golden("s11_job_fortunes")
    doc["start"]["players"]["ann"]["fortunes"] = ["F01", "F15", "F14", "F20", "F24"]
    doc["start"]["turn"]["hours"] = 9
    doc["steps"] = []
    jobs = [a for a in legal(doc, "ann")["actions"] if a["kind"] == "job" and a["card"] == "J03"]
    sets = {tuple(a["fortunes"]) for a in jobs}
    # inside man: 0, 1 (F14) or 2 (F14, F15); extra muscle 0/1; headline 0/1 -> 12 combinations, but only
    # those with at most 2 gangsters needed fit the 2 on h:0,1 (the ones with F20)
    assert sets == {tuple(sorted(("F20", *im, *hl))) for im in ((), ("F14",), ("F14", "F15")) for hl in ((), ("F24",))}
    assert all(a["from"] == {"h:0,1": 2} for a in jobs)
    fortunes = [a for a in legal(doc, "ann")["actions"] if a["kind"] == "fortune"]
    assert fortunes == [{"kind": "fortune", "card": "F01"}]
