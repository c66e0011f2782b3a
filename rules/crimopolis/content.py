"""The content pack (rulings Part 6) as value objects, and its validation (pure: parsed JSON in, Content out).

A broken pack is refused with a `ContentError` (a FormatError) naming the file, the entry and the field,
e.g. `jobs.json: jobs[3] (J04).gangsters: must be an integer of at least 1, not 0`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..contract import FormatError

SCHEMAS: Final = {
    "pack": "crimopolis-pack/1",
    "locations": "crimopolis-locations/1",
    "tiles": "crimopolis-tiles/1",
    "jobs": "crimopolis-jobs/1",
    "newsflashes": "crimopolis-newsflashes/1",
    "fortunes": "crimopolis-fortunes/1",
}
FILES: Final = ("locations", "tiles", "jobs", "newsflashes", "fortunes")
COUNTS: Final = {"city_tiles": 48, "clock_tiles": 15, "jobs": 48, "newsflashes": 42, "fortunes": 48}
TIMINGS: Final = ("turn", "job", "reaction", "keep")
TARGETS: Final = ("self", "chosen_other", "block_occupant", "street_occupant", "all", "none")
DECKS: Final = ("jobs", "newsflashes", "fortunes")


class ContentError(FormatError):
    """A content pack that does not follow the schema of rulings Part 6."""


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    name: str
    color: str


@dataclass(frozen=True, slots=True)
class Tile:
    """A city tile, Headquarters or Safe House. `streets` is 4 or 3 (3: one block side)."""

    id: str
    streets: int
    location: str | None = None  # city tiles only
    clock: bool = False
    kind: str = "city"  # city, headquarters, safe_house
    color: str | None = None  # gang tiles only


@dataclass(frozen=True, slots=True)
class Job:
    id: str
    title: str
    location: str
    gangsters: int
    hours: int
    prestige: int


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    amount: int = 0
    count: int = 0


@dataclass(frozen=True, slots=True)
class Design:
    """A newsflash or fortune design: every card of it behaves the same (R82)."""

    deck: str  # newsflashes or fortunes
    id: str
    title: str
    text: str
    effect: Effect
    target: str
    destiny: bool
    defendable: bool
    cards: tuple[str, ...]
    timing: str | None = None  # fortunes only
    endgame: int = 0


@dataclass(frozen=True)
class Content:
    id: str
    title: str
    colors: tuple[str, ...]
    locations: Mapping[str, Location]
    tiles: Mapping[str, Tile]  # city tiles and gang tiles
    city_tiles: tuple[str, ...]  # ascending
    clock_tiles: tuple[str, ...]  # ascending
    jobs: Mapping[str, Job]
    designs: Mapping[str, Design]  # by card id (newsflash and fortune cards)
    decks: Mapping[str, tuple[str, ...]]  # deck -> every card id, ascending
    by_design: Mapping[str, Design] = field(default_factory=dict)  # design id -> design

    def deck_of(self, card: str) -> str:
        if card in self.jobs:
            return "jobs"
        return self.designs[card].deck

    def hq(self, color: str) -> str:
        return f"hq_{color}"

    def safe_house(self, color: str) -> str:
        return f"sh_{color}"

    def is_card(self, card: object) -> bool:
        return isinstance(card, str) and (card in self.jobs or card in self.designs)


# ---- the allowed combinations (rulings 6.2) ------------------------------------------------------------

# kind -> (parameter, its check) ; newsflash targets ; fortune timing -> targets ; destiny ; defendable
_PARAMS: Final[dict[str, tuple[str, str] | None]] = {
    "none": None,
    "prestige": ("amount", "pos"),
    "job_prestige": ("amount", "nonzero"),
    "job_hours": ("amount", "neg"),
    "job_gangsters": ("amount", "neg"),
    "hours": ("amount", "nonzero"),
    "recruit": ("count", "pos"),
    "draw_fortunes": ("count", "pos"),
    "raid": ("count", "pos"),
    "send_home": None,
    "bomb": ("count", "pos"),
    "hit": ("count", "pos"),
    "defend": None,
}
_NEWS_TARGETS: Final[dict[str, tuple[str, ...]]] = {
    "none": ("none",),
    "prestige": ("self",),
    "job_prestige": ("self",),
    "hours": ("self", "chosen_other"),
    "recruit": ("self", "all"),
    "draw_fortunes": ("self",),
    "raid": ("self",),
    "send_home": ("self",),
}
_FORTUNE_TARGETS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "none": ("keep", ("none",)),
    "prestige": ("turn", ("self",)),
    "job_prestige": ("job", ("self",)),
    "job_hours": ("job", ("self",)),
    "job_gangsters": ("job", ("self",)),
    "hours": ("turn", ("self", "chosen_other")),
    "recruit": ("turn", ("self",)),
    "draw_fortunes": ("turn", ("self",)),
    "bomb": ("turn", ("block_occupant",)),
    "hit": ("turn", ("street_occupant",)),
    "defend": ("reaction", ("none",)),
}
_DEFENDABLE_NEWS: Final = ("job_prestige", "hours", "raid", "send_home")
_DEFENDABLE_FORTUNE: Final = ("hours", "bomb", "hit")


class _Where:
    """Builds error messages that start with the file and the entry."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, at: str, message: str) -> ContentError:
        return ContentError(f"{self.file}: {at}: {message}" if at else f"{self.file}: {message}")


