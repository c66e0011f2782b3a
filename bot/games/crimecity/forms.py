"""Crime City played with clicks: the forms behind the host's Submit button and `/crimecity draft`.

- the draft: the roles, then the characters, a pick at a time (the ranking shown as it grows), the bid in
  a modal, then Submit (the rest of each ranking follows in the rule book's order, as typed drafts do);
- a friendship purchase: two characters and the points, with the cost shown;
- the EC: the candidates in a menu, for the players the results ask.
The Mob Boss's guess has its own form (`guess.py`); the round's actions are the panel (`panel.py`).

Each form is a panel row of the host (`host.panels`): its components carry only
`cc:form:<game>:<nonce>:<part>`, and what was picked lives in the row, so forms survive a restart. What
is offered comes from the rules (the free roles and characters, the candidates); the move goes through
the same path as the typed command, so the same checks and messages apply.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from rules.crimecity import CHARACTERS
from rules.crimecity.game import DRAFT, EC, GAME, ROUND
from rules.crimecity.ids import ROLES, Character, Role
from rules.crimecity.validate import BUY_COST

from ...host import APOLOGY, Caller, Reply, UserError, send_ephemeral, user_message
from . import moves
from .texts import char_title, role_title

if TYPE_CHECKING:
    from ...host import Host

log = logging.getLogger(__name__)

KIND = "crimecity"
PARTS = ("role", "char", "undo", "clear", "rest", "bid", "go", "a", "b", "points", "buy", "ec")
TEMPLATE = re.compile(rf"cc:form:(?P<game>[0-9]+):(?P<nonce>[0-9a-f]{{12}}):(?P<part>{'|'.join(PARTS)})")
NEW_FORM = "Open a new one with the Submit button or /crimecity panel."


async def submit_form(host: Host, caller: Caller, game_id: int) -> Reply:
    """What the Submit button opens: the form for the decision that awaits the caller now."""
    by_id = replace(caller, guild_id=None, channel_id=None)  # the button names its game
    turn = await host.play.turn(by_id, KIND, str(game_id))
    if turn is None or turn.game.pending is None:
        raise UserError("Nothing is waiting for you in this game right now.")
    decision = turn.game.pending.decision
    if decision == DRAFT:
        return await open_draft(host, caller, game_id)
    if decision == ROUND:
        from .panel import open_panel, panel_view

        screen = await open_panel(host, by_id, str(game_id))
        return Reply(screen.text, panel_view(screen))
    if decision == EC:
        return await open_form(host, caller, game_id, {"form": "ec"})
    raise UserError("Nothing is waiting for you in this game right now.")


async def open_draft(host: Host, caller: Caller, game_id: int) -> Reply:
    return await open_form(host, caller, game_id, {"form": "draft", "roles": [], "chars": [], "bid": 0})


async def open_form(host: Host, caller: Caller, game_id: int, data: dict[str, Any]) -> Reply:
    by_id = replace(caller, guild_id=None, channel_id=None)
    turn = await host.play.turn(by_id, KIND, str(game_id))
    if turn is None:
        raise UserError("Nothing is waiting for you in this game right now.")
    row = await host.panels.open(turn.game, caller.user_id, data)
    return screen(turn.game.id, row.nonce, data, GAME.view(turn.state, turn.seat), turn)


async def click(
    host: Host, caller: Caller, game_id: int, nonce: str, part: str, values: list[str], text: str | None = None
) -> Reply:
    """One click (or the bid modal's submission) on a form, checked by the host first."""
    panel = await host.panels.get(caller, game_id, nonce, reopen=NEW_FORM)
    data = dict(panel.row.data)
    by_id = replace(caller, guild_id=None, channel_id=None)
    turn = await host.play.turn(by_id, KIND, str(game_id))
    if turn is None:
        raise UserError(f"This form's decision is over. {NEW_FORM}")
    view = GAME.view(turn.state, turn.seat)
    note = ""
    form = data.get("form")
    if form == "draft":
        note = await _draft(host, by_id, game_id, data, part, values, text, view)
    elif form == "buy":
        note = await _buy(host, by_id, game_id, data, part, values)
    elif form == "ec":
        if part == "ec" and values:
            target = panel.roster.player(values[0])
            if target is None:
                raise UserError("That player is no longer in the game.")
            from ...host import Member
            from .reports import choose_ec

            chosen = (
                target.seat if target.user_id is None else Member(target.user_id, target.user_name, target.display_name)
            )
            note = await choose_ec(host, by_id, chosen, str(game_id))
    await host.panels.save(nonce, data)
    turn = await host.play.turn(by_id, KIND, str(game_id)) or turn
    return screen(game_id, nonce, data, GAME.view(turn.state, turn.seat), turn, note=note)


async def _draft(
    host: Host,
    caller: Caller,
    game_id: int,
    data: dict[str, Any],
    part: str,
    values: list[str],
    text: str | None,
    view: dict[str, Any],
) -> str:
    roles, chars = list(data.get("roles", [])), list(data.get("chars", []))
    if part == "role" and values and values[0] not in roles and len(roles) < len(ROLES):
        roles.append(Role(values[0]).value)
    elif part == "char" and values and values[0] not in chars and len(chars) < len(CHARACTERS):
        chars.append(Character(values[0]).value)
    elif part == "undo":
        if chars:
            chars.pop()
        elif roles:
            roles.pop()
    elif part == "clear":
        roles, chars = [], []
    elif part == "rest":
        if len(roles) < len(ROLES):
            roles += [r.value for r in ROLES if r.value not in roles]
        else:
            chars += [c.value for c in CHARACTERS if c.value not in chars]
    elif part == "bid" and text is not None:
        bid = text.strip()
        if not (bid.isascii() and bid.isdigit()) or len(bid) > 9:
            raise UserError("A bid is a whole number of garnets, 0 or more.")
        data["bid"] = int(bid)
    data["roles"], data["chars"] = roles, chars
    if part != "go":
        return ""
    sub, _played = await moves.submit_draft(
        host,
        caller,
        bid=int(data.get("bid", 0)),
        roles=", ".join(roles) or None,
        characters=", ".join(chars) or None,
        game_opt=str(game_id),
    )
    return draft_recorded(sub, view.get("garnets", 0))


def draft_recorded(sub: Any, balance: int) -> str:
    """The same confirmation as `/crimecity draft` gives, with the full ranking."""
    return (
        f"Draft submission recorded: bid **{sub.bid}** of your {balance} garnets.\n"
        "Roles: " + ", ".join(f"{i}. {role_title(r.value)}" for i, r in enumerate(sub.roles, 1)) + "\n"
        "Characters: " + ", ".join(f"{i}. {char_title(c.value)}" for i, c in enumerate(sub.characters, 1)) + "\n"
        "You can replace it until the draft resolves."
    )


async def _buy(host: Host, caller: Caller, game_id: int, data: dict[str, Any], part: str, values: list[str]) -> str:
    if part in ("a", "b") and values:
        data[part] = Character(values[0]).value
    elif part == "points" and values:
        data["points"] = max(0, min(moves.MAX_POINTS, int(values[0])))
    elif part == "buy":
        if not data.get("a") or not data.get("b"):
            raise UserError("Pick the two characters of the friendship first.")
        buys, balance = await moves.buy_friendship(
            host, caller, data["a"], data["b"], int(data.get("points", 1)), str(game_id)
        )
        if not buys:
            return "No friendship purchases recorded for this round."
        listed = ", ".join(f"{char_title(x)} + {char_title(y)}" for x, y in buys)
        return f"Purchases for this round: {listed} — {BUY_COST * len(buys)} of your {balance} garnets."
    return ""


# ---- what the forms show ---------------------------------------------------------------------------


def screen(game_id: int, nonce: str, data: dict[str, Any], view: dict[str, Any], turn: Any, *, note: str = "") -> Reply:
    form = data.get("form")
    if form == "draft":
        return _draft_screen(game_id, nonce, data, view, note)
    if form == "buy":
        return _buy_screen(game_id, nonce, data, view, turn, note)
    return _ec_screen(game_id, nonce, turn, note)


def _draft_screen(game_id: int, nonce: str, data: dict[str, Any], view: dict[str, Any], note: str) -> Reply:
    roles, chars, bid = data.get("roles", []), data.get("chars", []), int(data.get("bid", 0))
    lines = ["**Crime City — your draft**"]
    if note:
        lines.append(f"✅ {note}")
    lines.append(f"Bid: **{bid}** of your {view.get('garnets', 0)} garnets (paid when the draft resolves).")
    lines.append("Roles: " + (", ".join(f"{i}. {role_title(r)}" for i, r in enumerate(roles, 1)) or "—"))
    lines.append("Characters: " + (", ".join(f"{i}. {char_title(c)}" for i, c in enumerate(chars, 1)) or "—"))
    lines.append("Pick your choices in order; what you leave out follows in the rule book's order. Then Submit.")
    items: list[discord.ui.Item[Any]] = []
    if len(roles) < len(ROLES):
        options = [
            discord.SelectOption(label=role_title(r.value), value=r.value) for r in ROLES if r.value not in roles
        ]
        items.append(_select(game_id, nonce, "role", f"Your choice of role #{len(roles) + 1}", options, row=0))
    elif len(chars) < len(CHARACTERS):
        options = [
            discord.SelectOption(label=char_title(c.value), value=c.value) for c in CHARACTERS if c.value not in chars
        ]
        items.append(_select(game_id, nonce, "char", f"Your choice of character #{len(chars) + 1}", options, row=0))
    for part, label, style in (
        ("undo", "Undo", discord.ButtonStyle.secondary),
        ("clear", "Clear", discord.ButtonStyle.secondary),
        ("rest", "Rest in the book's order", discord.ButtonStyle.secondary),
        ("bid", "Bid…", discord.ButtonStyle.primary),
        ("go", "Submit draft", discord.ButtonStyle.success),
    ):
        items.append(_button(game_id, nonce, part, label, style, row=1))
    return Reply("\n".join(lines), _view(items))


def _buy_screen(game_id: int, nonce: str, data: dict[str, Any], view: dict[str, Any], turn: Any, note: str) -> Reply:
    a, b, points = data.get("a"), data.get("b"), int(data.get("points", 1))
    mine = turn.mine or {}
    bought = mine.get("buy") or []
    lines = ["**Crime City — buy friendship points** (3 garnets a point; they apply when the round resolves)"]
    if note:
        lines.append(f"✅ {note}")
    lines.append(f"Your garnets: {view.get('garnets', 0)}")
    lines.append(
        "Bought this round: "
        + (", ".join(f"{char_title(x)} + {char_title(y)}" for x, y in bought) or "nothing")
        + (f" ({BUY_COST * len(bought)} garnets)" if bought else "")
    )
    pair = f"{char_title(a) if a else '?'} + {char_title(b) if b else '?'}"
    lines.append(f"Now: {pair}, {points} point(s) = **{BUY_COST * points} garnets** (0 cancels this pair).")
    chars = [c for c in CHARACTERS if c.value in _living(view)]
    items: list[discord.ui.Item[Any]] = [
        _select(game_id, nonce, "a", "First character", _char_options(chars, a), row=0),
        _select(game_id, nonce, "b", "Second character", _char_options(chars, b), row=1),
        _select(
            game_id,
            nonce,
            "points",
            "Points",
            [
                discord.SelectOption(
                    label=f"{n} point{'s' if n != 1 else ''} ({BUY_COST * n} garnets)",
                    value=str(n),
                    default=n == points,
                )
                for n in range(0, 11)
            ],
            row=2,
        ),
        _button(game_id, nonce, "buy", f"Buy ({BUY_COST * points} garnets)", discord.ButtonStyle.success, row=3),
    ]
    return Reply("\n".join(lines), _view(items))


def _ec_screen(game_id: int, nonce: str, turn: Any, note: str) -> Reply:
    results = (turn.state.results or {}).get("ec_pending") or {}
    roster = turn.roster
    lines = ["**Crime City — choose the EC**"]
    if note:
        lines.append(f"✅ {note}")
    candidates = results.get("candidates") or []
    lines.append("Candidates: " + ", ".join(roster.name_of(s) for s in candidates))
    if results.get("unanimous"):
        lines.append("All deciders must agree (rule R88).")
    options = [discord.SelectOption(label=roster.name_of(s)[:100], value=s) for s in candidates]
    items = [_select(game_id, nonce, "ec", "Your choice of EC", options, row=0)] if options else []
    return Reply("\n".join(lines), _view(items))


def _living(view: dict[str, Any]) -> set[str]:
    return {c for names in (view.get("board") or {}).values() for c in names}


def _char_options(chars: list[Character], chosen: str | None) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=char_title(c.value), value=c.value, default=c.value == chosen) for c in chars]


