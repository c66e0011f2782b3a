"""Events: what happened, and who may see it (audience None = everyone)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PUBLIC = None


@dataclass(frozen=True, slots=True)
class Event:
    audience: str | None  # a player id, or None for the public channel
    kind: str
    data: dict[str, Any]

    @property
    def public(self) -> bool:
        return self.audience is None
