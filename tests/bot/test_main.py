"""`python -m bot` explains a bad token or an unreachable Discord in one line, without a traceback."""

from __future__ import annotations

import aiohttp
import discord
import pytest

import bot.__main__ as entry


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), 2, "rejected DISCORD_TOKEN"),
        (aiohttp.ClientConnectionError("no route"), 1, "Cannot reach Discord"),
    ],
)
def test_start_up_failures_are_one_clear_line(monkeypatch, tmp_path, capsys, error, code, words) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("CRIMECITY_DB", str(tmp_path / "cc.db"))
    monkeypatch.chdir(tmp_path)

    async def failing_serve(client, token):  # type: ignore[no-untyped-def]
        await client.close()
        raise error

    monkeypatch.setattr(entry, "serve", failing_serve)
    assert entry.main() == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
