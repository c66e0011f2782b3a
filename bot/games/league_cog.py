"""`/season ...`: a server's season of matches for every game whose season is a league (docs/seasons.md).

The host's Seasons service keeps the roster, the ledger (points), the marks (wins) and the matches; a
game's presentation says a match's placement when it ends (`season_outcome`). These commands only read
what was typed. The service checks who may run a season (Manage Server or the host role).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ..host import MAX_CHOICES, Member, Season, UserError, answer, caller_of, matches
from . import league
from .ledger import export_files, member_lookup, season_choices

if TYPE_CHECKING:
    from ..host import Host

GAME_HELP = "The game of the season (leave empty when the server has one open season)"
SEASON_HELP = "A season of this server (leave empty for the open one)"


def leagues(presentations: Mapping[str, object]) -> dict[str, str]:
    """The games whose season is a league, by id: their titles."""
    return {
        kind: p.game.info.title  # type: ignore[attr-defined]
        for kind, p in presentations.items()
        if getattr(p, "league", False)
    }


class LeagueCog(commands.GroupCog, group_name="season", group_description="A server's season of matches: points"):
    def __init__(self, host: Host, games: Mapping[str, str]) -> None:
        self.host = host
        self.games = dict(games)  # id -> title
        super().__init__()

    # ---- which game, which season --------------------------------------------------------------------

    @staticmethod
    def _in_server(interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError("Use the season commands in the server the season belongs to, not in a DM.")

    def _named(self, game: str) -> str:
        wanted = game.strip().casefold()
        for kind, title in self.games.items():
            if wanted in (kind.casefold(), title.casefold()):
                return kind
        raise UserError(f"Seasons are kept for {self._titles()}: pick one from the list.")

    def _titles(self, joiner: str = " and ") -> str:
        return joiner.join(self.games.values())

    async def _kind(self, interaction: discord.Interaction, game: str | None) -> str:
        """The game named, else the one game with an open season in this server."""
        self._in_server(interaction)
        if game:
            return self._named(game)
        if len(self.games) == 1:
            return next(iter(self.games))
        guild = interaction.guild_id or 0
        open_ = [kind for kind in self.games if await self.host.seasons.current(guild, kind) is not None]
        if len(open_) == 1:
            return open_[0]
        if not open_:
            raise UserError("This server has no open season. A host opens one with `/season new`.")
        here = await self._channel_kind(interaction)
        if here in open_:
            return here  # the game of this channel
        raise UserError(f"This server has open seasons of {self._titles()}: name the game with `game:`.")

    async def _channel_kind(self, interaction: discord.Interaction) -> str | None:
        """The game of the channel's active game (or lobby), if it keeps leagues."""
        caller = caller_of(interaction)
        for kind in self.games:
            try:
                await self.host.finder.game(caller, kind)
            except UserError:
                continue
            return kind
        return None

    async def _season(self, interaction: discord.Interaction, game: str | None, season: str | None = None) -> Season:
        self._in_server(interaction)
        caller = caller_of(interaction)
        if season and not game:
            found = []
            for kind in self.games:
                try:
                    found.append(await self.host.seasons.pick(caller, kind, season))
                except UserError:
                    continue
            if len({f.id for f in found}) > 1:
                raise UserError(
                    f"Seasons of {self._titles()} have that name: pick one from the list, or name the game."
                )
            if not found:
                raise UserError("No such season in this server; pick one from the list.")
            return found[0]
        return await self.host.seasons.pick(caller, await self._kind(interaction, game), season)

    async def _game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=title, value=kind)
            for kind, title in self.games.items()
            if matches(current, title, kind)
        ][:MAX_CHOICES]

    async def _season_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(self.host, interaction, current, tuple(self.games))

    # ---- the season and its roster -------------------------------------------------------------------

    @app_commands.command(
        name="new", description="Open a season of a game in this server (Manage Server or host role)."
    )
    @app_commands.describe(game="The game whose matches the season counts", name="The season's name")
    async def new(self, interaction: discord.Interaction, game: str, name: app_commands.Range[str, 1, 80]) -> None:
        self._in_server(interaction)
        kind = self._named(game)
        already = await self.host.seasons.current(interaction.guild_id or 0, kind)
        if already is not None:
            raise UserError(
                f"This server already has an open {self.games[kind]} season, **{already.name}**: end it first."
            )
        season = await self.host.seasons.open(caller_of(interaction), kind, name)
        await answer(
            interaction,
            f"Season **{season.name}** of {self.games[kind]} is open. Members join with `/season join`; a host "
            f"makes a lobby one of its matches with `/season match` in the lobby's channel.",
            ephemeral=False,
        )

    @app_commands.command(name="join", description="Put yourself on an open season's roster.")
    @app_commands.describe(game=GAME_HELP)
    async def join(self, interaction: discord.Interaction, game: str | None = None) -> None:
        season = await self.host.seasons.enrol(caller_of(interaction), await self._kind(interaction, game))
        await answer(interaction, f"You are on the roster of season **{season.name}**.")

    @app_commands.command(name="add", description="Put a member on an open season's roster (host).")
    @app_commands.describe(player="The member", game=GAME_HELP)
    async def add(self, interaction: discord.Interaction, player: discord.User, game: str | None = None) -> None:
        kind = await self._kind(interaction, game)
        who = Member.to_seat(player, in_guild=interaction.guild is not None)  # a roster's members hold seats
        season = await self.host.seasons.enrol(caller_of(interaction), kind, who)
        await answer(interaction, f"{player.display_name} is on the roster of season **{season.name}**.")

    @app_commands.command(name="remove", description="Take a member off an open season's roster (host).")
    @app_commands.describe(player="The member", game=GAME_HELP)
    async def remove(self, interaction: discord.Interaction, player: discord.User, game: str | None = None) -> None:
        kind = await self._kind(interaction, game)
        season = await self.host.seasons.remove(caller_of(interaction), kind, Member.from_user(player))
        await answer(
            interaction, f"{player.display_name} is off the roster of season **{season.name}** (their rows stay)."
        )

    @app_commands.command(name="end", description="Close an open season (host); it stays readable.")
    @app_commands.describe(game=GAME_HELP)
    async def end(self, interaction: discord.Interaction, game: str | None = None) -> None:
        season = await self.host.seasons.end(caller_of(interaction), await self._kind(interaction, game))
        await answer(interaction, f"Season **{season.name}** has ended. Its standings stay readable.", ephemeral=False)

    @app_commands.command(name="match", description="Make the lobby in this channel a match of its game's season.")
    @app_commands.describe(remove="Make it an ordinary game again")
    async def match(self, interaction: discord.Interaction, remove: bool = False) -> None:
        self._in_server(interaction)
        caller = caller_of(interaction)
        kind = await self._channel_kind(interaction)
        if kind is None:
            raise UserError(f"There is no {self._titles(' or ')} lobby in this channel.")
        if remove:  # the lobby's own season, open or ended since
            lobby = await self.host.finder.game(caller, kind)
            was = None if lobby.season_id is None else await self.host.seasons.get(lobby.season_id)
            await self.host.lobby.set_season(caller, kind, None)
            name = was.name if was is not None else "its season"
            said = f"The lobby in this channel is no longer a match of season **{name}**."
        else:
            season = await self.host.seasons.pick(caller, kind)
            await self.host.lobby.set_season(caller, kind, season.id)
            said = f"The lobby in this channel is a match of season **{season.name}**: only its roster may join."
        await answer(interaction, said, ephemeral=False)

    # ---- the host's records --------------------------------------------------------------------------

    @app_commands.command(name="points", description="Change a member's points, with a reason (host).")
    @app_commands.describe(
        player="The member", amount="Points to add (negative to take)", reason="Why (logged)", game=GAME_HELP
    )
    async def points(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        amount: app_commands.Range[int, -1_000_000, 1_000_000],
        reason: app_commands.Range[str, 1, 200],
        game: str | None = None,
    ) -> None:
        kind = await self._kind(interaction, game)
        reason = " ".join(reason.split())[:200] or "adjusted by the host"  # as the ledger keeps it
        total = await self.host.seasons.adjust(caller_of(interaction), kind, Member.from_user(player), amount, reason)
        unit = "point" if abs(amount) == 1 else "points"
        await answer(interaction, f"{player.display_name}: {amount:+d} {unit} ({reason}); now {total}.")

    @app_commands.command(name="record", description="Record a match played off the bot (host).")
    @app_commands.describe(
        placement="Players from first to last, comma-separated, `=` between tied ones (names or mentions)",
        game=GAME_HELP,
    )
    async def record(self, interaction: discord.Interaction, placement: str, game: str | None = None) -> None:
        caller = caller_of(interaction)
        kind = await self._kind(interaction, game)
        season = await self.host.seasons.pick(caller, kind)
        table = await self.host.seasons.standings(season.id)
        groups = league.parse_placement(placement, member_lookup(table))
        by_id = {s.user_id: s for s in table}
        seats = [[str(u) for u in g] for g in groups]  # a user's id stands for their seat here
        points = {int(seat): n for seat, n, _ in league.changes(seats)}
        marks = {int(seat): {league.WIN: 1} for seat in league.wins(seats)}
        members = [Member(u, by_id[u].user_name, by_id[u].display_name) for g in groups for u in g]
        summary = {"groups": groups, "off_bot": True}
        await self.host.seasons.record_off_bot(caller, kind, members, points, marks, summary)
        names = ", ".join(" = ".join(by_id[u].display_name for u in g) for g in groups)
        await answer(interaction, f"Recorded a match played off the bot in **{season.name}**: {names}.")

    # ---- reading -------------------------------------------------------------------------------------

    @app_commands.command(name="standings", description="A season's players by points, with wins and matches.")
    @app_commands.describe(game=GAME_HELP, season=SEASON_HELP)
    async def standings(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        found = await self._season(interaction, game, season)
        table = await self.host.seasons.standings(found.id)
        title = self.games[found.kind]
        picture = discord.File(io.BytesIO(league.standings_picture(title, found, table)), filename="standings.png")
        picture.description = f"Standings of season {found.name}: the same rows as the text"[:1024]
        await answer(interaction, league.standings_text(title, found, table), file=picture)

    @app_commands.command(name="history", description="A season's matches with their placements.")
    @app_commands.describe(game=GAME_HELP, season=SEASON_HELP)
    async def history(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        found = await self._season(interaction, game, season)
        names = {s.user_id: s.display_name for s in await self.host.seasons.standings(found.id)}
        matches_ = await self.host.seasons.matches(found.id)
        await answer(interaction, league.history_text(self.games[found.kind], found, matches_, names))

    @app_commands.command(name="export", description="A season's ledger of points as CSV and JSON.")
    @app_commands.describe(game=GAME_HELP, season=SEASON_HELP)
    async def export(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        found = await self._season(interaction, game, season)
        as_csv, as_json = export_files(found, await self.host.seasons.ledger(found.id))
        stem = f"season-{found.id}-ledger"
        files = [discord.File(io.BytesIO(as_csv), f"{stem}.csv"), discord.File(io.BytesIO(as_json), f"{stem}.json")]
        await answer(interaction, f"The ledger of season **{found.name}**: every change to a balance.", files=files)

    for _command in (new, join, add, remove, end, points, record, standings, history, export):
        _command.autocomplete("game")(_game_choices)
    for _command in (standings, history, export):
        _command.autocomplete("season")(_season_choices)
    del _command
