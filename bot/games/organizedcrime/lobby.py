"""The lobby: the options of `/organizedcrime new` as settings, the lobby post, and the seat order.

Reminders: commands.md wants one DM when `reminder_percent` of a decision's time has passed, each decision by its
own clock (`HostOptions.reminder_share`); clocks under a minute get none, and 0 % means no reminders (a reminder
at 0 % would come with the prompt itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.organizedcrime.game import INFO

from ...host import Caller, HostOptions, UserError
from .pack import PACK
from .prompts import settings_lines

if TYPE_CHECKING:
    from ...host import GameRow, Host, Roster

KIND = "organizedcrime"


def host_options(settings: dict[str, Any]) -> HostOptions:
    """commands.md: an awaited player is reminded once `reminder_percent` of the decision's time has passed,
    each decision by its own clock; none for windows shorter than one minute."""
    pct = float(settings.get("reminder_percent", 50))
    return HostOptions(reminder_hours=0.0, reminder_share=pct / 100 if pct > 0 else None, reminder_shortest=60.0)


def settings_of(given: dict[str, Any]) -> dict[str, Any]:
    """The lobby's settings: what was given, checked by the rules' own settings (ranges, choices)."""
    chosen = {k: v for k, v in given.items() if v is not None}
    try:
        return INFO.settings_from(chosen)
    except ValueError as exc:
        raise UserError(f"Organized Crime: {exc}.") from None


def lobby_text(game: GameRow, roster: Roster) -> str:
    names = [roster.name_of(s) for s in roster.seats]
    lines = [
        f"**Organized Crime — lobby** (game #{game.id}, host <@{game.host_id}>)",
        *settings_lines(game.settings),
        f"Players ({len(names)}/{PACK.game.info.max_players}): " + (", ".join(names) or "nobody yet"),
    ]
    if game.season_id is not None:
        lines.append("A match of this server's season: only its roster may join (`/season standings`).")
    # The post is edited as people come and go, and once more when the lobby closes.
    if game.status == "lobby":
        info = PACK.game.info
        lines.append(f"Join with `/organizedcrime join` ({info.min_players} to {info.max_players} players); the host "
                     "starts with `/organizedcrime start`.")
    elif game.started_at is not None:
        lines.append("The game has started: the lobby is closed.")
    else:
        lines.append("The host closed this lobby before the game started.")
    return "\n".join(lines)


async def reorder(host: Host, caller: Caller, order: list[int], game_opt: str | None = None) -> None:
    """Seat order = join order (R3): the lobby's players seated as `order` says (the host checks that it names
    each of them once)."""
    await host.lobby.reorder(caller, KIND, order, game_opt)
