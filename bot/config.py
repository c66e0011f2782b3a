"""Settings from the environment (or a .env file read by python -m bot)."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_DB = "data/crimecity.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@dataclass(frozen=True, slots=True)
class Setting:
    """One environment variable, as `python -m bot --help` and the docs describe it."""

    name: str
    default: str  # "required" when there is none
    meaning: str

    def describe(self) -> str:
        return f"{self.meaning} ({'required' if self.default == 'required' else f'default: {self.default}'})"


SETTINGS = (
    Setting("DISCORD_TOKEN", "required", "the bot's token: Developer Portal → your app → Bot → Reset Token"),
    Setting(
        "CRIMECITY_DB",
        DEFAULT_DB,
        "the SQLite file of every game, relative to the working directory; its folder must be writable",
    ),
    Setting("LOG_LEVEL", "INFO", "one of " + ", ".join(LOG_LEVELS) + "; DEBUG logs every Discord payload, secrets too"),
    Setting("COMMAND_SYNC", "global", "where to register the slash commands: global, guild:<server id> or off"),
    Setting("CRIMECITY_HOST_ROLE", "none", "a role id or name whose members may open games without Manage Server"),
    Setting("CRIMECITY_COMPUTER_DELAY", "1", "scales how long computer players take to move (0: at once)"),
)


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = None
    database: str = DEFAULT_DB
    log_level: str = "INFO"
    command_sync: str = "global"  # "global", "guild:<id>" or "off"
    host_role: str | None = None  # a role id or name allowed to open games without Manage Server
    computer_delay: float = 1.0  # scales computer players' delays (docs/computer-players.md); 0: at once

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        return Settings(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database=env.get("CRIMECITY_DB") or DEFAULT_DB,
            log_level=(env.get("LOG_LEVEL") or "INFO").strip(),  # any case: preflight checks it
            command_sync=(env.get("COMMAND_SYNC") or "global").strip(),
            host_role=env.get("CRIMECITY_HOST_ROLE") or None,
            computer_delay=_scale(env.get("CRIMECITY_COMPUTER_DELAY")),
        )

    def sync_guild_id(self) -> int | None:
        """The guild id of a "guild:<id>" sync scope; ValueError when the scope is not valid."""
        scope = self.command_sync
        if scope in ("global", "off"):
            return None
        kind, _, value = scope.partition(":")
        if kind != "guild" or not value.isdigit():
            raise ValueError(f"COMMAND_SYNC={scope!r} is not a sync scope: set it to global, off or guild:<server id>.")
        return int(value)


def _scale(text: str | None) -> float:
    """CRIMECITY_COMPUTER_DELAY: a number from 0 up; -1 for anything else (preflight refuses it)."""
    try:
        value = float((text or "1").strip())
    except ValueError:
        return -1.0
    return value if 0 <= value < float("inf") else -1.0
