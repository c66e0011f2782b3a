"""`/crimecity panel`: a round's actions picked from menus of legal ones, then Submit.

The panel's components are persistent `DynamicItem`s with custom ids `cc:panel:<game>:<nonce>:<part>`:
no character, role or action name, only a random nonce whose state (kind shown, page, picks) lives in
the host's panel rows. Every click is checked again by the host (whose panel, which decision) and the
submission goes through the same path as /crimecity act. Which actions are offered comes from
`rules.crimecity.legal_actions` and `legal_seconds`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import discord

from rules.crimecity import Action, ParseError, legal_actions, legal_seconds
from rules.crimecity.game import GAME, ROUND
from rules.crimecity.ids import Role
from rules.crimecity.notation import describe_action, format_action, parse_action

from ...host import APOLOGY, Caller, UserError, clip, send_ephemeral, timestamp, user_message
from .moves import submit_actions

if TYPE_CHECKING:
    from ...host import GameRow, Host, Roster

log = logging.getLogger(__name__)

KIND = "crimecity"
PAGE_SIZE = 25  # Discord's limit of options in one select menu
MAX_VALUE = 100  # ... and of an option's value and label
KINDS = {"move": "Movement", "converse": "Converse", "ability": "Own ability", "friend": "A friend's ability"}
PARTS = ("kind", "act", "prev", "next", "clear", "go", "buy", "guess")
NEW_PANEL = "Open a new one with /crimecity panel."
TEMPLATE = re.compile(rf"cc:panel:(?P<game>[0-9]+):(?P<nonce>[0-9a-f]{{12}}):(?P<part>{'|'.join(PARTS)})")


@dataclass(frozen=True, slots=True)
class PanelOption:
    label: str
    value: str
    default: bool = False


@dataclass(frozen=True, slots=True)
class PanelScreen:
    """Everything the Discord view shows: no Discord types, so it is easy to test and to build."""

    game_id: int
    nonce: str
    text: str
    kinds: list[PanelOption] = field(default_factory=list)
    options: list[PanelOption] = field(default_factory=list)
    placeholder: str = ""
    page: int = 0
    pages: int = 1
    can_submit: bool = False
    guesses: bool = False  # the seat may guess (the Mob Boss): offer the guess form too


async def open_panel(host: Host, caller: Caller, game_opt: str | None) -> PanelScreen:
    turn = await host.play.turn(caller, KIND, game_opt)
    if turn is None:
        seated = await host.finder.seated(caller, KIND, game_opt)  # says why: no game, no seat, ...
        del seated
        raise UserError("The panel is for rounds: no round is open for submissions in this game.")
    if turn.game.pending is None or turn.game.pending.decision != ROUND:
        raise UserError("The panel is for rounds: no round is open for submissions in this game.")
    data = {"kind": None, "page": 0, "picks": []}
    row = await host.panels.open(turn.game, caller.user_id, data)
    deadline = (await host.reports.clock_of(turn.game)).deadline_at
    return _screen(turn.game, turn.roster, turn.seat, turn.state, row.nonce, data, turn.mine, deadline)


async def panel_click(
    host: Host, caller: Caller, game_id: int, nonce: str, part: str, values: list[str]
) -> PanelScreen:
    """One click on a panel, checked against the current game and the caller first."""
    panel = await host.panels.get(
        caller, game_id, nonce, reopen=NEW_PANEL, resolved="This panel was for a round that has been resolved."
    )
    game, roster, seat = panel.game, panel.roster, panel.seat
    state = host.states.get(host.presentations[KIND].game, game)
    data = dict(panel.row.data)
    kind, page, picks = data.get("kind"), int(data.get("page", 0)), list(data.get("picks", []))
    note = ""
    if part == "kind" and values:
        kind, page = values[0], 0
    elif part == "act" and values:
        offered = {o.value for _k, o in _pool(state, roster, seat, picks)[1]}
        if values[0] not in offered:
            raise UserError("That action is not on offer any more; pick again from the menu.")
        picks = [values[0]] if not picks else [picks[0], values[0]]
    elif part == "prev":
        page = max(0, page - 1)
    elif part == "next":
        page += 1
    elif part == "clear":
        kind, page, picks = None, 0, []
    elif part == "go":
        if not picks:
            raise UserError("Pick your actions in the menus first.")
        # By game id, as from a DM: the panel names its game, whatever channel it is clicked in.
        by_id = replace(caller, guild_id=None, channel_id=None)
        played = await submit_actions(host, by_id, picks[0], picks[1] if len(picks) > 1 else None, str(game_id))
        shown = ", ".join(
            f"`{format_action(Action.from_json(a), played.turn.roster.name_of)}`" for a in played.move["actions"]
        )
        rnd = played.turn.state.game.round
        note = f"Round {rnd} actions recorded: {shown}. You can change them until the round resolves."
        kind, page, picks = None, 0, []
    data = {"kind": kind, "page": page, "picks": picks}
    await host.panels.save(nonce, data)
    mine = await host.play.collected_move(game, seat)
    deadline = (await host.reports.clock_of(game)).deadline_at
    return _screen(game, roster, seat, state, nonce, data, mine, deadline, note=note)


def _pool(state: Any, roster: Roster, seat: str, picks: list[str]) -> tuple[list[str], list[tuple[str, PanelOption]]]:
    """(the picks still readable, what may be picked next as (kind, option))."""
    game = state.game
    parsed: list[Action] = []
    kept: list[str] = []
    for text in picks:
        try:
            parsed.append(parse_action(text, roster.lookup))
            kept.append(text)
        except ParseError:
            break  # a renamed player, say: drop this pick and what follows
    pool = legal_actions(game, seat) if not parsed else legal_seconds(game, seat, parsed[0])
    options = []
    for action in pool:
        value = format_action(action, roster.ref_of)  # a choice carries ids, not names
        if len(value) <= MAX_VALUE:
            label = clip(describe_action(game, seat, action, roster.name_of), MAX_VALUE)
            options.append((action.kind, PanelOption(label, value)))
    return kept, options


def _screen(
    game: GameRow,
    roster: Roster,
    seat: str,
    state: Any,
    nonce: str,
    data: dict[str, Any],
    mine: dict[str, Any] | None,
    deadline: float | None,
    *,
    note: str = "",
) -> PanelScreen:
    picks, pool = _pool(state, roster, seat, list(data.get("picks", [])))
    by_kind: dict[str, list[PanelOption]] = {k: [] for k in KINDS}
    for action_kind, option in pool:
        by_kind[action_kind].append(option)
    present = [k for k in KINDS if by_kind[k]]
    kind = data.get("kind") if data.get("kind") in present else (present[0] if present else None)
    chosen = by_kind.get(kind or "", [])
    pages = max(1, -(-len(chosen) // PAGE_SIZE))
    page = min(max(int(data.get("page", 0)), 0), pages - 1)
    lines = [f"**Crime City — your panel for Round {state.game.round}**"]
    if deadline is not None:
        lines[0] += f" (deadline {timestamp(deadline)})"
    if note:
        lines.append(f"✅ {note}")
    if mine is not None and mine.get("actions") is not None:
        recorded = ", ".join(f"`{format_action(Action.from_json(a), roster.name_of)}`" for a in mine["actions"])
        lines.append(f"Recorded now: {recorded}")
    else:
        lines.append("Recorded now: nothing yet.")
    first = f"`{picks[0]}`" if picks else "—"
    second = f"`{picks[1]}`" if len(picks) > 1 else "—"
    lines.append(f"Your picks: 1. {first} · 2. {second}")
    if not picks:
        placeholder = "Your first action"
        lines.append("Choose a kind, then an action; then your second action, and Submit.")
    elif not pool:
        placeholder = "No second action fits"
        lines.append("No second action can go with this one: Submit it alone, or Clear to start again.")
    else:
        placeholder = "Your second action" if len(picks) == 1 else "Change your second action"
        lines.append("Now your second action (or Clear to start again), then Submit.")
    if pages > 1:
        placeholder += f" (page {page + 1}/{pages})"
    kinds = [PanelOption(f"{KINDS[k]} ({len(by_kind[k])})", k, default=k == kind) for k in present]
    return PanelScreen(
        game_id=game.id,
        nonce=nonce,
        text="\n".join(lines),
        kinds=kinds,
        options=chosen[page * PAGE_SIZE : (page + 1) * PAGE_SIZE],
        placeholder=placeholder,
        page=page,
        pages=pages,
        can_submit=bool(picks),
        guesses=GAME.view(state, seat).get("seat", {}).get("role") == Role.MOB_BOSS.value,
    )


# ---- the Discord side --------------------------------------------------------------------------------


def custom_id(screen: PanelScreen, part: str) -> str:
    return f"cc:panel:{screen.game_id}:{screen.nonce}:{part}"


class PanelControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """One select or button of a panel; all the state it needs is in its custom id's match."""

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
        host = interaction.client.host  # type: ignore[attr-defined]
        values = [str(v) for v in (interaction.data or {}).get("values", [])]  # type: ignore[union-attr]
        caller = Caller.from_interaction(interaction)
        if self.part in ("buy", "guess"):  # another form, in a message of its own
            await _open_other_form(interaction, host, caller, self)
            return
        try:
            screen = await panel_click(host, caller, self.game_id, self.nonce, self.part, values)
        except Exception as error:
            message = user_message(error)
            if message is None:
                log.error("panel click failed (interaction %s)", interaction.id, exc_info=error)
                message = APOLOGY
            await send_ephemeral(interaction, message)
            return
        await interaction.response.edit_message(content=screen.text, embed=None, view=panel_view(screen))


