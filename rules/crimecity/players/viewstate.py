"""Engine states a player builds from its own knowledge: the real state never reaches a player.

The seat's own data is exact; the other seats come from a determinization (a sampled assignment), and
what no view shows about them (their cooldowns, balances, progress) is left empty.
"""

from __future__ import annotations

from ..state import GameState, Progress, Seat
from .belief import consistent, seat_others
from .knowledge import Knowledge


def state_for(k: Knowledge, seats: dict[str, Seat]) -> GameState:
    """A round's S0 as this seat imagines it, with `seats` for everyone."""
    me = k.me
    return GameState(
        players=k.players,
        seats=seats,
        rounds_total=k.rounds_total,
        round=k.round,
        positions=dict(k.positions),
        governor_alive=k.governor_alive,
        friendship=dict(k.friendship),
        cooldowns={p: k.cooldowns if p == me else frozenset() for p in k.players},
        garnets={p: k.garnets if p == me else 0 for p in k.players},
        progress={p: k.progress if p == me else Progress() for p in k.players},
        completed={me: k.completed} if k.completed is not None else {},
    )


def own_state(k: Knowledge) -> GameState:
    """A state that is exact for everything this seat's legal moves depend on (the others are placeholders)."""
    return state_for(k, seat_others(k, consistent(k)[0], None))
