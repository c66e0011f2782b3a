"""The game's content (board, catalogue, decks, the seed's numbers) as one validated value (rulings Appendix A).

Validation is pure: parsed JSON documents in, a `Content` out, or a `ContentError` naming the file, the entry
and the field. The house content is loaded by `content_files.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..contract import FormatError

FILES = ("board.json", "catalogue.json", "decks.json", "rules.json")
DECKS = ("power", "official", "mistake", "penalty")
KINDS = ("city", "power", "official", "mistake", "business", "illegal", "government", "home", "boss")
EDGE_TYPES = ("ring", "entry", "boss")
CARD_KINDS = {
    "power": ("hit", "money"),
    "official": ("official",),
    "mistake": ("remove_mover", "fine"),
    "penalty": ("remove_offender", "remove_hitmen", "pay_caller", "lose_official_votes"),
}
RULE_NUMBERS = ("players_min", "players_max", "start_money", "men", "man_price", "power_price", "attack_debt",
                "money_unit", "vote_money", "votes_boss", "votes_per_official", "dice", "die_faces")


class ContentError(FormatError):
    """A content file that does not follow Appendix A; the message starts with the file and the field.
    The program refuses to start with exit status 3 (errata E31)."""

    exit_status = 3


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    deck: str
    kind: str
    min: int = 0
    max: int = 0
    amount: int = 0
    office: str = ""
    price: int = 0
    avoided_by: tuple[str, ...] = ()
    count: int | None = None
    turns: int = 0


@dataclass(frozen=True, slots=True)
class Base:
    base: int
    colour: str
    home: str
    boss: str
    entries: tuple[str, ...]


@dataclass(frozen=True)
class Content:
    board_id: str
    kinds: Mapping[str, str]  # space -> kind
    space_city: Mapping[str, str]  # city space -> city id
    space_base: Mapping[str, int]  # home / boss space -> base
    adjacent: Mapping[str, tuple[tuple[str, str, str | None], ...]]  # space -> ((to, type, dir or None), ...) by id
    edge: Mapping[tuple[str, str], tuple[str, str | None]]  # (from, to) -> (type, dir)
    bases: Mapping[int, Base]
    cities: Mapping[str, tuple[int, str]]  # id -> (value, space)
    business: Mapping[str, tuple[int, int]]  # id -> (value, circles)
    illegal: Mapping[str, tuple[int, int]]
    offices: Mapping[str, int]  # id -> circles
    cards: Mapping[str, Card]
    decks: Mapping[str, tuple[str, ...]]  # deck -> card ids in file order
    numbers: Mapping[str, int]
    docs: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the documents, for display

    def n(self, name: str) -> int:
        return self.numbers[name]

    def category_kind(self, cat: str) -> str | None:
        if cat in self.business:
            return "business"
        if cat in self.illegal:
            return "illegal"
        return None

    def circles(self, kind: str, cat: str) -> int:
        if kind == "business":
            return self.business[cat][1]
        if kind == "illegal":
            return self.illegal[cat][1]
        return self.offices[cat]


def _err(where: str, message: str) -> ContentError:
    return ContentError(f"{where}: {message}")


def _get(doc: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(doc, dict) or key not in doc:
        raise _err(where, f"missing field {key!r}")
    value = doc[key]
    if isinstance(value, bool) and kind is not bool and (kind is int or (isinstance(kind, tuple) and int in kind)):
        raise _err(f"{where}.{key}", f"must be {_name(kind)}, not {value!r}")
    if not isinstance(value, kind):
        raise _err(f"{where}.{key}", f"must be {_name(kind)}, not {value!r}")
    return value


def _name(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object", bool: "a boolean"}
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


RINGS = ("outer", "inner", "both", "home")


def _display(space: Any, where: str) -> None:
    """A space's fields for people and the picture (A.1): the engine never reads them, the bot does."""
    _get(space, "name", str, where)
    ring = _get(space, "ring", str, where)
    if ring not in RINGS:
        raise _err(f"{where}.ring", f"must be one of {', '.join(RINGS)}, not {ring!r}")
    _get(space, "quadrant", int, where)
    draw = _get(space, "draw", dict, where)
    for key in ("angle", "radius"):
        _get(draw, key, (int, float), f"{where}.draw")


