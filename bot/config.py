"""Settings from the environment (or a .env file read by python -m bot)."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_DB = "data/crimecity.db"


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = None
    database: str = DEFAULT_DB
    log_level: str = "INFO"
    command_sync: str = "global"  # "global", "guild:<id>" or "off"
    host_role: str | None = None  # a role id or name allowed to open games without Manage Server

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        return Settings(
            token=env.get("DISCORD_TOKEN") or None,
            database=env.get("CRIMECITY_DB") or DEFAULT_DB,
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            command_sync=(env.get("COMMAND_SYNC") or "global").strip(),
            host_role=env.get("CRIMECITY_HOST_ROLE") or None,
        )

    def sync_guild_id(self) -> int | None:
        """The guild id of a "guild:<id>" sync scope; ValueError when the scope is not valid."""
        scope = self.command_sync
        if scope in ("global", "off"):
            return None
        kind, _, value = scope.partition(":")
        if kind != "guild" or not value.isdigit():
            raise ValueError(f"COMMAND_SYNC must be global, off or guild:<id>, not {scope!r}")
        return int(value)
