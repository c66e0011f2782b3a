"""Playing: what a command or a click asks for, turned into the rules' actions and sent through the host.

Every action goes through `host.play.submit`, one by one (the decisions apply moves at once). A command
that stands for several actions (`declare` with two movers and `roll`, `move … to`) is first checked as
a whole on a copy of the state, so nothing is sent when any part would be refused. The one check made
here rather than by the rules is a clock: `call_vote` before `bargain_minimum` has passed (Q22), which
the rules cannot see (they have no clock).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.contract import Action, Refusal
from rules.organizedcrime.game import deadlines

from ...host import Caller, NoGame, Played, Refused, Stale, Turn, UserError
from .names import Names
from .notation import write
from .pack import PACK
from .public import public_view

if TYPE_CHECKING:
    from ...host import Host

KIND = "organizedcrime"
Act = dict[str, Any]


class CopyChance:
    """For checking a sequence on a copy only: the copy is thrown away, so any outcome will do."""

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return (1,) * count

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]:
        return list(items)


@dataclass(frozen=True, slots=True)
class Context:
    """The caller's seat in the open decision, with the names to read and write actions."""

    turn: Turn
    names: Names

    @property
    def seat(self) -> str:
        return self.turn.seat

    @property
    def state(self) -> Any:
        return self.turn.state

    def lookup(self, text: str) -> str | None:
        return self.turn.roster.lookup(text)


def context_of(turn: Turn) -> Context:
    public = public_view(turn.state)
    return Context(turn, Names(public, turn.roster.name_of))


async def context(host: Host, caller: Caller, game_opt: str | None) -> Context:
    """The caller's context, or a clear reason why there is none (no game, no seat, game over)."""
    turn = await host.play.turn(caller, KIND, game_opt)
    if turn is None:
        seated = await host.finder.seated(caller, KIND, game_opt)  # raises the precise reason
        if seated.game.status == "lobby":
            raise UserError("The game has not started yet: the host starts it with /organizedcrime start.")
        raise UserError("This game is over: nothing can be played any more.")
    return context_of(turn)


def humanize(message: str, names: Names) -> str:
    """A rules message with seats (`p1`) and pieces (`p1:2`) as people know them."""
    seats = sorted(names.order, key=len, reverse=True)
    if not seats:
        return message
    alt = "|".join(map(re.escape, seats))
    message = re.sub(rf"\b({alt}):(\d+)\b", lambda m: names.piece(f"{m[1]}:{m[2]}"), message)
    return re.sub(rf"\b({alt})\b", lambda m: names.full(m[1]), message)


LEADS = {  # commands.md "What people read": a refusal names the rule in words people expect
    "not_yours": "it is not your turn: ",
    "counts_left": "you must use the entire count: ",
    "dead_end": "you cannot go that way: ",
    "funds": "you cannot afford it: ",
}


def refused(action: Act, refusal: Refusal, names: Names) -> Refused:
    why = humanize(refusal.message, names)
    return Refused(refusal.code, f"`{write(action, names)}` — {LEADS.get(refusal.code, '')}{why}")


def check_sequence(ctx: Context, actions: Sequence[Act]) -> None:
    """Refuse the whole sequence if any part would be refused, as the rules would see it in order."""
    state = ctx.state
    for i, action in enumerate(actions):
        refusal = PACK.game.check(state, ctx.seat, action)
        if refusal is not None:
            raise refused(action, refusal, ctx.names)
        if i < len(actions) - 1:
            state = PACK.game.step(state, [Action(ctx.seat, dict(action))], CopyChance()).state


def bargain_guard(host: Host, turn: Turn, action: Act) -> None:
    """Q22 "after ample time": the caller may call the vote only once `bargain_minimum` has passed."""
    pending = turn.game.pending
    if action.get("act") != "call_vote" or pending is None or pending.decision != "bargain":
        return
    ran = turn.game.open_for(host.clock())  # a pause does not count as bargaining time
    if ran is None:
        return
    left = deadlines(turn.game.settings)["bargain_minimum"] - ran
    if left > 0:
        wait = f"{left:.0f} seconds" if left < 120 else f"{left / 60:.0f} minutes"
        raise Refused("too_early", f"`callvote` — the vote cannot be called yet: bargaining gets ample time "
                                   f"first (Q22). Try again in {wait}.")


async def play(host: Host, caller: Caller, ctx: Context, actions: Sequence[Act], game_opt: str | None) -> list[Played]:
    """Check the sequence on a copy, then submit each action; a part refused later says what was done."""
    if not actions:
        raise UserError("Nothing to do.")
    # One action is checked by the host, under the game's lock, and refused the same way; but the rules'
    # refusal of a vote call comes before the clock's (bargain_guard, in `build`).
    if len(actions) > 1 or actions[0].get("act") == "call_vote":
        check_sequence(ctx, actions)
    given = game_opt
    by_id = replace(caller, guild_id=None, channel_id=None)
    game_opt = str(ctx.turn.game.id)
    done: list[Played] = []
    for i, action in enumerate(actions):

        def build(turn: Turn, action: Act = action) -> Act:
            bargain_guard(host, turn, action)
            return dict(action)

        # The first part as typed (the channel's game); the others by id, and not refused for following
        # a decision the first part opened.
        who, where = (caller, given) if i == 0 else (replace(by_id, issued_at=None), game_opt)
        try:
            done.append(await host.play.submit(who, KIND, build, where))
        except Refused as exc:
            if not done:
                if exc.code == "too_early":
                    raise
                raise refused(action, Refusal(exc.code, exc.message), ctx.names) from None
            raise partial(done, action, exc.message, ctx.names) from None
        except (Stale, NoGame) as exc:
            if not done:
                raise
            raise partial(done, action, exc.message, ctx.names) from None
    return done


def partial(done: list[Played], action: Act, why: str, names: Names) -> UserError:
    shown = ", ".join(f"`{write(p.move, names)}`" for p in done)
    return UserError(f"Done: {shown}. Then `{write(action, names)}` was not accepted: {humanize(why, names)}")
