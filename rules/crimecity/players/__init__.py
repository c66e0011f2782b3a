"""Computer players for Crime City (rules/players.py is the protocol and the registry of every game's).

- `random`: a uniformly random legal submission, from the seat's view (random_player.py);
- `strong`: determinized search over the hidden seats with the rules engine, per-role heuristics,
  a Mob Boss that deduces (strong.py and its helpers).

The package depends on the contract and the game only; rules/players.py registers what it exports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .outcomes import outcomes, settle, setup_for
from .random_player import RandomPlayer
from .strong import StrongPlayer

LEVELS: Mapping[str, Callable[[], Any]] = {"random": RandomPlayer, "strong": StrongPlayer}
TOURNAMENT_SETTINGS = {"garnets": 10}  # as `python -m rules simulate`; the game's own default is 0

__all__ = ["LEVELS", "TOURNAMENT_SETTINGS", "RandomPlayer", "StrongPlayer", "outcomes", "settle", "setup_for"]
