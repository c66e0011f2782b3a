"""What people read: the turn log's lines (public events), the DM lines (a seat's own events), the board
text, the start post and the scoring table (commands.md "What the bot sends on its own", "What people read").

Public texts are built from public events and the public view only; a private line is built from an event
addressed to that seat alone. The "hours" of the game are never real time: they are written as "hours left
this turn", real deadlines as Discord timestamps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.contract import Event

from ...host import timestamp
from . import names as nm
from .names import Names, hours, plural

TITLE = "**Crimopolis**"
LIMIT = 2000  # a message's content
FIELDS = (
    ("prestige", "prestige"),
    ("small_blocks", "small blocks"),
    ("large_blocks", "large blocks"),
    ("bodies", "bodies"),
    ("most_bodies", "most bodies"),
    ("fortunes", "fortunes"),
    ("streets", "streets"),
    ("big_business", "Big Business"),
)


def _from(sources: Mapping[str, int]) -> str:
    return " ".join(f"{street}={k}" for street, k in sources.items())


def event_line(e: Event, n: Names) -> str | None:
    """One public event as a line of the turn's log (None: nothing worth a line)."""
    d = e.data
    who = n.who(d.get("player"))
    kind = e.kind
    if kind == "reveal":
        return f"Revealed: {nm.tile(d['tile'])}."
    if kind == "draw":
        one, many = nm.DECK_WORDS[d["deck"]]
        return f"{who} draws {plural(d['count'], one, many)}."
    if kind == "tile_placed":
        side = f", block side {d['block_side']}" if d.get("block_side") else ""
        if d["reason"] == "hq":
            return f"{who} places their Headquarters on {d['cell']}."
        verb = "explores" if d["reason"] == "explore" else "places"
        return f"{who} {verb} {d['cell']}: {nm.tile(d['tile'])}{side}."
    if kind == "block_formed":
        return f"A large block forms: {n.block(d['block'])}, cells {' + '.join(d['cells'])}."
    if kind == "setup_skipped":
        return f"{who} has no legal setup placement and skips {plural(d['steps'], 'placement')}."
    if kind == "recruit":
        cost = f" ({hours(d['hours'])})" if d["hours"] else ""
        return f"{who} recruits a gangster into {n.block(d['block'])}{cost}."
    if kind == "turn_start":
        return f"**Turn {d['number']}**: {who}, {hours(d['hours'])} this turn."
    if kind == "destiny_executed":
        return f"{who}'s destiny {nm.card(d['card'])} is executed: {nm.card_text(d['card'])}"
    if kind == "hours":
        sign = "+" if d["amount"] >= 0 else "−"
        return f"{who}: {sign}{abs(d['amount'])} h, {hours(d['hours'])} left this turn."
    if kind == "move":
        return f"{who} moves {d['count']} from {n.place(d['from'])} to {n.place(d['to'])} ({hours(d['hours'])})."
    if kind == "ambush":
        return (
            f"Ambush on {d['street']}: {who} and {n.who(d['defender'])} each lose {d['removed']}; "
            f"{n.name(d['player'])}'s body count +{d['bodies']}."
        )
    if kind == "explore_failed":
        return f"{who} cannot explore beyond {d['street']}: nothing is placed."
    if kind == "occupy":
        return f"{who} occupies {n.block(d['block'])} with {d['count']} from {_from(d['from'])} ({hours(d['hours'])})."
    if kind == "takeover":
        return (
            f"{who} takes over {n.block(d['block'])} from {n.who(d['defender'])} with {d['count']} from "
            f"{_from(d['from'])}: {d['removed']} removed on each side, body count +{d['bodies']} ({hours(d['hours'])})."
        )
    if kind == "job":
        fortunes = f", with {', '.join(nm.card(f) for f in d['fortunes'])}" if d["fortunes"] else ""
        fight = ""
        if d.get("defender") is not None:
            fight = f"; a takeover from {n.who(d['defender'])}: {d['removed']} removed, body count +{d['bodies']}"
        return (
            f"{who} does the job {nm.job_detail(d['card'])} at {n.block(d['block'])} with {d['count']} from "
            f"{_from(d['from'])}{fortunes} ({hours(d['hours'])}){fight}."
        )
    if kind == "fortune_played":
        params = d.get("params") or {}
        extra = ""
        if "to" in params:
            extra = " → " + ("Headquarters" if params["to"] == "hq" else "Safe House")
        elif "block" in params:
            extra = f" on {n.block(params['block'])}"
        elif "street" in params:
            extra = f" on {params['street']}"
        elif "target" in params:
            extra = f" against {n.who(params['target'])}"
        return f"{who} plays {nm.card(d['card'])}{extra}: {nm.card_text(d['card'])}"
    if kind == "newsflash":
        return f"📰 Newsflash {nm.card(d['card'])}: {nm.card_text(d['card'])}"
    if kind == "target_chosen":
        return f"{who} aims {nm.card(d['card'])} at {n.who(d['target'])}."
    if kind == "reaction":
        if d["card"] is None:
            return f"{who} does not react to {nm.card(d['against'])}."
        return f"{who} reacts to {nm.card(d['against'])} with {nm.card(d['card'])}: {nm.card_text(d['card'])}"
    if kind == "cancelled":
        return f"{nm.card(d['card'])} is cancelled."
    if kind == "destiny_placed":
        return f"{nm.card(d['card'])} now lies in front of {who} as a destiny (next turn)."
    if kind == "job_prestige":
        return f"{nm.card(d['card'])}: the job's prestige {d['amount']:+d}."
    if kind == "removed":
        if d.get("by") is None:
            return f"{who} loses {d['count']} at {n.place(d['at'])} to the supply."
        return (
            f"{n.who(d['by'])} removes {d['count']} of {n.name(d['player'])}'s gangsters at {n.place(d['at'])}; "
            f"body count +{d['bodies']}."
        )
    if kind == "sent_home":
        return f"{who}'s gangsters on {d['from']}: {d['home']} go home, {d['supply']} to the supply."
    if kind == "job_done":
        return f"{who} completes {nm.card(d['card'])}: {d['prestige']} prestige."
    if kind == "prestige":
        return f"{who}: +{d['amount']} prestige ({d['reason']}), {d['total']} in all."
    if kind == "final_round":
        # commands.md's words: "final round: the game ends after cat's turn"
        return f"🔔 Final round: the game ends after {n.name(d['last'])}'s turn ({who} reached the target)."
    if kind == "abort":
        return f"{who} aborts a job ({hours(d['hours'])}) to draw two and keep one."
    if kind == "keep":
        return f"{who} keeps one job and puts the other back on top of the job deck."
    if kind == "invest":
        return f"{who} invests in a fortune ({hours(d['hours'])})."
    if kind == "redraw":
        shown = " and ".join(nm.job_detail(c) for c in d["cards"])
        return f"{who} shows {shown} and redraws."
    if kind == "timeout":
        return f"⏰ {who}'s time ran out ({d['decision']}): the defaults apply."
    if kind == "turn_end":
        tail = " (timed out)" if d["timeout"] else ""
        return f"{who} ends the turn with {hours(d['hours_left'])} left; {d['carry']} carried on{tail}."
    if kind == "game_end":
        return "🏁 The game is over: " + (
            "the last round is played." if d["reason"] == "target" else "ended by the host."
        )
    return None


