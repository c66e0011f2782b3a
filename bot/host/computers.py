"""Computer players' seats: when they move and what they are given to decide from, for every game.

A seat held by a computer player (`seats.computer` = its level, no member) gets a persisted timer
when a decision opens that awaits it (`Stepper.arm_computers`, with the delay `Timing` gives).
When the timer is due, the player gets what a member in its seat would have: the seat's view, the
open decision, and the events the seat received (read from the stored events by recipient, never
from the state), and a `Random` from the game's secret, the seat and the decision's number. It
decides on a worker thread (a strong decision can take half a second), and its move goes through
the members' path (`Play.submit_seat`): checked by the rules, collected or applied, logged, shown
as submitted, exported. A refused move, or none where one is owed, becomes a random legal one.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from rules import players as computer_players
from rules.contract import PUBLIC, Event, Move, Pending

from ..storage import Storage
from ..storage import games as games_repo
from ..storage import log as log_repo
from ..storage import submissions as subs_repo
from ..storage.models import RUNNING, TimerRow
from .errors import UserError
from .play import Play, Turn
from .presenting import Presentation
from .stepper import ComputerWait, Stepper

log = logging.getLogger(__name__)

# The game changed while a player was deciding (a host's move; other computer deciders' votes, each
# applied at once): decide again, at most this often (more than the seats a game has).
RETRIES = 8


@dataclass(frozen=True, slots=True)
class Timing:
    """When a computer player moves. Every delay is drawn from the game's secret, the seat and the
    decision, so it is the same after a restart; `scale` multiplies them all (0 in tests: at once).

    - while a member still owes a move: a share (`share`) of the time left before the deadline, at
      least `least` seconds and at most 30-100% of `most`, always before the deadline; with no running
      deadline (none, or paused) `unclocked` seconds;
    - once no member owes one: `soon` seconds, so a computer never holds a decision up.
    """

    scale: float = 1.0
    soon: tuple[float, float] = (1.0, 4.0)
    share: tuple[float, float] = (0.05, 0.4)
    least: float = 5.0
    most: float = 900.0
    unclocked: tuple[float, float] = (20.0, 90.0)

    def delay(self, secret: str, wait: ComputerWait) -> float:
        """Seconds from `wait.now` until the seat moves.

        >>> from types import SimpleNamespace as NS
        >>> t = Timing()
        >>> game = NS(step=3)
        >>> soon = t.delay("s", ComputerWait(game, "p2", 1000.0, 0.0, members_owe=False))
        >>> 1.0 <= soon <= 4.0
        True
        >>> slow = t.delay("s", ComputerWait(game, "p2", 1000.0, 0.0, members_owe=True))
        >>> 5.0 <= slow <= 400.0, slow == t.delay("s", ComputerWait(game, "p2", 1000.0, 0.0, True))
        (True, True)
        >>> t.delay("s", ComputerWait(game, "p2", 2.0, 0.0, members_owe=True)) < 2.0  # before the deadline
        True
        >>> t.delay("s", ComputerWait(game, "p2", 2.0, 0.0, members_owe=False)) < 2.0  # soon, and still before it
        True
        """
        digest = hashlib.sha256(f"delay:{secret}:{wait.seat}:{wait.game.step}:{int(wait.members_owe)}".encode())
        rng = Random(int.from_bytes(digest.digest()[:16], "big"))
        if not wait.members_owe:
            seconds = rng.uniform(*self.soon)
            if wait.deadline_at is not None:  # a deadline the host brought close: still before it
                seconds = min(seconds, self.share[1] * max(0.0, wait.deadline_at - wait.now))
        elif wait.deadline_at is None:
            seconds = rng.uniform(*self.unclocked)
        else:
            left = max(0.0, wait.deadline_at - wait.now)
            share = rng.uniform(*self.share)
            cap = rng.uniform(0.3, 1.0) * self.most  # a long deadline: somewhere in the first minutes
            seconds = min(max(share * left, self.least), cap, self.share[1] * left)
        return seconds * self.scale


@dataclass(frozen=True, slots=True)
class Inputs:
    """Everything a computer player decides from (and nothing else), and where the game was then."""

    kind: str
    level: str
    view: dict[str, Any]
    pending: Pending
    seen: tuple[Event, ...]
    rng: Random
    step: int
    version: int


class Computers:
    """Sets `Stepper.computer_delay`; `move` is what a due computer timer does (`Due.computer`)."""

    def __init__(
        self,
        db: Storage,
        stepper: Stepper,
        play: Play,
        presentations: Mapping[str, Presentation],
        *,
        timing: Timing | None = None,
        make: Callable[[str, str], computer_players.ComputerPlayer] = computer_players.make,
        player_rng: Callable[[str, str, int], Random] = computer_players.player_rng,
    ) -> None:
        self.db = db
        self.stepper = stepper
        self.play = play
        self.presentations = presentations
        self.timing = timing or Timing()
        self.make = make
        self.player_rng = player_rng
        self._players: dict[tuple[str, str], computer_players.ComputerPlayer] = {}
        stepper.computer_delay = self.delay

    def delay(self, wait: ComputerWait) -> float | None:
        if wait.game.seed is None:
            return None
        return self.timing.delay(wait.game.seed, wait)

    def player(self, kind: str, level: str) -> computer_players.ComputerPlayer:
        key = (kind, level)
        if key not in self._players:  # stateless: one per level serves every seat and game
            self._players[key] = self.make(kind, level)
        return self._players[key]

    async def inputs(self, game_id: int, seat: str, step: int) -> Inputs | None:
        """What the seat's player decides from, if the seat is a computer player's and may act in decision
        `step` (still open) and has not moved in it yet; else None."""
        async with self.db.read() as conn:
            game = await games_repo.get_game(conn, game_id)
            if game is None or game.status != RUNNING or game.step != step or game.pending is None:
                return None
            holder = next((s for s in await games_repo.seats(conn, game_id) if s.seat == seat), None)
            if holder is None or holder.computer is None or not game.pending.may_act(seat):
                return None
            if game.pending.together and seat in await subs_repo.collected_seats(conn, game_id, step):
                return None  # it moved already (or the member it replaced did): that move stands
            rows = await log_repo.events_for(conn, game_id, seat)
            audiences = await log_repo.audiences_for(conn, game_id, seat)
        assert game.seed is not None
        rules = self.presentations[game.kind].game
        state = self.stepper.states.get(rules, game)
        seen = tuple(Event(PUBLIC if r.public else tuple(audiences.get(r.id, (seat,))), r.kind, r.data) for r in rows)
        rng = self.player_rng(game.seed, seat, game.step)
        return Inputs(
            game.kind, holder.computer, rules.view(state, seat), game.pending, seen, rng, game.step, game.version
        )

    async def move(self, timer: TimerRow) -> None:
        """A due computer timer: the seat's player decides, off the event loop, and its move is submitted."""
        seat = timer.clock
        if seat is None:
            return
        for _ in range(RETRIES):
            found = await self.inputs(timer.game_id, seat, timer.step)
            if found is None:
                log.debug("game %s: seat %s has nothing to do at step %s", timer.game_id, seat, timer.step)
                return
            decided = await asyncio.to_thread(self._decide, found)
            asked = False

            def build(turn: Turn, found: Inputs = found, decided: Move | None = decided) -> Move | None:
                nonlocal asked
                asked = True
                return self._checked(turn, found, decided)

            played = await self.play.submit_seat(timer.game_id, seat, found.step, found.version, build)
            log.debug("game %s: seat %s at step %s: %s", timer.game_id, seat, found.step, played is not None)
            if asked:
                return
            # The game changed while the player decided (a host's move): decide again on what it is now.
        log.warning(
            "game %s: a computer player's move was overtaken %d times in a row; it waits for the next decision",
            timer.game_id,
            RETRIES,
        )

    def _decide(self, found: Inputs) -> Move | None:
        """On a worker thread: the player gets the view, the decision, its events and its `Random`; nothing else."""
        try:
            player = self.player(found.kind, found.level)
            return player.decide(found.view, found.pending, found.seen, found.rng)
        except Exception:  # a player's bug must not stall its seat: the fallback moves for it
            log.warning("a computer player (%s) failed to decide", found.level, exc_info=True)
            return None

    def _checked(self, turn: Turn, found: Inputs, decided: Move | None) -> Move | None:
        """The player's move if the rules accept it; else (or none where one is owed) a random legal one."""
        game = turn.game
        rules = self.presentations[game.kind].game
        owed = game.pending is not None and turn.seat in game.pending.awaited
        if decided is not None:
            refusal = rules.check(turn.state, turn.seat, decided)
            if refusal is None:
                return decided
            # The code only: the move itself may hold the seat's secrets.
            log.warning(
                "game %s: a computer player (%s) made a move the rules refuse (%s); a random legal move instead",
                game.id,
                found.level,
                refusal.code,
            )
        elif not owed:
            return None
        else:
            log.warning(
                "game %s: a computer player (%s) gave no move; a random legal move instead", game.id, found.level
            )
        assert game.seed is not None
        return rules.random_move(turn.state, turn.seat, self.player_rng(game.seed, f"fallback:{turn.seat}", game.step))


