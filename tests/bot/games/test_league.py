"""Seasons as leagues (`/season ...`, docs/seasons.md): Organized Crime and Crimopolis matches counted by
placement, through the fake Discord; the points of a placement; the host's records and refusals."""

from __future__ import annotations

import json
import re
from random import Random

from bot.games import league
from bot.games.organizedcrime.presentation import placement_groups
from tests.support.ocdriver import play_out
from tests.support.octable import fixed_chance, oc, seats, state_of
from tests.support.table import Table

ROW = re.compile(r"\*\*(\w+)\*\* — (-?\d+) points? · (\d+) wins? · (\d+) match")


def rows(text: str) -> dict[str, tuple[int, int, int]]:
    """name -> (points, wins, matches), from the standings text."""
    return {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4))) for m in ROW.finditer(text)}


async def season(fd, who, channel, command: str, **options):  # type: ignore[no-untyped-def]
    return await fd.slash(who, channel, f"season {command}", **options)


def test_a_placement_scores_a_point_per_player_below() -> None:
    assert league.changes([["a"], ["b"], ["c"], ["d"]]) == [
        ("a", 3, "placed 1st of 4"),
        ("b", 2, "placed 2nd of 4"),
        ("c", 1, "placed 3rd of 4"),
    ]
    assert league.changes([["a", "b"], ["c"]]) == [("a", 1, "placed 1st= of 3"), ("b", 1, "placed 1st= of 3")]
    assert league.changes([["a", "b"]]) == [] and league.wins([["a", "b"]]) == []
    out = league.outcome([["b"], ["a", "c"]], {"game": 1})
    assert out.placements == ["b", "a", "c"] and out.marks == {"b": {"win": 1}}
    assert [(s, n) for s, n, _ in out.changes] == [("b", 2)]


def test_organized_crime_placement_from_its_results() -> None:
    survivor = {
        "reason": "last_survivor",
        "winners": ["p2"],
        "standing": [{"player": "p2", "votes": 5, "money": 1, "income": 0}],
        "eliminated": [{"player": "p1"}, {"player": "p4"}, {"player": "p3"}],
    }
    assert placement_groups(survivor) == [["p2"], ["p3"], ["p4"], ["p1"]], "the last one rubbed out places second"
    capped = {
        "reason": "round_cap",
        "winners": ["p1", "p3"],
        "standing": [
            {"player": "p1", "votes": 4, "money": 2, "income": 1},
            {"player": "p3", "votes": 4, "money": 2, "income": 1},
            {"player": "p2", "votes": 3, "money": 0, "income": 0},
            {"player": "p4", "votes": 3, "money": 0, "income": 0},
        ],
        "eliminated": [],
    }
    assert placement_groups(capped) == [["p1", "p3"], ["p2", "p4"]]


def test_an_off_bot_placement_is_read_with_ties() -> None:
    names = {"ann": 1, "bob": 2, "cara": 3}

    def lookup(text: str) -> int:
        return names[text.strip()]

    assert league.parse_placement("ann, bob = cara", lookup) == [[1], [2, 3]]
    for bad in ("ann", "ann, ann", ""):
        try:
            league.parse_placement(bad, lookup)
        except league.UserError as exc:
            assert "twice" in str(exc) or "at least two" in str(exc)
        else:
            raise AssertionError(bad)


