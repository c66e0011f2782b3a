"""The public view of a state, computed once per state a command or a step reads it through.

A move's answer reads it several times (the caller's names, the step's texts, the receipt); the host hands
the same decoded state object to all of them, and a state is never changed once decoded or stepped (the
rules return new states), so the view of an object already seen is the same view. Callers must not
change what they are given.
"""

from __future__ import annotations

from typing import Any

from rules.organizedcrime.game import GAME

KEPT = 64
_seen: dict[int, tuple[Any, dict[str, Any]]] = {}  # id(state) -> (the state, kept alive so the id is not reused; view)


def public_view(state: Any) -> dict[str, Any]:
    found = _seen.get(id(state))
    if found is not None and found[0] is state:
        return found[1]
    view = GAME.view(state, None)
    if len(_seen) >= KEPT:
        del _seen[next(iter(_seen))]
    _seen[id(state)] = (state, view)
    return view
