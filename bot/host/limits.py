"""Rate limits on what members make the bot post publicly (a board they ask for, say).

Token buckets per member and per channel, in memory (a restart forgets them: harmless). A member who may
not post in a channel gets nothing posted there on their behalf either (checked by the caller).

>>> now = [0.0]
>>> limits = Limits(clock=lambda: now[0])
>>> [limits.public_post(user=1, channel=9) for _ in range(4)]
[None, None, None, 20.0]
>>> now[0] = 20.0; limits.public_post(user=1, channel=9)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

MEMBER = (3, 60.0)  # a burst of three public posts per member, then one every 20 s
CHANNEL = (6, 60.0)  # and six per channel, whoever asks


@dataclass
class _Bucket:
    tokens: float
    at: float


class Limits:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def _wait(self, key: str, capacity: int, period: float) -> float:
        now = self.clock()
        rate = capacity / period
        bucket = self._buckets.get(key) or _Bucket(float(capacity), now)
        bucket.tokens = min(float(capacity), bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        self._buckets[key] = bucket
        return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / rate

    def public_post(self, *, user: int, channel: int) -> float | None:
        """None, and one post counted, if the member may have the bot post now; else seconds to wait."""
        waits = (self._wait(f"u{user}", *MEMBER), self._wait(f"c{channel}", *CHANNEL))
        if max(waits) > 0:
            return round(max(waits), 1)
        self._buckets[f"u{user}"].tokens -= 1
        self._buckets[f"c{channel}"].tokens -= 1
        if len(self._buckets) > 10_000:  # full buckets hold no information: forget them
            self._buckets = {k: b for k, b in self._buckets.items() if b.tokens < 1}
        return None
