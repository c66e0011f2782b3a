"""Crimopolis on the game contract (rules/contract.py): moves apply one by one (`Pending.together` False).

Moves are replay.md's actions (`{"kind": ...}`); a timeout is sent for the decider
(`Action(seat, {"kind": "timeout"})`, what `timeout_actions` returns); `HOST_END` (by None) is the
replay's `{"host": "end"}`. The state is a `State`, copied before every step, never changed after.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

from ..contract import (
    HOST_END,
    JSON,
    Action,
    Chance,
    Clock,
    Event,
    FormatError,
    GameInfo,
    Move,
    Outcome,
    ParseError,
    Pending,
    Record,
    Refusal,
    Refused,
    Setting,
)
from .actions import read_action
from .checks import check, wrong_decision
from .content import Content, load_content
from .engine import Event as RunEvent
from .engine import Run, new_game
from .replay_format import FORMAT
from .scoring import result
from .state import OVER, SETUP, VARIANTS, State, resolve_options
from .views import seat_view

SETTINGS = (
    Setting("variant", "choice", "standard", "standard, lucky_speed or deeper_strategy (R114, R115)", choices=VARIANTS),
    Setting("target_prestige", "int", None, "Prestige that rings the bell (default by variant; R119)", 5, 60),
    Setting("gangsters", "int", None, "Gangsters per gang (default by variant; R119)", 5, 9),
    Setting("clock_tiles_first", "bool", None, "The 15 clock tiles on top of the stack (default: lucky_speed)"),
    Setting("influence_on_the_streets", "bool", False, "+2 for the most gangsters on streets at the end (R116)"),
    Setting("big_business", "bool", False, "Bonus for 2, 3, 4+ occupied blocks of one location (R117)"),
    Setting(
        "timeout_time", "choice", "forfeit", "What a timed-out turn passes on (R38, R120)", choices=("forfeit", "pass")
    ),
    Setting(
        "turn_hours", "float", 24, "Real hours for each turn and each setup decision (commands.md)", 0.001, 24 * 365
    ),
    Setting("reaction_minutes", "int", 15, "Real minutes for a reaction window (commands.md)", 1, 1440),
    Setting("first_player", "str", None, "The seat that starts (default: drawn at random; Q12)"),
)
INFO = GameInfo(
    id="crimopolis",
    title="Crimopolis",
    min_players=2,
    max_players=5,
    replay_format=FORMAT,
    settings=SETTINGS,
    summary="A city crawl for 2 to 5 gangs: explore, occupy, take over, do jobs; first to 21 prestige rings the bell.",
)


def contract_events(events: Sequence[RunEvent]) -> tuple[Event, ...]:
    return tuple(
        Event.public(kind, dict(data)) if who is None else Event.to(who, kind, dict(data)) for who, kind, data in events
    )


def draw_setup(
    c: Content, seats: Sequence[str], given: Mapping[str, JSON], chance: Chance
) -> tuple[tuple[str, ...], dict[str, list[str]]]:
    """The seat order (start player first, Q12) and the stack and deck orders, from the host's chance."""
    seats = tuple(seats)
    first = given.get("first_player")
    if first is not None:
        if first not in seats:
            raise ValueError(f"first_player: {first!r} is not one of the seats")
        i = seats.index(first)
    else:
        i = chance.dice(1, len(seats))[0] - 1
    players = seats[i:] + seats[:i]
    tiles = chance.shuffle("tiles", list(c.city_tiles))
    opts = options_of(given)
    if opts.clock_tiles_first:
        clock = set(c.clock_tiles)
        tiles = [t for t in tiles if t in clock] + [t for t in tiles if t not in clock]
    orders = {"tiles": tiles}
    for deck in ("jobs", "newsflashes", "fortunes"):
        orders[deck] = chance.shuffle(deck, list(c.decks[deck]))
    return players, orders


def options_of(given: Mapping[str, JSON]) -> Any:
    return resolve_options(
        variant=given.get("variant") or "standard",
        target_prestige=given.get("target_prestige"),
        gangsters=given.get("gangsters"),
        clock_tiles_first=given.get("clock_tiles_first"),
        influence_on_the_streets=bool(given.get("influence_on_the_streets")),
        big_business=bool(given.get("big_business")),
        timeout_time=given.get("timeout_time") or "forfeit",
        turn_seconds=float(given.get("turn_hours") or 24) * 3600,
        reaction_seconds=float(given.get("reaction_minutes") or 15) * 60,
    )