async def test_an_organized_crime_match_counts_in_its_season(table: Table, monkeypatch) -> None:
    t = table
    fd, chan = t.fd, t.chan
    fixed_chance(monkeypatch, "two-players")
    refused = await season(fd, t.players["andy"], chan, "new", game="organizedcrime", name="Spring")
    assert refused.ephemeral and "Manage Server" in refused.text(), "only a host opens a season"
    choices = await fd.autocomplete(t.host, chan, "season new", focused="game", game="org")
    assert [c["value"] for c in choices] == ["organizedcrime"]
    opened = await season(fd, t.host, chan, "new", game="Organized Crime", name="Spring")
    assert not opened.ephemeral and "Season **Spring** of Organized Crime is open" in opened.text()
    assert re.search(r"Members join with </season join:\d+>;", opened.text()), "a clickable mention, not code"
    for name in ("andy", "grunkle"):
        assert "You are on the roster" in (await season(fd, t.players[name], chan, "join")).text()

    await oc(t, t.host, "new", bargain_minimum_minutes=0.00001)
    await oc(t, t.players["andy"], "join")
    await oc(t, t.players["cara"], "join")
    off = await season(fd, t.host, chan, "match")
    assert off.ephemeral and "Not on the season's roster: cara" in off.text(), off.text()
    await oc(t, t.players["cara"], "leave")
    made = await season(fd, t.host, chan, "match")
    assert not made.ephemeral and "a match of season **Spring**" in made.text(), made.text()
    await t.idle()
    lobby = next(m.text() for m in fd.channel_messages(chan) if "Organized Crime — lobby" in m.text())
    assert "A match of this server's season" in lobby, "the lobby post is edited to say so"
    late = await oc(t, t.players["dev"], "join")
    assert late.ephemeral and "only its roster may join" in late.text()
    await oc(t, t.players["grunkle"], "join")
    await oc(t, t.host, "start")
    await t.idle()
    early = await season(fd, t.host, chan, "match", remove=True)
    assert early.ephemeral and "has started" in early.text()

    await play_out(t, Random(11), panel_share=0.3)
    await t.idle()
    state = await state_of(t)
    who = await seats(t)
    winner = who[state["result"]["winners"][0]].name
    loser = next(m.name for s, m in who.items() if m.name != winner)

    standings = await season(fd, t.players["dev"], chan, "standings")
    assert rows(standings.text()) == {winner: (1, 1, 1), loser: (0, 0, 1)}, standings.text()
    (picture,) = standings.attachments
    assert picture[0] == "standings.png" and picture[1].startswith(b"\x89PNG"), picture[0]
    assert standings.attachment_info()[0]["description"].startswith("Standings of season Spring")
    assert (await season(fd, t.host, chan, "standings")).attachments == [picture], "the same rows, the same bytes"
    history = await season(fd, t.players["dev"], chan, "history")
    assert re.search(rf"Match 1\*\* — game #\d+, <t:\d+:D>: 1\. {winner}, 2\. {loser}", history.text()), history.text()

    # the host's own records: points with a reason, an off-bot match with a tie, the ledger's export
    given = await season(fd, t.host, chan, "points", player=t.players[loser], amount=2, reason="fair play")
    assert "+2 points (fair play); now 2" in given.text()
    recorded = await season(fd, t.host, chan, "record", placement=f"{loser} = {winner}")
    assert "Recorded a match played off the bot" in recorded.text()
    later = await season(fd, t.host, chan, "standings")
    assert rows(later.text()) == {loser: (2, 0, 2), winner: (1, 1, 2)}
    assert later.attachments[0][1] != picture[1], "the picture follows the points"
    unknown = await season(fd, t.host, chan, "record", placement=f"{winner}, dev")
    assert unknown.ephemeral and "Nobody named 'dev' is on the season's roster" in unknown.text()
    exported = await season(fd, t.host, chan, "export")
    ledger = json.loads(exported.attachments[1][1])["ledger"]
    assert [(r["display_name"], r["amount"]) for r in ledger] == [(winner, 1), (loser, 2)]
    assert ledger[0]["reason"].endswith("placed 1st of 2")

    ended = await season(fd, t.host, chan, "end")
    assert not ended.ephemeral and "Season **Spring** has ended" in ended.text()
    gone = await season(fd, t.players["andy"], chan, "join")
    assert gone.ephemeral and "no open season" in gone.text()
    picked = await fd.autocomplete(t.host, chan, "season standings", focused="season", season="spr")
    assert [c["name"] for c in picked] == ["Spring (ended)"]
    again = await season(fd, t.players["dev"], chan, "standings", season=picked[0]["value"])
    assert "(ended): standings by points" in again.text()


