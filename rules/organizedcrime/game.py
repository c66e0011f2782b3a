"""Organized Crime on the game contract (rules/contract.py).

Moves are replay.md's actions without `by` (the contract's `Action.by` is the seat); the host's moves are
`{"act": "timeout"}` (the running clock's deadline passed) and `HOST_END`. Moves apply one by one
(`Pending.together` False). The state is the engine's JSON state plus the resolved settings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
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
from .actions import awaited, optional, perform, read, refuse, timeout
from .content import Content
from .engine import Engine, GameOver
from .replay import FORMAT, run_legal, run_replay
from .state import State, alive, clone, new_state
from .views import public_state, seat_view

TIMEOUT: Mapping[str, str] = {"act": "timeout"}

# commands.md "Pace presets": seconds per decision
PACES: dict[str, dict[str, float]] = {
    "live": {"base": 180, "turn": 600, "bargain": 300, "bargain_minimum": 60, "vote": 120, "vote_sealed": 180,
             "session": 180, "window": 10, "choice": 120},
    "async": {"base": 43200, "turn": 86400, "bargain": 43200, "bargain_minimum": 7200, "vote": 28800,
              "vote_sealed": 43200, "session": 14400, "window": 21600, "choice": 21600},
}
MINUTES = ("turn", "base", "bargain", "bargain_minimum", "vote", "session", "choice")


def _settings() -> tuple[Setting, ...]:
    minutes = tuple(Setting(f"{name}_minutes", "float", 0, f"Deadline of {name.replace('_', ' ')} in minutes "
                            "(0: the pace's preset)", minimum=0, maximum=100000) for name in MINUTES
                    if name != "bargain_minimum")
    # Not a deadline but a wait: 0 means none (the caller may call the vote at once), so "not given" is None.
    minimum = Setting("bargain_minimum_minutes", "float", None, "Minutes before the caller may call the vote "
                      "(0: at once; not given: the pace's preset)", minimum=0, maximum=100000)
    return (
        Setting("pace", "choice", "live", "Deadline presets: live or async (commands.md)", choices=("live", "async")),
        Setting("ballots", "choice", "open", "Ballots: open (faithful) or sealed (house rule, R121)",
                choices=("open", "sealed")),
        Setting("round_cap", "int", 0, "House rule R127: end after this round (0: no cap)", minimum=0, maximum=100),
        Setting("auto_income", "bool", False, "House rule R33: collect income when the turn begins"),
        Setting("bases", "map", {}, "Home Bases given to every seat (skips the Home Base rolls and choices)"),
        Setting("first", "str", "", "The seat that plays first (skips the first-player rolls)"),
        *minutes,
        minimum,
        Setting("window_seconds", "float", 0, "Penalty window in seconds (0: the pace's preset)", minimum=0,
                maximum=10**7),
        Setting("reminder_percent", "int", 50, "Remind an awaited player after this share of the time", minimum=0,
                maximum=90),
    )


INFO = GameInfo(
    id="organizedcrime",
    title="Organized Crime",
    min_players=2,
    max_players=4,
    replay_format=FORMAT,
    settings=_settings(),
    summary="A survival game for 2 to 4 Bosses: Hit-Men, rub-outs, Commission meetings, votes and debts.",
)


def deadlines(settings: Mapping[str, JSON]) -> dict[str, float]:
    """Seconds per decision: the pace's presets with the given overrides."""
    pace = dict(PACES[str(settings.get("pace") or "live")])
    for name in MINUTES:
        given = settings.get(f"{name}_minutes")
        if name == "bargain_minimum" and given is not None:
            pace[name] = float(given) * 60  # 0: no wait at all
        elif given:
            pace[name] = float(given) * 60
            if name == "vote":
                pace["vote_sealed"] = float(given) * 60
    if settings.get("window_seconds"):
        pace["window"] = float(settings["window_seconds"])
    return pace


