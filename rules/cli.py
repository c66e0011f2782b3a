"""`python -m rules replay|legal|simulate`: the command-line face of the rules (replay.md).

The only module of `rules` that reads files or writes to the terminal.
"""

from __future__ import annotations

import argparse
import json
import sys

from .replay import FormatError, dumps, legal_for, run_replay


def _load(path: str) -> object:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise FormatError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise FormatError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None


def _simulate(games: int, seed: int) -> str:
    from .simulate import simulate

    bar = None
    if games >= 1000 and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", file=sys.stderr)
    figs = simulate(games, seed, tick=(bar.update if bar else None))
    if bar is not None:
        bar.close()
    return figs.report() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description="Crime City rules tools")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("replay", help="replay a game file and print every result as JSON")
    p.add_argument("file")
    p = sub.add_parser("legal", help="list a player's legal actions in the round after the file's last round")
    p.add_argument("file")
    p.add_argument("--player", required=True)
    p = sub.add_parser("simulate", help="play random legal games and print how often each role wins")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        if args.cmd == "replay":
            out = dumps(run_replay(_load(args.file)))
        elif args.cmd == "legal":
            out = dumps(legal_for(_load(args.file), args.player))
        else:
            if args.games < 0:
                parser.error("--games must be 0 or more")
            out = _simulate(args.games, args.seed)
    except FormatError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except RecursionError:
        print("error: file: nested too deeply", file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return 0
