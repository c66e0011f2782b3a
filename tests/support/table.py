"""A fake server with a game channel, a host and five would-be players, for end-to-end tests over tests/fakediscord."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAMES = ["andy", "grunkle", "cara", "dev", "eve"]


@dataclass
class Table:
    """A fake server with one game channel, a host and five would-be players."""

    fd: Any
    guild: Any
    chan: Any
    host: Any
    players: dict[str, Any]
    db_path: Path
    bots: list[Any] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # Settings fields for the next start_bot()

    @property
    def bot(self) -> Any:
        return self.bots[-1]

    async def start_bot(self) -> Any:
        from bot import Settings, create_bot

        client = create_bot(self.db_path, Settings(**{"command_sync": "global", **self.settings}))
        self.fd.start(client)
        await self.fd.wait_ready()
        self.bots.append(client)
        return client

    async def stop_bot(self) -> None:
        """Close the client (as a crash or a restart would) and let the fake forget it."""
        client = self.bot
        await client.close()
        self.fd._clients = [(c, task) for c, task in self.fd._clients if c is not client]

    async def idle(self) -> None:
        """Every due timer fired, every queued message sent and seen by the fake."""
        await self.bot.wait_idle(timeout=10)
        await self.fd.settle()

    async def cmd(self, who: Any, command: str, *, dm: bool = False, **options: Any) -> Any:
        channel = self.fd.dm_channel(who) if dm else self.chan
        return await self.fd.slash(who, channel, f"crimecity {command}", **options)

    def posts(self) -> list[str]:
        return [m.text() for m in self.fd.channel_messages(self.chan)]

    def dm_texts(self, who: Any) -> list[str]:
        return [m.text() for m in self.fd.dms(who)]


async def open_game(t: Table, **options: Any) -> None:
    """/crimecity new, five joins, /crimecity start."""
    await t.cmd(t.host, "new", **({"deadline_hours": 24.0} | options))
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")


async def draft_cast(t: Table, cast: dict[str, tuple[str, str]]) -> None:
    """Everyone bids 0 and ranks (role, character) first; join order breaks the ties."""
    for n in NAMES:
        role, char = cast[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.idle()
