"""`/organizedcrime panel`: the caller's options now, as menus and buttons (commands.md "The panel").

Components are persistent `DynamicItem`s with custom ids `oc:panel:<game>:<nonce>:<part>`: no card,
piece or choice in them, only a random nonce. What the panel offers (the actions behind each menu
entry and button, built from `rules.organizedcrime.legal`) lives in the host's panel row; a menu
value is its entry's action in commands.md's notation (`step o04`, `cash PW17`: the caller's own cards
only, in his ephemeral panel), and labels name cards by title. Every click is checked again (whose
panel, which decision), and the action goes through `moves.play` like a command.

Layout: row 1 the main list (25 a page), row 2 a second list when the action needs one more choice
(direction and attack for a declaration), rows 3-4 buttons for single actions, row 5 paging and Refresh.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import discord

from ...host import APOLOGY, Caller, NotAllowed, Stale, UserError, clip, send_ephemeral, user_message
from . import choices
from . import names as n
from .events import DECISIONS, turn_heading
from .moves import Context, context, play
from .notation import describe, write
from .prompts import deadline_words, what_to_do
from .public import public_view
from .replies import receipt

if TYPE_CHECKING:
    from ...host import Host

log = logging.getLogger(__name__)

PAGE = 25
GIFTS = (10000, 20000, 50000, 100000, 200000, 500000)  # money gifts offered in the panel (commands take any)
BUTTONS = {  # part -> (label, the action it stands for, style)
    "roll": ("Roll", {"act": "roll"}, discord.ButtonStyle.primary),
    "pass": ("Pass", {"act": "pass"}, discord.ButtonStyle.danger),
    "income": ("Income", {"act": "income"}, discord.ButtonStyle.success),
    "power": ("Buy Power card", {"act": "buy_power"}, discord.ButtonStyle.secondary),
    "stop": ("Stop", {"act": "stop"}, discord.ButtonStyle.danger),
    "callvote": ("Call vote", {"act": "call_vote"}, discord.ButtonStyle.primary),
    "place": ("Place", {"act": "place"}, discord.ButtonStyle.success),
    "adjourn": ("Adjourn", {"act": "adjourn"}, discord.ButtonStyle.danger),
    "penalty": ("Call penalty", {"act": "penalty"}, discord.ButtonStyle.danger),
    "nopenalty": ("Decline", {"act": "no_penalty"}, discord.ButtonStyle.secondary),
    "abstain": ("Abstain", {"act": "vote", "side": "abstain"}, discord.ButtonStyle.secondary),
}
PARTS = ("main", "second", *BUTTONS, "prev", "next", "refresh")
TEMPLATE = re.compile(rf"oc:panel:(?P<game>[0-9]+):(?P<nonce>[0-9a-f]{{12}}):(?P<part>{'|'.join(PARTS)})")
OPEN = re.compile(r"oc:open:(?P<game>[0-9]+)")
NEW = "Open a new one with /organizedcrime panel."


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: str
    default: bool = False


@dataclass(frozen=True, slots=True)
class Screen:
    """What the Discord view shows, with no Discord types (easy to test and to build)."""

    game_id: int
    nonce: str
    text: str
    main: list[Option] = field(default_factory=list)
    placeholder: str = ""
    second: list[Option] = field(default_factory=list)
    second_placeholder: str = ""
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (part, label)
    page: int = 0
    pages: int = 1


# ---- what the panel offers -----------------------------------------------------------------------------


def offers(ctx: Context) -> tuple[list[dict[str, Any]], list[str]]:
    """(the main list, the buttons) for the caller now, from the engine's legal list."""
    legal = choices.legal(ctx)
    buttons = [part for part, (_l, action, _s) in BUTTONS.items() if action in legal]
    main: list[dict[str, Any]] = []
    declared: list[str] = []
    for a in legal:
        act = a["act"]
        if act == "declare":
            if a["piece"] not in declared:
                declared.append(a["piece"])
        elif act in ("roll", "pass", "income", "buy_power", "stop", "call_vote", "place", "adjourn", "penalty",
                     "no_penalty") or (act == "vote" and a["side"] == "abstain"):
            continue
        elif act == "give" and "money" in a:
            if a["money"] in GIFTS or a["money"] == own_money(ctx):
                main.append(a)
        else:
            main.append(a)
    picks = [{"act": "pick", "piece": p} for p in declared]
    order = {"pick": 0, "move": 1, "base": 1, "step": 1, "rub": 1, "hit": 1, "vote": 1, "remove": 1, "acquire": 2,
             "meeting": 2, "cash": 3, "buy_official": 4, "give": 5, "buy_hitmen": 6}
    main = sorted(picks + main, key=lambda a: order.get(a["act"], 9))  # stable: legal order within a kind
    seen: set[str] = set()
    unique = []
    for a in main:  # a select's values must differ (Discord refuses repeats)
        v = value(a, ctx)
        if v not in seen:
            seen.add(v)
            unique.append(a)
    return unique, buttons


