"""`python -m rules replay|legal|simulate|tournament`: the command-line face of every game's rules.

The file's `format` field chooses the game (rules/registry.py). Whatever the input, the command
prints its result and exits 0, or prints one line naming what is wrong and exits 2. The only module
of `rules` that reads files or writes to the terminal (and reads the clock: the tournament times
each decision of its computer players).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any, NoReturn

from . import players, registry, tournament
from .contract import FormatError, bad_text

MAX_BYTES = 64 * 1024 * 1024  # far above any real game; a bigger file is refused before it is read


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr, with its own command's usage on it."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split())  # argparse wraps it to the terminal's width
        print(f"error: {message} ({usage})", file=sys.stderr)
        raise SystemExit(2)


def dumps(doc: Any) -> str:
    """Deterministic JSON text: sorted keys, fixed layout."""
    return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def load(path: str) -> Any:
    """A replay file's JSON; FormatError with one line for anything that is not a readable JSON file."""
    try:
        if os.path.isdir(path):
            raise FormatError(f"{path}: is a directory, not a replay file")
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            raise FormatError(f"{path}: too large ({size} bytes; a replay file is at most {MAX_BYTES} bytes)")
        with open(path, encoding="utf-8-sig") as f:  # a UTF-8 byte order mark is accepted
            text = f.read()
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except PermissionError:
        raise FormatError(f"{path}: not readable (permission denied)") from None
    except UnicodeDecodeError:
        raise FormatError(f"{path}: not UTF-8 text") from None
    except OSError as e:
        raise FormatError(f"{path}: cannot be read ({e.strerror or e.__class__.__name__})") from None
    try:
        doc = json.loads(text, parse_constant=_not_json, parse_int=_integer)
    except _NotJson as e:
        raise FormatError(f"{path}: not valid JSON ({e} is not a JSON value)") from None
    except json.JSONDecodeError as e:
        raise FormatError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise FormatError(f"{path}: not a valid replay file ({str(e).splitlines()[0]})") from None
    except RecursionError:
        raise FormatError(f"{path}: nested too deeply") from None
    check_text(doc, "file")
    return doc


class _NotJson(ValueError):
    pass


HUGE_DIGITS = 4000


def _integer(digits: str) -> int | float:
    """An integer of the file. Python reads none of more than 4,300 digits: one of more than HUGE_DIGITS is read as
    an infinity, which `check_text` refuses by its field, as it does 1e400."""
    if len(digits) <= HUGE_DIGITS:
        return int(digits)
    return -math.inf if digits.startswith("-") else math.inf


def _not_json(name: str) -> Any:
    raise _NotJson(name)  # Python reads NaN and Infinity; JSON has neither


def check_text(value: Any, where: str) -> None:
    """Every string (and key) must be valid Unicode: a lone surrogate cannot be printed or stored; every number
    must fit a double, or it could not be written back as JSON (1e400 reads as infinity)."""
    why = bad_text(value, where)
    if why is not None:
        raise FormatError(why)


class _NoContent(Exception):
    pass


def _with_content(game: Any, directory: str | None) -> Any:
    """The game on a group's replacement content, if `--content` names one."""
    if directory is None:
        return game
    with_content = getattr(game, "with_content", None)
    if with_content is None:
        raise _NoContent(f"--content: {game.info.title} has no content to replace")
    return with_content(directory)


def _simulate(game_id: str, games: int, seed: int, content: str | None = None) -> str:
    game = _with_content(registry.get(game_id), content)
    bar = None
    if games >= 1000 and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", file=sys.stderr)
    report: str = game.simulate(games, seed, bar.update if bar else None)
    if bar is not None:
        bar.close()
    return report.rstrip("\n") + "\n"


