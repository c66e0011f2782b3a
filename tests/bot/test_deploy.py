"""The files that run several processes (deploy/compose.yaml, the systemd template and its instance files)
are valid settings for the bot, and their processes together hold every shard exactly once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from dotenv import dotenv_values

from bot import Settings, preflight
from bot.shards import ShardPlan

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def plans_of(envs: list[dict[str, str]]) -> list[ShardPlan]:
    plans = []
    for env in envs:
        settings = Settings.from_env({"DISCORD_TOKEN": TOKEN} | env)
        assert preflight.check(settings) == [], env
        plans.append(settings.shard_plan())
    return plans


def assert_every_shard_once(plans: list[ShardPlan]) -> None:
    counts = {p.count for p in plans}
    assert len(plans) >= 2 and len(counts) == 1 and None not in counts, counts
    held = sorted(i for p in plans for i in p.ids)
    assert held == list(range(plans[0].count or 0)), held


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8")))


def test_compose_runs_postgresql_and_bots_holding_every_shard_once() -> None:
    services = compose()["services"]
    bots = {name: s for name, s in services.items() if name.startswith("bot-")}
    envs = [{k: str(v) for k, v in s["environment"].items()} for s in bots.values()]
    assert_every_shard_once(plans_of(envs))
    for service, env in zip(bots.values(), envs, strict=True):
        assert env["CRIMECITY_DB"].startswith("postgresql://") and "@db:5432/" in env["CRIMECITY_DB"]
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        probe = " ".join(service["healthcheck"]["test"])
        assert f"http://127.0.0.1:{env['CRIMECITY_HEALTH_PORT']}/ready" in probe
    assert services["db"]["image"].startswith("postgres:")
    assert "pgdata" in compose()["volumes"]


def test_systemd_instances_hold_every_shard_once_on_their_own_ports() -> None:
    unit = (DEPLOY / "crimecity-bot@.service").read_text(encoding="utf-8")
    assert re.search(r"^EnvironmentFile=/etc/crimecity-bot/%i\.env$", unit, re.M)  # no "-": required
    assert re.search(r"^ExecStart=/\S+/python -m bot$", unit, re.M)
    assert re.search(r"^RestartPreventExitStatus=2 3$", unit, re.M)
    files = sorted((DEPLOY / "instances").glob("*.env"))
    shared = {"CRIMECITY_DB": "postgresql://crimecity@localhost:5432/crimecity"}  # from the shared .env
    envs = [shared | {k: v or "" for k, v in dotenv_values(f).items()} for f in files]
    assert_every_shard_once(plans_of(envs))
    ports = [env["CRIMECITY_HEALTH_PORT"] for env in envs]
    assert len(set(ports)) == len(ports)
    for f in files:  # each file's instance is named in the unit's install line
        assert f"crimecity-bot@{f.stem}" in unit
