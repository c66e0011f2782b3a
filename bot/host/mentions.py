"""Clickable command mentions: "/game play" in a text the bot sends becomes `</game play:ID>`.

Discord shows a mention as the command's name, and a click fills it in. The ids come from the last sync
of the application commands; before any sync (or with sync off) texts keep the plain names.

>>> class Client:
...     command_ids = {"game": 42}
...     command_paths = {"game play", "game admin end"}
>>> mentions(Client(), "Use /game play first:x, or /game admin end; /other stays.")
'Use </game play:42> first:x, or </game admin end:42>; /other stays.'

Discord shows a mention inside inline code as its raw text, so a command in backticks comes out of them
(what follows it stays in code); other code is left alone:

>>> mentions(Client(), "Try `/game play first:x`, `/game admin end` or `/other`; `x /game play` stays.")
'Try </game play:42> `first:x`, </game admin end:42> or `/other`; `x /game play` stays.'
>>> mentions(Client(), "Hosting: `/game admin end|pause`.")
'Hosting: `/game admin end|pause`.'
"""

from __future__ import annotations

import re
from typing import Any

_COMMAND = re.compile(r"(?<![<\w/])/([a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*){0,2})")
_CODE = re.compile(r"`([^`\n]+)`")


def mentions(client: Any, text: str) -> str:
    ids: dict[str, int] = getattr(client, "command_ids", None) or {}
    paths: set[str] = getattr(client, "command_paths", None) or set()
    if not ids or not text:
        return text

    def link(words_text: str) -> tuple[str, str] | None:
        """The mention of the longest command path `words_text` starts with, and what follows it."""
        words = words_text.split(" ")
        for n in range(len(words), 0, -1):
            path = " ".join(words[:n])
            if path in paths and words[0] in ids:
                return f"</{path}:{ids[words[0]]}>", words_text[len(path) :]
        return None

    def mention(match: re.Match[str]) -> str:
        found = link(match.group(1))
        return match.group(0) if found is None else found[0] + found[1]

    def code(span: re.Match[str]) -> str:
        inner = span.group(1)
        command = _COMMAND.match(inner)
        found = None if command is None else link(command.group(1))
        rest = "" if command is None or found is None else found[1] + inner[command.end() :]
        if command is None or found is None or rest[:1] not in ("", " "):
            return span.group(0)  # not a command and its options (e.g. `/game admin end|pause`): plain code
        return found[0] + (f" `{rest.strip()}`" if rest.strip() else "")

    out, last = [], 0
    for span in _CODE.finditer(text):
        out += [_COMMAND.sub(mention, text[last : span.start()]), code(span)]
        last = span.end()
    out.append(_COMMAND.sub(mention, text[last:]))
    return "".join(out)
