"""Whole games through the fake Discord, from /crimopolis new to the scores, with the fewest (2) and the most (5)
players, played by legal moves of the rules' random player sent by the dedicated slash commands, by
`/crimopolis act`, by the turn panel and by the decision prompts' buttons (from /crimopolis panel and from the
Submit button of my DMs). After every step everything public is scanned against the hands, the cards just
drawn, kept or aborted and the stack; at the end the export replays to exactly what was announced.
"""

from __future__ import annotations

import json
import logging
import random
import re
import secrets
from typing import Any

import pytest

from rules.crimopolis import GAME
from tests.support.crimopolis import CARD, TILE, CpTable, Driver, custom_ids, open_game

FIELDS = ("prestige", "small blocks", "large blocks", "bodies", "most bodies", "fortunes", "streets", "Big Business")


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's secret seed (16 bytes) fixed, so the decks and the game are the same every run."""
    real = secrets.token_hex

    def token_hex(nbytes: int | None = None) -> str:
        return "5eed" * 8 if nbytes == 16 else real(nbytes)

    monkeypatch.setattr(secrets, "token_hex", token_hex)


async def play_whole_game(t: CpTable, players: list[str], seed: int, **options: object) -> Driver:
    await open_game(t, players, **options)
    driver = Driver(t, random.Random(seed))
    while await driver.step():
        assert driver.steps < 600, "the game should have ended"
    print("steps", driver.steps, driver.by)
    return driver


def check_results(t: CpTable, players: list[str]) -> dict:
    """The end post: one line per player with every field and the total, the winners named."""
    results = next(p for p in reversed(t.posts()) if "final scoring" in p)
    for name in players:
        line = next(x for x in results.splitlines() if re.search(rf"\b{name}\b:", x))
        assert all(f"{field} " in line for field in FIELDS) and "total" in line, line
    assert "Winner" in results
    return {"text": results}


async def check_export(t: CpTable, players: list[str], results_text: str) -> None:
    """The host's export replays (python -m rules replay) to the scores the channel was told."""
    reply = await t.cmd(t.host, "admin export")
    assert reply.ephemeral and reply.attachments
    doc = json.loads(reply.attachments[0][1])
    assert doc["format"] == "crimopolis-replay/1" and sorted(doc["players"]) == sorted(players)
    out = GAME.replay(doc)
    assert all(step["refused"] is None for step in out["steps"]), "every recorded action replays as accepted"
    result = out["result"]
    assert result is not None
    for name, row in result["scores"].items():
        assert re.search(rf"\b{name}\b:.*total {row['total']}\b", results_text), (name, row, results_text)
    assert all(w in results_text.split("Winner")[1] for w in result["winners"])


def check_public(t: CpTable, driver: Driver, caplog: pytest.LogCaptureFixture) -> None:
    assert driver.findings == [], "\n".join(driver.findings[:10])
    for cid in custom_ids(t.fd):  # custom ids carry a game id and a nonce, nothing else
        assert not CARD.search(cid) and not TILE.search(cid), cid
        assert re.fullmatch(r"(host:[a-z]+:\d+|host:answer:\d+:\d+:\d+|cp:\d+:[0-9a-f]{12}:[a-z0-9]+)", cid), cid
    for line in (r.getMessage() for r in caplog.records if r.name.startswith("bot") and r.levelno >= logging.INFO):
        assert not CARD.search(line) and not TILE.search(line), f"an INFO line names a card or tile: {line}"
    logs: dict[str, list[Any]] = {}  # each turn's log: one message, edited at each step
    for m in t.fd.channel_messages(t.chan):
        head = m.text().split("\n", 1)[0]
        if re.fullmatch(r"\*{0,2}Crimopolis\*{0,2} — turn \d+", head):
            logs.setdefault(head, []).append(m)
    assert logs, "the turns' logs"
    for head, found in logs.items():
        assert all(len(m.text()) > 1000 for m in found[:-1]), f"{head}: a second message only when the first is full"
    edited = {r.path.rsplit("/", 1)[1] for r in t.fd.requests if r.method == "PATCH"}
    assert any(str(m.id) in edited for found in logs.values() for m in found), "a turn's log changes as it goes"
    boards = [m for m in t.fd.channel_messages(t.chan) if "the board after" in m.text()]
    assert boards and all(m.attachments for m in boards), "every board post carries its picture"
    for m in boards:
        (info,) = m.attachment_info()
        assert info["content_type"] == "image/png" and "Crimopolis city map" in info["description"]


async def test_two_players_whole_game(cp: CpTable, fixed_seed: None, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    players = ["ann", "ben"]
    driver = await play_whole_game(cp, players, seed=5, target_prestige=5)
    assert {"command", "act", "panel"} <= set(driver.by), driver.by
    ended = check_results(cp, players)
    await check_export(cp, players, ended["text"])
    check_public(cp, driver, caplog)
    for name in players:  # jobs at the deal, then every turn's "your turn" DM
        dms = cp.dm_texts(cp.players[name])
        assert any("You drew:" in d and "Your jobs" not in d for d in dms[:2]), dms[:2]
        assert any("**Your turn" in d and "left this turn" in d and "deadline" in d for d in dms)
    history = await cp.cmd(cp.players["ann"], "history")
    assert "Game #1" in history.text() and "Winner" in history.text()
    scores = next(m for m in reversed(cp.fd.channel_messages(cp.chan)) if "final scoring" in m.text())
    clicked = await cp.fd.click(cp.players["ben"], scores, "host:history:1")
    assert clicked.ephemeral and "Game #1" in clicked.text()


async def test_five_players_whole_game(cp: CpTable, fixed_seed: None, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    players = ["ann", "ben", "cat", "dan", "eve"]
    driver = await play_whole_game(cp, players, seed=3, target_prestige=5, variant="lucky_speed")
    ended = check_results(cp, players)
    await check_export(cp, players, ended["text"])
    check_public(cp, driver, caplog)
    start = next(p for p in cp.posts() if "starts!" in p)
    colours = re.findall(r"\d\. \S+ (\w+) \((yellow|green|red|blue|black)\)", start)
    assert [c for _, c in colours] == ["yellow", "green", "red", "blue", "black"], start


async def test_five_players_quick_game(cp: CpTable, fixed_seed: None, caplog: pytest.LogCaptureFixture) -> None:
    """Five seats through setup and the first turns, then the host ends it: final scoring of the city as it is."""
    caplog.set_level(logging.INFO, logger="bot")
    players = ["ann", "ben", "cat", "dan", "eve"]
    await open_game(cp, players, target_prestige=5)
    driver = Driver(cp, random.Random(9))
    while driver.steps < 40 and await driver.step():
        pass
    reply = await cp.cmd(cp.host, "admin end")
    assert "ended" in reply.text()
    await cp.idle()
    ended = check_results(cp, players)
    assert "the host ended the game" in ended["text"] and " held: " in ended["text"], "reveal: the hands are shown"
    await check_export(cp, players, ended["text"])
    check_public(cp, driver, caplog)
