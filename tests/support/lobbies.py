"""Two lobbies of one game for the same members, driven from a DM (commands.md: the `game` option)."""

from __future__ import annotations

from typing import Any


async def lobby_verbs_in_a_dm(
    fd: Any, guild: Any, chan: Any, host: Any, joiners: list[Any], kind: str
) -> tuple[Any, Any]:
    """A lobby in `chan` and one in a new channel, both joined by `joiners` and `host`. The first joiner's
    `leave` and the host's `start`, sent in their DMs, are refused without `game` and done with it, on the
    second lobby. Returns the start's reply and the second channel."""
    other = guild.add_text_channel(f"{kind}-2")
    for channel in (chan, other):
        await fd.slash(host, channel, f"{kind} new")
        for who in (*joiners, host):
            await fd.slash(who, channel, f"{kind} join")
    member = joiners[0]
    dm_member, dm_host = fd.dm_channel(member), fd.dm_channel(host)
    assert "several games" in (await fd.slash(member, dm_member, f"{kind} leave")).text()
    games = await fd.autocomplete(member, dm_member, f"{kind} leave", focused="game")
    second = next(c["value"] for c in games if f"{kind}-2" in c["name"])
    left = await fd.slash(member, dm_member, f"{kind} leave", game=second)
    assert "left" in left.text(), left.text()
    assert "several games" in (await fd.slash(host, dm_host, f"{kind} start")).text()
    return await fd.slash(host, dm_host, f"{kind} start", game=second), other
