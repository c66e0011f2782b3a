"""The state behind `/crimecity panel`: what a player picked, which kind and page they look at.

Mixed into GameService. A panel is a row (bot/storage/panels.py) keyed by a random nonce; its
Discord components carry only `cc:panel:<game>:<nonce>:<part>`. Every click reloads the row and
the game and checks again who clicks and for which round, so a panel works after a restart and a
stale or borrowed one is refused. Which actions are offered comes from `rules.legal_actions` and
`rules.legal_seconds`; the submission itself goes through `submit_actions` like /crimecity act.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rules.crimecity import Action, GameState, ParseError, legal_actions, legal_seconds
from rules.crimecity.notation import describe_action, format_action, parse_action

from . import formatting
from .context import Caller
from .errors import NotAllowed, UserError
from .roster import Roster
from .storage import games as games_repo
from .storage import panels as panels_repo
from .storage import submissions as subs_repo
from .storage.models import ROUND, GameRow, PanelRow

if TYPE_CHECKING:
    from .games import GameService

log = logging.getLogger(__name__)

PAGE_SIZE = 25  # Discord's limit of options in one select menu
MAX_VALUE = 100  # ... and of an option's value and label
KINDS = {"move": "Movement", "converse": "Converse", "ability": "Own ability", "friend": "A friend's ability"}
PARTS = ("kind", "act", "prev", "next", "clear", "go")
NEW_PANEL = "Open a new one with /crimecity panel."


@dataclass(frozen=True, slots=True)
class PanelOption:
    label: str
    value: str
    default: bool = False


@dataclass(frozen=True, slots=True)
class PanelScreen:
    """Everything the Discord view shows: no Discord types, so it is easy to test and to build."""

    game_id: int
    nonce: str
    text: str
    kinds: list[PanelOption] = field(default_factory=list)
    options: list[PanelOption] = field(default_factory=list)
    placeholder: str = ""
    page: int = 0
    pages: int = 1
    can_submit: bool = False


class PanelMixin:
    async def open_panel(self: GameService, caller: Caller, game_opt: str | None = None) -> PanelScreen:
        seated = await self.seated(caller, game_opt)
        game = seated.game
        if game.status != ROUND or game.state is None:
            raise UserError("The panel is for rounds: no round is open for submissions in this game.")
        nonce = secrets.token_hex(6)
        async with self.db.transaction() as conn:
            await panels_repo.create_panel(conn, nonce, game.id, caller.user_id, game.phase_seq, self.clock())
        panel = PanelRow(nonce, game.id, caller.user_id, game.phase_seq, None, 0, [])
        return await self._panel_screen(game, seated.roster, seated.seat or "", panel)

    async def panel_click(
        self: GameService, caller: Caller, game_id: int, nonce: str, part: str, values: list[str]
    ) -> PanelScreen:
        """One click on a panel, checked against the current game and the caller first."""
        async with self.db.read() as conn:
            panel = await panels_repo.get_panel(conn, game_id, nonce)
            game = await games_repo.get_game(conn, game_id)
            roster = Roster(await games_repo.players(conn, game_id))
        if panel is None or game is None:
            raise UserError(f"This panel is no longer in use (its game has ended). {NEW_PANEL}")
        if caller.user_id != panel.user_id:
            raise NotAllowed(f"This panel belongs to another player. {NEW_PANEL}")
        seat = roster.seat_of(caller.user_id)
        if seat is None:
            raise NotAllowed("You no longer hold a seat in this game, so you cannot submit actions.")
        if game.status != ROUND or game.phase_seq != panel.phase_seq or game.state is None:
            raise UserError(f"This panel was for a round that has been resolved. {NEW_PANEL}")
        kind, page, picks = panel.kind, panel.page, list(panel.picks)
        note = ""
        if part == "kind" and values:
            kind, page = values[0], 0
        elif part == "act" and values:
            offered = {o.value for _k, o in self._panel_pool(game, roster, seat, picks)[1]}
            if values[0] not in offered:
                raise UserError("That action is not on offer any more; pick again from the menu.")
            picks = [values[0]] if not picks else [picks[0], values[0]]
        elif part == "prev":
            page = max(0, page - 1)
        elif part == "next":
            page += 1
        elif part == "clear":
            kind, page, picks = None, 0, []
        elif part == "go":
            if not picks:
                raise UserError("Pick your actions in the menus first.")
            # By game id, as from a DM: the panel names its game, whatever channel it is clicked in.
            by_id = replace(caller, guild_id=None, channel_id=None)
            second = picks[1] if len(picks) > 1 else None
            seated, sub = await self.submit_actions(by_id, picks[0], second, str(game_id))
            shown = ", ".join(f"`{format_action(a, seated.roster.name_of)}`" for a in sub.actions)
            note = f"Round {seated.game.round} actions recorded: {shown}. You can change them until the round resolves."
            kind, page, picks = None, 0, []
        async with self.db.transaction() as conn:
            await panels_repo.update_panel(conn, nonce, kind=kind, page=page, picks=picks)
            game = await games_repo.get_game(conn, game_id) or game
        row = PanelRow(nonce, game_id, panel.user_id, panel.phase_seq, kind, page, picks)
        return await self._panel_screen(game, roster, seat, row, note=note)

    def _panel_pool(
        self: GameService, game: GameRow, roster: Roster, seat: str, picks: list[str]
    ) -> tuple[list[str], list[tuple[str, PanelOption]]]:
        """(the picks still readable, what may be picked next as (kind, option))."""
        assert game.state is not None
        state = GameState.from_dict(game.state)
        parsed: list[Action] = []
        kept: list[str] = []
        for text in picks:
            try:
                parsed.append(parse_action(text, roster.lookup))
                kept.append(text)
            except ParseError:
                break  # a renamed player, say: drop this pick and what follows
        pool = legal_actions(state, seat) if not parsed else legal_seconds(state, seat, parsed[0])
        options = []
        for action in pool:
            value = format_action(action, roster.name_of)
            if len(value) <= MAX_VALUE:
                label = formatting.clip(describe_action(state, seat, action, roster.name_of), MAX_VALUE)
                options.append((action.kind, PanelOption(label, value)))
        return kept, options

    async def _panel_screen(
        self: GameService, game: GameRow, roster: Roster, seat: str, panel: PanelRow, *, note: str = ""
    ) -> PanelScreen:
        picks, pool = self._panel_pool(game, roster, seat, panel.picks)
        async with self.db.read() as conn:
            row = (await subs_repo.round_submissions(conn, game.id, game.round)).get(seat)
        by_kind: dict[str, list[PanelOption]] = {k: [] for k in KINDS}
        for action_kind, option in pool:
            by_kind[action_kind].append(option)
        present = [k for k in KINDS if by_kind[k]]
        kind = panel.kind if panel.kind in present else (present[0] if present else None)
        chosen = by_kind.get(kind or "", [])
        pages = max(1, -(-len(chosen) // PAGE_SIZE))
        page = min(max(panel.page, 0), pages - 1)
        lines = [f"**Crime City — your panel for Round {game.round}**"]
        if game.deadline_at is not None:
            lines[0] += f" (deadline {formatting.timestamp(game.deadline_at)})"
        if note:
            lines.append(f"✅ {note}")
        if row is not None and row.actions is not None:
            recorded = ", ".join(f"`{format_action(Action.from_json(a), roster.name_of)}`" for a in row.actions)
            lines.append(f"Recorded now: {recorded}")
        else:
            lines.append("Recorded now: nothing yet.")
        first = f"`{picks[0]}`" if picks else "—"
        second = f"`{picks[1]}`" if len(picks) > 1 else "—"
        lines.append(f"Your picks: 1. {first} · 2. {second}")
        if not picks:
            placeholder = "Your first action"
            lines.append("Choose a kind, then an action; then your second action, and Submit.")
        elif not pool:
            placeholder = "No second action fits"
            lines.append("No second action can go with this one: Submit it alone, or Clear to start again.")
        else:
            placeholder = "Your second action" if len(picks) == 1 else "Change your second action"
            lines.append("Now your second action (or Clear to start again), then Submit.")
        if pages > 1:
            placeholder += f" (page {page + 1}/{pages})"
        kinds = [PanelOption(f"{KINDS[k]} ({len(by_kind[k])})", k, default=k == kind) for k in present]
        return PanelScreen(
            game_id=game.id,
            nonce=panel.nonce,
            text="\n".join(lines),
            kinds=kinds,
            options=chosen[page * PAGE_SIZE : (page + 1) * PAGE_SIZE],
            placeholder=placeholder,
            page=page,
            pages=pages,
            can_submit=bool(picks),
        )
