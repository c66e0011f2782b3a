"""What every game's season shares (bot/host/seasons.py keeps the rows): the ledger's export, the
season autocomplete, and roster members named as a host types them."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from ..host import MAX_CHOICES, Host, Season, Standing, UserError, matches

_MENTION = re.compile(r"^<@!?(\d+)>$")


async def season_choices(
    host: Host, interaction: discord.Interaction, current: str, kinds: Sequence[str]
) -> list[app_commands.Choice[str]]:
    """This server's seasons of these games, the open ones first; a choice shows a season's name, its
    value is its id."""
    if interaction.guild_id is None:
        return []
    found = [s for kind in kinds for s in await host.seasons.of_guild(interaction.guild_id, kind)]
    found.sort(key=lambda s: (s.status != "open", -s.id))
    out = []
    for season in found:
        label = season.name if season.status == "open" else f"{season.name} (ended)"
        if matches(current, season.name, str(season.id)):
            out.append(app_commands.Choice(name=label[:100], value=str(season.id)))
    return out[:MAX_CHOICES]


def member_lookup(table: list[Standing]):  # type: ignore[no-untyped-def]
    """Name, mention or id → a roster member's user id; UserError for anyone else."""
    on_roster = [s for s in table if s.on_roster]

    def lookup(text: str) -> int:
        text = text.strip()
        found = _MENTION.match(text)
        if found or (text.isascii() and text.isdigit()):
            user = int(found.group(1) if found else text)
            if any(s.user_id == user for s in on_roster):
                return user
        for attr in ("display_name", "user_name"):
            hits = [s.user_id for s in on_roster if getattr(s, attr).casefold() == text.lstrip("@").casefold()]
            if len(hits) == 1:
                return hits[0]
        raise UserError(f"Nobody named {text!r} is on the season's roster.")

    return lookup


def export_files(season: Season, ledger: Sequence[Mapping[str, Any]]) -> tuple[bytes, bytes]:
    """The ledger as CSV and as JSON (one row per change, oldest first)."""
    fields = ("id", "user_id", "display_name", "amount", "reason", "match_id", "by_user", "created_at")
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(fields)
    for r in ledger:
        writer.writerow([_csv_safe(r.get(f)) for f in fields])
    doc = {
        "season": {"id": season.id, "name": season.name, "status": season.status},
        "ledger": [{f: r.get(f) for f in fields} for r in ledger],
    }
    return text.getvalue().encode(), (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()


def _csv_safe(value: Any) -> Any:
    """A cell a spreadsheet will not run as a formula (a member's name could start with "=")."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def parse_names(text: str, lookup: Any, what: str) -> list[int]:
    """Comma-separated names or mentions → user ids, in order, each once."""
    out: list[int] = []
    for name in [n for n in text.replace(";", ",").split(",") if n.strip()]:
        user = lookup(name)
        if user in out:
            raise UserError(f"{name.strip()} is listed twice in the {what}.")
        out.append(user)
    return out


def fit_newest(head: Sequence[str], rows: Sequence[str], limit: int = 4000) -> str:
    """`head` and then `rows` (oldest first) in at most `limit` characters: when they do not all fit, the
    oldest go and a line says how many (the export keeps every one).

    >>> print(fit_newest(["Head"], ["a" * 40, "b" * 40, "c" * 40], limit=100))
    Head
    … 2 earlier matches (the season's export has all)
    cccccccccccccccccccccccccccccccccccccccc
    """
    for dropped in range(len(rows) + 1):
        kept = list(rows[dropped:])
        earlier = f"… {dropped} earlier match{'es' if dropped != 1 else ''} (the season's export has all)"
        note = [earlier] if dropped else []
        text = "\n".join([*head, *note, *kept])
        if len(text) <= limit:
            return text
    return "\n".join(head)[:limit]
