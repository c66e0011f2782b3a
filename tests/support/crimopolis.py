"""Crimopolis end-to-end helpers over tests/fakediscord: a table of members, commands under `/crimopolis`, a
driver that plays legal moves (the rules' random player) by slash commands or by the panel's buttons, and the
secret scan of everything public against the hands and the deck and stack orders.

The driver reads the game's state from the database to choose its moves (as a player would read their screen);
assertions are made only on what members see.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.contract import Action, Event, NoChance
from rules.crimopolis import GAME
from rules.crimopolis.state import State

NAMES = ["ann", "ben", "cat", "dan", "eve"]
CARD = re.compile(r"\b[JNF]\d{2}\b")
TILE = re.compile(r"\bT\d{2}\b")


@dataclass
class CpTable:
    fd: Any
    guild: Any
    chan: Any
    host: Any
    players: dict[str, Any]
    db_path: Path
    bots: list[Any] = field(default_factory=list)
    autocompletes: list[tuple[str, str]] = field(default_factory=list)  # (who asked, a choice's name and value)
    settings: dict[str, Any] = field(default_factory=dict)  # Settings fields for the next start_bot()

    @property
    def bot(self) -> Any:
        return self.bots[-1]

    async def start_bot(self) -> Any:
        from bot import Settings, create_bot

        client = create_bot(self.db_path, Settings(**{"command_sync": "global", **self.settings}))
        self.fd.start(client)
        await self.fd.wait_ready()
        self.bots.append(client)
        return client

    async def stop_bot(self) -> None:
        client = self.bot
        await client.close()
        self.fd.detach(client)

    async def idle(self) -> None:
        await self.bot.wait_idle(timeout=10)
        await self.fd.settle(quiet=0.01)

    async def cmd(self, who: Any, command: str, *, dm: bool = False, **options: Any) -> Any:
        channel = self.fd.dm_channel(who) if dm else self.chan
        return await self.fd.slash(who, channel, f"crimopolis {command}", **options)

    async def ac(self, who: Any, command: str, focused: str, **options: Any) -> list[dict[str, Any]]:
        found = await self.fd.autocomplete(who, self.chan, f"crimopolis {command}", focused=focused, options=options)
        name = next((n for n, m in self.players.items() if m is who), "?")
        self.autocompletes += [(name, f"{c['name']} {c['value']}") for c in found]
        return found

    def posts(self) -> list[str]:
        return [m.text() for m in self.fd.channel_messages(self.chan)]

    def dm_texts(self, who: Any) -> list[str]:
        return [m.text() for m in self.fd.dms(who)]

    # ---- the game as the rules see it (for driving only) ----------------------------------------------

    async def game_row(self) -> Any:
        return await self.bot.db.fetchone("SELECT * FROM games ORDER BY id DESC LIMIT 1")

    async def state(self) -> State:
        row = await self.game_row()
        return GAME.decode_state(json.loads(row["state_json"]))

    async def seat_names(self) -> dict[str, str]:
        rows = await self.bot.db.fetchall(
            "SELECT seat, user_name FROM seats WHERE game_id = (SELECT MAX(id) FROM games)"
        )
        return {r["seat"]: r["user_name"] for r in rows}

    async def seat_members(self) -> dict[str, list[str]]:
        """Each seat's members (a team seat's two, first member first), by user name."""
        rows = await self.bot.db.fetchall(
            "SELECT seat, user_name, partner_name FROM seats WHERE game_id = (SELECT MAX(id) FROM games)"
        )
        return {r["seat"]: [n for n in (r["user_name"], r["partner_name"]) if n is not None] for r in rows}

    async def shown_names(self) -> dict[str, str]:
        """Each seat as the bot names it (a team seat: "ann & ben")."""
        return {seat: " & ".join(names) for seat, names in (await self.seat_members()).items()}


async def open_game(t: CpTable, players: list[str], **options: Any) -> None:
    """/crimopolis new, the joins, /crimopolis start."""
    reply = await t.cmd(t.host, "new", **options)
    assert "Crimopolis" in reply.text() and not reply.ephemeral, reply.text()
    for name in players:
        joined = await t.cmd(t.players[name], "join")
        assert "joined" in joined.text(), joined.text()
    started = await t.cmd(t.host, "start")
    assert "started" in started.text(), started.text()
    await t.idle()


# ---- the secret scan ---------------------------------------------------------------------------------


@dataclass
class Secrets:
    """What must never be public while the game runs: each seat's hands, the cards it drew, aborted or kept,
    and the stack and deck orders (their top cards). Collected step by step from the true state."""

    hands: dict[str, set[str]] = field(default_factory=dict)  # seat -> cards held now
    ever_private: set[str] = field(default_factory=set)  # cards named by a private event (drawn, kept, aborted)
    stack: set[str] = field(default_factory=set)  # tiles never revealed so far

    def update(self, state: State) -> None:
        if state.phase == "over":  # the end may show every hand
            self.hands, self.stack = {}, set()
            return
        for seat in state.players:
            view = GAME.view(state, seat)["private"][seat]
            self.hands[seat] = {*view["jobs"], *view["fortunes"], *view["drawn"]}
        self.stack = set(state.stack)

    def held(self, viewer: str | None = None) -> set[str]:
        return {c for seat, cards in self.hands.items() if seat != viewer for c in cards}

    def scan(self, text: str, where: str, viewer: str | None = None) -> list[str]:
        """Secrets in `text` (a viewer may see their own hand)."""
        found = []
        for card in set(CARD.findall(text)) & self.held(viewer):
            found.append(f"{where}: {card} is in a hand: {text[:160]!r}")
        for tile in set(TILE.findall(text)) & self.stack:
            found.append(f"{where}: {tile} is still in the stack: {text[:160]!r}")
        return found


def private_cards(events: list[Event]) -> set[str]:
    out: set[str] = set()
    for e in events:
        if e.is_public:
            continue
        for key in ("cards", "returned"):
            out.update(e.data.get(key) or [])
        if e.data.get("card"):
            out.add(e.data["card"])
    return out


# ---- playing -----------------------------------------------------------------------------------------


def command_for(action: dict[str, Any], name: Any) -> tuple[str, dict[str, Any]]:
    """The dedicated slash command (and options) for an action, as commands.md lists them."""
    from bot.games.crimopolis.notation import format_action, sources_text

    kind = action["kind"]
    if kind == "move":
        return "move", {"from": action["from"], "to": action["to"], "count": action["count"]}
    if kind == "recruit":
        return "recruit", {"to": action["to"]}
    if kind in ("occupy", "takeover"):
        return kind, {"block": action["block"], "from": sources_text(action["from"])}
    if kind == "job":
        options = {"card": action["card"], "block": action["block"], "from": sources_text(action["from"])}
        if action["fortunes"]:
            options["fortunes"] = " ".join(action["fortunes"])
        return "job", options
    if kind == "abort":
        return "abort", {"card": action["card"]}
    if kind in ("invest", "redraw", "end"):
        return kind, {}
    if kind == "fortune":
        text = format_action(action, name).split(" ", 2)
        options = {"card": action["card"]}
        if len(text) > 2:
            options["target"] = text[2]
        return "fortune", options
    return "decide", {"choice": format_action(action, name)}


def panel_picks(move: dict[str, Any]) -> list[Any]:
    """The values the turn panel's rows 2-4 take for `move` (the job fortunes apart)."""
    from bot.games.crimopolis.notation import sources_text

    kind = move["kind"]
    if kind == "move":
        return [move["from"], move["to"], str(move["count"])]
    if kind == "recruit":
        return [move["to"]]
    if kind in ("occupy", "takeover"):
        return [move["block"], sources_text(move["from"])]
    if kind == "job":
        return [f"{move['card']} {move['block']}", sources_text(move["from"])]
    if kind in ("abort", "fortune"):
        return [move["card"], *(move[k] for k in ("to", "block", "street", "target") if k in move)]
    return []


