"""Health and readiness over HTTP (CRIMECITY_HEALTH_PORT), for a supervisor or a load balancer.

- `GET /health`: 200 while the process runs and its database answers a query; 503 otherwise.
- `GET /ready`: 200 once every shard this process holds is connected to Discord; 503 otherwise.

Both answer JSON, with one entry per held shard. Nothing in them is secret: ids, counts, latencies.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from aiohttp import web

from .shards import ShardPlan

log = logging.getLogger(__name__)

DB_TIMEOUT = 2.0  # seconds a health probe waits for the database


class HealthPortUnavailable(OSError):
    """The health endpoint cannot listen where CRIMECITY_HEALTH_PORT says."""


class Readiness:
    """Which held shards are connected, from the client's gateway events (up on READY or RESUMED, down
    on a disconnect)."""

    def __init__(self, client: discord.Client, shards: ShardPlan) -> None:
        self.client = client
        self.shards = shards
        self.held = list(shards.ids) if shards.sharded else [0]
        self.connected: set[int] = set()

    def up(self, shard_id: int) -> None:
        self.connected.add(shard_id)

    def down(self, shard_id: int) -> None:
        self.connected.discard(shard_id)

    def guilds_of(self, shard_id: int) -> int:
        if not self.shards.sharded:
            return len(self.client.guilds)
        return sum(1 for g in self.client.guilds if g.shard_id == shard_id)

    def _latency_ms(self, shard_id: int) -> float | None:
        shards: dict[int, discord.ShardInfo] = getattr(self.client, "shards", {})
        info = shards.get(shard_id)
        seconds = info.latency if info is not None else self.client.latency
        return round(seconds * 1000, 1) if math.isfinite(seconds) else None

    def report(self) -> dict[str, Any]:
        closing = self.client.is_closed()
        shards = [
            {
                "id": i,
                "ready": i in self.connected and not closing,
                "guilds": self.guilds_of(i),
                "latency_ms": self._latency_ms(i),
            }
            for i in self.held
        ]
        return {"ready": all(s["ready"] for s in shards), "shard_count": self.shards.count or 1, "shards": shards}


class HealthServer:
    def __init__(self, readiness: Readiness, database_check: Callable[[], Awaitable[Any]]) -> None:
        self.readiness = readiness
        self.database_check = database_check
        self._runner: web.AppRunner | None = None
        app = web.Application()
        app.router.add_get("/health", self._health)
        app.router.add_get("/ready", self._ready)
        self.app = app

    async def start(self, host: str, port: int) -> None:
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            await runner.cleanup()
            raise HealthPortUnavailable(
                f"CRIMECITY_HEALTH_PORT: cannot listen on {host}:{port} ({exc.strerror or exc}); "
                f"choose a free port, or leave it unset."
            ) from exc
        self._runner = runner
        log.info("health endpoint on http://%s:%d/health and /ready", host, port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _health(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self.database_check(), DB_TIMEOUT)
            database = "ok"
        except Exception as exc:  # any failure is "unhealthy"; only its class is shown (no URL, no password)
            database = f"unreachable ({exc.__class__.__name__})"
        report = self.readiness.report()
        body = {
            "alive": True,
            "database": database,
            "shards": [{"id": s["id"], "ready": s["ready"]} for s in report["shards"]],
        }
        return web.json_response(body, status=200 if database == "ok" else 503)

    async def _ready(self, request: web.Request) -> web.Response:
        report = self.readiness.report()
        return web.json_response(report, status=200 if report["ready"] else 503)