def _tournament(args: argparse.Namespace) -> str:
    game = registry.get(args.game)
    levels = [s.strip() for s in args.seats.split(",")]
    info = game.info
    if not info.min_players <= len(levels) <= info.max_players:
        count = str(info.min_players) if info.min_players == info.max_players else (
            f"{info.min_players} to {info.max_players}")
        raise FormatError(f"--seats: {info.title} needs {count} levels, one per seat, not {len(levels)}")
    known = players.levels(args.game)
    for level in [*levels, *([args.draft] if args.draft else [])]:
        if level not in known:
            raise FormatError(f"--seats: unknown level {level!r} for {args.game} (known: {', '.join(known)})")
    settings: dict[str, Any] = {}
    for item in args.setting:
        name, eq, text = item.partition("=")
        if not eq or not name:
            raise FormatError(f"--setting: {item!r} is not NAME=VALUE")
        try:
            settings[name] = json.loads(text)
        except ValueError:
            settings[name] = text
    try:
        info.settings_from(settings)
    except ValueError as e:
        raise FormatError(f"--setting: {e}") from None
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr)
    tally = tournament.run(
        args.game, levels, args.games, args.seed, settings=settings, draft_by=args.draft,
        clock=time.perf_counter, tick=bar.update if bar else None,
    )
    if bar is not None:
        bar.close()
    return tournament.report(tally)


def parser() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The top-level parser and the `simulate` one (whose own usage a bad --games shows)."""
    top = _Parser(prog="python -m rules", description="Rules tools for every game of the bot")
    sub = top.add_subparsers(dest="cmd", parser_class=_Parser, metavar="{replay,legal,simulate,tournament}")
    p = sub.add_parser("replay", help="replay a game file and print every result as JSON")
    p.add_argument("file")
    p.add_argument("--content", metavar="DIR", help="a directory of replacement content files")
    p = sub.add_parser("legal", help="list what a player may do at the end of a game file")
    p.add_argument("file")
    p.add_argument("--player", required=True)
    p.add_argument("--content", metavar="DIR", help="a directory of replacement content files")
    sim = sub.add_parser("simulate", help="play random legal games and print what a host tuning the game wants to know")
    sim.add_argument("--game", default=registry.DEFAULT, choices=list(registry.GAMES))
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--content", metavar="DIR", help="a directory of replacement content files (to judge them)")
    tour = sub.add_parser("tournament", help="play full games between computer players and print their figures")
    tour.add_argument("--game", default=registry.DEFAULT, choices=list(registry.GAMES))
    tour.add_argument("--games", type=int, default=100)
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--seats", required=True, help="one level per seat, comma-separated, e.g. strong,random,...")
    tour.add_argument("--draft", default=None, metavar="LEVEL", help="every seat drafts at this level instead")
    tour.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE", help="a game setting")
    return top, sim


def main(argv: list[str] | None = None) -> int:
    top, sim = parser()
    args = top.parse_args(argv)
    if args.cmd is None:
        top.error("choose a command: replay, legal or simulate")
    try:
        if args.cmd == "simulate":
            if args.games < 1:
                sim.error(f"argument --games: must be at least 1, not {args.games}")
            out = _simulate(args.game, args.games, args.seed, args.content)
        elif args.cmd == "tournament":
            if args.games < 1:
                print(f"error: argument --games: must be at least 1, not {args.games}", file=sys.stderr)
                return 2
            out = _tournament(args)
        else:
            doc = load(args.file)
            game = registry.by_format(doc.get("format") if isinstance(doc, dict) else None)
            game = _with_content(game, args.content)
            try:
                result = game.replay(doc) if args.cmd == "replay" else game.legal(doc, args.player)
            except FormatError as e:
                if isinstance(doc, dict) and "format" not in doc and getattr(e, "exit_status", 2) == 2:
                    # most likely another game's file that lost its format line: the missing field is named first
                    raise FormatError(f"format: missing, so the file was read as {game.info.replay_format}, "
                                      f"which says {e}") from None
                raise
            out = dumps(result)
    except (FormatError, registry.UnknownGame, players.UnknownLevel) as e:
        print(f"error: {_one_line(str(e))}", file=sys.stderr)
        return int(getattr(e, "exit_status", 2))  # a game's content error refuses to start (3)
    except _NoContent as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except RecursionError:
        print("error: file: nested too deeply", file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())[:500]
