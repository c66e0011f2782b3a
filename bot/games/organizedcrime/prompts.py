"""What a decision asks of a seat, in words: the DM prompt, the reminder, the status line.

Read from the public view only (the decision, the meeting, the window) plus the seat itself; which
actions are legal is not decided here (the commands' lists come from `rules.organizedcrime.legal`).
"""

from __future__ import annotations

from typing import Any

from rules.contract import Pending
from rules.organizedcrime.game import deadlines

from . import names as n
from .events import issue_text, turn_heading
from .names import Names

CMD = "/organizedcrime"


def title(pending: Pending | None) -> str:
    """The decision's name for the host's own messages ("the vote of meeting 2")."""
    if pending is None:
        return "the game"
    clock = pending.clock.id if pending.clock is not None else ""
    parts = clock.split(":")
    d = pending.decision
    if d == "choose_base":
        return "the Home Base choice"
    if d in ("turn", "path") and parts[0] == "turn":
        return f"turn {parts[1]}" if d == "turn" else f"the move of turn {parts[1]}"
    if parts[0] == "meeting" and len(parts) > 1:
        what = {"bargain": "the bargaining", "vote": "the vote", "session": "the session",
                "penalty_choice": "the penalty choice"}.get(d, f"the {d}")
        return f"{what} of meeting {parts[1]}"
    if d == "penalty_window":
        return "the penalty window"
    return f"the {d.replace('_', ' ')}"


def what_to_do(public: dict[str, Any], seat: str, decision: str, names: Names, *, sealed: bool = False) -> str:
    """One or two sentences: what the decision waits for from `seat`, and the commands for it."""
    mt = public.get("meeting") or {}
    if decision == "choose_base":
        free = [b for b in n.content().bases if b not in _taken(public)]
        listed = ", ".join(f"{b} ({n.content().bases[b].colour})" for b in free)
        return f"choose your Home Base with `{CMD} base` (free: {listed})."
    if decision == "turn":
        head = turn_heading(public["turn"], public["round"], None, names)
        ts = public.get("turn_state") or {}
        movers = ts.get("movers") or []
        if ts.get("dice") is None:
            what = "declare a second mover or roll" if len(movers) == 1 else "declare one or two movers, then roll"
            return (f"it is your turn ({head}): buy, collect income, {what} — `{CMD} panel`, or `{CMD} declare` "
                    f"and `{CMD} roll`.")
        waiting = [names.piece(m["piece"]) for m in movers if m["status"] == "declared"]
        if waiting:
            return f"move {' and '.join(waiting)} ({head}): `{CMD} move` or `{CMD} panel`."
        chances = [o for o in ts.get("opportunities") or [] if not o["used"]]
        extra = f"acquire or call a meeting for what you landed on (`{CMD} acquire`, `{CMD} meeting call`), " \
            if chances else ""
        return f"finish your turn ({head}): {extra}buy or collect income, then `{CMD} pass` (or `{CMD} panel`)."
    if decision == "path":
        return f"your move is in progress: go on with `{CMD} path` or `{CMD} panel`."
    if decision == "bargain":
        return (f"you called meeting {mt.get('id')} ({issue_text(mt['caller'], mt['issue'], names)}). Bargain, "
                f"then call the vote with `{CMD} meeting callvote`.")
    if decision == "vote":
        ent = (mt.get("entitlements") or {}).get(seat, 0)
        issue = issue_text(mt["caller"], mt["issue"], names)
        how = " Ballots are sealed: nobody sees yours before the last one is in." if sealed else ""
        return (f"vote in meeting {mt.get('id')} ({issue}): you have {ent} vote{'s' if ent != 1 else ''}. "
                f"Use `{CMD} vote` or `{CMD} panel`.{how}")
    if decision == "session":
        if mt.get("marker_pending"):
            return (f"the motion carried: place your Marker with `{CMD} meeting place` once you can pay for it, "
                    f"then `{CMD} meeting adjourn`.")
        return f"the vote is over: adjourn meeting {mt.get('id')} with `{CMD} meeting adjourn` when you are done."
    if decision == "penalty_choice":
        return f"choose {mt.get('choose')} of your Hit-Men to remove with `{CMD} remove` (or `{CMD} panel`)."
    if decision == "penalty_window":
        window = public.get("window") or {}
        return (f"some of your pieces were rubbed out on {names.player(window.get('offender'))}'s turn: call a "
                f"penalty or decline with `{CMD} penalty call:true|false`.")
    return f"the game waits for {decision.replace('_', ' ')}."


def _taken(public: dict[str, Any]) -> set[int]:
    return {pl["base"] for pl in (public.get("players") or {}).values() if pl.get("base") is not None}


def deadline_words(deadline_at: float | None, paused: bool) -> str:
    if paused:
        return "The clock is paused."
    if deadline_at is None:
        return "No deadline."
    return f"Deadline: <t:{int(deadline_at)}:R> (<t:{int(deadline_at)}:T>)."


def settings_lines(settings: dict[str, Any]) -> list[str]:
    """Every option of the lobby, house options labelled (commands.md `/organizedcrime new`)."""
    d = deadlines(settings)

    def t(seconds: float) -> str:
        if seconds < 120:
            return f"{seconds:g} s"
        if seconds < 7200:
            return f"{seconds / 60:g} min"
        return f"{seconds / 3600:g} h"

    cap = settings.get("round_cap") or 0
    return [
        f"Pace: **{settings.get('pace', 'live')}** — Home Base {t(d['base'])} · turn {t(d['turn'])} · bargaining "
        f"{t(d['bargain'])} (vote callable {'after ' + t(d['bargain_minimum']) if d['bargain_minimum'] else 'at once'}"
        f") · vote {t(d['vote'])} per voter "
        f"({t(d['vote_sealed'])} sealed) · session {t(d['session'])} · penalty window {t(d['window'])} · "
        f"penalty choice {t(d['choice'])}",
        f"Ballots: **{settings.get('ballots', 'open')}**" + (" (house rule)" if settings.get("ballots") == "sealed"
                                                            else " (as the Bylaws)"),
        f"Round cap: **{cap or 'none'}** (house rule)",  # the option is one, set or not (commands.md)
        f"Automatic income: **{'on' if settings.get('auto_income') else 'off'}** (house rule)",
        f"Reminders: at {settings.get('reminder_percent', 50)}% of a decision's time" if settings.get(
            "reminder_percent", 50) else "Reminders: none",
    ]
