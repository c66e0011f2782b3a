"""The engine state (rulings Appendix B): mutable inside one step, copied before every step so that a
state handed out is never changed. `encode`/`decode` give plain JSON that round-trips exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .content import Content
from .geometry import Geometry

SETUP, PLAY, OVER = "setup", "play", "over"
STANDARD, LUCKY, DEEPER = "standard", "lucky_speed", "deeper_strategy"
VARIANTS = (STANDARD, LUCKY, DEEPER)
TOMBSTONES = 40
BUDGET = 7


@dataclass(frozen=True, slots=True)
class Options:
    """The replay options, resolved (R114-R120), and the bot's clocks (commands.md)."""

    variant: str = STANDARD
    target_prestige: int = 21
    gangsters: int = 7
    clock_tiles_first: bool = False
    influence_on_the_streets: bool = False
    big_business: bool = False
    timeout_time: str = "forfeit"
    turn_seconds: float | None = None
    reaction_seconds: float | None = None

    def replay_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "target_prestige": self.target_prestige,
            "gangsters": self.gangsters,
            "clock_tiles_first": self.clock_tiles_first,
            "influence_on_the_streets": self.influence_on_the_streets,
            "big_business": self.big_business,
            "timeout_time": self.timeout_time,
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.replay_json(), "turn_seconds": self.turn_seconds, "reaction_seconds": self.reaction_seconds}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Options:
        return Options(**{k: doc[k] for k in Options.__dataclass_fields__ if k in doc})


def resolve_options(
    variant: str = STANDARD,
    target_prestige: int | None = None,
    gangsters: int | None = None,
    clock_tiles_first: bool | None = None,
    **rest: Any,
) -> Options:
    """The variant's values (R114, R115) unless overridden (R119)."""
    t = {STANDARD: 21, LUCKY: 13, DEEPER: 42}[variant]
    g = {STANDARD: 7, LUCKY: 6, DEEPER: 9}[variant]
    return Options(
        variant=variant,
        target_prestige=t if target_prestige is None else target_prestige,
        gangsters=g if gangsters is None else gangsters,
        clock_tiles_first=(variant == LUCKY) if clock_tiles_first is None else clock_tiles_first,
        **rest,
    )


class Player:
    __slots__ = ("prestige", "bodies", "supply", "jobs", "fortunes", "destinies", "drawn")

    def __init__(self, supply: int) -> None:
        self.prestige = 0
        self.bodies = 0
        self.supply = supply
        self.jobs: list[str] = []
        self.fortunes: list[str] = []
        self.destinies: list[str] = []
        self.drawn: list[str] = []  # the two cards of a pending `keep`, in draw order

    def copy(self) -> Player:
        p = Player(self.supply)
        p.prestige, p.bodies = self.prestige, self.bodies
        p.jobs, p.fortunes, p.destinies, p.drawn = (
            list(self.jobs),
            list(self.fortunes),
            list(self.destinies),
            list(self.drawn),
        )
        return p

    def to_json(self) -> dict[str, Any]:
        return {
            "prestige": self.prestige,
            "bodies": self.bodies,
            "supply": self.supply,
            "jobs": list(self.jobs),
            "fortunes": list(self.fortunes),
            "destinies": list(self.destinies),
            "drawn": list(self.drawn),
        }

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Player:
        p = Player(int(doc["supply"]))
        p.prestige, p.bodies = int(doc["prestige"]), int(doc["bodies"])
        p.jobs, p.fortunes = list(doc["jobs"]), list(doc["fortunes"])
        p.destinies, p.drawn = list(doc["destinies"]), list(doc["drawn"])
        return p


