"""The rule the remembered round context rests on (bot/games.py): every write to a game's `games`,
`players` or `submissions` rows holds that game's lock. Checked on the source: each call of a function
that writes those rows sits inside `async with self.lock(...)` (or `self._round(...)`, which takes it),
or in a private helper that is only ever called from such a block."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"

# Functions that write a game's rows (bot/storage/games.py, submissions.py, phases.py, the batcher).
WRITERS = {
    "update_game", "advance_phase", "add_player", "remove_player", "reassign_seat", "set_start_garnets",
    "put_draft", "put_submission", "put_submission_if_open", "put_round_log", "add_private_result",
    "put_ec_vote", "resolve_phase", "end_game", "finish", "open_phase", "put_if_open", "create_game",
}  # fmt: skip
LOCKERS = {"lock", "_round"}
# (module, function, writer) allowed without the lock, and why.
ALLOWED = {
    ("games.py", "new_game", "create_game"): "the new game's id is not known to anyone before it commits",
}


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


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
                isinstance(i.context_expr, ast.Call) and _name(i.context_expr) in LOCKERS for i in child.items
            ):
                inner = True
            if isinstance(child, ast.Call) and (name := _name(child)):
                found.append((module, func, name, inner))
            visit(child, func, inner)

    visit(ast.parse(source), "<module>", False)
    return found


def unlocked_writes(sources: dict[str, str]) -> list[tuple[str, str, str]]:
    calls = [c for module, text in sources.items() for c in calls_in(module, text)]
    # A private helper counts as locked when every call of it is inside a lock block.
    helpers = {f for _, f, _, _ in calls if f.startswith("_")}
    locked_helpers = {h for h in helpers if all(locked for _, _, name, locked in calls if name == h)}
    locked_helpers &= {name for _, _, name, _ in calls}  # and it is called at all
    return [
        (module, func, name)
        for module, func, name, locked in calls
        if name in WRITERS and not locked and func not in locked_helpers and (module, func, name) not in ALLOWED
    ]


def bot_sources() -> dict[str, str]:
    files = [p for p in BOT.rglob("*.py") if "storage" not in p.parts and p.name != "phases.py"]
    return {str(p.relative_to(BOT)): p.read_text(encoding="utf-8") for p in files}


def test_every_write_to_a_games_rows_holds_its_lock() -> None:
    sources = bot_sources()
    assert "games.py" in sources and "hosting.py" in sources
    assert unlocked_writes(sources) == []


def test_the_check_finds_a_write_without_the_lock() -> None:
    bad = '''
class Service:
    async def sneaky(self, game_id):
        async with self.db.transaction() as conn:
            await games_repo.update_game(conn, game_id, paused_remaining=None)

    async def fine(self, game_id):
        async with self.lock(game_id), self.db.transaction() as conn:
            await games_repo.update_game(conn, game_id, paused_remaining=None)
            await self._helper(conn)
        await self._leaky(conn)

    async def _helper(self, conn):
        await subs_repo.put_ec_vote(conn, 1, "p1", "p2")

    async def _leaky(self, conn):
        await subs_repo.put_ec_vote(conn, 1, "p1", "p2")
'''
    assert unlocked_writes({"x.py": bad}) == [("x.py", "sneaky", "update_game"), ("x.py", "_leaky", "put_ec_vote")]
