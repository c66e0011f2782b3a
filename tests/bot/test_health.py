"""The health endpoint (CRIMECITY_HEALTH_PORT) and the line logged per shard when it becomes ready."""

from __future__ import annotations

import logging
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import Settings, create_bot
from bot.health import HealthPortUnavailable
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.timeout(30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(port: int, path: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.json()


async def test_health_and_readiness_per_shard(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.startup")
    port = free_port()
    async with FakeDiscord() as fd:
        fd.shard_count = 4
        for shard in (1, 1, 3):
            fd.add_guild(f"on {shard}", shard=shard)
        bot = create_bot(tmp_path / "x.db", Settings(health_port=str(port)), shard_count=4, shard_ids=[1, 3])
        fd.start(bot)
        await fd.wait_ready()
        status, body = await get(port, "/ready")
        assert status == 200 and body["ready"] is True and body["shard_count"] == 4
        assert [(s["id"], s["ready"], s["guilds"]) for s in body["shards"]] == [(1, True, 2), (3, True, 1)]
        status, body = await get(port, "/health")
        assert status == 200 and body == {
            "alive": True,
            "database": "ok",
            "shards": [{"id": 1, "ready": True}, {"id": 3, "ready": True}],
        }
        lines = [r.getMessage() for r in caplog.records if r.name == "bot.startup"]
        assert "shard 1/4 ready: 2 guilds" in lines and "shard 3/4 ready: 1 guild" in lines
        assert any(line.startswith("ready as ") and "; shards 1,3 of 4;" in line for line in lines)

        # One shard's connection lost: not ready (503), though alive; ready again once it is back.
        await bot.shards[3].disconnect()
        status, body = await get(port, "/ready")
        assert status == 503 and body["ready"] is False
        assert [(s["id"], s["ready"]) for s in body["shards"]] == [(1, True), (3, False)]
        assert (await get(port, "/health"))[0] == 200
        await bot.shards[3].connect()
        await fd.wait_for(lambda: 3 in bot.readiness.connected)
        assert (await get(port, "/ready"))[0] == 200

        # The database gone: unhealthy, and the answer names no path or URL.
        await bot.db.close()
        status, body = await get(port, "/health")
        assert status == 503 and body["database"].startswith("unreachable (") and "x.db" not in str(body)
        await bot.close()
        fd.detach(bot)
    with pytest.raises(aiohttp.ClientConnectionError):  # closing the client closes the endpoint
        await get(port, "/health")


async def test_unsharded_bot_is_one_shard_and_no_endpoint_by_default(tmp_path: Path) -> None:
    async with FakeDiscord() as fd:
        fd.add_guild("only")
        port = free_port()
        quiet = create_bot(tmp_path / "a.db")
        fd.start(quiet)
        await fd.wait_ready()
        assert quiet._health is None
        await quiet.close()
        fd.detach(quiet)
        bot = create_bot(tmp_path / "b.db", Settings(health_port=f"127.0.0.1:{port}"))
        fd.start(bot)
        await fd.wait_ready()
        status, body = await get(port, "/ready")
        assert status == 200 and body["shard_count"] == 1
        assert [(s["id"], s["ready"], s["guilds"]) for s in body["shards"]] == [(0, True, 1)]


async def test_a_busy_health_port_is_one_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = create_bot(tmp_path / "x.db", Settings(health_port=str(port)))
        with pytest.raises(HealthPortUnavailable, match=f"CRIMECITY_HEALTH_PORT: cannot listen on 127.0.0.1:{port}"):
            await bot.setup_hook()
        await bot.close()
