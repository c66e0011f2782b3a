"""`/organizedcrime`: the command surface of commands.md, on the host's services.

Each command reads what was typed, builds the rules' action(s) (`moves`), lets the host submit them
(the rules check every one) and answers privately with what happened. Autocomplete offers only the
caller's legal choices (`choices`, from `rules.organizedcrime.legal`). No rule is decided here.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from rules.contract import NoChance, ParseError
from rules.organizedcrime.engine import Engine
from rules.organizedcrime.legal import destinations_for

from ... import host as host_api
from ...host import GAME_HELP, Member, UserError, answer, caller_of, game_choices, timestamp
from . import choices, rules_pages
from .board import alt_text
from .lobby import host_options, lobby_text, reorder, settings_of
from .moves import KIND, Context, context, context_of, play
from .names import parse_space
from .notation import read, read_pieces
from .pack import PACK
from .panel import open_panel, open_view, panel_view
from .replies import board_of, history_embed, receipt, started_text, status_text

if TYPE_CHECKING:
    from ...host import Host
    from .presentation import OrganizedCrimePresentation

log = logging.getLogger(__name__)
Act = dict[str, Any]
Choices = list[app_commands.Choice[str]]
IntChoices = list[app_commands.Choice[int]]

HELP = """\
**Organized Crime** — 2 to 4 Bosses; the last one standing wins.
**Lobby**: `/organizedcrime new` (host) · `join` · `leave` · `start` (host, optional `order`)
**Your turn**: `buy hitmen|power|official` · `income` · `cash` · `declare` (movers, then `roll`) · `roll` · \
`move` (a mover, its share, and `to` a destination) · `path` (item by item) · `acquire` · `meeting call` · `pass`
**Meetings**: `meeting give` · `meeting callvote` · `vote` · `meeting place` · `meeting adjourn`
**Penalties**: `penalty call:true|false` · `remove`
**Easiest**: `/organizedcrime panel` — your options now, as buttons and menus.
**Reading**: `status` (private: your hand too) · `board` · `rules` · `history`
**Hosting**: `admin resolve|deadline|pause|resume|end|replace|export`
Every list offers only what the rules allow you now; a refusal says which rule."""


def _int(text: str) -> int:
    clean = text.strip().split()[0] if text.strip() else ""
    if not (clean.isascii() and clean.isdigit()):
        raise UserError(f"{text!r} is not a number from the list.")
    return int(clean)


def living(game: Any) -> bool:
    """The lobby has a living post (edited by the host as people join): no public line per join then."""
    return getattr(game, "lobby_message_id", None) is not None


def _user_ids(text: str) -> list[int]:
    return [int(a or b) for a, b in re.findall(r"<@!?(\d+)>|\b(\d{15,20})\b", text)]


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class OrganizedCrimeCog(
    commands.GroupCog, group_name=KIND, group_description="Organized Crime: 2 to 4 Bosses, the last one standing wins"
):
    buy = app_commands.Group(name="buy", description="Buy Hit-Men, a Power card or a Corrupt Official (your turn).")
    meeting = app_commands.Group(name="meeting", description="Commission meetings: call one, give, vote, adjourn.")
    admin = app_commands.Group(name="admin", description="Hosting commands (the game's host or Manage Server).")

    def __init__(self, host: Host, presentation: OrganizedCrimePresentation) -> None:
        self.host = host
        self.presentation = presentation
        super().__init__()

    # ---- helpers -------------------------------------------------------------------------------------

    async def _act(
        self, interaction: discord.Interaction, game: str | None, make: Callable[[Context], Act | list[Act]]
    ) -> None:
        caller = caller_of(interaction)
        ctx = await context(self.host, caller, game)
        made = make(ctx)
        actions = made if isinstance(made, list) else [made]
        played = await play(self.host, caller, ctx, actions, game)
        await answer(interaction, receipt(ctx, played), view=open_view(ctx.turn.game.id))

    async def _ctx(self, interaction: discord.Interaction) -> Context | None:
        turn = await self.host.play.turn(caller_of(interaction), KIND, getattr(interaction.namespace, "game", None))
        return None if turn is None else context_of(turn)

    async def _ac(self, interaction: discord.Interaction, make: Callable[[Context], list[tuple[str, str]]]) -> Choices:
        try:
            ctx = await self._ctx(interaction)
            if ctx is None:
                return []
            return [app_commands.Choice(name=name, value=value) for name, value in make(ctx)]
        except Exception:
            log.debug("autocomplete gave nothing", exc_info=True)
            return []

    async def _ac_int(
        self, interaction: discord.Interaction, make: Callable[[Context], list[tuple[str, str]]]
    ) -> IntChoices:
        found = await self._ac(interaction, make)
        return [app_commands.Choice(name=c.name, value=int(c.value)) for c in found]

    async def _games(self, interaction: discord.Interaction, current: str) -> Choices:
        return await game_choices(self.host, interaction.client, KIND, interaction, current)

    def _seat(self, ctx: Context, user: discord.abc.User | None) -> str | None:
        if user is None:
            return None
        seat = ctx.turn.roster.seat_of(user.id)
        if seat is None:
            raise UserError(f"{user.display_name} is not a player in this game.")
        return seat

    def _piece(self, ctx: Context, text: str) -> str:
        return ctx.names.parse_piece(text, ctx.seat, ctx.lookup)

    # ---- lobby ---------------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open an Organized Crime lobby in this channel (you host it).")
    @app_commands.describe(
        pace="Deadline presets: live (minutes) or async (hours)",
        ballots="open (as the Bylaws) or sealed (house rule: secret until all are in)",
        round_cap="House rule: end after this round and rank by votes, money, income (0: no cap)",
        auto_income="House rule: collect income automatically when a turn begins",
        turn_minutes="Minutes for a whole turn (0: the pace's preset)",
        base_minutes="Minutes to choose a Home Base",
        bargain_minutes="Minutes of bargaining before the vote is called",
        bargain_minimum_minutes="Minutes before the caller may call the vote (0: at once)",
        vote_minutes="Minutes per voter (open ballots) or for the whole ballot (sealed)",
        session_minutes="Minutes of the session after a vote",
        window_seconds="Seconds of the penalty window",
        choice_minutes="Minutes to choose the Hit-Men a penalty removes",
        reminder_percent="Remind an awaited player when this share of the time has passed (0-90)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        pace: Literal["live", "async"] = "live",
        ballots: Literal["open", "sealed"] = "open",
        round_cap: app_commands.Range[int, 0, 100] = 0,
        auto_income: bool = False,
        turn_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        base_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        bargain_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        bargain_minimum_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        vote_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        session_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        window_seconds: app_commands.Range[float, 0.0, 10000000.0] | None = None,
        choice_minutes: app_commands.Range[float, 0.0, 100000.0] | None = None,
        reminder_percent: app_commands.Range[int, 0, 90] = 50,
    ) -> None:
        settings = settings_of({
            "pace": pace, "ballots": ballots, "round_cap": round_cap, "auto_income": auto_income,
            "turn_minutes": turn_minutes, "base_minutes": base_minutes, "bargain_minutes": bargain_minutes,
            "bargain_minimum_minutes": bargain_minimum_minutes, "vote_minutes": vote_minutes,
            "session_minutes": session_minutes, "window_seconds": window_seconds, "choice_minutes": choice_minutes,
            "reminder_percent": reminder_percent,
        })
        game = await self.host.lobby.open(caller_of(interaction), KIND, settings, host_options(settings))
        roster = await self.host.finder.roster(game.id)
        buttons, living = getattr(host_api, "host_buttons", None), getattr(self.host.lobby, "set_lobby_post", None)
        if buttons is None or living is None:
            await answer(interaction, lobby_text(game, roster), ephemeral=False)
            return
        # A host with a living lobby: the post carries Join / Leave / Start and is edited as people come.
        await interaction.response.send_message(lobby_text(game, roster), view=buttons(("join", "leave", "start"),
                                                                                       game.id))
        await living(game.id, (await interaction.original_response()).id)

    @app_commands.command(name="join", description="Join the lobby in this channel (2 to 4 players).")
    async def join(self, interaction: discord.Interaction) -> None:
        game, roster = await self.host.lobby.join(caller_of(interaction), KIND)
        names = ", ".join(roster.name_of(s) for s in roster.seats)
        full = " The lobby is full: the host can `/organizedcrime start`." if len(roster) >= 4 else ""
        await answer(interaction, f"{interaction.user.display_name} joined. Players ({len(roster)}/4): {names}.{full}",
                     ephemeral=living(game))

    @app_commands.command(name="leave", description="Leave the lobby (before the start).")
    @app_commands.describe(game=GAME_HELP)
    async def leave(self, interaction: discord.Interaction, game: str | None = None) -> None:
        left, roster = await self.host.lobby.leave(caller_of(interaction), KIND, game)
        names = ", ".join(roster.name_of(s) for s in roster.seats) or "nobody"
        await answer(interaction, f"{interaction.user.display_name} left. Players ({len(roster)}/4): {names}.",
                     ephemeral=living(left))

    leave.autocomplete("game")(_games)

    @app_commands.command(name="start", description="Close the lobby and start (host): decks, dice, Home Bases.")
    @app_commands.describe(
        order="Optional: the players, by mention, in seat order (else the join order)", game=GAME_HELP
    )
    async def start(self, interaction: discord.Interaction, order: str | None = None, game: str | None = None) -> None:
        caller = caller_of(interaction)
        if order:
            await reorder(self.host, caller, _user_ids(order), game)
        advance, roster = await self.host.lobby.start(caller, KIND, game)
        await answer(interaction, started_text(advance.game.id, roster), ephemeral=False)

    start.autocomplete("game")(_games)

    # ---- the turn ------------------------------------------------------------------------------------

    @app_commands.command(name="base", description="Choose your Home Base.")
    @app_commands.describe(home="A free Home Base", game=GAME_HELP)
    async def base(self, interaction: discord.Interaction, home: str, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "base", "base": _int(home)})

    @base.autocomplete("home")
    async def _base_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.bases(ctx, current))

    @buy.command(name="hitmen", description="Buy Hit-Men ($10,000 each); they start in your Home Base.")
    @app_commands.describe(count="How many (1-20)", game=GAME_HELP)
    async def buy_hitmen(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 20], game: str | None = None
    ) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "buy_hitmen", "count": count})

    @buy_hitmen.autocomplete("count")
    async def _count_ac(self, interaction: discord.Interaction, current: str) -> IntChoices:
        return await self._ac_int(interaction, lambda ctx: choices.counts(ctx, current))

    @buy.command(name="power", description="Buy the top Power card ($200,000); you get it by DM.")
    @app_commands.describe(game=GAME_HELP)
    async def buy_power(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "buy_power"})

    @buy.command(name="official", description="Buy a Corrupt Official with one of your Corrupt Official cards.")
    @app_commands.describe(card="One of your Corrupt Official cards", game=GAME_HELP)
    async def buy_official(self, interaction: discord.Interaction, card: str, game: str | None = None) -> None:
        from .names import parse_card

        await self._act(interaction, game, lambda ctx: {"act": "buy_official", "card": parse_card(card)})

    @buy_official.autocomplete("card")
    async def _official_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.cards(ctx, "buy_official", current))

    @app_commands.command(name="income", description="Collect your income (once a turn, on request).")
    @app_commands.describe(game=GAME_HELP)
    async def income(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "income"})

    @app_commands.command(name="cash", description="Cash one of your Money cards at the Treasury.")
    @app_commands.describe(card="One of your Money cards", game=GAME_HELP)
    async def cash(self, interaction: discord.Interaction, card: str, game: str | None = None) -> None:
        from .names import parse_card

        await self._act(interaction, game, lambda ctx: {"act": "cash", "card": parse_card(card)})

    @cash.autocomplete("card")
    async def _cash_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.cards(ctx, "cash", current))

    @app_commands.command(name="declare", description="Declare one or two movers (public and final), then roll.")
    @app_commands.describe(
        piece="One of your pieces on the board",
        direction="right or left",
        attack="Attack this player's Home Base (optional)",
        piece2="A second mover (optional)",
        direction2="Its direction",
        attack2="Its attack (optional)",
        roll="Roll the dice right after (default: no)",
        game=GAME_HELP,
    )
    async def declare(
        self,
        interaction: discord.Interaction,
        piece: str,
        direction: Literal["right", "left"],
        attack: discord.User | None = None,
        piece2: str | None = None,
        direction2: Literal["right", "left"] | None = None,
        attack2: discord.User | None = None,
        roll: bool = False,
        game: str | None = None,
    ) -> None:
        def make(ctx: Context) -> list[Act]:
            out = [{"act": "declare", "piece": self._piece(ctx, piece), "dir": direction,
                    "attack": self._seat(ctx, attack)}]
            if piece2:
                if direction2 is None:
                    raise UserError("Give `direction2` for the second mover.")
                out.append({"act": "declare", "piece": self._piece(ctx, piece2), "dir": direction2,
                            "attack": self._seat(ctx, attack2)})
            elif direction2 or attack2:
                raise UserError("`direction2` and `attack2` go with `piece2`.")
            if roll:
                out.append({"act": "roll"})
            return out

        await self._act(interaction, game, make)

    @declare.autocomplete("piece")
    async def _declare_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.declare_pieces(ctx, current))

    @declare.autocomplete("piece2")
    async def _declare2_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        first = getattr(interaction.namespace, "piece", None)
        return await self._ac(interaction, lambda ctx: choices.declare_pieces(ctx, current, other=first))

    @app_commands.command(name="roll", description="Roll the dice for your declared movers.")
    @app_commands.describe(game=GAME_HELP)
    async def roll(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "roll"})

    @app_commands.command(name="move", description="Start a mover's move with its share (and go to a destination).")
    @app_commands.describe(
        piece="A declared mover waiting to move",
        share="Its share of the roll",
        to="Optional: where to go (the whole path is played); else continue with /organizedcrime path",
        game=GAME_HELP,
    )
    async def move(
        self, interaction: discord.Interaction, piece: str, share: int, to: str | None = None, game: str | None = None
    ) -> None:
        def make(ctx: Context) -> list[Act]:
            pid = self._piece(ctx, piece)
            out: list[Act] = [{"act": "move", "piece": pid, "share": share}]
            # A move the rules refuse gets their reason; and no search of a walk for a share no move has.
            if to and choices.of(ctx, "move", lambda a: a["piece"] == pid and a["share"] == share):
                found = destinations_for(Engine(PACK.game.content, ctx.state, NoChance()), pid, share)
                # commands.md "Writing an action": a space by its id (o04) or a name only it has (Boston)
                try:
                    wanted: str | None = parse_space(to)
                except ParseError:
                    wanted = None  # said below with the list of destinations
                hit = next((d for d in found if d["to"] == wanted), None)
                if hit is None:
                    listed = ", ".join(d["to"] for d in found) or "none"
                    raise UserError(f"{to!r} is not a destination of {ctx.names.piece(pid)} with {share} "
                                    f"(rulings B.3: {listed}).")
                out += [{"act": "step", "to": s} for s in hit["steps"]]
            return out

        await self._act(interaction, game, make)

    @move.autocomplete("piece")
    async def _move_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.movers(ctx, current))

    @move.autocomplete("share")
    async def _share_ac(self, interaction: discord.Interaction, current: str) -> IntChoices:
        piece = getattr(interaction.namespace, "piece", None)
        return await self._ac_int(interaction, lambda ctx: choices.shares(ctx, piece, current))

    @move.autocomplete("to")
    async def _to_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        ns = interaction.namespace
        piece, share = getattr(ns, "piece", None), getattr(ns, "share", None)
        return await self._ac(interaction, lambda ctx: choices.destinations(ctx, piece, share, current))

    @app_commands.command(name="path", description="The next item of your move: a step, a rub-out, a Hit card, stop.")
    @app_commands.describe(item="step o04 · rub yellow:2 · hit PW13 yellow:4 yellow:5 · stop", game=GAME_HELP)
    async def path(self, interaction: discord.Interaction, item: str, game: str | None = None) -> None:
        def make(ctx: Context) -> Act:
            action = read(item, ctx.names, ctx.seat, ctx.lookup)
            if action["act"] not in ("step", "rub", "hit", "stop"):
                raise UserError("A path item is a step, a rub-out, a Hit card or stop.")
            return action

        await self._act(interaction, game, make)

    @path.autocomplete("item")
    async def _path_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.path_items(ctx, current))

    @app_commands.command(name="acquire", description="Acquire your first City, where your mover landed (no vote).")
    @app_commands.describe(piece="The mover that landed on an unowned City", game=GAME_HELP)
    async def acquire(self, interaction: discord.Interaction, piece: str, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "acquire", "piece": self._piece(ctx, piece)})

    @acquire.autocomplete("piece")
    async def _acquire_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.acquirers(ctx, current))

    @app_commands.command(name="pass", description="Pass the dice: end your turn.")
    @app_commands.describe(game=GAME_HELP)
    async def pass_(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "pass"})

    # ---- meetings ------------------------------------------------------------------------------------

    @meeting.command(name="call", description="Call a Commission meeting to acquire what your mover landed on.")
    @app_commands.describe(piece="The mover that landed", target="The City, or a category of the landing's kind",
                           game=GAME_HELP)
    async def meeting_call(self, interaction: discord.Interaction, piece: str, target: str,
                           game: str | None = None) -> None:
        from .names import parse_target

        await self._act(interaction, game, lambda ctx: {"act": "meeting", "piece": self._piece(ctx, piece),
                                                        "target": parse_target(target)})

    @meeting_call.autocomplete("piece")
    async def _meeting_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.meeting_pieces(ctx, current))

    @meeting_call.autocomplete("target")
    async def _meeting_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        piece = getattr(interaction.namespace, "piece", None)
        return await self._ac(interaction, lambda ctx: choices.targets(ctx, piece, current))

    @meeting.command(name="give", description="Give money or a card to another member (during a meeting).")
    @app_commands.describe(player="Who gets it", money="Dollars, a multiple of 10000", card="One of your cards",
                           game=GAME_HELP)
    async def meeting_give(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        money: app_commands.Range[int, 0, None] | None = None,
        card: str | None = None,
        game: str | None = None,
    ) -> None:
        from .names import parse_card

        def make(ctx: Context) -> Act:
            to = self._seat(ctx, player)
            if (money is None) == (card is None):
                raise UserError("Give either `money` or `card`, not both.")
            if card is not None:
                return {"act": "give", "to": to, "card": parse_card(card)}
            return {"act": "give", "to": to, "money": money}

        await self._act(interaction, game, make)

    @meeting_give.autocomplete("card")
    async def _give_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.gift_cards(ctx, current))

    @meeting.command(name="callvote", description="Call the vote (the meeting's caller, after ample bargaining).")
    @app_commands.describe(game=GAME_HELP)
    async def meeting_callvote(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "call_vote"})

    @meeting.command(name="place", description="Place the approved Marker (the meeting's caller).")
    @app_commands.describe(game=GAME_HELP)
    async def meeting_place(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "place"})

    @meeting.command(name="adjourn", description="End the meeting (the meeting's caller).")
    @app_commands.describe(game=GAME_HELP)
    async def meeting_adjourn(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "adjourn"})

    @app_commands.command(name="vote", description="Cast your ballot: for, against (with how many votes) or abstain.")
    @app_commands.describe(side="for, against or abstain", votes="How many of your votes (not for abstain)",
                           game=GAME_HELP)
    async def vote(
        self,
        interaction: discord.Interaction,
        side: Literal["for", "against", "abstain"],
        votes: app_commands.Range[int, 1, None] | None = None,
        game: str | None = None,
    ) -> None:
        def make(ctx: Context) -> Act:
            if side == "abstain":
                return {"act": "vote", "side": "abstain"}
            if votes is None:
                raise UserError("Say how many `votes` you cast (or abstain).")
            return {"act": "vote", "side": side, "votes": votes}

        await self._act(interaction, game, make)

    @vote.autocomplete("votes")
    async def _votes_ac(self, interaction: discord.Interaction, current: str) -> IntChoices:
        side = getattr(interaction.namespace, "side", None)
        return await self._ac_int(interaction, lambda ctx: choices.vote_counts(ctx, side, current))

    # ---- penalties -----------------------------------------------------------------------------------

    @app_commands.command(name="penalty", description="Call a penalty on the offending player, or decline.")
    @app_commands.describe(call="true calls a penalty, false declines", game=GAME_HELP)
    async def penalty(self, interaction: discord.Interaction, call: bool, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "penalty" if call else "no_penalty"})

    @app_commands.command(name="remove", description="Choose the Hit-Men a Penalty card removes.")
    @app_commands.describe(pieces="The Hit-Men, e.g. green:3 green:4", game=GAME_HELP)
    async def remove(self, interaction: discord.Interaction, pieces: str, game: str | None = None) -> None:
        await self._act(interaction, game, lambda ctx: {"act": "remove", "pieces": read_pieces(
            pieces, ctx.names, ctx.seat, ctx.lookup)})

    @remove.autocomplete("pieces")
    async def _remove_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._ac(interaction, lambda ctx: choices.removals(ctx, current))

    # ---- reading -------------------------------------------------------------------------------------

    @app_commands.command(name="status", description="Your private view: money, holdings, your hand, what to do now.")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await answer(interaction, await status_text(self.host, caller_of(interaction), game))

    @app_commands.command(name="board", description="The public board as text and picture.")
    @app_commands.describe(public="Post it in the channel for everyone (it holds no secret)", game=GAME_HELP)
    async def board(self, interaction: discord.Interaction, public: bool = False, game: str | None = None) -> None:
        text, view, names = await board_of(self.host, caller_of(interaction), game)
        private = not (public and interaction.guild_id)
        file = None
        if view is not None:
            # commands.md: a command whose work may take longer than Discord's 3 seconds is deferred; the
            # picture is drawn by a worker process (a reading error above is still answered privately).
            await interaction.response.defer(ephemeral=private, thinking=True)
            png = await self.host.draw("organizedcrime", view)
            if png:
                file = discord.File(io.BytesIO(png), filename="board.png", description=alt_text(view, names))
        await answer(interaction, text, ephemeral=private, file=file)

    @app_commands.command(name="panel", description="Your options now, as buttons and menus.")
    @app_commands.describe(game=GAME_HELP)
    async def panel(self, interaction: discord.Interaction, game: str | None = None) -> None:
        screen = await open_panel(self.host, caller_of(interaction), game)
        await answer(interaction, screen.text, view=panel_view(screen))

    @app_commands.command(name="rules", description="The rules of Organized Crime, in short pages.")
    @app_commands.describe(topic="A topic (leave empty for the list)")
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        page = rules_pages.page(topic)
        await interaction.response.send_message(embed=discord.Embed.from_dict(page.embed()), ephemeral=True)

    @rules.autocomplete("topic")
    async def _rules_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return [app_commands.Choice(name=name, value=value) for name, value in rules_pages.topic_choices(current)]

    @app_commands.command(name="history", description="This server's finished games: players, winners, reason, turns.")
    @app_commands.describe(page="Page (1 is the newest games)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, None] = 1) -> None:
        embed = await history_embed(self.host, caller_of(interaction), page)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="What the Organized Crime commands do.")
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, HELP)

    # ---- hosting -------------------------------------------------------------------------------------

    @admin.command(name="resolve", description="Apply the current decision's timeout default now.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resolve(self, interaction: discord.Interaction, game: str | None = None) -> None:
        before = (await self.host.finder.game(caller_of(interaction), KIND, game)).pending
        await self.host.hosting.resolve(caller_of(interaction), KIND, game)
        what = self.presentation.decision_title(before) if before else "the decision"
        await answer(interaction, f"Applied the default of {what} (as if its deadline had passed); the channel gets "
                                  "what happened.")

    @admin.command(name="deadline", description="Move the current decision's deadline to this many minutes from now.")
    @app_commands.describe(minutes="Minutes from now (fractions allowed)", game=GAME_HELP)
    async def admin_deadline(self, interaction: discord.Interaction, minutes: float, game: str | None = None) -> None:
        clock = await self.host.hosting.deadline(caller_of(interaction), KIND, minutes * 60, game)
        if clock.deadline_at is None:
            text = f"The clock is paused; {minutes:g} min will remain when it resumes."
        else:
            text = f"New deadline: {timestamp(clock.deadline_at)}."
        await answer(interaction, text)

    @admin.command(name="pause", description="Stop every clock of the game.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_pause(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.host.hosting.pause(caller_of(interaction), KIND, True, game)
        await answer(interaction, "Every clock is stopped: nothing times out until `/organizedcrime admin resume`.")

    @admin.command(name="resume", description="Restart the clocks with the time they had left.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resume(self, interaction: discord.Interaction, game: str | None = None) -> None:
        clock = await self.host.hosting.pause(caller_of(interaction), KIND, False, game)
        await answer(interaction, f"The clocks run again: deadline {timestamp(clock.deadline_at)}.")

    @admin.command(name="end", description="End the game now and post the standing (reason: host).")
    @app_commands.describe(game=GAME_HELP)
    async def admin_end(self, interaction: discord.Interaction, game: str | None = None) -> None:
        ended = await self.host.hosting.end(caller_of(interaction), KIND, reveal=True, game_opt=game)
        await answer(interaction, "The game is ended; the standing is being posted." if ended.started_at is not None
                     else "The lobby is closed: no game was played.")

    @admin.command(name="replace", description="Hand a seat to another member (he gets its hand and prompts by DM).")
    @app_commands.describe(old="The member leaving the seat", new="The member taking it", game=GAME_HELP)
    async def admin_replace(
        self, interaction: discord.Interaction, old: discord.User, new: discord.User, game: str | None = None
    ) -> None:
        before, after = Member.from_user(old), Member.to_seat(new, in_guild=interaction.guild is not None)
        await self.host.hosting.replace(caller_of(interaction), KIND, before, after, self.presentation.brief, game)
        await answer(interaction, f"{after.display_name} now holds {before.display_name}'s seat; the seat's hand "
                                  "and prompts were sent by DM.")

    @admin.command(name="export", description="The game's replay file (host only; it holds every secret).")
    @app_commands.describe(game=GAME_HELP)
    async def admin_export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        caller = caller_of(interaction)
        # Deferred (commands.md: Discord's 3 seconds): the whole record is read and written out.
        await interaction.response.defer(ephemeral=True, thinking=True)
        # commands.md: the file is attached, host only; a host who also plays gets it with a warning.
        name, data, plays = await self.host.hosting.export_to_host(caller, KIND, game, seated=True)
        text = "The game's replay file (replay.md). It holds every secret, the order of every deck included."
        if PACK.game is not PACK.house:
            text += (f" It was played on the board `{PACK.game.content_id}`: replay it with "
                     "`python -m rules replay FILE --content DIR` on that board's files.")
        if plays:
            text += (" **You are also a player**: this file shows every hand and the order of every deck, so you "
                     "should not open it (or export) before the game is over.")
        await answer(interaction, text, file=discord.File(io.BytesIO(data), filename=name))

    for _command in (admin_resolve, admin_deadline, admin_pause, admin_resume, admin_end, admin_replace, admin_export,
                     base, buy_hitmen, buy_power, buy_official, income, cash, declare, roll, move, path, acquire,
                     pass_, meeting_call, meeting_give, meeting_callvote, meeting_place, meeting_adjourn, vote,
                     penalty, remove, status, board, panel):
        _command.autocomplete("game")(_games)
    del _command
