"""Clickable command mentions: "/game play" in a text the bot sends becomes `</game play:ID>`.

Discord shows a mention as the command's name, and a click fills it in. The ids come from the last sync
of the application commands; before any sync (or with sync off) texts keep the plain names.

>>> class Client:
...     command_ids = {"game": 42}
...     command_paths = {"game play", "game admin end"}
>>> mentions(Client(), "Use /game play first:x, or /game admin end; /other stays.")
'Use </game play:42> first:x, or </game admin end:42>; /other stays.'
"""

from __future__ import annotations

import re
from typing import Any

_COMMAND = re.compile(r"(?<![<\w/])/([a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*){0,2})")


def mentions(client: Any, text: str) -> str:
    ids: dict[str, int] = getattr(client, "command_ids", None) or {}
    paths: set[str] = getattr(client, "command_paths", None) or set()
    if not ids or not text:
        return text

    def mention(match: re.Match[str]) -> str:
        words = match.group(1).split(" ")
        for n in range(len(words), 0, -1):
            path = " ".join(words[:n])
            if path in paths and words[0] in ids:
                rest = match.group(1)[len(path) :]
                return f"</{path}:{ids[words[0]]}>{rest}"
        return match.group(0)

    return _COMMAND.sub(mention, text)
