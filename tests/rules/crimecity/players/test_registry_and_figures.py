"""The player registry the host calls, and the tournament's figures (intervals, percentiles, merging)."""

from __future__ import annotations

import pytest

from rules.players import SeatOutcome, UnknownLevel, levels, make
from rules.tournament import Tally, mean_interval, percentile, run, wilson


def test_levels_and_players_by_name() -> None:
    assert levels("crimecity") == ["random", "strong"]
    assert [make("crimecity", lv).level for lv in levels("crimecity")] == ["random", "strong"]
    with pytest.raises(UnknownLevel, match="unknown level 'expert' for crimecity"):
        make("crimecity", "expert")
    with pytest.raises(UnknownLevel, match="no computer players for game 'chess'"):
        levels("chess")


def test_intervals() -> None:
    p, lo, hi = wilson(0, 20)
    assert p == 0 and lo == 0 and 0.1 < hi < 0.2
    p, lo, hi = wilson(500, 1000)
    assert p == 0.5 and abs((hi - lo) - 0.062) < 0.001
    m, lo, hi = mean_interval(10.0, 50.0, 2)  # values 5 and 5
    assert (m, lo, hi) == (5.0, 5.0, 5.0)
    assert percentile([3.0, 1.0, 2.0], 99) == 3.0 and percentile([], 50) == 0.0


def test_slices_of_a_tournament_merge_into_the_whole() -> None:
    whole = run("crimecity", ["random"] * 5, games=6, seed=3)
    part = run("crimecity", ["random"] * 5, games=2, seed=3)
    part.merge(run("crimecity", ["random"] * 5, games=4, seed=3, first=2))
    assert part.games == whole.games == 6
    assert {k: (r.n, r.rates, r.sums) for k, r in part.rows.items()} == {
        k: (r.n, r.rates, r.sums) for k, r in whole.rows.items()
    }


def test_a_tally_counts_each_seat_in_its_group_and_in_all() -> None:
    t = Tally("crimecity", ("a", "b"), 0, {}, None)
    t.add(["a", "b"], ["p1", "p2"], {"p1": SeatOutcome("fraud", {"goal": True}, {"award": 15.0}),
                                    "p2": SeatOutcome("hitman", {"goal": False}, {"award": 0.0})})
    assert t.rows[("a", "all")].rates == {"goal": 1} and t.rows[("a", "fraud")].sums == {"award": 15.0}
    assert t.rows[("b", "hitman")].n == 1 and ("b", "fraud") not in t.rows
