"""Crimopolis as the host runs it: what each step becomes (messages.py), reminders, the living lobby, the seat
brief, the hooks behind the host's buttons (My status, Submit, History, Start), and the reaction windows the
bot answers by itself for players whose preference is `never` or `auto`.

Decided here: wording, layout and when to answer for a player; decided in `rules`: everything else.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.contract import Pending

from ...host import Caller, GameRow, Member, Message, Post, Reminder, Roster, StepView
from . import messages, texts
from .names import Names
from .pack import PACK
from .prefs import ASK, AUTO, NEVER, WORDS, Prefs
from .public import public_view


@dataclass(frozen=True, slots=True)
class Reply:
    """An ephemeral answer to one of the host's buttons (what the host reads of it: text, view, embed)."""

    text: str
    view: Any = None
    embed: Any = None


if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from ...host import Host, ModalHandler

log = logging.getLogger(__name__)
KIND = "crimopolis"


def auto_answer(state: Any, seat: str, pref: str) -> dict[str, Any] | None:
    """The reaction the bot sends for `seat` at once (None: it asks). `auto` plays the lowest-id reaction
    fortune the rules offer, `never` none (host.md: ordinary moves, in the export)."""
    if pref == NEVER:
        return {"kind": "react", "card": None}
    if pref == AUTO:
        from rules.crimopolis.legal import legal_actions

        offered = [a for a in legal_actions(PACK.game.content, state, seat) if a["kind"] == "react" and a["card"]]
        if offered:
            return {"kind": "react", "card": min(a["card"] for a in offered)}
        return {"kind": "react", "card": None}
    return None


