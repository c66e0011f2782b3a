"""Settings from the environment (or a .env file read by python -m bot)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from . import shards
from .shards import ShardPlan

DEFAULT_DB = "data/crimecity.db"
HEALTH_HOST = "127.0.0.1"  # the health endpoint's interface when CRIMECITY_HEALTH_PORT names only a port
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
        "the SQLite file of every game (relative to the working directory; its folder must be writable), or a"
        " postgresql://user@host:port/db URL shared by several processes",
    ),
    Setting("LOG_LEVEL", "INFO", "one of " + ", ".join(LOG_LEVELS) + "; DEBUG logs every Discord payload, secrets too"),
    Setting("COMMAND_SYNC", "global", "where to register the slash commands: global, guild:<server id> or off"),
    Setting("CRIMECITY_HOST_ROLE", "none", "a role id or name whose members may open games without Manage Server"),
    Setting(
        "CRIMECITY_SHARD_COUNT",
        "none (not sharded)",
        "the total number of Discord shards of the whole bot, when it runs as several processes",
    ),
    Setting(
        "CRIMECITY_SHARD_IDS",
        "every shard of the count",
        "the shards this process holds, e.g. 0,1 or 0-3 (needs CRIMECITY_SHARD_COUNT)",
    ),
    Setting(
        "CRIMECITY_HEALTH_PORT",
        "off",
        "[host:]port of the HTTP /health and /ready endpoint (host 127.0.0.1 unless given)",
    ),
    Setting("CRIMECITY_COMPUTER_DELAY", "1", "scales how long computer players take to move (0: at once)"),
    Setting(
        "CRIMECITY_PICTURE_PROCESSES",
        "1",
        "worker processes drawing the board pictures, 0 to 8 (0: a thread of the bot's own process)",
    ),
    Setting(
        "CRIMECITY_SENDER_PROCESS",
        "1",
        "1: the posts and DMs go out from a process of their own, so they never hold up an answer; 0: from the"
        " bot's own process",
    ),
    Setting(
        "CRIMECITY_DB_SYNC",
        "full",
        "full: a move is answered once its commit is on disk (fsync); normal: once the system holds it, which"
        " a crash of the bot survives but a power cut may not, for faster answers",
    ),
    Setting(
        "CRIMECITY_CONTENT",
        "none (the packaged content)",
        "a folder holding a group's own content: one folder per game, named by the game's id, with that game's"
        " content files",
    ),
)



MAX_PICTURE_PROCESSES = 8


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = None
    database: str = DEFAULT_DB
    log_level: str = "INFO"
    command_sync: str = "global"  # "global", "guild:<id>" or "off"
    host_role: str | None = None  # a role id or name allowed to open games without Manage Server
    # As written in the environment ("" when unset); shard_plan() and health_address() read them.
    shard_count: str = ""
    shard_ids: str = ""
    health_port: str = ""
    computer_delay: float = 1.0  # scales computer players' delays (docs/computer-players.md); 0: at once
    picture_processes: int = 1  # worker processes drawing board pictures; 0: a thread of the bot's process
    # 1: posts and DMs sent by a process of their own (bot/sender.py); 0: by this one; -1: not valid
    sender_process: int = 1
    db_sync: str = "full"  # "full" or "normal" (bot/storage/durability.py); anything else is refused by preflight
    content: str | None = None  # CRIMECITY_CONTENT (bot/content.py); None: every game on its packaged content

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        return Settings(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database=env.get("CRIMECITY_DB") or DEFAULT_DB,
            log_level=(env.get("LOG_LEVEL") or "INFO").strip(),  # any case: preflight checks it
            command_sync=(env.get("COMMAND_SYNC") or "global").strip(),
            host_role=env.get("CRIMECITY_HOST_ROLE") or None,
            shard_count=(env.get("CRIMECITY_SHARD_COUNT") or "").strip(),
            shard_ids=(env.get("CRIMECITY_SHARD_IDS") or "").strip(),
            health_port=(env.get("CRIMECITY_HEALTH_PORT") or "").strip(),
            computer_delay=_scale(env.get("CRIMECITY_COMPUTER_DELAY")),
            picture_processes=_processes(env.get("CRIMECITY_PICTURE_PROCESSES")),
            sender_process=_switch(env.get("CRIMECITY_SENDER_PROCESS"), 1),
            db_sync=(env.get("CRIMECITY_DB_SYNC") or "full").strip().lower(),
            content=(env.get("CRIMECITY_CONTENT") or "").strip() or None,
        )

    def shard_plan(self) -> ShardPlan:
        """The shards of CRIMECITY_SHARD_COUNT / CRIMECITY_SHARD_IDS; ValueError when they are not valid."""
        return shards.from_settings(self.shard_count, self.shard_ids)

    def health_address(self) -> tuple[str, int] | None:
        """(host, port) of CRIMECITY_HEALTH_PORT, None when off; ValueError when it is not valid."""
        value = self.health_port
        if not value or value.lower() == "off":
            return None
        host, colon, port = value.rpartition(":")
        host = host.strip("[]") if colon else HEALTH_HOST
        if not port.isdecimal() or not 1 <= int(port) <= 65535 or (colon and not host):
            raise ValueError(
                f"CRIMECITY_HEALTH_PORT={value!r} is not a port: set it to a port from 1 to 65535 (e.g. 8080, "
                f"or 0.0.0.0:8080 to answer on every interface), or leave it unset for no health endpoint."
            )
        return host, int(port)

    def sync_guild_id(self) -> int | None:
        """The guild id of a "guild:<id>" sync scope; ValueError when the scope is not valid."""
        scope = self.command_sync
        if scope in ("global", "off"):
            return None
        kind, _, value = scope.partition(":")
        if kind != "guild" or not value.isdigit():
            raise ValueError(f"COMMAND_SYNC={scope!r} is not a sync scope: set it to global, off or guild:<server id>.")
        return int(value)


def _processes(text: str | None) -> int:
    """CRIMECITY_PICTURE_PROCESSES: 0 to MAX_PICTURE_PROCESSES; -1 for anything else (preflight refuses it)."""
    value = (text or "1").strip()
    return int(value) if value.isdecimal() and int(value) <= MAX_PICTURE_PROCESSES else -1


def _switch(text: str | None, default: int) -> int:
    """An on/off setting: 1 or 0 (also true/false, yes/no, on/off); -1 for anything else (preflight refuses it)."""
    value = (text or "").strip().lower()
    if not value:
        return default
    return {"1": 1, "true": 1, "yes": 1, "on": 1, "0": 0, "false": 0, "no": 0, "off": 0}.get(value, -1)


def _scale(text: str | None) -> float:
    """CRIMECITY_COMPUTER_DELAY: a number from 0 up; -1 for anything else (preflight refuses it)."""
    try:
        value = float((text or "1").strip())
    except ValueError:
        return -1.0
    return value if 0 <= value < float("inf") else -1.0
