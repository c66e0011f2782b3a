"""Organized Crime as people read it: each step's events in words, prompts, reminders, the seat brief.

The channel gets, after each accepted action, one post with that action's public events (split only when
it would pass Discord's 2,000 characters), the text board and the picture at the end of every move and
every turn; each seat gets one DM with what only it may know (cards drawn or received, its sealed ballot)
and the prompt of any decision that now awaits it. Public texts read the public view only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.contract import Pending

from ...host import DM, STATUS, SUBMIT, GameRow, Member, Message, Post, Reminder, Roster, StepView
from . import names as n
from .board import alt_text, board_text
from .events import issue_text, private_line, public_line, results_text, shuffles_line, turn_heading
from .names import Names
from .pack import PACK
from .prompts import deadline_words, title, what_to_do
from .public import public_view

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from ...host import Caller, Host, ModalHandler

TITLE = "Organized Crime"
LIMIT = 1900  # a post's content, with room to spare under Discord's 2,000
PICTURED = {"move_ended", "turn_ended", "turn_began", "game_over"}
# What a player's own action leads to within his turn without a prompt: his turn and its moves share one clock.
# A meeting's bargaining and session have clocks of their own: commands.md prompts their caller (DM + mention).
CONTINUED = ("turn", "path")


def chunks(lines: Sequence[str], limit: int = LIMIT) -> list[str]:
    """Lines packed into messages of at most `limit` characters (a longer line is cut)."""
    out: list[str] = []
    cur: list[str] = []
    size = 0
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if cur and size + len(line) + 1 > limit:
            out.append("\n".join(cur))
            cur, size = [], 0
        cur.append(line)
        size += len(line) + 1
    if cur:
        out.append("\n".join(cur))
    return out


def names_for(state: Any, roster: Roster) -> tuple[dict[str, Any], Names]:
    public = public_view(state)
    return public, Names(public, roster.name_of)


def sealed(game: GameRow) -> bool:
    return game.settings.get("ballots") == "sealed"


class OrganizedCrimePresentation:
    @property
    def game(self) -> Any:  # the game on the content this process plays (pack.py)
        return PACK.game

    def use_game(self, game: Any | None) -> None:
        """Play `game` (this game on a group's own content), or the packaged content with None (bot/content.py)."""
        PACK.use(game)

    def cog(self, host: Host) -> commands.Cog:
        from .cog import OrganizedCrimeCog

        return OrganizedCrimeCog(host, self)

    def picture(self, view: dict[str, Any]) -> bytes | None:
        from .picture import render_board

        return render_board(view)

    def dynamic_items(self) -> Sequence[type[discord.ui.DynamicItem[Any]]]:
        from .panel import OpenPanel, PanelControl

        return (PanelControl, OpenPanel)

    def modals(self) -> Mapping[str, ModalHandler]:
        return {}

    def decision_title(self, pending: Pending) -> str:
        return title(pending)

    # ---- seasons (docs/seasons.md) -----------------------------------------------------------------------

    league = True

    def season_outcome(self, view: StepView) -> Any:
        """A finished match's placement: the winners, the other Bosses standing by votes, money and income
        (equal ones tied), then those rubbed out, the last out first. A game the host ended before its first
        turn is not a match."""
        from .. import league

        results = view.results
        if not results or int(view.state.get("turn", 0)) < 1:
            return None
        groups = placement_groups(results)
        users = league.in_groups(groups, view.roster.members_of)
        return league.outcome(groups, {"game": view.game.id, "ended": results.get("reason"), "groups": users})

    # ---- steps -------------------------------------------------------------------------------------------

    def step_messages(self, view: StepView) -> list[Message]:
        """A step within a turn that asks nothing of anyone new goes into the turn's running message (one per
        turn, edited at each such step: the host's keyed posts); a step with the board and its picture, a
        prompt that must ping someone, or the results is a new message, as each step was before."""
        game, roster = view.game, view.roster
        public, names = names_for(view.state, roster)
        kinds = {e.kind for e in view.events}
        turn = int(public.get("turn") or 0) - sum(e.kind == "turn_began" for e in view.events)
        logs: list[tuple[int, list[str]]] = [(turn, [])]
        if view.host_action:
            logs[-1][1].append("*(the host applied this)*")
        opening = shuffles_line(list(view.events)) if view.before is None else None
        if opening:
            logs[-1][1].append(opening)
        for e in view.events:
            if not e.is_public or (opening and e.kind == "shuffled"):
                continue
            if e.kind == "turn_began":
                d = e.data
                income = f" — income value {n.money(d['income'])}" if d["income"] else ""
                heading = f"**{turn_heading(d['turn'], d['round'], d['player'], names)}**{income}"
                logs.append((int(d["turn"]), [heading]))
                continue
            mt = public.get("meeting")
            if e.kind == "vote_called" and mt and mt.get("id") == e.data["meeting"]:
                # commands.md "What people read": the meeting post states the issue in one line, then the
                # voting order with each member's entitlement.
                logs[-1][1].append(f"🗳 **Meeting {mt['id']}**: {issue_text(mt['caller'], mt['issue'], names)}.")
            line = public_line(e, names)
            if line:
                logs[-1][1].append(line)
            if e.kind == "meeting_called":
                votes = ", ".join(f"{names.player(seat)} {pl['votes']}" for seat, pl in public["players"].items()
                                  if pl["alive"])
                logs[-1][1].append(f"Votes now (fixed when the vote is called): {votes}.")
        prompted = self.prompted(view)
        pictured = view.before is None or bool(kinds & PICTURED)
        if not pictured and view.results is None and not (prompted and view.pending is not None):
            # A step within the turn that asks nothing of anyone new: into the turn's running message.
            return [Post(text, edit_key=f"turn:{number}", append=True) for number, lines in logs
                    for text in chunks(lines)] + self._dms(view, public, names, prompted)
        lines = [line for _, said in logs for line in said]
        posts: list[Message] = []
        mentions: list[int] = []
        if view.pending is not None:
            for seat in prompted:
                uid = roster.user_of(seat)
                if uid is not None:
                    mentions.append(uid)
                    short = what_to_do(public, seat, view.pending.decision, names, sealed=sealed(game))
                    lines.append(f"➡ <@{uid}>, {short}")
            if prompted:
                lines.append(deadline_words(view.deadline_at, game.paused))
        if view.results is not None:
            lines.append("")
            lines.append(results_text(view.results, names))
            lines.extend(hands_lines(view.state, names))
        buttons = () if view.results is not None else (STATUS, SUBMIT)
        texts = chunks(lines) or ([] if pictured else [f"**{TITLE}**"])
        if pictured:
            board = board_text(public, names)
            last = texts.pop() if texts else ""
            if last and len(last) + len(board) + 2 > LIMIT:
                texts.append(last)
                last = ""
            posts += [Post(text, mention=tuple(mentions)) for text in texts]
            if texts:
                mentions = []
            text = f"{last}\n\n{board}" if last else board
            # A board too long for one message (long names, many debts and limits) goes on in the posts
            # before the one with the picture: nothing of it is cut.
            *before, text = chunks(text.split("\n"))
            posts += [Post(part, mention=tuple(mentions)) for part in before]
            if before:
                mentions = []
            posts.append(Post(text, picture=public, alt=alt_text(public, names), mention=tuple(mentions),
                              buttons=buttons))
        elif texts:
            posts += [Post(text, mention=tuple(mentions)) for text in texts[:-1]]
            posts.append(Post(texts[-1], mention=tuple(mentions), buttons=buttons if prompted else ()))
        return posts + self._dms(view, public, names, prompted)

    def prompted(self, view: StepView) -> list[str]:
        """Seats the decision open now newly waits for: not one still awaited as before (a sealed vote
        losing a voter), nor the player who just acted and goes on within his turn (his own move, his own
        acquisition meeting), whose answer already says what is next."""
        pending, before = view.pending, view.before
        if pending is None or not (view.opened or before is None):
            return []
        if before is None:
            return list(pending.awaited)
        actors = {a.by for a in view.actions if a.by is not None}
        changed = before.decision != pending.decision or (
            before.clock is not None and pending.clock is not None and before.clock.id != pending.clock.id
        )
        same_turn = any(c.id.startswith("turn:") and c.id in {b.id for b in before.clocks} for c in pending.clocks)
        going_on = same_turn and pending.decision in CONTINUED
        out = []
        for seat in pending.awaited:
            waited = seat in before.awaited
            if (waited and not changed) or (going_on and waited and seat in actors):
                continue
            out.append(seat)
        return out

    def _dms(self, view: StepView, public: dict[str, Any], names: Names, prompted: list[str]) -> list[Message]:
        game = view.game
        said: dict[str, list[str]] = {}
        for e in view.events:
            if e.is_public:
                continue
            for seat in e.audience:
                line = private_line(e, seat, names)
                if line:
                    said.setdefault(seat, []).append(line)
        out: list[Message] = []
        for seat in names.order:
            lines = list(said.get(seat, []))
            if seat in prompted and view.pending is not None:
                ask = what_to_do(public, seat, view.pending.decision, names, sealed=sealed(game))
                lines.append(f"➡ Your move: {ask}")
                lines.append(deadline_words(view.deadline_at, game.paused))
            if lines:
                head = f"**{TITLE}** (<#{game.channel_id}>)"
                out.append(DM(seat, "\n".join([head, *lines])[:2000], buttons=(STATUS, SUBMIT)))
        return out

    # ---- outside steps -------------------------------------------------------------------------------------

    def reminder(self, reminder: Reminder) -> list[Message]:
        game = reminder.game
        if game.state is None:
            return []
        state = PACK.game.decode_state(game.state)
        public, names = names_for(state, reminder.roster)
        return [
            DM(
                seat,
                f"**{TITLE}** (<#{game.channel_id}>): reminder, "
                f"{what_to_do(public, seat, reminder.pending.decision, names, sealed=sealed(game))}\n"
                f"{deadline_words(reminder.deadline_at, game.paused)}",
                buttons=(SUBMIT,),
            )
            for seat in reminder.seats
        ]

    def lobby_closed(self, game: GameRow) -> list[Message]:
        return [Post(f"**{TITLE}**: the host closed the lobby; no game was played.")]

    def seat_replaced(self, game: GameRow, old: Member, new: Member) -> list[Message]:
        return [Post(f"**{TITLE}**: {new.display_name} takes over {old.display_name}'s seat.")]

    def lobby_text(self, game: GameRow, roster: Roster) -> str:
        from .lobby import lobby_text

        return lobby_text(game, roster)

    def brief(
        self, game: GameRow, roster: Roster, seat: str, state: Any, learned: Sequence[Any], deadline_at: float | None
    ) -> str:
        """What the new holder of a seat needs: colour, hand, and the decision awaiting it (commands.md)."""
        lines = [f"**{TITLE}** (<#{game.channel_id}>): you now hold a seat in this game."]
        if state is None:
            return "\n".join(lines)
        own = PACK.game.view(state, seat)
        public, names = names_for(state, roster)
        pl = own["players"].get(seat) or {}
        lines.append(f"You play **{names.full(seat)}**" + (f", Home Base {pl['base']}" if pl.get("base") is not None
                                                              else "") + f"; {n.money(pl.get('money', 0))}.")
        hand = own.get("hand") or {}
        cards = [*hand.get("power", []), *hand.get("official", [])]
        lines.append("Your hand: " + (", ".join(n.card(c) for c in cards) or "no card") + ".")
        pending = PACK.game.pending(state)
        if pending is not None and seat in pending.awaited:
            lines.append(f"➡ Your move: {what_to_do(public, seat, pending.decision, names, sealed=sealed(game))}")
        if pending is not None:
            lines.append(deadline_words(deadline_at, game.paused))
        del learned
        return "\n".join(lines)

    # ---- the host's buttons (My status, Submit, History) -----------------------------------------------

    async def status_reply(self, host: Host, caller: Caller, game_id: int) -> Any:
        from .replies import status_reply

        return await status_reply(host, caller, game_id)

    async def submit_reply(self, host: Host, caller: Caller, game_id: int) -> Any:
        from .replies import submit_reply

        return await submit_reply(host, caller, game_id)

    async def history_reply(self, host: Host, caller: Caller) -> Any:
        from .replies import history_reply

        return await history_reply(host, caller)

    async def start_reply(self, host: Host, caller: Caller, game_id: int) -> Any:
        """The lobby's Start button: the game starts as by `/organizedcrime start`, and the host is told the seat
        order (the channel gets the shuffles and the rolls)."""
        from ...host import Reply
        from .moves import KIND
        from .replies import started_text

        advance, roster = await host.lobby.start(caller, KIND, game_opt=str(game_id), game_id=game_id)
        return Reply(started_text(advance.game.id, roster))


def hands_lines(state: Any, names: Names) -> list[str]:
    """Every hand, shown only once the game is over (commands.md "At the end")."""
    lines = ["Hands at the end:"]
    for seat in names.order:
        hand = PACK.game.view(state, seat).get("hand") or {}
        cards = [*hand.get("power", []), *hand.get("official", [])]
        lines.append(f"{names.full(seat)}: " + (", ".join(n.card(c) for c in cards) or "no card"))
    return lines


PRESENTATION = OrganizedCrimePresentation()
__all__ = ["PRESENTATION", "OrganizedCrimePresentation"]


def placement_groups(results: Mapping[str, Any]) -> list[list[str]]:
    """The seats of a finished game in groups of equal place, best first (docs/seasons.md)."""
    winners = list(results.get("winners") or [])
    groups: list[list[str]] = [winners] if winners else []
    last: tuple[Any, ...] | None = None
    for row in results.get("standing") or []:
        if row["player"] in winners:
            continue
        key = (row["votes"], row["money"], row["income"])
        if key == last:
            groups[-1].append(row["player"])
        else:
            groups.append([row["player"]])
        last = key
    groups += [[out["player"]] for out in reversed(results.get("eliminated") or [])]
    return groups
