"""What one step becomes: the turn log's post, the board at a turn's end, the results, and the DMs (cards
drawn, "your turn", reaction and setup prompts). Pure: a `StepView` in, host `Message`s out.

The turn's log is one message, edited at each step (the host's keyed posts, `Post.edit_key`); the board
after a turn, the results and the setup are new messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.contract import Event, Pending
from rules.crimopolis.game import options_of
from rules.crimopolis.legal import legal_actions

from ...host import DM, STATUS, SUBMIT, Message, Post, StepView, timestamp
from . import names as nm
from . import texts
from .names import Names, hours
from .notation import format_action
from .pack import PACK

BOARD_BUTTONS = (STATUS, SUBMIT)
PRIVATE = ("drew", "aborted", "kept")
SETUP_LISTED = 12


def picture_view(public: Mapping[str, Any], n: Names) -> dict[str, Any]:
    """What the picture is drawn from: the public view and the seats' shown names (nothing else)."""
    return {**public, "names": {seat: n.name(seat) for seat in public["players"]}}


def where(view: StepView) -> str:
    return f"{texts.TITLE} (<#{view.game.channel_id}>)"


def step_messages(view: StepView, public: Mapping[str, Any], prefs: Mapping[str, str]) -> list[Message]:
    """Every message of one step, in order. `prefs`: the seats' reaction preferences (ask/never/auto)."""
    n = Names(view.roster.name_of, public)
    events = list(view.events)
    out: list[Message] = []
    if view.before is None:
        out.append(Post(start_text(view, public, n)))
    first_turn = next((i for i, e in enumerate(events) if e.kind == "turn_start"), None)
    before = events if first_turn is None else events[:first_turn]
    after = [] if first_turn is None else events[first_turn:]
    heading = log_heading(view, public, before)
    lines = [line for e in before if e.is_public and (line := texts.event_line(e, n))]
    key = turn_number(view.before)
    if key is None:
        out += [Post(text) for text in texts.chunks(lines, heading)]
    else:  # the turn's log: one message, edited at each step (a new one only when it is full)
        limit = texts.LIMIT - len(heading) - 1
        out += [Post(text, edit_key=f"turn:{key}", append=True, heading=heading)
                for text in texts.chunks(lines, limit=limit)]
    if first_turn is not None or view.pending is None:
        out += board_posts(view, public, n, after)
    if view.results is not None:
        parts = results_posts(view, public, n)
        out += [Post(text) for text in parts[:-1]]
        out.append(Post(parts[-1], buttons=("history",)))
    out += private_dms(view, public, n, prefs)
    return out


def turn_number(pending: Pending | None) -> int | None:
    """The turn a decision belongs to, from its outermost clock (`turn:<n>`)."""
    if pending is None or not pending.clocks or not pending.clocks[0].id.startswith("turn:"):
        return None
    return int(pending.clocks[0].id.split(":")[1])


def log_heading(view: StepView, public: Mapping[str, Any], events: Sequence[Event]) -> str:
    turn = turn_number(view.before)
    if turn is None and view.before is None and public.get("turn"):
        turn = public["turn"]["number"]  # a setup that ran into turn 1 by itself
    if turn is None:
        return f"{texts.TITLE} — setup"
    return f"{texts.TITLE} — turn {turn}"


def board_posts(view: StepView, public: Mapping[str, Any], n: Names, turn_start: Sequence[Event]) -> list[Message]:
    """The board after a turn (or the setup): picture and text, who is next and the deadline."""
    ended = next((e.data for e in view.events if e.kind == "turn_end"), None)
    if ended is not None:
        heading = f"{texts.TITLE} — the board after turn {turn_number(view.before)}"
    elif view.pending is None:
        heading = f"{texts.TITLE} — the final board"
    else:
        heading = f"{texts.TITLE} — the city is set up; the game begins"
    extra = [line for e in turn_start if e.is_public and e.kind != "turn_start" and (line := texts.event_line(e, n))]
    lines = [texts.turn_line(public, n, view.deadline_at, view.game.paused), *extra, *texts.board_lines(public, n)]
    parts = texts.chunks(lines, heading)
    buttons = BOARD_BUTTONS if view.pending is not None else ()
    out: list[Message] = [
        Post(parts[0], picture=picture_view(public, n), alt=texts.board_alt(public, n), buttons=buttons)
    ]
    out += [Post(text) for text in parts[1:]]
    return out