def _list(doc: Any, key: str, where: str) -> list[Any]:
    return list(_get(doc, key, list, where))


def validate(docs: Mapping[str, Any]) -> Content:
    """The content of the four documents (keyed by file name), or ContentError naming file, entry and field."""
    for name in FILES:
        if name not in docs:
            raise _err(name, "missing file")
        if not isinstance(docs[name], dict):
            raise _err(name, "must hold a JSON object")
        _get(docs[name], "house", bool, name)
        _get(docs[name], "note", str, name)
    numbers = _rules(docs["rules.json"])
    cities, business, illegal, offices = _catalogue(docs["catalogue.json"], numbers)
    board = _board(docs["board.json"], cities)
    cards, decks = _decks(docs["decks.json"], offices, numbers)
    return Content(docs=dict(docs), cities=cities, business=business, illegal=illegal, offices=offices, cards=cards,
                   decks=decks, numbers=numbers, **board)


def _rules(doc: dict[str, Any]) -> dict[str, int]:
    out = {}
    for key in RULE_NUMBERS:
        value = _get(doc, key, int, "rules.json")
        if value < 1:
            raise _err(f"rules.json.{key}", f"must be at least 1, not {value}")
        out[key] = value
    if not 2 <= out["players_min"] <= out["players_max"]:
        raise _err("rules.json.players_max", "players_min must be at least 2 and at most players_max")
    for key in ("start_money", "man_price", "power_price", "attack_debt", "vote_money"):
        if out[key] % out["money_unit"]:
            raise _err(f"rules.json.{key}", f"must be a multiple of money_unit {out['money_unit']}")
    return out


def _amount(value: Any, where: str, unit: int, positive: bool = True) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (value <= 0 if positive else value < 0):
        raise _err(where, f"must be {'a positive integer' if positive else 'an integer'}, not {value!r}")
    if value % unit:
        raise _err(where, f"must be a multiple of {unit}, not {value}")
    return value


def _catalogue(doc: dict[str, Any], numbers: dict[str, int]) -> tuple[
        dict[str, tuple[int, str]], dict[str, tuple[int, int]], dict[str, tuple[int, int]], dict[str, int]]:
    unit = numbers["money_unit"]
    seen: set[str] = set()
    cities: dict[str, tuple[int, str]] = {}
    for i, entry in enumerate(_list(doc, "cities", "catalogue.json")):
        where = f"catalogue.json: cities[{i}]"
        cid = _get(entry, "id", str, where)
        _get(entry, "name", str, where)
        if cid in seen:
            raise _err(f"{where}.id", f"duplicate id {cid!r}")
        seen.add(cid)
        cities[cid] = (_amount(_get(entry, "value", int, where), f"{where}.value", unit),
                       _get(entry, "space", str, where))
    cats: list[dict[str, tuple[int, int]]] = []
    for group in ("business", "illegal"):
        out: dict[str, tuple[int, int]] = {}
        for i, entry in enumerate(_list(doc, group, "catalogue.json")):
            where = f"catalogue.json: {group}[{i}]"
            cid = _get(entry, "id", str, where)
            _get(entry, "name", str, where)
            if cid in seen:
                raise _err(f"{where}.id", f"duplicate id {cid!r}")
            seen.add(cid)
            circles = _get(entry, "circles", int, where)
            if circles < 1:
                raise _err(f"{where}.circles", f"must be at least 1, not {circles}")
            out[cid] = (_amount(_get(entry, "value", int, where), f"{where}.value", unit), circles)
        cats.append(out)
    offices: dict[str, int] = {}
    for i, entry in enumerate(_list(doc, "offices", "catalogue.json")):
        where = f"catalogue.json: offices[{i}]"
        cid = _get(entry, "id", str, where)
        _get(entry, "name", str, where)
        if cid in seen:
            raise _err(f"{where}.id", f"duplicate id {cid!r}")
        seen.add(cid)
        circles = _get(entry, "circles", int, where)
        if circles < 1:
            raise _err(f"{where}.circles", f"must be at least 1, not {circles}")
        offices[cid] = circles
    return cities, cats[0], cats[1], offices


