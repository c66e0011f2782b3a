"""The options already filled in narrow the other options' autocomplete (commands.md), as the command reads them."""

from __future__ import annotations

from typing import Any

from bot.games.crimopolis.narrowing import narrowed


class _Names:
    """A block is named by its id here; the real Names finds it from any of its cells."""

    def block_of(self, loc: str) -> str:
        return loc


N: Any = _Names()


def _name(seat: str) -> str:
    return {"ann": "Ann", "ben": "Ben"}[seat]


def picked(actions: list[dict[str, Any]], kind: str, **filled: str | None) -> list[dict[str, Any]]:
    return list(narrowed(actions, kind, {k.rstrip("_"): v for k, v in filled.items()}, N, _name))


MOVES = [
    {"kind": "move", "from": "0,0", "to": "h:0,0", "count": 1},
    {"kind": "move", "from": "0,0", "to": "h:0,0", "count": 2},
    {"kind": "move", "from": "0,0", "to": "v:1,0", "count": 1},
    {"kind": "move", "from": "1,1", "to": "v:1,0", "count": 3},
]
JOBS = [
    {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 2, "v:1,1": 1}, "fortunes": []},
    {"kind": "job", "card": "J01", "block": "0,1", "from": {"h:0,1": 2, "v:1,1": 1}, "fortunes": ["F14", "F20"]},
    {"kind": "job", "card": "J02", "block": "0,1", "from": {"h:0,1": 3}, "fortunes": []},
    {"kind": "job", "card": "J03", "block": "2,2", "from": {"h:2,2": 1}, "fortunes": []},
    {"kind": "occupy", "block": "0,1", "from": {"h:0,1": 1}},
]
FORTUNES = [
    {"kind": "fortune", "card": "F01", "target": "ben"},
    {"kind": "fortune", "card": "F02", "block": "0,1"},
    {"kind": "fortune", "card": "F03", "to": "hq"},
    {"kind": "fortune", "card": "F04"},
]


def test_a_move_is_narrowed_by_each_option_filled_in() -> None:
    assert [a["to"] for a in picked(MOVES, "move", count="3")] == ["v:1,0"]
    assert [a["from"] for a in picked(MOVES, "move", to="V:1,0", count="1")] == ["0,0"]  # a street in any case
    assert [a["count"] for a in picked(MOVES, "move", from_="0,0", to="h:0,0")] == [1, 2]
    assert picked(MOVES, "move", from_=None, to="", count=None) == MOVES  # nothing filled in


def test_a_job_is_narrowed_by_its_block_sources_and_fortunes() -> None:
    assert [a["card"] for a in picked(JOBS, "job", from_="v:1,1=1 h:0,1=2")] == ["J01", "J01"]  # any order
    assert [a["fortunes"] for a in picked(JOBS, "job", card="j01", fortunes="none")] == [[]]
    assert [a["fortunes"] for a in picked(JOBS, "job", fortunes="F20, F14")] == [["F14", "F20"]]
    assert [a["card"] for a in picked(JOBS, "job", block="0,1", fortunes="none")] == ["J01", "J02"]
    assert [a["block"] for a in picked(JOBS, "occupy", from_="h:0,1=1")] == ["0,1"]
    assert len(picked(JOBS, "job", fortunes="F99 ???")) == 4, "an option that cannot be read narrows nothing"


def test_a_fortune_is_narrowed_by_its_target() -> None:
    assert [a["card"] for a in picked(FORTUNES, "fortune", target="Ben")] == ["F01"]  # by the member's name
    assert [a["card"] for a in picked(FORTUNES, "fortune", target="ben")] == ["F01"]  # or the seat's
    assert [a["card"] for a in picked(FORTUNES, "fortune", target="0,1")] == ["F02"]
    assert [a["card"] for a in picked(FORTUNES, "fortune", target="HQ")] == ["F03"]
    assert [a["card"] for a in picked(FORTUNES, "fortune")] == ["F01", "F02", "F03", "F04"]