class OrganizedCrime:
    def __init__(self, content: Content | None = None) -> None:
        self._content = content

    @property
    def content(self) -> Content:
        if self._content is None:
            from .content_files import house

            self._content = house()
        return self._content

    @property
    def info(self) -> GameInfo:
        """INFO, with the seat limits of the content: `players_min` to `players_max`, one seat per Home Base (R1)."""
        c = self.content
        low, high = c.n("players_min"), min(c.n("players_max"), len(c.bases))
        if (low, high) == (INFO.min_players, INFO.max_players):
            return INFO
        summary = INFO.summary.replace(f"{INFO.min_players} to {INFO.max_players}", f"{low} to {high}")
        return replace(INFO, min_players=low, max_players=high, summary=summary)

    @property
    def content_id(self) -> str:
        """The content's name: its board's `id` (what a replay file's `content` names)."""
        return self.content.board_id

    def with_content(self, directory: str) -> OrganizedCrime:
        """The game on a group's replacement content (the same four file names in `directory`)."""
        from .content_files import from_directory

        return OrganizedCrime(from_directory(directory))

    # ---- the contract ------------------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], settings: Mapping[str, JSON], chance: Chance) -> Outcome:
        c = self.content
        players = list(seats)
        if not c.n("players_min") <= len(players) <= min(c.n("players_max"), len(c.bases)):
            raise ValueError(f"Organized Crime needs {c.n('players_min')} to "
                             f"{min(c.n('players_max'), len(c.bases))} seats (R1, one per Home Base)")
        if len(set(players)) != len(players) or "treasury" in players:
            raise ValueError("seats must be distinct (and none may be called 'treasury')")
        given = self.info.settings_from(settings)
        options = {"ballots": given["ballots"], "round_cap": given["round_cap"] or None,
                   "auto_income": given["auto_income"]}
        bases = dict(given["bases"]) or None
        if bases is not None:
            if sorted(bases) != sorted(players) or len(set(bases.values())) != len(bases) or not all(
                    b in c.bases for b in bases.values()):
                raise ValueError("bases must give every seat a distinct Home Base of the board")
        first = given["first"] or None
        if first is not None and first not in players:
            raise ValueError(f"first: {first!r} is not a seat")
        st = new_state(players, options, c.n("start_money"))
        st["settings"] = dict(given)
        eng = Engine(c, st, chance)
        try:
            eng.shuffle_all()
            eng.begin_setup(bases, first)
        except GameOver:
            pass
        return Outcome(st, tuple(_event(e) for e in eng.events))

    def pending(self, state: State) -> Pending | None:
        phase = state["phase"]
        if phase in (None, "over"):
            return None
        return Pending(phase, tuple(awaited(state)), tuple(optional(state)), False, self._clocks(state))

    def _clocks(self, st: State) -> tuple[Clock, ...]:
        d = deadlines(st.get("settings") or {})
        phase = st["phase"]
        mt = st["meeting"]
        if phase == "choose_base":
            return (Clock(f"base:{st['choosers'][0]}", d["base"]),)
        turn = Clock(f"turn:{st['turn']}", d["turn"])
        if phase in ("turn", "path"):
            return (turn,)
        if phase == "penalty_window":
            return (Clock(f"window:{st['turn']}", d["window"]),)
        outer = (turn,) if mt is not None and mt["type"] == "acquisition" else ()
        mid = f"meeting:{mt['id']}"
        if phase == "bargain":
            return (*outer, Clock(f"{mid}:bargain", d["bargain"]))
        if phase == "vote":
            if st["options"]["ballots"] == "sealed":
                return (*outer, Clock(f"{mid}:vote", d["vote_sealed"]))
            return (*outer, Clock(f"{mid}:vote:{awaited(st)[0]}", d["vote"]))
        if phase == "penalty_choice":
            return (*outer, Clock(f"{mid}:choice", d["choice"]))
        return (*outer, Clock(f"{mid}:session", d["session"]))

    def check(self, state: State, seat: str | None, move: Move) -> Refusal | None:
        over = state["phase"] in (None, "over")
        if seat is None:
            if over:
                return Refusal("wrong_phase", "The game is over.")
            if dict(move) in (dict(HOST_END), dict(TIMEOUT)):
                return None
            return Refusal("not_yours", "The host may only end the game or apply a timeout.")
        # replay.md's check order: malformed, not_in_game, wrong_phase, not_yours, then the act's own checks
        if "by" in move:
            return Refusal("malformed", "A move names no `by` (the seat is the mover).")
        try:
            action, malformed = read(move, state["players"], self.content, "move")
        except FormatError as e:
            return Refusal("malformed", str(e))
        if malformed:
            return Refusal("malformed", malformed)
        if seat not in state["pl"]:
            return Refusal("not_in_game", f"{seat} is not a player of this game.")
        if over:
            return Refusal("wrong_phase", "The game is over.")
        if action["act"] == "timeout":
            return Refusal("not_yours", "Only the host applies a timeout.")
        eng = Engine(self.content, state, _NoDraw())
        refusal = refuse(eng, seat, action)
        return None if refusal is None else Refusal(*refusal)

    def step(self, state: State, actions: Sequence[Action], chance: Chance) -> Outcome:
        st = clone(state)
        events: list[Event] = []
        for action in actions:
            refusal = self.check(st, action.by, action.move)
            if refusal is not None:
                raise Refused(refusal)
            eng = Engine(self.content, st, chance)
            try:
                if action.by is None and dict(action.move) == dict(HOST_END):
                    st["result"] = eng.result("host")
                    st["phase"] = "over"
                    eng.emit("game_over", reason="host", winners=st["result"]["winners"])
                elif action.by is None:
                    timeout(eng)
                else:
                    perform(eng, action.by, dict(action.move))
            except GameOver:
                pass
            events.extend(_event(e) for e in eng.events)
        return Outcome(st, tuple(events))

    def timeout_actions(self, state: State) -> list[Action]:
        return [] if state["phase"] in (None, "over") else [Action(None, dict(TIMEOUT))]

    def view(self, state: State, seat: str | None) -> dict[str, JSON]:
        if seat is None:
            return public_state(self.content, state)
        return seat_view(self.content, state, seat)

    def results(self, state: State) -> dict[str, JSON] | None:
        return None if state["phase"] != "over" else clone(state["result"])

    def encode_state(self, state: State) -> dict[str, JSON]:
        return dict(clone(state))

    def decode_state(self, doc: Mapping[str, JSON]) -> State:
        if not isinstance(doc, Mapping) or "pl" not in doc or "players" not in doc:
            raise ParseError("not an Organized Crime state")
        return dict(clone(dict(doc)))

    def encode_move(self, move: Move) -> dict[str, JSON]:
        return dict(clone(dict(move)))

    def decode_move(self, doc: Any) -> Move:
        if not isinstance(doc, dict):
            raise ParseError("a move must be an object")
        return dict(clone(doc))

    def random_move(self, state: State, seat: str, rng: Random) -> Move | None:
        from .policy import random_action

        if state["phase"] in (None, "over") or seat not in state["pl"] or not alive(state, seat):
            return None
        return random_action(Engine(self.content, state, _NoDraw()), seat, rng)

    def replay(self, doc: Any) -> dict[str, JSON]:
        return run_replay(self.content, doc)

    def legal(self, doc: Any, player: str) -> dict[str, JSON]:
        return run_legal(self.content, doc, player)

    def export(self, record: Record) -> dict[str, JSON]:
        from .export import export_record

        return export_record(self.content, record)

    def simulate(self, games: int, seed: int, tick: Callable[[], None] | None = None) -> str:
        from .simulate import simulate

        return simulate(self.content, games, seed, tick).report()

    def hidden(self, state: State) -> set[str]:
        if state["phase"] in (None, "over"):
            return set()
        out = set()
        for p in state["players"]:
            pl = state["pl"][p]
            for hand in ("power", "official"):
                if pl[hand]:
                    out.add(f"hand {p} {hand} {' '.join(sorted(pl[hand]))}")
        for deck, d in state["decks"].items():
            if d["draw"]:
                out.add(f"facedown {deck} {' '.join(d['draw'])}")
        for p, b in state.get("sealed", {}).items():
            out.add(f"sealed ballot {p} {b['side']} {b['votes']}")
        return out


class _NoDraw:
    """check() and random_move() draw no chance."""

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        raise AssertionError("no chance while checking")

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]:
        raise AssertionError("no chance while checking")


def _event(e: Mapping[str, Any]) -> Event:
    data = {k: v for k, v in e.items() if k not in ("audience", "kind")}
    if e["audience"] == "public":
        return Event.public(e["kind"], data)
    return Event.to(tuple(e["audience"]), e["kind"], data)


GAME = OrganizedCrime()
