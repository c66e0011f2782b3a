"""Module-level draw functions for the picture worker tests (a worker process imports them by name)."""

from __future__ import annotations

import os
from typing import Any


def whose(kind: str, view: dict[str, Any]) -> bytes:
    """Which process drew it, and what it was asked."""
    return f"{os.getpid()}:{kind}:{sorted(view)}".encode()


def dies(kind: str, view: dict[str, Any]) -> bytes:
    os._exit(3)  # a worker killed mid-picture (out of memory, a signal)


def niceness(kind: str, view: dict[str, Any]) -> bytes:
    """The drawing process's niceness (its scheduling priority: higher is lower)."""
    return str(os.getpriority(os.PRIO_PROCESS, 0)).encode()
