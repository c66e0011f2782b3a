"""What JSON read from a file must be before anything uses it: text that can be written back out.

Python's JSON reader accepts a lone surrogate escape (`"\\ud800"`), which no UTF-8 output can carry, and
reads `1e400` as infinity, which no JSON can: either would fail much later, when printed or stored.
"""

from __future__ import annotations

import math
from typing import Any


def bad_text(value: Any, where: str) -> str | None:
    """The first string (or key) that is not valid text, or number beyond a double's range, as `where: why`;
    None when there is none.

    >>> bad_text({"id": "ok", "n": [1, 2.5]}, "file") is None
    True
    >>> bad_text({"spaces": [{"id": "o\\ud800"}]}, "board.json")
    "board.json.spaces[0].id: not valid text (it holds a lone surrogate, 'o\\\\ud800')"
    """
    stack = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if not _encodes(item):
                return f"{at}: not valid text (it holds a lone surrogate, {item!r:.40})"
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{at}: the number is out of range (beyond a double's)"
        elif isinstance(item, dict):
            for key, sub in item.items():
                if not _encodes(key):
                    return f"{at}: not valid text (it holds a lone surrogate, {key!r:.40})"
                stack.append((sub, f"{at}.{key}" if at != "file" else key))
        elif isinstance(item, list):
            stack.extend((sub, f"{at}[{i}]") for i, sub in enumerate(item))
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
