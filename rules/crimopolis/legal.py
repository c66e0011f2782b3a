"""Every legal action of a player (replay.md "Output of legal"), in canonical form and sorted by
`json.dumps(action, sort_keys=True)` (E24). The turn's actions are generated directly (for speed);
the tests check every listed action against `checks.check` and look for legal ones missing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import product
from typing import Any

from .answers import answers
from .content import Content
from .engine import effective
from .state import OVER, State

Action = dict[str, Any]


def sort_key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


def legal_actions(c: Content, s: State, player: str) -> list[Action]:
    """[] unless `player` decides now."""
    if s.phase == OVER or s.pending is None or s.pending["player"] != player:
        return []
    if s.pending["kind"] != "turn":
        out = answers(c, s)
    else:
        out = list(turn_actions(c, s, player))
    return sorted(out, key=sort_key)


def distributions(caps: list[tuple[str, int]], low: int, high: int) -> Iterator[dict[str, int]]:
    """Every {street: k >= 1} over `caps` (street, most available) with a total in [low, high]."""
    if high < 1 or low > sum(n for _, n in caps):
        return
    ranges = [range(0, n + 1) for _, n in caps]
    for combo in product(*ranges):
        total = sum(combo)
        if low <= total <= high:
            yield {street: k for (street, _), k in zip(caps, combo, strict=True) if k}


def turn_actions(c: Content, s: State, p: str) -> Iterator[Action]:
    yield {"kind": "end"}
    yield from recruit_actions(c, s, p)
    yield from move_actions(s, p)
    touched = blocks_touched(s, p)
    yield from enter_actions(s, p, touched)
    yield from job_actions(c, s, p, touched)
    yield from card_actions(c, s, p)
    yield from fortune_actions(c, s, p)


def recruit_actions(c: Content, s: State, p: str) -> Iterator[Action]:
    geo = s.geo
    if s.pl[p].supply > 0 and s.hours >= 2:
        for to, tile in (("hq", c.hq(s.color(p))), ("safe_house", c.safe_house(s.color(p)))):
            cell = geo.cell_of_tile.get(tile)
            if cell is not None and s.total(geo.block_of[cell]) < 3:
                yield {"kind": "recruit", "to": to}


def move_actions(s: State, p: str) -> Iterator[Action]:
    for loc, dst, k in move_steps(s, p):
        yield {"kind": "move", "from": loc, "to": dst, "count": k}


def move_steps(s: State, p: str) -> Iterator[tuple[str, str, int]]:
    """(from, to, count) of every legal move, in `move_actions`' order (the random player draws from these)."""
    geo = s.geo
    hours = s.hours
    for loc, (who, n) in sorted(s.gangsters.items()):  # sorted: the same order after decode_state
        if who != p:
            continue
        if loc[0] in "hv":
            for dst in geo.adjacent[loc]:
                room = 3 - s.total(dst)
                if room <= 0 or (hours < 1 and not s.count(dst, p)):
                    continue
                for k in range(1, min(3, n, room) + 1):
                    yield loc, dst, k
            for dst in geo.street_blocks.get(loc, ()):
                b = geo.blocks[dst]
                if b.kind == "city":
                    if s.count(dst, p) == 0:
                        continue
                elif s.owner_of_color(b.color) != p:
                    continue
                room = 3 - s.count(dst, p)
                for k in range(1, min(3, n, room) + 1):
                    yield loc, dst, k
        else:
            for dst in geo.blocks[loc].streets:
                room = 3 - s.total(dst)
                if room <= 0 or (hours < 1 and not s.count(dst, p)):
                    continue
                for k in range(1, min(3, n, room) + 1):
                    yield loc, dst, k


def blocks_touched(s: State, p: str) -> dict[str, list[tuple[str, int]]]:
    """City blocks next to the player's street gangsters: block -> [(street, count)] in street order."""
    geo = s.geo
    touched: dict[str, list[tuple[str, int]]] = {}
    for street, (who, n) in sorted(s.gangsters.items()):
        if who != p or street[0] not in "hv":
            continue
        for block in geo.street_blocks.get(street, ()):
            if geo.blocks[block].kind == "city":
                touched.setdefault(block, []).append((street, n))
    for caps in touched.values():
        caps.sort()
    return touched


