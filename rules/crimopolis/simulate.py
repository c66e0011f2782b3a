"""Random legal games for hosts who tune Crimopolis (`python -m rules simulate --game crimopolis`).

Every game is played by `policy.random_move` for every seat from setup to the end, with player counts
cycling 2, 3, 4, 5. Randomness comes only from the seeded `Random`, so a seed gives the same figures.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from .content import Content
from .engine import Run, new_game
from .policy import random_move
from .scoring import scores
from .state import OVER, Options, resolve_options

COMPONENTS = (
    "prestige",
    "small_blocks",
    "large_blocks",
    "bodies",
    "most_bodies",
    "fortunes",
    "streets",
    "big_business",
)
MAX_STEPS = 6000  # far above any game seen; a game that reaches it is ended by the host and counted


@dataclass
class Figures:
    opts: Options = field(default_factory=resolve_options)
    pack: str = "house-1"  # the content pack's id
    games: int = 0
    by_players: Counter[int] = field(default_factory=Counter)
    turns: dict[int, list[int]] = field(default_factory=dict)  # players -> turns per game
    steps: list[int] = field(default_factory=list)
    capped: int = 0
    bell_seat: dict[int, Counter[int]] = field(default_factory=dict)  # players -> seat that rang the bell
    wins_seat: dict[int, dict[int, float]] = field(default_factory=dict)  # players -> seat -> wins (ties split)
    shares: Counter[str] = field(default_factory=Counter)
    paths: dict[str, float] = field(default_factory=dict)
    ties: int = 0
    winning_totals: list[int] = field(default_factory=list)

    def report(self) -> str:
        o = self.opts
        lines = [
            f"Crimopolis: {self.games} random legal games (pack {self.pack}; {o.variant}, T {o.target_prestige}, "
            f"G {o.gangsters}; 2, 3, 4, 5 players in turn)"
        ]
        lines.append("game length (turns in all, and per player):")
        for n in sorted(self.turns):
            ts = self.turns[n]
            lines.append(
                f"  {n} players: {len(ts)} games, mean {statistics.mean(ts):.1f} turns "
                f"({statistics.mean(ts) / n:.1f} per player), median {statistics.median(ts):.0f}, max {max(ts)}"
            )
        lines.append(
            f"  steps per game: mean {statistics.mean(self.steps):.0f}; games cut at {MAX_STEPS} steps: {self.capped}"
        )
        lines.append("who rings the bell (share of games, by seat):")
        for n in sorted(self.bell_seat):
            c = self.bell_seat[n]
            total = sum(c.values()) or 1
            lines.append(
                "  " + f"{n} players: " + ", ".join(f"seat {s} {100 * c[s] / total:.0f}%" for s in range(1, n + 1))
            )
        total = sum(self.shares.values()) or 1
        lines.append("score components' share of all final scores:")
        lines.append("  " + ", ".join(f"{k} {100 * self.shares[k] / total:.1f}%" for k in COMPONENTS))
        wins = sum(self.paths.values()) or 1
        lines.append("paths to victory (how the winner got ahead of the best prestige of play):")
        lines.append("  " + ", ".join(f"{k} {100 * v / wins:.0f}%" for k, v in sorted(self.paths.items())))
        lines.append(
            f"  shared victories: {100 * self.ties / max(1, self.games):.1f}% of games; "
            f"mean winning total {statistics.mean(self.winning_totals):.1f}"
        )
        lines.append("seat advantage (win share by seat; fair share in brackets):")
        for n in sorted(self.wins_seat):
            w = self.wins_seat[n]
            total_w = sum(w.values()) or 1
            lines.append(
                "  "
                + f"{n} players [{100 / n:.0f}%]: "
                + ", ".join(f"seat {s} {100 * w.get(s, 0.0) / total_w:.0f}%" for s in range(1, n + 1))
            )
        return "\n".join(lines) + "\n"


def play_one(c: Content, n: int, rng: Random, opts: Options | None = None) -> tuple[Run, int]:
    """One random game from setup to the end; returns the run and its number of steps."""
    players = tuple(f"p{i}" for i in range(1, n + 1))
    orders = {"tiles": list(c.city_tiles)}
    rng.shuffle(orders["tiles"])
    for deck in ("jobs", "newsflashes", "fortunes"):
        orders[deck] = list(c.decks[deck])
        rng.shuffle(orders[deck])
    opts = opts or resolve_options()
    if opts.clock_tiles_first:
        clock = set(c.clock_tiles)
        orders["tiles"] = [t for t in orders["tiles"] if t in clock] + [t for t in orders["tiles"] if t not in clock]
    run = new_game(c, players, opts, orders)
    s = run.s
    steps = 0
    while s.phase != OVER and steps < MAX_STEPS:
        assert s.pending is not None
        who = s.pending["player"]
        if rng.random() < 0.01:
            run.answer(who, {"kind": "timeout"})
        else:
            move = random_move(c, s, who, rng)
            assert move is not None
            run.answer(who, move)
        run.ev.clear()
        steps += 1
    if s.phase != OVER:
        run.finish("host")
    return run, steps


def simulate(
    c: Content, games: int, seed: int, tick: Callable[[], None] | None = None, opts: Options | None = None
) -> Figures:
    """`opts` (default: the standard game) lets docs/crimopolis/balance.md compare the variants."""
    rng = Random(seed)
    fig = Figures(opts=opts or resolve_options(), pack=c.id)
    for i in range(games):
        n = 2 + i % 4
        run, steps = play_one(c, n, rng, fig.opts)
        s = run.s
        fig.games += 1
        fig.by_players[n] += 1
        fig.steps.append(steps)
        fig.capped += steps >= MAX_STEPS
        fig.turns.setdefault(n, []).append(s.number)
        if s.final is not None:
            fig.bell_seat.setdefault(n, Counter())[s.players.index(s.final["triggered_by"]) + 1] += 1
        table = scores(c, s)
        for row in table.values():
            for k in COMPONENTS:
                fig.shares[k] += row[k]
        best = max(row["total"] for row in table.values())
        top = [p for p in s.players if table[p]["total"] == best]
        most = max(s.pl[p].bodies for p in top)
        winners = [p for p in top if s.pl[p].bodies == most]
        fig.ties += len(winners) > 1
        fig.winning_totals.append(best)
        for p in winners:
            seats = fig.wins_seat.setdefault(n, {})
            seat = s.players.index(p) + 1
            seats[seat] = seats.get(seat, 0.0) + 1 / len(winners)
            path = _path(table, p)
            fig.paths[path] = fig.paths.get(path, 0.0) + 1 / len(winners)
        if tick is not None:
            tick()
    return fig


def _path(table: dict[str, dict[str, int]], winner: str) -> str:
    """`prestige` if the winner led on prestige of play already; else the final-scoring group that gained
    the winner most over the prestige leader: influence (blocks, streets, big business), bodies or fortunes."""
    lead = max(row["prestige"] for row in table.values())
    me = table[winner]
    if me["prestige"] == lead:
        return "prestige"
    leader = max((p for p in table if table[p]["prestige"] == lead), key=lambda p: table[p]["total"])
    them = table[leader]

    def gain(keys: tuple[str, ...]) -> int:
        return sum(me[k] - them[k] for k in keys)

    groups = {
        "influence": gain(("small_blocks", "large_blocks", "streets", "big_business")),
        "bodies": gain(("bodies", "most_bodies")),
        "fortunes": gain(("fortunes",)),
    }
    return max(groups, key=lambda k: (groups[k], k))


__all__ = ["Figures", "play_one", "simulate"]
