"""discord.py's stale rate-limit buckets swept once a minute, not at every new bucket (bot/ratelimits.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord.http

from bot.client import GameBot
from bot.ratelimits import SWEEP_EVERY, sweep_now_and_then


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_stale_buckets_are_swept_once_a_minute_not_at_every_new_bucket() -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    clock = Clock()
    assert sweep_now_and_then(http, clock=clock)
    for i in range(300):
        http.get_ratelimit(f"stale:{i}")
    idle = asyncio.get_running_loop().time() - 400  # discord.py drops a bucket idle for 300 s
    for bucket in http._buckets.values():
        bucket._last_request = idle
    http.get_ratelimit("new:1")  # within the minute: no walk over the 300 stale ones
    assert len(http._buckets) == 301
    clock.now += SWEEP_EVERY
    http.get_ratelimit("new:2")  # a minute on: the sweep drops them, as discord.py would have
    assert set(http._buckets) == {"new:1", "new:2"}
    await http.close()


async def test_the_bot_gates_its_sweep(tmp_path: Path) -> None:
    bot = GameBot(tmp_path / "bot.db")
    assert bot.http._try_clear_expired_ratelimits.__qualname__.startswith(sweep_now_and_then.__name__)


def test_without_a_sweep_nothing_changes() -> None:
    class Http:
        pass

    http = Http()
    assert not sweep_now_and_then(http)
    assert not hasattr(http, "_try_clear_expired_ratelimits")
