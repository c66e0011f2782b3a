"""The lobby: opening a game in a channel, joining, leaving, and starting it (the game's setup)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..storage import Storage
from ..storage import games as games_repo
from ..storage.errors import Conflict
from ..storage.models import LOBBY, GameRow, HostOptions
from .context import Caller, Member
from .errors import NotAllowed, UserError
from .finder import Finder
from .locks import Locks
from .presenting import Presentation
from .roster import Roster
from .stepper import Advance, Stepper

log = logging.getLogger(__name__)

MAX_HOURS = 24 * 60


class Lobby:
    def __init__(
        self,
        db: Storage,
        finder: Finder,
        stepper: Stepper,
        locks: Locks,
        presentations: Mapping[str, Presentation],
        *,
        clock: Callable[[], float],
        committed: Callable[[], None],
    ) -> None:
        self.db = db
        self.finder = finder
        self.stepper = stepper
        self.locks = locks
        self.presentations = presentations
        self.clock = clock
        self.committed = committed
        self.seasons: Any = None  # set by the host: a season game's roster, balances and placements

    async def open(
        self,
        caller: Caller,
        kind: str,
        settings: Mapping[str, Any],
        options: HostOptions,
        *,
        season_id: int | None = None,
    ) -> GameRow:
        resolved = self._opening(caller, kind, settings, options)
        try:
            async with self.db.transaction() as conn:
                game = await self._create(conn, caller, kind, resolved, options, season_id)
        except Conflict as exc:
            raise UserError("This channel already has a game that has not ended.") from exc
        log.info("game %s (%s) opened in channel %s", game.id, kind, caller.channel_id)
        return game

    async def open_started(
        self,
        caller: Caller,
        kind: str,
        settings: Mapping[str, Any],
        options: HostOptions,
        members: Sequence[Member],
        *,
        season_id: int | None = None,
    ) -> tuple[Advance, Roster]:
        """A game with its seats taken (in order) and set up at once, in one transaction: a game brought in
        from a file. Whatever is refused (the channel, a member, the setup), nothing is created."""
        info = self.presentations[kind].game.info
        resolved = self._opening(caller, kind, settings, options)
        if not info.min_players <= len(members) <= info.max_players:
            raise UserError(f"{info.title} needs {players_text(info)}, not {len(members)}.")
        if len({m.user_id for m in members}) != len(members):
            raise UserError("Each member can hold only one seat.")
        try:
            async with self.db.transaction() as conn:
                game = await self._create(conn, caller, kind, resolved, options, season_id)
                for member in members:
                    if season_id is not None and not await self.seasons.is_member(season_id, member.user_id):
                        raise NotAllowed(f"{member.display_name} is not on the season's roster.")
                    await games_repo.add_seat(
                        conn,
                        game.id,
                        user_id=member.user_id,
                        user_name=member.user_name,
                        display_name=member.display_name,
                        now=self.clock(),
                    )
                roster = Roster(await games_repo.seats(conn, game.id))
                try:
                    advance = await self.stepper.start(conn, game, roster, resolved)
                except ValueError as exc:
                    raise UserError(f"{info.title}: {exc}.") from None
        except Conflict as exc:
            raise UserError("This channel already has a game that has not ended.") from exc
        self.committed()
        log.info("game %s (%s) opened and started in channel %s", game.id, kind, caller.channel_id)
        return advance, roster

    async def _create(
        self, conn: Any, caller: Caller, kind: str, settings: dict[str, Any], options: HostOptions, season: int | None
    ) -> GameRow:
        game_id = await games_repo.create_game(
            conn,
            kind=kind,
            guild_id=caller.guild_id or 0,
            channel_id=caller.channel_id or 0,
            host_id=caller.user_id,
            settings=settings,
            options=options,
            now=self.clock(),
            season_id=season,
        )
        game = await games_repo.get_game(conn, game_id)
        assert game is not None
        return game

    def _opening(self, caller: Caller, kind: str, settings: Mapping[str, Any], options: HostOptions) -> dict[str, Any]:
        """The checks before a game opens (where, who, the bot's permissions); its resolved settings."""
        info = self.presentations[kind].game.info
        if not caller.in_guild:
            raise UserError("Open a game in a server text channel, not in a DM.")
        if not self.finder.may_open(caller):
            role = self.finder.host_role
            extra = f" or the `{role}` role" if role else ""
            raise NotAllowed(f"You cannot open a game here: that needs the Manage Server permission{extra}.")
        if caller.bot_permissions is not None:
            from ..permissions import missing

            lacking = missing(caller.bot_permissions)
            if lacking:
                raise NotAllowed(
                    f"I cannot host a game in this channel: I lack {', '.join(lacking)} here. "
                    "Ask an admin to give me those permissions in this channel (or its category), then try again."
                )
        check_options(options)
        try:
            return info.settings_from(dict(settings))
        except ValueError as exc:
            raise UserError(f"{info.title}: {exc}.") from None

    async def _find(self, caller: Caller, kind: str, game_id: int | None, game_opt: str | None = None) -> GameRow:
        if game_id is None:
            return await self.finder.game(caller, kind, game_opt)
        async with self.db.reader() as conn:
            game = await games_repo.get_game(conn, game_id)
        if game is None or game.kind != kind or game.guild_id != caller.guild_id:
            from .errors import NoGame

            raise NoGame("That game no longer exists.")
        return game

    async def set_lobby_post(self, game_id: int, message_id: int) -> None:
        """The lobby's message (posted by the command that opened it): edited in place from now on."""
        async with self.locks(game_id), self.db.transaction() as conn:
            await games_repo.update_game(conn, game_id, lobby_message_id=message_id)
            game = await reload(conn, game_id)
            await self._edit_lobby(conn, game, Roster(await games_repo.seats(conn, game_id)))
        self.committed()

    async def _edit_lobby(self, conn: Any, game: GameRow, roster: Roster) -> None:
        await edit_lobby(conn, game, roster, self.presentations[game.kind], self.clock())

    async def join(
        self, caller: Caller, kind: str, *, game_id: int | None = None, partner: Member | None = None
    ) -> tuple[GameRow, Roster]:
        """Take a seat; with `partner` (a game with shared seats), become the second member of theirs."""
        game = await self._find(caller, kind, game_id)
        info = self.presentations[kind].game.info
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError("This game has already started; you cannot join it now.")
            roster = Roster(await games_repo.seats(conn, game.id))
            if roster.seat_of(caller.user_id) is not None:
                raise UserError("You are already in this game.")
            if game.season_id is not None and self.seasons is not None:
                if not await self.seasons.is_member(game.season_id, caller.user_id):
                    raise NotAllowed("This game is a match of the server's season: only its roster may join.")
            if partner is not None:
                seat = shared_seat(game, roster, caller, partner)
                await games_repo.add_partner(
                    conn,
                    game.id,
                    seat,
                    user_id=caller.user_id,
                    user_name=caller.user_name,
                    display_name=caller.display_name,
                )
            else:
                if len(roster) >= info.max_players:
                    raise UserError(f"The lobby is full: {info.title} takes {players_text(info)}, so you cannot join.")
                await games_repo.add_seat(
                    conn,
                    game.id,
                    user_id=caller.user_id,
                    user_name=caller.user_name,
                    display_name=caller.display_name,
                    now=self.clock(),
                )
            roster = Roster(await games_repo.seats(conn, game.id))
            await self._edit_lobby(conn, game, roster)
        self.committed()
        return game, roster

    async def add_computer(
        self, caller: Caller, kind: str, level: str, game_opt: str | None = None
    ) -> tuple[GameRow, Roster, str]:
        """Seat a computer player of `level` in the lobby (the game's host or an admin): its name says so."""
        from .computers import check_level, computer_name, next_computer_number

        game = await self._find(caller, kind, None, game_opt)
        await self.finder.require_admin(game, caller)
        info = self.presentations[kind].game.info
        check_level(kind, level, info.title)
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError(
                    "This game has already started: add computer players in its lobby, or hand a seat "
                    "to one with the replace command."
                )
            if game.season_id is not None:
                raise UserError("This game is a match of the server's season: only its roster may play.")
            roster = Roster(await games_repo.seats(conn, game.id))
            if len(roster) >= info.max_players:
                raise UserError(f"The lobby is full: {info.title} takes {players_text(info)}.")
            number = next_computer_number(await games_repo.computer_names(conn, game.id))
            name = computer_name(number, level)
            seat = await games_repo.add_seat(
                conn, game.id, user_id=None, user_name=name, display_name=name, now=self.clock(), computer=level
            )
            roster = Roster(await games_repo.seats(conn, game.id))
            await self._edit_lobby(conn, game, roster)
        self.committed()
        log.info("game %s: a computer player (%s) joined", game.id, level)
        return game, roster, seat

    async def remove_computer(
        self, caller: Caller, kind: str, which: str, game_opt: str | None = None
    ) -> tuple[GameRow, Roster, str]:
        """Take a computer player out of the lobby (the game's host or an admin); returns its name."""
        game = await self._find(caller, kind, None, game_opt)
        await self.finder.require_admin(game, caller)
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError("This game has already started: hand its seats on with the replace command.")
            roster = Roster(await games_repo.seats(conn, game.id))
            seat = roster.lookup(which)
            holder = None if seat is None else roster.player(seat)
            if seat is None or holder is None or holder.computer is None:
                names = ", ".join(roster.name_of(p.seat) for p in roster.players if p.computer is not None)
                raise UserError(f"{which!r} is not a computer player of this lobby (they are: {names or 'none'}).")
            name = roster.name_of(seat)
            await games_repo.remove_seat(conn, game.id, seat)
            roster = Roster(await games_repo.seats(conn, game.id))
            await self._edit_lobby(conn, game, roster)
        self.committed()
        log.info("game %s: a computer player left the lobby", game.id)
        return game, roster, name

    async def reorder(self, caller: Caller, kind: str, order: Sequence[int], game_opt: str | None = None) -> Roster:
        """The lobby's seats in `order` (every player's user id once; the game's host or an admin), in one
        write: a game whose seat order is its join order seats them so."""
        game = await self._find(caller, kind, None, game_opt)
        await self.finder.require_admin(game, caller)
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError("This game has already started: its seats are set.")
            roster = Roster(await games_repo.seats(conn, game.id))
            seat_of = {p.user_id: p.seat for p in roster.players if p.user_id is not None}
            if len(seat_of) != len(roster.players) or sorted(order) != sorted(seat_of) or len(set(order)) != len(order):
                raise UserError("`order` must name every player of the lobby once, by mention, in seat order.")
            if [p.user_id for p in roster.players] != list(order):
                await games_repo.set_seat_order(conn, game.id, [seat_of[uid] for uid in order])
                roster = Roster(await games_repo.seats(conn, game.id))
                await self._edit_lobby(conn, game, roster)
        self.committed()
        return roster

    async def leave(
        self, caller: Caller, kind: str, game_opt: str | None = None, *, game_id: int | None = None
    ) -> tuple[GameRow, Roster]:
        game = await self._find(caller, kind, game_id, game_opt)
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            roster = Roster(await games_repo.seats(conn, game.id))
            seat = roster.seat_of(caller.user_id)
            if seat is None:
                raise UserError("You are not in this game.")
            if game.status != LOBBY:
                raise UserError("The game has started: you cannot leave now (ask the host to replace you).")
            holder = roster.player(seat)
            if holder is not None and len(holder.members) > 1:  # a shared seat: only the caller's place
                await games_repo.drop_member(conn, game.id, holder, caller.user_id)
            else:
                await games_repo.remove_seat(conn, game.id, seat)
            roster = Roster(await games_repo.seats(conn, game.id))
            await self._edit_lobby(conn, game, roster)
        self.committed()
        return game, roster

    async def start(
        self,
        caller: Caller,
        kind: str,
        game_opt: str | None = None,
        settings: Mapping[str, Any] | None = None,
        *,
        game_id: int | None = None,
    ) -> tuple[Advance, Roster]:
        """Close the lobby and set the game up. `settings` overrides what the lobby was opened with."""
        game = await self._find(caller, kind, game_id, game_opt)
        await self.finder.require_admin(game, caller)
        info = self.presentations[kind].game.info
        async with self.locks(game.id):
            async with self.db.transaction() as conn:
                game = await reload(conn, game.id)
                if game.status != LOBBY:
                    raise UserError("This game is not in its lobby any more, so it cannot start.")
                roster = Roster(await games_repo.seats(conn, game.id))
                if not info.min_players <= len(roster) <= info.max_players:
                    raise UserError(
                        f"The game cannot start yet: {info.title} needs {players_text(info)}; "
                        f"the lobby has {len(roster)}."
                    )
                if game.season_id is not None and self.seasons is not None:
                    await self._check_match(game, roster)
                merged = {**game.settings, **(settings or {})}
                if game.season_id is not None and game.options.season_start and self.seasons is not None:
                    merged = {**merged, **await self._season_settings(game, roster, merged)}
                try:
                    resolved = info.settings_from(merged)
                except ValueError as exc:
                    raise UserError(f"{info.title}: {exc}.") from None
                advance = await self.stepper.start(conn, game, roster, resolved)
                await self._edit_lobby(conn, advance.game, roster)
            self.committed()
        log.info("game %s: started", game.id)
        return advance, roster

    async def _check_match(self, game: GameRow, roster: Roster) -> None:
        """A season's match starts only while its season is open, and with its roster only."""
        assert game.season_id is not None
        season = await self.seasons.get(game.season_id)
        if season is None or season.status != "open":
            name = season.name if season is not None else "its season"
            raise UserError(f"Season **{name}** has ended, so this lobby cannot start as one of its matches.")
        off = await self._off_roster(game.season_id, roster)
        if off:
            raise NotAllowed(f"Not on the season's roster any more: {', '.join(off)}. They leave, or a host adds them.")

    async def _off_roster(self, season_id: int, roster: Roster) -> list[str]:
        """The seated members who are not on the season's roster, by name."""
        return [
            roster.name_of(seat)
            for seat in roster.seats
            for user in roster.members_of(seat)
            if not await self.seasons.is_member(season_id, user)
        ]

    async def set_season(self, caller: Caller, kind: str, season_id: int | None) -> GameRow:
        """Make the lobby in the caller's channel a match of a season (None: no longer one). Everyone
        already seated must be on the season's roster; from then on only its roster may join."""
        game = await self.finder.game(caller, kind)
        await self.finder.require_admin(game, caller)
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError("The game has started: a season takes only a lobby as its match.")
            if game.season_id == season_id:
                said = "is already a match of that season" if season_id else "is not a season's match"
                raise UserError(f"The lobby {said}.")
            roster = Roster(await games_repo.seats(conn, game.id))
            if season_id is not None and any(p.computer is not None for p in roster.players):
                raise UserError("A season's match takes no computer player (its seats are its roster): take them out.")
            if season_id is not None:
                off = await self._off_roster(season_id, roster)
                if off:
                    raise NotAllowed(
                        f"Not on the season's roster: {', '.join(off)}. Add them to it first, or they leave the lobby."
                    )
            await games_repo.update_game(conn, game.id, season_id=season_id)
            game = await reload(conn, game.id)
            await self._edit_lobby(conn, game, roster)
        self.committed()
        log.info("game %s: season set to %s", game.id, season_id)
        return game

    async def _season_settings(self, game: GameRow, roster: Roster, settings: dict[str, Any]) -> dict[str, Any]:
        """What the season brings to a match's setup: each seat's balance and the previous placement, as
        the game's presentation names them."""
        hook = getattr(self.presentations[game.kind], "season_settings", None)
        if hook is None:
            return {}
        assert game.season_id is not None
        balances = await self.seasons.balances(game.season_id)
        seats = {roster.user_of(s): s for s in roster.seats}
        by_seat = {seat: balances.get(user, 0) for user, seat in seats.items() if user is not None}
        placements = [seats[u] for u in await self.seasons.last_placements(game.season_id) if u in seats]
        return dict(hook(by_seat, placements, settings))

    async def update_settings(self, caller: Caller, kind: str, changes: Mapping[str, Any]) -> GameRow:
        """Change the lobby's settings before the start (e.g. a seat's starting balance)."""
        game = await self.finder.game(caller, kind)
        await self.finder.require_admin(game, caller)
        info = self.presentations[kind].game.info
        async with self.locks(game.id), self.db.transaction() as conn:
            game = await reload(conn, game.id)
            if game.status != LOBBY:
                raise UserError("The game has started: its settings are fixed.")
            try:
                resolved = info.settings_from({**game.settings, **changes})
            except ValueError as exc:
                raise UserError(f"{info.title}: {exc}.") from None
            from ..storage.sql import dumps

            await games_repo.update_game(conn, game.id, settings_json=dumps(resolved))
            return await reload(conn, game.id)


def shared_seat(game: GameRow, roster: Roster, caller: Caller, partner: Member) -> str:
    """The seat `caller` may join as `partner`'s second member, or why not."""
    if not game.options.shared_seats:
        raise UserError("This game is not in team mode: each member takes a seat of their own (join without `with`).")
    if partner.user_id == caller.user_id:
        raise UserError("You cannot share a seat with yourself: join without `with`.")
    seat = roster.seat_of(partner.user_id)
    if seat is None:
        raise UserError(f"{partner.display_name} is not in this lobby: they join first, then you join with them.")
    if len(roster.members_of(seat)) >= 2:
        raise UserError(f"{roster.name_of(seat)} already share that seat: a seat holds at most 2 members.")
    return seat


def check_options(options: HostOptions) -> None:
    if not 0 < options.deadline_hours <= MAX_HOURS:
        raise UserError(f"deadline_hours must be more than 0 and at most {MAX_HOURS}.")
    if not 0 <= options.reminder_hours <= MAX_HOURS:
        raise UserError(f"reminder_hours must be between 0 (no reminders) and {MAX_HOURS}.")


def players_text(info: Any) -> str:
    if info.min_players == info.max_players:
        return f"exactly {info.min_players} players"
    return f"{info.min_players} to {info.max_players} players"


async def edit_lobby(conn: Any, game: GameRow, roster: Roster, presentation: Presentation, now: float) -> None:
    """Queue an edit of the living lobby message to what the lobby is now (no-op without one)."""
    text = getattr(presentation, "lobby_text", None)
    if game.lobby_message_id is None or text is None:
        return
    from ..storage import outbox as outbox_repo

    buttons = ["join", "leave", "start"] if game.status == LOBBY else []
    payload = {"message_id": game.lobby_message_id, "content": text(game, roster), "buttons": buttons}
    await outbox_repo.queue_edit(conn, game.id, game.channel_id, payload, now)


async def reload(conn: Any, game_id: int) -> GameRow:
    from .errors import NoGame

    game = await games_repo.get_game(conn, game_id)
    if game is None:
        raise NoGame("That game no longer exists.")
    return game
