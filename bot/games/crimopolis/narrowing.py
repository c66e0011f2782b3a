"""The options a member already filled in narrow the autocomplete of the others (commands.md: "computed ... from
the current state and the options already filled in"), whichever order they were filled in.

An option is compared as the command would read it (a block by any of its cells, `from` in any order); one that
cannot be read narrows nothing, since autocomplete is only a suggestion and the command checks it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .names import Names
from .notation import parse_fortunes, parse_sources, street_of_side


def canon(loc: str, n: Names) -> str:
    """A typed location as the rules name it: a block by its id (any of its cells), a street as typed."""
    loc = " ".join(loc.split())
    if loc[:2].lower() in ("h:", "v:"):
        return loc.lower()
    parts = loc.split(" ")
    if len(parts) == 2 and parts[1].upper() in ("N", "E", "S", "W"):
        return street_of_side(parts[0], parts[1])
    return n.block_of(loc)


def narrowed(
    actions: Sequence[dict[str, Any]],
    kind: str,
    filled: Mapping[str, str | None],
    n: Names,
    name_of: Callable[[str], str],
) -> Iterator[dict[str, Any]]:
    """The legal actions of `kind` that fit every option filled in (None or "": not filled)."""
    given = {k: str(v) for k, v in filled.items() if v not in (None, "")}
    for a in actions:
        if a["kind"] == kind and all(_fits(a, key, text, n, name_of) for key, text in given.items()):
            yield a


def _fits(a: dict[str, Any], key: str, text: str, n: Names, name_of: Callable[[str], str]) -> bool:
    try:
        if key == "card":
            return bool(a.get("card") == text.strip().upper())
        if key == "block":
            return bool(a.get("block") == canon(text, n))
        if key == "from" and a["kind"] == "move":
            return bool(a["from"] == canon(text, n))
        if key == "from":
            return bool(a.get("from") == parse_sources(text))
        if key == "to":
            return bool(a.get("to") == canon(text, n))
        if key == "count":
            return str(a.get("count")) == text.strip()
        if key == "fortunes":
            return bool(a.get("fortunes", []) == sorted(parse_fortunes(text)))
        if key == "target":
            return _aimed(a, text, n, name_of)
    except Exception:  # unreadable: narrows nothing
        return True
    return True


def _aimed(a: dict[str, Any], text: str, n: Names, name_of: Callable[[str], str]) -> bool:
    """A fortune's target as `/crimopolis fortune target` takes it: hq/safe_house, a block, a street, a player."""
    if "to" in a:
        return bool(a["to"] == text.strip().lower())
    if "block" in a:
        return bool(a["block"] == canon(text, n))
    if "street" in a:
        return bool(a["street"] == canon(text, n))
    if "target" in a:
        return text.strip() in (a["target"], name_of(a["target"]))
    return False  # a fortune that takes no target does not fit one