class State:
    """Everything of one game. `pending` is the decision awaited ({kind, player, ...}); `job` the job whose
    newsflash is being resolved; `res` the card being resolved; `final` the last round once triggered."""

    __slots__ = (
        "players",
        "opts",
        "phase",
        "geo",
        "gangsters",
        "revealed",
        "stack",
        "decks",
        "pl",
        "number",
        "active",
        "hours",
        "timed_out",
        "presence",
        "pending",
        "setup",
        "job",
        "res",
        "final",
        "ended",
        "windows",
        "colors",
    )

    def __init__(self, content: Content, players: tuple[str, ...], opts: Options) -> None:
        self.players = players
        self.colors = tuple(content.colors[: len(players)])  # by seat (Q12)
        self.opts = opts
        self.phase = SETUP
        self.geo = Geometry(content, {})
        self.gangsters: dict[str, tuple[str, int]] = {}  # street id or block id -> (player, count)
        self.revealed: list[str] = []
        self.stack: list[str] = []  # top first
        self.decks: dict[str, list[str]] = {"jobs": [], "newsflashes": [], "fortunes": []}  # top first
        self.pl: dict[str, Player] = {p: Player(opts.gangsters) for p in players}
        self.number = 0
        self.active: str | None = None
        self.hours = 0
        self.timed_out = False
        self.presence: set[str] = set()  # cells (R35)
        self.pending: dict[str, Any] | None = None
        self.setup: tuple[int, int] | None = None  # (seat index, step 0 = Headquarters, 1, 2)
        self.job: dict[str, Any] | None = None
        self.res: dict[str, Any] | None = None
        self.final: dict[str, str] | None = None
        self.ended: str | None = None  # target or host
        self.windows = 0  # reaction windows opened so far (their clock ids)

    def copy(self) -> State:
        s = State.__new__(State)
        s.players, s.opts, s.phase, s.geo, s.colors = self.players, self.opts, self.phase, self.geo, self.colors
        s.gangsters = dict(self.gangsters)
        s.revealed, s.stack = list(self.revealed), list(self.stack)
        s.decks = {k: list(v) for k, v in self.decks.items()}
        s.pl = {p: v.copy() for p, v in self.pl.items()}
        s.number, s.active, s.hours, s.timed_out = self.number, self.active, self.hours, self.timed_out
        s.presence = set(self.presence)
        s.pending = None if self.pending is None else dict(self.pending)
        s.setup = self.setup
        s.job = None if self.job is None else dict(self.job)
        s.res = None if self.res is None else {**self.res, "params": dict(self.res["params"])}
        s.final = None if self.final is None else dict(self.final)
        s.ended, s.windows = self.ended, self.windows
        return s

    # ---- small queries -------------------------------------------------------------------------------

    def color(self, player: str) -> str:
        return self.colors[self.players.index(player)]

    def seat_after(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def seat_before(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i - 1) % len(self.players)]

    def owner_of_color(self, color: str | None) -> str | None:
        if color is None or color not in self.colors:
            return None
        return self.players[self.colors.index(color)]

    def count(self, loc: str, player: str) -> int:
        held = self.gangsters.get(loc)
        return held[1] if held is not None and held[0] == player else 0

    def total(self, loc: str) -> int:
        held = self.gangsters.get(loc)
        return 0 if held is None else held[1]

    def add(self, loc: str, player: str, n: int) -> None:
        held = self.gangsters.get(loc)
        have = held[1] if held is not None else 0
        assert held is None or held[0] == player, (loc, held, player)
        if have + n > 0:
            self.gangsters[loc] = (player, have + n)
        else:
            self.gangsters.pop(loc, None)

    def bodies_total(self) -> int:
        return sum(p.bodies for p in self.pl.values())

    # ---- JSON ----------------------------------------------------------------------------------------

    def encode(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "options": self.opts.to_json(),
            "phase": self.phase,
            "tiles": {c: [t, b] for c, (t, b) in sorted(self.geo.tiles.items())},
            "gangsters": {loc: [p, n] for loc, (p, n) in sorted(self.gangsters.items())},
            "revealed": list(self.revealed),
            "stack": list(self.stack),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "pl": {p: v.to_json() for p, v in self.pl.items()},
            "number": self.number,
            "active": self.active,
            "hours": self.hours,
            "timed_out": self.timed_out,
            "presence": sorted(self.presence),
            "pending": self.pending,
            "setup": None if self.setup is None else list(self.setup),
            "job": self.job,
            "res": self.res,
            "final": self.final,
            "ended": self.ended,
            "windows": self.windows,
        }

    @staticmethod
    def decode(content: Content, doc: Mapping[str, Any]) -> State:
        s = State(content, tuple(doc["players"]), Options.from_json(doc["options"]))
        s.phase = doc["phase"]
        s.geo = Geometry(content, {c: (tb[0], tb[1]) for c, tb in doc["tiles"].items()})
        s.gangsters = {loc: (pn[0], int(pn[1])) for loc, pn in doc["gangsters"].items()}
        s.revealed, s.stack = list(doc["revealed"]), list(doc["stack"])
        s.decks = {k: list(v) for k, v in doc["decks"].items()}
        s.pl = {p: Player.from_json(v) for p, v in doc["pl"].items()}
        s.number, s.active, s.hours = int(doc["number"]), doc["active"], int(doc["hours"])
        s.timed_out = bool(doc["timed_out"])
        s.presence = set(doc["presence"])
        s.pending = None if doc["pending"] is None else dict(doc["pending"])
        s.setup = None if doc["setup"] is None else (int(doc["setup"][0]), int(doc["setup"][1]))
        s.job = None if doc["job"] is None else dict(doc["job"])
        res = doc["res"]
        s.res = None if res is None else {**res, "params": dict(res["params"])}
        s.final = None if doc["final"] is None else dict(doc["final"])
        s.ended, s.windows = doc["ended"], int(doc["windows"])
        return s
