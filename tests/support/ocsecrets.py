"""The secret scan of an Organized Crime game, made as it is played: after each action, whatever became
public since the last look (channel posts: text, embeds, alt texts, PNG metadata; every component string
the bot sent anywhere, menu values apart; autocomplete answers, per viewer) is checked against what is secret *now*:

- every card id in a hand (a viewer may see his own) and in a face-down pile (nobody may);
- a sealed ballot before the reveal (no post says how anyone voted while `sealed` is not empty).

Card ids become public only when a card is face up (played, cashed, bought with, a Mistake or Penalty
read aloud), after which it is in no hand and no face-down pile, so "secret now" is exact.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.components import strings as component_strings
from tests.support.leakscan import png_text_chunks

CARD = re.compile(r"\b(?:PW|CO|MK|PN)\d{2}\b")
BALLOT = re.compile(r"votes (?:for|against) with|\babstains\b")


def hands(state: dict[str, Any]) -> dict[str, set[str]]:
    return {p: set(state["pl"][p]["power"]) | set(state["pl"][p]["official"]) for p in state["players"]}


def facedown(state: dict[str, Any]) -> set[str]:
    return {c for d in state["decks"].values() for c in d["draw"]}


def secret_for(state: dict[str, Any], viewer: str | None) -> set[str]:
    """Card ids `viewer` (a seat; None: the public) may not see now (nothing, once the game is over: the
    hands are shown at the end, commands.md; as `rules.organizedcrime.game.hidden` says too)."""
    if state["phase"] in (None, "over") and state.get("result") is not None:
        return set()
    out = set(facedown(state))
    for seat, held in hands(state).items():
        if seat != viewer:
            out |= held
    return out


@dataclass
class Watch:
    """Scans, after each action, what that action made the bot write (the outbox rows, committed with the
    step, so each is checked against the state of its moment) and the components it sent."""

    t: Any
    last_row: int = 0
    seen_components: int = 0
    checked: int = 0
    findings: list[str] = field(default_factory=list)

    async def scan(self, state: dict[str, Any]) -> None:
        rows = await self.t.bot.db.fetchall(
            "SELECT id, target, seat, payload_json FROM outbox WHERE id > ? ORDER BY id", (self.last_row,)
        )
        secret = secret_for(state, None)
        down = facedown(state) if secret else set()
        for r in rows:
            self.last_row = r["id"]
            payload = json.loads(r["payload_json"])
            text = payload.get("content") or ""
            self.checked += 1
            if r["target"] == "dm":
                for card in CARD.findall(text):
                    if card in down:
                        self.findings.append(f"DM: face-down card {card} in {text[:160]!r}")
                continue
            picture = payload.get("picture") or {}
            for where, body in (("post", text), ("alt text", picture.get("alt") or ""),
                                ("picture view", json.dumps(picture.get("view") or {}))):
                for card in CARD.findall(body):
                    if card in secret:
                        self.findings.append(f"{where}: hidden card {card} in {body[:160]!r}")
            if state.get("sealed") and BALLOT.search(text):
                self.findings.append(f"post: a ballot while ballots are sealed: {text[:160]!r}")
        sent = self.t.fd.world.sent_components
        new, self.seen_components = sent[self.seen_components:], len(sent)
        down_now = facedown(state)
        for tree in new:
            for key, text in component_strings(tree.components):
                self.checked += 1
                # A panel's menu values are its owner's actions in commands.md's notation (`cash PW17`: his
                # own cards, in his ephemeral panel), never a face-down card; every other string (labels,
                # custom ids, placeholders) names no card id at all.
                if key == "option.value":
                    bad = [c for c in CARD.findall(text) if c in down_now]
                else:
                    bad = CARD.findall(text)
                if bad:
                    self.findings.append(f"component {key}: card id {bad[0]} in {text[:160]!r}")

    def scan_choices(self, state: dict[str, Any], viewer: str, found: list[dict[str, Any]]) -> None:
        secret = secret_for(state, viewer)
        for choice in found:
            text = f"{choice['name']} {choice['value']}"
            self.checked += 1
            for card in CARD.findall(text):
                if card in secret:
                    self.findings.append(f"autocomplete for {viewer}: {card} in {text!r}")

    def scan_delivered(self) -> None:
        """At the end: what reached the channel carries no picture metadata (no text chunk at all)."""
        for m in self.t.fd.channel_messages(self.t.chan):
            for _name, data in m.attachments:
                chunks = png_text_chunks(data)
                if chunks:
                    self.findings.append(f"picture metadata: {chunks}")