def custom_id(game_id: int, nonce: str, part: str) -> str:
    return f"cc:form:{game_id}:{nonce}:{part}"


def _select(
    game_id: int, nonce: str, part: str, placeholder: str, options: list[discord.SelectOption], *, row: int
) -> discord.ui.Item[Any]:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id(game_id, nonce, part), placeholder=placeholder, options=options, row=row
    )
    return FormControl(select, game_id, nonce, part)


def _button(
    game_id: int, nonce: str, part: str, label: str, style: discord.ButtonStyle, *, row: int
) -> discord.ui.Item[Any]:
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=label, style=style, custom_id=custom_id(game_id, nonce, part), row=row
    )
    return FormControl(button, game_id, nonce, part)


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


BID_PREFIX = "cc:bid:"
BID_ID = re.compile(r"cc:bid:(?P<game>[0-9]+):(?P<nonce>[0-9a-f]{12})")
BID_INPUT = "bid"


class BidModal(discord.ui.Modal, title="Your bid for the draft"):
    """The bid, typed. Its submission is read by its custom id (`submit_bid`), not by this object, which the
    bot forgets once it is shown: so a bid sent after a restart, or sent twice, is still read."""

    def __init__(self, game_id: int, nonce: str) -> None:
        super().__init__(custom_id=f"{BID_PREFIX}{game_id}:{nonce}", timeout=None)
        self.bid: discord.ui.TextInput[BidModal] = discord.ui.TextInput(
            label="Garnets you bid (paid at the draft)", placeholder="0", max_length=9, required=True,
            custom_id=BID_INPUT,
        )
        self.add_item(self.bid)


