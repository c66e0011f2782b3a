"""The packaged house content (rules/organizedcrime/content/*.json), read with importlib.resources.

The one module of the game allowed to read files (the purity test's allow-list names it).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from ..contract import bad_text
from .content import FILES, Content, ContentError, validate


def parse(name: str, text: str) -> object:
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise ContentError(f"{name}: not valid JSON ({str(e).splitlines()[0]})") from None
    except RecursionError:
        raise ContentError(f"{name}: nested too deeply") from None
    why = bad_text(doc, name)
    if why is not None:
        raise ContentError(why)
    return doc


@lru_cache(maxsize=1)
def house() -> Content:
    root = resources.files("rules.organizedcrime") / "content"
    return validate({name: parse(name, (root / name).read_text(encoding="utf-8")) for name in FILES})


def from_directory(directory: str) -> Content:
    """A group's replacement content: the same four file names in `directory` (rulings Appendix A)."""
    docs = {}
    for name in FILES:
        path = f"{directory.rstrip('/')}/{name}"
        try:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
        except OSError as e:
            why = e.strerror or e.__class__.__name__
            raise ContentError(f"{name}: cannot be read from {directory} ({why})") from None
        except UnicodeDecodeError:
            raise ContentError(f"{name}: not UTF-8 text") from None
        docs[name] = parse(name, text)
    return validate(docs)