class Crimopolis:
    info = INFO

    def __init__(self, content: Content) -> None:
        self.content = content

    # ---- setup and decisions -------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], settings: Mapping[str, JSON], chance: Chance) -> Outcome:
        seats = tuple(seats)
        if not 2 <= len(seats) <= 5 or len(set(seats)) != len(seats) or not all(seats):
            raise ValueError("Crimopolis needs 2 to 5 distinct seats (R1)")
        given = self.info.settings_from(settings)
        players, orders = draw_setup(self.content, seats, given, chance)
        run = new_game(self.content, players, options_of(given), orders)
        return Outcome(run.s, contract_events(run.ev))

    def pending(self, state: State) -> Pending | None:
        p = state.pending
        if state.phase == OVER or p is None:
            return None
        turn = state.opts.turn_seconds
        if state.phase == SETUP:
            assert state.setup is not None
            clocks: tuple[Clock, ...] = (Clock(f"setup:{p['player']}:{state.setup[1]}", turn),)
        else:
            # commands.md: the turn's clock stops while a window of another player is open; in a window of
            # the turn's own player it keeps running beneath the window's.
            own = p["kind"] == "react" and p["player"] == state.active
            clocks = (Clock(f"turn:{state.number}", turn, beneath=own),)
            if p["kind"] == "react":
                clocks += (Clock(f"react:{state.windows}", state.opts.reaction_seconds),)
        return Pending(p["kind"], (p["player"],), clocks=clocks)

    def check(self, state: State, seat: str | None, move: Move) -> Refusal | None:
        if seat is None:  # replay.md "Refusals": game_over comes first, then malformed
            if state.phase == OVER:
                return Refusal("game_over", "The game has ended.")
            if dict(move) != dict(HOST_END):
                return Refusal("malformed", 'The host\'s only move is {"host": "end"} (R107).')
            return None
        if state.phase == OVER:
            return Refusal("game_over", "The game has ended.")
        if state.pending is None or seat != state.pending["player"]:
            who = state.pending["player"] if state.pending else "nobody"
            return Refusal("not_your_turn", f"It is {who}'s decision, not yours (R108).")
        try:
            action = read_action(self.content, state.players, dict(move), "move")
        except FormatError as e:
            kind = move.get("kind")  # wrong_decision comes before malformed, whatever the rest of the action holds
            wrong = wrong_decision(state.pending["kind"], kind) if isinstance(kind, str) else None
            if wrong:
                return Refusal("wrong_decision", wrong)
            return Refusal("malformed", _unreadable(str(e)))
        no = check(self.content, state, seat, action)
        return None if no is None else Refusal(no[0], no[1])

    def step(self, state: State, actions: Sequence[Action], chance: Chance) -> Outcome:
        run = Run(self.content, state.copy())
        for action in actions:
            refusal = self.check(run.s, action.by, action.move)
            if refusal is not None:
                raise Refused(refusal)
            if action.by is None:
                run.finish("host")
            else:
                run.answer(action.by, dict(action.move))
        return Outcome(run.s, contract_events(run.ev))

    def timeout_actions(self, state: State) -> list[Action]:
        if state.phase == OVER or state.pending is None:
            return []
        return [Action(state.pending["player"], {"kind": "timeout"})]

    # ---- what people see -----------------------------------------------------------------------------

    def view(self, state: State, seat: str | None) -> dict[str, JSON]:
        return seat_view(self.content, state, seat)

    def results(self, state: State) -> dict[str, JSON] | None:
        return result(self.content, state)

    def hidden(self, state: State) -> set[str]:
        """Strings no public view or event may hold while the game runs: each seat's private part as the
        canonical JSON the suite compares, and the orders of the stack and the decks (2 cards or more)."""
        import json

        from .views import private_of

        if state.phase == OVER:
            return set()
        out = {json.dumps(private_of(state, p), sort_keys=True, separators=(",", ":")) for p in state.players}
        for order in (state.stack, *state.decks.values()):
            if len(order) >= 2:
                out.add(",".join(order))
        return out

    # ---- encodings -----------------------------------------------------------------------------------

    def encode_state(self, state: State) -> dict[str, JSON]:
        return {"content": self.content.id, **state.encode()}

    def decode_state(self, doc: Mapping[str, JSON]) -> State:
        if doc.get("content") != self.content.id:
            raise ParseError(f"content: this state is of pack {doc.get('content')!r}, not {self.content.id!r}")
        return State.decode(self.content, doc)

    def encode_move(self, move: Move) -> dict[str, JSON]:
        return dict(move)

    def decode_move(self, doc: Any) -> Move:
        if not isinstance(doc, dict):
            raise ParseError("a move is a JSON object")
        return dict(doc)

    def random_move(self, state: State, seat: str, rng: Random) -> Move | None:
        from .policy import random_move

        return random_move(self.content, state, seat, rng)

    # ---- files ---------------------------------------------------------------------------------------

    def replay(self, doc: Any) -> dict[str, JSON]:
        from .replay import run_replay

        return run_replay(self.content, doc)

    def legal(self, doc: Any, player: str) -> dict[str, JSON]:
        from .replay import legal_for

        return legal_for(self.content, doc, player)

    def export(self, record: Record) -> dict[str, JSON]:
        from .export import export_record

        return export_record(self, record)

    def simulate(self, games: int, seed: int, tick: Callable[[], None] | None = None) -> str:
        from .simulate import simulate

        return simulate(self.content, games, seed, tick).report()

    @property
    def content_id(self) -> str:
        """The content pack's `id` (what a replay file's `content` names)."""
        return self.content.id

    def with_content(self, directory: str) -> Crimopolis:
        """The same game with a group's own content pack (`--content DIR`; content.md)."""
        from .content_files import directory_docs

        return make_game(load_content(directory_docs(directory)))


def make_game(content: Content) -> Crimopolis:
    return Crimopolis(content)


def house_game() -> Crimopolis:
    from .content_files import packaged_docs

    return make_game(load_content(packaged_docs()))


GAME = house_game()


def _unreadable(message: str) -> str:
    """A field's format error in a player's words: "move.card: unknown card 'J99'" → "Unknown card 'J99' (card)."

    >>> _unreadable("move.card: unknown card 'J99'")
    "Unknown card 'J99' (card)."
    >>> _unreadable("move: an action is an object, not a list")
    'An action is an object, not a list.'
    """
    where, _, why = message.partition(": ")
    field = where.removeprefix("move").removeprefix(".")
    return f"{why[:1].upper()}{why[1:]}" + (f" ({field})." if field else ".")
