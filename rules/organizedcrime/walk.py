"""The path of a move (rulings B.1–B.3): valid items, usable counts N, completion, destinations.

A `Walk` is built from the real state for one decision; its nodes are hypothetical positions of the
move (space, previous space, heading, turned, counts used, pieces rubbed out, players eliminated, Hit
cards left), searched with memoisation.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import NamedTuple

from .content import Content
from .state import number, owner


class Node(NamedTuple):
    space: str
    prev: str | None
    heading: str
    turned: bool
    used: int
    removed: frozenset[str]
    dead: frozenset[str]
    terminal: bool


class Walk:
    def __init__(
        self,
        content: Content,
        seats: Sequence[str],
        by_space: Mapping[str, list[str]],  # space -> pieces on it, canonical order (the mover included)
        members: set[str],
        base_owner: Mapping[int, str],  # base -> the member owning it
        piece: str,
        declared: str,
        attack: str | None,
        share: int,
        hits: Mapping[str, tuple[int, int]],  # held Hit cards -> (min, max)
    ) -> None:
        self.c = content
        self.seats = seats
        self.by_space = by_space
        self.members = members
        self.base_owner = base_owner
        self.piece = piece
        self.me = owner(piece)
        self.dir = declared
        self.attack = attack
        self.share = share
        self.hits = dict(hits)
        self._u: dict[Node, int] = {}
        self._k: dict[tuple[Node, tuple[tuple[int, int], ...]], bool] = {}

    # ---- B.1 -------------------------------------------------------------------------------------------

    def member(self, player: str | None, node: Node) -> bool:
        return player is not None and player in self.members and player not in node.dead

    def owner_of_base(self, base: int, node: Node) -> str | None:
        o = self.base_owner.get(base)
        return o if o is not None and o not in node.dead else None

    def at(self, space: str, node: Node) -> list[str]:
        return [p for p in self.by_space.get(space, ()) if p not in node.removed and owner(p) not in node.dead]

    def step_ok(self, node: Node, to: str) -> bool:
        if node.used >= self.share:
            return False
        return self.step_valid(node, to)

    def step_valid(self, node: Node, to: str) -> bool:
        """R38–R45 without the count check."""
        s = node.space
        e = self.c.edge.get((s, to))
        if e is None or to == node.prev:
            return False
        kind, d = e
        if kind == "ring":
            if self.c.kinds[s] == "government":
                return node.turned or d == self.dir
            return d == node.heading
        if kind == "entry":
            if self.c.kinds[to] == "home":
                o = self.owner_of_base(self.c.space_base[to], node)
                return o is not None and o != self.me and self.attack == o
            return True
        if self.c.kinds[to] == "boss":
            o = self.owner_of_base(self.c.space_base[to], node)
            return (o is not None and o != self.me and self.attack == o
                    and all(p == self.piece for p in self.at(s, node)))
        # leaving a Boss space: only the owner's own Boss
        return number(self.piece) == 0 and self.owner_of_base(self.c.space_base[s], node) == self.me

    def rub_ok(self, node: Node, target: str) -> bool:
        if owner(target) == self.me or target not in self.at(node.space, node):
            return False
        if self.c.kinds[node.space] in ("home", "boss"):
            o = self.owner_of_base(self.c.space_base[node.space], node)
            return o is not None and self.attack == o
        return True

    def targets(self, node: Node) -> list[str]:
        return [p for p in self.at(node.space, node) if self.rub_ok(node, p)]

    def after_step(self, node: Node, to: str) -> Node:
        kind, d = self.c.edge[(node.space, to)]
        heading, turned = node.heading, node.turned
        if kind == "ring" and d is not None:
            heading = d
            turned = turned or d == self.dir
        return Node(to, node.space, heading, turned, node.used + 1, node.removed, node.dead, node.terminal)

    def after_rub(self, node: Node, targets: Sequence[str], count: bool) -> Node:
        removed, dead, terminal = set(node.removed), set(node.dead), node.terminal
        for t in targets:
            removed.add(t)
            if number(t) == 0:
                dead.add(owner(t))
                if self.attack is not None and owner(t) == self.attack and self.member(self.attack, node):
                    terminal = True
        used = node.used + (1 if count else 0)
        return Node(node.space, node.prev, node.heading, node.turned, used, frozenset(removed), frozenset(dead),
                    terminal)

    # ---- B.2 -------------------------------------------------------------------------------------------

    def count_items(self, node: Node) -> Iterator[tuple[str, str, Node]]:
        if node.used >= self.share or node.terminal:
            return
        for to, _, _ in self.c.adjacent[node.space]:
            if self.step_valid(node, to):
                yield "step", to, self.after_step(node, to)
        for t in self.targets(node):
            yield "rub", t, self.after_rub(node, (t,), True)

    def usable(self, node: Node) -> int:
        """U: the largest number of further counts (count items only)."""
        if node.used >= self.share or node.terminal:
            return 0
        got = self._u.get(node)
        if got is not None:
            return got
        best = 0
        for _, _, nxt in self.count_items(node):
            best = max(best, 1 + (0 if nxt.terminal else self.usable(nxt)))
            if best == self.share - node.used:
                break
        self._u[node] = best
        return best

    def hit_items(self, node: Node, hand: Mapping[str, tuple[int, int]]) -> Iterator[tuple[str, tuple[str, ...]]]:
        """(card, targets) for each held Hit card, each size in its range, each subset in canonical order."""
        if node.terminal:
            return
        targets = self.targets(node)
        for card in sorted(hand):
            low, high = hand[card]
            for k in range(low, min(high, len(targets)) + 1):
                for combo in combinations(targets, k):
                    yield card, combo

    def kill_reachable(self, node: Node, hand: tuple[tuple[int, int], ...]) -> bool:
        if node.terminal:
            return True
        if not self.member(self.attack, node):
            return False
        key = (node, hand)
        got = self._k.get(key)
        if got is not None:
            return got
        self._k[key] = False  # no cycles are possible (used or removed grows), but guard anyway
        result = any(self.kill_reachable(nxt, hand) for _, _, nxt in self.count_items(node))
        if not result:
            targets = self.targets(node)
            for i, (low, high) in enumerate(hand):
                if i and hand[i - 1] == (low, high):
                    continue
                rest = hand[:i] + hand[i + 1:]
                for k in range(low, min(high, len(targets)) + 1):
                    for combo in combinations(targets, k):
                        if self.kill_reachable(self.after_rub(node, combo, False), rest):
                            result = True
                            break
                    if result:
                        break
                if result:
                    break
        self._k[key] = result
        return result

    def hand_key(self, hand: Mapping[str, tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(hand.values()))

    def completable(self, node: Node, n: int, hand: Mapping[str, tuple[int, int]]) -> bool:
        return node.terminal or node.used + self.usable(node) == n or self.kill_reachable(node, self.hand_key(hand))

    # ---- B.3 -------------------------------------------------------------------------------------------

    def destinations(self, node: Node, n: int) -> list[dict[str, object]]:
        found: dict[str, list[str]] = {}
        if node.used >= n:
            return [{"to": node.space, "steps": []}]

        def walk(cur: Node, steps: list[str]) -> None:
            if cur.used == n:
                found.setdefault(cur.space, list(steps))
                return
            for to, _, _ in self.c.adjacent[cur.space]:  # ascending id order
                if self.step_ok(cur, to):
                    steps.append(to)
                    walk(self.after_step(cur, to), steps)
                    steps.pop()

        walk(node, [])
        return [{"to": to, "steps": found[to]} for to in sorted(found)]
