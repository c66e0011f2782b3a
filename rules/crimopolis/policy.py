"""A random legal player for tests and `simulate`: every move it makes is legal, and it leans towards
what ends games (jobs, takeovers, recruiting, walking towards a block one of its jobs can use, and
ending the turn once the hours are spent), so that random games reach the bell."""

from __future__ import annotations

from functools import lru_cache
from random import Random
from typing import Any

from .answers import answers
from .content import Content
from .legal import (
    blocks_touched,
    card_actions,
    enter_actions,
    fortune_actions,
    job_actions,
    move_steps,
    recruit_actions,
)
from .state import OVER, State

Action = dict[str, Any]


def random_move(c: Content, s: State, player: str, rng: Random) -> Action | None:
    if s.phase == OVER or s.pending is None or s.pending["player"] != player:
        return None
    kind = s.pending["kind"]
    if kind != "turn":
        options = answers(c, s)
        if kind == "react" and len(options) > 1 and rng.random() < 0.6:
            return options[1]
        if kind == "explore" and options[-1]["tile"] is None and len(options) > 1 and rng.random() < 0.7:
            return options[0]  # place the Safe House more often than not
        return rng.choice(options)
    return _turn(c, s, player, rng)


def _turn(c: Content, s: State, p: str, rng: Random) -> Action:
    hours = s.hours
    touched = blocks_touched(s, p)
    if touched:
        jobs = list(job_actions(c, s, p, touched))
        if jobs and rng.random() < 0.95:
            return rng.choice(jobs)
        takeovers = list(enter_actions(s, p, touched, only="takeover"))
        if takeovers and rng.random() < 0.5:
            return rng.choice(takeovers)
    if s.pl[p].fortunes and rng.random() < 0.3:
        fortunes = list(fortune_actions(c, s, p))
        if fortunes:
            return rng.choice(fortunes)
    if rng.random() < (0.85 if hours == 0 else 0.03):
        return {"kind": "end"}
    me = s.pl[p]
    if me.supply > 0 and hours >= 2 and rng.random() < 0.35:
        recruits = list(recruit_actions(c, s, p))
        if recruits:
            return rng.choice(recruits)
    # Listed only when drawn: an empty block next to a street of the player's always has an occupation.
    if hours >= 3 and any(block not in s.gangsters for block in touched) and rng.random() < 0.04:
        return rng.choice(list(enter_actions(s, p, touched, only="occupy")))
    if rng.random() < 0.9:
        moves = list(move_steps(s, p))
        if moves:
            toward = _towards(c, s, p, moves)
            if toward and rng.random() < 0.85:
                # keep groups together: the largest count the move allows, most of the time
                most = max(m[2] for m in toward)
                big = [m for m in toward if m[2] == most]
                return _move(rng.choice(big if rng.random() < 0.7 else toward))
            return _move(rng.choice(moves))
    if rng.random() < 0.3:
        others = list(card_actions(c, s, p))
        if others:
            return rng.choice(others)
    return {"kind": "end"}


@lru_cache(maxsize=4096)
def _point(loc: str) -> tuple[float, float]:
    """A location's middle on the grid (streets are edges, blocks are cells)."""
    head, _, rest = loc.partition(":")
    if not rest:
        x, y = loc.split(",")
        return int(x) + 0.5, int(y) + 0.5
    x, y = rest.split(",")
    return (int(x) + 0.5, float(y)) if head == "h" else (float(x), int(y) + 0.5)


def _move(step: tuple[str, str, int]) -> Action:
    return {"kind": "move", "from": step[0], "to": step[1], "count": step[2]}


def _towards(c: Content, s: State, p: str, moves: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """Moves that bring gangsters closer to a block where one of the player's jobs fits (or, when none
    does, to the frontier, so that the city grows)."""
    geo = s.geo
    locations = {c.jobs[j].location for j in s.pl[p].jobs}
    targets = [
        _point(bid)
        for bid, b in geo.blocks.items()
        if b.kind == "city" and locations.intersection(b.names) and not any(x in s.presence for x in b.cells)
    ]
    if not targets:
        frontier = sorted(e for e, empty in geo.streets.items() if empty is not None)
        targets = [_point(e) for e in frontier[:: max(1, len(frontier) // 8)]]
    if not targets:
        return []
    d = _distances(tuple(targets))
    streetward = [m for m in moves if m[1][0] in "hv"]
    for loc in {loc for m in streetward for loc in m[:2]}:
        if loc not in d:
            x, y = _point(loc)
            d[loc] = min([abs(x - tx) + abs(y - ty) for tx, ty in targets])
    return [m for m in streetward if d[m[1]] < d[m[0]]]


@lru_cache(maxsize=256)
def _distances(targets: tuple[tuple[float, float], ...]) -> dict[str, float]:
    """Location -> distance to the nearest of `targets`, filled as asked: the targets stay the same for
    most of a turn's decisions, and the distances depend on nothing else."""
    return {}
