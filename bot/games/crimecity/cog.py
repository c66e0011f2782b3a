"""`/crimecity`: Crime City's slash commands (commands.md), on the host's services.

Commands read what the caller typed, ask the host to do it (the host checks rights, decisions and,
through `rules`, legality) and answer in Crime City's words. Private answers are ephemeral.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from rules.crimecity import CHARACTERS, legal_actions, legal_seconds
from rules.crimecity.game import ROUND
from rules.crimecity.notation import describe_action, format_action, parse_action
from rules.crimecity.validate import BUY_COST

from ...host import (
    GAME_HELP,
    JOIN,
    LEAVE,
    MAX_CHOICES,
    START,
    STATUS,
    SUBMIT,
    HostOptions,
    Member,
    NotAllowed,
    Roster,
    UserError,
    answer,
    caller_of,
    computer_levels,
    game_choices,
    host_buttons,
    matches,
    timestamp,
)
from . import importing, reports, rules_pages
from . import stats as server_stats
from .moves import buy_friendship, submit_actions, submit_draft, submit_guess
from .panel import panel_view
from .season_cog import SeasonCommands, season_choices
from .texts import char_title, role_title

if TYPE_CHECKING:
    from ...host import Host
    from .presentation import CrimeCityPresentation

log = logging.getLogger(__name__)
KIND = "crimecity"
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in computer_levels(KIND)]

HELP = """\
**Crime City** — 5 players, a hidden character and role each, up to 6 rounds.
**Lobby**: `/crimecity new` (host) · `/crimecity join` · `/crimecity leave` · `/crimecity start` (host)
**Play** (in the game's channel or in a DM with me; answers are private):
- `/crimecity draft bid characters roles` — your draft bid and rankings
- `/crimecity act first second` — your two actions (the list offers only legal ones)
- `/crimecity friendship a b points` — buy friendship points (3 garnets each)
- `/crimecity guess roles` — the Mob Boss's guess
- `/crimecity status` — your seat, what you learned, your submission, cooldowns, deadline
- `/crimecity panel` — pick your actions from menus (only legal ones), then Submit
- `/crimecity board` — the public board · `/crimecity rules` — the rules in short pages
- `/crimecity history` — this server's finished games · `/crimecity stats [player]` — counted per member
- `/crimecity ec player` — choose the EC when the results ask you to
**Hosting**: `/crimecity admin resolve|deadline|reminder|pause|resume|end|replace|garnets|placements|export|import`; \
`/crimecity admin addbot level:` seats a computer player in the lobby (`admin removebot` takes it out)
**Seasons**: `/crimecity season new|join|add|remove|end|garnets|record|eliminate|tol|standings|history|export`; \
open a season's match with `/crimecity new season:`
Action notation: `move vertical secretary`, `converse store_clerk`, `ability detective`, \
`ability player Alice`, `ability policeman bank` (Governor), `friend banker`."""


def _lobby_line(names: list[str]) -> str:
    joined = ", ".join(names) if names else "nobody yet"
    return f"Players ({len(names)}/5): {joined}"


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class CrimeCityCog(
    commands.GroupCog, group_name=KIND, group_description="Crime City: a hidden-role game for 5 players"
):
    admin = app_commands.Group(name="admin", description="Hosting commands (the game's host or Manage Server).")

    def __init__(self, host: Host, presentation: CrimeCityPresentation) -> None:
        self.host = host
        self.presentation = presentation
        super().__init__()
        group = self.app_command
        assert group is not None
        SeasonCommands(host, group)  # `/crimecity season ...` (a group adds itself to its parent)

    async def _seasons(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(self.host, interaction, current, (KIND,))

    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.host, interaction.client, KIND, interaction, current)

    # ---- lobby -----------------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Crime City lobby in this channel (you become its host).")
    @app_commands.describe(
        rounds="How many rounds at most (1-6)",
        deadline_hours="Hours for each phase (draft, each round)",
        garnets="Starting garnets for each player (in a season: instead of their season balances)",
        wait_for_deadline="Wait for the deadline even when all five have submitted",
        reminder_hours="DM players who have not submitted this many hours before each deadline (0: never)",
        ping="A role to ping once, so its members know a game is open",
        season="A season of this server: the game is one of its matches",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 6] = 6,
        deadline_hours: app_commands.Range[float, 0.0, 1440.0] = 24.0,
        garnets: app_commands.Range[int, 0, None] | None = None,
        wait_for_deadline: bool = False,
        reminder_hours: app_commands.Range[float, 0.0, 1440.0] = 1.0,
        ping: discord.Role | None = None,
        season: str | None = None,
    ) -> None:
        caller = caller_of(interaction)
        season_id = None
        if season is not None:
            found = await self.host.seasons.pick(caller, KIND, season)
            if found.status != "open":
                raise UserError(f"Season {found.name} has ended: open its matches in an open season.")
            season_id = found.id
        options = HostOptions(
            deadline_hours=deadline_hours,
            reminder_hours=reminder_hours,
            wait_for_deadline=wait_for_deadline,
            season_start=garnets is None,
        )
        settings = {"rounds": rounds, "garnets": garnets or 0}
        game = await self.host.lobby.open(caller, KIND, settings, options, season_id=season_id)
        text = self.presentation.lobby_text(game, Roster([]))
        kwargs: dict[str, Any] = {"view": host_buttons((JOIN, LEAVE, START), game.id)}
        if ping is not None:  # once, in the first post: later edits of the lobby do not ping again
            text = f"{ping.mention} " + text
            kwargs["allowed_mentions"] = discord.AllowedMentions(roles=[ping], users=False, everyone=False)
        await interaction.response.send_message(text, **kwargs)
        posted = await interaction.original_response()
        await self.host.lobby.set_lobby_post(game.id, posted.id)

    new.autocomplete("season")(_seasons)

    @app_commands.command(name="join", description="Join the lobby in this channel.")
    async def join(self, interaction: discord.Interaction) -> None:
        _game, roster = await self.host.lobby.join(caller_of(interaction), KIND)
        names = [roster.name_of(s) for s in roster.seats]
        tail = " The lobby is full: the host can /crimecity start." if len(names) == 5 else ""
        await answer(interaction, f"You joined. {_lobby_line(names)}.{tail}")

    @app_commands.command(name="leave", description="Leave the lobby (before the draft).")
    @app_commands.describe(game=GAME_HELP)
    async def leave(self, interaction: discord.Interaction, game: str | None = None) -> None:
        _game, roster = await self.host.lobby.leave(caller_of(interaction), KIND, game)
        names = [roster.name_of(s) for s in roster.seats]
        await answer(interaction, f"You left. {_lobby_line(names)}.")

    leave.autocomplete("game")(_games)

    @app_commands.command(name="start", description="Close the lobby and open the draft (host or admin).")
    @app_commands.describe(game=GAME_HELP)
    async def start(self, interaction: discord.Interaction, game: str | None = None) -> None:
        advance, roster = await self.host.lobby.start(caller_of(interaction), KIND, game)
        text, mentions = await self.presentation.draft_open(self.host, advance.game, roster)
        view = host_buttons((SUBMIT, STATUS), advance.game.id)
        await answer(interaction, text, ephemeral=False, mention=mentions, view=view)

    start.autocomplete("game")(_games)

    # ---- playing -----------------------------------------------------------------------------------------

    @app_commands.command(name="draft", description="Record (or replace) your draft bid and rankings.")
    @app_commands.describe(
        bid="Garnets you bid for priority (paid when the draft resolves); leave every option out for menus",
        characters="Characters in order of preference, comma-separated (the rest follow in the book's order)",
        roles="Hidden roles in order of preference, comma-separated (the rest follow in the book's order)",
        game=GAME_HELP,
    )
    async def draft(
        self,
        interaction: discord.Interaction,
        bid: app_commands.Range[int, 0, None] | None = None,
        characters: str | None = None,
        roles: str | None = None,
        game: str | None = None,
    ) -> None:
        if bid is None and characters is None and roles is None:  # no options: the draft by menus
            from .forms import open_draft

            found = await self.host.finder.game(caller_of(interaction), KIND, game)
            reply = await open_draft(self.host, caller_of(interaction), found.id)
            await answer(interaction, reply.text, view=reply.view)
            return
        sub, played = await submit_draft(
            self.host, caller_of(interaction), bid=bid or 0, roles=roles, characters=characters, game_opt=game
        )
        from .forms import draft_recorded

        balance = self.presentation.game.view(played.turn.state, played.turn.seat).get("garnets", 0)
        await answer(interaction, draft_recorded(sub, balance))

    draft.autocomplete("game")(_games)

    @app_commands.command(name="act", description="Record (or replace) your two actions for this round.")
    @app_commands.describe(
        first="Your first action (pick from the list, or type e.g. 'move vertical secretary')",
        second="Your second action (leave out only when you may submit a single move)",
        game=GAME_HELP,
    )
    async def act(
        self, interaction: discord.Interaction, first: str, second: str | None = None, game: str | None = None
    ) -> None:
        played = await submit_actions(self.host, caller_of(interaction), first, second, game)
        roster, move = played.turn.roster, played.move
        from rules.crimecity.actions import Action

        shown = "\n".join(f"- `{format_action(Action.from_json(a), roster.name_of)}`" for a in move["actions"])
        extras = []
        if move.get("buy"):
            extras.append(f"{len(move['buy'])} friendship point(s) bought")
        if move.get("guess"):
            extras.append("a role guess")
        tail = f"\nAlso recorded: {', '.join(extras)}." if extras else ""
        await answer(
            interaction,
            f"Round {reports.round_no(played.turn)} actions recorded:\n{shown}{tail}\n"
            "You can replace them until the round resolves.",
        )

    @act.autocomplete("first")
    async def _act_first_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._action_choices(interaction, current, second=False)

    @act.autocomplete("second")
    async def _act_second_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._action_choices(interaction, current, second=True)

    act.autocomplete("game")(_games)

    async def _action_choices(
        self, interaction: discord.Interaction, current: str, *, second: bool
    ) -> list[app_commands.Choice[str]]:
        """Only the caller's legal actions now (for `second`: legal together with `first`)."""
        try:
            turn = await self.host.play.turn(caller_of(interaction), KIND, getattr(interaction.namespace, "game", None))
            if turn is None or turn.game.pending is None or turn.game.pending.decision != ROUND:
                return []
            state = turn.state.game
            seat, roster = turn.seat, turn.roster
            if second:
                first_text = getattr(interaction.namespace, "first", None)
                if not first_text:
                    return []
                actions = legal_seconds(state, seat, parse_action(first_text, roster.lookup))
            else:
                actions = legal_actions(state, seat)
            out = []
            for action in actions:
                value = format_action(action, roster.ref_of)  # a choice carries ids, not names
                name = describe_action(state, seat, action, roster.name_of)
                if matches(current, value, name) and len(value) <= 100:
                    out.append(app_commands.Choice(name=name[:100], value=value))
                if len(out) >= MAX_CHOICES:
                    break
            return out
        except Exception:
            log.debug("action autocomplete gave nothing", exc_info=True)
            return []

    @app_commands.command(name="panel", description="Pick this round's actions from menus of legal ones, then Submit.")
    @app_commands.describe(game=GAME_HELP)
    async def panel(self, interaction: discord.Interaction, game: str | None = None) -> None:
        from .panel import open_panel

        screen = await open_panel(self.host, caller_of(interaction), game)
        await answer(interaction, screen.text, view=panel_view(screen))

    panel.autocomplete("game")(_games)

    @app_commands.command(name="guess", description="Mob Boss: guess every character's hidden role this round.")
    @app_commands.describe(
        roles="character=role for all 8 characters, comma-separated; 'none' for a character without a role",
        game=GAME_HELP,
    )
    async def guess(self, interaction: discord.Interaction, roles: str, game: str | None = None) -> None:
        guess = await submit_guess(self.host, caller_of(interaction), roles, game)
        lines = [f"{char_title(c.value)}: {role_title(guess[c].value)}" for c in CHARACTERS]
        await answer(
            interaction,
            "Guess recorded for this round (you can replace it until the round resolves):\n" + "\n".join(lines),
        )

    guess.autocomplete("game")(_games)

    @app_commands.command(name="friendship", description="Spend 3 garnets per point on a friendship (this round).")
    @app_commands.describe(
        a="A character",
        b="Another character",
        points="Points to buy for this pair this round (0 cancels)",
        game=GAME_HELP,
    )
    async def friendship(
        self,
        interaction: discord.Interaction,
        a: str,
        b: str,
        points: app_commands.Range[int, 0, 50] = 1,
        game: str | None = None,
    ) -> None:
        buys, balance = await buy_friendship(self.host, caller_of(interaction), a, b, points, game)
        if buys:
            listed = ", ".join(f"{char_title(x)} + {char_title(y)}" for x, y in buys)
            text = f"Purchases for this round: {listed} — {BUY_COST * len(buys)} of your {balance} garnets."
        else:
            text = "No friendship purchases recorded for this round."
        text += "\nThey apply with this round's resolution, together with your actions (/crimecity act)."
        await answer(interaction, text)

    @friendship.autocomplete("a")
    async def _friendship_a_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return character_choices(current)

    @friendship.autocomplete("b")
    async def _friendship_b_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return character_choices(current)

    friendship.autocomplete("game")(_games)

    @app_commands.command(name="ec", description="Choose the EC when the results leave that decision to you.")
    @app_commands.describe(
        player="The member you choose as EC", computer="Or a computer player you choose as EC", game=GAME_HELP
    )
    async def ec(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        computer: str | None = None,
        game: str | None = None,
    ) -> None:
        if (player is None) == (computer is None):
            raise UserError("Choose one EC: a member (player:) or a computer player (computer:).")
        target = computer if computer is not None else Member.from_user(player) if player is not None else ""
        text = await reports.choose_ec(self.host, caller_of(interaction), target, game)
        await answer(interaction, text)

    async def _computers(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The game's computer players (their names are public), by seat id."""
        try:
            found = await self.host.finder.game(
                caller_of(interaction), KIND, getattr(interaction.namespace, "game", None)
            )
            roster = await self.host.finder.roster(found.id)
        except UserError:
            return []
        return [
            app_commands.Choice(name=roster.name_of(p.seat)[:100], value=p.seat)
            for p in roster.players
            if p.computer is not None and matches(current, p.seat, roster.name_of(p.seat))
        ][:MAX_CHOICES]

    ec.autocomplete("computer")(_computers)
    ec.autocomplete("game")(_games)

    # ---- what people read --------------------------------------------------------------------------------

    @app_commands.command(name="status", description="Your private view: seat, goal, what you learned, submission.")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        caller = caller_of(interaction)
        text = await reports.status_text(self.host, caller, game)
        turn = await self.host.play.turn(caller, KIND, game)
        if turn is not None and turn.game.pending is not None and turn.game.pending.decision == ROUND:
            text += "\nPick your actions with /crimecity panel (menus) or /crimecity act."
        await answer(interaction, text)

    status.autocomplete("game")(_games)

    @app_commands.command(name="board", description="The public board: positions, friendship points, who submitted.")
    @app_commands.describe(game=GAME_HELP, public="Post it in the channel for everyone (it holds no secret)")
    async def board(self, interaction: discord.Interaction, game: str | None = None, public: bool = False) -> None:
        text, view = await reports.board_text(self.host, caller_of(interaction), game)
        file = None
        if view is not None:
            png = await self.host.draw("crimecity", view)
            if png:
                from .texts import board_alt

                file = discord.File(io.BytesIO(png), filename="board.png", description=board_alt(view))
        # Ephemeral unless asked: a channel full of boards nobody asked for is noise on game night.
        posted = bool(public and interaction.guild_id)
        caller = caller_of(interaction)
        if posted and caller.can_post is False:
            posted = False
            text = "You may not post in this channel, so the board is for your eyes only.\n" + text
        elif posted:
            wait = self.host.limits.public_post(user=caller.user_id, channel=caller.channel_id or 0)
            if wait is not None:
                posted = False
                text = f"Boards were posted here a moment ago; try again in {wait:g} s. For your eyes only:\n" + text
        found = await self.host.finder.game_or_last(caller_of(interaction), KIND, game)
        view = host_buttons((STATUS, SUBMIT), found.id) if posted and found.status == "running" else None
        await answer(interaction, text, ephemeral=not posted, file=file, view=view)

    board.autocomplete("game")(_games)

    @app_commands.command(name="history", description="This server's finished games: rounds, completions, ToL, EC.")
    @app_commands.describe(page="Page (1 is the newest games)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, None] = 1) -> None:
        embed = await reports.history_embed(self.host, interaction, page)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="stats", description="This server's finished games, counted per member.")
    @app_commands.describe(player="One member (leave empty for everyone)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        played, lines = server_stats.count(await self.host.reports.ended(caller_of(interaction), KIND))
        if player is None:
            await answer(interaction, server_stats.summary_text(played, lines))
        else:
            await answer(interaction, server_stats.player_text(player.display_name, lines.get(player.id)))

    @app_commands.command(name="rules", description="The rules of Crime City, in short pages.")
    @app_commands.describe(topic="A topic (leave empty for the list)")
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        page = rules_pages.page(topic)
        await interaction.response.send_message(embed=discord.Embed.from_dict(page.embed_dict()), ephemeral=True)

    @rules.autocomplete("topic")
    async def _rules_topic_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            return [app_commands.Choice(name=n, value=v) for n, v in rules_pages.topic_choices(current)]
        except Exception:
            log.exception("rules autocomplete failed")
            return []

    @app_commands.command(name="help", description="What the Crime City commands do.")
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, HELP)

    # ---- hosting -----------------------------------------------------------------------------------------

    @admin.command(name="resolve", description="Resolve the current phase now with the submissions so far.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resolve(self, interaction: discord.Interaction, game: str | None = None) -> None:
        advance = await self.host.hosting.resolve(caller_of(interaction), KIND, game)
        decided = next((e for e in advance.events if e.kind in ("draft_resolved", "board")), None)
        if decided is not None and decided.kind == "draft_resolved":
            what = "The draft"
        else:
            what = f"Round {decided.data['round'] if decided is not None else '?'}"
        await answer(interaction, f"{what} is resolved; the results are being posted.")

    @admin.command(name="deadline", description="Move the current phase's deadline to this many hours from now.")
    @app_commands.describe(hours="Hours from now (fractions allowed)", game=GAME_HELP)
    async def admin_deadline(self, interaction: discord.Interaction, hours: float, game: str | None = None) -> None:
        clock = await self.host.hosting.deadline(caller_of(interaction), KIND, hours * 3600, game)
        if clock.deadline_at is None:
            text = f"The clock is paused; {hours:g} h will remain when it resumes."
        else:
            text = f"New deadline: {timestamp(clock.deadline_at)}."
        await answer(interaction, text)

    @admin.command(name="reminder", description="DM players who have not submitted this long before each deadline.")
    @app_commands.describe(hours="Hours before the deadline (fractions allowed; 0 turns reminders off)", game=GAME_HELP)
    async def admin_reminder(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.0, 1440.0], game: str | None = None
    ) -> None:
        from ...host import reminder_at

        clock = await self.host.hosting.reminder(caller_of(interaction), KIND, hours, game)
        if hours == 0:
            text = "Reminders are off for this game."
        else:
            when = None if clock.deadline_at is None else reminder_at(self.host.clock(), clock.deadline_at, hours)
            tail = f" The next one: {timestamp(when)}." if when is not None else ""
            text = f"Players who have not submitted get a DM {hours:g} h before each deadline.{tail}"
        await answer(interaction, text)

    @admin.command(name="pause", description="Stop the deadline clock.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_pause(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.host.hosting.pause(caller_of(interaction), KIND, True, game)
        await answer(interaction, "The clock is paused: nothing resolves until /crimecity admin resume or resolve.")

    @admin.command(name="resume", description="Restart the deadline clock.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resume(self, interaction: discord.Interaction, game: str | None = None) -> None:
        clock = await self.host.hosting.pause(caller_of(interaction), KIND, False, game)
        await answer(interaction, f"The clock runs again: deadline {timestamp(clock.deadline_at)}.")

    @admin.command(name="end", description="End the game early and post the results.")
    @app_commands.describe(reveal="Also reveal every seat", game=GAME_HELP)
    async def admin_end(self, interaction: discord.Interaction, reveal: bool = True, game: str | None = None) -> None:
        await self.host.hosting.end(caller_of(interaction), KIND, reveal=reveal, game_opt=game)
        await answer(interaction, "The game is ended; the results are being posted.")

    @admin.command(name="addbot", description="Seat a computer player in the lobby (host or admin).")
    @app_commands.describe(level="How it plays: random (any legal move) or strong (plays to win)", game=GAME_HELP)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def admin_addbot(self, interaction: discord.Interaction, level: str, game: str | None = None) -> None:
        _game, roster, seat = await self.host.lobby.add_computer(caller_of(interaction), KIND, level, game)
        names = [roster.name_of(s) for s in roster.seats]
        tail = " The lobby is full: start with /crimecity start." if len(names) == 5 else ""
        await answer(interaction, f"{roster.name_of(seat)} joined. {_lobby_line(names)}.{tail}")

    @admin.command(name="removebot", description="Take a computer player out of the lobby (host or admin).")
    @app_commands.describe(computer="The computer player (by name)", game=GAME_HELP)
    async def admin_removebot(self, interaction: discord.Interaction, computer: str, game: str | None = None) -> None:
        _game, roster, name = await self.host.lobby.remove_computer(caller_of(interaction), KIND, computer, game)
        names = [roster.name_of(s) for s in roster.seats]
        await answer(interaction, f"{name} left the lobby. {_lobby_line(names)}.")

    @admin.command(name="replace", description="Hand a seat to another member (they get the seat's secrets by DM).")
    @app_commands.describe(
        old="The member leaving the seat",
        new="The member taking it",
        level="Instead of a member: a computer player of this level takes the seat",
        computer="Instead of old: the computer player whose seat a member (new:) takes",
        game=GAME_HELP,
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def admin_replace(
        self,
        interaction: discord.Interaction,
        old: discord.User | None = None,
        new: discord.User | None = None,
        level: str | None = None,
        computer: str | None = None,
        game: str | None = None,
    ) -> None:
        if (old is None) == (computer is None):
            raise UserError("Name whose seat changes hands: a member (old:) or a computer player (computer:).")
        if (new is None) == (level is None) or (computer is not None and new is None):
            raise UserError(
                "Name who takes the seat: a member (new:) or a computer player (level:), not both; "
                "a computer player's seat goes to a member."
            )
        if computer is not None:
            assert new is not None
            after = Member.to_seat(new, in_guild=interaction.guild is not None)
            _g, roster, seat, name = await self.host.hosting.replace_computer(
                caller_of(interaction), KIND, computer, after, self.presentation.brief, game
            )
            await answer(
                interaction, f"{after.display_name} now holds {name}'s seat; they were sent the seat's secrets by DM."
            )
            return
        assert old is not None
        before = Member.from_user(old)
        if level is not None:
            _g, roster, seat = await self.host.hosting.replace_with_computer(
                caller_of(interaction), KIND, before, level, game
            )
            await answer(interaction, f"{roster.name_of(seat)} now plays {before.display_name}'s seat.")
            return
        assert new is not None
        after = Member.to_seat(new, in_guild=interaction.guild is not None)
        await self.host.hosting.replace(caller_of(interaction), KIND, before, after, self.presentation.brief, game)
        await answer(
            interaction,
            f"{after.display_name} now holds {before.display_name}'s seat; they were sent the seat's secrets by DM.",
        )

    @admin.command(name="garnets", description="Set a player's garnet balance.")
    @app_commands.describe(player="The player", amount="The new balance", game=GAME_HELP)
    async def admin_garnets(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        amount: app_commands.Range[int, 0, None],
        game: str | None = None,
    ) -> None:
        text = await reports.set_garnets(self.host, caller_of(interaction), Member.from_user(player), amount, game)
        await answer(interaction, text)

    @admin.command(name="placements", description="The draft's tie-break: players from first to last last match.")
    @app_commands.describe(order="Players by display name or mention, comma-separated, best first", game=GAME_HELP)
    async def admin_placements(self, interaction: discord.Interaction, order: str, game: str | None = None) -> None:
        text = await reports.set_placements(self.host, caller_of(interaction), order, game)
        await answer(interaction, text)

    @admin.command(name="export", description="The game's full record as a replay file (host only; holds secrets).")
    @app_commands.describe(game=GAME_HELP)
    async def admin_export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        name, data = await self.host.hosting.export(caller_of(interaction), KIND, game)
        file = discord.File(io.BytesIO(data), filename=name)
        await answer(interaction, "The game's record (replay.md format). It holds every secret.", file=file)

    @admin.command(name="import", description="Continue a game run by hand here, from its replay file (host).")
    @app_commands.describe(
        file="The game's replay file (replay.md; a mid-game start is fine)",
        players="Map file names to members where names differ: `eve=@Eve, cara=@Cara`",
        deadline_hours="Hours for each round from now on",
        reminder_hours="DM players who have not submitted this many hours before each deadline (0: never)",
        wait_for_deadline="Wait for the deadline even when all five have submitted",
        season="A season of this server: the game is one of its matches",
    )
    async def admin_import(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        players: str | None = None,
        deadline_hours: app_commands.Range[float, 0.0, 1440.0] = 24.0,
        reminder_hours: app_commands.Range[float, 0.0, 1440.0] = 1.0,
        wait_for_deadline: bool = False,
        season: str | None = None,
    ) -> None:
        caller = caller_of(interaction)
        if interaction.guild is None:
            raise UserError("Import a game in a server text channel, not in a DM.")
        if not self.host.finder.may_open(caller):
            raise NotAllowed("Importing a game needs the Manage Server permission (or the host role).")
        doc = await importing.read_file(file)
        await interaction.response.defer(ephemeral=True, thinking=True)
        names = [str(p) for p in doc["players"]]
        members = await importing.members_for(interaction.guild, names, importing.parse_mapping(players))
        season_id = None
        if season is not None:
            season_id = (await self.host.seasons.pick(caller, KIND, season)).id
        options = HostOptions(
            deadline_hours=deadline_hours,
            reminder_hours=reminder_hours,
            wait_for_deadline=wait_for_deadline,
            season_start=False,
        )
        settings = {"import": doc, "rounds": int(doc.get("rounds_total", 6))}
        advance, roster = await self.host.lobby.open_started(
            caller, KIND, settings, options, members, season_id=season_id
        )
        pairs = ", ".join(f"{n} → {roster.name_of(s)}" for n, s in zip(names, roster.seats, strict=True))
        rnd = advance.state.game.round
        await answer(
            interaction,
            f"Game #{advance.game.id} continues here from round {rnd}. Seats: {pairs}. "
            "Each player was sent their seat and what they had learned by DM.",
        )

    admin_removebot.autocomplete("computer")(_computers)
    admin_replace.autocomplete("computer")(_computers)

    for _command in (
        admin_addbot,
        admin_removebot,
        admin_resolve,
        admin_deadline,
        admin_reminder,
        admin_pause,
        admin_resume,
        admin_end,
        admin_replace,
        admin_garnets,
        admin_placements,
        admin_export,
    ):
        _command.autocomplete("game")(_games)
    del _command


def character_choices(current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=char_title(c.value), value=c.value)
        for c in CHARACTERS
        if matches(current, c.value, char_title(c.value))
    ]