def start_text(view: StepView, public: Mapping[str, Any], n: Names) -> str:
    options = options_of(view.game.settings).replay_json()
    first = n.who(seat_order(public)[0])
    lines = [
        f"{texts.TITLE} — game #{view.game.id} starts!",
        texts.seats_line(public, n),
        texts.options_line(view.game.settings, options, team=view.game.options.shared_seats),
        f"{first} starts. Each player's first two jobs come by DM; setup placements go in seat order.",
        "Commands: /crimopolis help · the rules: /crimopolis rules.",
    ]
    return "\n".join(lines)


def results_posts(view: StepView, public: Mapping[str, Any], n: Names) -> list[str]:
    """The scoring table, the ranking and the winners (and the hands, with the host's reveal)."""
    results = view.results or {}
    lines = texts.results_lines(results, public, n)
    if view.game.options.reveal:
        hands = [(seat, hand_of(view, seat)) for seat in seat_order(public)]
        lines += texts.reveal_lines(hands, n)
    return texts.chunks(lines, f"{texts.TITLE} — final scoring")


# ---- DMs ---------------------------------------------------------------------------------------------


def private_dms(view: StepView, public: Mapping[str, Any], n: Names, prefs: Mapping[str, str]) -> list[Message]:
    """One DM per seat that has something to read: its cards, its turn, a prompt."""
    said: dict[str, list[str]] = {}
    buttons: dict[str, tuple[str, ...]] = {}
    answers: dict[str, tuple[str, ...]] = {}
    for e in view.events:
        if e.is_public or e.kind not in PRIVATE:
            continue
        line = texts.private_line(e)
        if line:
            for seat in e.audience:
                said.setdefault(seat, []).append(line)
    start = next((e for e in view.events if e.kind == "turn_start"), None)
    if start is not None and view.pending is not None:
        seat = start.data["player"]
        said.setdefault(seat, []).extend(your_turn(view, public, n, start))
        buttons[seat] = (STATUS, SUBMIT)
    pending = view.pending
    if pending is not None and view.opened:
        seat = pending.awaited[0]
        prompt = None
        if pending.decision == "react":
            if prefs.get(seat, "ask") == "ask":
                prompt = react_prompt(view, public, n, seat)
                answers[seat] = tuple(react_label(a) for a in react_answers(view.state, seat))
        elif pending.decision in ("setup_hq", "setup_tile"):
            prompt = setup_prompt(view, public, pending.decision, seat)
        if prompt is not None:
            said.setdefault(seat, []).append(prompt)
            buttons[seat] = (STATUS, SUBMIT)
    out: list[Message] = []
    for seat in seat_order(public):
        if seat in said:
            parts = texts.chunks(said[seat], where(view))
            out += [DM(seat, text) for text in parts[:-1]]
            # the buttons under the last part
            out.append(DM(seat, parts[-1], buttons=buttons.get(seat, ()), answers=answers.get(seat, ())))
    return out


def deadline_words(view: StepView) -> str:
    if view.game.paused or view.deadline_at is None:
        return "the clock is paused"
    return f"deadline {timestamp(view.deadline_at)}"


