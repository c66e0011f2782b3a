"""Identifiers of Crimopolis (rulings Part 0): cells, street sections, sides, and their orders.

Cells are `"x,y"` (y grows to the south), street sections `"h:x,y"` (north edge of cell x,y) and
`"v:x,y"` (west edge). Decimal, `-` for negatives, no `+`, no spaces, no leading zeros.

    >>> parse_cell("-1,2"), parse_cell("01,2"), parse_cell("-0,0")
    ((-1, 2), None, None)
    >>> is_street("h:0,0"), is_street("0,0"), cell_key("1,-1") < cell_key("0,0")
    (True, False, True)
    >>> sorted(["h:10,0", "h:2,0", "h:-1,3"])  # E1: street ids compare as plain strings
    ['h:-1,3', 'h:10,0', 'h:2,0']
"""

from __future__ import annotations

import re
from typing import Final

SIDES: Final = ("N", "E", "S", "W")  # the side order of every "first ... in side order" rule
OPPOSITE: Final = {"N": "S", "E": "W", "S": "N", "W": "E"}
DELTA: Final = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
COLORS: Final = ("yellow", "green", "red", "blue", "black")  # seat 1 .. seat 5 (Q12)

_NUM = r"(0|-?[1-9][0-9]{0,17})"  # 18 digits are far beyond any city; longer ids name no cell of the game
_CELL = re.compile(rf"{_NUM},{_NUM}")
_LONG_NUM = r"(0|-?[1-9][0-9]*)"
_LONG_CELL = re.compile(rf"{_LONG_NUM},{_LONG_NUM}")


def parse_cell(text: object) -> tuple[int, int] | None:
    """(x, y) for a well-formed cell id of sane size, else None."""
    if not isinstance(text, str):
        return None
    m = _CELL.fullmatch(text)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2))


def is_cell(text: object) -> bool:
    """Whether `text` is a well-formed cell id (of any length)."""
    return isinstance(text, str) and _LONG_CELL.fullmatch(text) is not None


def is_street(text: object) -> bool:
    return isinstance(text, str) and len(text) > 2 and text[0] in "hv" and text[1] == ":" and is_cell(text[2:])


def cell_id(x: int, y: int) -> str:
    return f"{x},{y}"


def cell_key(cell: str) -> tuple[int, int]:
    """Cell order (rulings Part 0): by y, then by x. Only for cells of the city (sane size)."""
    xy = parse_cell(cell)
    assert xy is not None, cell
    return xy[1], xy[0]


def edge(x: int, y: int, side: str) -> str:
    """The street id of side `side` of cell (x, y) (Part 2)."""
    if side == "N":
        return f"h:{x},{y}"
    if side == "S":
        return f"h:{x},{y + 1}"
    if side == "W":
        return f"v:{x},{y}"
    return f"v:{x + 1},{y}"


def edge_cells(street: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells beside a street section: (north, south) for `h:`, (west, east) for `v:`."""
    xy = parse_cell(street[2:])
    assert xy is not None, street
    x, y = xy
    if street[0] == "h":
        return (x, y - 1), (x, y)
    return (x - 1, y), (x, y)


def edge_neighbours(street: str) -> tuple[str, ...]:
    """The candidate adjacent sections of Part 2 (existing or not), three at each end."""
    xy = parse_cell(street[2:])
    assert xy is not None, street
    x, y = xy
    if street[0] == "h":
        return (
            f"h:{x - 1},{y}",
            f"v:{x},{y - 1}",
            f"v:{x},{y}",
            f"h:{x + 1},{y}",
            f"v:{x + 1},{y - 1}",
            f"v:{x + 1},{y}",
        )
    return (
        f"v:{x},{y - 1}",
        f"h:{x - 1},{y}",
        f"h:{x},{y}",
        f"v:{x},{y + 1}",
        f"h:{x - 1},{y + 1}",
        f"h:{x},{y + 1}",
    )