async def test_a_game_ended_before_its_first_turn_is_no_match(table: Table) -> None:
    t = table
    fd, chan = t.fd, t.chan
    await season(fd, t.host, chan, "new", game="organizedcrime", name="Short")
    for name in ("andy", "grunkle"):
        await season(fd, t.host, chan, "add", player=t.players[name])
    in_dm = await season(fd, t.players["andy"], fd.dm_channel(t.players["andy"]), "standings")
    assert in_dm.ephemeral and "not in a DM" in in_dm.text()
    nothing = await season(fd, t.host, chan, "match")
    assert nothing.ephemeral and "no Organized Crime or Crimopolis lobby in this channel" in nothing.text()
    await oc(t, t.host, "new")
    player = await season(fd, t.players["andy"], chan, "match")
    points = await season(fd, t.players["andy"], chan, "points", player=t.players["andy"], amount=5, reason="me")
    assert player.ephemeral and points.ephemeral and "Manage Server" in points.text(), points.text()
    assert "Only the game's host" in player.text() or "Manage Server" in player.text(), player.text()
    await season(fd, t.host, chan, "match")
    for name in ("andy", "grunkle"):
        await oc(t, t.players[name], "join")
    await oc(t, t.host, "start")
    await t.idle()
    assert (await state_of(t))["turn"] == 0, "still choosing Home Bases"
    await oc(t, t.host, "admin end")
    await t.idle()
    history = await season(fd, t.host, chan, "history")
    assert "No match has been played" in history.text(), history.text()


async def test_a_lobby_with_a_computer_player_is_no_seasons_match(table: Table) -> None:
    """The host's rule for every game (bot/host/lobby.py `set_season`): a season's seats are its roster."""
    import pytest

    from bot.host import Caller, UserError

    t = table
    await t.cmd(t.host, "season new", name="Main")
    await t.cmd(t.host, "new", deadline_hours=24.0)
    await t.cmd(t.host, "admin addbot", level="random")
    season = await t.bot.host.seasons.current(t.guild.id, "crimecity")
    assert season is not None
    host = Caller(t.host.id, t.host.name, t.host.name, guild_id=t.guild.id, channel_id=t.chan.id, manage_guild=True)
    with pytest.raises(UserError, match="takes no computer player"):
        await t.bot.host.lobby.set_season(host, "crimecity", season.id)
    await t.cmd(t.host, "admin removebot", computer="Computer 1 (random)")
    await t.bot.host.lobby.set_season(host, "crimecity", season.id)
    late = await t.cmd(t.players["andy"], "join")
    assert late.ephemeral and "only its roster may join" in late.text()


def test_history_keeps_the_newest_matches_and_a_team_counts_both_members() -> None:
    from types import SimpleNamespace

    from bot.host.seasons import Season

    season = Season(1, 1, "organizedcrime", "Long", "open", 0.0, None)
    matches = [SimpleNamespace(game_id=None, placements=[1, 2], summary={}, played_at=0.0) for _ in range(120)]
    text = league.history_text("Organized Crime", season, matches, {1: "ann", 2: "bob"})
    assert len(text) <= 4000 and "**Match 120**" in text and "**Match 1**" not in text
    assert "earlier matches (the season's export has all)" in text
    teams = {"p1": (1, 2), "p2": (3, 4), "p3": (5,), "p4": ()}
    assert league.in_groups([["p2"], ["p1"]], lambda seat: teams[seat]) == [[[3, 4]], [[1, 2]]]
    assert league.in_groups([["p1", "p3"], ["p4"]], lambda seat: teams[seat]) == [[[1, 2], 5]]
    # places count seats, and a shared seat reads as one: a team first and a player second is not a tie of three
    team_first = [SimpleNamespace(game_id=7, placements=[1, 2, 3], summary={"groups": [[[1, 2]], [3]]},
                                  played_at=0.0)]
    text = league.history_text("Crimopolis", season, team_first, {1: "ann", 2: "ben", 3: "cat"})
    assert "1. ann & ben, 2. cat" in text, text
    older = [SimpleNamespace(game_id=7, placements=[1, 2, 3], summary={"groups": [[1, 2], [3]]}, played_at=0.0)]
    assert "1. ann = ben, 3. cat" in league.history_text("Crimopolis", season, older, {1: "ann", 2: "ben", 3: "cat"})


