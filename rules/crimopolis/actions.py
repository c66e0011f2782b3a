"""Actions in the replay's JSON form (replay.md "Actions"), in two layers:

- `read_action`: what cannot be read at all is a format error naming the field (a wrong JSON type, an
  unknown kind, an id that does not parse or names nothing in the pack or the game), E10;
- `malformed`: a missing or extra field or a value out of range is the refusal `malformed` (code 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..contract import FormatError
from .content import Content
from .ids import SIDES, is_cell, is_street

TURN_KINDS: Final = ("recruit", "move", "occupy", "takeover", "job", "abort", "invest", "fortune", "redraw", "end")
ANSWERS: Final = {
    "setup_hq": ("place_hq",),
    "setup_tile": ("setup_tile",),
    "turn": TURN_KINDS,
    "explore": ("explore",),
    "keep": ("keep",),
    "target": ("target",),
    "react": ("react",),
    "destiny": ("destiny",),
}
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "place_hq": ("cell",),
    "setup_tile": ("tile", "cell", "block_side"),
    "recruit": ("to",),
    "move": ("from", "to", "count"),
    "occupy": ("block", "from"),
    "takeover": ("block", "from"),
    "job": ("card", "block", "from", "fortunes"),
    "abort": ("card",),
    "keep": ("card",),
    "invest": (),
    "fortune": ("card", "to", "block", "street", "target"),
    "redraw": (),
    "end": (),
    "explore": ("tile", "block_side"),
    "target": ("player",),
    "react": ("card",),
    "destiny": ("card",),
    "timeout": (),
}
OPTIONAL: Final = {("setup_tile", "block_side"), ("job", "fortunes"), ("explore", "block_side")}
PARAMS: Final = ("to", "block", "street", "target")


class ActionError(FormatError):
    pass


def _what(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return f"{value!r:.60}"
    return "a list" if isinstance(value, list) else "an object"


def read_action(c: Content, players: Sequence[str], doc: Any, at: str) -> dict[str, Any]:
    """The action as given, once every field the kind can have has the right type; else ActionError."""
    if not isinstance(doc, dict):
        raise ActionError(f"{at}: an action is an object, not {_what(doc)}")
    kind = doc.get("kind")
    if "kind" not in doc:
        raise ActionError(f"{at}.kind: missing")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ActionError(f"{at}.kind: unknown action kind {_what(kind)}")
    for key in FIELDS[kind]:
        if key in doc:
            _check_field(c, players, kind, key, doc[key], f"{at}.{key}")
    return dict(doc)


def _check_field(c: Content, players: Sequence[str], kind: str, key: str, value: Any, at: str) -> None:
    def fail(why: str) -> ActionError:
        return ActionError(f"{at}: {why}")

    if key == "cell":
        if not is_cell(value):
            raise fail(f"not a cell id ({_what(value)})")
    elif key == "tile":
        if value is None and kind == "explore":
            return
        if not isinstance(value, str):
            raise fail(f"not a tile id ({_what(value)})")
        if value not in c.tiles:
            raise fail(f"unknown tile {value!r}")
        color = c.tiles[value].color
        if color is not None and color not in c.colors[: len(players)]:
            raise fail(f"{value} is not in this game (its colour has no player, R2)")
    elif key == "block_side":
        if value is not None and value not in SIDES:
            raise fail(f"not a side (N, E, S, W or null): {_what(value)}")
    elif key in ("to", "from") and kind == "move":
        if not (is_cell(value) or is_street(value)):
            raise fail(f"not a street id or a cell ({_what(value)})")
    elif key == "to":
        if not isinstance(value, str):
            raise fail(f"not a string ({_what(value)})")
    elif key == "from":
        if not isinstance(value, dict):
            raise fail(f"not an object of street sections and counts ({_what(value)})")
        for street, n in value.items():
            if not (is_cell(street) or is_street(street)):
                raise ActionError(f"{at}.{street}: not a street id ({_what(street)})")
            if isinstance(n, bool) or not isinstance(n, int):
                raise ActionError(f"{at}.{street}: not an integer ({_what(n)})")
    elif key == "count":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"not an integer ({_what(value)})")
    elif key in ("block", "street"):
        if not (is_cell(value) or is_street(value)):
            raise fail(f"not a cell or a street id ({_what(value)})")
    elif key == "card":
        if value is None and kind == "react":
            return
        if not isinstance(value, str):
            raise fail(f"not a card id ({_what(value)})")
        family = {"job": "jobs", "abort": "jobs", "keep": "jobs", "fortune": "fortunes", "react": "fortunes"}.get(kind)
        if not c.is_card(value):
            raise fail(f"unknown card {value!r}")
        deck = c.deck_of(value)
        if family is not None and deck != family:  # a destiny's card is any card (replay.md: "card")
            raise fail(f"{value} is not one of the {family}")
    elif key == "fortunes":
        if not isinstance(value, list):
            raise fail(f"not a list of fortune ids ({_what(value)})")
        for i, card in enumerate(value):
            if not isinstance(card, str) or not c.is_card(card) or c.deck_of(card) != "fortunes":
                raise ActionError(f"{at}[{i}]: not a fortune id ({_what(card)})")
    elif key in ("target", "player"):
        if not isinstance(value, str) or value not in players:
            raise fail(f"not a player of this game ({_what(value)})")


def malformed(c: Content, a: Mapping[str, Any], canonical: Any) -> str | None:
    """Why the action is `malformed` (replay.md Refusals 4), or None. `canonical(loc)` names blocks by id."""
    kind = a["kind"]
    fields = FIELDS[kind]
    for key in a:
        if key != "kind" and key not in fields:
            return f"a {kind} action has no field {key!r}"
    for key in fields:
        if key not in a and (kind, key) not in OPTIONAL and not (kind == "fortune" and key in PARAMS):
            return f"a {kind} action needs the field {key!r}"
    if kind == "recruit" and a["to"] not in ("hq", "safe_house"):
        return "recruit goes to 'hq' or 'safe_house'"
    if kind == "move":
        if not 1 <= a["count"] <= 3:
            return "a move takes 1, 2 or 3 gangsters (R44)"
        if canonical(a["from"]) == canonical(a["to"]):
            return "a move goes somewhere else"
    if kind in ("occupy", "takeover", "job"):
        if is_street(a["block"]):
            return "block: a block is named by a cell, not a street section"
        why = _sources(a["from"])
        if why:
            return why
    if kind == "job":
        fortunes = a.get("fortunes") or []
        if len(set(fortunes)) != len(fortunes):
            return "fortunes: the same fortune is listed twice"
    if kind in ("setup_tile", "explore"):
        tile = a["tile"]
        side = a.get("block_side")
        if tile is not None and c.tiles[tile].streets == 3:
            if side is None:
                return "block_side: a 3-street tile needs its block side"
        elif side is not None:
            return "block_side: only a 3-street tile has a block side"
    if kind == "fortune":
        return _fortune_params(c, a)
    return None


def _sources(sources: Mapping[str, Any]) -> str | None:
    if not sources:
        return "from: name at least one street section"
    for street, n in sources.items():
        if not is_street(street):
            return f"from: {street} is a cell, not a street section"
        if n < 1:
            return f"from: {street} must give at least 1 gangster"
    return None


def needed_params(c: Content, card: str) -> tuple[str, ...]:
    """The parameters a played fortune takes (rulings 6.2)."""
    d = c.designs[card]
    out = []
    if d.effect.kind == "recruit" and d.timing == "turn":
        out.append("to")
    if d.effect.kind == "bomb":
        out.append("block")
    if d.effect.kind == "hit":
        out.append("street")
    if d.target == "chosen_other":
        out.append("target")
    return tuple(out)


def _fortune_params(c: Content, a: Mapping[str, Any]) -> str | None:
    need = needed_params(c, a["card"])
    for key in PARAMS:
        if key in need and key not in a:
            return f"this fortune needs the field {key!r}"
        if key not in need and key in a:
            return f"this fortune takes no {key!r}"
    if "to" in a and a["to"] not in ("hq", "safe_house"):
        return "to: 'hq' or 'safe_house'"
    if "block" in a and is_street(a["block"]):
        return "block: a block is named by a cell, not a street section"
    if "street" in a and not is_street(a["street"]):
        return "street: a street section, not a cell"
    return None
