"""What people read about a game, gathered for its presentation: the board, a seat's status, history.

The board holds the public view only; a status holds the caller's own seat's view, their collected
move and the events their seat received, and nothing of any other seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..storage import Storage
from ..storage import clocks as clocks_repo
from ..storage import games as games_repo
from ..storage import log as log_repo
from ..storage import outbox as outbox_repo
from ..storage import submissions as subs_repo
from ..storage.models import ENDED, LOBBY, RUNNING, EventRow, GameRow
from ..storage.sql import rows
from . import clocks
from .context import Caller
from .errors import NotAllowed, UserError
from .finder import Finder
from .presenting import Presentation
from .roster import Roster
from .stepper import States, counted

PER_PAGE = 8


@dataclass(frozen=True, slots=True)
class Clock:
    deadline_at: float | None  # the running clock's deadline
    remaining: float | None  # while paused: what it will have when it resumes


@dataclass(frozen=True, slots=True)
class Board:
    game: GameRow
    roster: Roster
    public: dict[str, Any] | None  # the public view; None in the lobby
    submitted: list[str] | None  # seats with a collected move (decisions resolved together), else None
    clock: Clock


@dataclass(frozen=True, slots=True)
class Status:
    game: GameRow
    roster: Roster
    seat: str | None  # None: the host, who holds no seat
    view: dict[str, Any] | None  # the seat's own view; None in the lobby
    mine: dict[str, Any] | None  # the seat's collected move for the open decision
    learned: list[EventRow]  # the events only this seat (and whoever else it names) received
    inbox: list[tuple[int, str, bool]]  # messages that could not be DMed: (id, text, already read)
    clock: Clock
    admin: bool = False


@dataclass(frozen=True, slots=True)
class History:
    games: list[tuple[GameRow, Roster]]
    page: int
    pages: int
    total: int
    extra: dict[str, Any] = field(default_factory=dict)


class Reports:
    def __init__(
        self,
        db: Storage,
        finder: Finder,
        states: States,
        presentations: Mapping[str, Presentation],
        play: Any,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.play = play
        self.db = db
        self.finder = finder
        self.states = states
        self.presentations = presentations
        self.clock = clock

    async def board(self, caller: Caller, kind: str, game_opt: str | None = None) -> Board:
        game = (
            await self.finder.game_or_last(caller, kind, game_opt)
            if not caller.in_guild
            else await self.finder.game(caller, kind, game_opt)
        )
        async with self.db.read() as conn:
            roster = Roster(await games_repo.seats(conn, game.id))
            submitted = None
            if game.status == RUNNING and game.pending is not None and game.pending.together:
                rules = self.presentations[kind].game
                collected = await subs_repo.collected(conn, game.id, game.step)
                done = counted(rules, self.states.get(rules, game), collected)
                submitted = [s for s in roster.seats if s in done]
            clock = await self._clock(conn, game)
        public = None
        if game.state is not None:
            public = self.presentations[kind].game.view(self.states.get(self.presentations[kind].game, game), None)
        return Board(game, roster, public, submitted, clock)

    async def status(self, caller: Caller, kind: str, game_opt: str | None = None) -> Status:
        # The game, its seats and clocks from the move path's context (usually in memory); the seat's
        # own rows in two one-statement reads. A status answers the caller only, so a context a move is
        # just changing gives at worst the state of a moment ago.
        ctx = await self.play.peek(caller, kind, game_opt)
        game, roster = ctx.game, Roster(ctx.seats)
        seat = roster.seat_of(caller.user_id)
        admin = await self.finder.is_admin(game, caller)
        if seat is None and not admin:
            raise NotAllowed("You are not a player in this game.")
        clock = _clock_of(game, list(ctx.clocks))
        if seat is None:
            return Status(game, roster, None, None, None, [], [], clock, admin)
        mine = ctx.collected.get(seat) if game.pending is not None and game.pending.together else None
        async with self.db.reader() as conn:
            learned = await log_repo.events_for(conn, game.id, seat, private_only=True)
        async with self.db.reader() as conn:
            inbox = await outbox_repo.inbox(conn, game.id, seat)
        view = None
        if game.state is not None:
            rules = self.presentations[kind].game
            view = rules.view(self.states.get(rules, game), seat)
        return Status(game, roster, seat, view, mine, learned, inbox, clock, admin)

    async def inbox_read(self, game_id: int, seat: str, ids: list[int]) -> None:
        if ids:
            async with self.db.transaction() as conn:
                await outbox_repo.mark_inbox_read(conn, game_id, seat, self.clock(), ids=ids)

    async def history(
        self,
        caller: Caller,
        kind: str,
        page: int = 1,
        *,
        visible: Callable[[int], bool] | None = None,
        played: bool = False,
    ) -> History:
        """The server's ended games of this kind, newest first. `visible(channel_id)`: whether the caller
        may see that channel (games of channels they cannot see are left out). `played`: only games that
        started (a lobby closed by its host is left out)."""
        if not caller.in_guild:
            raise UserError(f"Use /{kind} history in a server channel: it lists that server's games.")
        async with self.db.read() as conn:
            ids = await self._ended_ids(conn, caller, kind, visible, played=played)
            pages = max(1, -(-len(ids) // PER_PAGE))
            page = min(max(page, 1), pages)
            games = await self._games(conn, ids[(page - 1) * PER_PAGE : page * PER_PAGE])
        return History(games, page, pages, len(ids))

    async def ended(self, caller: Caller, kind: str, *, limit: int = 2000) -> list[tuple[GameRow, Roster]]:
        """The server's ended games of this kind that the caller may see, newest first (for statistics)."""
        if not caller.in_guild:
            raise UserError(f"Use /{kind} stats in a server channel: it counts that server's games.")
        async with self.db.read() as conn:
            return await self._games(conn, (await self._ended_ids(conn, caller, kind, None))[:limit])

    async def _ended_ids(
        self, conn: Any, caller: Caller, kind: str, visible: Callable[[int], bool] | None, *, played: bool = False
    ) -> list[int]:
        started = " AND started_at IS NOT NULL" if played else ""
        found = await rows(
            conn,
            f"SELECT id, channel_id FROM games WHERE guild_id = ? AND kind = ? AND status = ?{started}"
            " ORDER BY ended_at DESC, id DESC",
            (caller.guild_id, kind, ENDED),
        )
        visible = visible or caller.can_see  # never a game of a channel the caller cannot see
        return [r["id"] for r in found if visible is None or visible(r["channel_id"])]

    async def _games(self, conn: Any, ids: list[int]) -> list[tuple[GameRow, Roster]]:
        games: list[tuple[GameRow, Roster]] = []
        for game_id in ids:
            game = await games_repo.get_game(conn, game_id)
            if game is not None:
                games.append((game, Roster(await games_repo.seats(conn, game_id))))
        return games

    async def clock_of(self, game: GameRow) -> Clock:
        """The open decision's running clock (or, while paused, the time it will have)."""
        async with self.db.reader() as conn:
            return await self._clock(conn, game)

    async def _clock(self, conn: Any, game: GameRow) -> Clock:
        return _clock_of(game, await clocks_repo.clocks(conn, game.id) if game.status == RUNNING else [])


def _clock_of(game: GameRow, rows: list[Any]) -> Clock:
    if game.status != RUNNING or not rows:
        return Clock(None, None)
    shown = clocks.shown(rows)
    assert shown is not None
    return Clock(shown.deadline_at, shown.remaining)


def is_lobby(game: GameRow) -> bool:
    return game.status == LOBBY
