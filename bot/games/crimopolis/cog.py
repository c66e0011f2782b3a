"""`/crimopolis`: the command surface of spec/crimopolis/commands.md, on the host's services.

Commands read what the caller typed, ask the host to do it (the host checks rights and decisions, the rules
legality) and answer in Crimopolis's words; private answers are ephemeral. Options marked (ac) in commands.md
offer the caller's legal choices only, from `choices.LEGAL`, narrowed by the options already filled in.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from ...host import (
    GAME_HELP,
    HostOptions,
    Member,
    Turn,
    UserError,
    answer,
    caller_of,
    defer_public,
    game_choices,
    settled,
    timestamp,
)
from . import moves, rules_pages, texts
from .choices import CHOICES, LEGAL, MAX, choices, distinct, pick
from .names import Names, hours
from .narrowing import narrowed
from .notation import parse_fortunes, parse_sources, sources_text
from .pack import PACK
from .panel import open_screen, screen_for, view_of
from .prefs import CHOICES as PREF_CHOICES
from .prefs import WORDS as PREF_WORDS
from .public import public_view
from .reports import board, history_embed, status_text

if TYPE_CHECKING:
    from ...host import Caller, GameRow, Host, Played, Roster
    from .presentation import CrimopolisPresentation

log = logging.getLogger(__name__)

KIND = "crimopolis"
Choice = app_commands.Choice
# Turns of the event loop before a request is on its way: discord.py's, then aiohttp's body writer (a task of
# its own before Python 3.12), which also sends the headers it held back.
WRITES = 2

HELP = """\
**Crimopolis** — 2 to 5 gangs crawl an unbounded city: explore, occupy, take over, do jobs; first to the \
target prestige rings the bell.
**Lobby**: `/crimopolis new` (host) · `join` (team mode: `with:` a player, to share their seat) · `leave` · \
`start` (host)
**Your turn** (answers are private; in the channel or in a DM with me): `move from to count` · `recruit` · \
`occupy block from` · `takeover block from` · `job card block from [fortunes]` · `abort card` · `invest` · \
`fortune card [target]` · `redraw` · `end` · or any action with `act action` (the notation: \
`/crimopolis rules topic:notation`)
**Other decisions** (setup, explore, keep, target, react, destiny): `/crimopolis decide choice`, or the buttons
`/crimopolis panel` — menus of your legal actions · `/crimopolis prefs reactions` — ask / never / auto
`/crimopolis status` — your hands and the open decision · `/crimopolis board [public]` · `/crimopolis rules` · \
`/crimopolis history`
**Hosting**: `/crimopolis admin resolve|deadline|reminder|pause|resume|end|replace|export`
**Seasons** (a league by placement): `/season new|join|match|standings|history|export`"""

VARIANTS = [Choice(name=n, value=v) for n, v in (("standard", "standard"), ("lucky speed", "lucky_speed"))]
VARIANTS.append(Choice(name="deeper strategy", value="deeper_strategy"))
TIMEOUTS = [
    Choice(name="forfeit (pass 0 hours on)", value="forfeit"),
    Choice(name="pass (pass the hours left on)", value="pass"),
]
RECRUIT_TO = [Choice(name="your Headquarters", value="hq"), Choice(name="your Safe House", value="safe_house")]
TURN_HOURS_MAX = 1440.0  # the host's longest deadline (60 days)
PREFS = [Choice(name=PREF_WORDS[p][:100], value=p) for p in PREF_CHOICES]


SEASON_MATCH = "A match of this server's season: only its roster may join (`/season standings`)."


def lobby_text(game: GameRow, roster: Roster) -> str:
    """The living lobby message (edited by the host as players join and leave)."""
    s = game.settings
    variant = str(s.get("variant") or "standard").replace("_", " ")
    extras = [
        label
        for key, label in (("influence_on_the_streets", "Influence on the Streets"), ("big_business", "Big Business"))
        if s.get(key)
    ]
    for key, label in (("target_prestige", "target"), ("gangsters", "gangsters")):
        if s.get(key) is not None:
            extras.append(f"{label} {s[key]}")
    if s.get("clock_tiles_first") is not None:
        extras.append(f"clock tiles first: {'yes' if s['clock_tiles_first'] else 'no'}")
    first = f"<@{s['first_player']}> starts" if s.get("first_player") else "the start player is drawn at start"
    state = {"lobby": "open", "running": "started", "ended": "closed"}.get(game.status, game.status)
    if game.options.shared_seats:
        extras.append("team mode: 2 members per seat")
    return (
        f"**Crimopolis** — game #{game.id} ({state}), hosted by <@{game.host_id}>: {variant}"
        + (f" ({', '.join(extras)})" if extras else "")
        + f"; {float(s.get('turn_hours') or 24):g} h per turn, {s.get('reaction_minutes') or 15} min per reaction; "
        f"{first}.\n{seats_text(roster)}"
        + (
            "\nJoin with /crimopolis join (2 to 5 players"
            + ("; `with:` a player shares their seat" if game.options.shared_seats else "")
            + "); the host starts with /crimopolis start."
            if game.status == "lobby"
            else ""
        )
        + (f"\n{SEASON_MATCH}" if game.season_id is not None and game.status == "lobby" else "")
    )


def seats_text(roster: Roster) -> str:
    """The seats (2-5; a team seat names both members) for the lobby's posts."""
    names = ", ".join(roster.name_of(s) for s in roster.seats) or "nobody yet"
    return f"Players ({len(roster)}/5): {names}."


