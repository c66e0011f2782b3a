"""CRIMECITY_CONTENT: the bot on a group's own content (docs/operations.md, "A group's own content").

The setting names a folder holding one folder per game whose content is replaced, named by the game's id
(`<id>/`), each with that game's files as its `python -m rules ... --content DIR` takes them. The games
without a folder play their packaged content. A game in progress keeps the content it was started on: the
bot refuses to start on other content while such a game of that kind is unfinished.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any

from rules import registry
from rules.contract import FormatError

from .host.presenting import Presentation
from .storage.models import ENDED

SETTING = "CRIMECITY_CONTENT"
META = "content:"  # + the game's id: the content id its games were last started on
LISTED = 10  # games named in the refusal


class ContentProblem(ValueError):
    """The folder cannot be played: one line naming the folder, and for a broken file the file, entry and field.
    `python -m bot` exits 3 (as `python -m rules` does for broken content, errata E31)."""


class ContentChanged(RuntimeError):
    """Unfinished games were started on other content than the bot now plays; `python -m bot` exits 3."""


def replaceable(presentations: Mapping[str, Presentation]) -> list[str]:
    """The ids of the games whose content an operator may replace."""
    return [
        kind for kind, p in presentations.items()
        if hasattr(registry.get(kind), "with_content") and hasattr(p, "use_game")
    ]


def _skipped(name: str) -> bool:
    """Folders that are no one's content: hidden ones (.git), an archive's __MACOSX, a mount's lost+found."""
    return name.startswith((".", "__")) or name == "lost+found"


def load(root: str, presentations: Mapping[str, Presentation]) -> dict[str, Any]:
    """The games on the content under `root`, by id, each validated; ContentProblem for the first problem."""
    kinds = replaceable(presentations)
    where = f"{SETTING}={root}"
    if not os.path.isdir(root):
        raise ContentProblem(f"{where}: not a folder; set it to a folder holding {_folders(kinds)}, or unset it.")
    try:
        entries = sorted(e for e in os.listdir(root) if not _skipped(e))
    except OSError as exc:
        raise ContentProblem(f"{where}: cannot be read ({exc.strerror or exc}); give the bot's user access.") from None
    folders = [e for e in entries if os.path.isdir(os.path.join(root, e))]
    for name in entries:
        if name not in folders and (name in kinds or name in presentations):
            raise ContentProblem(f"{where}: {name} is not a folder; it must be a folder of that game's files.")
    if not folders:
        loose = "; its files belong in one of those folders" if any(e.endswith(".json") for e in entries) else ""
        raise ContentProblem(f"{where}: holds none of {_folders(kinds)}{loose}.")
    found: dict[str, Any] = {}
    for name in folders:
        path = os.path.join(root, name)
        if name not in kinds:
            what = "has no content to replace" if name in presentations else "is not a game's folder"
            raise ContentProblem(f"{where}: {name}/ {what}; the folders it may hold are {_folders(kinds)}.")
        house: Any = registry.get(name)
        try:
            game = house.with_content(path)
        except (FormatError, OSError) as exc:
            raise ContentProblem(f"{where}: {name}/{_detail(exc)}") from None
        if game.content_id == house.content_id:
            raise ContentProblem(
                f"{where}: {name}/ has the id of the packaged content, {house.content_id!r}; give it an id of its own"
                " (the `id` in its files), so its games and exports are told apart from the packaged ones."
            )
        game.content_digest = digest(path)
        found[name] = game
    return found


def digest(folder: str) -> str:
    """A short fingerprint of a game folder's files: a change to any of them is another content."""
    h = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".json") and os.path.isfile(path):
            with open(path, "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()[:16]


def apply(games: Mapping[str, Any], presentations: Mapping[str, Presentation]) -> None:
    """Every presentation on its game in `games`, the others on their packaged content."""
    for kind, presentation in presentations.items():
        use_game = getattr(presentation, "use_game", None)
        if use_game is not None:
            use_game(games.get(kind))


def use(root: str | None, presentations: Mapping[str, Presentation]) -> dict[str, str]:
    """Every presentation on the content under `root` (the packaged content for the others, and for all with
    None). Returns the replaced games' content ids by game id. ContentProblem leaves every game as it was."""
    chosen = load(root, presentations) if root else {}
    apply(chosen, presentations)
    return {kind: str(game.content_id) for kind, game in chosen.items()}


def _mark(game: Any) -> str:
    """What the meta row holds: the content id, and a group's files' fingerprint after an @."""
    found = getattr(game, "content_digest", None)
    return str(game.content_id) if found is None else f"{game.content_id}@{found}"


async def check_stored(db: Any, presentations: Mapping[str, Presentation]) -> None:
    """Refuse (ContentChanged) to play other content than the unfinished games of a kind were started on;
    otherwise remember the content each kind plays now."""
    for kind, presentation in presentations.items():
        if getattr(presentation.game, "content_id", None) is None:
            continue
        now = _mark(presentation.game)
        house: Any = registry.get(kind)
        stored = await db.get_meta(META + kind)
        before = stored or str(house.content_id)  # none stored: the packaged one
        if before != now:
            rows = await db.fetchall(
                "SELECT id FROM games WHERE kind = ? AND status != ? ORDER BY id", (kind, ENDED)
            )
            if rows:
                raise ContentChanged(_refusal(house.info.title, [int(r["id"]) for r in rows], before, now))
        if stored != now:
            await db.set_meta(META + kind, now)


def _refusal(title: str, ids: list[int], before: str, now: str) -> str:
    more = f" and {len(ids) - LISTED} more" if len(ids) > LISTED else ""
    shown = ", ".join(map(str, ids[:LISTED])) + more
    one = len(ids) == 1
    old, new = before.split("@")[0], now.split("@")[0]
    change = f"the content {old!r}, and the bot would play them on {new!r}"
    if old == new:
        change = f"the content {old!r}, whose files have changed since"
    return (
        f"{SETTING}: {len(ids)} unfinished {title} game{'' if one else 's'} (id {shown}) "
        f"{'was' if one else 'were'} started on {change}. Start the bot on the content {old!r} as it was and finish "
        f"or end {'it' if one else 'them'} first (admin end), then switch."
    )


def _folders(kinds: list[str]) -> str:
    return " or ".join(f"{k}/" for k in kinds) if kinds else "no game's folder (no game's content can be replaced)"


def _detail(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or exc.__class__.__name__
    return text.removeprefix("error: ")
