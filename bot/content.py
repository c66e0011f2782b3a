"""CRIMECITY_CONTENT: the bot on a group's own content (docs/operations.md, "A group's own content").

The setting names a folder holding one folder per game whose content is replaced, named by the game's id
(`<id>/`), each with that game's files as its `python -m rules ... --content DIR` takes them. The games
without a folder play their packaged content. A game in progress keeps the content it was started on: the
bot refuses to start on other content while such a game of that kind is unfinished.
"""

from __future__ import annotations

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
    return [kind for kind in presentations if hasattr(registry.get(kind), "with_content")]


def load(root: str, presentations: Mapping[str, Presentation]) -> dict[str, Any]:
    """The games on the content under `root`, by id, each validated; ContentProblem for the first problem."""
    kinds = replaceable(presentations)
    where = f"{SETTING}={root}"
    if not os.path.isdir(root):
        raise ContentProblem(f"{where}: not a folder; set it to a folder holding {_folders(kinds)}, or unset it.")
    try:
        entries = sorted(os.listdir(root))
    except OSError as exc:
        raise ContentProblem(f"{where}: cannot be read ({exc.strerror or exc}); give the bot's user access.") from None
    folders = [e for e in entries if os.path.isdir(os.path.join(root, e))]
    if not folders:
        loose = "; its files belong in one of those folders" if any(e.endswith(".json") for e in entries) else ""
        raise ContentProblem(f"{where}: holds none of {_folders(kinds)}{loose}.")
    found: dict[str, Any] = {}
    for name in folders:
        path = os.path.join(root, name)
        if name not in kinds:
            raise ContentProblem(
                f"{where}: {name}/ is not a game's folder; the folders it may hold are {_folders(kinds)}."
            )
        try:
            game: Any = registry.get(name)
            found[name] = game.with_content(path)
        except (FormatError, OSError) as exc:
            raise ContentProblem(f"{where}: {name}/{_detail(exc)}") from None
    return found


def use(root: str | None, presentations: Mapping[str, Presentation]) -> dict[str, str]:
    """Every presentation on the content under `root` (the packaged content for the others, and for all with
    None). Returns the replaced games' content ids by game id. ContentProblem leaves every game as it was."""
    chosen = load(root, presentations) if root else {}
    for kind, presentation in presentations.items():
        use_game = getattr(presentation, "use_game", None)
        if use_game is not None:
            use_game(chosen.get(kind))
    return {kind: str(game.content_id) for kind, game in chosen.items()}


async def check_stored(db: Any, presentations: Mapping[str, Presentation]) -> None:
    """Refuse (ContentChanged) to play other content than the unfinished games of a kind were started on;
    otherwise remember the content each kind plays now."""
    for kind, presentation in presentations.items():
        now = getattr(presentation.game, "content_id", None)
        if now is None:
            continue
        house: Any = registry.get(kind)
        stored = await db.get_meta(META + kind)
        before = stored or house.content_id  # none stored: the packaged one
        if before != now:
            rows = await db.fetchall(
                "SELECT id FROM games WHERE kind = ? AND status != ? ORDER BY id", (kind, ENDED)
            )
            if rows:
                ids = [int(r["id"]) for r in rows]
                more = f" and {len(ids) - LISTED} more" if len(ids) > LISTED else ""
                shown = ", ".join(map(str, ids[:LISTED])) + more
                title = registry.get(kind).info.title
                raise ContentChanged(
                    f"{SETTING}: {len(ids)} unfinished {title} game{'' if len(ids) == 1 else 's'} (id {shown}) "
                    f"{'was' if len(ids) == 1 else 'were'} started on the content {before!r}, and the bot would "
                    f"play them on {now!r}. Start the bot on {before!r} again and finish or end "
                    f"{'it' if len(ids) == 1 else 'them'} first (admin end), then switch."
                )
        if stored != now:
            await db.set_meta(META + kind, now)


def _folders(kinds: list[str]) -> str:
    return " or ".join(f"{k}/" for k in kinds) if kinds else "no game's folder (no game's content can be replaced)"


def _detail(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or exc.__class__.__name__
    return text.removeprefix("error: ")
