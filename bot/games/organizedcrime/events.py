"""A step's events in words: one line per public event for the channel, and the private ones for a DM.

Public lines are built from public events only (which carry no hidden card: a card id appears there only
once it is face up — played, cashed, a Mistake or a Penalty read aloud). Private lines go to the seats in
the event's audience. Card texts come from the content files (`decks.json`), never from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.contract import Event

from . import names as n
from .names import Names

CAUSES = {"rubout": "rubbed out", "mistake": "a Mistake", "penalty": "a Penalty", "failed_attack": "a failed attack"}
REASONS = {"attack": "a failed attack", "fine": "a fine", "penalty": "a penalty"}
DECISIONS = {
    "choose_base": "the Home Base choice",
    "turn": "the turn",
    "path": "the move",
    "bargain": "the bargaining",
    "vote": "the vote",
    "session": "the session",
    "penalty_choice": "the penalty choice",
    "penalty_window": "the penalty window",
}
SKIPPED = {"drew_card", "received_cards", "gave_card"}  # private kinds, never in the channel


def quoted(cid: str) -> str:
    text = n.card_text(cid)
    return f"**{n.card(cid)}**" + (f": “{text}”" if text else "")


def turn_heading(turn: int, rnd: int, active: str | None, names: Names) -> str:
    """`Turn 7 · Round 3 — yellow to play (andy)`."""
    if not active:
        return f"Turn {turn} · Round {rnd}"
    name = names.name(active)
    shown = f" ({name})" if names.colour(active) and name != names.colour(active) else ""
    return f"Turn {turn} · Round {rnd} — {names.player(active)} to play{shown}"


def public_line(e: Event, names: Names) -> str | None:
    """One public event in words (None: said elsewhere, e.g. the turn heading)."""
    d = e.data
    k = e.kind
    p = names.player
    pc = names.piece
    if k == "shuffled":
        return f"The {n.deck_name(d['deck'])} deck is shuffled ({d['cards']} cards face down)."
    if k == "setup_roll":
        stage = "for the Home Base order" if d["stage"] == "bases" else "for the first turn"
        return f"🎲 {p(d['player'])} rolls {' + '.join(map(str, d['dice']))} = {d['total']} {stage}."
    if k == "base_order":
        return "Home Base order: " + ", ".join(p(s) for s in d["order"]) + "."
    if k == "base_chosen":
        base = n.content().bases[d["base"]]
        how = " (assigned: no choice was made)" if d["auto"] else ""  # the last one left, or a timeout's default
        return f"{names.name(d['player'])} takes Home Base {d['base']} ({base.colour}){how}."
    if k == "first_player":
        return f"{p(d['player'])} plays first."
    if k == "turn_began":
        return None
    if k == "income":
        return f"{p(d['player'])} collects income: {n.money(d['amount'])}."
    if k == "bought_hitmen":
        k_ = len(d["pieces"])
        men = "Hit-Man" if k_ == 1 else "Hit-Men"
        return f"{p(d['player'])} buys {k_} {men} ({names.pieces(d['pieces'])}) for {n.money(d['cost'])}."
    if k == "bought_power":
        return f"{p(d['player'])} buys a Power card for {n.money(d['cost'])}."
    if k == "drew":
        return f"{p(d['player'])} draws a {n.deck_name(d['deck'])} card."
    if k == "deck_empty":
        return f"The {n.deck_name(d['deck'])} deck holds no card: {p(d['player'])} draws nothing."
    if k == "bought_official":
        return (f"{p(d['player'])} shows {quoted(d['card'])} and buys a {n.target(d['office'])} for "
                f"{n.money(d['cost'])} (the Marker included).")
    if k == "cashed":
        return f"{p(d['player'])} cashes {n.card(d['card'])} for {n.money(d['amount'])}."
    if k == "declared":
        attack = f", **attacking {p(d['attack'])}**" if d.get("attack") else ""
        boss = " (the Boss)" if n.number(d["piece"]) == 0 else ""
        return f"{p(d['player'])} declares {pc(d['piece'])}{boss} moving {d['dir']}{attack}."
    if k == "rolled":
        shares = " and ".join(map(str, d["shares"]))
        word = "shares" if len(d["shares"]) > 1 else "share"
        return f"🎲 {p(d['player'])} rolls {' + '.join(map(str, d['dice']))} = {d['total']}: {word} {shares}."
    if k == "move_began":
        usable = "" if d["usable"] == d["share"] else f" (only {d['usable']} counts can be used)"
        return f"{pc(d['piece'])} moves with {d['share']}{usable}."
    if k == "stepped":
        return f"{pc(d['piece'])} → {n.space(d['to'])} (count {d['count']})."
    if k == "hit_played":
        return f"{pc(d['piece'])} plays {quoted(d['card'])} on {names.pieces(d['targets'])}."
    if k == "rubbed_out":
        how = f"count {d['count']}" if d.get("count") else f"with {d['card']}"
        boss = " — the Boss" if n.number(d["piece"]) == 0 else ""
        return f"💥 {pc(d['by'])} rubs out {pc(d['piece'])} on {n.space(d['space'])} ({how}){boss}."
    if k == "attack_succeeded":
        return f"{pc(d['piece'])}'s attack on {p(d['player'])} succeeds."
    if k == "returned_home":
        return f"{pc(d['piece'])} returns to {n.space(d['space'])}."
    if k == "move_ended":
        if d["reason"] == "forfeit":
            return f"{pc(d['piece'])} forfeits its move (on {n.space(d['space'])})."
        if d["reason"] == "timeout":
            return f"{pc(d['piece'])}'s move stops on {n.space(d['space'])} (time is up: no landing)."
        if d["reason"] == "attack":
            return None
        used = f"{d['used']} count{'' if d['used'] == 1 else 's'} used"
        return f"{pc(d['piece'])} lands on {n.space(d['space'])} ({used})."
    if k == "attack_failed":
        return f"{pc(d['piece'])}'s attack on {p(d['player'])} **fails**."
    if k == "attack_lapsed":
        return f"{pc(d['piece'])}'s attack on {p(d['player'])} lapses ({p(d['player'])} is out of the game)."
    if k == "mistake":
        avoided = " — avoided: an official of the player cancels it." if d["avoided"] else ""
        return f"Mistake! {p(d['player'])} draws {quoted(d['card'])}{avoided}"
    if k == "removed":
        why = {"mistake": "a Mistake", "penalty": "the penalty", "failed_attack": "the failed attack"}[d["cause"]]
        return f"{pc(d['piece'])} leaves the game ({why}, from {n.space(d['space'])})."
    if k == "paid":
        return f"{p(d['from'])} pays {n.money(d['amount'])} to {p(d['to'])} ({REASONS.get(d['reason'], d['reason'])})."
    if k == "debt":
        return (f"{p(d['debtor'])} cannot pay it all and owes {p(d['creditor'])} {n.money(d['amount'])} "
                f"({REASONS.get(d['reason'], d['reason'])}).")
    if k == "debt_paid":
        left = f" ({n.money(d['left'])} still owed)" if d["left"] else " (paid off)"
        return f"{p(d['debtor'])} pays {n.money(d['amount'])} of a debt to {p(d['creditor'])}{left}."
    if k == "eliminated":
        by = f" by {p(d['by'])}" if d.get("by") else ""
        line = f"💀 **{p(d['player'])} is eliminated** ({CAUSES.get(d['cause'], d['cause'])}{by})."
        if d["money"]:
            share = f" {p(d['by'])} gets {n.money(d['to_by'])}," if d.get("to_by") else ""
            line += f" His {n.money(d['money'])}:{share} the Treasury {n.money(d['to_treasury'])}."
        cards = d.get("cards") or {}
        held = cards.get("power", 0) + cards.get("official", 0)
        if held:
            one = held == 1
            to = f"to {p(d['by'])}" if d["cause"] == "rubout" and d.get("by") else "back to their decks"
            line += f" His {held} card{'' if one else 's'} {'goes' if one else 'go'} {to}."
        return line
    if k == "debt_settled":
        return f"The Treasury pays {p(d['debtor'])}'s debt of {n.money(d['amount'])} to {p(d['creditor'])}."
    if k == "debt_transferred":
        return f"{p(d['debtor'])}'s debt to {p(d['from'])} ({n.money(d['amount'])}) is now owed to the Treasury."
    if k == "acquired":
        what = n.target(d["target"])
        kind = {"city": "the City", "business": "a Business Investment:", "illegal": "an Illegal Activity:"}[d["type"]]
        how = " with the Commission's approval" if d["vote"] else ""
        return f"🏙 {p(d['player'])} acquires {kind} {what}{how} (Marker {n.money(d['cost'])})."
    if k == "meeting_called":
        return f"🗳 **Meeting {d['meeting']}**: {issue_text(d['caller'], d['issue'], names)}. Bargaining is open."
    if k == "gave":
        if "money" in d:
            return f"{p(d['from'])} gives {n.money(d['money'])} to {p(d['to'])}."
        return f"{p(d['from'])} gives {p(d['to'])} a {n.deck_name(d['deck'])} card."
    if k == "vote_called":
        order = ", ".join(f"{p(s)} {d['entitlements'][s]}" for s in d["order"])
        return f"The vote of meeting {d['meeting']} is called. Voting order (votes): {order}."
    if k == "ballot":
        return f"{p(d['player'])} {ballot_words(d['side'], d['votes'])}{' (time is up)' if d.get('default') else ''}."
    if k == "ballot_sealed":
        return f"{p(d['player'])} has voted{' (time is up: abstains)' if d.get('default') else ''}."
    if k == "ballots_revealed":
        shown = ", ".join(f"{p(b['player'])} {ballot_words(b['side'], b['votes'])}" for b in d["ballots"])
        return f"The sealed ballots: {shown}."
    if k == "vote_result":
        if d["carried"]:
            return f"✅ The motion carries, {d['for']} to {d['against']}."
        tie = " (a tie does not carry)" if d["for"] == d["against"] else ""
        return f"❌ The motion fails, {d['for']} to {d['against']}{tie}."
    if k == "penalty_card":
        return f"{p(d['player'])} draws the Penalty card {quoted(d['card'])}"
    if k == "placement_lapsed":
        return f"{p(d['player'])}'s approved Marker was not placed: the acquisition lapses."
    if k == "meeting_closed":
        return f"Meeting {d['meeting']} is adjourned."
    if k == "turn_ended":
        how = {"pass": "passes the dice", "timeout": "runs out of time", "eliminated": "is out"}[d["cause"]]
        return f"{p(d['player'])} {how}: turn {d['turn']} is over."
    if k == "limit_expired":
        return f"{p(d['player'])}'s vote-limit card {n.card(d['card'])} expires."
    if k == "penalty_window":
        who = ", ".join(p(s) for s in d["offended"])
        return f"⚖ Penalty window: {who} may call a penalty on {p(d['offender'])}."
    if k == "penalty_called":
        return f"{p(d['player'])} calls for a penalty."
    if k == "penalty_declined":
        return f"{p(d['player'])} declines to call a penalty{' (no answer in time)' if d.get('default') else ''}."
    if k == "penalty_cancelled":
        return f"{p(d['caller'])}'s penalty meeting is cancelled: {p(d['offender'])} is out of the game."
    if k == "timed_out":
        who = ", ".join(p(s) for s in d["players"]) or "nobody"
        return f"⏰ Time is up for {DECISIONS.get(d['decision'], d['decision'])} ({who}): the default applies."
    if k == "game_over":
        return None
    return None


def ballot_words(side: str, votes: int) -> str:
    if side == "abstain":
        return "abstains"
    return f"votes {side} with {votes}"


def issue_text(caller: str, issue: dict[str, Any], names: Names) -> str:
    if issue["type"] == "penalty":
        return f"{names.player(caller)} asks a penalty for {names.player(issue['offender'])}"
    return f"{names.player(caller)} asks for {n.target(issue['target'])}"


def private_line(e: Event, seat: str, names: Names) -> str | None:
    """A private event as the seat receiving it reads it."""
    d = e.data
    if e.kind == "drew_card":
        return f"You drew {quoted(d['card'])}"
    if e.kind == "received_cards":
        cards = ", ".join(n.card(c) for c in d["cards"])
        return f"You took {names.player(d['from'])}'s cards: {cards}."
    if e.kind == "gave_card":
        if seat == d["from"]:
            return f"You gave {n.card(d['card'])} to {names.player(d['to'])}."
        return f"{names.player(d['from'])} gave you {quoted(d['card'])}"
    if e.kind == "ballot":
        return f"Your sealed ballot (meeting {d['meeting']}): {ballot_words(d['side'], d['votes'])}."
    return None


def public_lines(events: Iterable[Event], names: Names) -> list[str]:
    out = []
    for e in events:
        if e.is_public and e.kind not in SKIPPED:
            line = public_line(e, names)
            if line:
                out.append(line)
    return out


def shuffles_line(events: list[Event]) -> str | None:
    """The opening shuffles of every deck in one line (a reshuffle later keeps its own line)."""
    found = [e for e in events if e.kind == "shuffled"]
    if len(found) < 2:
        return None
    return "The decks are shuffled: " + ", ".join(f"{n.deck_name(e.data['deck'])} {e.data['cards']}"
                                                 for e in found) + " cards face down."


def results_text(result: dict[str, Any], names: Names) -> str:
    """The standing of R127 (or the last survivor), eliminations with turn and cause."""
    reason = {"last_survivor": "the last Boss standing", "round_cap": "the round cap (house rule)",
              "host": "the host ended the game"}.get(result.get("reason", ""), str(result.get("reason")))
    winners = ", ".join(names.full(w) for w in result.get("winners") or []) or "nobody"
    lines = [f"🏆 **Game over** — {reason}. Winner{'s' if len(result.get('winners') or []) > 1 else ''}: **{winners}**"]
    standing = result.get("standing") or []
    if standing:
        lines.append("Standing (votes, money, income):")
        for i, r in enumerate(standing, 1):
            votes = f"{r['votes']} vote{'s' if r['votes'] != 1 else ''}"
            lines.append(f"{i}. {names.full(r['player'])} — {votes}, {n.money(r['money'])}, "
                         f"income {n.money(r['income'])}")
    for r in result.get("eliminated") or []:
        by = f" by {names.player(r['by'])}" if r.get("by") else ""
        cause = CAUSES.get(r["cause"], r["cause"])
        lines.append(f"💀 {names.full(r['player'])}: out on turn {r['turn']} ({cause}{by})")
    return "\n".join(lines)
