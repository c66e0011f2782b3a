"""The one module of Crimopolis that reads files: the packaged house pack (importlib.resources) and a
replacement pack from a directory (`--content DIR`). It only parses JSON; `content.load_content`
validates (pure)."""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any

from ..contract import bad_text
from .content import FILES, ContentError

PACKAGE = "rules.crimopolis"
PACK = "pack.json"


def _parse(name: str, text: str) -> Any:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ContentError(f"{name}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except (ValueError, RecursionError) as e:
        raise ContentError(
            f"{name}: not a valid content file ({str(e).splitlines()[0] if str(e) else 'too deep'})"
        ) from None
    why = bad_text(doc, name)
    if why is not None:
        raise ContentError(why)
    return doc


def _file_names(pack: Any) -> list[str]:
    files = pack.get("files") if isinstance(pack, dict) else None
    if not isinstance(files, dict):
        return []
    return [f for f in (files.get(k) for k in FILES) if isinstance(f, str) and f and "/" not in f and "\\" not in f]


def packaged_docs() -> dict[str, Any]:
    """The house pack shipped in rules/crimopolis/content/, parsed."""
    root = resources.files(PACKAGE).joinpath("content")
    pack = _parse(PACK, root.joinpath(PACK).read_text(encoding="utf-8"))
    docs = {PACK: pack}
    for name in _file_names(pack):
        docs[name] = _parse(name, root.joinpath(name).read_text(encoding="utf-8"))
    return docs


def directory_docs(path: str) -> dict[str, Any]:
    """A replacement pack: `pack.json` in `path` and the files it names (same names as the house pack)."""
    if not os.path.isdir(path):
        raise ContentError(f"{path}: not a directory holding a content pack")
    docs: dict[str, Any] = {PACK: _read(path, PACK)}
    for name in _file_names(docs[PACK]):
        docs[name] = _read(path, name)
    return docs


def _read(path: str, name: str) -> Any:
    full = os.path.join(path, name)
    try:
        with open(full, encoding="utf-8-sig") as f:
            text = f.read()
    except FileNotFoundError:
        raise ContentError(f"{name}: missing from {path}") from None
    except UnicodeDecodeError:
        raise ContentError(f"{name}: not UTF-8 text") from None
    except OSError as e:
        raise ContentError(f"{name}: cannot be read ({e.strerror or e.__class__.__name__})") from None
    return _parse(name, text)
