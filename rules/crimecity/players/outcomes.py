"""What `python -m rules tournament` needs to host Crime City: each game's settings, the host's EC
ruling when the deciders disagree (Q42), and how each seat did (plain data: rules/players.py, not
this package, knows the tournament's types, so the game depends on the contract alone)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from random import Random
from typing import Any

from ...contract import JSON, Action
from ..game import EC, Match


def setup_for(settings: Mapping[str, JSON], secret: str) -> dict[str, JSON]:
    """The settings, with the previous match's order (the draft's tie-break) drawn from the game's secret:
    seat order must not decide the ties."""
    out = dict(settings)
    if not out.get("placements"):
        seats = [f"p{i}" for i in range(1, 6)]
        digest = hashlib.sha256(f"placements:{secret}".encode()).digest()
        Random(int.from_bytes(digest[:16], "big")).shuffle(seats)
        out["placements"] = seats
    return out


def settle(state: Any, rng: Random) -> Action | None:
    """When every decider has chosen and they disagree, the host picks among the players they chose
    (rulings Q42: the host decides); None otherwise."""
    match: Match = state
    if match.phase != EC or match.results is None:
        return None
    pending = match.results.get("ec_pending") or {}
    deciders = list(pending.get("deciders") or ())
    votes = [match.ec_votes.get(s) for s in deciders]
    if not deciders or None in votes or len(set(votes)) == 1:
        return None
    return Action(None, {"host": "ec", "player": rng.choice(sorted({v for v in votes if v is not None}))})


def outcomes(state: Any) -> dict[str, dict[str, Any]]:
    """Per seat: its role (the group), whether its goal completed, a ToL and the EC (rates), and its
    garnet award (an amount) (R84-R96)."""
    match: Match = state
    results = match.results or {}
    tol = set(results.get("tol") or ())
    awards = results.get("awards") or {}
    out = {}
    for seat in match.players:
        role = "none"
        done = False
        if match.game is not None:
            role = match.game.role(seat).value
            done = seat in match.game.completed
        out[seat] = {
            "group": role,
            "rates": {"goal": done, "ToL": seat in tol, "EC": match.ec == seat},
            "amounts": {"award": float(awards.get(seat, 0))},
        }
    return out
