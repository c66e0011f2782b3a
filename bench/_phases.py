"""Where the bot's own side of an Organized Crime move goes (CC_BENCH_PHASES=1), measured in the bot's process.

Each move's phases, from discord.py's parsing of INTERACTION_CREATE: to the command's start (discord.py's
dispatch), the caller's context (`moves.context`), the move (`Play.submit`: under the lock, the rules'
check, then the step's transaction, of which `Stepper.advance` is the rules' step and everything written,
queued on SQLite's thread, and the rest is the COMMIT's round trip with its fsync), and the answer's start.
It wraps functions of the bot's modules in the bench's child only; the figures are a little higher than
without it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

PHASES = ("dispatch", "context", "submit", "advance", "commit", "answered")
_now = time.perf_counter
_current: dict[str, float] = {}
_moves: list[dict[str, float]] = []


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        t = _now()
        if name == "context" and "t0" in _current:
            _current.setdefault("dispatch", t - _current["t0"])
        try:
            return await fn(*args, **kwargs)
        finally:
            _current[name] = _current.get(name, 0.0) + _now() - t

    return timed


def install(client: Any) -> None:
    """In the bot's process: time each move's phases (kept until `take`)."""
    import discord.webhook.async_ as webhooks

    from bot.games.organizedcrime import cog, moves
    from bot.host import play, stepper

    cog.context = _timed("context", moves.context)
    play.Play.submit = _timed("submit", play.Play.submit)  # type: ignore[method-assign]
    stepper.Stepper.advance = _timed("advance", stepper.Stepper.advance)  # type: ignore[method-assign]
    accept = play.Play._accept

    async def _accept(self: Any, *args: Any, **kwargs: Any) -> Any:
        t, before = _now(), _current.get("advance", 0.0)
        try:
            return await accept(self, *args, **kwargs)
        finally:
            _current["commit"] = _current.get("commit", 0.0) + _now() - t - (_current.get("advance", 0.0) - before)

    play.Play._accept = _accept  # type: ignore[method-assign]
    parsers = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    respond = webhooks.AsyncWebhookAdapter.create_interaction_response

    def parse_interaction_create(data: Any) -> None:
        _current.clear()
        _current["t0"] = _now()
        parse(data)

    def create_interaction_response(self: Any, *args: Any, **kwargs: Any) -> Any:
        t0 = _current.pop("t0", None)
        # A move (a ping or an autocomplete submits nothing); without t0, two interactions overlapped: not counted.
        if "submit" in _current and t0 is not None:
            _current["answered"] = _now() - t0
            _moves.append(dict(_current))
        _current.clear()
        return respond(self, *args, **kwargs)

    parsers["INTERACTION_CREATE"] = parse_interaction_create
    webhooks.AsyncWebhookAdapter.create_interaction_response = create_interaction_response  # type: ignore[method-assign]


def take() -> list[dict[str, float]]:
    out = _moves[:]
    _moves.clear()
    return out


def line(moves: list[dict[str, float]]) -> str:
    """p50 / p99 of each phase over `moves`."""
    from _harness import pct

    parts = []
    for name in PHASES:
        xs = [m.get(name, 0.0) for m in moves]
        if xs:
            parts.append(f"{name} {pct(xs, 0.5) * 1e3:.2f}/{pct(xs, 0.99) * 1e3:.2f}")
    return "; ".join(parts) + f" ms (p50/p99, n={len(moves)})"
