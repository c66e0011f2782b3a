"""The layers of bot/ (docs/architecture.md): the host runs every game and knows none of them.

- the host (everything in bot/ outside bot/games/) imports no game's rules package and no game's
  presentation, and names no game's concept in its code, strings or comments;
- a game's presentation (bot/games/<game>/) imports the host only through its public API (`bot.host`),
  its own rules package, the contract, discord and well-kept libraries.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules import registry
from rules.crimecity.ids import CHARACTERS, LOCATIONS, ROLES

BOT = Path(__file__).resolve().parents[2] / "bot"
GAME_IDS = {g.info.id for g in registry.games()}

# Words of the games: their ids and titles, and Crime City's pieces (what a host must not know).
VOCABULARY = (
    {w.casefold() for g in registry.games() for w in (g.info.id, g.info.title)}
    | {
        w.casefold()
        for items in (CHARACTERS, LOCATIONS, ROLES)
        for item in items
        for w in (item.value, item.title.removeprefix("The "))
        if item.value != "none"
    }
    | {"garnet", "friendship", "draft", "hidden role", "mob boss", "ec vote"}
)
# Where a game's name may stand in the host: the settings' historic prefix and the default file name.
ALLOWED = [re.compile(r"CRIMECITY_[A-Z_]+"), re.compile(r"data/crimecity\.db")]
# Host files that only name old tables of schema versions 1-2 (to rename them away).
HISTORIC = {"migrations/001_init.sql", "migrations/002_gamenight.sql", "migrations/003_host.py"}


def host_files() -> list[Path]:
    return [
        p for p in BOT.rglob("*") if p.suffix in (".py", ".sql", ".md") and "games" not in p.relative_to(BOT).parts[:1]
    ]


def presentation_files(game: str) -> list[Path]:
    return sorted((BOT / "games" / game).rglob("*.py"))


def imports(path: Path) -> list[str]:
    """Absolute module names imported by `path` (relative imports resolved against its package)."""
    package = ["bot", *path.relative_to(BOT).parts[:-1]]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found += [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            if node.module and "." not in module:  # `from rules import x` imports rules.x
                found += [f"{module}.{a.name}" for a in node.names]
    return found


def forbidden_for_host(module: str) -> bool:
    parts = module.split(".")
    # rules.players is the game-agnostic table of computer players (each game's are loaded through it).
    if parts[0] == "rules" and len(parts) > 1 and parts[1] not in ("contract", "registry", "players"):
        return True
    return parts[:2] == ["bot", "games"] and len(parts) > 2 and parts[2] in GAME_IDS


def test_the_host_imports_no_game() -> None:
    files = [p for p in host_files() if p.suffix == ".py"]
    assert len(files) > 20
    bad = [(str(p.relative_to(BOT)), m) for p in files for m in imports(p) if forbidden_for_host(m)]
    assert bad == []


def concepts(text: str) -> list[str]:
    for pattern in ALLOWED:
        text = pattern.sub("", text)
    low = text.casefold()
    return sorted(w for w in VOCABULARY if re.search(rf"(?<![a-z_]){re.escape(w)}(?![a-z_])", low))


def test_the_host_names_no_game_concept() -> None:
    found = {}
    for path in host_files():
        rel = str(path.relative_to(BOT))
        if rel in HISTORIC:
            continue
        hits = concepts(path.read_text(encoding="utf-8"))
        if hits:
            found[rel] = hits
    assert found == {}


def test_the_check_sees_a_concept_and_an_import(tmp_path: Path) -> None:
    assert concepts("self.garnets = 3  # the Mob Boss") == ["garnet", "mob boss"] or "mob boss" in concepts(
        "the Mob Boss"
    )
    assert concepts('"the Armed Guard"') == ["armed guard"]
    assert concepts("CRIMECITY_DB = 'data/crimecity.db'") == []
    assert forbidden_for_host("rules.crimecity.game") and forbidden_for_host("bot.games.crimecity.cog")
    assert not forbidden_for_host("rules.contract") and not forbidden_for_host("bot.games")
    assert not forbidden_for_host("rules.players") and forbidden_for_host("rules.crimecity")
    fake = BOT / "host" / "x.py"
    assert imports(fake.with_name("play.py"))  # the resolver reads real files


LIBRARIES = {"discord", "PIL", "yarl", "aiohttp"}
# Game-agnostic helpers every presentation may share: drawing (palette, table picture, discs), views,
# a season's ledger, a league's points and the pack (the game on the content the bot plays).
KITS = {
    "bot.games.packs",
    "bot.games.palette",
    "bot.games.views",
    "bot.games.ledger",
    "bot.games.league",
    "bot.games.table_picture",
    "bot.games.discs",
}


def allowed_for(game: str, module: str) -> bool:
    parts = module.split(".")
    if parts[0] == "bot":
        return parts[:2] == ["bot", "host"] and len(parts) == 2 or parts[:3] == ["bot", "games", game] or module in KITS
    if parts[0] == "rules":
        return len(parts) == 1 or parts[1] in ("contract", game)
    return parts[0] in LIBRARIES or parts[0] in __import__("sys").stdlib_module_names


# A presentation's migration of its own rows from schema versions 1-2 writes the tables itself.
MIGRATIONS = {"legacy.py": {"bot.storage.models", "bot.storage.sql"}}


def test_each_presentation_uses_only_the_hosts_public_api_and_its_own_rules() -> None:
    bad = []
    for game in sorted(GAME_IDS):
        files = presentation_files(game)
        if not files:
            continue
        for path in files:
            extra = MIGRATIONS.get(path.name, set())
            bad += [
                (str(path.relative_to(BOT)), m) for m in imports(path) if not allowed_for(game, m) and m not in extra
            ]
    assert bad == []
    assert not allowed_for("crimecity", "bot.host.play") and not allowed_for("crimecity", "rules.organizedcrime")
    assert allowed_for("crimecity", "bot.games.palette") and not allowed_for("crimecity", "bot.games.crimopolis")
