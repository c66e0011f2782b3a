"""The game contract: what every game of the project provides, and all the host may rely on.

In the spirit of OpenSpiel's State API and boardgame.io's Game object. A game is one object (`Game`)
of pure functions over an opaque, immutable state:

- `info`: id, title, player counts, the settings it accepts, its replay format;
- `setup(seats, settings, chance)`: the first state (and its events);
- `pending(state)`: the decision the game waits for now (who owes it, of what kind, whether moves
  apply one by one or are collected and resolved together, and its clocks); None once it is over;
- `check(state, seat, move)`: None, or a `Refusal` with a stable code (seat None: the host);
- `step(state, actions, chance)`: the new state and the events, each naming its audience;
- `timeout_actions(state)`: what "the deadline passed" means for the pending decision;
- `view(state, seat)`: what one seat (or, with None, the public) may see, built as an allow-list;
- `results(state)`: None until the game is over, then the game's result object;
- `encode_state` / `decode_state`, `encode_move` / `decode_move`: plain JSON, round-tripping;
- `random_move(state, seat, rng)`: a random legal move, for tests, simulation and the `random` level;
- `replay` / `legal` / `export`: the game's replay file (`python -m rules`, the bot's export);
- `simulate(games, seed)`: random legal play, as the report `python -m rules simulate` prints;
- `hidden(state)`: strings no public view or public event may hold while the game runs (the contract
  suite checks it: a seat's role, a card in a hand, a deck's order).

Chance (dice, shuffles) is never drawn by a game: it comes in through a `Chance` the caller supplies.
The host's is `SeededChance` (a secret seed, each draw recorded with the step that used it); a replay
gives a `RecordedChance` of those outcomes, so every game replays exactly. Moves are JSON objects in
the game's own replay notation; a move the host itself makes (a timeout, `HOST_END`, a host
correction) is an `Action` with `by=None`.

    >>> Event.public("board", {"round": 1}).visible_to("p1"), Event.to("p2", "secret", {}).visible_to("p1")
    (True, False)
    >>> Refusal("cooldown", "Not now.").to_json()
    {'code': 'cooldown', 'message': 'Not now.'}
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Final, Literal, Protocol, TypeVar, runtime_checkable

JSON = Any  # a value json.dumps accepts: dict, list, str, int, float, bool, None
Move = Mapping[str, JSON]
PUBLIC: Final = "public"
HOST_END: Final[Mapping[str, str]] = {"host": "end"}  # the host ends the game now (every game accepts it)

S = TypeVar("S")


# ---- errors as data --------------------------------------------------------------------------------


class ParseError(ValueError):
    """Input that cannot be read at all (a move or state that is not the notation or format)."""


class FormatError(ValueError):
    """A replay (or content) file that does not follow its format; the message names the field."""


# What JSON read from a file must be before anything uses it: text that can be written back out. Python's JSON
# reader accepts a lone surrogate escape ("\ud800"), which no UTF-8 output can carry, and reads 1e400 as infinity,
# which no JSON can: either would fail much later, when printed or stored.
def bad_text(value: Any, where: str) -> str | None:
    """The first string (or key) that is not valid text, or number beyond a double's range, as `where: why`;
    None when there is none.

    >>> bad_text({"id": "ok", "n": [1, 2.5]}, "file") is None
    True
    >>> bad_text({"spaces": [{"id": "o\\ud800"}]}, "board.json")
    "board.json.spaces[0].id: not valid text (it holds a lone surrogate, 'o\\\\ud800')"
    """
    stack = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if not _encodes(item):
                return f"{at}: not valid text (it holds a lone surrogate, {item!r:.40})"
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{at}: the number is out of range (beyond a double's)"
        elif isinstance(item, dict):
            for key, sub in item.items():
                if not _encodes(key):
                    return f"{at}: not valid text (it holds a lone surrogate, {key!r:.40})"
                stack.append((sub, f"{at}.{key}" if at != "file" else key))
        elif isinstance(item, list):
            stack.extend((sub, f"{at}[{i}]") for i, sub in enumerate(item))
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Refusal:
    """A move the rules do not allow now. `code` is stable (the game's replay.md lists them);
    `message` is for people and names the rule."""

    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class RulesError(Exception):
    """A refusal raised rather than returned (by a game's helpers, e.g. its notation): `code` and
    `message` as a `Refusal` has them."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Refused(RulesError):
    """`step` was given an action that `check` refuses (the host checks before it steps)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code, refusal.message)
        self.refusal = refusal


# ---- what a game declares ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting a game accepts at setup (`/<game> new` offers them as options).

    >>> Setting("rounds", "int", 6, "Rounds", minimum=1, maximum=6).check(7)
    Traceback (most recent call last):
    ...
    ValueError: rounds must be between 1 and 6, not 7
    """

    name: str
    kind: Literal["int", "float", "bool", "str", "choice", "map", "list"]
    default: JSON
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: JSON) -> JSON:
        """The value if this setting accepts it; ValueError naming the setting otherwise."""
        if value is None:
            return self.default
        kind = self.kind
        if kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind == "float":
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        elif kind == "map":
            ok = isinstance(value, dict)
        elif kind == "list":
            ok = isinstance(value, list)
        else:
            ok = isinstance(value, str)
        if not ok:
            raise ValueError(f"{self.name} must be of kind {kind}, not {value!r}")
        if kind == "choice" and value not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}")
        if kind in ("int", "float"):
            low = -float("inf") if self.minimum is None else self.minimum
            high = float("inf") if self.maximum is None else self.maximum
            if not low <= value <= high:
                raise ValueError(f"{self.name} must be between {_num(low)} and {_num(high)}, not {value}")
        return value


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str  # the registry key and the slash-command group, e.g. "crimecity"
    title: str  # "Crime City"
    min_players: int
    max_players: int
    replay_format: str  # the `format` of its replay files, e.g. "crimecity-replay/1"
    settings: tuple[Setting, ...] = ()
    summary: str = ""

    def settings_from(self, given: Mapping[str, JSON]) -> dict[str, JSON]:
        """Every setting, from `given` or its default; ValueError for an unknown or invalid one."""
        known = {s.name: s for s in self.settings}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r} for {self.title}")
        return {name: s.check(given.get(name)) for name, s in known.items()}


