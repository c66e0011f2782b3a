"""`/crimopolis panel`, the decision prompts' buttons and what the host's Submit button opens.

Components are persistent `DynamicItem`s with custom ids `cp:<game>:<nonce>:<part>`: no card, tile or
player, only a random nonce whose picks live in the host's panel rows (`host.panels`), so a panel works after
a restart. Every click reloads the row and the game; the host checks whose panel it is and for which decision.
What is offered comes from the rules' legal actions (`choices.LEGAL`); every submission is checked again by
the rules through `host.play.submit`, the same path as the slash commands.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from ...host import APOLOGY, Caller, NoGame, Stale, UserError, send_ephemeral, timestamp, user_message
from . import moves, texts
from .choices import LEGAL
from .names import Names, hours
from .notation import parse
from .pack import PACK
from .public import public_view
from .screens import MORE, Button, Screen, Select, answer_choices, answer_screen, turn_action, turn_screen

if TYPE_CHECKING:
    from ...host import GameRow, Host, Roster

log = logging.getLogger(__name__)

KIND = "crimopolis"
PARTS = r"kind|p1|p2|p3|go|refresh|cancel|pick|a[0-9]{1,2}"
TEMPLATE = re.compile(rf"cp:(?P<game>[0-9]{{1,20}}):(?P<nonce>[0-9a-f]{{12}}):(?P<part>{PARTS})")
OUTDATED = "The game changed since this panel was drawn; here it is again."


# ---- opening -----------------------------------------------------------------------------------------


async def open_screen(host: Host, caller: Caller, game_opt: str | None, note: str = "") -> Screen:
    """The caller's panel for their open decision (or why nothing awaits them)."""
    turn = await host.play.turn(caller, KIND, game_opt)
    if turn is None:
        try:
            seated = await host.finder.seated(caller, KIND, game_opt)  # says why: no game, no seat, ...
        except NoGame:
            if not note:
                raise
            return Screen(0, "", f"{note}\nThe game is over: the scores are posted in the channel.")
        return Screen(seated.game.id, "", f"{note}\nNothing awaits you in this game now.".strip())
    return await screen_for(host, caller.user_id, turn.game, turn.roster, turn.seat, turn.state, note)


async def screen_for(
    host: Host, user_id: int, game: GameRow, roster: Roster, seat: str, state: Any, note: str = ""
) -> Screen:
    pending = game.pending
    public = public_view(state)
    n = Names(roster.name_of, public)
    clock = await host.reports.clock_of(game)
    when = (
        "the clock is paused"
        if game.paused or clock.deadline_at is None
        else f"deadline {timestamp(clock.deadline_at)}"
    )
    if pending is None or seat not in pending.awaited:
        text = f"{note}\nNothing awaits you now. {texts.turn_line(public, n, clock.deadline_at, game.paused)}"
        return Screen(game.id, "", text.strip())
    actions = LEGAL.get(game.id, game.version, seat, state)
    top = f"{note}\n" if note else ""
    if pending.decision == "turn":
        data: dict[str, Any] = {"mode": "turn", "version": game.version, "kind": None, "picks": [], "pages": [0] * 4}
        row = await host.panels.open(game, user_id, data)
        head = f"{top}{turn_head(public)}; {when}."
        return turn_screen(game.id, row.nonce, actions, data, state, seat, n, head)
    found = answer_choices(actions, state, seat, n, roster.name_of)
    data = {"mode": "answer", "version": game.version, "answers": [c.value for c in found], "apage": 0, "pick": None}
    row = await host.panels.open(game, user_id, data)
    head = f"{top}{texts.TITLE}: {texts.decision_words(public['pending'])}; {when}."
    return answer_screen(game.id, row.nonce, found, data, head)


def turn_head(public: dict[str, Any]) -> str:
    turn = public["turn"]
    return f"{texts.TITLE} — **your turn {turn['number']}**: {hours(turn['hours'])} left this turn"


# ---- a click -----------------------------------------------------------------------------------------


