"""The Mob Boss's guess (R26) and which character an information action should ask about.

A wrong guess brings no completion notice, so it is known to be wrong. The strong Mob Boss guesses,
each round, the first assignment (in a fixed order) that fits what it knew then and that it has not
guessed before. The choice uses no chance, so the seat can work out its earlier guesses again from the
facts it had in each earlier round: the player keeps no memory of its own.
"""

from __future__ import annotations

from ..ids import CHARACTERS, Character, Role
from .belief import Assignment, consistent, marginals
from .knowledge import Knowledge


def guess_sequence(k: Knowledge, upto: int) -> list[Assignment]:
    """The guesses of rounds 1..upto, each the first untried assignment fitting what was known then."""
    tried: list[Assignment] = []
    seen: set[Assignment] = set()
    for rnd in range(1, upto + 1):
        pool = consistent(k.known_before(rnd))
        pick = next((a for a in pool if a not in seen), pool[0])
        tried.append(pick)
        seen.add(pick)
    return tried


def next_guess(k: Knowledge) -> dict[Character, Role]:
    """This round's guess: after `k.round - 1` wrong ones, the first untried assignment that fits."""
    a = guess_sequence(k, k.round)[-1]
    return dict(zip(CHARACTERS, a, strict=True))


def expected_left(k: Knowledge, asks_role: bool) -> list[tuple[float, Character]]:
    """Per character, the expected number of assignments left after asking about it: its role
    (a Detective) or only whether someone controls it (a Secretary). Smallest first."""
    pool = consistent(k)
    n = len(pool)
    out = []
    for c, counts in zip(CHARACTERS, marginals(pool), strict=True):
        if asks_role:
            sizes = list(counts.values())
        else:
            free = counts.get(Role.NONE, 0)
            sizes = [free, n - free]
        out.append((sum(s * s for s in sizes) / max(n, 1), c))
    out.sort(key=lambda x: (x[0], CHARACTERS.index(x[1])))
    return out


def candidates_left(k: Knowledge) -> int:
    return len(consistent(k))