# ---- what a game answers -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, and who may see it: the public, or a tuple of seats."""

    audience: Literal["public"] | tuple[str, ...]
    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)

    @staticmethod
    def public(kind: str, data: Mapping[str, JSON] | None = None) -> Event:
        return Event(PUBLIC, kind, data or {})

    @staticmethod
    def to(seats: str | Sequence[str], kind: str, data: Mapping[str, JSON] | None = None) -> Event:
        audience = (seats,) if isinstance(seats, str) else tuple(seats)
        return Event(audience, kind, data or {})

    @property
    def is_public(self) -> bool:
        return self.audience == PUBLIC

    def visible_to(self, seat: str | None) -> bool:
        """Whether `seat` (None: the public) may see this event."""
        return self.is_public or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, JSON]:
        audience: JSON = PUBLIC if self.is_public else list(self.audience)
        return {"audience": audience, "kind": self.kind, "data": dict(self.data)}

    @staticmethod
    def from_json(doc: Mapping[str, JSON]) -> Event:
        audience = doc["audience"]
        return Event(PUBLIC if audience == PUBLIC else tuple(audience), doc["kind"], dict(doc.get("data") or {}))


@dataclass(frozen=True, slots=True)
class Clock:
    """A deadline clock of the pending decision. `seconds` None: the host's default for the game.
    `beneath`: an outer clock that keeps running while the clocks after it run (a turn's clock through
    a window of the turn's own player), instead of waiting for them."""

    id: str
    seconds: float | None = None
    beneath: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision a game waits for.

    - `decision`: its kind, in the game's words ("draft", "round", "turn", "vote", "react", ...);
    - `awaited`: the seats it waits for; `optional`: seats that may act without being waited for;
    - `together`: True when moves are collected (each seat's replaceable until the step resolves)
      and resolved at once by one `step`; False when each move is applied as it comes;
    - `clocks`: the open deadline clocks, outermost first. Only the last runs (and those marked
      `beneath`); the others are paused until it is gone (a reaction window stops the turn's clock).
      A clock id that appears is new; one that disappears is over.
    """

    decision: str
    awaited: tuple[str, ...]
    optional: tuple[str, ...] = ()
    together: bool = False
    clocks: tuple[Clock, ...] = ()

    @property
    def clock(self) -> Clock | None:
        return self.clocks[-1] if self.clocks else None

    def may_act(self, seat: str) -> bool:
        return seat in self.awaited or seat in self.optional

    def to_json(self) -> dict[str, JSON]:
        return {
            "decision": self.decision,
            "awaited": list(self.awaited),
            "optional": list(self.optional),
            "together": self.together,
            "clocks": [
                {"id": c.id, "seconds": c.seconds} | ({"beneath": True} if c.beneath else {}) for c in self.clocks
            ],
        }

    @staticmethod
    def from_json(doc: Mapping[str, JSON]) -> Pending:
        return Pending(
            decision=doc["decision"],
            awaited=tuple(doc["awaited"]),
            optional=tuple(doc.get("optional") or ()),
            together=bool(doc.get("together")),
            clocks=tuple(Clock(c["id"], c.get("seconds"), bool(c.get("beneath"))) for c in doc.get("clocks") or ()),
        )


@dataclass(frozen=True, slots=True)
class Action:
    """A move and who made it: a seat, or None for the host (timeouts, `HOST_END`, corrections)."""

    by: str | None
    move: Move

    def to_json(self) -> dict[str, JSON]:
        return {"by": self.by, "move": dict(self.move)}

    @staticmethod
    def from_json(doc: Mapping[str, JSON]) -> Action:
        return Action(doc.get("by"), dict(doc["move"]))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `setup` and `step` return: the new state and what happened, in order."""

    state: Any
    events: tuple[Event, ...] = ()


# ---- chance ------------------------------------------------------------------------------------------


class Chance(Protocol):
    """Where a game's chance comes from. Draws happen in the order the rules need them."""

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]: ...

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]: ...


