"""Shared fixtures for the end-to-end tests (tests/bot/...) over tests/fakediscord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.table import NAMES, Table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Crime Club")
        chan = guild.add_text_channel("crime-city")
        host = guild.add_member("hosty", manage_guild=True)
        players = {n: guild.add_member(n) for n in NAMES}
        t = Table(fd, guild, chan, host, players, tmp_path / "crimecity.db")
        await t.start_bot()
        yield t
