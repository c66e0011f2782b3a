"""The action notation of commands.md ("Writing an action"), to and from replay.md's action objects.

`parse` reads what a player typed (any case; cells `x,y`, street sections `h:x,y` / `v:x,y` or `x,y N|E|S|W`,
cards and tiles by id, players by name or mention) into the replay's JSON form; `format_action` writes the
canonical value every autocomplete choice and panel option carries. Legality is the rules' business: a parsed
action may still be refused.

    >>> parse("move 0,0 0,0 N 2", lambda name: None)
    {'kind': 'move', 'from': '0,0', 'to': 'h:0,0', 'count': 2}
    >>> parse("JOB j03 at 0,1 from h:0,1=2 with f14 F20", lambda name: None)["fortunes"]
    ['F14', 'F20']
    >>> format_action({"kind": "occupy", "block": "0,1", "from": {"h:0,1": 1, "v:1,1": 2}}, str)
    'occupy 0,1 from h:0,1=1 v:1,1=2'
    >>> format_action({"kind": "explore", "tile": None, "block_side": None}, str)
    'explore nothing'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rules.contract import ParseError
from rules.crimopolis.ids import SIDES, edge, is_cell, is_street, parse_cell

Lookup = Callable[[str], str | None]  # a typed player name or mention -> a seat, or None
Name = Callable[[str], str]  # a seat -> its shown name

_CARD = re.compile(r"^[jnf]\d{2}$", re.IGNORECASE)
_TILE = re.compile(r"^(t\d{2}|hq_[a-z]+|sh_[a-z]+)$", re.IGNORECASE)
_SOURCE = re.compile(r"^(?P<street>[hv]:-?\d+,-?\d+)=(?P<n>\d+)$", re.IGNORECASE)
_SIDE_SOURCE = re.compile(r"^(?P<side>[nesw])=(?P<n>\d+)$", re.IGNORECASE)
WORDS: tuple[str, ...] = ("place", "recruit", "move", "occupy", "takeover", "job", "abort", "keep", "invest")
WORDS += ("fortune", "redraw", "end", "explore", "target", "react", "destiny")


def card_id(text: str) -> str:
    if not _CARD.match(text):
        raise ParseError(f"{text!r} is not a card id (J01-J48, N01-N42, F01-F48)")
    return text.upper()


def tile_id(text: str) -> str:
    if not _TILE.match(text):
        raise ParseError(f"{text!r} is not a tile id (T01-T48, hq_<colour>, sh_<colour>)")
    return text.upper() if text[0] in "tT" else text.lower()


def side_of(text: str) -> str:
    if text.upper() not in SIDES:
        raise ParseError(f"{text!r} is not a side (N, E, S or W)")
    return text.upper()


def cell_of(text: str) -> str:
    if not is_cell(text):
        raise ParseError(f"{text!r} is not a cell (x,y)")
    return text


def street_of_side(cell: str, side: str) -> str:
    xy = parse_cell(cell)
    if xy is None:
        raise ParseError(f"{cell!r} is not a cell (x,y)")
    return edge(xy[0], xy[1], side_of(side))


class _Tokens:
    def __init__(self, text: str) -> None:
        self.items = text.replace(",", " , ").split()
        # Re-join "x , y" the split above made, so cells survive stray spaces ("0, 1").
        joined: list[str] = []
        for tok in self.items:
            if joined and (tok == "," or joined[-1].endswith(",")):
                joined[-1] += tok
            else:
                joined.append(tok)
        self.items = joined
        self.i = 0

    def peek(self) -> str | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def take(self, what: str) -> str:
        tok = self.peek()
        if tok is None:
            raise ParseError(f"missing {what}")
        self.i += 1
        return tok

    def rest(self) -> str:
        out = " ".join(self.items[self.i :])
        self.i = len(self.items)
        return out

    def done(self) -> None:
        if self.peek() is not None:
            raise ParseError(f"unexpected {' '.join(self.items[self.i :])!r} at the end")


def _location(t: _Tokens, what: str) -> str:
    """A street id, a cell, or a cell and a side (the street on that side of the cell)."""
    tok = t.take(what)
    low = tok.lower()
    if is_street(low):
        return low
    cell = cell_of(tok)
    nxt = t.peek()
    if nxt is not None and nxt.upper() in SIDES:
        t.take("a side")
        return street_of_side(cell, nxt)
    return cell


def _sources(t: _Tokens) -> dict[str, int]:
    """`STREET=N ...` (or `x,y SIDE=N`) until `with` or the end."""
    out: dict[str, int] = {}
    while (tok := t.peek()) is not None and tok.lower() != "with":
        t.take("a street section")
        m = _SOURCE.match(tok)
        if m is not None:
            street, n = m["street"].lower(), int(m["n"])
        elif is_cell(tok) and (nxt := t.peek()) is not None and (s := _SIDE_SOURCE.match(nxt)):
            t.take("a side")
            street, n = street_of_side(tok, s["side"]), int(s["n"])
        else:
            raise ParseError(f"{tok!r} is not STREET=N (e.g. h:0,1=2)")
        if street in out:
            raise ParseError(f"{street} is named twice")
        out[street] = n
    if not out:
        raise ParseError("name at least one street section, e.g. from h:0,1=2")
    return out


def parse_sources(text: str) -> dict[str, int]:
    """The `from` option: `h:0,1=2 v:1,1=1` (also `0,1 N=2`)."""
    t = _Tokens(text.removeprefix("from ").strip())
    out = _sources(t)
    t.done()
    return out


def parse_fortunes(text: str | None) -> list[str]:
    """The `fortunes` option: `F14 F20` (commas allowed); empty or `none` for none."""
    if text is None or text.strip().lower() in ("", "none", "-"):
        return []
    cards = [card_id(x) for x in text.replace(",", " ").split()]
    return cards


def parse(text: str, lookup: Lookup) -> dict[str, Any]:
    """One action in commands.md's notation, as replay.md's action object."""
    t = _Tokens(text.strip())
    word = t.take("an action").lower()
    action: dict[str, Any]
    if word == "place":
        what = t.take("hq or a tile")
        if what.lower() == "hq":
            action = {"kind": "place_hq", "cell": cell_of(t.take("a cell"))}
        else:
            tile, cell = tile_id(what), cell_of(t.take("a cell"))
            side = side_of(t.take("a side")) if t.peek() is not None else None
            action = {"kind": "setup_tile", "tile": tile, "cell": cell, "block_side": side}
    elif word == "recruit":
        to = t.take("hq or safe_house").lower().replace(" ", "_")
        if to not in ("hq", "safe_house"):
            raise ParseError("recruit hq or recruit safe_house")
        action = {"kind": "recruit", "to": to}
    elif word == "move":
        src = _location(t, "where from")
        dst = _location(t, "where to")
        count = t.take("a count")
        if not count.isdigit():
            raise ParseError(f"{count!r} is not a count (1, 2 or 3)")
        action = {"kind": "move", "from": src, "to": dst, "count": int(count)}
    elif word in ("occupy", "takeover"):
        block = _location(t, "a block")
        if t.take("from").lower() != "from":
            raise ParseError(f"{word} BLOCK from STREET=N ...")
        action = {"kind": word, "block": block, "from": _sources(t)}
    elif word == "job":
        card = card_id(t.take("a job card"))
        if t.take("at").lower() != "at":
            raise ParseError("job CARD at BLOCK from STREET=N ... [with FORTUNE ...]")
        block = _location(t, "a block")
        if t.take("from").lower() != "from":
            raise ParseError("job CARD at BLOCK from STREET=N ... [with FORTUNE ...]")
        sources = _sources(t)
        fortunes: list[str] = []
        if t.peek() is not None and t.take("with").lower() == "with":
            fortunes = parse_fortunes(t.rest())
        action = {"kind": "job", "card": card, "block": block, "from": sources, "fortunes": fortunes}
    elif word in ("abort", "keep", "destiny"):
        action = {"kind": word, "card": card_id(t.take("a card"))}
    elif word in ("invest", "redraw", "end"):
        action = {"kind": word}
    elif word == "fortune":
        action = {"kind": "fortune", "card": card_id(t.take("a fortune card"))}
        t.rest()
        param = _after(text, 2)
        if param:
            action["param"] = param  # which field it fills depends on the card: see `with_param`
    elif word == "explore":
        what = t.take("a tile or nothing")
        if what.lower() == "nothing":
            action = {"kind": "explore", "tile": None, "block_side": None}
        else:
            side = side_of(t.take("a side")) if t.peek() is not None else None
            action = {"kind": "explore", "tile": tile_id(what), "block_side": side}
    elif word == "target":
        t.rest()
        action = {"kind": "target", "player": _player(_after(text, 1), lookup)}
    elif word == "react":
        what = t.take("a card or none")
        action = {"kind": "react", "card": None if what.lower() in ("none", "nothing") else card_id(what)}
    else:
        raise ParseError(f"{word!r} is not an action; start with one of: {', '.join(WORDS)}")
    t.done()
    return action


def _after(text: str, words: int) -> str:
    """What follows the first `words` words, as typed (a player's name may hold spaces and commas)."""
    parts = text.strip().split(None, words)
    return parts[words].strip() if len(parts) > words else ""


def _player(text: str, lookup: Lookup) -> str:
    if not text:
        raise ParseError("name a player")
    seat = lookup(text)
    if seat is None:
        raise ParseError(f"no player named {text[:40]!r} in this game")
    return seat


def with_param(action: dict[str, Any], needed: tuple[str, ...], lookup: Lookup) -> dict[str, Any]:
    """A parsed `fortune` action with its one typed parameter put in the field the card takes
    (`needed`: `rules.crimopolis.actions.needed_params`)."""
    out = {k: v for k, v in action.items() if k != "param"}
    param = action.get("param")
    if param is None:
        return out
    if not needed:
        raise ParseError("this fortune takes no parameter")
    field = needed[0]
    if field == "to":
        to = param.lower().replace(" ", "_")
        if to not in ("hq", "safe_house"):
            raise ParseError("this fortune goes to hq or safe_house")
        out["to"] = to
    elif field == "target":
        out["target"] = _player(param, lookup)
    else:
        t = _Tokens(param)
        loc = _location(t, "a block" if field == "block" else "a street section")
        t.done()
        out[field] = loc
    return out


# ---- writing -----------------------------------------------------------------------------------------


def sources_text(sources: Mapping[str, int]) -> str:
    return " ".join(f"{street}={n}" for street, n in sources.items())


def format_action(a: Mapping[str, Any], name: Name) -> str:
    """The canonical notation of an action in replay form (players by their shown name)."""
    kind = a["kind"]
    if kind == "place_hq":
        return f"place hq {a['cell']}"
    if kind == "setup_tile":
        side = f" {a['block_side']}" if a.get("block_side") else ""
        return f"place {a['tile']} {a['cell']}{side}"
    if kind == "recruit":
        return f"recruit {a['to']}"
    if kind == "move":
        return f"move {a['from']} {a['to']} {a['count']}"
    if kind in ("occupy", "takeover"):
        return f"{kind} {a['block']} from {sources_text(a['from'])}"
    if kind == "job":
        fortunes = a.get("fortunes") or []
        tail = f" with {' '.join(fortunes)}" if fortunes else ""
        return f"job {a['card']} at {a['block']} from {sources_text(a['from'])}{tail}"
    if kind in ("abort", "keep", "destiny"):
        return f"{kind} {a['card']}"
    if kind == "fortune":
        for key in ("to", "block", "street"):
            if key in a:
                return f"fortune {a['card']} {a[key]}"
        if "target" in a:
            return f"fortune {a['card']} {name(a['target'])}"
        return f"fortune {a['card']}"
    if kind == "explore":
        if a.get("tile") is None:
            return "explore nothing"
        side = f" {a['block_side']}" if a.get("block_side") else ""
        return f"explore {a['tile']}{side}"
    if kind == "target":
        return f"target {name(a['player'])}"
    if kind == "react":
        return f"react {a['card'] or 'none'}"
    return str(kind)
