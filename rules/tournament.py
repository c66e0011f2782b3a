"""Full games between computer players, as a host would run them, and the figures per level and group.

`python -m rules tournament` is the command-line face. The host's part is played exactly: the game is
set up with `SeededChance`, each player gets its seat's view, the pending decision and the events its
seat received (nothing else), and a `Random` from `player_rng(secret, seat, step)`. Its move is checked
with `game.check` before it is applied: a refused move is a bug of the player and stops the tournament.

Pure like the rest of `rules`: the clock that times decisions is passed in (None: no timing).

    >>> t = run("crimecity", ["random"] * 5, games=3, seed=1)
    >>> t.games, sorted(t.rows)[0]
    (3, ('random', 'all'))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .contract import JSON, Action, Event, Game, Pending, Refused, SeededChance
from .players import ComputerPlayer, SeatOutcome, make, player_rng, registered

Z95 = 1.959963984540054
MAX_STEPS = 10_000


@dataclass
class Row:
    """Sums for one (level, group): counts of each 0/1 outcome, sums and squares of each amount."""

    n: int = 0
    rates: dict[str, int] = field(default_factory=dict)
    sums: dict[str, float] = field(default_factory=dict)
    squares: dict[str, float] = field(default_factory=dict)

    def add(self, outcome: SeatOutcome) -> None:
        self.n += 1
        for name, hit in outcome.rates.items():
            self.rates[name] = self.rates.get(name, 0) + int(hit)
        for name, x in outcome.amounts.items():
            self.sums[name] = self.sums.get(name, 0.0) + x
            self.squares[name] = self.squares.get(name, 0.0) + x * x

    def merge(self, other: Row) -> None:
        self.n += other.n
        for name, c in other.rates.items():
            self.rates[name] = self.rates.get(name, 0) + c
        for name, s in other.sums.items():
            self.sums[name] = self.sums.get(name, 0.0) + s
        for name, s in other.squares.items():
            self.squares[name] = self.squares.get(name, 0.0) + s


@dataclass
class Tally:
    game: str
    seats: tuple[str, ...]  # the level of each seat
    seed: int
    settings: dict[str, JSON]
    draft_by: str | None
    games: int = 0
    rows: dict[tuple[str, str], Row] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)  # seconds per decision, per level

    def add(self, levels: Sequence[str], seats: Sequence[str], outcomes: Mapping[str, SeatOutcome]) -> None:
        self.games += 1
        for level, seat in zip(levels, seats, strict=True):
            o = outcomes[seat]
            for group in ("all", o.group):
                self.rows.setdefault((level, group), Row()).add(o)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for key, row in other.rows.items():
            self.rows.setdefault(key, Row()).merge(row)
        for level, ts in other.times.items():
            self.times.setdefault(level, []).extend(ts)


def wilson(hits: int, n: int) -> tuple[float, float, float]:
    """A rate and its 95% Wilson score interval.

    >>> [round(x, 3) for x in wilson(30, 100)]
    [0.3, 0.219, 0.396]
    """
    if n == 0:
        return 0.0, 0.0, 1.0
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """A mean and its 95% normal interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    var = max(0.0, squares / n - mean * mean) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0-100).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 99)
    (2.0, 4.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def play(
    game: Game,
    players: Sequence[ComputerPlayer],
    settings: Mapping[str, JSON],
    secret: str,
    *,
    draft_player: ComputerPlayer | None = None,
    settle: Callable[[Any, Any], Action | None] | None = None,
    clock: Callable[[], float] | None = None,
    times: dict[str, list[float]] | None = None,
) -> tuple[Any, tuple[str, ...]]:
    """One whole game between `players` (one per seat, in order). Returns the final state and the seats."""
    seats = tuple(f"p{i}" for i in range(1, len(players) + 1))
    by_seat = dict(zip(seats, players, strict=True))
    chance = SeededChance(secret)
    out = game.setup(seats, settings, chance)
    state = out.state
    seen: dict[str, list[Event]] = {s: [] for s in seats}

    def deliver(events: Sequence[Event]) -> None:
        for e in events:
            for s in seats:
                if e.visible_to(s):
                    seen[s].append(e)

    def ask(seat: str, pending: Pending, step: int) -> Action | None:
        player = by_seat[seat]
        if draft_player is not None and pending.decision == "draft":
            player = draft_player
        view = game.view(state, seat)
        rng = player_rng(secret, seat, step)
        start = clock() if clock is not None else 0.0
        move = player.decide(view, pending, tuple(seen[seat]), rng)
        if clock is not None and times is not None:
            times.setdefault(player.level, []).append(clock() - start)
        if move is None:
            return None
        refusal = game.check(state, seat, move)
        if refusal is not None:
            raise Refused(refusal)
        return Action(seat, move)

    deliver(out.events)
    for step in range(1, MAX_STEPS + 1):
        pending = game.pending(state)
        if pending is None:
            return state, seats
        host = settle(state, player_rng(secret, "host", step)) if settle is not None else None
        if host is not None:
            actions = [host]
        elif pending.together:
            actions = [a for s in pending.awaited if (a := ask(s, pending, step)) is not None]
        else:
            actions = []
            for s in pending.awaited:
                a = ask(s, pending, step)
                if a is not None:
                    actions = [a]
                    break
            if not actions:
                actions = game.timeout_actions(state)
        out = game.step(state, actions, chance)
        state = out.state
        deliver(out.events)
    raise RuntimeError(f"game {secret} did not end in {MAX_STEPS} steps")


def run(
    game_id: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    *,
    settings: Mapping[str, JSON] | None = None,
    draft_by: str | None = None,
    clock: Callable[[], float] | None = None,
    tick: Callable[[], None] | None = None,
    first: int = 0,
) -> Tally:
    """`games` games (numbered from `first`) with seat i played at `levels[i]`; game n's secret seed is
    derived from (seed, n) only, so any slice of a tournament can be played apart and merged."""
    game = registry.get(game_id)
    entry = registered(game_id)
    chosen = {**entry.tournament_settings, **(settings or {})}
    players = [make(game_id, level) for level in levels]
    draft_player = make(game_id, draft_by) if draft_by is not None else None
    tally = Tally(game_id, tuple(levels), seed, dict(chosen), draft_by)
    for n in range(first, first + games):
        secret = f"tournament:{seed}:{n}"
        state, seats = play(
            game, players, entry.setup_for(chosen, secret), secret,
            draft_player=draft_player, settle=entry.settle, clock=clock, times=tally.times,
        )
        tally.add(levels, seats, entry.outcomes(state))
        if tick is not None:
            tick()
    return tally


def report(t: Tally) -> str:
    """The figures as a table: per level and group, each rate and amount with its 95% interval."""
    rate_names: list[str] = []
    amount_names: list[str] = []
    for row in t.rows.values():
        rate_names += [r for r in row.rates if r not in rate_names]
        amount_names += [a for a in row.sums if a not in amount_names]
    settings = ", ".join(f"{k}={v}" for k, v in sorted(t.settings.items()))
    draft = f"every seat at {t.draft_by}" if t.draft_by else "each seat at its level"
    lines = [
        f"Tournament of {t.game}: {t.games} games, seed {t.seed}, seats {','.join(t.seats)}",
        f"settings: {settings or 'defaults'}; draft: {draft}",
        "rates in % with 95% Wilson intervals; amounts as means with 95% normal intervals",
        "",
    ]
    head = f"{'level':<8} {'group':<13} {'seats':>6}" + "".join(f"  {n:<20}" for n in rate_names + amount_names)
    lines.append(head.rstrip())
    levels = list(dict.fromkeys(t.seats))
    for level in levels:
        groups = sorted((g for lv, g in t.rows if lv == level), key=lambda g: (g != "all", g))
        for group in groups:
            row = t.rows[(level, group)]
            cells = []
            for name in rate_names:
                p, lo, hi = wilson(row.rates.get(name, 0), row.n)
                cells.append(f"{100 * p:5.1f} [{100 * lo:4.1f},{100 * hi:5.1f}]")
            for name in amount_names:
                m, lo, hi = mean_interval(row.sums.get(name, 0.0), row.squares.get(name, 0.0), row.n)
                cells.append(f"{m:5.2f} [{lo:5.2f},{hi:5.2f}]")
            line = f"{level:<8} {group:<13} {row.n:>6}" + "".join(f"  {c:<20}" for c in cells)
            lines.append(line.rstrip())
    if t.times:
        lines += ["", "time per decision (milliseconds):"]
        for level in sorted(t.times):
            ts = [1000 * x for x in t.times[level]]
            lines.append(
                f"  {level:<8} decisions {len(ts):>8}  p50 {percentile(ts, 50):8.2f}  p99 {percentile(ts, 99):8.2f}"
                f"  max {max(ts):8.2f}"
            )
    return "\n".join(lines) + "\n"
