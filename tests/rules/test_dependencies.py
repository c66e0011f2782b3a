"""rules/ stays pure: nothing of bot/, no discord, asyncio, sqlite, clock or global random (the design card);
and each game's package uses only the contract and itself."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN = {"discord", "asyncio", "sqlite3", "aiosqlite", "time", "datetime", "socket", "aiohttp", "os",
             "threading", "subprocess", "secrets", "uuid", "bot"}
# The command-line front reads files and draws a progress bar; nothing else may do I/O.
IO_ALLOWED = {"cli.py", "__main__.py"}
# The command-line front times the tournament's computer players; nothing else may read the clock.
CLOCK_ALLOWED = {"cli.py"}
# One module per game may read its content files (packaged, or a group's replacement directory).
CONTENT_READERS = {"content_files.py"}


def _imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name.split(".")[0], []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module.split(".")[0], [a.name for a in node.names]))
    return out


def test_rules_imports_nothing_impure() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert len(files) > 10
    for f in files:
        tree = ast.parse(f.read_text(), str(f))
        for mod, names in _imports(tree):
            may = {"os"} if f.name in IO_ALLOWED | CONTENT_READERS else set()  # a content reader finds its files
            may |= {"time"} if f.name in CLOCK_ALLOWED else set()
            assert mod not in FORBIDDEN - may, f"{f.name} imports {mod}"
            if mod == "random":
                # Only the seeded `Random` class, owned by the caller; never the module's global state.
                assert names == ["Random"], f"{f.name} uses the global random"
        if f.name not in IO_ALLOWED:
            for mod, _ in _imports(tree):
                assert mod not in {"sys", "tqdm", "io", "pathlib", "argparse"}, f"{f.name} imports {mod}"
            calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            allowed = {"open"} if f.name in CONTENT_READERS else set()
            assert not calls & ({"open", "print", "input"} - allowed), f"{f.name} does I/O"


def test_the_check_catches_a_violation(tmp_path: Path) -> None:
    bad = ast.parse("import time\nfrom random import choice\n")
    mods = dict(_imports(bad))
    assert "time" in mods and mods["random"] == ["choice"]


def test_each_game_uses_only_the_contract_and_itself() -> None:
    games = [p for p in RULES.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    assert [g.name for g in games if g.name == "crimecity"]
    bad = []
    for game in games:
        for f in game.rglob("*.py"):
            tree = ast.parse(f.read_text(), str(f))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    if node.level == 0 and node.module.startswith("rules.") and not node.module.startswith(
                        (f"rules.{game.name}", "rules.contract")
                    ):
                        bad.append((str(f.relative_to(RULES)), node.module))
                    depth = len(f.relative_to(game).parts)  # how many levels up leaves the game's package
                    if node.level >= depth + 1 and node.module.split(".")[0] not in ("contract",):
                        bad.append((str(f.relative_to(RULES)), "." * node.level + node.module))
                elif isinstance(node, ast.Import):
                    bad += [(str(f.relative_to(RULES)), a.name) for a in node.names if a.name.startswith("rules.")
                            and not a.name.startswith((f"rules.{game.name}", "rules.contract"))]
    assert bad == []