async def submit_bid(interaction: discord.Interaction) -> None:
    data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
    match = BID_ID.fullmatch(str(data.get("custom_id", "")))
    text = _input_value(data.get("components", []), BID_INPUT)
    if match is None or text is None:
        await send_ephemeral(interaction, "That form is not one this bot can read; open the draft form again.")
        return
    await _answer_click(interaction, int(match["game"]), match["nonce"], "bid", [], text)


def _input_value(components: Any, custom_id: str) -> str | None:
    """A text input's value in a modal submission (in an action row, or in a label of Components V2)."""
    stack = list(components) if isinstance(components, list) else []
    while stack:
        item = stack.pop()
        if not isinstance(item, dict):
            continue
        if item.get("custom_id") == custom_id and isinstance(item.get("value"), str):
            return str(item["value"])
        stack.extend(item.get("components") or [])
        if isinstance(item.get("component"), dict):
            stack.append(item["component"])
    return None


class FormControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    def __init__(self, item: discord.ui.Item[Any], game_id: int, nonce: str, part: str) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.nonce = nonce
        self.part = part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormControl:
        return cls(item, int(match["game"]), match["nonce"], match["part"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.part == "bid":
            modal = BidModal(self.game_id, self.nonce)
            await interaction.response.send_modal(modal)
            modal.stop()  # its submission comes through submit_bid, by its id
            return
        values = [str(v) for v in (interaction.data or {}).get("values", [])]  # type: ignore[union-attr]
        await _answer_click(interaction, self.game_id, self.nonce, self.part, values, None)


async def _answer_click(
    interaction: discord.Interaction, game_id: int, nonce: str, part: str, values: list[str], text: str | None
) -> None:
    # discord.py only logs a dynamic item's exceptions, so every outcome is answered here.
    host = interaction.client.host  # type: ignore[attr-defined]
    try:
        reply = await click(host, Caller.from_interaction(interaction), game_id, nonce, part, values, text)
    except Exception as error:
        message = user_message(error)
        if message is None:
            log.error("form click failed (interaction %s)", interaction.id, exc_info=error)
            message = APOLOGY
        await send_ephemeral(interaction, message)
        return
    await interaction.response.edit_message(content=reply.text[:2000], embed=None, view=reply.view)
