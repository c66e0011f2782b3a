"""/crimecity draft, act, guess, friendship, ec: private submissions (ephemeral answers)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from rules.crimecity import CHARACTERS, legal_actions, legal_seconds
from rules.crimecity.notation import describe_action, format_action, parse_action
from rules.crimecity.validate import BUY_COST

from ..context import Member
from ..formatting import char_title, role_title
from ..panel import panel_view
from .common import MAX_CHOICES, Base, answer, caller_of, game_choices, matches

log = logging.getLogger(__name__)
GAME_HELP = "The game (only needed in DMs when you are in several)"


class PlayCommands(Base):
    @app_commands.command(name="draft", description="Record (or replace) your draft bid and rankings.")
    @app_commands.describe(
        bid="Garnets you bid for priority (paid when the draft resolves)",
        characters="Characters in order of preference, comma-separated (the rest follow in the book's order)",
        roles="Hidden roles in order of preference, comma-separated (the rest follow in the book's order)",
        game=GAME_HELP,
    )
    async def draft(
        self,
        interaction: discord.Interaction,
        bid: app_commands.Range[int, 0, None] = 0,
        characters: str | None = None,
        roles: str | None = None,
        game: str | None = None,
    ) -> None:
        sub, balance = await self.service.submit_draft(
            caller_of(interaction), bid=bid, roles=roles, characters=characters, game_opt=game
        )
        text = (
            f"Draft submission recorded: bid **{sub.bid}** of your {balance} garnets.\n"
            "Roles: " + ", ".join(f"{i}. {role_title(r.value)}" for i, r in enumerate(sub.roles, 1)) + "\n"
            "Characters: " + ", ".join(f"{i}. {char_title(c.value)}" for i, c in enumerate(sub.characters, 1)) + "\n"
            "You can replace it until the draft resolves."
        )
        await answer(interaction, text)

    @app_commands.command(name="act", description="Record (or replace) your two actions for this round.")
    @app_commands.describe(
        first="Your first action (pick from the list, or type e.g. 'move vertical secretary')",
        second="Your second action (leave out only when you may submit a single move)",
        game=GAME_HELP,
    )
    async def act(
        self, interaction: discord.Interaction, first: str, second: str | None = None, game: str | None = None
    ) -> None:
        seated, sub = await self.service.submit_actions(caller_of(interaction), first, second, game)
        shown = "\n".join(f"- `{format_action(a, seated.roster.name_of)}`" for a in sub.actions)
        extras = []
        if sub.buys:
            extras.append(f"{len(sub.buys)} friendship point(s) bought")
        if sub.guess:
            extras.append("a role guess")
        tail = f"\nAlso recorded: {', '.join(extras)}." if extras else ""
        await answer(
            interaction,
            f"Round {seated.game.round} actions recorded:\n{shown}{tail}\n"
            "You can replace them until the round resolves.",
        )

    @act.autocomplete("first")
    async def _act_first_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._action_choices(interaction, current, second=False)

    @act.autocomplete("second")
    async def _act_second_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._action_choices(interaction, current, second=True)

    @act.autocomplete("game")
    async def _act_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)

    async def _action_choices(
        self, interaction: discord.Interaction, current: str, *, second: bool
    ) -> list[app_commands.Choice[str]]:
        """Only the caller's legal actions now (for `second`: legal together with `first`)."""
        try:
            ctx = await self.service.play_context(caller_of(interaction), getattr(interaction.namespace, "game", None))
            if ctx is None:
                return []
            _game, state, seat, roster = ctx
            if second:
                first_text = getattr(interaction.namespace, "first", None)
                if not first_text:
                    return []
                actions = legal_seconds(state, seat, parse_action(first_text, roster.lookup))
            else:
                actions = legal_actions(state, seat)
            out = []
            for action in actions:
                value = format_action(action, roster.name_of)
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
        screen = await self.service.open_panel(caller_of(interaction), game)
        await answer(interaction, screen.text, view=panel_view(screen))

    @panel.autocomplete("game")
    async def _panel_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)

    @app_commands.command(name="guess", description="Mob Boss: guess every character's hidden role this round.")
    @app_commands.describe(
        roles="character=role for all 8 characters, comma-separated; 'none' for a character without a role",
        game=GAME_HELP,
    )
    async def guess(self, interaction: discord.Interaction, roles: str, game: str | None = None) -> None:
        guess = await self.service.submit_guess(caller_of(interaction), roles, game)
        lines = [f"{char_title(c.value)}: {role_title(guess[c].value)}" for c in CHARACTERS]
        await answer(
            interaction,
            "Guess recorded for this round (you can replace it until the round resolves):\n" + "\n".join(lines),
        )

    @guess.autocomplete("game")
    async def _guess_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)

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
        buys, balance = await self.service.buy_friendship(caller_of(interaction), a, b, points, game)
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

    @friendship.autocomplete("game")
    async def _friendship_game_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)

    @app_commands.command(name="ec", description="Choose the EC when the results leave that decision to you.")
    @app_commands.describe(player="The member you choose as EC", game=GAME_HELP)
    async def ec(self, interaction: discord.Interaction, player: discord.User, game: str | None = None) -> None:
        text = await self.service.choose_ec(caller_of(interaction), Member.from_user(player), game)
        await answer(interaction, text)

    @ec.autocomplete("game")
    async def _ec_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)


def character_choices(current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=char_title(c.value), value=c.value)
        for c in CHARACTERS
        if matches(current, c.value, char_title(c.value))
    ]