def enter_actions(
    s: State, p: str, touched: dict[str, list[tuple[str, int]]], only: str | None = None
) -> Iterator[Action]:
    """Occupations and takeovers, block by block; `only` one of the two kinds (in the same order)."""
    if s.hours < 3:
        return
    for block, caps in touched.items():
        held = s.gangsters.get(block)
        if held is None:
            if only != "takeover":
                for src in distributions(caps, 1, 3):
                    yield {"kind": "occupy", "block": block, "from": src}
        elif held[0] != p and only != "occupy":
            for src in distributions(caps, held[1] + 1, held[1] + 3):
                yield {"kind": "takeover", "block": block, "from": src}


def card_actions(c: Content, s: State, p: str) -> Iterator[Action]:
    me = s.pl[p]
    if s.hours >= 3:
        for card in dict.fromkeys(me.jobs):
            yield {"kind": "abort", "card": card}
    if s.hours >= 2 and s.decks["fortunes"]:
        yield {"kind": "invest"}
    if len(me.jobs) == 2 and c.jobs[me.jobs[0]].location == c.jobs[me.jobs[1]].location:
        yield {"kind": "redraw"}


def _job_fortune_sets(c: Content, s: State, p: str) -> list[list[str]]:
    by_design: dict[str, list[str]] = {}
    for card in sorted(s.pl[p].fortunes):
        d = c.designs[card]
        if d.timing == "job":
            by_design.setdefault(d.id, []).append(card)
    choices = [[cards[:j] for j in range(len(cards) + 1)] for cards in by_design.values()]
    return [sorted(f for part in combo for f in part) for combo in product(*choices)]


def job_actions(c: Content, s: State, p: str, touched: dict[str, list[tuple[str, int]]]) -> Iterator[Action]:
    geo = s.geo
    cards = list(dict.fromkeys(s.pl[p].jobs))
    if not cards:
        return
    sets: list[list[str]] | None = None
    for block, caps in touched.items():
        b = geo.blocks[block]
        if any(cell in s.presence for cell in b.cells):
            continue
        held = s.gangsters.get(block)
        d = held[1] if held is not None and held[0] != p else 0
        for card in cards:
            if c.jobs[card].location not in b.names:
                continue
            if sets is None:
                sets = _job_fortune_sets(c, s, p)
            for fortunes in sets:
                g, h, _ = effective(c, card, fortunes)
                if h > s.hours:
                    continue
                for src in distributions(caps, g + d, max(3, g) + d):
                    yield {"kind": "job", "card": card, "block": block, "from": src, "fortunes": fortunes}


def fortune_actions(c: Content, s: State, p: str) -> Iterator[Action]:
    geo = s.geo
    seen: set[str] = set()
    for card in sorted(s.pl[p].fortunes):
        d = c.designs[card]
        if d.timing != "turn" or d.id in seen:
            continue
        seen.add(d.id)
        kind = d.effect.kind
        base: Action = {"kind": "fortune", "card": card}
        if kind == "recruit":
            if s.pl[p].supply <= 0:
                continue
            for to, tile in (("hq", c.hq(s.color(p))), ("safe_house", c.safe_house(s.color(p)))):
                cell = geo.cell_of_tile.get(tile)
                if cell is not None and s.total(geo.block_of[cell]) < 3:
                    yield {**base, "to": to}
        elif kind == "bomb":
            for block, (who, _) in sorted(s.gangsters.items()):
                if who == p or block[0] in "hv":
                    continue
                if any(s.count(st, p) for st in geo.blocks[block].streets):
                    yield {**base, "block": block}
        elif kind == "hit":
            for street, (who, _) in sorted(s.gangsters.items()):
                if who == p or street[0] not in "hv":
                    continue
                if any(s.count(st, p) for st in geo.adjacent[street]):
                    yield {**base, "street": street}
        elif d.target == "chosen_other":
            for q in s.players:
                if q != p:
                    yield {**base, "target": q}
        else:
            yield base
