"""Reading a `crimopolis-replay/1` file (replay.md "Input", errata E5, E9-E18): the whole file is checked
before anything is replayed; every problem is a `ReplayFormatError` whose message starts with the JSON
path of the field (`steps[3].action.count: not an integer`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..contract import FormatError
from .actions import read_action
from .content import Content
from .engine import Run
from .geometry import Geometry
from .ids import DELTA, OPPOSITE, SIDES, is_cell, is_street, parse_cell
from .state import PLAY, TOMBSTONES, VARIANTS, Options, State, resolve_options

FORMAT: Final = "crimopolis-replay/1"
RESULT_FORMAT: Final = "crimopolis-result/1"
OPTION_KEYS: Final = (
    "variant",
    "target_prestige",
    "gangsters",
    "clock_tiles_first",
    "influence_on_the_streets",
    "big_business",
    "timeout_time",
)
DECK_OF_CHANCE: Final = {"tiles": None, "jobs": "jobs", "newsflashes": "newsflashes", "fortunes": "fortunes"}


class ReplayFormatError(FormatError):
    pass


def _fail(at: str, why: str) -> ReplayFormatError:
    return ReplayFormatError(f"{at}: {why}")


def _what(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"{value!r:.60}"
    return "a list" if isinstance(value, list) else "an object"


def _int(value: Any, at: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(at, f"not an integer ({_what(value)})")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"{low} to {high}"
        raise _fail(at, f"must be {span}, not {value}")
    return value


def _bool(value: Any, at: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(at, f"not true or false ({_what(value)})")
    return value


def _obj(value: Any, at: str, keys: Sequence[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(at, f"not an object ({_what(value)})")
    if keys is not None:
        for key in value:
            if key not in keys:
                raise _fail(f"{at}.{key}", "unknown key")
    return value


def _list(value: Any, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(at, f"not a list ({_what(value)})")
    return value


@dataclass
class Step:
    index: int
    player: str | None  # None: {"host": "end"}
    action: dict[str, Any] | None
    given: dict[str, Any]


@dataclass
class ReplayInput:
    players: tuple[str, ...]
    options: Options
    orders: dict[str, list[str]] | None  # from `chance` (setup), or None with `start`
    start: State | None
    start_turn: tuple[str, int, int] | None  # (player, hours, number)
    steps: list[Step] = field(default_factory=list)


def parse_options(doc: Any, at: str = "options") -> Options:
    given = _obj(doc, at, OPTION_KEYS)
    variant = given.get("variant", "standard")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise _fail(f"{at}.variant", f"one of {', '.join(VARIANTS)}, not {_what(variant)}")
    kw: dict[str, Any] = {"variant": variant}
    if "target_prestige" in given:
        kw["target_prestige"] = _int(given["target_prestige"], f"{at}.target_prestige", 5, 60)
    if "gangsters" in given:
        kw["gangsters"] = _int(given["gangsters"], f"{at}.gangsters", 5, 9)
    for key in ("clock_tiles_first", "influence_on_the_streets", "big_business"):
        if key in given:
            kw[key] = _bool(given[key], f"{at}.{key}")
    timeout_time = given.get("timeout_time", "forfeit")
    if timeout_time not in ("forfeit", "pass"):
        raise _fail(f"{at}.timeout_time", f"'forfeit' or 'pass', not {_what(timeout_time)}")
    kw["timeout_time"] = timeout_time
    return resolve_options(**kw)


def parse_players(doc: Any, at: str = "players") -> tuple[str, ...]:
    players = _list(doc, at)
    if not 2 <= len(players) <= 5:
        raise _fail(at, f"2 to 5 players, not {len(players)}")
    for i, p in enumerate(players):
        if not isinstance(p, str) or not p:
            raise _fail(f"{at}[{i}]", f"a player is a non-empty string, not {_what(p)}")
        if p in players[:i]:
            raise _fail(f"{at}[{i}]", f"{p!r} is listed twice")
    return tuple(players)


def chance_orders(c: Content, opts: Options, doc: Any, at: str = "chance") -> dict[str, list[str]]:
    """The stack and the three decks, top first (missing lists: ascending; E5 for the clock tiles)."""
    given = _obj(doc, at) if doc is not None else {}
    orders: dict[str, list[str]] = {}
    for key, deck in DECK_OF_CHANCE.items():
        every = list(c.city_tiles) if deck is None else list(c.decks[deck])
        if key not in given:
            orders[key] = every
            continue
        order = _list(given[key], f"{at}.{key}")
        seen: set[str] = set()
        for i, item in enumerate(order):
            if not isinstance(item, str) or item not in every:
                raise _fail(f"{at}.{key}[{i}]", f"not one of the pack's {key} ({_what(item)})")
            if item in seen:
                raise _fail(f"{at}.{key}[{i}]", f"{item} is listed twice")
            seen.add(item)
        if len(order) != len(every):
            missing = sorted(set(every) - seen)
            raise _fail(
                f"{at}.{key}", f"must list every one of the {len(every)} {key}; missing {', '.join(missing[:5])}"
            )
        orders[key] = list(order)
    if opts.clock_tiles_first:
        clock = set(c.clock_tiles)
        if "tiles" in given:
            if set(orders["tiles"][: len(clock)]) != clock:
                raise _fail(f"{at}.tiles", f"with clock_tiles_first the first {len(clock)} tiles are the clock tiles")
        else:
            orders["tiles"] = [t for t in orders["tiles"] if t in clock] + [
                t for t in orders["tiles"] if t not in clock
            ]
    return orders


def parse_replay(c: Content, doc: Any) -> ReplayInput:
    if not isinstance(doc, dict):
        raise _fail("file", "a replay file is a JSON object")
    if doc.get("format") != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}, not {_what(doc.get('format'))}")
    if "content" in doc and doc["content"] != c.id:
        raise _fail("content", f"this engine has the content pack {c.id!r}, not {_what(doc['content'])}")
    if "players" not in doc:
        raise _fail("players", "missing")
    players = parse_players(doc["players"])
    opts = parse_options(doc.get("options", {})) if "options" in doc else resolve_options()
    if "steps" not in doc:
        raise _fail("steps", "missing")
    if "start" in doc:
        if "chance" in doc:
            raise _fail("chance", "not allowed together with start")
        state, turn = parse_start(c, players, opts, doc["start"])
        inp = ReplayInput(players, opts, None, state, turn)
    else:
        inp = ReplayInput(players, opts, chance_orders(c, opts, doc.get("chance")), None, None)
    for i, step in enumerate(_list(doc["steps"], "steps")):
        inp.steps.append(parse_step(c, players, step, f"steps[{i}]", i))
    return inp


def parse_step(c: Content, players: Sequence[str], step: Any, at: str, index: int) -> Step:
    if not isinstance(step, dict):
        raise _fail(at, f"a step is an object, not {_what(step)}")
    if "host" in step:
        for key in step:  # E11: an unknown key is named itself; player/action beside host are a mixed step
            if key not in ("host", "player", "action"):
                raise _fail(f"{at}.{key}", "unknown key (a step is {player, action} or {host})")
        if set(step) != {"host"}:
            raise _fail(at, 'a host step is exactly {"host": "end"}')
        if step["host"] != "end":
            raise _fail(f"{at}.host", f"the only host step is 'end', not {_what(step['host'])}")
        return Step(index, None, None, step)
    for key in step:
        if key not in ("player", "action"):
            raise _fail(f"{at}.{key}", "unknown key (a step is {player, action} or {host})")
    if "player" not in step:
        raise _fail(f"{at}.player", "missing")
    if "action" not in step:
        raise _fail(f"{at}.action", "missing")
    player = step["player"]
    if not isinstance(player, str) or player not in players:
        raise _fail(f"{at}.player", f"not a player of this game ({_what(player)})")
    return Step(index, player, read_action(c, players, step["action"], f"{at}.action"), step)


# ---- start (replay.md "start", E9, E12-E18) ---------------------------------------------------------------


def parse_start(c: Content, players: tuple[str, ...], opts: Options, doc: Any) -> tuple[State, tuple[str, int, int]]:
    at = "start"
    doc = _obj(doc, at, ("turn", "city", "gangsters", "players", "revealed", "stack", "decks", "final"))
    s = State(c, players, opts)
    s.phase = PLAY
    if "turn" not in doc:
        raise _fail(f"{at}.turn", "missing")
    turn = _obj(doc["turn"], f"{at}.turn", ("player", "hours", "number"))
    if "player" not in turn:
        raise _fail(f"{at}.turn.player", "missing")
    active = turn["player"]
    if not isinstance(active, str) or active not in players:
        raise _fail(f"{at}.turn.player", f"not a player of this game ({_what(active)})")
    hours = _int(turn.get("hours", 7), f"{at}.turn.hours", 0)
    number = _int(turn.get("number", 1), f"{at}.turn.number", 1)

    if "city" not in doc:
        raise _fail(f"{at}.city", "missing")
    s.geo = _city(c, s, doc["city"], f"{at}.city")
    _gangsters(c, s, doc.get("gangsters", {}), f"{at}.gangsters")
    held = _players(c, s, doc.get("players", {}), f"{at}.players")
    _tiles(c, s, doc, at)
    _decks(c, s, doc.get("decks", {}), held, f"{at}.decks")
    if doc.get("final") is not None:
        final = _obj(doc["final"], f"{at}.final", ("triggered_by", "on_turn_of", "last"))
        for key in ("triggered_by", "on_turn_of", "last"):
            if key not in final:
                raise _fail(f"{at}.final.{key}", "missing")
            if not isinstance(final[key], str) or final[key] not in players:
                raise _fail(f"{at}.final.{key}", f"not a player of this game ({_what(final[key])})")
        s.final = {k: final[k] for k in ("triggered_by", "on_turn_of", "last")}
    return s, (active, hours, number)


def _city(c: Content, s: State, doc: Any, at: str) -> Geometry:
    entries = _list(doc, at)
    in_game = set(c.city_tiles) | {f"{k}_{col}" for col in s.colors for k in ("hq", "sh")}
    tiles: dict[str, tuple[str, str | None]] = {}
    where: dict[str, str] = {}
    for i, entry in enumerate(entries):
        here = f"{at}[{i}]"
        entry = _obj(entry, here, ("cell", "tile", "block_side"))
        for key in ("cell", "tile"):
            if key not in entry:
                raise _fail(f"{here}.{key}", "missing")
        cell = entry["cell"]
        if not is_cell(cell):
            raise _fail(f"{here}.cell", f"not a cell id ({_what(cell)})")
        if parse_cell(cell) is None:
            raise _fail(f"{here}.cell", "coordinates too large for a city")
        if cell in tiles:
            raise _fail(f"{here}.cell", f"{cell} holds two tiles")
        tile = entry["tile"]
        if not isinstance(tile, str) or tile not in c.tiles:
            raise _fail(f"{here}.tile", f"unknown tile {_what(tile)}")
        if tile not in in_game:
            raise _fail(f"{here}.tile", f"{tile} is not in this game (its colour has no player, R2)")
        if tile in where:
            raise _fail(f"{here}.tile", f"{tile} is placed twice")
        side = entry.get("block_side")
        if c.tiles[tile].streets == 3:
            if side not in SIDES:
                raise _fail(f"{here}.block_side", f"a 3-street tile needs a block side N, E, S or W, not {_what(side)}")
        elif side is not None:
            if side not in SIDES:
                raise _fail(f"{here}.block_side", f"not a side ({_what(side)})")
            raise _fail(f"{here}.block_side", f"{tile} is a 4-street tile: no block side")
        tiles[cell] = (tile, side)
        where[tile] = here
    for col in s.colors:
        if f"hq_{col}" not in where:
            raise _fail(at, f"hq_{col} is missing: every player's Headquarters is placed")
    # Facing sides must match (R13); E9: the city need not be connected.
    xy = {cell: parse_cell(cell) for cell in tiles}
    at_xy = {v: k for k, v in xy.items()}
    for cell, (tile, side) in tiles.items():
        x, y = xy[cell]  # type: ignore[misc]
        for s_ in ("E", "S"):
            dx, dy = DELTA[s_]
            other = at_xy.get((x + dx, y + dy))
            if other is None:
                continue
            mine = c.tiles[tile].streets == 3 and side == s_
            theirs = tiles[other][1] == OPPOSITE[s_]
            if mine != theirs:
                raise _fail(
                    where[tiles[other][0]], f"{tiles[other][0]} at {other} does not match {tile} at {cell} (R13)"
                )
    return Geometry(c, tiles)


def _gangsters(c: Content, s: State, doc: Any, at: str) -> None:
    doc = _obj(doc, at)
    geo = s.geo
    in_city = dict.fromkeys(s.players, 0)
    seen: dict[str, str] = {}
    for loc, who in doc.items():
        here = f"{at}.{loc}"
        if is_street(loc):
            if loc not in geo.streets:
                raise _fail(here, "no such street section in the city")
            key = loc
        elif is_cell(loc):
            block = geo.block_of.get(loc)
            if block is None:
                raise _fail(here, "no tile on that cell")
            key = block
        else:
            raise _fail(here, "not a street id or a cell")
        if key in seen:
            raise _fail(here, f"names block {key} a second time (also as {seen[key]}, E17)")
        seen[key] = loc
        who = _obj(who, here)
        if len(who) > 1:
            raise _fail(here, "only one gang per location (R19)")
        for p, n in who.items():
            if p not in s.players:
                raise _fail(f"{here}.{p}", "not a player of this game")
            n = _int(n, f"{here}.{p}", 1)
            if key[0] in "hv":
                if n > 3:
                    raise _fail(f"{here}.{p}", "a street section holds at most 3 gangsters (R20)")
            else:
                b = geo.blocks[key]
                if b.kind != "city":
                    if s.owner_of_color(b.color) != p:
                        raise _fail(f"{here}.{p}", "only its owner's gangsters may be in a Headquarters or Safe House")
                    if n > 3:
                        raise _fail(f"{here}.{p}", "a Headquarters or Safe House holds at most 3 gangsters (R21)")
            s.gangsters[key] = (p, n)
            in_city[p] += n
    for p in s.players:
        supply = s.opts.gangsters - in_city[p]
        if supply < 0:
            raise _fail(at, f"{p} has {in_city[p]} gangsters in the city, more than the {s.opts.gangsters} of a gang")
        s.pl[p].supply = supply


def _players(c: Content, s: State, doc: Any, at: str) -> dict[str, str]:
    """Per player prestige, bodies, hands and destinies; returns every card held (card -> where)."""
    doc = _obj(doc, at)
    held: dict[str, str] = {}
    for p, entry in doc.items():
        if p not in s.players:
            raise _fail(f"{at}.{p}", "not a player of this game")
        here = f"{at}.{p}"
        entry = _obj(entry, here, ("prestige", "bodies", "jobs", "fortunes", "destinies"))
        me = s.pl[p]
        me.prestige = _int(entry.get("prestige", 0), f"{here}.prestige", 0)
        me.bodies = _int(entry.get("bodies", 0), f"{here}.bodies", 0)
        for key in ("jobs", "fortunes", "destinies"):
            cards = _list(entry.get(key, []), f"{here}.{key}")
            for i, card in enumerate(cards):
                spot = f"{here}.{key}[{i}]"
                if not isinstance(card, str) or not c.is_card(card):
                    raise _fail(spot, f"unknown card {_what(card)}")
                deck = c.deck_of(card)
                if key == "jobs" and deck != "jobs":
                    raise _fail(spot, f"{card} is not a job card")
                if key == "fortunes" and deck != "fortunes":
                    raise _fail(spot, f"{card} is not a fortune card")
                if key == "destinies" and (deck == "jobs" or not c.designs[card].destiny):
                    raise _fail(spot, f"{card} is not a destiny card")
                if card in held:
                    raise _fail(spot, f"{card} is also at {held[card]}")
                held[card] = spot
                getattr(me, key).append(card)
    if s.bodies_total() > TOMBSTONES:
        raise _fail(at, f"the body counts add up to {s.bodies_total()}, more than the {TOMBSTONES} tombstones")
    return held


def _tiles(c: Content, s: State, doc: dict[str, Any], at: str) -> None:
    placed = {t for t, _ in s.geo.tiles.values()}
    listed: dict[str, str] = {}

    def take(key: str) -> list[str]:
        items = _list(doc[key], f"{at}.{key}")
        for i, tile in enumerate(items):
            spot = f"{at}.{key}[{i}]"
            if not isinstance(tile, str) or tile not in c.city_tiles:
                raise _fail(spot, f"not a city tile ({_what(tile)})")
            if tile in placed:
                raise _fail(spot, f"{tile} is already in the city")
            if tile in listed:
                raise _fail(spot, f"{tile} is also at {listed[tile]}")
            listed[tile] = spot
        return list(items)

    if "revealed" in doc:
        s.revealed = take("revealed")
        if len(s.revealed) > 2:
            raise _fail(f"{at}.revealed", f"at most 2 revealed tiles, not {len(s.revealed)}")
        top = take("stack") if "stack" in doc else []
        rest = [t for t in c.city_tiles if t not in placed and t not in listed]
        s.stack = top + rest
    else:
        if "stack" in doc:
            raise _fail(f"{at}.stack", "given without revealed")
        rest = [t for t in c.city_tiles if t not in placed]
        s.revealed, s.stack = rest[:2], rest[2:]


def _decks(c: Content, s: State, doc: Any, held: dict[str, str], at: str) -> None:
    doc = _obj(doc, at, ("jobs", "newsflashes", "fortunes"))
    for deck in ("jobs", "newsflashes", "fortunes"):
        top = _list(doc.get(deck, []), f"{at}.{deck}")
        listed: set[str] = set()
        for i, card in enumerate(top):
            spot = f"{at}.{deck}[{i}]"
            if not isinstance(card, str) or card not in c.decks[deck]:
                raise _fail(spot, f"not one of the {deck} ({_what(card)})")
            if card in held:
                raise _fail(spot, f"{card} is also at {held[card]}")
            if card in listed:
                raise _fail(spot, f"{card} is listed twice")
            listed.add(card)
        s.decks[deck] = list(top) + [x for x in c.decks[deck] if x not in listed and x not in held]


def begin(c: Content, inp: ReplayInput) -> Run:
    """The run after setup's start (or the start state's turn start): its state and `initial` events."""
    from .engine import new_game

    if inp.start is None:
        assert inp.orders is not None
        return new_game(c, inp.players, inp.options, inp.orders)
    assert inp.start_turn is not None
    run = Run(c, inp.start)
    player, hours, number = inp.start_turn
    run.start_turn(player, hours, number)
    return run