class ChanceExhausted(FormatError):
    """A recorded chance stream has no outcome left, or not the one the rules ask for."""


class NoChance:
    """For games and steps that use no chance: any draw is a bug."""

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        raise ChanceExhausted("this step draws no chance")

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]:
        raise ChanceExhausted("this step draws no chance")


class SeededChance:
    """The host's chance: draw number `n` depends only on (seed, n), so a game resumes exactly after a
    restart given how many draws it made. Every outcome is kept in `drawn` (for the move log).

    >>> a, b = SeededChance("s3cret"), SeededChance("s3cret")
    >>> a.dice(2) == b.dice(2), a.shuffle("deck", ["x", "y", "z"]) == b.shuffle("deck", ["x", "y", "z"])
    (True, True)
    >>> SeededChance("s3cret", start=1).shuffle("deck", ["x", "y", "z"]) == a.drawn[1]["order"]
    True
    """

    def __init__(self, seed: str, start: int = 0) -> None:
        self._seed = seed
        self._n = start
        self.drawn: list[dict[str, JSON]] = []

    def _rng(self) -> Random:
        digest = hashlib.sha256(f"{self._seed}:{self._n}".encode()).digest()
        self._n += 1
        return Random(int.from_bytes(digest[:16], "big"))

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        rng = self._rng()
        rolled = tuple(rng.randint(1, sides) for _ in range(count))
        self.drawn.append({"dice": list(rolled), "sides": sides})
        return rolled

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]:
        order = list(items)
        self._rng().shuffle(order)
        self.drawn.append({"shuffle": label, "order": list(order)})
        return order

    @property
    def draws(self) -> int:
        """How many draws this stream has made in all (its `start` included)."""
        return self._n