def value(a: dict[str, Any], ctx: Context) -> str:
    """A menu entry's value: the action in commands.md's notation ("Writing an action"); a mover chosen for a
    declaration, before its direction, is `declare green:1`."""
    if a["act"] == "pick":
        return f"declare {ctx.names.piece(a['piece'])}"
    return write(a, ctx.names)[:100]


def own_money(ctx: Context) -> int:
    return int(public_view(ctx.state)["players"][ctx.seat]["money"])


def label(a: dict[str, Any], ctx: Context, public: dict[str, Any]) -> str:
    if a["act"] == "pick":
        where = choices.where_is(ctx, a["piece"])
        boss = " (Boss)" if n.number(a["piece"]) == 0 else ""
        return f"Declare {ctx.names.piece(a['piece'])}{boss} on {where}…"
    if a["act"] == "buy_hitmen":
        return describe(a, ctx.names)
    return describe(a, ctx.names, public, ids=False)


def screen(ctx: Context, nonce: str, data: dict[str, Any], deadline_at: float | None, note: str = "") -> tuple[
        Screen, dict[str, Any]]:
    """The panel as shown, and the row data to keep (the actions behind its entries)."""
    game = ctx.turn.game
    public = public_view(ctx.state)
    main, buttons = offers(ctx)
    pages = max(1, -(-len(main) // PAGE))
    page = min(max(int(data.get("page", 0)), 0), pages - 1)
    shown = main[page * PAGE:(page + 1) * PAGE]
    pick = data.get("pick")
    second: list[dict[str, Any]] = []
    if pick is not None:
        second = choices.of(ctx, "declare", lambda a: a["piece"] == pick)
    pending = game.pending
    decision = pending.decision if pending is not None else "over"
    head = DECISIONS.get(decision, decision)
    if public.get("turn"):
        head = f"{turn_heading(public['turn'], public['round'], public.get('active'), ctx.names)} · now: {head}"
    path = (public.get("turn_state") or {}).get("path")
    if decision == "path" and path:
        head += f" (count {path['used']} of {path['share']})"
    lines = [f"**Organized Crime — your panel** · {head}"]
    if note:
        lines.append(note)
    if pending is not None and ctx.seat in pending.awaited:
        sealed = game.settings.get("ballots") == "sealed"
        lines.append(f"➡ {what_to_do(public, ctx.seat, decision, ctx.names, sealed=sealed)}")
        lines.append(deadline_words(deadline_at, game.paused))
    elif main or buttons:
        lines.append("You may act while this meeting is open (gifts, cashing).")
    else:
        waiting = ", ".join(ctx.names.full(s) for s in (pending.awaited if pending else ()))
        lines.append(f"Nothing for you to do now{': waiting for ' + waiting if waiting else ''}. Refresh later.")
    if pick is not None:
        lines.append(f"Now choose the direction (and any attack) for {ctx.names.piece(pick)}.")
    view = Screen(
        game_id=game.id,
        nonce=nonce,
        text=clip("\n".join(lines), 2000),
        main=[Option(clip(label(a, ctx, public), 100), value(a, ctx)) for a in shown],
        placeholder=f"Choose… ({len(main)} option{'s' if len(main) != 1 else ''}"
                    + (f", page {page + 1}/{pages})" if pages > 1 else ")"),
        second=[Option(clip(describe(a, ctx.names), 100), value(a, ctx)) for a in second[:PAGE]],
        second_placeholder="Direction and attack",
        buttons=[(part, BUTTONS[part][0]) for part in buttons][:10],
        page=page,
        pages=pages,
    )
    kept = {"page": page, "pick": pick, "main": shown, "second": second[:PAGE],
            "values": [value(a, ctx) for a in shown], "second_values": [value(a, ctx) for a in second[:PAGE]],
            "buttons": {part: BUTTONS[part][1] for part in buttons}}
    return view, kept


# ---- opening and clicking ----------------------------------------------------------------------------------


MOVED_ON = "This panel was for an earlier moment of the game; here is what you can do now."


def by_id(caller: Caller) -> Caller:
    return replace(caller, guild_id=None, channel_id=None)


async def open_panel(host: Host, caller: Caller, game_opt: str | None, note: str = "") -> Screen:
    ctx = await context(host, caller, game_opt)
    return await _fresh(host, caller, ctx, {"page": 0, "pick": None}, note)


async def _fresh(host: Host, caller: Caller, ctx: Context, data: dict[str, Any], note: str) -> Screen:
    deadline = (await host.reports.clock_of(ctx.turn.game)).deadline_at
    shown, kept = screen(ctx, "0" * 12, data, deadline, note)
    row = await host.panels.open(ctx.turn.game, caller.user_id, kept)
    return replace(shown, nonce=row.nonce)


async def click(host: Host, caller: Caller, game_id: int, nonce: str, part: str, values: list[str]) -> Screen:
    """One click, checked against the caller and the open decision first."""
    who = by_id(caller)
    try:
        panel = await host.panels.get(caller, game_id, nonce, reopen=NEW, any_step=True)
    except NotAllowed:
        raise
    except Stale:
        # The game ended (or a newer panel exists): show what the caller can do now instead.
        return await open_panel(host, who, str(game_id), MOVED_ON)
    data = dict(panel.row.data)
    ctx = await context(host, who, str(game_id))
    moved_on = ctx.turn.game.step != panel.row.step
    action: dict[str, Any] | None = None
    if part == "main" and values:
        action = _at(data.get("main"), data.get("values"), values[0])
        if action is not None and action["act"] == "pick":
            data["pick"], action = action["piece"], None
    elif part == "second" and values:
        action = _at(data.get("second"), data.get("second_values"), values[0])
    elif part in BUTTONS:
        action = (data.get("buttons") or {}).get(part)
        if action is None:
            raise UserError("That button is not on offer any more; here is the panel again.")
    elif part == "prev":
        data["page"] = max(0, int(data.get("page", 0)) - 1)
    elif part == "next":
        data["page"] = int(data.get("page", 0)) + 1
    if moved_on and (action is None or action not in choices.legal(ctx)):
        # commands.md: "every click is checked again against the caller and the current decision". Another
        # seat's answer (a sealed ballot, a penalty window) makes a new step of the same decision: a choice
        # still open to the caller stands; anything else shows what the caller can do now.
        return await open_panel(host, who, str(game_id), MOVED_ON)
    note = ""
    if action is not None:
        played = await play(host, who, ctx, [action], str(game_id))
        note = "✅ " + receipt(ctx, played, what_next=False)
        data = {"page": 0, "pick": None}
        ctx = await context(host, who, str(game_id))
        if ctx.turn.game.step != panel.row.step:
            return await _fresh(host, who, ctx, data, note)
    deadline = (await host.reports.clock_of(ctx.turn.game)).deadline_at
    shown, kept = screen(ctx, nonce, data, deadline, note)
    await host.panels.save(nonce, kept)
    return shown


def _at(items: Any, values: Any, picked: str) -> dict[str, Any] | None:
    """The entry behind a menu value (its notation; a panel kept from before values were notation gives an
    index instead)."""
    if isinstance(values, list) and picked in values:
        index = values.index(picked)
    elif values is None and picked.isdigit():
        index = int(picked)
    else:
        index = -1
    if not isinstance(items, list) or not 0 <= index < len(items):
        raise UserError("That choice is not on offer any more; pick again from the menu.")
    return dict(items[index])


# ---- the Discord side ------------------------------------------------------------------------------------


def custom_id(s: Screen, part: str) -> str:
    return f"oc:panel:{s.game_id}:{s.nonce}:{part}"


async def _answer_error(interaction: discord.Interaction, error: Exception) -> None:
    message = user_message(error)
    if message is None:
        log.error("panel click failed (interaction %s)", interaction.id, exc_info=error)
        message = APOLOGY
    await send_ephemeral(interaction, message)


class PanelControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """One select or button of a panel; all it needs is in its custom id's match."""

    def __init__(self, item: discord.ui.Item[Any], game_id: int, nonce: str, part: str) -> None:
        super().__init__(item)
        self.game_id, self.nonce, self.part = game_id, nonce, part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelControl:
        return cls(item, int(match["game"]), match["nonce"], match["part"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs a dynamic item's exceptions, so every outcome is answered here.
        host = interaction.client.host  # type: ignore[attr-defined]
        data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
        values = [str(v) for v in data.get("values", [])]
        try:
            s = await click(host, Caller.from_interaction(interaction), self.game_id, self.nonce, self.part, values)
        except Exception as error:
            await _answer_error(interaction, error)
            return
        await interaction.response.edit_message(content=s.text, embed=None, view=panel_view(s))


class OpenPanel(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OPEN):
    """"Panel" on a receipt: opens a fresh panel for that game (the custom id names only the game)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Panel", style=discord.ButtonStyle.secondary,
                                           custom_id=f"oc:open:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenPanel:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = interaction.client.host  # type: ignore[attr-defined]
        try:
            s = await open_panel(host, by_id(Caller.from_interaction(interaction)), str(self.game_id))
        except Exception as error:
            await _answer_error(interaction, error)
            return
        await interaction.response.send_message(s.text, view=panel_view(s), ephemeral=True)


def open_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanel(game_id))
    return view


def panel_view(s: Screen) -> discord.ui.View:
    view = discord.ui.View(timeout=None)

    def add(item: discord.ui.Item[Any], part: str) -> None:
        view.add_item(PanelControl(item, s.game_id, s.nonce, part))

    if s.main:
        opts = [discord.SelectOption(label=o.label, value=o.value) for o in s.main]
        add(discord.ui.Select(custom_id=custom_id(s, "main"), placeholder=s.placeholder[:150], options=opts, row=0),
            "main")
    if s.second:
        opts = [discord.SelectOption(label=o.label, value=o.value) for o in s.second]
        add(discord.ui.Select(custom_id=custom_id(s, "second"), placeholder=s.second_placeholder, options=opts,
                              row=1), "second")
    for i, (part, text) in enumerate(s.buttons):
        style = BUTTONS[part][2]
        add(discord.ui.Button(label=text, style=style, custom_id=custom_id(s, part), row=2 + i // 5), part)
    if s.pages > 1:
        add(discord.ui.Button(label="◀ Previous", custom_id=custom_id(s, "prev"), disabled=s.page == 0, row=4), "prev")
        add(discord.ui.Button(label="Next ▶", custom_id=custom_id(s, "next"), disabled=s.page >= s.pages - 1, row=4),
            "next")
    add(discord.ui.Button(label="Refresh", custom_id=custom_id(s, "refresh"), row=4), "refresh")
    return view
