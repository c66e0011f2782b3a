"""A season of main matches (/crimecity season ...): the roster, balances and placements that carry over
from one game to the next, the host's records, standings, history and the ledger's export."""

from __future__ import annotations

import csv
import io
import json
import re

from tests.support.crimecity import CAST, WE1
from tests.support.table import NAMES, Table

PERFECT = (
    "policeman=none, secretary=hitman, banker=mob_boss, armed_guard=fraud, store_clerk=none, "
    "detective=pickpocket, governor=bank_robber, governors_daughter=none"
)
ROLE_TITLES = {
    "hitman": "Hitman",
    "bank_robber": "Bank Robber",
    "pickpocket": "Pickpocket",
    "fraud": "Fraud",
    "mob_boss": "Mob Boss",
}


async def season(t: Table, name: str = "Season One") -> str:
    """Open a season with the five on its roster and 20 garnets each; returns its id (as chosen)."""
    opened = await t.cmd(t.host, "season new", name=name)
    assert f"Season **{name}** is open" in opened.text() and not opened.ephemeral
    for n in NAMES[:4]:
        assert "You are on the roster" in (await t.cmd(t.players[n], "season join")).text()
    added = await t.cmd(t.host, "season add", player=t.players["eve"])
    assert "eve is on the roster" in added.text()
    for n in NAMES:
        reply = await t.cmd(t.host, "season garnets", player=t.players[n], amount=20, reason="starting purse")
        assert "balance 20" in reply.text(), reply.text()
    choices = await t.fd.autocomplete(t.host, t.chan, "crimecity new", focused="season", season="")
    assert [c["name"] for c in choices][:1] == [name], choices
    return choices[0]["value"]


async def open_season_game(t: Table, season_id: str, **options: object) -> None:
    await t.cmd(t.host, "new", season=season_id, **({"deadline_hours": 24.0} | options))
    for n in NAMES:
        reply = await t.cmd(t.players[n], "join")
        assert "You joined" in reply.text(), reply.text()
    await t.cmd(t.host, "start")


def standings_rows(text: str) -> dict[str, tuple[int, int, int, int]]:
    """name -> (garnets, ToL, EC, matches), from the standings text."""
    out = {}
    for m in re.finditer(r"\*\*(\w+)\*\* — (-?\d+) garnets · ToL (\d+) · EC (\d+) · (\d+) match", text):
        out[m.group(1)] = tuple(int(m.group(i)) for i in range(2, 6))
    return out  # type: ignore[return-value]


