"""A scanner for secrets in what others can see: channel messages (text and embeds), PNG metadata,
component custom_ids, autocomplete answers, error replies and INFO logs.

A secret, before the game ends: a hidden role, a player paired with a character (on one line), or
a submission's action text (in public items). `Secrets.scan(text, where, viewer)` returns the
findings; `viewer` (a player's name) may see their own secrets.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.crimecity import CHARACTERS, ROLES

ROLE_WORDS = {r.value: [r.value, r.value.replace("_", " "), r.title.removeprefix("The ")] for r in ROLES}
CHAR_WORDS = {c.value: [c.value, c.title.removeprefix("The ")] for c in CHARACTERS}


def png_text_chunks(data: bytes) -> list[str]:
    """The text of every tEXt / zTXt / iTXt chunk, and the names of all chunks (metadata a picture carries)."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return []
    out, pos = [], 8
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"tEXt":
            out.append(body.decode("latin-1"))
        elif kind == b"zTXt":
            key, _, rest = body.partition(b"\x00")
            out.append(key.decode("latin-1") + " " + zlib.decompress(rest[1:]).decode("latin-1"))
        elif kind == b"iTXt":
            out.append(body.decode("utf-8", "replace"))
        elif kind not in (b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"sRGB", b"pHYs", b"cHRM", b"bKGD"):
            out.append(f"chunk {kind!r} ({length} bytes)")
    return out


@dataclass
class Secrets:
    """seat name -> (character id, role id); actions: name -> action texts submitted."""

    seats: dict[str, tuple[str, str]]
    actions: dict[str, list[str]] = field(default_factory=dict)

    def scan(self, text: str, where: str, viewer: str | None = None) -> list[str]:
        found = []
        low = text.casefold()
        for name, (_char, role) in self.seats.items():
            if name == viewer:
                continue
            for word in ROLE_WORDS.get(role, []):
                if re.search(rf"\b{re.escape(word.casefold())}\b", low):
                    found.append(f"{where}: role {word!r} (of {name}) in {text[:120]!r}")
        for line in text.splitlines():
            for name, (char, _role) in self.seats.items():
                if name == viewer or not re.search(rf"\b{re.escape(name)}\b", line, re.IGNORECASE):
                    continue
                for word in CHAR_WORDS.get(char, []):
                    if word.casefold() in line.casefold():
                        found.append(f"{where}: {name} next to their character {word!r}: {line[:120]!r}")
        for name, texts in self.actions.items():
            if viewer is not None:  # a player may be offered (and refused) the same action text
                break
            for action in texts:
                if len(action) > 8 and action.casefold() in low:
                    found.append(f"{where}: {name}'s submitted action {action!r}")
        return found

    def scan_all(self, items: Iterable[tuple[str, str]], viewer: str | None = None) -> list[str]:
        return [hit for where, text in items for hit in self.scan(text, where, viewer)]
