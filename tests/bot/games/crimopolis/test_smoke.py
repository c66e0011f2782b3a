"""The bot syncs /crimopolis next to the other games and opens, fills and starts a lobby."""

from __future__ import annotations

from tests.support.crimopolis import CpTable, open_game


async def test_lobby_opens_and_starts(cp: CpTable) -> None:
    names = [c["name"] for c in cp.fd.commands()]
    assert "crimopolis" in names
    await open_game(cp, ["ann", "ben"], target_prestige=5)
    posts = cp.posts()
    assert any("starts!" in p for p in posts), posts
