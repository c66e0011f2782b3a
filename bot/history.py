"""`/crimecity history`: the finished games of a server, newest first, a page at a time.

Mixed into GameService. Everything shown was already posted publicly when each game ended
(completion order, ToL, EC), so nothing here is secret. Pages are sized to stay inside Discord's
embed limits (25 fields, 1,024 characters a field, 6,000 a message).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import formatting
from .context import Caller
from .errors import UserError
from .roster import Roster
from .storage import games as games_repo
from .storage.models import ENDED, GameRow

if TYPE_CHECKING:
    from .games import GameService

PER_PAGE = 8
FIELD_VALUE = 600  # 8 fields of at most ~660 characters keep a page under 6,000


@dataclass(frozen=True, slots=True)
class HistoryPage:
    title: str
    fields: list[tuple[str, str]]  # (name, value), one per game
    footer: str
    empty: bool = False


class HistoryMixin:
    async def history(self: GameService, caller: Caller, page: int = 1) -> HistoryPage:
        if not caller.in_guild:
            raise UserError("Use /crimecity history in a server channel: it lists that server's games.")
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT id FROM games WHERE guild_id = ? AND status = ? ORDER BY ended_at DESC, id DESC",
                (caller.guild_id, ENDED),
            )
            ids = [r["id"] for r in rows]
            pages = max(1, -(-len(ids) // PER_PAGE))
            page = min(max(page, 1), pages)
            games: list[tuple[GameRow, Roster]] = []
            for game_id in ids[(page - 1) * PER_PAGE : page * PER_PAGE]:
                game = await games_repo.get_game(conn, game_id)
                if game is not None:
                    games.append((game, Roster(await games_repo.players(conn, game_id))))
        title = "Crime City — finished games in this server"
        if not ids:
            return HistoryPage(title, [], "No game has finished here yet.", empty=True)
        fields = [(f"Game #{game.id}", history_entry(game, roster)) for game, roster in games]
        more = f" · /crimecity history page:{page + 1} for older games" if page < pages else ""
        return HistoryPage(title, fields, f"Page {page}/{pages} · {len(ids)} games{more}")


def history_entry(game: GameRow, roster: Roster) -> str:
    """Date, rounds played, completion order, ToL and EC of one ended game, names only."""
    when = f"<t:{int(game.ended_at)}:D>" if game.ended_at else "an unknown date"
    results: dict[str, Any] | None = game.results
    if not results:
        return f"Ended {when}, before the first round."
    rounds = results.get("ended_after_round", 0)
    lines = [f"Ended {when} after {rounds} round{'s' if rounds != 1 else ''}."]
    groups = results.get("completion_order") or []
    if groups:
        order = " · ".join(f"{i}. " + ", ".join(roster.name_of(p) for p in g) for i, g in enumerate(groups, 1))
        lines.append(f"Completion order: {order}")
    else:
        lines.append("Nobody completed their goal.")
    tol = ", ".join(roster.name_of(p) for p in results.get("tol") or []) or "none"
    ec_seat = game.ec_seat or results.get("ec")
    ec = roster.name_of(ec_seat) if ec_seat else "not decided"
    lines.append(f"ToL: {tol} · EC: {ec}")
    return formatting.clip("\n".join(lines), FIELD_VALUE)
