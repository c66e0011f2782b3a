"""Rate limits (per-route buckets, blocked routes, global 429s) and one-shot fault injection (429 / 5xx / any error).

Discord keys a rate limit by bucket (one per route, given to the client as `X-RateLimit-Bucket`) plus the
route's major parameter (channel id, guild id, or webhook id + token). discord.py learns the bucket hash from
the header and keeps one limiter per `hash:major`, so a 429 on one channel's messages does not hold up the
same route for another channel.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

RATE_LIMIT = 50  # what the headers announce when no limit is enforced (remaining stays at 49)


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """discord.py only parses JSON when Content-Type is *exactly* application/json (no charset)."""
    if body is None:
        return web.Response(status=204, headers=headers)
    return web.Response(
        status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json", **(headers or {})}
    )


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response(status, {"code": code, "message": message})


def bucket_hash(bucket_key: str) -> str:
    """The `X-RateLimit-Bucket` of a route ("METHOD /template"): the same for every major parameter."""
    return hashlib.sha1(bucket_key.encode()).hexdigest()[:16]


def rate_limit_headers(
    bucket_key: str, *, remaining: int = RATE_LIMIT - 1, reset_after: float = 1.0, limit: int = RATE_LIMIT
) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(max(0, remaining)),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket_hash(bucket_key),
        "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
    }


def too_many(
    retry_after: float, headers: dict[str, str], *, is_global: bool = False, scope: str = "user"
) -> web.Response:
    """A 429 as Discord sends it: Retry-After (whole seconds), X-RateLimit-Scope, and the exact retry_after in
    the body (discord.py sleeps that long, then retries, up to 5 tries)."""
    headers = dict(headers)
    headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    headers["X-RateLimit-Scope"] = "global" if is_global else scope
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body: dict[str, Any] = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    return json_response(429, body, headers)


@dataclass(eq=False)
class Fault:
    pattern: re.Pattern[str]
    method: str | None
    status: int
    retry_after: float
    times: int
    code: int
    message: str
    is_global: bool
    after: bool = False  # True: the request is carried out, then answered with the failure
    disconnect: bool = False  # True: no answer at all, the connection is closed

    def matches(self, method: str, path: str) -> bool:
        return (self.method is None or self.method == method) and bool(self.pattern.search(path))

    def response(self, bucket_key: str) -> web.Response:
        if self.status == 429:
            headers = rate_limit_headers(bucket_key, remaining=0, reset_after=self.retry_after)
            return too_many(self.retry_after, headers, is_global=self.is_global)
        return json_response(self.status, {"code": self.code, "message": self.message}, rate_limit_headers(bucket_key))


class Faults:
    """Queue of pending faults; each matching request consumes one use."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.fired: list[tuple[str, str, int]] = []  # (method, path, status); status 0 for a disconnect

    def add(
        self,
        route_pattern: str,
        *,
        status: int = 429,
        retry_after: float = 0.05,
        times: int = 1,
        method: str | None = None,
        code: int = 0,
        message: str | None = None,
        is_global: bool = False,
        after: bool = False,
        disconnect: bool = False,
    ) -> None:
        default = {429: "You are being rate limited.", 500: "Internal Server Error", 503: "Service Unavailable"}
        self.pending.append(
            Fault(
                re.compile(route_pattern),
                method.upper() if method else None,
                status,
                retry_after,
                times,
                code,
                message or default.get(status, "Injected failure"),
                is_global,
                after,
                disconnect,
            )
        )

    def take(self, method: str, path: str) -> Fault | None:
        for fault in self.pending:
            if fault.matches(method, path):
                fault.times -= 1
                if fault.times <= 0:
                    self.pending.remove(fault)
                self.fired.append((method, path, 0 if fault.disconnect else fault.status))
                return fault
        return None


@dataclass(eq=False)
class Block:
    """A route (regex on the path) that answers 429 until `until`."""

    pattern: re.Pattern[str]
    method: str | None
    until: float  # monotonic
    scope: str

    def matches(self, method: str, path: str) -> bool:
        return (self.method is None or self.method == method) and bool(self.pattern.search(path))


