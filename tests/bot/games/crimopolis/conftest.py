"""The Crimopolis table: a fake server with a game channel, a host (Manage Server) and five would-be players."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.crimopolis import NAMES, CpTable


@pytest.fixture
async def cp(tmp_path: Path) -> AsyncIterator[CpTable]:
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Crimopolis Club")
        chan = guild.add_text_channel("crimopolis")
        host = guild.add_member("hosty", manage_guild=True)
        players = {n: guild.add_member(n) for n in NAMES}
        t = CpTable(fd, guild, chan, host, players, tmp_path / "crimopolis.db")
        await t.start_bot()
        yield t