def your_turn(view: StepView, public: Mapping[str, Any], n: Names, start: Event) -> list[str]:
    executed = [e.data["card"] for e in view.events if e.kind == "destiny_executed"]
    turn = public["turn"] or {}
    lines = [f"**Your turn {start.data['number']}**: a budget of {hours(start.data['hours'])}."]
    if executed:
        lines.append("Destinies executed: " + "; ".join(f"{nm.card(c)} ({nm.card_text(c)})" for c in executed))
    lines.append(f"You have {hours(turn.get('hours', 0))} left this turn; {deadline_words(view)}.")
    lines += texts.hand_lines(hand_of(view, start.data["player"]))
    lines.append("Act with /crimopolis panel (menus) or the commands (/crimopolis move, job, end, ...).")
    return lines


def hand_of(view: StepView, seat: str) -> dict[str, Any]:
    """The seat's own hands, through the rules' view for that seat."""
    return dict(PACK.game.view(view.state, seat)["private"][seat])


def seat_order(public: Mapping[str, Any]) -> list[str]:
    return [s for s, _ in sorted(public["players"].items(), key=lambda x: x[1]["seat"])]


def react_answers(state: Any, seat: str) -> list[dict[str, Any]]:
    """The seat's answers to its reaction window, in the rules' order (No reaction first): what the DM's
    answer buttons stand for, by index."""
    return [a for a in legal_actions(PACK.game.content, state, seat) if a.get("kind") == "react"]


def react_label(action: Mapping[str, Any]) -> str:
    card = action.get("card")
    return "No reaction" if card is None else f"React: {nm.card(card)}"


def react_prompt(view: StepView, public: Mapping[str, Any], n: Names, seat: str) -> str:
    """ "ann played Sabotage (...) against you. React?" with the deadline and how to answer."""
    card = (public.get("pending") or {}).get("card") or "?"
    who = public["turn"]["player"] if public.get("turn") else None
    played = next((e for e in reversed(view.events) if e.kind in ("fortune_played", "newsflash")), None)
    what = f"{nm.card(card)} ({nm.card_text(card)})"
    if played is not None and played.kind == "fortune_played":  # commands.md's very words: the title, its text
        said = f"{n.name(who)} played {nm.card_title(card)} ({nm.card_text(card)}) against you."
    elif who == seat:
        said = f"Your job drew the newsflash {what}: it is aimed at you."
    else:
        said = f"{n.name(who)}'s job drew the newsflash {what}, aimed at you."
    return (
        f"{said} React? Press an answer below (or /crimopolis decide choice:react none); "
        f"{deadline_words(view)}. Without an answer: no reaction."
    )


def setup_prompt(view: StepView, public: Mapping[str, Any], decision: str, seat: str) -> str:
    step = (public.get("pending") or {}).get("step")
    what = "where your Headquarters goes" if decision == "setup_hq" else f"setup placement {step} of 2"
    revealed = ", ".join(nm.tile(t) for t in public["revealed"]) or "none"
    answers = [format_action(a, view.roster.name_of) for a in legal_actions(PACK.game.content, view.state, seat)]
    listed = ", ".join(f"`{a}`" for a in answers[:SETUP_LISTED])
    more = f" and {len(answers) - SETUP_LISTED} more" if len(answers) > SETUP_LISTED else ""
    return (
        f"**Setup**: choose {what}. Revealed tiles: {revealed}. The choices: {listed}{more}. Press **Submit** "
        f"below for them as buttons (or /crimopolis decide); {deadline_words(view)}. Without an answer the "
        "first legal placement is made."
    )


def reminder_dms(game: Any, seats: Sequence[str], decision: str, deadline_at: float) -> list[Message]:
    what = {"react": "a reaction window", "setup_hq": "your Headquarters", "setup_tile": "a setup placement"}.get(
        decision, "your turn"
    )
    return [
        DM(
            seat,
            f"{texts.TITLE} (<#{game.channel_id}>): reminder, {what} is waiting for you. "
            f"Deadline: {timestamp(deadline_at)}.",
            buttons=(SUBMIT,),
        )
        for seat in seats
    ]
