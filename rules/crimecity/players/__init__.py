"""Computer players for Crime City (rules/players.py is the protocol and the registry).

- `random`: a uniformly random legal submission, from the seat's view (random_player.py);
- `strong`: determinized search over the hidden seats with the rules engine, per-role heuristics,
  a Mob Boss that deduces (strong.py and its helpers).
"""

from __future__ import annotations

from ...players import GamePlayers
from .outcomes import outcomes, settle, setup_for
from .random_player import RandomPlayer
from .strong import StrongPlayer

PLAYERS = GamePlayers(
    levels={"random": RandomPlayer, "strong": StrongPlayer},
    outcomes=outcomes,
    tournament_settings={"garnets": 10},
    setup_for=setup_for,
    settle=settle,
)

__all__ = ["PLAYERS", "RandomPlayer", "StrongPlayer"]
