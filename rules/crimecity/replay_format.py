"""Reading a replay file (docs/crimecity/replay.md): every defect is a FormatError naming its field."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from .. import contract
from .actions import DIRECTIONS, KINDS, Action, Submission
from .draft import DraftSubmission
from .errors import ParseError
from .ids import CHARACTERS, FORBIDDEN, START, Character, Location, Role
from .state import GameState, Progress, Seat

FORMAT = "crimecity-replay/1"
ACTION_FIELDS = frozenset({"kind", "direction", "character", "friend", "target", "destination", "player"})
KEY_KINDS = ("move", "converse", "ability", "friend")


class FormatError(ParseError, contract.FormatError):
    """The file is not a replay file: the message names the field."""


def _fail(where: str, what: str) -> FormatError:
    return FormatError(f"{where}: {what}")


def _obj(v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _fail(where, "must be an object")
    return v


def _list(v: Any, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise _fail(where, "must be a list")
    return v


def _int(v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _fail(where, "must be a whole number")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise _fail(where, f"must be between {lo} and {hi}" if hi is not None else f"must be at least {lo}")
    return v


E = TypeVar("E", bound=StrEnum)


def _enum(cls: type[E], v: Any, where: str, what: str) -> E:
    if not isinstance(v, str):
        raise _fail(where, f"must be a {what} name (a string)")
    try:
        return cls(v)
    except ValueError:
        raise _fail(where, f"unknown {what} {v!r}") from None


def character(v: Any, where: str) -> Character:
    return _enum(Character, v, where, "character")


def location(v: Any, where: str) -> Location:
    return _enum(Location, v, where, "location")


def role(v: Any, where: str, allow_none: bool = True) -> Role:
    r = _enum(Role, v, where, "role")
    if r is Role.NONE and not allow_none:
        raise _fail(where, "'none' is not a hidden role here")
    return r


@dataclass
class ReplayInput:
    players: tuple[str, ...]
    rounds_total: int
    garnets: dict[str, int]
    placements: tuple[str, ...]
    draft: dict[str, DraftSubmission] | None
    seats: dict[str, Seat] | None
    start: dict[str, Any]
    rounds: list[dict[str, Any]]


def _player(v: Any, players: tuple[str, ...], where: str) -> str:
    if not isinstance(v, str) or v not in players:
        raise _fail(where, f"unknown player {v!r}")
    return v


def _unique(items: Sequence[Hashable], where: str) -> None:
    seen: set[Hashable] = set()
    for x in items:
        if x in seen:
            raise _fail(where, f"names {x.value if hasattr(x, 'value') else x!r} twice")
        seen.add(x)


NAMED_FIELDS = ("direction", "character", "friend", "target", "destination", "player")


def parse_action(v: Any, players: tuple[str, ...], where: str) -> Action:
    d = _obj(v, where)
    if "kind" not in d:
        raise _fail(f"{where}.kind", "is missing")
    kind = d["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise _fail(f"{where}.kind", f"unknown action kind {kind!r}")
    f: dict[str, Any] = {}
    for name in NAMED_FIELDS:  # a field given is a string: null is a wrong JSON type, not an absent field
        if name in d and d[name] is None:
            raise _fail(f"{where}.{name}", "must be a string, not null")
    if "direction" in d:
        if not isinstance(d["direction"], str) or d["direction"] not in DIRECTIONS:
            raise _fail(f"{where}.direction", f"unknown direction {d['direction']!r}")
        f["direction"] = d["direction"]
    for name in ("character", "friend", "target"):
        if name in d:
            f[name] = character(d[name], f"{where}.{name}")
    if "destination" in d:
        f["destination"] = location(d["destination"], f"{where}.destination")
    if "player" in d:
        f["player"] = _player(d["player"], players, f"{where}.player")
    return Action(kind, extra=bool(set(d) - ACTION_FIELDS), **f)


def parse_submission(v: Any, players: tuple[str, ...], where: str) -> Submission | None:
    if v is None:
        return None
    d = _obj(v, where)
    if "actions" not in d:
        raise _fail(f"{where}.actions", "is missing")
    actions = tuple(
        parse_action(a, players, f"{where}.actions[{i}]") for i, a in enumerate(_list(d["actions"], f"{where}.actions"))
    )
    buys = []
    raw_buys = d.get("buy")
    if raw_buys is not None:
        for i, pair in enumerate(_list(raw_buys, f"{where}.buy")):
            w = f"{where}.buy[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise _fail(w, "must be a list of two characters")
            buys.append((character(pair[0], f"{w}[0]"), character(pair[1], f"{w}[1]")))
    guess = None
    if d.get("guess") is not None:
        g = _obj(d["guess"], f"{where}.guess")
        guess = {character(c, f"{where}.guess"): role(r, f"{where}.guess.{c}") for c, r in g.items()}
    return Submission(actions, tuple(buys), guess)


def _parse_key(v: Any, where: str) -> str:
    if not isinstance(v, str) or ":" not in v:
        raise _fail(where, f"not a cooldown key: {v!r}")
    kind, _, name = v.partition(":")
    if kind not in KEY_KINDS:
        raise _fail(where, f"unknown cooldown kind {kind!r}")
    character(name, where)
    return v


def _parse_draft(v: Any, players: tuple[str, ...], garnets: dict[str, int]) -> dict[str, DraftSubmission]:
    out = {}
    for p, raw in _obj(v, "draft").items():
        w = f"draft.{p}"
        _player(p, players, "draft")
        d = _obj(raw, w)
        bid = _int(d.get("bid", 0), f"{w}.bid", 0)
        if bid > garnets[p]:
            raise _fail(f"{w}.bid", f"{bid} is more than the player's {garnets[p]} garnets")
        roles = [role(r, f"{w}.roles", allow_none=False) for r in _list(d.get("roles", []), f"{w}.roles")]
        chars = [character(c, f"{w}.characters") for c in _list(d.get("characters", []), f"{w}.characters")]
        _unique(roles, f"{w}.roles")
        _unique(chars, f"{w}.characters")
        out[p] = DraftSubmission(bid, tuple(roles), tuple(chars))
    return out


def _parse_seats(v: Any, players: tuple[str, ...]) -> dict[str, Seat]:
    d = _obj(v, "seats")
    seats = {}
    for p in d:
        _player(p, players, "seats")
    for p in players:
        if p not in d:
            raise _fail("seats", f"player {p!r} has no seat")
        s = _obj(d[p], f"seats.{p}")
        c = character(s.get("character"), f"seats.{p}.character")
        r = role(s.get("role"), f"seats.{p}.role", allow_none=False)
        if r in FORBIDDEN[c]:
            raise _fail(f"seats.{p}", f"{c.value} cannot be the {r.value} (rule R10)")
        seats[p] = Seat(c, r)
    _unique([s.character for s in seats.values()], "seats (characters)")
    _unique([s.role for s in seats.values()], "seats (roles)")
    return seats


def parse_replay(doc: Any) -> ReplayInput:
    d = _obj(doc, "file")
    if "format" in d and d["format"] != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}")
    players_raw = _list(d.get("players"), "players")
    if len(players_raw) != 5:
        raise _fail("players", f"must list exactly 5 players, got {len(players_raw)}")
    for i, p in enumerate(players_raw):
        if not isinstance(p, str) or not p:
            raise _fail(f"players[{i}]", "must be a non-empty string")
    _unique(players_raw, "players")
    players = tuple(players_raw)
    rounds_total = _int(d.get("rounds_total", 6), "rounds_total", 1, 6)
    garnets = dict.fromkeys(players, 0)
    for p, g in _obj(d.get("garnets", {}), "garnets").items():
        garnets[_player(p, players, "garnets")] = _int(g, f"garnets.{p}", 0)
    has_draft, has_seats = d.get("draft") is not None, d.get("seats") is not None
    if has_draft == has_seats:
        raise _fail("draft", "give exactly one of 'draft' and 'seats'")
    placements: tuple[str, ...] = ()
    draft = seats = None
    if has_draft and d.get("placements") is None:
        raise _fail("placements", "is required with 'draft'")
    if d.get("placements") is not None:  # read with `seats` too: an unknown player is a format error anywhere
        pl = [_player(p, players, "placements") for p in _list(d["placements"], "placements")]
        _unique(pl, "placements")
        placements = tuple(pl) + tuple(p for p in players if p not in pl)
    if has_draft:
        draft = _parse_draft(d["draft"], players, garnets)
    else:
        seats = _parse_seats(d["seats"], players)
    start = _obj(d.get("start") or {}, "start")
    rounds = _list(d.get("rounds", []), "rounds")
    first = start.get("round", 1)
    valid_first = isinstance(first, int) and not isinstance(first, bool) and 1 <= first <= rounds_total
    if valid_first and len(rounds) > rounds_total - first + 1:  # refused before reading a single round of a huge file
        i = max(0, rounds_total - first + 1)
        raise _fail(f"rounds[{i}]", f"the game has at most {rounds_total} rounds")
    return ReplayInput(players, rounds_total, garnets, placements, draft, seats, start, rounds)


def parse_round(raw: Any, i: int, players: tuple[str, ...]) -> dict[str, Submission | None]:
    """`rounds[i]` of a replay file, read when it is replayed (so a file stops at its first bad round)."""
    rd = _obj(raw, f"rounds[{i}]")
    for p in rd:
        _player(p, players, f"rounds[{i}]")
    return {p: parse_submission(s, players, f"rounds[{i}].{p}") for p, s in rd.items()}


def apply_start(state: GameState, start: dict[str, Any]) -> GameState:
    """A mid-game `start` block over a new game's state; every field optional (replay.md)."""
    players = state.players
    changes: dict[str, Any] = {}
    rnd = _int(start.get("round", 1), "start.round", 1, state.rounds_total)
    changes["round"] = rnd
    alive = start.get("governor_alive", True)
    if not isinstance(alive, bool):
        raise _fail("start.governor_alive", "must be true or false")
    changes["governor_alive"] = alive
    living = [c for c in CHARACTERS if alive or c is not Character.GOVERNOR]
    if "positions" in start:
        pos = {
            character(c, "start.positions"): location(loc, f"start.positions.{c}")
            for c, loc in _obj(start["positions"], "start.positions").items()
        }
        if set(pos) != set(living):
            raise _fail("start.positions", "must list every living character, and only those")
        changes["positions"] = {c: pos[c] for c in living}
    else:
        changes["positions"] = {c: START[c] for c in living}
    if "friendship" in start:
        fr = {}
        for k, v in _obj(start["friendship"], "start.friendship").items():
            parts = k.split("+") if isinstance(k, str) else []
            if len(parts) != 2:
                raise _fail("start.friendship", f"not a pair: {k!r}")
            a, b = character(parts[0], f"start.friendship.{k}"), character(parts[1], f"start.friendship.{k}")
            if a is b:
                raise _fail(f"start.friendship.{k}", "a pair needs two different characters")
            points = _int(v, f"start.friendship.{k}", 0)
            if points:
                from .ids import pair_key

                fr[pair_key(a, b)] = points
        changes["friendship"] = fr
    cds = dict(state.cooldowns)
    for p, keys in _obj(start.get("cooldowns", {}), "start.cooldowns").items():
        _player(p, players, "start.cooldowns")
        cds[p] = frozenset(_parse_key(k, f"start.cooldowns.{p}") for k in _list(keys, f"start.cooldowns.{p}"))
        own = f"ability:{state.own(p).value}"
        for k in sorted(cds[p]):
            if k.startswith("ability:") and k != own:
                raise _fail(f"start.cooldowns.{p}", f"{k!r}: a player's ability key names their own character ({own})")
    changes["cooldowns"] = cds
    progress = dict(state.progress)
    for p, raw in _obj(start.get("progress", {}), "start.progress").items():
        _player(p, players, "start.progress")
        w = f"start.progress.{p}"
        pr = _obj(raw, w)
        stolen = frozenset(character(c, f"{w}.stolen") for c in _list(pr.get("stolen", []), f"{w}.stolen"))
        bank = _int(pr.get("bank_turns", 0), f"{w}.bank_turns", 0)
        stage = _int(pr.get("fraud_stage", 0), f"{w}.fraud_stage", 0, rnd - 1)  # 0, or a round before this one
        progress[p] = Progress(stolen, bank, stage)
    changes["progress"] = progress
    completed = {}
    for p, r in _obj(start.get("completed", {}), "start.completed").items():
        completed[_player(p, players, "start.completed")] = _int(r, f"start.completed.{p}", 1, rnd - 1)
    changes["completed"] = completed
    changes["over"] = len(completed) >= 4
    return state.with_changes(**changes)
