"""The frames of rulings Part 4 (SF2, SF3, SF4) as replay files, and the short action notation of the tests."""

from __future__ import annotations

from typing import Any

DECK_IDS = {
    "power": [f"PW{i:02d}" for i in range(1, 25)],
    "official": [f"CO{i:02d}" for i in range(1, 16)],
    "mistake": [f"MK{i:02d}" for i in range(1, 13)],
    "penalty": [f"PN{i:02d}" for i in range(1, 13)],
}
BASES = {"green": 0, "yellow": 1, "white": 2, "red": 3}
SF2 = ("green", "yellow")
SF3 = ("green", "yellow", "white")
SF4 = ("green", "yellow", "white", "red")


def A(by: str | None, act: str, **fields: Any) -> dict[str, Any]:  # noqa: N802 - the notation of the tests
    out: dict[str, Any] = {} if by is None else {"by": by}
    out["act"] = act
    out.update(fields)
    return out


TIMEOUT = {"act": "timeout"}


def frame(
    players: tuple[str, ...] = SF3,
    start: dict[str, Any] | None = None,
    dice: list[list[int]] | None = None,
    actions: list[dict[str, Any]] | None = None,
    tops: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
    shuffles: dict[str, list[list[str]]] | None = None,
) -> dict[str, Any]:
    """A replay file in a frame: bases by colour, green first; each deck in id order (a `tops` card first)."""
    doc: dict[str, Any] = {"format": "organizedcrime-replay/1", "players": list(players)}
    if options:
        doc["options"] = options
    doc["setup"] = {"bases": {p: BASES[p] for p in players}, "first": "green"}
    doc["start"] = start if start is not None else {}
    order: dict[str, list[list[str]]] = {}
    for deck, ids in DECK_IDS.items():
        top = (tops or {}).get(deck)
        order[deck] = [([top] + [x for x in ids if x != top]) if top else list(ids)]
    order.update(shuffles or {})
    doc["shuffles"] = order
    doc["dice"] = dice or []
    doc["actions"] = actions or []
    return doc


def yellow_turn(turn: int = 2, **players: Any) -> dict[str, Any]:
    return {"turn": turn, "round": 1, "active": "yellow", "players": players}
