"""/crimecity panel: select menus of the caller's legal actions, paged by kind, that keep working
after a restart, carry no secret in their custom ids, and refuse other members and stale rounds."""

from __future__ import annotations

import dataclasses
import re

from tests.support.crimecity import CAST, WE1, assert_no_secret
from tests.support.table import NAMES, Table, draft_cast, open_game

PANEL_ID = re.compile(r"^cc:panel:\d+:[0-9a-f]{12}:(kind|act|prev|next|clear|go|buy|guess)$")


def select_of(message, part: str) -> dict:
    return next(c for c in message.all_components() if c.get("custom_id", "").endswith(f":{part}"))


def cid(message, part: str) -> str:
    return select_of(message, part)["custom_id"]


def offered(message) -> set[str]:
    return {o["value"] for o in select_of(message, "act")["options"]}


async def pick(t: Table, who, panel, kind: str, value: str):
    """Choose the kind, then the action; returns the panel as edited."""
    panel = await t.fd.select(who, panel, cid(panel, "kind"), [kind])
    while value not in offered(panel):
        panel = await t.fd.click(who, panel, cid(panel, "next"))
    return await t.fd.select(who, panel, cid(panel, "act"), [value])


async def test_panel_offers_legal_actions_in_notation_and_submits(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    andy = t.players["andy"]
    panel = await t.cmd(andy, "panel")
    assert panel.ephemeral and "Round 1" in panel.text()
    for custom_id in panel.custom_ids():
        assert PANEL_ID.match(custom_id), custom_id
        assert_no_secret(custom_id, "a custom_id")
    kinds = {o["value"] for o in select_of(panel, "kind")["options"]}
    assert {"move", "converse", "ability"} <= kinds
    assert "move vertical secretary" in offered(panel), "movement first, in the notation"
    assert all(len(s["options"]) <= 25 for s in panel.all_components() if s.get("type") == 3)
    submit = panel.component(cid(panel, "go"))
    assert submit.get("disabled"), "nothing picked yet"

    panel = await pick(t, andy, panel, "move", "move vertical secretary")
    assert "1. `move vertical secretary`" in panel.text()
    assert not any(v.startswith("move ") for v in offered(panel)), "the second offers no second movement"
    panel = await pick(t, andy, panel, "ability", "ability store_clerk")
    assert "2. `ability store_clerk`" in panel.text()
    panel = await t.fd.click(andy, panel, cid(panel, "go"))
    assert "actions recorded: `move vertical secretary`, `ability store_clerk`" in panel.text()
    status = await t.cmd(andy, "status")
    assert "`move vertical secretary`, `ability store_clerk`" in status.text()
    assert "/crimecity panel" in status.text()


def has_next(message) -> bool:
    ids = [c for c in message.custom_ids() if c.endswith(":next")]
    return bool(ids) and not message.component(ids[0]).get("disabled")


async def everything_offered(t: Table, who, panel) -> tuple[set[str], int, object]:
    """Walks every kind and every page: (the values offered, how many pages, the last panel)."""
    seen: set[str] = set()
    pages = 0
    for kind in [o["value"] for o in select_of(panel, "kind")["options"]]:
        panel = await t.fd.select(who, panel, cid(panel, "kind"), [kind])
        while True:
            assert len(select_of(panel, "act")["options"]) <= 25
            seen |= offered(panel)
            pages += 1
            if not has_next(panel):
                break
            panel = await t.fd.click(who, panel, cid(panel, "next"))
    return seen, pages, panel


async def test_panel_groups_by_kind_and_pages(table: Table, monkeypatch) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    dev = t.players["dev"]  # the Governor: 16 moves, and sends co-located characters anywhere
    panel = await t.cmd(dev, "panel")
    whole, pages, panel = await everything_offered(t, dev, panel)
    assert pages == len(select_of(panel, "kind")["options"]), "at most 25 of a kind: one page each"
    assert {"move vertical governor", "move horizontal policeman"} <= whole
    first, second = WE1["dev"]
    assert first in whole and second in whole
    # A kind with more options than a select holds is paged (a page of 5 here, 25 in Discord)
    monkeypatch.setattr("bot.games.crimecity.panel.PAGE_SIZE", 5)
    panel = await t.cmd(dev, "panel")
    seen, pages, panel = await everything_offered(t, dev, panel)
    assert seen == whole and pages > len(select_of(panel, "kind")["options"])
    # Prev goes back a page
    panel = await t.fd.select(dev, panel, cid(panel, "kind"), ["move"])
    page1 = offered(panel)
    panel = await t.fd.click(dev, panel, cid(panel, "next"))
    assert offered(panel).isdisjoint(page1)
    panel = await t.fd.click(dev, panel, cid(panel, "prev"))
    assert offered(panel) == page1


async def test_panel_survives_a_restart(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    andy = t.players["andy"]
    panel = await t.cmd(andy, "panel")
    panel = await pick(t, andy, panel, "move", "move vertical secretary")
    await t.stop_bot()
    await t.start_bot()
    # the pick made before the restart is still there; the next click is served by the new process
    panel = await pick(t, andy, panel, "ability", "ability store_clerk")
    assert "1. `move vertical secretary` · 2. `ability store_clerk`" in panel.text()
    panel = await t.fd.click(andy, panel, cid(panel, "go"))
    assert "actions recorded" in panel.text()
    for n in NAMES[1:]:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    assert "The Store Clerk has no hidden role" in t.dm_texts(andy)[-1], "Andy's panel submission was resolved"


async def test_panel_refuses_other_members_and_resolved_rounds(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    andy, eve = t.players["andy"], t.players["eve"]
    panel = await t.cmd(andy, "panel")
    # Discord shows an ephemeral panel to its owner only; a forged click from someone else is refused
    borrowed = dataclasses.replace(panel, viewer=None)
    refused = await t.fd.click(eve, borrowed, cid(panel, "clear"))
    assert refused.ephemeral and "belongs to another player" in refused.text()
    host = await t.fd.select(t.host, borrowed, cid(panel, "kind"), ["move"])
    assert "belongs to another player" in host.text()

    panel = await pick(t, andy, panel, "move", "move vertical secretary")
    await t.cmd(t.host, "admin resolve")
    await t.idle()
    stale = await t.fd.click(andy, panel, cid(panel, "go"))
    assert stale.ephemeral and "round that has been resolved" in stale.text()
    again = await t.cmd(andy, "status")
    assert "not submitted yet" in again.text(), "nothing was recorded by the stale click"
    fresh = await t.cmd(andy, "panel")
    assert "Round 2" in fresh.text()
    none = await t.cmd(t.host, "panel")
    assert "not a player" in none.text()


async def test_friendship_sets_the_pair_and_the_panel_keeps_it(table: Table) -> None:
    """Rulings H8: `points` sets the round's purchase for the pair (0 cancels); a Submit keeps it."""
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    dev = t.players["dev"]
    two = await t.cmd(dev, "friendship", a="banker", b="governor", points=2)
    assert "6 of your 20 garnets" in two.text()
    one = await t.cmd(dev, "friendship", a="the governor", b="Banker", points=1)
    assert "3 of your 20 garnets" in one.text(), "set, not added"
    other = await t.cmd(dev, "friendship", a="policeman", b="secretary", points=1)
    assert "6 of your 20 garnets" in other.text(), "another pair is kept beside it"
    first, second = WE1["dev"]
    panel = await t.cmd(dev, "panel")
    panel = await pick(t, dev, panel, "converse", first)
    panel = await pick(t, dev, panel, "move", second)
    panel = await t.fd.click(dev, panel, cid(panel, "go"))
    assert "actions recorded" in panel.text()
    status = await t.cmd(dev, "status")
    assert "Friendship purchases: The Governor + The Banker, The Policeman + The Secretary (6 garnets)" in status.text()
    gone = await t.cmd(dev, "friendship", a="banker", b="governor", points=0)
    assert "The Policeman + The Secretary — 3 of your 20 garnets" in gone.text(), gone.text()
    await t.cmd(dev, "friendship", a="policeman", b="secretary", points=0)
    status = await t.cmd(dev, "status")
    assert "Friendship purchases" not in status.text() and f"`{first}`" in status.text()
