"""A game moved onto the bot mid-way: a replay file (replay.md) played to its last round, its players
renamed to seats, so the game continues from the next round (`/crimecity admin import`).

>>> doc = {"players": ["a", "b", "c", "d", "e"], "seats": {
...     "a": {"character": "detective", "role": "pickpocket"}, "b": {"character": "banker", "role": "mob_boss"},
...     "c": {"character": "secretary", "role": "hitman"}, "d": {"character": "governor", "role": "bank_robber"},
...     "e": {"character": "armed_guard", "role": "fraud"}}, "rounds": [{}]}
>>> h = handover(doc, ("p1", "p2", "p3", "p4", "p5"))
>>> h.state.round, h.state.players[0], h.rounds_played
(2, 'p1', 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .replay import _initial, _play
from .replay_format import FormatError, parse_replay
from .state import GameState

KEYED = ("garnets", "draft", "seats")  # top-level maps keyed by player
START_KEYED = ("cooldowns", "progress", "completed")


@dataclass(frozen=True, slots=True)
class Handover:
    state: GameState  # after the file's last round, players renamed to seats
    garnets: dict[str, int]  # the file's starting balances (before any bid)
    placements: tuple[str, ...]  # the draft's tie-break as the file gives it (complete)
    draft: dict[str, Any]  # what the draft left: priority, unassigned, balances after bids, who submitted
    learned: dict[str, list[dict[str, Any]]]  # per seat, the private results of the file's rounds, in order
    rounds_played: int  # rounds the file lists


def players_of(doc: Any) -> list[str]:
    """The file's players (in its order), once the whole file is known to be valid and unfinished:
    FormatError naming the field otherwise."""
    state, _ = _play(doc)
    if state.over:
        raise FormatError(f"rounds: the game in this file is over (after round {state.round}); nothing is left to play")
    return list(parse_replay(doc).players)


def handover(doc: Any, seats: Sequence[str]) -> Handover:
    """The file played to its last round with its players (in order) renamed to `seats`."""
    names = players_of(doc)
    if len(seats) != len(names):
        raise FormatError(f"players: the file has {len(names)} players for {len(seats)} seats")
    renamed = rename_doc(doc, dict(zip(names, seats, strict=True)))
    inp, _, draft_out = _initial(renamed)
    state, out = _play(renamed)
    learned: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    for rnd in out["rounds"]:
        for seat, entries in rnd["private"].items():
            learned[seat].extend({**e, "round": rnd["round"]} for e in entries)
    draft = {
        "priority": list(draft_out["priority"]) if draft_out else [],
        "unassigned": [c.value for c in state.unassigned],
        "garnets": dict(draft_out["garnets"]) if draft_out else dict(inp.garnets),
        "placements": list(inp.placements or inp.players),
        "submitted": sorted(inp.draft or ()),
    }
    return Handover(state, dict(inp.garnets), tuple(inp.placements or inp.players), draft, learned, len(inp.rounds))


def rename_doc(doc: Mapping[str, Any], mapping: Mapping[str, str]) -> dict[str, Any]:
    """A (valid) replay file with its player names replaced: every key and value that names a player.

    >>> doc = rename_doc({"players": ["a", "b"], "garnets": {"a": 3}, "rounds": [{"a": {"actions": [
    ...     {"kind": "ability", "player": "b"}]}, "b": None}]}, {"a": "x", "b": "y"})
    >>> doc["players"], doc["garnets"], doc["rounds"]
    (['x', 'y'], {'x': 3}, [{'x': {'actions': [{'kind': 'ability', 'player': 'y'}]}, 'y': None}])
    """

    def nm(p: Any) -> Any:
        return mapping.get(p, p) if isinstance(p, str) else p

    def keyed(m: Any) -> Any:
        return {nm(k): v for k, v in m.items()} if isinstance(m, dict) else m

    out = dict(doc)
    if isinstance(out.get("players"), list):
        out["players"] = [nm(p) for p in out["players"]]
    if isinstance(out.get("placements"), list):
        out["placements"] = [nm(p) for p in out["placements"]]
    for key in KEYED:
        if key in out:
            out[key] = keyed(out[key])
    if isinstance(out.get("start"), dict):
        out["start"] = {k: keyed(v) if k in START_KEYED else v for k, v in out["start"].items()}
    if isinstance(out.get("rounds"), list):
        out["rounds"] = [
            {nm(p): _renamed_submission(s, nm) for p, s in r.items()} if isinstance(r, dict) else r
            for r in out["rounds"]
        ]
    return out


def _renamed_submission(sub: Any, nm: Any) -> Any:
    if not isinstance(sub, dict) or not isinstance(sub.get("actions"), list):
        return sub
    actions = [{**a, "player": nm(a["player"])} if isinstance(a, dict) and "player" in a else a for a in sub["actions"]]
    return {**sub, "actions": actions}
