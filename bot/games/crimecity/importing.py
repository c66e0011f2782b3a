"""`/crimecity admin import`: a game run by hand, brought onto the bot from its replay file (replay.md,
a mid-game `start` allowed) and continued in this channel from the round after the file's last.

The file is checked whole before anything is created (a bad field is named); its players are mapped
to this server's members by name (or as the host maps them), and the game is opened, seated and set up
in one transaction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import discord

from rules.crimecity.handover import players_of
from rules.crimecity.replay_format import FormatError

from ...host import Member, UserError

MAX_BYTES = 512 * 1024
_MENTION = re.compile(r"^<@!?(\d+)>$")


async def read_file(attachment: discord.Attachment) -> dict[str, Any]:
    """The attachment as a replay document; UserError saying what is wrong with it."""
    if attachment.size > MAX_BYTES:
        raise UserError(f"That file is {attachment.size // 1024} KB; a replay file is at most {MAX_BYTES // 1024} KB.")
    data = await attachment.read()
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UserError("That file is not text: attach the replay file (JSON, replay.md).") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"That file is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    return check(doc)


def check(doc: Any) -> dict[str, Any]:
    """The whole file played through the rules: FormatError names the field that is wrong."""
    try:
        players_of(doc)
    except FormatError as exc:
        raise UserError(f"That replay file cannot be imported: {exc}.") from None
    assert isinstance(doc, dict)
    return doc


def parse_mapping(text: str | None) -> dict[str, str]:
    """`eve=@Eve, cara=Cara` → file name → what names the member (a mention, an id or a name)."""
    out: dict[str, str] = {}
    for item in [i.strip() for i in (text or "").split(",") if i.strip()]:
        name, sep, who = item.partition("=")
        if not sep or not name.strip() or not who.strip():
            raise UserError(f"{item!r}: map a player as `name=@member`, comma-separated.")
        out[name.strip()] = who.strip()
    return out


async def members_for(guild: discord.Guild, names: Sequence[str], mapping: dict[str, str]) -> list[Member]:
    """Each of the file's players (in order) as a member of `guild`, by name unless `mapping` says."""
    unknown = sorted(set(mapping) - set(names))
    if unknown:
        raise UserError(f"players: the file has no player named {unknown[0]!r}.")
    out: list[Member] = []
    for i, name in enumerate(names):
        member = await _find(guild, mapping.get(name, name))
        if member is None:
            raise UserError(
                f"players[{i}]: no single member of this server is named {name!r}; "
                f"map it with the `players` option, e.g. `{name}=@member`."
            )
        out.append(Member.from_user(member))
    return out


async def _find(guild: discord.Guild, text: str) -> discord.Member | None:
    found = _MENTION.match(text)
    if found or (text.isascii() and text.isdigit()):
        user_id = int(found.group(1) if found else text)
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                return None
        return None if member.bot else member
    wanted = text.lstrip("@").casefold()
    try:
        candidates = await guild.query_members(query=text.lstrip("@")[:100], limit=100)
    except (TimeoutError, discord.ClientException, ValueError):
        candidates = []
    for attr in ("display_name", "global_name", "name"):
        hits = {m.id: m for m in candidates if not m.bot and (getattr(m, attr) or "").casefold() == wanted}
        if len(hits) == 1:
            return next(iter(hits.values()))
        if len(hits) > 1:
            return None
    return None