async def start_game(host: Host, caller: Caller, game_opt: str | None, *, game_id: int | None = None) -> Any:
    """Close the lobby and set up: the host's `first_player` (a member) becomes a seat (join order, rotated)."""
    game = await host.finder.game(caller, KIND, game_opt)
    roster = await host.finder.roster(game.id)
    wanted = game.settings.get("first_player")
    first = None
    if wanted:
        first = roster.seat_of(int(wanted))
        if first is None and len(roster) >= PACK.game.info.min_players:  # too few players: the host says so
            raise UserError(f"<@{wanted}> was chosen to start but has not joined: they join, or open a new lobby.")
    advance, _ = await host.lobby.start(caller, KIND, game_opt, {"first_player": first}, game_id=game_id)
    return advance


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class CrimopolisCog(commands.GroupCog, group_name=KIND, group_description="Crimopolis: a city crawl for 2-5 gangs"):
    admin = app_commands.Group(name="admin", description="Hosting (the game's host or Manage Server).")

    def __init__(self, host: Host, presentation: CrimopolisPresentation) -> None:
        self.host = host
        self.presentation = presentation
        super().__init__()

    async def cog_load(self) -> None:
        self.presentation.host = self.host
        await self.presentation.prefs.load(self.host.db)

    async def cog_unload(self) -> None:
        if self.presentation.host is self.host:
            self.presentation.host = None

    async def _games(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await game_choices(self.host, interaction.client, KIND, interaction, current)

    # ---- helpers -----------------------------------------------------------------------------------------

    async def _turn(self, interaction: discord.Interaction) -> Turn | None:
        return await self.host.play.turn(caller_of(interaction), KIND, getattr(interaction.namespace, "game", None))

    async def _legal(self, interaction: discord.Interaction) -> tuple[Turn, list[dict[str, Any]], Names] | None:
        turn = await self._turn(interaction)
        if turn is None or turn.game.pending is None or turn.seat not in turn.game.pending.awaited:
            return None
        actions = LEGAL.get(turn.game.id, turn.game.version, turn.seat, turn.state)
        return turn, actions, Names(turn.roster.name_of, public_view(turn.state))

    async def _complete(
        self,
        interaction: discord.Interaction,
        current: str,
        make: Callable[[Turn, list[dict[str, Any]], Names], Iterable[tuple[str, str]]],
    ) -> list[Choice[str]]:
        """Autocomplete from the caller's legal actions; never fails (a suggestion only)."""
        try:
            found = await self._legal(interaction)
            if found is None:
                return []
            return [Choice(name=name, value=value) for name, value in distinct(make(*found), current)]
        except Exception:
            log.debug("autocomplete gave nothing", exc_info=True)
            return []

    def _opt(self, interaction: discord.Interaction, name: str) -> str | None:
        value = getattr(interaction.namespace, name, None)
        return None if value in (None, "") else str(value)

    def _filled(self, interaction: discord.Interaction, *names: str) -> dict[str, str | None]:
        """The other options as filled in so far, by their Discord names."""
        return {name: self._opt(interaction, name) for name in names}

    async def _play(self, interaction: discord.Interaction, build: moves.Build, game: str | None) -> None:
        """Defer (Discord's 3 seconds), send the action, answer with what was done and what follows.

        The deferral goes first, and the action is played while Discord takes it: the answer does not also
        wait for that round trip. An action whose deferral Discord refused (it came too late) stays played,
        as a move handed to a host would; the board and /crimopolis status show it (docs/crimopolis/bot.md)."""
        deferral = asyncio.ensure_future(interaction.response.defer(ephemeral=True, thinking=True))
        for _ in range(WRITES):  # the deferral's request is written before the step holds the loop
            await asyncio.sleep(0)
        caller = caller_of(interaction)
        try:
            played, fresh = await moves.play_now(self.host, caller, build, game)
        finally:
            refused = await settled(deferral)  # the follow-up and a refusal's answer both come after it
        if refused is not None:
            log.warning("Discord refused the deferral of interaction %s (%s); it was played", interaction.id, refused)
            return
        await self._after(interaction, caller, played, fresh)

    async def _after(self, interaction: discord.Interaction, caller: Caller, played: Played, fresh: bool) -> None:
        """What was done, then what follows: the caller's next decision (with its buttons) or whose it is."""
        done = moves.done_text(played)
        game_id, seat = played.turn.game.id, played.turn.seat
        if fresh and played.advance is not None:  # the step is the game as it is: no read needed
            game, state = played.advance.game, played.advance.state
        else:
            turn = await self.host.play.turn(moves.by_id(caller), KIND, str(game_id))
            if turn is None:
                await answer(interaction, f"{done}\nThe game is over: the scores are posted in the channel.")
                return
            game, state = turn.game, turn.state
        pending = game.pending
        if pending is None:
            await answer(interaction, f"{done}\nThe game is over: the scores are posted in the channel.")
            return
        if seat in pending.awaited and pending.decision != "turn":
            screen = await screen_for(self.host, caller.user_id, game, played.turn.roster, seat, state, done)
            await answer(interaction, screen.text, view=view_of(screen))
            return
        public = public_view(state)
        if seat in pending.awaited:
            left = public["turn"]["hours"] if public.get("turn") else 0
            tail = f"Your turn goes on: {hours(left)} left this turn (/crimopolis panel for menus)."
        else:
            clock = await self.host.reports.clock_of(game)
            tail = texts.turn_line(public, Names(played.turn.roster.name_of, public), clock.deadline_at, game.paused)
        await answer(interaction, f"{done}\n{tail}")

    # ---- lobby -------------------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Crimopolis lobby in this channel (you become its host).")
    @app_commands.describe(
        variant="standard, lucky speed (13 prestige, 6 gangsters) or deeper strategy (42, 9)",
        turn_hours="Real hours for each turn and each setup placement",
        reaction_minutes="Real minutes for a reaction window",
        reminder_hours="DM the decider this many hours before a deadline (0: never)",
        influence_on_the_streets="+2 at the end for the most gangsters on streets (R116)",
        big_business="End bonus for 2, 3, 4+ blocks of one location (R117)",
        team_mode="Two members per seat (R118)",
        timeout_time="What a timed-out turn passes on",
        first_player="Who starts (default: drawn at start)",
        target_prestige="Prestige that rings the bell (default by variant)",
        gangsters="Gangsters per gang (default by variant)",
        clock_tiles_first="The 15 clock tiles on top of the stack (default: lucky speed only)",
    )
    @app_commands.choices(variant=VARIANTS, timeout_time=TIMEOUTS)
    async def new(
        self,
        interaction: discord.Interaction,
        variant: str = "standard",
        turn_hours: app_commands.Range[float, 0.001, TURN_HOURS_MAX] = 24.0,
        reaction_minutes: app_commands.Range[int, 1, 1440] = 15,
        reminder_hours: app_commands.Range[float, 0.0, 1440.0] = 1.0,
        influence_on_the_streets: bool = False,
        big_business: bool = False,
        team_mode: bool = False,
        timeout_time: str = "forfeit",
        first_player: discord.User | None = None,
        target_prestige: app_commands.Range[int, 5, 60] | None = None,
        gangsters: app_commands.Range[int, 5, 9] | None = None,
        clock_tiles_first: bool | None = None,
    ) -> None:
        await defer_public(interaction)  # commands.md: a command that writes the database defers first
        if not 0.001 <= turn_hours <= TURN_HOURS_MAX:  # the option's range, which a made-up request may skip
            raise UserError(f"turn_hours must be between 0.001 and {TURN_HOURS_MAX:g}, not {turn_hours:g}.")
        settings = {
            "variant": variant,
            "turn_hours": turn_hours,
            "reaction_minutes": reaction_minutes,
            "influence_on_the_streets": influence_on_the_streets,
            "big_business": big_business,
            "timeout_time": timeout_time,
            "first_player": None if first_player is None else str(first_player.id),
            "target_prestige": target_prestige,
            "gangsters": gangsters,
            "clock_tiles_first": clock_tiles_first,
        }
        # commands.md: reminder_hours before a turn or setup deadline, and halfway through a reaction window
        # (the clock inside the turn's, whatever its length). Team mode (R118) is the host's shared seats: the
        # rules never see it (a seat is one gang).
        options = HostOptions(deadline_hours=turn_hours, reminder_hours=reminder_hours, reminder_short_share=0.5,
                              reminder_shortest=0.0, reminder_nested_share=0.5, shared_seats=team_mode)
        game = await self.host.lobby.open(caller_of(interaction), KIND, settings, options)
        roster = await self.host.finder.roster(game.id)
        await answer(interaction, lobby_text(game, roster), ephemeral=False)
        try:
            message = await interaction.original_response()
            await self.host.lobby.set_lobby_post(game.id, message.id)
        except discord.HTTPException:  # the lobby works without its living message
            log.warning("game %s: the lobby message cannot be edited", game.id)

    async def _refresh_lobby(self, game: GameRow) -> None:
        if game.lobby_message_id is not None:
            await self.host.lobby.set_lobby_post(game.id, game.lobby_message_id)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby.")
    @app_commands.rename(with_="with")
    @app_commands.describe(with_="Team mode: share this player's seat")
    async def join(self, interaction: discord.Interaction, with_: discord.User | None = None) -> None:
        await defer_public(interaction)
        partner = None if with_ is None else Member.from_user(with_)
        caller = caller_of(interaction)
        game, roster = await self.host.lobby.join(caller, KIND, partner=partner)
        await self._refresh_lobby(game)
        seat = roster.seat_of(caller.user_id)
        who = interaction.user.display_name
        joined = f"{who} joined"
        if partner is not None and seat is not None:
            joined = f"{who} joined the seat of {roster.name_of(seat)}"
        tail = " The host can /crimopolis start." if len(roster) >= 2 else " One more player is needed."
        await answer(interaction, f"{joined}. {seats_text(roster)}{tail}", ephemeral=False)

    @app_commands.command(name="leave", description="Leave the lobby (before the start).")
    @app_commands.describe(game=GAME_HELP)
    async def leave(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer_public(interaction)
        _game, roster = await self.host.lobby.leave(caller_of(interaction), KIND, game)
        await answer(interaction, f"{interaction.user.display_name} left. {seats_text(roster)}", ephemeral=False)

    leave.autocomplete("game")(_games)

    @app_commands.command(name="start", description="Close the lobby and set the city up (host or admin).")
    @app_commands.describe(game=GAME_HELP)
    async def start(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await start_game(self.host, caller_of(interaction), game)
        await answer(interaction, "The game has started: the seats and the first placement are posted in the channel.")

    start.autocomplete("game")(_games)

    # ---- the turn ----------------------------------------------------------------------------------------

    @app_commands.command(name="act", description="Any action of your open decision, in the notation.")
    @app_commands.describe(action="e.g. move 0,0 h:0,1 2 · job J03 at 0,1 from h:0,1=3 · end", game=GAME_HELP)
    async def act(self, interaction: discord.Interaction, action: str, game: str | None = None) -> None:
        await self._play(interaction, moves.from_text(action), game)

    @act.autocomplete("action")
    async def _act_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        try:
            found = await self._legal(interaction)
            if found is None:
                return []
            turn = found[0]
            every = CHOICES.get(turn.game.id, turn.game.version, turn.seat, turn.state, turn.roster)
            listed = pick(every, current, MAX)
            return [Choice(name=c.name, value=c.value) for c in listed]
        except Exception:
            log.debug("action autocomplete gave nothing", exc_info=True)
            return []

    @app_commands.command(name="move", description="Move 1-3 of your gangsters from one location to another.")
    @app_commands.rename(from_="from")
    @app_commands.describe(
        from_="Where from (a block or street)", to="Where to", count="How many (1-3)", game=GAME_HELP
    )
    async def move(
        self,
        interaction: discord.Interaction,
        from_: str,
        to: str,
        count: app_commands.Range[int, 1, 3],
        game: str | None = None,
    ) -> None:
        text = f"move {from_.strip()} {to.strip()} {count}"
        await self._play(interaction, moves.from_text(text), game)

    @move.autocomplete("from_")
    async def _move_from_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        # commands.md: choices from the state and the options already filled in, whichever came first
        filled = self._filled(interaction, "to", "count")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            return (
                (n.place(a["from"], me=turn.seat), a["from"])
                for a in narrowed(actions, "move", filled, n, turn.roster.name_of)
            )

        return await self._complete(interaction, current, make)

    @move.autocomplete("to")
    async def _move_to_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        filled = self._filled(interaction, "from", "count")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            return (
                (n.place(a["to"], me=turn.seat), a["to"])
                for a in narrowed(actions, "move", filled, n, turn.roster.name_of)
            )

        return await self._complete(interaction, current, make)

    @move.autocomplete("count")
    async def _move_count_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        filled = self._filled(interaction, "from", "to")
        try:
            found = await self._legal(interaction)
            if found is None:
                return []
            turn, actions, n = found
            counts = sorted({a["count"] for a in narrowed(actions, "move", filled, n, turn.roster.name_of)})
            return [Choice(name=str(k), value=k) for k in counts if not current or str(k).startswith(str(current))]
        except Exception:
            log.debug("count autocomplete gave nothing", exc_info=True)
            return []

    @app_commands.command(name="recruit", description="Recruit a gangster from your supply (2 hours).")
    @app_commands.describe(to="Your Headquarters (default) or your Safe House", game=GAME_HELP)
    @app_commands.choices(to=RECRUIT_TO)
    async def recruit(self, interaction: discord.Interaction, to: str = "hq", game: str | None = None) -> None:
        await self._play(interaction, moves.fixed({"kind": "recruit", "to": to}), game)

    async def _enter(
        self, interaction: discord.Interaction, kind: str, block: str, from_: str, game: str | None
    ) -> None:
        def build(turn: Turn) -> dict[str, Any]:
            return {"kind": kind, "block": block.strip(), "from": parse_sources(from_)}

        await self._play(interaction, build, game)

    async def _blocks(self, interaction: discord.Interaction, current: str, kind: str) -> list[Choice[str]]:
        filled = self._filled(interaction, "card", "from", "fortunes")  # a job's; occupy and takeover have `from`

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            return ((n.block(a["block"]), a["block"]) for a in narrowed(actions, kind, filled, n, turn.roster.name_of))

        return await self._complete(interaction, current, make)

    async def _sources(self, interaction: discord.Interaction, current: str, kind: str) -> list[Choice[str]]:
        filled = self._filled(interaction, "block", "card", "fortunes")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            for a in narrowed(actions, kind, filled, n, turn.roster.name_of):
                text = sources_text(a["from"])
                yield (f"{text} → {n.block(a['block'])}", text)

        return await self._complete(interaction, current, make)

    @app_commands.command(name="occupy", description="Occupy an empty city block from its streets (3 hours).")
    @app_commands.rename(from_="from")
    @app_commands.describe(
        block="The block (any of its cells)", from_="Gangsters from streets: h:0,1=2 v:1,1=1", game=GAME_HELP
    )
    async def occupy(self, interaction: discord.Interaction, block: str, from_: str, game: str | None = None) -> None:
        await self._enter(interaction, "occupy", block, from_, game)

    @app_commands.command(name="takeover", description="Take over another gang's city block (3 hours, +1 prestige).")
    @app_commands.rename(from_="from")
    @app_commands.describe(
        block="The block (any of its cells)", from_="Gangsters from streets: h:0,1=2 v:1,1=1", game=GAME_HELP
    )
    async def takeover(self, interaction: discord.Interaction, block: str, from_: str, game: str | None = None) -> None:
        await self._enter(interaction, "takeover", block, from_, game)

    @occupy.autocomplete("block")
    async def _occupy_block_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._blocks(interaction, current, "occupy")

    @occupy.autocomplete("from_")
    async def _occupy_from_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._sources(interaction, current, "occupy")

    @takeover.autocomplete("block")
    async def _takeover_block_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._blocks(interaction, current, "takeover")

    @takeover.autocomplete("from_")
    async def _takeover_from_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._sources(interaction, current, "takeover")

    @app_commands.command(name="job", description="Do one of your jobs at a matching block.")
    @app_commands.rename(from_="from")
    @app_commands.describe(
        card="Your job card",
        block="A block of the job's location",
        from_="Gangsters from streets: h:0,1=2 v:1,1=1",
        fortunes="Job fortunes played with it, e.g. F14 F20",
        game=GAME_HELP,
    )
    async def job(
        self,
        interaction: discord.Interaction,
        card: str,
        block: str,
        from_: str,
        fortunes: str | None = None,
        game: str | None = None,
    ) -> None:
        def build(turn: Turn) -> dict[str, Any]:
            return {
                "kind": "job",
                "card": card.strip().upper(),
                "block": block.strip(),
                "from": parse_sources(from_),
                "fortunes": sorted(parse_fortunes(fortunes)),
            }

        await self._play(interaction, build, game)

    @job.autocomplete("card")
    async def _job_card_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        from . import names as nm

        filled = self._filled(interaction, "block", "from", "fortunes")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            found = narrowed(actions, "job", filled, n, turn.roster.name_of)
            return ((nm.job_detail(a["card"]), a["card"]) for a in found)

        return await self._complete(interaction, current, make)

    @job.autocomplete("block")
    async def _job_block_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._blocks(interaction, current, "job")

    @job.autocomplete("from_")
    async def _job_from_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self._sources(interaction, current, "job")

    @job.autocomplete("fortunes")
    async def _job_fortunes_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        from . import names as nm

        filled = self._filled(interaction, "card", "block", "from")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            yield ("no fortune", "none")
            for a in narrowed(actions, "job", filled, n, turn.roster.name_of):
                if not a["fortunes"]:
                    continue
                yield (", ".join(nm.card(f) for f in a["fortunes"]), " ".join(a["fortunes"]))

        return await self._complete(interaction, current, make)

    @app_commands.command(name="abort", description="Abort a job: draw two, keep one (3 hours).")
    @app_commands.describe(card="The job to abort", game=GAME_HELP)
    async def abort(self, interaction: discord.Interaction, card: str, game: str | None = None) -> None:
        await self._play(interaction, moves.fixed({"kind": "abort", "card": card.strip().upper()}), game)

    @abort.autocomplete("card")
    async def _abort_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        from . import names as nm

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            return ((nm.job_detail(a["card"]), a["card"]) for a in actions if a["kind"] == "abort")

        return await self._complete(interaction, current, make)

    @app_commands.command(name="invest", description="Invest in a fortune: draw one (2 hours).")
    @app_commands.describe(game=GAME_HELP)
    async def invest(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._play(interaction, moves.fixed({"kind": "invest"}), game)

    @app_commands.command(name="fortune", description="Play one of your turn fortunes.")
    @app_commands.describe(
        card="Your fortune", target="hq/safe_house, a block, a street section or a player", game=GAME_HELP
    )
    async def fortune(
        self, interaction: discord.Interaction, card: str, target: str | None = None, game: str | None = None
    ) -> None:
        text = f"fortune {card.strip()} {target.strip()}" if target else f"fortune {card.strip()}"
        await self._play(interaction, moves.from_text(text), game)

    @fortune.autocomplete("card")
    async def _fortune_card_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        from . import names as nm

        filled = self._filled(interaction, "target")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            found = narrowed(actions, "fortune", filled, n, turn.roster.name_of)
            return ((nm.fortune_detail(a["card"]), a["card"]) for a in found)

        return await self._complete(interaction, current, make)

    @fortune.autocomplete("target")
    async def _fortune_target_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        filled = self._filled(interaction, "card")

        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            for a in narrowed(actions, "fortune", filled, n, turn.roster.name_of):
                if "to" in a:
                    yield ({"hq": "your Headquarters", "safe_house": "your Safe House"}[a["to"]], a["to"])
                elif "block" in a:
                    yield (n.block(a["block"]), a["block"])
                elif "street" in a:
                    yield (a["street"], a["street"])
                elif "target" in a:
                    yield (n.who(a["target"]), turn.roster.name_of(a["target"]))

        return await self._complete(interaction, current, make)

    @app_commands.command(name="redraw", description="Show your two jobs of one location and draw two new ones.")
    @app_commands.describe(game=GAME_HELP)
    async def redraw(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._play(interaction, moves.fixed({"kind": "redraw"}), game)

    @app_commands.command(name="end", description="End your turn (the hours left pass on).")
    @app_commands.describe(game=GAME_HELP)
    async def end(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._play(interaction, moves.fixed({"kind": "end"}), game)

    @app_commands.command(
        name="decide", description="Answer your open decision (setup, explore, keep, target, react, destiny)."
    )
    @app_commands.describe(choice="Your answer (the list offers the legal ones)", game=GAME_HELP)
    async def decide(self, interaction: discord.Interaction, choice: str, game: str | None = None) -> None:
        build = moves.from_text(choice)

        def checked(turn: Turn) -> dict[str, Any]:
            if turn.game.pending is not None and turn.game.pending.decision == "turn":
                raise UserError(
                    "You cannot use /crimopolis decide now: your open decision is your turn. Use the turn commands "
                    "or /crimopolis act."
                )
            return build(turn)

        await self._play(interaction, checked, game)

    @decide.autocomplete("choice")
    async def _decide_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        def make(turn: Turn, actions: list[dict[str, Any]], n: Names) -> Iterable[tuple[str, str]]:
            if turn.game.pending is None or turn.game.pending.decision == "turn":
                return []
            return ((c.name, c.value) for c in choices(actions, turn.state, turn.seat, n, turn.roster.name_of))

        return await self._complete(interaction, current, make)

    @app_commands.command(name="panel", description="Menus of your legal actions (for phones); works across restarts.")
    @app_commands.describe(game=GAME_HELP)
    async def panel(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        screen = await open_screen(self.host, caller_of(interaction), game)
        await answer(interaction, screen.text, view=view_of(screen))

    @app_commands.command(name="prefs", description="Your standing answer to reaction windows: ask, never or auto.")
    @app_commands.describe(reactions="ask (default), never (No reaction at once) or auto", game=GAME_HELP)
    @app_commands.choices(reactions=PREFS)
    async def prefs(self, interaction: discord.Interaction, reactions: str, game: str | None = None) -> None:
        from .presentation import auto_answer

        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        seated = await self.host.finder.seated(caller, KIND, game)
        if seated.seat is None:
            raise UserError("You hold no seat in this game.")
        prefs = self.presentation.prefs
        team = seated.game.options.shared_seats  # each member's own; the seat answers the stricter (R118)
        await prefs.set(self.host.db, seated.game.id, seated.seat, reactions, caller.user_id if team else None)
        text = f"Reaction windows: {PREF_WORDS[reactions]}."
        members = seated.roster.members_of(seated.seat)
        merged = prefs.get(seated.game.id, seated.seat, members)
        if len(members) > 1:
            text += f" Your seat answers the stricter of its two members': {merged}."
        turn = await self.host.play.turn(caller, KIND, game)
        if turn is not None and turn.game.pending is not None and turn.game.pending.decision == "react":
            move = auto_answer(turn.state, turn.seat, merged)
            if move is not None and turn.seat in turn.game.pending.awaited:
                await moves.play(self.host, caller, moves.fixed(move), game)
                text += " Your open reaction window is answered."
        await answer(interaction, text)

    # ---- what people read ----------------------------------------------------------------------------------

    @app_commands.command(name="status", description="Your seat, hands, destinies, hours and open decision.")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await answer(interaction, await status_text(self.host, caller_of(interaction), game))

    @app_commands.command(name="board", description="The public board: picture and text.")
    @app_commands.describe(public="Post it in the channel for everyone (it holds no secret)", game=GAME_HELP)
    async def board(self, interaction: discord.Interaction, public: bool = False, game: str | None = None) -> None:
        private = not (public and interaction.guild_id)
        if private:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await defer_public(interaction)  # a refusal still goes to the caller alone
        parts, view, alt = await board(self.host, caller_of(interaction), game)
        file = None
        if view is not None:
            png = await self.host.draw("crimopolis", view)
            if png:
                file = discord.File(io.BytesIO(png), filename="board.png", description=alt or None)
        await answer(interaction, parts[0], ephemeral=private, file=file)
        for text in parts[1:]:
            await answer(interaction, text, ephemeral=private)

    @app_commands.command(name="rules", description="The rules of Crimopolis in short pages.")
    @app_commands.describe(topic="A topic (leave empty for the list)")
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        page = rules_pages.page(topic)
        await interaction.response.send_message(embed=discord.Embed.from_dict(page.embed_dict()), ephemeral=True)

    @rules.autocomplete("topic")
    async def _rules_ac(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return [Choice(name=n, value=v) for n, v in rules_pages.topic_choices(current)]

    @app_commands.command(name="help", description="What the Crimopolis commands do.")
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, HELP)

    @app_commands.command(
        name="history", description="This server's finished games: players, variant, scores, winners."
    )
    @app_commands.describe(page="Page (1 is the newest)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, None] = 1) -> None:
        embed = await history_embed(self.host, caller_of(interaction), page)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ---- hosting -------------------------------------------------------------------------------------------

    @admin.command(name="resolve", description="Time the open decision out now (its default; a turn ends).")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resolve(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        advance = await self.host.hosting.resolve(caller_of(interaction), KIND, game)
        await self.presentation.settle(advance.game.id)
        await answer(interaction, "The open decision timed out: its default applies; the log is posted in the channel.")

    @admin.command(name="deadline", description="Move the open decision's deadline to this many hours from now.")
    @app_commands.describe(hours="Hours from now (fractions allowed)", game=GAME_HELP)
    async def admin_deadline(self, interaction: discord.Interaction, hours: float, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        clock = await self.host.hosting.deadline(caller_of(interaction), KIND, hours * 3600, game)
        if clock.deadline_at is None:
            text = f"The clock is paused; {hours:g} h will remain when it resumes."
        else:
            text = f"New deadline: {timestamp(clock.deadline_at)}."
        await answer(interaction, text)

    @admin.command(name="reminder", description="DM the decider this many hours before each deadline (0: never).")
    @app_commands.describe(hours="Hours before the deadline (0 turns reminders off)", game=GAME_HELP)
    async def admin_reminder(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.0, 1440.0], game: str | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.host.hosting.reminder(caller_of(interaction), KIND, hours, game)
        text = (
            "Reminders are off for this game."
            if hours == 0
            else f"The decider gets a DM {hours:g} h before each deadline."
        )
        await answer(interaction, text)

    @admin.command(name="pause", description="Stop every deadline clock.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_pause(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.host.hosting.pause(caller_of(interaction), KIND, True, game)
        await answer(interaction, "The clocks are paused: nothing times out until /crimopolis admin resume.")

    @admin.command(name="resume", description="Restart the deadline clocks.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resume(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        clock = await self.host.hosting.pause(caller_of(interaction), KIND, False, game)
        await answer(interaction, f"The clocks run again: deadline {timestamp(clock.deadline_at)}.")

    @admin.command(name="end", description="End the game now: final scoring of the current city.")
    @app_commands.describe(reveal="Also show every hand", game=GAME_HELP)
    async def admin_end(self, interaction: discord.Interaction, reveal: bool = True, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        ended = await self.host.hosting.end(caller_of(interaction), KIND, reveal=reveal, game_opt=game)
        await answer(interaction, "The game is ended; the scores are posted in the channel."
                     if ended.started_at is not None else "The lobby is closed: no game was played.")

    @admin.command(name="replace", description="Hand a seat to another member (they get its hands by DM).")
    @app_commands.describe(old="The member leaving the seat", new="The member taking it", game=GAME_HELP)
    async def admin_replace(
        self, interaction: discord.Interaction, old: discord.User, new: discord.User, game: str | None = None
    ) -> None:
        before, after = Member.from_user(old), Member.to_seat(new, in_guild=interaction.guild is not None)
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        found = await self.host.finder.game(caller, KIND, game)
        seat = (await self.host.finder.roster(found.id)).seat_of(before.user_id)
        prefs, db = self.presentation.prefs, self.host.db
        team = found.options.shared_seats and seat is not None
        saved = prefs.snapshot(found.id)
        if team:  # a team member's own preference goes with their place (and into the newcomer's brief)
            await prefs.hand_on(db, found.id, str(seat), before.user_id, after.user_id)
        try:
            _game, roster, seat = await self.host.hosting.replace(
                caller, KIND, before, after, self.presentation.brief, game
            )
        except Exception:
            if team:  # refused (not the host, the newcomer already seated, ...): every preference as it was
                await prefs.restore(db, found.id, saved)
            raise
        shared = len(roster.members_of(seat)) > 1
        what = f"{before.display_name}'s place in the seat of {roster.name_of(seat)}" if shared else (
            f"{before.display_name}'s seat"
        )
        await answer(interaction, f"{after.display_name} now holds {what}; they were sent its hands by DM.")

    @admin.command(
        name="export", description="The game's full record as a replay file (host only: it holds every secret)."
    )
    @app_commands.describe(game=GAME_HELP)
    async def admin_export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        # commands.md: host only; a host who also plays "should not export during the game", so they get the file
        # with that warning (as in Organized Crime), not a refusal. Another seated admin is still refused.
        name, data, plays = await self.host.hosting.export_to_host(caller, KIND, game, seated=True)
        text = "The game's record (replay.md format). It holds every secret: deck orders and hands."
        if PACK.game is not PACK.house:
            text += (f" It was played on the pack `{PACK.game.content_id}`: replay it with "
                     "`python -m rules replay FILE --content DIR` on that pack's files.")
        if plays:
            text += (" **You are also a player**: it shows every hand and the order of every deck, so you should "
                     "not open it (or export) before the game is over.")
        await answer(interaction, text, file=discord.File(io.BytesIO(data), filename=name))

    for _command in (
        act, move, recruit, occupy, takeover, job, abort, invest, fortune, redraw, end, decide, panel, prefs,
        status, board, admin_resolve, admin_deadline, admin_reminder, admin_pause, admin_resume, admin_end,
        admin_replace, admin_export,
    ):  # fmt: skip
        _command.autocomplete("game")(_games)
    del _command
