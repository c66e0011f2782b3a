"""Rate-limit headers for every response, and one-shot fault injection (429 / 5xx / any error)."""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

RATE_LIMIT = 50


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """discord.py only parses JSON when Content-Type is *exactly* application/json (no charset)."""
    if body is None:
        return web.Response(status=204, headers=headers)
    return web.Response(
        status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json", **(headers or {})}
    )


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response(status, {"code": code, "message": message})


def rate_limit_headers(bucket_key: str, *, remaining: int = RATE_LIMIT - 1, reset_after: float = 1.0) -> dict[str, str]:
    bucket = hashlib.sha1(bucket_key.encode()).hexdigest()[:16]
    return {
        "X-RateLimit-Limit": str(RATE_LIMIT),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
    }


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

    def matches(self, method: str, path: str) -> bool:
        return (self.method is None or self.method == method) and bool(self.pattern.search(path))

    def response(self, bucket_key: str) -> web.Response:
        if self.status == 429:
            headers = rate_limit_headers(bucket_key, remaining=0, reset_after=self.retry_after)
            headers["Retry-After"] = str(max(1, round(self.retry_after)))
            headers["X-RateLimit-Scope"] = "global" if self.is_global else "user"
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            body = {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": self.is_global}
            return json_response(429, body, headers)
        return json_response(self.status, {"code": self.code, "message": self.message}, rate_limit_headers(bucket_key))


class Faults:
    """Queue of pending faults; each matching request consumes one use."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.fired: list[tuple[str, str, int]] = []

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
            )
        )

    def take(self, method: str, path: str) -> Fault | None:
        for fault in self.pending:
            if fault.matches(method, path):
                fault.times -= 1
                if fault.times <= 0:
                    self.pending.remove(fault)
                self.fired.append((method, path, fault.status))
                return fault
        return None
