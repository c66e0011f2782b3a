"""`/crimecity season ...`: the server's season of main matches (docs/crimecity/seasons.md).

The host's Seasons service keeps the roster, the ledger, the marks and the matches; these commands read
what was typed and answer in Crime City's words. Everything but the roster commands and the readings
needs Manage Server (or the host role); the service checks it.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from ...host import Member, Season, UserError, answer, caller_of
from ..ledger import export_files, member_lookup, parse_names, season_choices
from . import seasons as words
from .standings_picture import render_standings

if TYPE_CHECKING:
    from ...host import Host

KIND = "crimecity"
SEASON_HELP = "A season of this server (leave empty for the open one)"


class SeasonCommands(app_commands.Group):
    def __init__(self, host: Host, parent: app_commands.Group) -> None:
        super().__init__(
            name="season",
            description="The server's season: roster, garnets, tokens of life, standings.",
            parent=parent,
        )
        self.host = host

    async def _seasons(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(self.host, interaction, current, (KIND,))

    async def _pick(self, interaction: discord.Interaction, season: str | None = None) -> Season:
        return await self.host.seasons.pick(caller_of(interaction), KIND, season)

    # ---- the season and its roster -----------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a season in this server (Manage Server or the host role).")
    @app_commands.describe(name="The season's name")
    async def new(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 80]) -> None:
        season = await self.host.seasons.open(caller_of(interaction), KIND, name)
        await answer(
            interaction,
            f"Season **{season.name}** is open. Members join with `/crimecity season join` (or a host adds "
            "them); open its matches with `/crimecity new season:`.",
            ephemeral=False,
        )

    @app_commands.command(name="join", description="Put yourself on the open season's roster.")
    async def join(self, interaction: discord.Interaction) -> None:
        season = await self.host.seasons.enrol(caller_of(interaction), KIND)
        await answer(interaction, f"You are on the roster of season **{season.name}**.")

    @app_commands.command(name="add", description="Put a member on the open season's roster (host).")
    @app_commands.describe(player="The member")
    async def add(self, interaction: discord.Interaction, player: discord.User) -> None:
        who = Member.to_seat(player, in_guild=interaction.guild is not None)  # a roster's members hold seats
        season = await self.host.seasons.enrol(caller_of(interaction), KIND, who)
        await answer(interaction, f"{player.display_name} is on the roster of season **{season.name}**.")

    @app_commands.command(name="remove", description="Take a member off the open season's roster (host).")
    @app_commands.describe(player="The member")
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        season = await self.host.seasons.remove(caller_of(interaction), KIND, Member.from_user(player))
        await answer(
            interaction,
            f"{player.display_name} is off the roster of season **{season.name}** (their ledger rows stay).",
        )

    @app_commands.command(name="end", description="Close the open season (host); it stays readable.")
    async def end(self, interaction: discord.Interaction) -> None:
        season = await self.host.seasons.end(caller_of(interaction), KIND)
        await answer(interaction, f"Season **{season.name}** has ended. Its standings stay readable.", ephemeral=False)

    # ---- the host's records ------------------------------------------------------------------------------

    @app_commands.command(name="garnets", description="Change a member's season balance, with a reason (host).")
    @app_commands.describe(player="The member", amount="Garnets to add (negative to take)", reason="Why (logged)")
    async def garnets(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        amount: app_commands.Range[int, -1_000_000_000, 1_000_000_000],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        balance = await self.host.seasons.adjust(caller_of(interaction), KIND, Member.from_user(player), amount, reason)
        await answer(interaction, f"{player.display_name}: {amount:+d} garnets ({reason}); balance {balance}.")

    @app_commands.command(name="eliminate", description="Record that a member lost a death match (host).")
    @app_commands.describe(player="The member", undo="Take back an elimination recorded by mistake")
    async def eliminate(self, interaction: discord.Interaction, player: discord.User, undo: bool = False) -> None:
        caller, member = caller_of(interaction), Member.from_user(player)
        table = await self.host.seasons.standings((await self._pick(interaction)).id)
        out = next((s.marks.get(words.ELIMINATED, 0) > 0 for s in table if s.user_id == member.user_id), False)
        if out != undo:
            raise UserError(f"{member.display_name} is {'already' if out else 'not'} eliminated.")
        reason = "elimination taken back" if undo else "lost a death match"
        await self.host.seasons.mark(caller, KIND, member, words.ELIMINATED, -1 if undo else 1, reason)
        said = "is back in the season" if undo else "is eliminated"
        await answer(interaction, f"{member.display_name} {said}.", ephemeral=False)

    @app_commands.command(name="tol", description="Record a token of life used (or given) (host).")
    @app_commands.describe(player="The member", give="Give one instead (a correction, or a token won off the bot)")
    async def tol(self, interaction: discord.Interaction, player: discord.User, give: bool = False) -> None:
        caller, member = caller_of(interaction), Member.from_user(player)
        table = await self.host.seasons.standings((await self._pick(interaction)).id)
        held = next((words.tols(s) for s in table if s.user_id == member.user_id), 0)
        if not give and held <= 0:
            raise UserError(f"{member.display_name} holds no token of life.")
        reason = "a token of life given by the host" if give else "a token of life used"
        now = await self.host.seasons.mark(caller, KIND, member, words.TOL, 1 if give else -1, reason)
        await answer(interaction, f"{member.display_name}: {reason}; tokens of life held: {max(0, now)}.")

    @app_commands.command(name="record", description="Record a match played off the bot (host).")
    @app_commands.describe(
        placements="Players from first to last, comma-separated (names or mentions)",
        tol="Who won a token of life, comma-separated",
        ec="The match's EC (elimination candidate)",
        garnets="Garnet changes, e.g. `Ann +7, Bob -3`",
    )
    async def record(
        self,
        interaction: discord.Interaction,
        placements: str,
        tol: str | None = None,
        ec: discord.User | None = None,
        garnets: str | None = None,
    ) -> None:
        caller = caller_of(interaction)
        season = await self._pick(interaction)
        table = await self.host.seasons.standings(season.id)
        lookup = member_lookup(table)
        order = parse_names(placements, lookup, "placements")
        if not order:
            raise UserError("List the players from first to last, comma-separated.")
        winners = parse_names(tol or "", lookup, "tokens of life")
        changes = words.parse_changes(garnets or "", lookup)
        ec_user = lookup(str(ec.id)) if ec is not None else None
        placed = set(order)
        for user in [*winners, *changes, *([ec_user] if ec_user else [])]:
            if user not in placed:
                raise UserError("Everyone with a token, the EC or a garnet change must be in the placements.")
        marks: dict[int, dict[str, int]] = {u: {words.TOL: 1} for u in winners}
        if ec_user is not None:
            marks.setdefault(ec_user, {})[words.EC] = 1
        by_id = {s.user_id: s for s in table}
        members = [Member(u, by_id[u].user_name, by_id[u].display_name) for u in order]
        summary = {"tol": winners, "ec": ec_user, "off_bot": True}
        await self.host.seasons.record_off_bot(caller, KIND, members, changes, marks, summary)
        names = ", ".join(f"{i}. {m.display_name}" for i, m in enumerate(members, 1))
        await answer(interaction, f"Recorded a match played off the bot in **{season.name}**: {names}.")

    # ---- reading ---------------------------------------------------------------------------------------

    @app_commands.command(name="standings", description="The season's players by garnets, with ToLs and ECs.")
    @app_commands.describe(season=SEASON_HELP)
    async def standings(self, interaction: discord.Interaction, season: str | None = None) -> None:
        found = await self._pick(interaction, season)
        table = await self.host.seasons.standings(found.id)
        picture = discord.File(io.BytesIO(render_standings(found, table)), filename="standings.png")
        picture.description = f"Standings of season {found.name}: the same rows as the text"[:1024]
        await answer(interaction, words.standings_text(found, table), file=picture)

    @app_commands.command(name="history", description="The season's matches with their placements.")
    @app_commands.describe(season=SEASON_HELP)
    async def history(self, interaction: discord.Interaction, season: str | None = None) -> None:
        found = await self._pick(interaction, season)
        names = {s.user_id: s.display_name for s in await self.host.seasons.standings(found.id)}
        await answer(interaction, words.history_text(found, await self.host.seasons.matches(found.id), names))

    @app_commands.command(name="export", description="The season's ledger as CSV and JSON.")
    @app_commands.describe(season=SEASON_HELP)
    async def export(self, interaction: discord.Interaction, season: str | None = None) -> None:
        found = await self._pick(interaction, season)
        as_csv, as_json = export_files(found, await self.host.seasons.ledger(found.id))
        stem = f"season-{found.id}-ledger"
        files = [discord.File(io.BytesIO(as_csv), f"{stem}.csv"), discord.File(io.BytesIO(as_json), f"{stem}.json")]
        await answer(interaction, f"The ledger of season **{found.name}**: every change to a balance.", files=files)

    for _command in (standings, history, export):
        _command.autocomplete("season")(_seasons)
    del _command
