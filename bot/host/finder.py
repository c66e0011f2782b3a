"""Finding the game a command is for, the caller's seat in it, and who may host it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..storage import Storage
from ..storage import games as games_repo
from ..storage.models import ENDED, GameRow
from ..storage.sql import row
from .context import Caller
from .errors import NoGame, NotAllowed, UserError
from .roster import Roster


@dataclass(frozen=True, slots=True)
class Seated:
    """A game and the caller's seat in it (None for a host or a member who is not playing)."""

    game: GameRow
    roster: Roster
    seat: str | None


class Finder:
    def __init__(self, db: Storage, titles: Callable[[str], str], *, host_role: str | None = None) -> None:
        self.db = db
        self.titles = titles  # game kind -> its title, for messages
        self.host_role = host_role
        # Set by the bot: is this user a member of this server now? (None: not checked, e.g. in tests.)
        self.membership: Callable[[int, int], Awaitable[bool]] | None = None

    def other_kind(self, kind: str) -> NoGame:
        """What a command of another game is told in a channel whose game is of `kind`."""
        return NoGame(f"This channel's game is {self.titles(kind)}: use /{kind} here.")

    async def game(self, caller: Caller, kind: str, game_opt: str | None = None) -> GameRow:
        async with self.db.reader() as conn:
            return await self.find(conn, caller, kind, game_opt)

    async def find(self, conn: Any, caller: Caller, kind: str, game_opt: str | None) -> GameRow:
        """The channel's game in a guild; in a DM the caller's one active game of this kind (or `game_opt`)."""
        title = self.titles(kind)
        if caller.in_guild:
            game = await games_repo.active_game_in_channel(conn, caller.channel_id or 0)
            if game is None:
                raise NoGame(f"There is no {title} game in this channel. A host can open one with /{kind} new.")
            if game.kind != kind:
                raise self.other_kind(game.kind)
            return game
        mine = await games_repo.active_games_of_user(conn, caller.user_id, kind)
        if game_opt:
            wanted = game_opt.strip().lstrip("#")
            for game in mine:
                if str(game.id) == wanted:
                    return game
            # also reached from a button of a game that ended, or pressed by someone who does not play it
            raise NoGame(f"That is not one of your active games: game {wanted[:20]!r} has ended, or you hold no "
                         f"seat in it (the `game` option lists yours).")
        if not mine:
            raise NoGame(f"You are not in any active {title} game.")
        if len(mine) > 1:
            raise UserError("You are in several games: choose one with the `game` option.")
        return mine[0]

    async def game_or_last(self, caller: Caller, kind: str, game_opt: str | None = None) -> GameRow:
        """Like `game`, but falls back to the latest ended game (for an export after the end)."""
        try:
            return await self.game(caller, kind, game_opt)
        except NoGame:
            async with self.db.read() as conn:
                args: tuple[object, ...]
                if caller.in_guild:
                    sql, args = (
                        "SELECT id FROM games WHERE channel_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
                        (caller.channel_id, kind),
                    )
                elif game_opt and game_number(game_opt) is not None:
                    sql = (
                        "SELECT id FROM games WHERE id = ? AND kind = ? AND (host_id = ? OR id IN"
                        f" (SELECT game_id FROM seats WHERE {games_repo.HELD_BY}))"
                    )
                    args = (game_number(game_opt), kind, caller.user_id, caller.user_id, caller.user_id)
                else:
                    sql = (
                        "SELECT id FROM games WHERE kind = ? AND (host_id = ? OR id IN"
                        f" (SELECT game_id FROM seats WHERE {games_repo.HELD_BY})) ORDER BY id DESC LIMIT 1"
                    )
                    args = (kind, caller.user_id, caller.user_id, caller.user_id)
                found = await row(conn, sql, args)
                game = None if found is None else await games_repo.get_game(conn, found["id"])
            if game is None:
                raise
            return game

    async def games_of(self, user_id: int, kind: str) -> list[GameRow]:
        async with self.db.read() as conn:
            return await games_repo.active_games_of_user(conn, user_id, kind)

    async def roster(self, game_id: int) -> Roster:
        async with self.db.reader() as conn:
            return Roster(await games_repo.seats(conn, game_id))

    async def seated(self, caller: Caller, kind: str, game_opt: str | None = None, *, need_seat: bool = True) -> Seated:
        async with self.db.read() as conn:  # one snapshot for the game and its seats
            game = await self.find(conn, caller, kind, game_opt)
            roster = Roster(await games_repo.seats(conn, game.id))
        seat = roster.seat_of(caller.user_id)
        if need_seat and seat is None:
            raise NotAllowed("You are not a player in this game, so you cannot do that here.")
        return Seated(game, roster, seat)

    # ---- rights ------------------------------------------------------------------------------------------

    async def is_admin(self, game: GameRow, caller: Caller) -> bool:
        """Manage Server in the game's server now (from this interaction), or being the game's host while
        still a member of its server (a host kicked or banned loses the game)."""
        if caller.manage_guild and caller.guild_id == game.guild_id:
            return True
        if caller.user_id != game.host_id:
            return False
        if caller.guild_id == game.guild_id:
            return True  # the command came from the server itself: a member
        return self.membership is None or await self.membership(game.guild_id, caller.user_id)

    async def require_admin(self, game: GameRow, caller: Caller) -> None:
        if not await self.is_admin(game, caller):
            raise NotAllowed(
                "You cannot use that command. Only the game's host (still a member of its server) or a member "
                "with Manage Server can."
            )

    def may_open(self, caller: Caller) -> bool:
        return caller.manage_guild or caller.has_role(self.host_role)


def game_number(text: str) -> int | None:
    """A game id typed in the `game` option ("12" or "#12"); None for anything else, including
    digits int() refuses ("²") and numbers SQLite cannot hold."""
    wanted = text.strip().lstrip("#")
    if not (wanted.isascii() and wanted.isdigit()) or len(wanted) > 18:
        return None
    return int(wanted)


def is_active(game: GameRow | None) -> bool:
    return game is not None and game.status != ENDED
