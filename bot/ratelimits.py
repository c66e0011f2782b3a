"""discord.py's rate-limit buckets, swept for stale ones once a minute instead of at every new bucket.

discord.py keeps one bucket per route and major parameter (a channel, a DM channel, a webhook). Past 256
buckets it walks all of them, at every bucket it creates, for those idle 300 s. A bot with hundreds of
games' channels and players' DMs creates buckets all the time, and each walk held the event loop for
most of a millisecond (about 0.6 ms at 700 buckets: 3 % of the loop's time in bench/organizedcrime_latency.py).
A bucket is dropped only after 300 s idle, so a sweep a minute drops the same ones, a little later.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

SWEEP_EVERY = 60.0  # seconds between two sweeps of the buckets


def sweep_now_and_then(http: Any, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic) -> bool:
    """Gate `http`'s sweep of stale buckets to once per `every` seconds. False, changing nothing, when this
    discord.py has no such sweep (its buckets are then its own business)."""
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if not callable(sweep):
        log.info("discord.py has no rate-limit bucket sweep to gate")
        return False
    last = [clock()]

    def gated() -> None:
        now = clock()
        if now - last[0] >= every:
            last[0] = now
            sweep()

    http._try_clear_expired_ratelimits = gated
    return True