def levels(kind: str) -> list[str]:
    """The levels of computer player a game offers, weakest first (empty: it has none)."""
    try:
        return computer_players.levels(kind)
    except computer_players.UnknownLevel:
        return []


def check_level(kind: str, level: str, title: str) -> None:
    known = levels(kind)
    if not known:
        raise UserError(f"{title} has no computer players.")
    if level not in known:
        raise UserError(f"There is no computer player level {level!r} for {title}; pick one of {', '.join(known)}.")


def next_computer_number(names: Iterable[str]) -> int:
    """One more than the highest number of the computer players seated now, so no two share a name (the
    export names players by name), even after one left the lobby.

    >>> next_computer_number(["Computer 1 (random)", "Computer 3 (strong)"])
    4
    >>> next_computer_number([])
    1
    """
    numbers = [int(m[1]) for m in (NUMBERED.match(n) for n in names) if m is not None]
    return 1 + max(numbers, default=0)


NUMBERED = re.compile(r"Computer ([0-9]+) \(")


def computer_name(number: int, level: str) -> str:
    """A computer player's name in its game: it says what it is (no member can be called that: Discord's
    user names have no spaces or brackets).

    >>> computer_name(2, "strong")
    'Computer 2 (strong)'
    """
    return f"Computer {number} ({level})"
