"""Final scoring (R103, R106, R116, R117) and replay.md's `result`."""

from __future__ import annotations

from typing import Any

from .content import Content
from .state import State

BIG_BUSINESS = {2: 2, 3: 4}  # n >= 4: 7


def scores(c: Content, s: State) -> dict[str, dict[str, int]]:
    geo = s.geo
    small = dict.fromkeys(s.players, 0)
    large = dict.fromkeys(s.players, 0)
    on_streets = dict.fromkeys(s.players, 0)
    names: dict[str, dict[str, int]] = {p: {} for p in s.players}
    for loc, (p, n) in s.gangsters.items():
        if loc[0] in "hv":
            on_streets[p] += n
            continue
        b = geo.blocks[loc]
        if b.kind != "city":
            continue
        if b.large:
            large[p] += 1
        else:
            small[p] += 1
        for name in b.names:
            names[p][name] = names[p].get(name, 0) + 1
    top_bodies = max(s.pl[p].bodies for p in s.players)
    top_streets = max(on_streets.values())
    out: dict[str, dict[str, int]] = {}
    for p in s.players:
        me = s.pl[p]
        row = {
            "prestige": me.prestige,
            "small_blocks": small[p],
            "large_blocks": 3 * large[p],
            "bodies": me.bodies // 2,
            "most_bodies": 2 if top_bodies >= 1 and me.bodies == top_bodies else 0,
            "fortunes": sum(c.designs[f].endgame for f in me.fortunes),
            "streets": 2
            if s.opts.influence_on_the_streets and top_streets >= 1 and on_streets[p] == top_streets
            else 0,
            "big_business": 0,
        }
        if s.opts.big_business:
            row["big_business"] = sum(BIG_BUSINESS.get(n, 7 if n >= 4 else 0) for n in names[p].values())
        row["total"] = sum(row.values())
        out[p] = row
    return out


def result(c: Content, s: State) -> dict[str, Any] | None:
    if s.ended is None:
        return None
    table = scores(c, s)
    keys = sorted({(table[p]["total"], s.pl[p].bodies) for p in s.players}, reverse=True)
    ranking = [sorted(p for p in s.players if (table[p]["total"], s.pl[p].bodies) == k) for k in keys]
    return {"ended": s.ended, "scores": table, "ranking": ranking, "winners": list(ranking[0])}