async def click(host: Host, caller: Caller, game_id: int, nonce: str, part: str, values: list[str]) -> Screen:
    """One click on a panel or prompt, checked against the current game and the caller first."""
    try:
        panel = await host.panels.get(caller, game_id, nonce, reopen="Open a new one with /crimopolis panel.")
    except Stale:
        # The decision moved on since the panel was drawn: say so and show the one open now.
        return await open_screen(host, moves.by_id(caller), str(game_id), note=OUTDATED)
    game, roster, seat = panel.game, panel.roster, panel.seat
    state = host.states.get(PACK.game, game)
    data = dict(panel.row.data)
    if part == "cancel":
        return Screen(game_id, "", "Panel closed. Open it again with /crimopolis panel.")
    if part == "refresh":
        return await screen_for(host, caller.user_id, game, roster, seat, state)
    actions = LEGAL.get(game.id, game.version, seat, state)
    outdated = data.get("version") != game.version
    if data.get("mode") == "turn":
        action = None
        if part == "kind" and values:
            data.update(kind=values[0], picks=[], pages=[0] * 4)
        elif part in ("p1", "p2", "p3"):
            i = int(part[1])
            picks, pages = list(data.get("picks") or []), list(data.get("pages") or [0] * 4)
            if values == [MORE]:
                pages[i] += 1
            else:
                picked: Any = values if (data.get("kind") == "job" and i == 3) else (values[0] if values else None)
                picks = (picks + [None, None, None])[: i - 1] + [picked]
                pages[i + 1 :] = [0] * (len(pages) - i - 1)
            data.update(picks=picks, pages=pages)
        elif part == "go":
            if outdated:
                return await screen_for(host, caller.user_id, game, roster, seat, state, OUTDATED)
            action = turn_action(str(data.get("kind")), list(data.get("picks") or []), actions)
            if action is None:
                raise UserError("Choose every detail first.")
        if action is not None:
            return await _submit(host, caller, game_id, moves.fixed(action))
        await host.panels.save(nonce, data)
        n = Names(roster.name_of, public_view(state))
        public = public_view(state)
        head = f"{turn_head(public)}."
        return turn_screen(game_id, nonce, actions, data, state, seat, n, head)
    # a decision prompt
    answers = list(data.get("answers") or [])
    value: str | None = None
    if part.startswith("a") and part[1:].isdigit():  # a button: its index in the answers the panel showed
        i = int(part[1:])
        value = answers[i] if i < len(answers) else None
        outdated = outdated or value is None
    elif part == "pick" and values:
        if values == [MORE]:
            data["apage"] = int(data.get("apage", 0)) + 1
        else:
            data["pick"] = values[0]
    elif part == "go" and data.get("pick"):
        value = str(data["pick"])
    if outdated and (value is not None or part.startswith("a")):
        return await screen_for(host, caller.user_id, game, roster, seat, state, OUTDATED)
    if value is not None:
        chosen = value
        return await _submit(host, caller, game_id, lambda turn: parse(chosen, turn.roster.lookup))
    await host.panels.save(nonce, data)
    public = public_view(state)
    n = Names(roster.name_of, public)
    found = answer_choices(actions, state, seat, n, roster.name_of)
    head = f"{texts.TITLE}: {texts.decision_words(public['pending'])}."
    return answer_screen(game_id, nonce, found, data, head)


async def _submit(host: Host, caller: Caller, game_id: int, build: moves.Build) -> Screen:
    played = await moves.play(host, moves.by_id(caller), build, str(game_id))
    return await open_screen(host, moves.by_id(caller), str(game_id), note=moves.done_text(played))


# ---- the Discord side --------------------------------------------------------------------------------

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(screen: Screen, part: str) -> str:
    return f"cp:{screen.game_id}:{screen.nonce}:{part}"


def view_of(screen: Screen) -> discord.ui.View | None:
    """The screen's rows as persistent components (None when it has none)."""
    if not screen.nonce or not screen.rows:
        return None
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(screen.rows[:5]):
        for item in row:
            ui: discord.ui.Item[Any]
            if isinstance(item, Select):
                ui = discord.ui.Select(
                    custom_id=custom_id(screen, item.part),
                    placeholder=item.placeholder[:150],
                    options=[
                        discord.SelectOption(
                            label=o.label, value=o.value, default=o.default, description=o.description or None
                        )
                        for o in item.options
                    ],
                    min_values=item.min_values,
                    max_values=max(item.min_values, item.max_values),
                    row=r,
                )
            else:
                assert isinstance(item, Button)
                ui = discord.ui.Button(
                    label=item.label,
                    style=STYLES[item.style],
                    custom_id=custom_id(screen, item.part),
                    disabled=item.disabled,
                    row=r,
                )
            view.add_item(PanelControl(ui, screen.game_id, screen.nonce, item.part))
    return view


class PanelControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """One select or button of a panel; all it needs is in its custom id's match."""

    def __init__(self, item: discord.ui.Item[Any], game_id: int, nonce: str, part: str) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.nonce = nonce
        self.part = part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelControl:
        return cls(item, int(match["game"]), match["nonce"], match["part"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs a dynamic item's exceptions, so every outcome is answered here.
        host: Host = interaction.client.host  # type: ignore[attr-defined]
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        # Answered by editing the panel in one response (no deferral): a click costs one engine step and a
        # few reads, far below Discord's 3 seconds, and a deferred update would cost a second request.
        try:
            screen = await click(
                host, Caller.from_interaction(interaction), self.game_id, self.nonce, self.part, values
            )
        except Exception as error:
            message = user_message(error)
            if message is None:
                log.error("panel click failed (interaction %s)", interaction.id, exc_info=error)
                message = APOLOGY
            await send_ephemeral(interaction, message)
            return
        await interaction.response.edit_message(content=screen.text[:2000], view=view_of(screen))