async def _open_other_form(interaction: discord.Interaction, host: Host, caller: Caller, control: PanelControl) -> None:
    try:
        await host.panels.get(caller, control.game_id, control.nonce, reopen=NEW_PANEL)
        if control.part == "buy":
            from .forms import open_form

            reply = await open_form(host, caller, control.game_id, {"form": "buy", "a": None, "b": None, "points": 1})
        else:
            from .guess import open_guess

            reply = await open_guess(host, caller, control.game_id)
    except Exception as error:
        message = user_message(error)
        if message is None:
            log.error("panel click failed (interaction %s)", interaction.id, exc_info=error)
            message = APOLOGY
        await send_ephemeral(interaction, message)
        return
    kwargs: dict[str, Any] = {"ephemeral": True, "view": reply.view}
    if reply.text:
        kwargs["content"] = reply.text
    await interaction.response.send_message(**kwargs)


def _options(options: list[PanelOption]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=o.label, value=o.value, default=o.default) for o in options]


def panel_view(screen: PanelScreen) -> discord.ui.View:
    """Row 0: the kind of action; row 1: the actions of that kind (one page); row 2: the buttons."""
    view = discord.ui.View(timeout=None)

    def add(item: discord.ui.Item[Any], part: str) -> None:
        view.add_item(PanelControl(item, screen.game_id, screen.nonce, part))

    if screen.kinds:
        kinds = discord.ui.Select(
            custom_id=custom_id(screen, "kind"), placeholder="Kind of action", options=_options(screen.kinds), row=0
        )
        add(kinds, "kind")
    if screen.options:
        acts = discord.ui.Select(
            custom_id=custom_id(screen, "act"), placeholder=screen.placeholder, options=_options(screen.options), row=1
        )
        add(acts, "act")
    if screen.pages > 1:
        prev = discord.ui.Button(label="◀ Prev", custom_id=custom_id(screen, "prev"), disabled=screen.page == 0, row=2)
        add(prev, "prev")
        nxt = discord.ui.Button(
            label="Next ▶", custom_id=custom_id(screen, "next"), disabled=screen.page >= screen.pages - 1, row=2
        )
        add(nxt, "next")
    add(discord.ui.Button(label="Clear", custom_id=custom_id(screen, "clear"), row=2), "clear")
    submit = discord.ui.Button(
        label="Submit",
        style=discord.ButtonStyle.success,
        custom_id=custom_id(screen, "go"),
        disabled=not screen.can_submit,
        row=2,
    )
    add(submit, "go")
    add(discord.ui.Button(label="Buy friendship…", custom_id=custom_id(screen, "buy"), row=3), "buy")
    if screen.guesses:
        add(discord.ui.Button(label="Guess the roles…", custom_id=custom_id(screen, "guess"), row=3), "guess")
    return view