def private_line(e: Event) -> str | None:
    """One event addressed to a single seat, as that seat reads it in a DM."""
    d = e.data
    if e.kind == "drew":
        cards = list(d["cards"])
        if not cards:
            return f"You drew no {nm.DECK_WORDS[d['deck']][0]} (the deck is empty)."
        return "You drew: " + "; ".join(nm.card_detail(c) for c in cards) + "."
    if e.kind == "aborted":
        return f"You aborted {nm.card(d['card'])} (it goes to the bottom of the job deck)."
    if e.kind == "kept":
        back = (
            f"; {', '.join(nm.card(c) for c in d['returned'])} goes back on top of the job deck"
            if d["returned"]
            else ""
        )
        return f"You keep {nm.job_detail(d['card'])}{back}."
    return None


def chunks(lines: Iterable[str], heading: str = "", limit: int = LIMIT) -> list[str]:
    """Lines grouped into messages of at most `limit` characters (a new message where one would overflow)."""
    out: list[str] = []
    current = heading
    for line in lines:
        line = line if len(line) <= limit - len(heading) - 1 else line[: limit - len(heading) - 2] + "…"
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = f"{heading}\n{line}" if heading else line
        else:
            current = candidate
    if current and current != heading:
        out.append(current)
    return out


# ---- the board ---------------------------------------------------------------------------------------


