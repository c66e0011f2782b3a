"""Deadline clocks, as pure functions over clock rows (docs/architecture.md, "Clocks").

A game's pending decision names its clocks, outermost first (`Pending.clocks`); only the last one
runs (and any marked `beneath`, which keep running under it), the others are paused with the time they
had left. The deadline is the running clock that runs out first. A clock that appears starts with its own
length (or the host's default); one that disappears is over. Pausing the game stops them all.

>>> from rules.contract import Clock
>>> rows = reconcile([], (Clock("turn", 60),), now=0, paused=False, default_seconds=3600)
>>> [(r.clock, r.deadline_at, r.remaining) for r in rows]
[('turn', 60, None)]
>>> rows = reconcile(rows, (Clock("turn", 60), Clock("react", 10)), now=20, paused=False, default_seconds=3600)
>>> [(r.clock, r.deadline_at, r.remaining) for r in rows]
[('turn', None, 40), ('react', 30, None)]
>>> rows = reconcile(rows, (Clock("turn", 60),), now=25, paused=False, default_seconds=3600)
>>> [(r.clock, r.deadline_at, r.remaining) for r in rows]
[('turn', 65, None)]
>>> rows = reconcile(rows, (Clock("turn", 60, beneath=True), Clock("react", 50)), now=30, paused=False,
...                  default_seconds=3600)
>>> [(r.clock, r.deadline_at, r.remaining) for r in rows], running(rows).clock
([('turn', 65, None), ('react', 80, None)], 'turn')
>>> rows = resume(pause(rows, 40), (Clock("turn", 60, beneath=True), Clock("react", 50)), 100)
>>> [(r.clock, r.deadline_at, r.remaining) for r in rows]
[('turn', 125, None), ('react', 140, None)]
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.contract import Clock

from ..storage.models import ClockRow


def reconcile(
    old: Sequence[ClockRow], wanted: Sequence[Clock], *, now: float, paused: bool, default_seconds: float
) -> list[ClockRow]:
    """The clock rows after a step: kept clocks keep their time, new ones start, only the last runs."""
    by_id = {c.clock: c for c in old}
    out = []
    last = len(wanted) - 1
    for i, clock in enumerate(wanted):
        prev = by_id.get(clock.id)
        left = (
            _left(prev, now) if prev is not None else (clock.seconds if clock.seconds is not None else default_seconds)
        )
        runs = (i == last or clock.beneath) and not paused
        out.append(ClockRow(clock.id, i, now + left if runs else None, None if runs else left))
    return out


def _left(row: ClockRow, now: float) -> float:
    if row.deadline_at is not None:
        return max(0.0, row.deadline_at - now)
    return max(0.0, row.remaining or 0.0)


def running(rows: Sequence[ClockRow]) -> ClockRow | None:
    """The running clock that runs out first (None while the game is paused)."""
    runs = [r for r in rows if r.deadline_at is not None]
    return min(runs, key=lambda r: r.deadline_at or 0.0) if runs else None


def shown(rows: Sequence[ClockRow]) -> ClockRow | None:
    """The clock to show: the one running out first, or while paused the innermost (its time left)."""
    return running(rows) or (rows[-1] if rows else None)


def pause(rows: Sequence[ClockRow], now: float) -> list[ClockRow]:
    return [ClockRow(r.clock, r.position, None, _left(r, now)) for r in rows]


def resume(rows: Sequence[ClockRow], wanted: Sequence[Clock], now: float) -> list[ClockRow]:
    """The clocks that ran before the pause run again: the last, and those of `wanted` marked `beneath`."""
    out = pause(rows, now)
    beneath = {c.id for c in wanted if c.beneath}
    for i, row in enumerate(out):
        if i == len(out) - 1 or row.clock in beneath:
            out[i] = ClockRow(row.clock, row.position, now + (row.remaining or 0.0), None)
    return out


def set_left(rows: Sequence[ClockRow], now: float, seconds: float, *, paused: bool) -> list[ClockRow]:
    """The open decision's own (last) clock gets `seconds` from now; paused, it will have them when it
    resumes. A clock running beneath it is another decision's (the turn's) and keeps its time."""
    out = list(rows)
    if out:
        last = out[-1]
        out[-1] = ClockRow(last.clock, last.position, None if paused else now + seconds, seconds if paused else None)
    return out


def reminder_at(now: float, deadline_at: float, hours: float) -> float | None:
    """`hours` before the deadline; None when 0 or already past.

    >>> reminder_at(0, 7200, 1), reminder_at(0, 7200, 0), reminder_at(0, 3000, 1)
    (3600, None, None)
    """
    if hours <= 0:
        return None
    at = deadline_at - hours * 3600
    return at if at > now else None


def reminder_by_share(now: float, deadline_at: float, length: float, share: float, shortest: float) -> float | None:
    """When `share` of a clock of `length` seconds has run (its deadline less the rest of its length);
    None for a clock shorter than `shortest`, or when that moment is past (a clock resumed after it).

    >>> reminder_by_share(0, 600, 600, 0.5, 60), reminder_by_share(0, 30, 30, 0.5, 60)
    (300.0, None)
    >>> reminder_by_share(450, 700, 600, 0.5, 60), reminder_by_share(0, 120, 120, 0.0, 60)
    (None, 0.0)
    """
    if length < shortest:
        return None
    at = deadline_at - (1.0 - share) * length
    return at if at >= now else None