def _board(doc: dict[str, Any], cities: dict[str, tuple[int, str]]) -> dict[str, Any]:
    board_id = _get(doc, "id", str, "board.json")
    kinds: dict[str, str] = {}
    space_city: dict[str, str] = {}
    space_base: dict[str, int] = {}
    for i, entry in enumerate(_list(doc, "spaces", "board.json")):
        where = f"board.json: spaces[{i}]"
        sid = _get(entry, "id", str, where)
        if sid in kinds:
            raise _err(f"{where}.id", f"duplicate space id {sid!r}")
        kind = _get(entry, "kind", str, where)
        if kind not in KINDS:
            raise _err(f"{where}.kind", f"unknown kind {kind!r}")
        _display(entry, where)
        kinds[sid] = kind
        if kind == "city":
            city = _get(entry, "city", str, where)
            if city not in cities:
                raise _err(f"{where}.city", f"unknown city {city!r}")
            if cities[city][1] != sid:
                raise _err(f"{where}.city", f"catalogue puts {city!r} on {cities[city][1]!r}")
            space_city[sid] = city
        if kind in ("home", "boss"):
            base = _get(entry, "base", int, where)
            space_base[sid] = base
    for city, (_, space) in cities.items():
        if space_city.get(space) != city:
            raise _err("catalogue.json: cities", f"city {city!r} is not on a city space of the board ({space!r})")
    adjacent: dict[str, list[tuple[str, str, str | None]]] = {s: [] for s in kinds}
    edge: dict[tuple[str, str], tuple[str, str | None]] = {}
    for i, entry in enumerate(_list(doc, "edges", "board.json")):
        where = f"board.json: edges[{i}]"
        a, b, kind = _get(entry, "a", str, where), _get(entry, "b", str, where), _get(entry, "type", str, where)
        for end, sid in (("a", a), ("b", b)):
            if sid not in kinds:
                raise _err(f"{where}.{end}", f"unknown space {sid!r}")
        if kind not in EDGE_TYPES:
            raise _err(f"{where}.type", f"unknown edge type {kind!r}")
        if a == b or (a, b) in edge:
            raise _err(where, f"a second edge between {a!r} and {b!r}")
        ka, kb = kinds[a], kinds[b]
        if kind == "ring":
            if {ka, kb} & {"home", "boss"}:
                raise _err(where, "a ring edge touches a Home Base space")
            edge[(a, b)], edge[(b, a)] = ("ring", "right"), ("ring", "left")
        elif kind == "entry":
            if kb != "home" or ka in ("home", "boss"):
                raise _err(where, "an entry edge joins a track space (a) to a home space (b)")
            edge[(a, b)] = edge[(b, a)] = ("entry", None)
        else:
            if ka != "home" or kb != "boss" or space_base[a] != space_base[b]:
                raise _err(where, "a boss edge joins a home space (a) to its boss space (b)")
            edge[(a, b)] = edge[(b, a)] = ("boss", None)
        adjacent[a].append((b, kind, edge[(a, b)][1]))
        adjacent[b].append((a, kind, edge[(b, a)][1]))
    bases: dict[int, Base] = {}
    for i, entry in enumerate(_list(doc, "bases", "board.json")):
        where = f"board.json: bases[{i}]"
        num = _get(entry, "base", int, where)
        if num in bases:
            raise _err(f"{where}.base", f"duplicate base {num}")
        home, boss = _get(entry, "home", str, where), _get(entry, "boss", str, where)
        entries = tuple(_list(entry, "entries", where))
        for j, space in enumerate(entries):
            if not isinstance(space, str):
                raise _err(f"{where}.entries[{j}]", f"must be a space id (text), not {space!r:.40}")
        if kinds.get(home) != "home" or space_base.get(home) != num:
            raise _err(f"{where}.home", f"not the home space of base {num}: {home!r}")
        if kinds.get(boss) != "boss" or space_base.get(boss) != num:
            raise _err(f"{where}.boss", f"not the boss space of base {num}: {boss!r}")
        types = sorted(t for _, t, _ in adjacent[home])
        if types != ["boss", "entry", "entry"]:
            raise _err(f"{where}.home", "a home space needs exactly two entry edges and one boss edge")
        if [t for _, t, _ in adjacent[boss]] != ["boss"]:
            raise _err(f"{where}.boss", "a boss space has only its boss edge")
        if sorted(entries) != sorted(t for t, k, _ in adjacent[home] if k == "entry"):
            raise _err(f"{where}.entries", "must be the two track spaces of the home space's entry edges")
        bases[num] = Base(num, _get(entry, "colour", str, where), home, boss, entries)
    for sid, num in space_base.items():
        if num not in bases:
            raise _err("board.json: spaces", f"space {sid!r} names base {num}, which is not in bases")
        if sid not in (bases[num].home, bases[num].boss):
            raise _err("board.json: spaces", f"space {sid!r} is a {kinds[sid]} space of base {num}, whose home and "
                                              f"boss are {bases[num].home!r} and {bases[num].boss!r}")
    return {
        "board_id": board_id,
        "kinds": kinds,
        "space_city": space_city,
        "space_base": space_base,
        "adjacent": {s: tuple(sorted(v)) for s, v in adjacent.items()},
        "edge": edge,
        "bases": dict(sorted(bases.items())),
    }