def _obj(w: _Where, value: Any, at: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise w.fail(at, f"must be an object, not {_kind(value)}")
    return value


def _list(w: _Where, value: Any, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise w.fail(at, f"must be a list, not {_kind(value)}")
    return value


def _str(w: _Where, doc: Mapping[str, Any], key: str, at: str) -> str:
    if key not in doc:
        raise w.fail(f"{at}.{key}" if at else key, "missing")
    value = doc[key]
    if not isinstance(value, str) or not value:
        raise w.fail(f"{at}.{key}" if at else key, f"must be a non-empty string, not {_kind(value)}")
    return value


def _int(w: _Where, doc: Mapping[str, Any], key: str, at: str, low: int | None = None) -> int:
    if key not in doc:
        raise w.fail(f"{at}.{key}", "missing")
    value = doc[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise w.fail(f"{at}.{key}", f"must be an integer, not {_kind(value)}")
    if low is not None and value < low:
        raise w.fail(f"{at}.{key}", f"must be an integer of at least {low}, not {value}")
    return value


def _bool(w: _Where, doc: Mapping[str, Any], key: str, at: str) -> bool:
    if key not in doc:
        raise w.fail(f"{at}.{key}" if at else key, "missing")
    value = doc[key]
    if not isinstance(value, bool):
        raise w.fail(f"{at}.{key}" if at else key, f"must be true or false, not {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r:.40}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _header(w: _Where, value: Any, schema: str) -> dict[str, Any]:
    doc = _obj(w, value, "")
    got = doc.get("schema")
    if got != schema:
        raise w.fail("schema", f"must be {schema!r}, not {got!r}")
    _bool(w, doc, "house", "")
    return doc


def load_content(docs: Mapping[str, Any]) -> Content:
    """The content object of a pack: `docs` maps file names (`pack.json`, ...) to their parsed JSON."""
    if "pack.json" not in docs:
        raise ContentError("pack.json: missing")
    w = _Where("pack.json")
    pack = _header(w, docs["pack.json"], SCHEMAS["pack"])
    pack_id = _str(w, pack, "id", "")
    title = _str(w, pack, "title", "")
    files = _obj(w, pack.get("files"), "files")
    names: dict[str, str] = {}
    for key in FILES:
        names[key] = _str(w, files, key, "files")
        if names[key] not in docs:
            raise ContentError(f"{names[key]}: missing (named by pack.json files.{key})")
    colors_doc = _list(w, pack.get("gang_colors"), "gang_colors")
    if len(colors_doc) != 5 or not all(isinstance(c, str) and c for c in colors_doc) or len(set(colors_doc)) != 5:
        raise w.fail("gang_colors", "must list 5 distinct colour names, seat 1 first")
    colors = tuple(colors_doc)

    locations = _locations(_Where(names["locations"]), docs[names["locations"]])
    tiles, city = _tiles(_Where(names["tiles"]), docs[names["tiles"]], locations, colors)
    jobs = _jobs(_Where(names["jobs"]), docs[names["jobs"]], locations, tiles)
    news = _designs(_Where(names["newsflashes"]), docs[names["newsflashes"]], "newsflashes")
    fortunes = _designs(_Where(names["fortunes"]), docs[names["fortunes"]], "fortunes")

    designs: dict[str, Design] = {}
    by_design: dict[str, Design] = {}
    for d in (*news, *fortunes):
        by_design.setdefault(d.id, d)
        for card in d.cards:
            designs[card] = d
    decks = {
        "jobs": tuple(sorted(jobs)),
        "newsflashes": tuple(sorted(c for d in news for c in d.cards)),
        "fortunes": tuple(sorted(c for d in fortunes for c in d.cards)),
    }
    every = [(t, names["tiles"]) for t in tiles] + [(j, names["jobs"]) for j in jobs] + [
        (c, names[kind]) for kind, group in (("newsflashes", news), ("fortunes", fortunes)) for d in group
        for c in d.cards]
    ids = [x for x, _ in every]
    if len(set(ids)) != len(ids):
        dup = sorted({x for x in ids if ids.count(x) > 1})[0]
        found_in = " and ".join(dict.fromkeys(f for x, f in every if x == dup))
        raise ContentError(f"{found_in}: id {dup!r} names two things (tiles and cards need distinct ids)")
    clock = tuple(t for t in city if tiles[t].clock)
    content = Content(
        id=pack_id,
        title=title,
        colors=colors,
        locations=locations,
        tiles=tiles,
        city_tiles=city,
        clock_tiles=clock,
        jobs=jobs,
        designs=designs,
        decks=decks,
        by_design=by_design,
    )
    _counts(w, pack, content)
    return content


def _counts(w: _Where, pack: Mapping[str, Any], c: Content) -> None:
    actual = {
        "city_tiles": len(c.city_tiles),
        "three_street_tiles": sum(1 for t in c.city_tiles if c.tiles[t].streets == 3),
        "clock_tiles": len(c.clock_tiles),
        "jobs": len(c.jobs),
        "newsflashes": len(c.decks["newsflashes"]),
        "fortunes": len(c.decks["fortunes"]),
    }
    for key, need in COUNTS.items():
        if actual[key] != need:
            raise w.fail("counts", f"the pack has {actual[key]} {key.replace('_', ' ')}; the rules need exactly {need}")
    counts = _obj(w, pack.get("counts"), "counts")
    for key, value in actual.items():
        if key in counts and counts[key] != value:
            raise w.fail(f"counts.{key}", f"says {counts[key]!r}, but the files hold {value}")


def _locations(w: _Where, doc: Any) -> dict[str, Location]:
    doc = _header(w, doc, SCHEMAS["locations"])
    out: dict[str, Location] = {}
    for i, entry in enumerate(_list(w, doc.get("locations"), "locations")):
        at = f"locations[{i}]"
        entry = _obj(w, entry, at)
        lid = _str(w, entry, "id", at)
        at = f"{at} ({lid})"
        if lid in out:
            raise w.fail(f"{at}.id", "listed twice")
        out[lid] = Location(lid, _str(w, entry, "name", at), _str(w, entry, "color", at))
    if not out:
        raise w.fail("locations", "must list at least one location")
    return out


def _tiles(
    w: _Where, doc: Any, locations: Mapping[str, Location], colors: tuple[str, ...]
) -> tuple[dict[str, Tile], tuple[str, ...]]:
    doc = _header(w, doc, SCHEMAS["tiles"])
    tiles: dict[str, Tile] = {}
    for i, entry in enumerate(_list(w, doc.get("city_tiles"), "city_tiles")):
        at = f"city_tiles[{i}]"
        entry = _obj(w, entry, at)
        tid = _str(w, entry, "id", at)
        at = f"{at} ({tid})"
        if tid in tiles:
            raise w.fail(f"{at}.id", "listed twice")
        loc = _str(w, entry, "location", at)
        if loc not in locations:
            raise w.fail(f"{at}.location", f"unknown location {loc!r}")
        streets = _int(w, entry, "streets", at)
        if streets not in (3, 4):
            raise w.fail(f"{at}.streets", f"must be 3 or 4, not {streets}")
        tiles[tid] = Tile(tid, streets, location=loc, clock=_bool(w, entry, "clock", at))
    city = tuple(sorted(tiles))
    for i, entry in enumerate(_list(w, doc.get("gang_tiles"), "gang_tiles")):
        at = f"gang_tiles[{i}]"
        entry = _obj(w, entry, at)
        tid = _str(w, entry, "id", at)
        at = f"{at} ({tid})"
        kind = _str(w, entry, "kind", at)
        if kind not in ("headquarters", "safe_house"):
            raise w.fail(f"{at}.kind", f"must be 'headquarters' or 'safe_house', not {kind!r}")
        color = _str(w, entry, "color", at)
        if color not in colors:
            raise w.fail(f"{at}.color", f"{color!r} is not one of the pack's gang colours")
        want = f"{'hq' if kind == 'headquarters' else 'sh'}_{color}"
        if tid != want:
            raise w.fail(f"{at}.id", f"a {kind.replace('_', ' ')} of colour {color} has the id {want!r}")
        if _int(w, entry, "streets", at) != 4:
            raise w.fail(f"{at}.streets", "Headquarters and Safe Houses are 4-street tiles (R8)")
        if tid in tiles:
            raise w.fail(f"{at}.id", "listed twice")
        tiles[tid] = Tile(tid, 4, kind=kind, color=color)
    for color in colors:
        for prefix in ("hq", "sh"):
            if f"{prefix}_{color}" not in tiles:
                raise w.fail("gang_tiles", f"missing {prefix}_{color} (one Headquarters and one Safe House per colour)")
    return tiles, city


def _jobs(w: _Where, doc: Any, locations: Mapping[str, Location], tiles: Mapping[str, Tile]) -> dict[str, Job]:
    doc = _header(w, doc, SCHEMAS["jobs"])
    jobs: dict[str, Job] = {}
    placed = {t.location for t in tiles.values() if t.location}
    for i, entry in enumerate(_list(w, doc.get("jobs"), "jobs")):
        at = f"jobs[{i}]"
        entry = _obj(w, entry, at)
        jid = _str(w, entry, "id", at)
        at = f"{at} ({jid})"
        if jid in jobs:
            raise w.fail(f"{at}.id", "listed twice")
        loc = _str(w, entry, "location", at)
        if loc not in locations:
            raise w.fail(f"{at}.location", f"unknown location {loc!r}")
        if loc not in placed:
            raise w.fail(f"{at}.location", f"no city tile shows {loc!r}, so the job could never be done")
        jobs[jid] = Job(
            jid,
            _str(w, entry, "title", at),
            loc,
            _int(w, entry, "gangsters", at, 1),
            _int(w, entry, "hours", at, 0),
            _int(w, entry, "prestige", at, 0),
        )
    return jobs


def _designs(w: _Where, doc: Any, deck: str) -> list[Design]:
    doc = _header(w, doc, SCHEMAS[deck])
    out: list[Design] = []
    seen_cards: set[str] = set()
    seen: set[str] = set()
    for i, entry in enumerate(_list(w, doc.get("designs"), "designs")):
        at = f"designs[{i}]"
        entry = _obj(w, entry, at)
        did = _str(w, entry, "design", at)
        at = f"{at} ({did})"
        if did in seen:
            raise w.fail(f"{at}.design", "listed twice")
        seen.add(did)
        effect = _effect(w, entry.get("effect"), f"{at}.effect")
        target = _str(w, entry, "target", at)
        if target not in TARGETS:
            raise w.fail(f"{at}.target", f"unknown target kind {target!r}")
        destiny = _bool(w, entry, "destiny", at)
        defendable = _bool(w, entry, "defendable", at)
        timing = None
        endgame = 0
        if deck == "fortunes":
            timing = _str(w, entry, "timing", at)
            if timing not in TIMINGS:
                raise w.fail(f"{at}.timing", f"unknown timing {timing!r}")
            endgame = _int(w, entry, "endgame", at, 0)
        cards = _list(w, entry.get("cards"), f"{at}.cards")
        if not cards:
            raise w.fail(f"{at}.cards", "must list at least one card")
        for j, card in enumerate(cards):
            if not isinstance(card, str) or not card:
                raise w.fail(f"{at}.cards[{j}]", f"must be a card id, not {_kind(card)}")
            if card in seen_cards:
                raise w.fail(f"{at}.cards[{j}]", f"card {card} is in two designs")
            seen_cards.add(card)
        d = Design(
            deck,
            did,
            _str(w, entry, "title", at),
            _str(w, entry, "text", at),
            effect,
            target,
            destiny,
            defendable,
            tuple(cards),
            timing,
            endgame,
        )
        _combination(w, d, at)
        out.append(d)
    return out


def _effect(w: _Where, value: Any, at: str) -> Effect:
    doc = _obj(w, value, at)
    kind = doc.get("kind")
    if not isinstance(kind, str) or kind not in _PARAMS:
        raise w.fail(f"{at}.kind", f"unknown effect kind {kind!r} (rulings 6.2 lists the ones an engine knows)")
    spec = _PARAMS[kind]
    extra = sorted(set(doc) - {"kind"} - ({spec[0]} if spec else set()))
    if extra:
        raise w.fail(f"{at}.{extra[0]}", f"is not a parameter of {kind}")
    if spec is None:
        return Effect(kind)
    name, rule = spec
    number = _int(w, doc, name, at)
    ok = {"pos": number >= 1, "neg": number <= -1, "nonzero": number != 0}[rule]
    if not ok:
        need = {"pos": "at least 1", "neg": "at most -1", "nonzero": "not 0"}[rule]
        raise w.fail(f"{at}.{name}", f"must be {need} for {kind}, not {number}")
    return Effect(kind, amount=number if name == "amount" else 0, count=number if name == "count" else 0)


def _combination(w: _Where, d: Design, at: str) -> None:
    """Rulings 6.2: effect kind, timing, target, destiny and defendable must form an allowed combination."""
    kind = d.effect.kind
    if d.deck == "newsflashes":
        allowed = _NEWS_TARGETS.get(kind)
        if allowed is None:
            raise w.fail(f"{at}.effect.kind", f"{kind} is not allowed on a newsflash")
        if d.target not in allowed:
            raise w.fail(f"{at}.target", f"a {kind} newsflash targets {' or '.join(allowed)}, not {d.target}")
    else:
        rule = _FORTUNE_TARGETS.get(kind)
        if rule is None:
            raise w.fail(f"{at}.effect.kind", f"{kind} is not allowed on a fortune")
        timing, targets = rule
        if d.timing != timing:
            raise w.fail(f"{at}.timing", f"a {kind} fortune has timing {timing}, not {d.timing}")
        if d.target not in targets:
            raise w.fail(f"{at}.target", f"a {kind} fortune targets {' or '.join(targets)}, not {d.target}")
        if kind == "job_prestige" and d.effect.amount < 1:
            raise w.fail(f"{at}.effect.amount", "a job_prestige fortune must add at least 1")
        if timing == "keep" and d.endgame < 1:
            raise w.fail(f"{at}.endgame", "a keep fortune is only worth holding with an endgame value of at least 1")
    if d.destiny and kind != "hours":
        raise w.fail(f"{at}.destiny", f"a {kind} card cannot be a destiny")
    if d.target == "chosen_other" and not d.destiny:
        raise w.fail(f"{at}.destiny", "a card for a chosen other player must be a destiny")
    if d.defendable:
        if d.deck == "newsflashes":
            ok = kind in _DEFENDABLE_NEWS and (kind != "hours" or d.target == "chosen_other" or d.effect.amount < 0)
        else:
            ok = kind in _DEFENDABLE_FORTUNE and (kind != "hours" or d.target == "chosen_other" or d.effect.amount < 0)
        if not ok:
            raise w.fail(f"{at}.defendable", f"a {kind} card with target {d.target} cannot be defendable")
