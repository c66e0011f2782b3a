"""A Crimopolis match in a season (`/season ...`, docs/seasons.md): the lobby's game picks its season, and
the rules' ranking gives the points; two open seasons of two games are told apart by `game`."""

from __future__ import annotations

import json
import random

from rules.crimopolis import GAME
from tests.bot.games.crimopolis.test_game import fixed_seed  # noqa: F401 (a fixture)
from tests.bot.games.test_league import rows, season
from tests.support.crimopolis import CpTable, Driver


async def test_a_crimopolis_match_and_two_open_seasons(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    fd, chan = t.fd, t.chan
    await season(fd, t.host, chan, "new", game="organizedcrime", name="Bosses")
    await season(fd, t.host, chan, "new", game="crimopolis", name="Gangs")
    which = await season(fd, t.players["ann"], chan, "join")
    assert which.ephemeral and "name the game with `game:`" in which.text(), which.text()
    twice = await season(fd, t.host, chan, "new", game="crimopolis", name="Again")
    assert twice.ephemeral and "already has an open Crimopolis season, **Gangs**" in twice.text()
    for name in ("ann", "ben"):
        joined = await season(fd, t.players[name], chan, "join", game="crimopolis")
        assert "roster of season **Gangs**" in joined.text()

    await t.cmd(t.host, "new", target_prestige=5)
    here = await season(fd, t.players["ann"], chan, "standings")
    assert "Crimopolis — season Gangs" in here.text(), "with two open seasons, the channel's game picks one"
    made = await season(fd, t.host, chan, "match")
    assert "a match of season **Gangs**" in made.text(), "the lobby's own game picks the season"
    await t.idle()
    lobby = next(m.text() for m in fd.channel_messages(chan) if "**Crimopolis** — game #" in m.text())
    assert "A match of this server's season" in lobby, "the lobby post says so"
    for name in ("ann", "ben"):
        await t.cmd(t.players[name], "join")
    await t.cmd(t.host, "start")
    await t.idle()
    driver = Driver(t, random.Random(5))
    while await driver.step():
        assert driver.steps < 600, "the game should have ended"
    await t.idle()
    state = await t.state()
    assert state.ended == "target"
    ranking = GAME.results(state)["ranking"]
    names = await t.seat_names()
    expected = {}
    for place, group in enumerate(ranking):
        below = sum(len(g) for g in ranking[place + 1 :])
        for seat in group:
            expected[names[seat]] = (below, int(place == 0 and len(ranking) > 1), 1)
    table_ = rows((await season(fd, t.host, chan, "standings", game="crimopolis")).text())
    assert table_ == expected and len(expected) == 2, (table_, ranking)
    placed = json.loads((await t.bot.db.fetchone("SELECT placements FROM season_matches"))["placements"])
    assert placed == [t.players[names[seat]].id for group in ranking for seat in group]
    other = await season(fd, t.host, chan, "standings", game="organizedcrime")
    assert "season Bosses" in other.text() and "Nobody is on the roster yet" in other.text()