async def test_a_season_that_ended_or_a_roster_that_changed_holds_its_match_back(table: Table) -> None:
    t = table
    fd, chan = t.fd, t.chan
    await season(fd, t.host, chan, "new", game="organizedcrime", name="Old")
    again = await season(fd, t.host, chan, "new", game="organizedcrime", name="Other")
    assert again.ephemeral and "already has an open Organized Crime season, **Old**" in again.text()
    for name in ("andy", "grunkle", "cara"):
        await season(fd, t.host, chan, "add", player=t.players[name])
    # a roster's members hold seats: no bot account, nobody from outside the server
    robo = await season(fd, t.host, chan, "add", player=t.guild.add_member("robo", bot=True))
    assert "robo is a bot account" in robo.text(), robo.text()
    stranger = await season(fd, t.host, chan, "add", player=fd.add_guild("Elsewhere").add_member("stranger"))
    assert "stranger is not a member of this server" in stranger.text(), stranger.text()
    blank = await season(fd, t.host, chan, "points", player=t.players["andy"], amount=1, reason="   ")
    assert "andy: +1 point (adjusted by the host); now 1." in blank.text(), blank.text()
    await oc(t, t.host, "new")
    await season(fd, t.host, chan, "match")
    for name in ("andy", "grunkle", "cara"):
        await oc(t, t.players[name], "join")
    await season(fd, t.host, chan, "remove", player=t.players["cara"])
    held = await oc(t, t.host, "start")
    assert held.ephemeral and "Not on the season's roster any more: cara" in held.text(), held.text()
    # seating them in another order first takes nobody out of the lobby
    ids = [t.players[name].id for name in ("cara", "grunkle", "andy")]
    held = await oc(t, t.host, "start", order=" ".join(f"<@{i}>" for i in ids))
    assert held.ephemeral and "Not on the season's roster any more: cara" in held.text(), held.text()
    await t.idle()
    lobby = next(m.text() for m in t.fd.channel_messages(chan) if "Organized Crime — lobby" in m.text())
    assert "Players (3/4): cara, grunkle, andy" in lobby, lobby
    await oc(t, t.players["cara"], "leave")
    await season(fd, t.host, chan, "end")
    late = await oc(t, t.host, "start")
    assert late.ephemeral and "Season **Old** has ended" in late.text(), late.text()
    freed = await season(fd, t.host, chan, "match", remove=True)
    assert not freed.ephemeral and "no longer a match of season **Old**" in freed.text(), freed.text()
    started = await oc(t, t.host, "start")
    assert not started.ephemeral and "Seat order" in started.text(), started.text()


async def test_two_seasons_of_one_name_are_told_apart(table: Table) -> None:
    t = table
    fd, chan = t.fd, t.chan
    await season(fd, t.host, chan, "new", game="organizedcrime", name="Spring")
    await season(fd, t.host, chan, "new", game="crimopolis", name="Spring")
    both = await season(fd, t.host, chan, "standings", season="spring")
    assert both.ephemeral and "have that name" in both.text(), both.text()
    one = await season(fd, t.host, chan, "standings", season="spring", game="crimopolis")
    assert "**Crimopolis — season Spring**" in one.text()


def test_the_standings_picture_draws_the_texts_rows_in_its_order(monkeypatch) -> None:
    from bot.host.seasons import Season, Standing

    season = Season(1, 1, "crimopolis", "Spring", "open", 0.0, None)
    ann = Standing(1, "ann", "Ann", 3, {"win": 1}, 2, True)
    bob = Standing(2, "bob", "Bob", 5, {}, 2, False)
    drawn: list[tuple[tuple[str, ...], bool, str]] = []

    def capture(title, columns, rows):  # type: ignore[no-untyped-def]
        drawn.extend((tuple(r.cells), r.dim, r.note) for r in rows)
        return b"png"

    monkeypatch.setattr(league, "render_table", capture)
    assert league.standings_picture("Crimopolis", season, [ann, bob]) == b"png"
    assert drawn == [(("1", "Bob", "5", "0", "2"), True, "left"), (("2", "Ann", "3", "1", "2"), False, "")]
    monkeypatch.undo()
    once = league.standings_picture("Crimopolis", season, [ann, bob])
    assert once == league.standings_picture("Crimopolis", season, [ann, bob]), "the same rows, the same bytes"
    assert once != league.standings_picture("Crimopolis", season, [ann]), "a row fewer, another picture"