@dataclass(eq=False)
class BucketLimit:
    """An enforced limit: `limit` requests per `per` seconds for each (bucket, major parameter)."""

    pattern: re.Pattern[str]  # on "METHOD /template", e.g. r"^POST /channels/\{channel_id\}/messages$"
    limit: int
    per: float


@dataclass
class _Window:
    count: int = 0
    resets: float = 0.0  # monotonic


@dataclass
class RateLimitHit:
    """One 429 the fake answered."""

    method: str
    path: str
    bucket: str  # X-RateLimit-Bucket
    major: str
    retry_after: float
    scope: str  # "user", "shared" or "global"
    at: float = field(default_factory=time.monotonic)


class RateLimits:
    """Per-(bucket, major parameter) windows, blocked routes and the global limit.

    Without `limit(...)` nothing is enforced and the headers announce 49 of 50 remaining (as before)."""

    def __init__(self) -> None:
        self.limits: list[BucketLimit] = []
        self.blocks: list[Block] = []
        self.global_until = 0.0
        self.windows: dict[tuple[str, str], _Window] = {}
        self.hits: list[RateLimitHit] = []

    def limit(self, route: str, limit: int, per: float) -> None:
        self.limits.append(BucketLimit(re.compile(route), limit, per))

    def block(self, path_pattern: str, seconds: float, *, method: str | None = None, scope: str = "user") -> None:
        self.blocks.append(
            Block(re.compile(path_pattern), method.upper() if method else None, time.monotonic() + seconds, scope)
        )

    def block_global(self, seconds: float) -> None:
        self.global_until = time.monotonic() + seconds

    def check(self, method: str, path: str, bucket_key: str, major: str, *, exempt_global: bool) -> web.Response | None:
        """A 429 for this request, or None (then `headers()` gives the headers of the answer)."""
        now = time.monotonic()
        if not exempt_global and now < self.global_until:
            left = self.global_until - now
            self.hits.append(RateLimitHit(method, path, bucket_hash(bucket_key), major, left, "global"))
            return too_many(left, {"Via": "1.1 google"}, is_global=True)
        self.blocks = [b for b in self.blocks if b.until > now]
        for block in self.blocks:
            if block.matches(method, path):
                left = block.until - now
                self.hits.append(RateLimitHit(method, path, bucket_hash(bucket_key), major, left, block.scope))
                rule = self._rule(bucket_key)
                headers = rate_limit_headers(bucket_key, remaining=0, reset_after=left, limit=rule.limit if rule else 5)
                return too_many(left, headers, scope=block.scope)
        rule = self._rule(bucket_key)
        if rule is None:
            return None
        window = self._window(bucket_key, major, rule, now)
        if window.count >= rule.limit:
            left = window.resets - now
            self.hits.append(RateLimitHit(method, path, bucket_hash(bucket_key), major, left, "user"))
            return too_many(left, rate_limit_headers(bucket_key, remaining=0, reset_after=left, limit=rule.limit))
        window.count += 1
        return None

    def headers(self, bucket_key: str, major: str) -> dict[str, str]:
        rule = self._rule(bucket_key)
        if rule is None:
            return rate_limit_headers(bucket_key)
        now = time.monotonic()
        window = self._window(bucket_key, major, rule, now)
        return rate_limit_headers(
            bucket_key, remaining=rule.limit - window.count, reset_after=window.resets - now, limit=rule.limit
        )

    def _rule(self, bucket_key: str) -> BucketLimit | None:
        return next((r for r in self.limits if r.pattern.search(bucket_key)), None)

    def _window(self, bucket_key: str, major: str, rule: BucketLimit, now: float) -> _Window:
        window = self.windows.setdefault((bucket_key, major), _Window())
        if now >= window.resets:
            window.count, window.resets = 0, now + rule.per
        return window
