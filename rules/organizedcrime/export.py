"""`export(record)`: a host's record as an `organizedcrime-replay/1` file that replays to what happened.

Players are named by `record.names` (made valid ids), dice and shuffles gathered from the chance outcomes
in order, actions in replay notation with player names; `HOST_END` is left out (the file replays to the
state at that moment, with `result` null).
"""

from __future__ import annotations

import re
from typing import Any

from ..contract import HOST_END, Record
from .content import DECKS, Content
from .replay import FORMAT

INVALID = re.compile(r"[^A-Za-z0-9_.-]")
PLAYER_FIELDS = ("to", "attack")
PIECE_FIELDS = ("piece",)
PIECE_LISTS = ("targets", "pieces")


def player_names(record: Record) -> dict[str, str]:
    """seat -> a valid, distinct player id built from the seat's name."""
    out: dict[str, str] = {}
    used: set[str] = {"treasury"}
    for seat in record.seats:
        base = INVALID.sub("_", str(record.names.get(seat) or seat))[:32] or INVALID.sub("_", seat)[:32] or "player"
        name, n = base, 1
        while name in used:
            n += 1
            suffix = f"_{n}"
            name = base[: 32 - len(suffix)] + suffix
        used.add(name)
        out[seat] = name
    return out


def _piece(value: Any, names: dict[str, str]) -> Any:
    if not isinstance(value, str) or ":" not in value:
        return value
    seat, num = value.rsplit(":", 1)
    return f"{names.get(seat, seat)}:{num}"


def rename(move: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    out = dict(move)
    for key in PLAYER_FIELDS:
        if isinstance(out.get(key), str):
            out[key] = names.get(out[key], out[key])
    for key in PIECE_FIELDS:
        if key in out:
            out[key] = _piece(out[key], names)
    if out.get("act") == "rub" and "target" in out:
        out["target"] = _piece(out["target"], names)
    for key in PIECE_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [_piece(v, names) for v in out[key]]
    return out


def export_record(c: Content, record: Record) -> dict[str, Any]:
    from .game import INFO

    names = player_names(record)
    settings = INFO.settings_from(dict(record.settings))
    dice: list[list[int]] = []
    shuffles: dict[str, list[list[str]]] = {d: [] for d in DECKS}
    outcomes = list(record.setup_chance) + [ch for entry in record.log for ch in entry.chance]
    for ch in outcomes:
        if "dice" in ch:
            dice.append(list(ch["dice"]))
        elif "shuffle" in ch:
            shuffles.setdefault(str(ch["shuffle"]), []).append(list(ch["order"]))
    actions: list[dict[str, Any]] = []
    for entry in record.log:
        for action in entry.actions:
            move = dict(action.move)
            if action.by is None:
                if move == dict(HOST_END):
                    continue
                actions.append({"act": "timeout"})
            else:
                actions.append({"by": names[action.by], **rename(move, names)})
    setup: dict[str, Any] = {}
    if settings["bases"]:
        setup["bases"] = {names[s]: b for s, b in settings["bases"].items()}
    if settings["first"]:
        setup["first"] = names[settings["first"]]
    doc: dict[str, Any] = {
        "format": FORMAT,
        "content": c.board_id,
        "players": [names[s] for s in record.seats],
        "options": {"ballots": settings["ballots"], "round_cap": settings["round_cap"] or None,
                    "auto_income": settings["auto_income"]},
        "dice": dice,
        "shuffles": shuffles,
        "actions": actions,
    }
    if setup:
        doc["setup"] = setup
    return doc
