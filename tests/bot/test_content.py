"""CRIMECITY_CONTENT (bot/content.py): the bot on a group's own content, checked before it connects, kept
from changing under a game in progress, and drawn by the picture workers too."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as entry
from bot import content, preflight
from bot.content import ContentChanged, ContentProblem
from bot.games import picture, presentations
from bot.host.pictures import Painter
from bot.storage import database_for
from bot.storage import games as games_repo
from bot.storage.models import ENDED, HostOptions
from bot.storage.sql import run
from rules.contract import SeededChance
from tests.bot.test_preflight import TOKEN
from tests.support.content import CP_PACK, HALL, JOB, OC_BOARD, copy_house, edit, group_content


def oc_view() -> dict[str, Any]:
    game = presentations()["organizedcrime"].game
    return dict(game.view(game.setup(("p1", "p2"), {}, SeededChance("ab" * 16)).state, None))


def test_the_games_play_a_groups_content_and_go_back_to_the_house_one(tmp_path: Path) -> None:
    from bot.games.crimopolis import names as cp_names
    from bot.games.crimopolis import rules_pages as cp_pages
    from bot.games.organizedcrime import names as oc_names
    from bot.games.organizedcrime import rules_pages as oc_pages

    shown = presentations()
    house_picture = picture("organizedcrime", oc_view())
    assert oc_names.space_name("o02") == "State Government"  # read (and cached) before the switch

    used = content.use(str(group_content(tmp_path)), shown)

    assert used == {"organizedcrime": OC_BOARD, "crimopolis": CP_PACK}
    assert shown["organizedcrime"].game.content_id == OC_BOARD
    assert shown["crimopolis"].game.content_id == CP_PACK
    assert oc_names.space_name("o02") == HALL
    assert OC_BOARD in oc_pages.page("house content").body
    assert cp_names.card("J01") == f"J01 {JOB}"
    cards = cp_pages.page("job-cards")
    assert JOB in cards.description and CP_PACK in cards.summary
    assert picture("organizedcrime", oc_view()) != house_picture, "the picture draws the group's board"
    assert shown["crimopolis"].game.encode_state(
        shown["crimopolis"].game.setup(("a", "b"), {}, SeededChance("cd" * 16)).state
    )["content"] == CP_PACK

    assert content.use(None, shown) == {}
    assert shown["organizedcrime"].game.content_id == "oc-h1"
    assert oc_names.space_name("o02") == "State Government"
    assert "house" in oc_pages.page("house content").body and OC_BOARD not in oc_pages.page("house content").body
    assert cp_names.card("J01") == "J01 Cash a Forged Cheque"
    assert CP_PACK not in cp_pages.page("job-cards").summary
    assert picture("organizedcrime", oc_view()) == house_picture


def test_one_game_replaced_leaves_the_other_on_its_house_content(tmp_path: Path) -> None:
    copy_house("crimopolis", tmp_path / "crimopolis")
    edit(tmp_path / "crimopolis" / "pack.json", lambda doc: doc.update(id=CP_PACK))
    assert content.use(str(tmp_path), presentations()) == {"crimopolis": CP_PACK}
    assert presentations()["organizedcrime"].game.content_id == "oc-h1"


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda root: root / "missing", ["not a folder", "organizedcrime/ or crimopolis/"]),
        (lambda root: root, ["holds none of organizedcrime/ or crimopolis/"]),
        (lambda root: copy_house("organizedcrime", root / "flat").parent / "flat", ["its files belong in one of"]),
        (lambda root: (root / "organisedcrime").mkdir() or root, ["organisedcrime/ is not a game's folder"]),
        (lambda root: (root / "crimecity").mkdir() or root, ["crimecity/ has no content to replace"]),
        (lambda root: ((root / "organizedcrime").write_text("{}"), root)[1], ["organizedcrime is not a folder"]),
        (lambda root: copy_house("organizedcrime", root / "organizedcrime").parent,
         ["organizedcrime/ has the id of the packaged content, 'oc-h1'", "an id of its own"]),
    ],
    ids=["no folder", "empty", "files not in a game's folder", "misspelt game", "a game without content",
         "a file for a folder", "the house id"],
)
def test_a_folder_the_bot_cannot_use_is_one_line_naming_it(tmp_path: Path, make: Any, words: list[str]) -> None:
    root = make(tmp_path)
    with pytest.raises(ContentProblem) as caught:
        content.load(str(root), presentations())
    message = str(caught.value)
    assert message.startswith(f"CRIMECITY_CONTENT={root}: ") and "\n" not in message
    for word in words:
        assert word in message, message


def test_hidden_and_system_folders_are_no_ones_content(tmp_path: Path) -> None:
    for name in (".git", "__MACOSX", "lost+found"):
        (tmp_path / name).mkdir()
    copy_house("crimopolis", tmp_path / "crimopolis")
    edit(tmp_path / "crimopolis" / "pack.json", lambda doc: doc.update(id=CP_PACK))
    assert list(content.load(str(tmp_path), presentations())) == ["crimopolis"]


def test_a_groups_seat_limits_are_the_lobbys(tmp_path: Path) -> None:
    root = group_content(tmp_path)
    edit(root / "organizedcrime" / "rules.json", lambda doc: doc.update(players_max=3))
    game = content.load(str(root), presentations())["organizedcrime"]
    assert (game.info.min_players, game.info.max_players) == (2, 3) and "2 to 3" in game.info.summary
    assert presentations()["organizedcrime"].game.info.max_players == 4, "the house game keeps its own"
    content.apply({"organizedcrime": game}, presentations())
    from bot.games.organizedcrime import rules_pages

    assert rules_pages.page("overview").body.startswith("2 to 3 crime bosses")


def test_a_broken_file_is_named_with_its_entry_and_field_and_changes_nothing(tmp_path: Path) -> None:
    root = group_content(tmp_path)

    def broken(doc: dict[str, Any]) -> None:
        doc["decks"]["power"]["cards"][0]["max"] = 0

    first = {k: p.game for k, p in presentations().items()}
    edit(root / "organizedcrime" / "decks.json", broken)
    with pytest.raises(ContentProblem) as caught:
        content.use(str(root), presentations())
    assert str(caught.value).startswith(f"CRIMECITY_CONTENT={root}: organizedcrime/decks.json: decks.power.cards[0]")
    assert {k: p.game for k, p in presentations().items()} == first, "a refused folder replaces no game"
    edit(root / "crimopolis" / "jobs.json", lambda doc: doc["jobs"][0].pop("title"))
    assert "crimopolis/jobs.json" in (preflight.content_problem(str(root)) or "")


def test_preflight_reads_the_folder_and_main_exits_3(monkeypatch, tmp_path: Path, capsys) -> None:
    assert preflight.content_problem(None) is None
    root = group_content(tmp_path / "content")
    assert preflight.content_problem(str(root)) is None
    (root / "organizedcrime" / "board.json").write_text("{", encoding="utf-8")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CRIMECITY_DB", str(tmp_path / "cc.db"))
    monkeypatch.setenv("CRIMECITY_CONTENT", str(root))
    served: list[str] = []

    async def serve(client, token):  # type: ignore[no-untyped-def]
        served.append(token)

    monkeypatch.setattr(entry, "serve", serve)
    assert entry.main([]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert served == [] and len(err) == 1
    assert err[0].startswith(f"CRIMECITY_CONTENT={root}: organizedcrime/board.json: not valid JSON"), err
    monkeypatch.setenv("CRIMECITY_DB_SYNC", "sometimes")
    assert entry.main([]) == 2, "a settings problem beside it is the settings' status"
    assert len(capsys.readouterr().err.strip().splitlines()) == 2


async def _lobby(db: Any, kind: str) -> int:
    found = await db.fetchone("SELECT COUNT(*) AS n FROM games")
    async with db.transaction() as conn:  # one game open per channel: a channel of its own
        return await games_repo.create_game(
            conn, kind=kind, guild_id=1, channel_id=100 + int(found["n"]), host_id=3, settings={},
            options=HostOptions(), now=0.0,
        )


async def _end(db: Any, kind: str) -> None:
    async with db.transaction() as conn:
        await run(conn, "UPDATE games SET status = ? WHERE kind = ?", (ENDED, kind))


async def test_unfinished_games_keep_the_content_they_started_on(tmp_path: Path, db_setting: str) -> None:
    db = database_for(db_setting)  # on both backends
    await db.open()
    try:
        shown = presentations()
        await content.check_stored(db, shown)  # a new database: the house content, remembered
        assert await db.get_meta("content:organizedcrime") == "oc-h1"
        first = await _lobby(db, "organizedcrime")
        second = await _lobby(db, "organizedcrime")
        await _lobby(db, "crimopolis")
        root = group_content(tmp_path / "content")
        content.use(str(root), shown)
        with pytest.raises(ContentChanged) as caught:
            await content.check_stored(db, shown)
        message = str(caught.value)
        assert f"2 unfinished Organized Crime games (id {first}, {second})" in message
        assert "'oc-h1'" in message and f"'{OC_BOARD}'" in message and "admin end" in message
        assert await db.get_meta("content:organizedcrime") == "oc-h1"

        await _end(db, "organizedcrime")
        with pytest.raises(ContentChanged, match="1 unfinished Crimopolis game"):
            await content.check_stored(db, shown)
        await _end(db, "crimopolis")
        await content.check_stored(db, shown)
        marked = await db.get_meta("content:organizedcrime") or ""
        assert marked.startswith(f"{OC_BOARD}@") and len(marked) == len(OC_BOARD) + 17, "the id and the files' mark"
        assert (await db.get_meta("content:crimopolis") or "").startswith(f"{CP_PACK}@")

        await _lobby(db, "organizedcrime")
        await content.check_stored(db, shown)  # the content it was started on
        edit(root / "organizedcrime" / "decks.json", lambda doc: doc["decks"]["power"]["cards"][0].update(title="X"))
        content.use(str(root), shown)
        with pytest.raises(ContentChanged, match=f"the content '{OC_BOARD}', whose files have changed since"):
            await content.check_stored(db, shown)  # the same id, other files: other content
        content.use(None, shown)
        with pytest.raises(ContentChanged, match=f"started on the content '{OC_BOARD}'"):
            await content.check_stored(db, shown)
    finally:
        await db.close()


async def test_the_picture_workers_draw_the_groups_content(tmp_path: Path) -> None:
    from bot.games import use_games

    root = group_content(tmp_path)
    house = picture("organizedcrime", oc_view())
    games = content.load(str(root), presentations())
    content.apply(games, presentations())
    view = oc_view()
    ours = picture("organizedcrime", view)
    assert ours != house
    shutil.rmtree(root)  # the workers draw the games as loaded, not the folder as it is now
    drawn = await Painter(picture, 1, prepare=use_games, content=tuple(sorted(games.items()))).draw(
        "organizedcrime", view
    )
    assert drawn == ours
    plain = await Painter(picture, 1).draw("organizedcrime", view)
    assert plain != ours, "a worker that was not prepared draws the house board"
