"""/crimecity admin import: a game run by hand continues on the bot from its replay file's last round, to
the same end as replaying the whole file; a bad file is refused with its field named and creates nothing."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from bot.games.crimecity import texts
from rules.crimecity.actions import Action
from rules.crimecity.handover import rename_doc
from rules.crimecity.notation import format_action
from rules.crimecity.replay import run_replay
from tests.fakediscord.state import Attachment
from tests.rules.crimecity.test_handover import full_game
from tests.support.crimecity import assert_no_secret
from tests.support.table import NAMES, Table


def named_game(seed: int) -> dict[str, Any]:
    doc = full_game(seed)
    return rename_doc(doc, dict(zip(doc["players"], NAMES, strict=True)))


def attach(doc: Any, name: str = "game.replay.json") -> Attachment:
    return Attachment(name, json.dumps(doc).encode())


async def submit(t: Table, name: str, sub: dict[str, Any]) -> None:
    who = t.players[name]
    if sub.get("guess"):
        roles = ", ".join(f"{c}={r}" for c, r in sub["guess"].items())
        assert "Guess recorded" in (await t.cmd(who, "guess", roles=roles)).text()
    for (a, b), points in Counter(tuple(p) for p in sub.get("buy") or []).items():
        reply = await t.cmd(who, "friendship", a=a, b=b, points=points)
        assert "garnets" in reply.text() and "not allowed" not in reply.text(), reply.text()
    acts = [format_action(Action.from_json(a)) for a in sub["actions"]]
    options = {"first": acts[0]} | ({"second": acts[1]} if len(acts) > 1 else {})
    reply = await t.cmd(who, "act", **options)
    assert "actions recorded" in reply.text(), reply.text()


@pytest.mark.parametrize("seed", [15, 28])
async def test_an_imported_game_continues_to_the_same_end_as_replaying_its_file(table: Table, seed: int) -> None:
    t = table
    whole = named_game(seed)
    want = run_replay(whole)
    cut = 2
    part = {**whole, "rounds": whole["rounds"][:cut]}
    part["players"] = ["E" if p == "eve" else p for p in part["players"]]
    part = rename_doc(part, {"eve": "E"})

    reply = await t.cmd(t.host, "admin import", file=attach(part), players=f"E=<@{t.players['eve'].id}>")
    assert reply.ephemeral and f"continues here from round {cut + 1}" in reply.text(), reply.text()
    assert "E → eve" in reply.text()
    await t.idle()
    board = t.posts()[-1]
    assert f"Round {cut + 1}" in board and f"continues here from a file ({cut} rounds played before)" in board
    for post in t.posts():
        assert_no_secret(post, "a public post after the import")
    replayed = run_replay(whole)
    for n in NAMES:
        dm = t.dm_texts(t.players[n])[-1]
        assert f"your game continues on the bot from round {cut + 1}" in dm and "Your goal:" in dm, dm
        learned = [e for r in replayed["rounds"][:cut] for e in r["private"].get(n, [])]
        assert len(re.findall(r"^Round \d+: ", dm, re.M)) == len(learned), (n, dm)
    for n in NAMES:  # /crimecity status shows what the file's rounds told each of them
        status = (await t.cmd(t.players[n], "status")).text()
        learned = [e for r in replayed["rounds"][:cut] for e in r["private"].get(n, [])]
        assert len(re.findall(r"^Round \d+: ", status, re.M)) == len(learned), (n, status)

    for rnd in whole["rounds"][cut:]:
        missing = False
        for n in NAMES:
            sub = rnd.get(n)
            if sub is None:
                missing = True
                continue
            await submit(t, n, sub)
        if missing:
            assert "resolved" in (await t.cmd(t.host, "admin resolve")).text().lower()
        await t.idle()

    results = next(p for p in t.posts() if "game over after Round" in p)
    result = want["result"]
    shown = dict(result)
    if result["ec_pending"]:  # the bot lists deciders and candidates in seat order, the file by name
        pending = result["ec_pending"]
        shown["ec_pending"] = {
            **pending,
            **{k: sorted(pending[k], key=NAMES.index) for k in ("deciders", "candidates")},
        }
    expected = texts.results_text(shown, lambda p: p, ec_seat=result.get("ec"))
    assert re.sub(r"</(crimecity \w+):\d+>", r"/\1", results) == expected
    exported = await t.cmd(t.host, "admin export")
    doc = json.loads(exported.attachments[0].data)
    assert doc["rounds"] == whole["rounds"]
    assert run_replay(doc)["result"] == result


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(players=d["players"][:4]), "players: must list exactly 5 players"),
        (lambda d: d["rounds"][0].update({"nobody": None}), "rounds[0]"),
        (lambda d: d.update(rounds=d["rounds"] + [{}] * 6), "rounds["),
        (
            lambda d: (
                d["seats"].update(andy={"character": "nobody", "role": "hitman"})
                if "seats" in d
                else d.update(draft={"andy": {"bid": "lots", "roles": [], "characters": []}})
            ),
            "andy",
        ),
    ],
)
async def test_a_bad_file_is_refused_with_its_field_and_creates_nothing(table: Table, change: Any, said: str) -> None:
    t = table
    doc = named_game(15)
    doc["rounds"] = doc["rounds"][:1]
    change(doc)
    reply = await t.cmd(t.host, "admin import", file=attach(doc))
    assert reply.ephemeral and "cannot be imported" in reply.text() and said in reply.text(), reply.text()
    row = await t.bot.db.fetchone("SELECT COUNT(*) AS n FROM games")
    assert row["n"] == 0


async def test_import_refusals(table: Table) -> None:
    t = table
    not_json = await t.cmd(t.host, "admin import", file=Attachment("x.json", b"{not json"))
    assert "not JSON (line 1, column 2" in not_json.text()
    finished = await t.cmd(t.host, "admin import", file=attach(named_game(15)))
    assert "is over" in finished.text()
    doc = named_game(15)
    doc["rounds"] = doc["rounds"][:1]
    stranger = rename_doc(doc, {"eve": "zed"})
    unknown = await t.cmd(t.host, "admin import", file=attach(stranger))
    assert "players[4]: no single member of this server is named 'zed'" in unknown.text(), unknown.text()
    player = await t.cmd(t.players["andy"], "admin import", file=attach(doc))
    assert "Manage Server" in player.text()
    row = await t.bot.db.fetchone("SELECT COUNT(*) AS n FROM games")
    assert row["n"] == 0
    ok = await t.cmd(t.host, "admin import", file=attach(doc))
    assert "continues here from round 2" in ok.text()
    busy = await t.cmd(t.host, "admin import", file=attach(doc))
    assert "already has a game" in busy.text()