class CrimopolisPresentation:
    @property
    def game(self) -> Any:  # the game on the content this process plays (pack.py)
        return PACK.game

    def use_game(self, game: Any | None) -> None:
        """Play `game` (this game on a group's own content), or the packaged content with None (bot/content.py)."""
        PACK.use(game)

    def __init__(self) -> None:
        self.prefs = Prefs()
        self.host: Host | None = None  # the running bot's host (set when its cog loads)
        self._auto: dict[int, set[asyncio.Task[None]]] = {}

    # ---- seasons (docs/seasons.md) -----------------------------------------------------------------------

    league = True

    def season_outcome(self, view: StepView) -> Any:
        """A finished match's placement: the rules' ranking (score, then body count; equal ones tied). A game
        the host ended before the first turn is not a match."""
        from .. import league

        results = view.results
        if not results or view.state.number < 1:
            return None
        groups = [list(group) for group in results.get("ranking") or []]
        users = league.in_groups(groups, view.roster.members_of)
        return league.outcome(groups, {"game": view.game.id, "ended": results.get("ended"), "groups": users})

    def cog(self, host: Host) -> commands.Cog:
        from .cog import CrimopolisCog

        return CrimopolisCog(host, self)

    def picture(self, view: dict[str, Any]) -> bytes | None:
        from .picture import render_board

        return render_board(view)

    def dynamic_items(self) -> Sequence[type[discord.ui.DynamicItem[Any]]]:
        from .panel import PanelControl

        return (PanelControl,)

    def modals(self) -> Mapping[str, ModalHandler]:
        return {}

    def decision_title(self, pending: Pending) -> str:
        """The decision in the host's own messages ("Turn 4 was resolved just before your command arrived")."""
        if pending.decision.startswith("setup"):
            return "the setup placement"
        if pending.decision == "react":
            return "the reaction window"
        clock = pending.clocks[0] if pending.clocks else None
        turn = f"turn {clock.id.split(':')[1]}" if clock is not None and clock.id.startswith("turn:") else "the turn"
        what = {"explore": "the exploration", "keep": "the job to keep", "target": "the target"}
        what["destiny"] = "the next destiny"
        return turn if pending.decision == "turn" else f"{what.get(pending.decision, 'the decision')} in {turn}"

    # ---- steps -------------------------------------------------------------------------------------------

    def step_messages(self, view: StepView) -> list[Message]:
        public = public_view(view.state)
        prefs = self.prefs.of(view.game.id, {s: view.roster.members_of(s) for s in view.roster.seats})
        out = messages.step_messages(view, public, prefs)
        pending = view.pending
        if pending is not None and view.opened and pending.decision == "react":
            seat = pending.awaited[0]
            move = auto_answer(view.state, seat, prefs.get(seat, ASK))
            if move is not None:
                self._answer_later(view, seat, move)
        if self.host is not None and pending is None:
            self._spawn(view.game.id, self._forget(self.host, view.game.id))
        # No read-ahead of the next decision's context here: the host keeps it after a player's step, and
        # reads it ahead after a deadline's (a task here made every answer wait for a lock and a read).
        return out

    async def _forget(self, host: Host, game_id: int) -> None:
        try:
            await self.prefs.forget(host.db, game_id)
        except Exception:  # kept a little longer: nothing reads an ended game's preferences
            log.debug("game %s: preferences not dropped", game_id, exc_info=True)

    def _answer_later(self, view: StepView, seat: str, move: dict[str, Any]) -> None:
        """After the step commits (the game's lock is held until then), answer the window for the seat."""
        holder = view.roster.player(seat)
        if self.host is None or holder is None or holder.user_id is None or view.pending is None:
            return
        caller = Caller(holder.user_id, holder.user_name, holder.display_name)
        clock = view.pending.clock
        self._spawn(view.game.id, self._answer(self.host, view.game.id, caller, seat, clock.id if clock else "", move))

    def _spawn(self, game_id: int, work: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop (a test calling step_messages directly)
            work.close()
            return
        tasks = self._auto.setdefault(game_id, set())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def _answer(
        self, host: Host, game_id: int, caller: Caller, seat: str, clock: str, move: dict[str, Any]
    ) -> None:
        from .moves import play

        def build(turn: Any) -> dict[str, Any]:
            pending = turn.game.pending
            if turn.seat != seat or pending is None or pending.clock is None or pending.clock.id != clock:
                from ...host import Stale

                raise Stale("that reaction window is closed")
            return dict(move)

        try:
            await play(host, caller, build, str(game_id))
        except Exception as error:  # a window answered or closed meanwhile: nothing to do
            log.debug("game %s: no automatic reaction (%s)", game_id, type(error).__name__)

    async def settle(self, game_id: int) -> bool:
        """Wait for the reactions the bot is answering in this game (so a reply shows what follows them);
        True when there were any."""
        current = asyncio.current_task()
        waited = False
        for _ in range(20):
            tasks = {t for t in self._auto.get(game_id, set()) if t is not current and not t.done()}
            if not tasks:
                break
            waited = True
            await asyncio.gather(*tasks, return_exceptions=True)
        return waited

    # ---- outside steps -----------------------------------------------------------------------------------

    def reminder(self, reminder: Reminder) -> list[Message]:
        return messages.reminder_dms(reminder.game, reminder.seats, reminder.pending.decision, reminder.deadline_at)

    def lobby_text(self, game: GameRow, roster: Roster) -> str:
        from .cog import lobby_text

        return lobby_text(game, roster)

    def lobby_closed(self, game: GameRow) -> list[Message]:
        return [Post(f"{texts.TITLE}: the host closed the lobby before the game started.")]

    def seat_replaced(self, game: GameRow, old: Member, new: Member) -> list[Message]:
        return [Post(f"{texts.TITLE}: {new.display_name} takes over {old.display_name}'s seat.")]

    def brief(
        self, game: GameRow, roster: Roster, seat: str, state: Any, learned: Sequence[Any], deadline_at: float | None
    ) -> str:
        """What the new holder of a seat is told: its colour, hands, destinies and reaction preference."""
        lines = [f"{texts.TITLE} (<#{game.channel_id}>): you now hold a seat in this game."]
        if state is not None:
            view = PACK.game.view(state, seat)
            me = view["players"][seat]
            n = Names(roster.name_of, view)
            lines.append(f"Seat {me['seat']} ({me['color']}): prestige {me['prestige']}, bodies {me['bodies']}.")
            lines += texts.hand_lines(view["private"][seat])
            lines.append(texts.turn_line(view, n, deadline_at, game.paused))
        members = roster.members_of(seat)
        line = f"Reactions: {WORDS[self.prefs.get(game.id, seat, members)]}"
        if len(members) > 1:  # team mode: who chose what (the newcomer brings the preference of the place)
            own = ", ".join(f"<@{u}> {self.prefs.own(game.id, seat, u)}" for u in members)
            line += f" (the stricter of the two members': {own})"
        lines.append(f"{line} (change with /crimopolis prefs).")
        del learned
        return "\n".join(lines)

    # ---- the host's buttons ------------------------------------------------------------------------------

    async def status_reply(self, host: Host, caller: Caller, game_id: int) -> Reply:
        from .reports import status_text

        return Reply(await status_text(host, _by_id(caller), str(game_id)))

    async def submit_reply(self, host: Host, caller: Caller, game_id: int) -> Reply:
        from .panel import open_screen, view_of

        screen = await open_screen(host, _by_id(caller), str(game_id))
        return Reply(screen.text[:2000], view=view_of(screen))

    async def answer_reply(self, host: Host, caller: Caller, game_id: int, step: int, index: int) -> Reply:
        """A reaction window's answer button on the "React?" DM (commands.md: one button per reaction fortune
        held, and No reaction): the index-th answer of the window still open, else nothing is sent."""
        from ...host import Stale
        from .moves import done_text, play_now

        def build(turn: Any) -> dict[str, Any]:
            pending = turn.game.pending
            answers = messages.react_answers(turn.state, turn.seat)
            if turn.game.step != step or pending is None or pending.decision != "react" or index >= len(answers):
                raise Stale("That reaction window is closed: nothing was sent.")
            return dict(answers[index])

        played, _ = await play_now(host, _by_id(caller), build, str(game_id))
        return Reply(done_text(played))

    async def history_reply(self, host: Host, caller: Caller) -> Reply:
        from .reports import history_embed

        return Reply("", embed=await history_embed(host, caller))

    async def start_reply(self, host: Host, caller: Caller, game_id: int) -> Reply:
        from .cog import start_game

        await start_game(host, caller, str(game_id), game_id=game_id)
        return Reply("The game has started: the seats and the first placement are posted in the channel.")


def _by_id(caller: Caller) -> Caller:
    from .moves import by_id

    return by_id(caller)


PRESENTATION = CrimopolisPresentation()
