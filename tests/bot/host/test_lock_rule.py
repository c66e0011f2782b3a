"""The rule the remembered contexts rest on (bot/host/play.py): every write to a game's rows (the game,
its seats, its collected moves, its clocks) holds that game's lock. Checked on the source: each call of
a function that writes those rows sits inside `async with self.locks(...)` (or `self._turn(...)`, which
takes it), or in a private helper that is only ever called from such a block."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[3] / "bot"

# Functions that write a game's rows, named by their last two dotted parts (module or service, function).
WRITERS = {
    "games_repo.update_game", "games_repo.move_on", "games_repo.add_seat",
    "games_repo.remove_seat", "games_repo.reassign_seat", "games_repo.add_partner", "games_repo.drop_member",
    "games_repo.reassign_partner", "games_repo.create_game", "clocks_repo.replace_clocks",
    "log_repo.add_seat_change", "stepper.start", "stepper.advance", "stepper.resolve_collected",
    "stepper.schedule_clock", "writer.put_if_open",
}  # fmt: skip
LOCKERS = {"locks", "_turn"}
# (module, function, writer) allowed without the lock, and why.
ALLOWED = {
    ("host/lobby.py", "_create", "games_repo.create_game"): "the new game's id is unknown to all before it commits",
    # a game opened, seated and set up in one transaction (an import): nobody else knows it before it commits
    ("host/lobby.py", "open_started", "games_repo.add_seat"): "the game is created in the same transaction",
    ("host/lobby.py", "open_started", "stepper.start"): "the game is created in the same transaction",
}
# Modules whose functions take the caller's connection and run inside the caller's locked transaction.
INSIDE = ("storage", "stepper.py", "migrations")


def _name(call: ast.Call) -> str | None:
    parts: list[str] = []
    f: ast.expr = call.func
    while isinstance(f, ast.Attribute):
        parts.append(f.attr)
        f = f.value
    if isinstance(f, ast.Name):
        parts.append(f.id)
    if not parts:
        return None
    parts.reverse()
    return ".".join(parts[-2:]) if len(parts) > 1 else parts[0]


def _short(call: ast.Call) -> str | None:
    name = _name(call)
    return None if name is None else name.rsplit(".", 1)[-1]


def calls_in(module: str, source: str) -> list[tuple[str, str, str, bool]]:
    """(module, enclosing function, called name, inside a lock block) for every call in `source`."""
    found: list[tuple[str, str, str, bool]] = []

    def visit(node: ast.AST, func: str, locked: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name, False)
                continue
            inner = locked
            if isinstance(child, ast.AsyncWith) and any(
                isinstance(i.context_expr, ast.Call) and _short(i.context_expr) in LOCKERS for i in child.items
            ):
                inner = True
            if isinstance(child, ast.Call) and (name := _name(child)):
                found.append((module, func, name, inner))
            visit(child, func, inner)

    visit(ast.parse(source), "<module>", False)
    return found


def unlocked_writes(sources: dict[str, str]) -> list[tuple[str, str, str]]:
    calls = [c for module, text in sources.items() for c in calls_in(module, text)]
    # A private helper counts as locked when every call of it is inside a lock block, or in a locked helper.
    short = {name.rsplit(".", 1)[-1] for _, _, name, _ in calls}
    helpers = {f for _, f, _, _ in calls if f.startswith("_")} & short
    locked_helpers: set[str] = set()
    while True:
        more = {
            h
            for h in helpers - locked_helpers
            if all(locked or func in locked_helpers for _, func, name, locked in calls if name.rsplit(".", 1)[-1] == h)
        }
        if not more:
            break
        locked_helpers |= more
    return [
        (module, func, name)
        for module, func, name, locked in calls
        if name in WRITERS and not locked and func not in locked_helpers and (module, func, name) not in ALLOWED
    ]


def bot_sources() -> dict[str, str]:
    files = [p for p in BOT.rglob("*.py") if not any(part in p.relative_to(BOT).parts for part in INSIDE)]
    return {str(p.relative_to(BOT)): p.read_text(encoding="utf-8") for p in files}


def test_every_write_to_a_games_rows_holds_its_lock() -> None:
    sources = bot_sources()
    assert "host/play.py" in sources and "host/hosting.py" in sources
    writes = {name for text in sources.values() for _, _, name, _ in calls_in("", text)} & WRITERS
    assert len(writes) >= 8, f"the check must see the writers it guards, saw {sorted(writes)}"
    assert unlocked_writes(sources) == []


def test_the_check_finds_a_write_without_the_lock() -> None:
    bad = """
class Service:
    async def sneaky(self, game_id):
        async with self.db.transaction() as conn:
            await games_repo.update_game(conn, game_id, paused=1)

    async def fine(self, game_id):
        async with self.locks(game_id), self.db.transaction() as conn:
            await games_repo.update_game(conn, game_id, paused=0)
            await self._helper(conn)
        await self._leaky(conn)

    async def _helper(self, conn):
        await self.stepper.advance(conn, 1, 2, [], user_id=None)
        await self._deeper(conn)

    async def _deeper(self, conn):
        await self.stepper.advance(conn, 1, 2, [], user_id=None)

    async def _leaky(self, conn):
        await self.stepper.advance(conn, 1, 2, [], user_id=None)
"""
    assert unlocked_writes({"x.py": bad}) == [
        ("x.py", "sneaky", "games_repo.update_game"),
        ("x.py", "_leaky", "stepper.advance"),
    ]