@dataclass
class Driver:
    """Plays the game to its end with legal moves, alternating slash commands, `/crimopolis act`, and the
    panel's and prompts' buttons; checks every public thing after every step."""

    t: CpTable
    rng: random.Random
    secrets: Secrets = field(default_factory=Secrets)
    steps: int = 0
    by: dict[str, int] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    seen_posts: int = 0
    seen_private: set[tuple[int, int]] = field(default_factory=set)
    # Which member of a team seat makes its next move (default: its first member).
    chooser: Callable[[str, list[str]], str] | None = None

    async def member_of(self, seat: str) -> tuple[str, Any]:
        members = (await self.t.seat_members())[seat]
        name = members[0] if self.chooser is None else self.chooser(seat, members)
        return name, self.t.players[name]

    async def seat_of(self, member: Any) -> str:
        members = await self.t.seat_members()
        return next(s for s, names in members.items() if any(self.t.players[n] is member for n in names))

    def name_of(self, seats: dict[str, str]) -> Any:
        return lambda seat: seats.get(seat, seat)

    async def step(self) -> bool:
        """One move of whoever decides; False once the game is over."""
        t = self.t
        state = await t.state()
        self.secrets.update(state)
        pending = GAME.pending(state)
        if pending is None:
            return False
        seat = pending.awaited[0]
        name, member = await self.member_of(seat)
        seats = await t.shown_names()
        move = GAME.random_move(state, seat, self.rng)
        assert move is not None
        how = self.rng.choice(["command", "act", "panel"]) if pending.decision == "turn" else "prompt"
        if pending.decision != "turn" and self.rng.random() < 0.4:
            how = "command"
        before_version = (await t.game_row())["version"]
        if how == "panel" and not await self.via_panel(member, move):
            how = "command"
        if how == "prompt" and not await self.via_prompt(member, move, seats, pending.decision):
            how = "command"
        if how in ("command", "act"):
            await self.via_command(member, move, seats, act=how == "act")
        self.by[how] = self.by.get(how, 0) + 1
        await t.idle()
        after = await t.game_row()
        assert after["version"] > before_version, f"{name}'s {move} was not applied ({how})"
        self.steps += 1
        events = list(GAME.step(state, [Action(seat, move)], NoChance()).events)
        await self.scan_new(private_cards(events))
        return True

    async def via_command(self, member: Any, move: dict[str, Any], seats: dict[str, str], *, act: bool) -> None:
        from bot.games.crimopolis.notation import format_action

        if act:
            value = format_action(move, self.name_of(seats))
            if self.rng.random() < 0.5:
                await self.check_autocomplete(member, value, seats)
            reply = await self.t.cmd(member, "act", action=value)
        else:
            command, options = command_for(move, self.name_of(seats))
            reply = await self.t.cmd(member, command, options=options)
        assert reply.ephemeral, reply.text()
        assert "✅" in reply.text(), f"{move}: {reply.text()}"

    async def check_autocomplete(self, member: Any, value: str, seats: dict[str, str]) -> None:
        """What /crimopolis act offers while `value` is typed: legal actions only, the caller's own cards only,
        at most 25, and `value` itself once typed in full."""
        from bot.games.crimopolis.notation import format_action

        state = await self.t.state()
        seat = await self.seat_of(member)
        from rules.crimopolis.legal import legal_actions

        legal = {format_action(a, self.name_of(seats)) for a in legal_actions(GAME.content, state, seat)}
        for typed in (value.split(" ")[0], value):
            found = await self.t.ac(member, "act", "action", action=typed)
            assert len(found) <= 25 and all(c["value"] in legal for c in found), (typed, found)
            for c in found:
                self.findings += self.secrets.scan(f"{c['name']} {c['value']}", "an autocomplete", viewer=seat)
        assert value in [c["value"] for c in found], (value, found)
        self.by["autocomplete"] = self.by.get("autocomplete", 0) + 1

    async def via_panel(self, member: Any, move: dict[str, Any]) -> bool:
        """The turn panel: kind, then each parameter, then Submit (False: the panel cannot express it here)."""
        fd = self.t.fd
        msg = await self.t.cmd(member, "panel")
        kind = move["kind"]
        kind_id = next((c for c in msg.custom_ids() if c.endswith(":kind")), None)
        if kind_id is None:
            return False
        options = [o["value"] for o in msg.component(kind_id)["options"]]
        if kind not in options:
            return False
        msg = await fd.select(member, msg, kind_id, [kind])
        picks = panel_picks(move)
        for i, value in enumerate(picks, 1):
            part = next((c for c in msg.custom_ids() if c.endswith(f":p{i}")), None)
            if part is None:
                return False
            for _ in range(30):  # page with More… until the value shows
                values = [o["value"] for o in msg.component(part)["options"]]
                if value in values:
                    break
                if "__more__" not in values:
                    return False
                msg = await fd.select(member, msg, part, ["__more__"])
            else:
                return False
            msg = await fd.select(member, msg, part, [value])
        if kind == "job" and move["fortunes"]:
            part = next((c for c in msg.custom_ids() if c.endswith(":p3")), None)
            if part is None:
                return False
            msg = await fd.select(member, msg, part, list(move["fortunes"]))
        go = next(c for c in msg.custom_ids() if c.endswith(":go"))
        done = await fd.click(member, msg, go)
        assert "✅" in done.text(), f"{move}: {done.text()}"
        return True

    async def via_prompt(self, member: Any, move: dict[str, Any], seats: dict[str, str], decision: str) -> bool:
        """A decision's buttons (or its select and Submit): opened by the host's Submit button on my last DM
        (reaction and setup prompts), else by /crimopolis panel."""
        from bot.games.crimopolis.choices import describe
        from bot.games.crimopolis.names import Names
        from bot.games.crimopolis.notation import format_action
        from bot.games.crimopolis.screens import clip

        fd = self.t.fd
        dm = next(
            (m for m in reversed(fd.dms(member)) if any(c.startswith("host:submit:") for c in m.custom_ids())), None
        )
        if decision in ("react", "setup_hq", "setup_tile") and dm is not None and self.rng.random() < 0.7:
            submit = next(c for c in dm.custom_ids() if c.startswith("host:submit:"))
            reply = await fd.click(member, dm, submit)
            self.by["dm_submit"] = self.by.get("dm_submit", 0) + 1
        else:
            reply = await self.t.cmd(member, "panel")
        state = await self.t.state()
        seat = await self.seat_of(member)
        name = describe(move, state, seat, Names(self.name_of(seats), GAME.view(state, None)))
        for comp in reply.buttons():
            if comp.get("label") == clip(name, 80):
                done = await fd.click(member, reply, comp["custom_id"])
                assert "✅" in done.text(), f"{move}: {done.text()}"
                return True
        pick = next((c for c in reply.custom_ids() if c.endswith(":pick")), None)
        if pick is None:
            return False
        for _ in range(30):
            options = reply.component(pick)["options"]
            value = next((o["value"] for o in options if o["value"] == format_action(move, self.name_of(seats))), None)
            if value is not None:
                break
            if not any(o["value"] == "__more__" for o in options):
                return False
            reply = await fd.select(member, reply, pick, ["__more__"])
        else:
            return False
        reply = await fd.select(member, reply, pick, [value])
        self.by["select"] = self.by.get("select", 0) + 1
        go = next(c for c in reply.custom_ids() if c.endswith(":go"))
        done = await fd.click(member, reply, go)
        assert "✅" in done.text(), f"{move}: {done.text()}"
        return True

    async def scan_new(self, step_private: set[str]) -> None:
        """Everything public, and every member's new DMs and ephemerals, since the last scan: no card in
        another seat's hand, no card this step drew, aborted or kept, no tile still in the stack."""
        t = self.t
        self.secrets.update(await t.state())
        posts = t.fd.channel_messages(t.chan)
        for msg in posts[self.seen_posts :]:
            texts = [msg.text(), *component_texts(msg.components)]
            texts += [a.get("description") or "" for a in msg.attachment_info()]
            for text in texts:
                self.findings += self.secrets.scan(text, "public")
                leaked = [c for c in CARD.findall(text) if c in step_private]
                self.findings += [f"public: {c} was drawn, kept or aborted: {text[:120]!r}" for c in leaked]
        self.seen_posts = len(posts)
        for seat, name in [(s, n) for s, names in (await t.seat_members()).items() for n in names]:
            member = t.players[name]
            for msg in [*t.fd.dms(member), *t.fd.ephemerals(member)]:
                key = (msg.id, len(msg.history))  # a panel is edited in place: its new content is scanned
                if key in self.seen_private:
                    continue
                self.seen_private.add(key)
                texts = [msg.text(), *component_texts(msg.components)]
                for text in texts:
                    self.findings += self.secrets.scan(text, f"{name}'s DM or ephemeral", viewer=seat)


def component_texts(components: list[dict[str, Any]]) -> list[str]:
    """Every string of a component tree (labels, values, placeholders, custom ids)."""
    out: list[str] = []
    for comp in components or []:
        for key in ("label", "placeholder", "custom_id", "value", "content"):
            if isinstance(comp.get(key), str):
                out.append(comp[key])
        for option in comp.get("options") or []:
            out += [str(option.get("label", "")), str(option.get("value", "")), str(option.get("description") or "")]
        out += component_texts(comp.get("components") or [])
    return out


def custom_ids(fd: Any) -> list[str]:
    found: list[str] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for comp in components or []:
            if isinstance(comp.get("custom_id"), str):
                found.append(comp["custom_id"])
            walk(comp.get("components") or [])

    for sent in fd.sent_components:
        walk(sent.components)
    return found