def _decks(doc: dict[str, Any], offices: dict[str, int], numbers: dict[str, int]) -> tuple[
        dict[str, Card], dict[str, tuple[str, ...]]]:
    unit = numbers["money_unit"]
    groups = _get(doc, "decks", dict, "decks.json")
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for deck in DECKS:
        group = _get(groups, deck, dict, "decks.json: decks")
        ids = []
        for i, entry in enumerate(_list(group, "cards", f"decks.json: decks.{deck}")):
            where = f"decks.json: decks.{deck}.cards[{i}]"
            cid = _get(entry, "id", str, where)
            if cid in cards:
                raise _err(f"{where}.id", f"duplicate card id {cid!r}")
            kind = _get(entry, "kind", str, where)
            if kind not in CARD_KINDS[deck]:
                raise _err(f"{where}.kind", f"unknown kind {kind!r} for the {deck} deck")
            _get(entry, "title", str, where)  # display only, but the bot shows them (commands.md)
            _get(entry, "text", str, where)
            cards[cid] = _card(entry, cid, deck, kind, where, offices, unit)
            ids.append(cid)
        decks[deck] = tuple(ids)
    return cards, decks


def _card(entry: Any, cid: str, deck: str, kind: str, where: str, offices: dict[str, int], unit: int) -> Card:
    if kind == "hit":
        low, high = _get(entry, "min", int, where), _get(entry, "max", int, where)
        if not 1 <= low <= high:
            raise _err(f"{where}.max", f"needs 1 <= min <= max, not {low}..{high}")
        return Card(cid, deck, kind, min=low, max=high)
    if kind in ("money", "pay_caller"):
        return Card(cid, deck, kind, amount=_amount(_get(entry, "amount", int, where), f"{where}.amount", unit))
    if kind == "official":
        office = _get(entry, "office", str, where)
        if office not in offices:
            raise _err(f"{where}.office", f"unknown office {office!r}")
        price = _amount(_get(entry, "price", int, where), f"{where}.price", unit, positive=False)
        return Card(cid, deck, kind, office=office, price=price)
    if kind in ("remove_mover", "fine"):
        avoided = _list(entry, "avoided_by", where)
        for j, office in enumerate(avoided):
            if not isinstance(office, str) or office not in offices:
                raise _err(f"{where}.avoided_by[{j}]", f"unknown office {office!r}")
        amount = _amount(_get(entry, "amount", int, where), f"{where}.amount", unit) if kind == "fine" else 0
        return Card(cid, deck, kind, amount=amount, avoided_by=tuple(avoided))
    if kind == "remove_hitmen":
        count = _get(entry, "count", int, where)
        if count < 1:
            raise _err(f"{where}.count", f"must be at least 1, not {count}")
        return Card(cid, deck, kind, count=count)
    if kind == "lose_official_votes":
        if not isinstance(entry, dict) or "count" not in entry:
            raise _err(where, "missing field 'count'")
        count = entry["count"]
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            raise _err(f"{where}.count", f"must be null or an integer of at least 1, not {count!r}")
        turns = _get(entry, "turns", int, where)
        if turns < 1:
            raise _err(f"{where}.turns", f"must be at least 1, not {turns}")
        return Card(cid, deck, kind, count=count, turns=turns)
    return Card(cid, deck, kind)
