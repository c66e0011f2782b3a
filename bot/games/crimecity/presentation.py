"""Crime City as people read it: what each step's events become, reminders, the seat brief.

Public texts are built from public views and public events only; a DM goes to one seat and says only
what that seat's events say. Decided here: wording and layout; decided in `rules`: everything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.crimecity.game import DRAFT, EC, GAME, ROUND
from rules.crimecity.ids import ROLE_GOALS, Role

from ...host import (
    DM,
    HISTORY,
    STATUS,
    SUBMIT,
    Caller,
    GameRow,
    Member,
    Message,
    Post,
    Reminder,
    Reply,
    Roster,
    StepView,
)
from . import texts

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from ...host import Host, ModalHandler

TITLE = "**Crime City**"
KIND = "crimecity"
PRIVATE_KINDS = ("investigation", "identification", "goal_complete")


class CrimeCityPresentation:
    game = GAME

    def cog(self, host: Host) -> commands.Cog:
        from .cog import CrimeCityCog

        return CrimeCityCog(host, self)

    def picture(self, view: dict[str, Any]) -> bytes | None:
        from .picture import render_board

        return render_board(view)

    async def adopt_legacy(self, conn: Any) -> None:
        """Migration 3: this game's rows of schema versions 1-2 in the generic tables."""
        from .legacy import adopt

        await adopt(conn)

    def dynamic_items(self) -> Sequence[type[discord.ui.DynamicItem[Any]]]:
        from .forms import FormControl
        from .guess import GuessControl
        from .panel import PanelControl

        return (PanelControl, FormControl, GuessControl)

    def modals(self) -> Mapping[str, ModalHandler]:
        from .forms import BID_PREFIX, submit_bid

        return {BID_PREFIX: submit_bid}

    def decision_title(self, pending: Any) -> str:
        if pending.decision == DRAFT:
            return "the draft"
        if pending.decision == ROUND:
            return f"Round {round_of(pending)}"
        return "the EC decision"

    # ---- steps -----------------------------------------------------------------------------------------

    def step_messages(self, view: StepView) -> list[Message]:
        kinds = {e.kind for e in view.events}
        out: list[Message] = []
        if "draft_resolved" in kinds:
            out += self._draft_resolved(view)
        if "imported" in kinds:
            out += self._imported(view)
        if "board" in kinds:
            out += self._round_resolved(view)
        if "results" in kinds:
            out += self._results(view)
        if "game_over" in kinds:
            out += self._game_over(view)
        return out

    def _draft_resolved(self, view: StepView) -> list[Message]:
        game, roster = view.game, view.roster
        public = next(e.data["view"] for e in view.events if e.kind == "draft_resolved")
        content = texts.board_text(
            public,
            heading=f"**Crime City — Round {public['round']}**: the draft is resolved; starting positions",
            submitted=[],
            footer=open_footer(game, view.deadline_at),
        )
        out: list[Message] = [Post(content, picture=public, alt=texts.board_alt(public), buttons=(STATUS, SUBMIT))]
        refused = {e.audience[0]: e.data for e in view.events if e.kind == "draft_refused" and not e.is_public}
        for event in view.events:
            if event.kind != "seat" or event.is_public:
                continue
            seat, s = event.audience[0], event.data
            lines = [f"**Crime City** (<#{game.channel_id}>): the draft is resolved."]
            if seat in refused:
                lines.append(
                    f"Your draft submission was refused when the draft resolved: {refused[seat]['message']} "
                    "You drafted as if you had submitted nothing (rulings Q30)."
                )
            lines.append(texts.seat_text(s["character"], s["role"], s["goal"], s["garnets"]))
            lines[-1] += (
                f"\nRound {public['round']} is open: submit with /crimecity act (here or in the game's channel)."
            )
            out.append(DM(seat, "\n".join(lines), buttons=(STATUS, SUBMIT)))
        del roster
        return out

    def _imported(self, view: StepView) -> list[Message]:
        """A game brought in from a file: the board as the file left it, each seat's secrets by DM."""
        game, roster = view.game, view.roster
        data = next(e.data for e in view.events if e.kind == "imported")
        public, played = data["view"], data["rounds_played"]
        heading = (
            f"**Crime City — Round {public['round']}**: this game continues here from a file "
            f"({played} round{'s' if played != 1 else ''} played before)"
        )
        content = texts.board_text(public, heading=heading, submitted=[], footer=open_footer(game, view.deadline_at))
        out: list[Message] = [Post(content, picture=public, alt=texts.board_alt(public), buttons=(STATUS, SUBMIT))]
        for event in view.events:
            if event.kind != "seat" or event.is_public:
                continue
            seat, s = event.audience[0], event.data
            lines = [
                f"**Crime City** (<#{game.channel_id}>): your game continues on the bot from round {public['round']}."
            ]
            lines.append(texts.seat_text(s["character"], s["role"], s["goal"], s["garnets"]))
            if s.get("completed"):
                lines.append(f"Your goal is complete (round {s['completed']}).")
            lines.extend(learned_lines([event], roster))
            lines.append(
                f"Round {public['round']} is open: submit with /crimecity act (here or in the game's channel)."
            )
            out.append(DM(seat, "\n".join(lines), buttons=(STATUS, SUBMIT)))
        return out

    def _round_resolved(self, view: StepView) -> list[Message]:
        game, roster = view.game, view.roster
        board = next(e for e in view.events if e.kind == "board")
        rnd, public = board.data["round"], board.data["view"]
        final = view.pending is None or view.pending.decision != ROUND
        if final:
            content = texts.board_text(
                public, heading=f"**Crime City — Round {rnd}**: the board after the round (final)"
            )
            buttons: tuple[str, ...] = ()
        else:
            content = texts.board_text(
                public,
                heading=f"**Crime City — Round {rnd}**: the board after the round",
                submitted=[],
                footer=open_footer(game, view.deadline_at),
            )
            buttons = (STATUS, SUBMIT)
        out: list[Message] = [Post(content, picture=public, alt=texts.board_alt(public), buttons=buttons)]
        # Exactly one DM per seat per round, in seat order, even with nothing to tell: how many DMs a
        # player gets (and the channel's "read your inbox" notes when DMs are closed) must not depend
        # on roles or results.
        lines: dict[str, list[str]] = {seat: [] for seat in roster.seats}
        refusals: dict[str, list[str]] = {seat: [] for seat in roster.seats}
        for event in view.events:
            if event.is_public:
                continue
            if event.kind in PRIVATE_KINDS:
                for seat in event.audience:
                    lines.setdefault(seat, []).append(texts.private_result_text(dict(event.data), roster.name_of))
            elif event.kind == "rejected":
                for seat in event.audience:
                    refusals.setdefault(seat, []).append(
                        f"Your submission for round {rnd} was refused at resolution: {event.data['message']} "
                        "You resolved as if you had submitted nothing (rule R44)."
                    )
        for seat in roster.seats:
            said = lines.get(seat, []) + refusals.get(seat, [])
            text = "\n".join(said) or "Nothing new for you this round."
            out.append(DM(seat, f"**Crime City — Round {rnd}**\n{text}", buttons=() if final else (STATUS, SUBMIT)))
        return out

    def _results(self, view: StepView) -> list[Message]:
        game, roster = view.game, view.roster
        event = next(e for e in view.events if e.kind == "results")
        results = event.data["results"]
        content = texts.results_text(results, roster.name_of, ec_seat=results.get("ec"), early=event.data["early"])
        out: list[Message] = [Post(content, buttons=(HISTORY,))]
        for ev in view.events:
            if ev.kind != "ec_decide" or ev.is_public:
                continue
            candidates = ", ".join(roster.name_of(s) for s in ev.data["candidates"])
            how = "All deciders must agree. " if ev.data["unanimous"] else ""
            for seat in ev.audience:
                out.append(
                    DM(
                        seat,
                        f"**Crime City** (<#{game.channel_id}>): the game is over and you decide the EC among "
                        f"{candidates}. {how}Choose with the Submit button or /crimecity ec player:<member>.",
                        buttons=(SUBMIT,),
                    )
                )
        del game
        return out

    def _game_over(self, view: StepView) -> list[Message]:
        game, roster = view.game, view.roster
        data = next(e.data for e in view.events if e.kind == "game_over")
        lines = []
        if view.before is not None and view.before.decision == EC:
            ec = data.get("ec")
            lines.append(f"**Crime City**: the EC is {roster.name_of(ec)}." if ec else "**Crime City** has ended.")
        if game.options.reveal and data.get("seats"):
            lines.append(texts.reveal_text(data["seats"], roster.seats, roster.name_of, data.get("unassigned") or []))
        if view.before is not None and view.before.decision == DRAFT:
            lines.append("**Crime City**: the host ended the game before the first round.")
        return [Post("\n".join(lines))] if lines else []

    # ---- seasons -----------------------------------------------------------------------------------------

    def season_settings(
        self, balances: dict[str, int], placements: list[str], settings: dict[str, Any]
    ) -> dict[str, Any]:
        """A season's match starts from each player's season balance and the previous match's placement
        (the draft's tie-break), unless the host set them for this game."""
        out: dict[str, Any] = {"balances": {**balances, **(settings.get("balances") or {})}}
        if not settings.get("placements"):
            out["placements"] = placements
        return out

    def season_outcome(self, view: StepView) -> Any:
        """What a finished match brings to its season: its placement, ToLs, the EC, and its changes to
        each balance (R95: start − bid − 3 × purchases + award; a host's changes too), so that a season
        balance after the match is its final balance."""
        from ...host import SeasonOutcome
        from .seasons import ledger_changes, placement_of

        results = view.results
        if not results or not results.get("draft_resolved", True):
            return None  # ended before its draft resolved: no match was played
        order = placement_of(results, view.roster.seats)
        marks: dict[str, dict[str, int]] = {s: {"tol": 1} for s in results.get("tol") or []}
        if results.get("ec"):
            marks.setdefault(results["ec"], {})["ec"] = 1
        summary = {
            "game": view.game.id,
            "ended_after_round": results.get("ended_after_round"),
            "completion_order": [[view.roster.user_of(s) for s in g] for g in results.get("completion_order") or []],
            "tol": [view.roster.user_of(s) for s in results.get("tol") or []],
            "ec": view.roster.user_of(results["ec"]) if results.get("ec") else None,
        }
        detail = view.game.options.reveal
        changes = ledger_changes(view.game.settings, view.state, results, view.roster.seats, detail=detail)
        return SeasonOutcome(order, changes, marks, summary)

    # ---- the lobby and the host's buttons ---------------------------------------------------------------

    def lobby_text(self, game: GameRow, roster: Roster) -> str:
        """The living lobby message: who is in, the settings, and what comes next."""
        settings, options = game.settings, game.options
        remind = (
            f"reminders {options.reminder_hours:g} h before each deadline" if options.reminder_hours else "no reminders"
        )
        names = [roster.name_of(s) for s in roster.seats]
        if game.season_id is not None and options.season_start:
            purse = "each player starts with their season balance"
        else:
            purse = f"{settings.get('garnets', 0)} starting garnets"
        lines = [
            f"**Crime City** — a new game (#{game.id}) is open in this channel, hosted by <@{game.host_id}>.",
            f"{settings.get('rounds', 6)} rounds at most, {options.deadline_hours:g} h per phase, {purse}"
            + (", waiting for every deadline" if options.wait_for_deadline else "")
            + f", {remind}.",
            f"Players ({len(names)}/5): " + (", ".join(names) if names else "nobody yet"),
        ]
        if game.season_id is not None:
            lines.append("A match of this server's season: only its roster may join.")
        if game.status == "lobby":
            lines.append("Join with the button or /crimecity join (5 players exactly); the host starts with Start.")
        elif game.status == "running":
            lines.append("The game has started: the lobby is closed.")
        else:
            lines.append("The host ended this game before it started.")
        return "\n".join(lines)

    async def draft_open(self, host: Host, game: GameRow, roster: Roster) -> tuple[str, list[int]]:
        """The announcement that the draft is open, and whom it pings (the five players)."""
        clock = await host.reports.clock_of(game)
        state = "the clock is paused" if clock.deadline_at is None else f"deadline {texts.timestamp(clock.deadline_at)}"
        mentions = [p.user_id for p in roster.players if p.user_id is not None]
        text = (
            f"**Crime City** — the draft is open ({state}). "
            + " ".join(f"<@{uid}>" for uid in mentions)
            + "\nSubmit privately with the Submit button or /crimecity draft bid:<garnets> characters:<ranking> "
            "roles:<ranking> (here or in a DM with me). Use /crimecity rules topic:draft for how the draft works."
        )
        return text, mentions

    async def start_reply(self, host: Host, caller: Caller, game_id: int) -> Reply:
        advance, roster = await host.lobby.start(caller, KIND, str(game_id), game_id=game_id)
        text, mentions = await self.draft_open(host, advance.game, roster)
        await host.hosting.post(advance.game, [Post(text, mention=tuple(mentions), buttons=(SUBMIT, STATUS))])
        return Reply("The draft is open.")

    async def status_reply(self, host: Host, caller: Caller, game_id: int) -> Reply:
        from .reports import status_text

        return Reply(await status_text(host, caller, str(game_id)))

    async def submit_reply(self, host: Host, caller: Caller, game_id: int) -> Reply:
        from .forms import submit_form

        return await submit_form(host, caller, game_id)

    async def history_reply(self, host: Host, caller: Caller) -> Reply:
        from .reports import history_embed_for

        return Reply("", embed=await history_embed_for(host, caller, 1))

    # ---- outside steps -----------------------------------------------------------------------------------

    def reminder(self, reminder: Reminder) -> list[Message]:
        game = reminder.game
        if reminder.pending.decision == DRAFT:
            what = "the draft (/crimecity draft)"
        else:
            what = f"round {round_of(reminder.pending)} (/crimecity panel or /crimecity act)"
        return [
            DM(
                seat,
                f"**Crime City** (<#{game.channel_id}>): reminder, you have not submitted for {what} yet. "
                f"Deadline: {texts.timestamp(reminder.deadline_at)}.",
                buttons=(SUBMIT,),
            )
            for seat in reminder.seats
        ]

    def lobby_closed(self, game: GameRow) -> list[Message]:
        return [Post("**Crime City**: the host ended the game before the first round.")]

    def seat_replaced(self, game: GameRow, old: Member, new: Member) -> list[Message]:
        return [Post(f"**Crime City**: {new.display_name} takes over {old.display_name}'s seat.")]

    def brief(
        self, game: GameRow, roster: Roster, seat: str, state: Any, learned: Sequence[Any], deadline_at: float | None
    ) -> str:
        """Everything the seat knows: character, role, goal and private results so far."""
        lines = [f"**Crime City** (<#{game.channel_id}>): you now hold a seat in this game."]
        view = None if state is None else GAME.view(state, seat)
        if view is not None and "seat" in view:
            own = view["seat"]
            lines.append(texts.seat_text(own["character"], own["role"], own["goal"], view.get("garnets")))
            lines.extend(learned_lines(learned, roster))
        elif game.pending is not None and game.pending.decision == DRAFT:
            lines.append("The draft is open: submit with /crimecity draft.")
        if game.pending is not None and (game.paused or deadline_at is not None):
            lines.append("The clock is paused." if game.paused else f"Deadline: {texts.timestamp(deadline_at)}.")
        return "\n".join(lines)


def learned_lines(events: Sequence[Any], roster: Roster) -> list[str]:
    """A seat's private results, oldest first: its events, and those a file it was imported from held."""
    entries: list[dict[str, Any]] = []
    for event in events:
        if event.kind == "seat":
            entries.extend(event.data.get("learned") or ())
        elif event.kind in PRIVATE_KINDS:
            entries.append(dict(event.data))
    return [f"Round {e['round']}: {texts.private_result_text(e, roster.name_of)}" for e in entries]


def round_of(pending: Any) -> int:
    clock = pending.clock
    return int(clock.id.split(":")[1]) if clock is not None and clock.id.startswith("round:") else 0


def open_footer(game: GameRow, deadline_at: float | None) -> str:
    pending = game.pending
    what = "the draft" if pending is not None and pending.decision == DRAFT else f"Round {round_of(pending)}"
    if deadline_at is None or game.paused:
        return f"{what} is open for submissions; the clock is paused."
    return f"{what} is open: submit with /crimecity act before {texts.timestamp(deadline_at)}."


def seat_goal(role: str) -> str:
    return ROLE_GOALS[Role(role)]


PRESENTATION = CrimeCityPresentation()
