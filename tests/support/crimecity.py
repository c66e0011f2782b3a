"""Crime City test data and helpers: the worked example's cast and rounds (rulings Part 4), and the
secret scan of public texts."""

from __future__ import annotations

import json
import re
from typing import Any

from rules.crimecity import CHARACTERS, ROLES
from tests.support.table import NAMES, Table

CAST = {  # CAST-EX: each ranks the wanted role and character first; equal bids, join order breaks ties
    "andy": ("pickpocket", "detective"),
    "grunkle": ("mob_boss", "banker"),
    "cara": ("hitman", "secretary"),
    "dev": ("bank_robber", "governor"),
    "eve": ("fraud", "armed_guard"),
}
WE1 = {
    "andy": ("move vertical secretary", "ability store_clerk"),
    "grunkle": ("move horizontal governor", "ability"),
    "cara": ("converse policeman", "ability player Andy"),
    "dev": ("converse governors_daughter", "move vertical governors_daughter"),
    "eve": ("converse banker", "move vertical governors_daughter"),
}
WE3 = {
    "andy": ("move vertical detective", "converse store_clerk"),
    "grunkle": ("move vertical detective", "converse governor"),
    "cara": ("converse detective", "converse store_clerk"),
    "dev": ("converse banker", "converse policeman"),
    "eve": ("move vertical armed_guard", None),
}
ROLE_WORDS = [r.title.removeprefix("The ") for r in ROLES] + [r.value for r in ROLES]
CHAR_WORDS = [c.title.removeprefix("The ") for c in CHARACTERS]


def board_lines(text: str) -> dict[str, str]:
    """Location name → the line of characters, from a board post."""
    found = {}
    for loc in ("Town Hall", "Mansion", "Main Street", "Bank"):
        m = re.search(rf"\*\*{loc}\*\*: (.*)", text)
        assert m, f"no {loc} line in {text!r}"
        found[loc] = m.group(1)
    return found


def assert_no_secret(text: str, where: str) -> None:
    """Before the end nothing public names a role, or pairs a player with a character on one line."""
    for word in ROLE_WORDS:
        assert word.lower() not in text.lower(), f"role {word!r} in {where}: {text!r}"
    for line in text.splitlines():
        names = [n for n in NAMES if re.search(rf"\b{n}\b", line, re.IGNORECASE)]
        chars = [c for c in CHAR_WORDS if c.lower() in line.lower()]
        assert not (names and chars), f"player and character together in {where}: {line!r}"


async def act(t: Table, name: str, first: str, second: str | None, *, dm: bool = False):
    options = {"first": first} | ({"second": second} if second else {})
    return await t.cmd(t.players[name], "act", dm=dm, **options)


async def act_we1(t: Table, name: str) -> None:
    """`name` submits their WE-1 actions; the reply must say they were recorded."""
    first, second = WE1[name]
    reply = await t.cmd(t.players[name], "act", first=first, second=second)
    assert "actions recorded" in reply.text(), reply.text()


async def match_of(t: Table) -> Any:
    """The channel's latest game's state, as the rules see it (for driving tests, never for asserting
    what a member sees)."""
    from rules.crimecity.game import GAME

    row = await t.bot.db.fetchone("SELECT state_json FROM games ORDER BY id DESC LIMIT 1")
    return GAME.decode_state(json.loads(row["state_json"]))