def board_lines(view: Mapping[str, Any], n: Names) -> list[str]:
    """Blocks and street sections holding gangsters, the revealed row, the piles and the scoreboard."""
    city = view["city"]
    lines: list[str] = []
    held = [(bid, b) for bid, b in city["blocks"].items() if b["gangsters"]]
    for bid, b in sorted(held, key=lambda x: _cell_key(x[0])):
        ((seat, count),) = b["gangsters"].items()
        lines.append(f"{n.block(bid)}: {n.name(seat)} {count}")
    streets = [(sid, s) for sid, s in city["streets"].items() if s["gangsters"]]
    for sid, s in sorted(streets):
        ((seat, count),) = s["gangsters"].items()
        lines.append(f"{sid}: {n.name(seat)} {count}")
    if not held and not streets:
        lines.append("No gangster in the city.")
    revealed = ", ".join(_tile_at(t) for t in view["revealed"]) or "none"
    lines.append(f"Revealed: {revealed}")
    decks = view["decks"]
    lines.append(
        f"Stack {view['stack']} · jobs {decks['jobs']} · newsflashes {decks['newsflashes']} · "
        f"fortunes {decks['fortunes']} · tombstones {view['tombstones']}"
    )
    lines.extend(score_line(seat, p, n) for seat, p in sorted(view["players"].items(), key=lambda x: x[1]["seat"]))
    return lines


def _tile_at(tile_id: str) -> str:
    return nm.tile(tile_id)


def _cell_key(cell: str) -> tuple[int, int]:
    x, _, y = cell.partition(",")
    return int(y), int(x)


def score_line(seat: str, p: Mapping[str, Any], n: Names) -> str:
    destinies = ", ".join(nm.card(c) for c in p["destinies"]) or "none"
    safe = p["safe_house"] or "not placed"
    return (
        f"{nm.EMOJI.get(p['color'], '')} **{n.name(seat)}** ({p['color']}): prestige {p['prestige']} · "
        f"bodies {p['bodies']} · supply {p['supply']} · jobs {p['jobs']} · fortunes {p['fortunes']} · "
        f"destinies: {destinies} · Safe House: {safe}"
    )


def turn_line(view: Mapping[str, Any], n: Names, deadline_at: float | None, paused: bool) -> str:
    """Whose turn it is, the hours left and the deadline (or the setup player, or the end)."""
    pending = view.get("pending")
    if view["phase"] == "over" or pending is None:
        return "The game is over."
    when = "the clock is paused" if paused or deadline_at is None else f"deadline {timestamp(deadline_at)}"
    if view["phase"] == "setup":
        return f"Setup: {n.who(pending['player'])} places ({decision_words(pending)}); {when}."
    turn = view["turn"]
    line = f"Turn {turn['number']}: {n.who(turn['player'])}, {hours(turn['hours'])} left this turn; {when}."
    if pending["player"] != turn["player"] or pending["kind"] != "turn":
        line += f" Waiting for {n.who(pending['player'])}: {decision_words(pending)}."
    if view.get("final"):
        line += f" Final round: the game ends after {n.name(view['final']['last'])}'s turn."
    return line


def decision_words(pending: Mapping[str, Any]) -> str:
    kind = pending["kind"]
    if kind == "setup_hq":
        return "their Headquarters"
    if kind == "setup_tile":
        return f"setup tile {pending.get('step', 1)} of 2"
    if kind == "explore":
        return f"what to place on {pending['cell']} (exploring from {pending['street']})"
    if kind == "keep":
        return "which job to keep"
    if kind == "target":
        return f"a target for {nm.card(pending['card'])}"
    if kind == "react":
        return f"a reaction to {nm.card(pending['card'])}"
    if kind == "destiny":
        return "which destiny to execute next"
    return "their turn"


def board_text(view: Mapping[str, Any], n: Names, heading: str, deadline_at: float | None, paused: bool) -> list[str]:
    """The board as one or more messages (the first carries the picture)."""
    lines = [turn_line(view, n, deadline_at, paused), *board_lines(view, n)]
    return chunks(lines, heading)