async def test_two_games_in_a_row_carry_balances_and_placement(table: Table) -> None:
    t = table
    season_id = await season(t)
    zed = t.guild.add_member("zed")

    # ---- game 1: a bid, purchases, a completion (an award), the EC decided by the rules ----
    await t.cmd(t.host, "new", season=season_id, rounds=1)
    lobby = t.posts()[-1]
    assert "each player starts with their season balance" in lobby and "only its roster may join" in lobby
    refused = await t.cmd(zed, "join")
    assert refused.ephemeral and "only its roster may join" in refused.text()
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    assert "Garnets: 20" in (await t.cmd(t.players["andy"], "status")).text()
    for n in NAMES:
        role, char = CAST[n]
        await t.cmd(t.players[n], "draft", bid=3 if n == "andy" else 0, roles=role, characters=char)
    await t.idle()
    assert "Guess recorded" in (await t.cmd(t.players["grunkle"], "guess", roles=PERFECT)).text()
    assert "6 of your 20" in (await t.cmd(t.players["dev"], "friendship", a="banker", b="governor", points=2)).text()
    for n in NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    results = next(p for p in t.posts() if "game over after Round 1" in p)
    assert "ToL: grunkle" in results and "EC: dev" in results

    # the season's balances are the game's final balances (R95): 20 - bid - 3 x points + award
    board = await t.cmd(t.players["cara"], "season standings")
    rows = standings_rows(board.text())
    assert rows == {
        "grunkle": (35, 1, 0, 1),
        "cara": (20, 0, 0, 1),
        "eve": (20, 0, 0, 1),
        "andy": (17, 0, 0, 1),
        "dev": (14, 0, 1, 1),
    }, board.text()
    assert list(rows) == ["grunkle", "cara", "eve", "andy", "dev"], "by garnets, then by name"
    (picture,) = board.attachment_info()
    assert picture["filename"] == "standings.png" and picture["description"]
    history = (await t.cmd(t.players["cara"], "season history")).text()
    assert "1. grunkle, 2. cara, 3. eve, 4. andy, 5. dev" in history and "ToL: grunkle · EC: dev" in history

    # ---- game 2: each starts from their season balance; the draft's ties follow game 1's placement ----
    await open_season_game(t, season_id)
    for n, garnets in (("grunkle", 35), ("cara", 20), ("eve", 20), ("andy", 17), ("dev", 14)):
        assert f"Garnets: {garnets}" in (await t.cmd(t.players[n], "status")).text(), n
    for n in NAMES:  # equal bids, the same ranking: priority is the previous placement
        await t.cmd(t.players[n], "draft", bid=0, roles="hitman")
    await t.idle()
    expected = {"grunkle": "hitman", "cara": "bank_robber", "eve": "pickpocket", "andy": "fraud", "dev": "mob_boss"}
    for n, role in expected.items():
        seat_dm = next(d for d in reversed(t.dm_texts(t.players[n])) if "the draft is resolved" in d)
        assert ROLE_TITLES[role] in seat_dm, (n, seat_dm)

    # ---- the export agrees with the standings: a balance is the sum of its ledger rows ----
    exported = await t.cmd(t.host, "season export")
    names = [a["filename"] for a in exported.attachment_info()]
    assert names == [f"season-{season_id}-ledger.csv", f"season-{season_id}-ledger.json"]
    as_csv = exported.attachments[0].data.decode()
    doc = json.loads(exported.attachments[1].data)
    sums: dict[str, int] = {}
    for r in doc["ledger"]:
        sums[r["display_name"]] = sums.get(r["display_name"], 0) + r["amount"]
    assert sums == {n: v[0] for n, v in rows.items()}
    reasons = {(r["display_name"], r["reason"], r["amount"]) for r in doc["ledger"]}
    assert ("andy", "game #1: draft bid", -3) in reasons
    assert ("dev", "game #1: friendship points and host changes in the rounds", -6) in reasons
    assert ("grunkle", "game #1: award (1st to complete)", 15) in reasons
    assert len(list(csv.reader(io.StringIO(as_csv)))) == len(doc["ledger"]) + 1


async def test_host_records_and_refusals(table: Table) -> None:
    t = table
    nobody = await t.cmd(t.players["andy"], "season standings")
    assert "no open season" in nobody.text()
    assert "Manage Server" in (await t.cmd(t.players["andy"], "season new", name="Mine")).text()
    season_id = await season(t)
    again = await t.cmd(t.host, "season new", name="Two")
    assert "already has an open season" in again.text()
    assert "Manage Server" in (await t.cmd(t.players["andy"], "season add", player=t.players["cara"])).text()
    assert (
        "Manage Server"
        in (
            await t.cmd(t.players["andy"], "season garnets", player=t.players["andy"], amount=99, reason="greed")
        ).text()
    )

    # an off-bot match moves balances and placements
    reply = await t.cmd(
        t.host,
        "season record",
        placements="eve, dev, cara, grunkle, andy",
        tol="eve",
        ec=t.players["andy"],
        garnets="eve +15, dev +10, andy -4",
    )
    assert "Recorded a match played off the bot" in reply.text(), reply.text()
    bad = await t.cmd(t.host, "season record", placements="eve, nobody")
    assert "Nobody named 'nobody'" in bad.text()
    bad = await t.cmd(t.host, "season record", placements="eve, dev", garnets="eve lots")
    assert "write a player and a number" in bad.text()
    rows = standings_rows((await t.cmd(t.host, "season standings")).text())
    assert rows["eve"] == (35, 1, 0, 1) and rows["andy"] == (16, 0, 1, 1) and rows["dev"] == (30, 0, 0, 1)

    # a ToL used, a death match lost
    assert "holds no token of life" in (await t.cmd(t.host, "season tol", player=t.players["cara"])).text()
    assert "tokens of life held: 0" in (await t.cmd(t.host, "season tol", player=t.players["eve"])).text()
    out = await t.cmd(t.host, "season eliminate", player=t.players["andy"])
    assert "andy is eliminated" in out.text() and not out.ephemeral
    assert "already eliminated" in (await t.cmd(t.host, "season eliminate", player=t.players["andy"])).text()
    text = (await t.cmd(t.host, "season standings")).text()
    assert "ToL 0" in next(line for line in text.splitlines() if "**eve**" in line)
    assert "eliminated" in next(line for line in text.splitlines() if "**andy**" in line)

    # the next game's tie-break is the off-bot match's placement
    await open_season_game(t, season_id)
    for n in NAMES:
        await t.cmd(t.players[n], "draft", bid=0, roles="hitman")
    await t.idle()
    eve_dm = next(d for d in reversed(t.dm_texts(t.players["eve"])) if "the draft is resolved" in d)
    assert "Hitman" in eve_dm
    await t.cmd(t.host, "admin end")
    await t.cmd(t.host, "admin end")

    # the host's explicit garnets win over the season's
    await t.cmd(t.host, "new", season=season_id, garnets=5)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    assert "Garnets: 5" in (await t.cmd(t.players["eve"], "status")).text()
    await t.cmd(t.host, "admin end")

    # removing a member keeps their rows; an ended season stays readable and takes no new game
    assert "off the roster" in (await t.cmd(t.host, "season remove", player=t.players["dev"])).text()
    assert "not on the season's roster" in (await t.cmd(t.host, "season remove", player=t.players["dev"])).text()
    assert "has ended" in (await t.cmd(t.host, "season end")).text()
    old = await t.cmd(t.players["cara"], "season standings", season=season_id)
    assert "(ended)" in old.text() and "left the roster" in old.text()
    refused = await t.cmd(t.host, "new", season=season_id)
    assert "has ended" in refused.text()


