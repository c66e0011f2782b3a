"""A random legal player for tests and `simulate`: every move it makes is legal, and it leans towards
what ends games (jobs, takeovers, recruiting, walking towards a block one of its jobs can use, and
ending the turn once the hours are spent), so that random games reach the bell."""

from __future__ import annotations

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
    move_actions,
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
    jobs = list(job_actions(c, s, p, touched))
    if jobs and rng.random() < 0.9:
        return rng.choice(jobs)
    entries = list(enter_actions(s, p, touched))
    takeovers = [a for a in entries if a["kind"] == "takeover"]
    if takeovers and rng.random() < 0.5:
        return rng.choice(takeovers)
    fortunes = list(fortune_actions(c, s, p))
    if fortunes and rng.random() < 0.2:
        return rng.choice(fortunes)
    if rng.random() < (0.7 if hours == 0 else 0.04):
        return {"kind": "end"}
    in_city = sum(n for who, n in s.gangsters.values() if who == p)
    recruits = list(recruit_actions(c, s, p))
    if recruits and in_city < 5 and rng.random() < 0.5:
        return rng.choice(recruits)
    occupies = [a for a in entries if a["kind"] == "occupy"]
    if occupies and rng.random() < 0.15:
        return rng.choice(occupies)
    moves = list(move_actions(s, p))
    if moves and rng.random() < 0.85:
        toward = _towards(c, s, p, moves)
        if toward and rng.random() < 0.75:
            return rng.choice(toward)
        return rng.choice(moves)
    others = list(card_actions(c, s, p))
    if others and rng.random() < 0.3:
        return rng.choice(others)
    return {"kind": "end"}


def _towards(c: Content, s: State, p: str, moves: list[Action]) -> list[Action]:
    """Moves that bring gangsters closer (in street steps) to a block where one of the player's jobs fits."""
    geo = s.geo
    targets: set[str] = set()
    locations = {c.jobs[j].location for j in s.pl[p].jobs}
    for bid, b in geo.blocks.items():
        if b.kind == "city" and locations.intersection(b.names) and not any(x in s.presence for x in b.cells):
            targets.update(b.streets)
    if not targets:
        # nothing fits yet: walk towards the frontier so that the city grows
        targets = {e for e, empty in geo.streets.items() if empty is not None}
    dist = {e: 0 for e in targets}
    frontier = list(targets)
    while frontier:
        nxt = []
        for e in frontier:
            for n in geo.adjacent[e]:
                if n not in dist:
                    dist[n] = dist[e] + 1
                    nxt.append(n)
        frontier = nxt
    far = len(dist) + 1

    def d(loc: str) -> int:
        if loc[0] in "hv":
            return dist.get(loc, far)
        return min((dist.get(e, far) for e in geo.blocks[loc].streets), default=far) + 1

    return [m for m in moves if m["to"][0] in "hv" and d(m["to"]) < d(m["from"])]
