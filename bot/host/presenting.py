"""What a game's presentation package (bot/games/<game>/) gives the host, and what it gets.

The host runs every game the same way; a presentation turns what happened (a step's events, read
through the rules' views) into messages people read, draws the board, and brings the game's own
slash commands as a cog. It decides no rule: legality, resolution and results come from `rules`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rules.contract import Action, Event, Game, Pending

from ..storage.models import GameRow
from .roster import Roster

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from . import Host

# Buttons the host puts on messages when a presentation asks for them (custom ids carry no secret).
STATUS, SUBMIT, HISTORY = "status", "submit", "history"



ModalHandler = Callable[["discord.Interaction"], Awaitable[None]]

@dataclass(frozen=True, slots=True)
class Post:
    """A message to the game's channel. `picture`: a public view to draw the board from.

    `edit_key` (e.g. "turn:3"): the first post with a key in a game's channel sends a message; each later
    one edits that message instead (a new message if it was deleted or cannot be edited). With `append`,
    its text is added under what the message shows (a running log of the turn); a text that no longer
    fits in one message starts a new one, which later posts with the key edit; `heading` opens each message
    the key starts (not repeated in what is appended). An edit notifies nobody,
    so a post that must ping someone has no key; a keyed post carries no picture."""

    text: str
    picture: dict[str, Any] | None = None
    mention: tuple[int, ...] = ()
    buttons: tuple[str, ...] = ()
    alt: str = ""  # what the picture shows, in words (its attachment description)
    edit_key: str | None = None
    append: bool = False
    heading: str = ""

    def __post_init__(self) -> None:
        if self.edit_key is not None and self.picture is not None:
            raise ValueError("a keyed post (edited in place) carries no picture")


@dataclass(frozen=True, slots=True)
class DM:
    """A message to whoever holds `seat` when it is sent (it follows a replaced seat).

    `answers`: labels of buttons for the decision open after the step (at most 20, above the host's
    `buttons`). A click calls the presentation's `answer_reply(host, caller, game_id, step, index)` with
    the decision's step and the button's index: the custom id holds those numbers, no label.

    A shared seat's DMs go to both its members; `member` narrows one to that member (if they still hold
    the seat when it is sent): what a newcomer to a shared seat is told."""

    seat: str
    text: str
    buttons: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    member: int | None = None


Message = Post | DM


@dataclass(frozen=True, slots=True)
class StepView:
    """One step as the presentation sees it, after it was applied."""

    game: GameRow  # the game row after the step
    roster: Roster
    state: Any  # the decoded state after the step: read it through `game_rules.view` only
    actions: tuple[Action, ...]
    events: tuple[Event, ...]
    before: Pending | None  # the decision the step was applied in (None: setup)
    pending: Pending | None  # the decision open now
    opened: bool  # a new decision opened with this step
    deadline_at: float | None  # the running clock's deadline after the step
    results: dict[str, Any] | None = None
    host_action: bool = False  # the step was a host's move (not a player's, not the clock's)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reminder:
    game: GameRow
    roster: Roster
    pending: Pending
    deadline_at: float
    seats: tuple[str, ...]  # who still owes the decision


@dataclass(frozen=True, slots=True)
class Reply:
    """An ephemeral answer a presentation gives to a host button (My status, Submit, History)."""

    text: str
    view: Any = None  # a discord.ui.View (or LayoutView), or None
    embed: Any = None  # a discord.Embed, or None


class Presentation(Protocol):
    """A game's presentation, registered under its rules id (bot/games/__init__.py).

    Optional members the host uses when present: `decision_title(pending)`, `lobby_closed(game)`,
    `seat_replaced(game, old, new)`, `brief(game, roster, seat, state, learned, deadline_at)` (what a new
    holder of a seat is told; `deadline_at` is the open decision's, None without one or while paused),
    `adopt_legacy(conn)`, and for the buttons the host puts on posts and DMs:
    `status_reply(host, caller, game_id)`, `submit_reply(host, caller, game_id)`,
    `history_reply(host, caller)`, `answer_reply(host, caller, game_id, step, index)` (each an awaitable
    `Reply`), and `lobby_text(game, roster)`."""

    game: Game

    def cog(self, host: Host) -> commands.Cog: ...

    def step_messages(self, view: StepView) -> Sequence[Message]: ...

    def reminder(self, reminder: Reminder) -> Sequence[Message]: ...

    def picture(self, view: dict[str, Any]) -> bytes | None: ...

    def dynamic_items(self) -> Sequence[type[discord.ui.DynamicItem[Any]]]: ...

    def modals(self) -> Mapping[str, ModalHandler]:
        """Handlers of this game's modal submissions, by custom-id prefix. They are dispatched by their id, like
        the dynamic items, so a form sent twice, or after a restart, is still read (discord.py drops a modal it
        does not hold in memory without a word)."""
        ...

    def decision_title(self, pending: Pending) -> str: ...


def title_of(presentation: Presentation, pending: Pending | None) -> str:
    """A decision's name in the game's words, for the host's own messages ("the vote", "Turn 3")."""
    if pending is None:
        return "the game"
    title = getattr(presentation, "decision_title", None)
    return title(pending) if title is not None else f"the {pending.decision}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