class RecordedChance:
    """Replays outcomes recorded by `SeededChance.drawn` (or written in a replay file), in order.

    >>> c = RecordedChance([{"dice": [4, 2], "sides": 6}, {"shuffle": "deck", "order": ["b", "a"]}])
    >>> c.dice(2), c.shuffle("deck", ["a", "b"]), c.left
    ((4, 2), ['b', 'a'], 0)
    """

    def __init__(self, outcomes: Sequence[Mapping[str, JSON]]) -> None:
        self._outcomes = list(outcomes)
        self._i = 0

    @property
    def left(self) -> int:
        return len(self._outcomes) - self._i

    def _next(self, what: str) -> Mapping[str, JSON]:
        if self._i >= len(self._outcomes):
            raise ChanceExhausted(f"chance[{self._i}]: no recorded outcome left for {what}")
        outcome = self._outcomes[self._i]
        self._i += 1
        return outcome

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        i = self._i
        outcome = self._next("a roll")
        rolled = outcome.get("dice")
        if (
            not isinstance(rolled, list)
            or len(rolled) != count
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= sides for d in rolled)
        ):
            raise ChanceExhausted(f"chance[{i}]: expected {count} dice of 1-{sides}, not {outcome!r}")
        return tuple(rolled)

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]:
        i = self._i
        outcome = self._next(f"a shuffle of {label}")
        order = outcome.get("order")
        if outcome.get("shuffle") != label or not isinstance(order, list) or sorted(order) != sorted(items):
            raise ChanceExhausted(f"chance[{i}]: expected a shuffle of {label} ({len(items)} items), not {outcome!r}")
        return list(order)


# ---- the game ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One `step` as the host applied it: the actions and the chance outcomes they drew."""

    actions: tuple[Action, ...]
    chance: tuple[Mapping[str, JSON], ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {"actions": [a.to_json() for a in self.actions], "chance": [dict(c) for c in self.chance]}

    @staticmethod
    def from_json(doc: Mapping[str, JSON]) -> LogEntry:
        return LogEntry(
            tuple(Action.from_json(a) for a in doc["actions"]), tuple(dict(c) for c in doc.get("chance") or ())
        )


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game as the host keeps it: enough to replay it to its snapshot, always."""

    game: str
    seats: tuple[str, ...]
    names: Mapping[str, str]  # seat -> the name an export gives the player (Discord user name)
    settings: Mapping[str, JSON]
    setup_chance: tuple[Mapping[str, JSON], ...]
    log: tuple[LogEntry, ...]


@runtime_checkable
class Game(Protocol):
    """Every registered game is one object with these members (see the module docstring)."""

    @property
    def info(self) -> GameInfo: ...  # a class attribute, or derived from the game's content

    def setup(self, seats: Sequence[str], settings: Mapping[str, JSON], chance: Chance) -> Outcome: ...

    def pending(self, state: Any) -> Pending | None: ...

    def check(self, state: Any, seat: str | None, move: Move) -> Refusal | None: ...

    def step(self, state: Any, actions: Sequence[Action], chance: Chance) -> Outcome: ...

    def timeout_actions(self, state: Any) -> list[Action]: ...

    def view(self, state: Any, seat: str | None) -> dict[str, JSON]: ...

    def results(self, state: Any) -> dict[str, JSON] | None: ...

    def encode_state(self, state: Any) -> dict[str, JSON]: ...

    def decode_state(self, doc: Mapping[str, JSON]) -> Any: ...

    def encode_move(self, move: Move) -> dict[str, JSON]: ...

    def decode_move(self, doc: Any) -> Move: ...

    def random_move(self, state: Any, seat: str, rng: Random) -> Move | None: ...

    def replay(self, doc: Any) -> dict[str, JSON]: ...

    def legal(self, doc: Any, player: str) -> dict[str, JSON]: ...

    def export(self, record: Record) -> dict[str, JSON]: ...

    def simulate(self, games: int, seed: int, tick: Callable[[], None] | None = None) -> str: ...

    def hidden(self, state: Any) -> set[str]: ...


def replay_record(game: Game, record: Record) -> Outcome:
    """Replay a host's record from setup: the state it ends in, and every event on the way.
    The host keeps a snapshot too; the contract suite checks the two always agree."""
    out = game.setup(record.seats, record.settings, RecordedChance(record.setup_chance))
    state, events = out.state, list(out.events)
    for entry in record.log:
        step = game.step(state, entry.actions, RecordedChance(entry.chance))
        state = step.state
        events.extend(step.events)
    return Outcome(state, tuple(events))