def board_alt(view: Mapping[str, Any], n: Names) -> str:
    """The picture's alt text: what it shows, in words (at most 1,024 characters)."""
    tiles = view["city"]["tiles"]
    xs = [int(c.split(",")[0]) for c in tiles]
    ys = [int(c.split(",")[1]) for c in tiles]
    counts: dict[str, int] = {}
    for place in (*view["city"]["blocks"].values(), *view["city"]["streets"].values()):
        for seat, k in place["gangsters"].items():
            counts[seat] = counts.get(seat, 0) + k
    gangs = ", ".join(f"{n.name(s)} ({n.color(s)}) {counts.get(s, 0)}" for s in view["players"])
    turn = view.get("turn")
    when = f"turn {turn['number']}, {n.name(turn['player'])} to play" if turn else view["phase"]
    text = (
        f"Crimopolis city map, {when}: {plural(len(tiles), 'tile')} from column {min(xs)} to {max(xs)} and row "
        f"{min(ys)} to {max(ys)}, with streets, blocks, Headquarters and Safe Houses; gangsters in the city: {gangs}. "
        f"Beside it the revealed tiles, the stack and deck sizes and the scoreboard."
    )
    return text[:1024]


# ---- the start and the end ---------------------------------------------------------------------------


def options_line(settings: Mapping[str, Any], options: Mapping[str, Any], *, team: bool = False) -> str:
    """Variant, threshold, gangsters and the house options (`team`: team mode, which is the host's, R118)."""
    house = [
        name
        for key, name in (("influence_on_the_streets", "Influence on the Streets"), ("big_business", "Big Business"))
        if settings.get(key)
    ]
    if options.get("clock_tiles_first"):
        house.append("clock tiles first")
    if team:
        house.append("team mode (2 members per seat)")
    return (
        f"Variant {options['variant'].replace('_', ' ')}: target {options['target_prestige']} prestige, "
        f"{options['gangsters']} gangsters each; house options: {', '.join(house) or 'none'}; "
        f"a timed-out turn passes on {'its hours' if options['timeout_time'] == 'pass' else 'nothing'}."
    )


def seats_line(view: Mapping[str, Any], n: Names) -> str:
    seats = sorted(view["players"].items(), key=lambda x: x[1]["seat"])
    return "Seats: " + ", ".join(f"{p['seat']}. {n.who(s)} ({p['color']})" for s, p in seats)


def results_lines(results: Mapping[str, Any], view: Mapping[str, Any], n: Names) -> list[str]:
    """One line per player with every score field and the total, the ranking and the winners."""
    scores = results["scores"]
    order = [s for group in results["ranking"] for s in group]
    lines = []
    for place, group in enumerate(results["ranking"], 1):
        for seat in group:
            row = scores[seat]
            fields = ", ".join(f"{label} {row[key]}" for key, label in FIELDS)
            body = view["players"][seat]["bodies"]
            lines.append(f"{place}. {n.who(seat)}: {fields} — **total {row['total']}** (body count {body})")
    del order
    winners = " and ".join(n.name(s) for s in results["winners"])
    how = "the last round was played" if results["ended"] == "target" else "the host ended the game"
    lines.append(f"🏆 Winner{'s' if len(results['winners']) > 1 else ''}: **{winners}** ({how}).")
    return lines


def hand_lines(private: Mapping[str, Any]) -> list[str]:
    """The seat's jobs and fortunes by id and title with what they do (a line each, so long hands split well)."""
    jobs = [nm.job_detail(c) for c in private.get("jobs") or []]
    fortunes = [f"- {nm.fortune_detail(c)}" for c in private.get("fortunes") or []]
    lines = ["Your jobs: " + ("; ".join(jobs) if jobs else "none")]
    lines.append("Your fortunes:" + ("" if fortunes else " none"))
    lines += fortunes
    drawn = private.get("drawn") or []
    if drawn:
        lines.append("To keep one of: " + "; ".join(nm.job_detail(c) for c in drawn))
    return lines


def reveal_lines(hands: Sequence[tuple[str, Mapping[str, Any]]], n: Names) -> list[str]:
    """The hands at the end (admin end with reveal)."""
    out = []
    for seat, private in hands:
        cards = [*private.get("jobs", []), *private.get("fortunes", [])]
        out.append(f"{n.who(seat)} held: {', '.join(nm.card(c) for c in cards) or 'nothing'}")
    return out