async def test_stats_count_every_finished_game(table: Table) -> None:
    t = table
    empty = await t.cmd(t.players["eve"], "stats")
    assert "No game has finished here yet" in empty.text()
    season_id = await season(t)
    await t.cmd(t.host, "new", season=season_id, rounds=1)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    for n in NAMES:
        role, char = CAST[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.idle()
    await t.cmd(t.players["grunkle"], "guess", roles=PERFECT)
    await t.cmd(t.players["dev"], "friendship", a="banker", b="governor", points=1)
    for n in NAMES:
        await t.cmd(t.players[n], "act", first=WE1[n][0], second=WE1[n][1])
    await t.idle()
    everyone = (await t.cmd(t.players["eve"], "stats")).text()
    assert "1 finished game" in everyone and "**grunkle** — 1 played · 1 goal · ToL 1 · EC 0" in everyone
    mine = (await t.cmd(t.players["eve"], "stats", player=t.players["grunkle"])).text()
    assert "Goals completed: 1 (Mob Boss 1)" in mine and "Average completion round: 1.0" in mine
    dev = (await t.cmd(t.players["eve"], "stats", player=t.players["dev"])).text()
    assert "times EC: 1" in dev and "Goals completed: 0" in dev

    # a game ended without revealing its seats: its goals count, their roles stay unsaid
    await t.cmd(t.host, "new", season=season_id, rounds=1, garnets=0)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    for n in NAMES:
        role, char = CAST[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.idle()
    await t.cmd(t.players["grunkle"], "guess", roles=PERFECT)
    for n in NAMES:
        await t.cmd(t.players[n], "act", first=WE1[n][0], second=WE1[n][1])
    await t.idle()  # four tied on 0 garnets: all five choose the EC; the host ends it without a reveal
    assert "ended" in (await t.cmd(t.host, "admin end", reveal=False)).text().lower()
    await t.idle()
    mine = (await t.cmd(t.players["eve"], "stats", player=t.players["grunkle"])).text()
    assert "Games played: 2" in mine and "Goals completed: 2 (Mob Boss 1, a role not revealed 1)" in mine, mine


async def test_a_seat_in_a_match_is_handed_only_to_the_roster(table: Table) -> None:
    t = table
    season_id = await season(t)
    zed = t.guild.add_member("zed")  # not on the roster
    await open_season_game(t, season_id, rounds=1)
    refused = await t.cmd(t.host, "admin replace", old=t.players["eve"], new=zed)
    assert refused.ephemeral and "only its roster may play, and zed is not on it" in refused.text(), refused.text()
    assert (await t.bot.db.fetchone("SELECT user_id FROM seats WHERE user_id = ?", (zed.id,))) is None
