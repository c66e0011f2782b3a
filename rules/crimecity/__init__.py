"""Crime City rules: a pure, deterministic engine (no I/O, no clock, no randomness)."""

from .actions import Action, Submission
from .draft import DraftResult, DraftSubmission, check_draft_submission, complete_ranking, resolve_draft
from .errors import ParseError, RuleError
from .events import Event
from .ids import CHARACTERS, LOCATIONS, ROLE_GOALS, ROLES, Character, Location, Role
from .legal import legal_actions, legal_seconds, single_move_only
from .resolve import RoundResult, resolve_round
from .results import Results, final_results
from .state import GameState, Progress, Seat, new_game
from .validate import check_action, check_buys, check_guess, validate_submission
from .views import public_view, view_for

__all__ = [
    "Action", "Submission", "DraftResult", "DraftSubmission", "check_draft_submission", "complete_ranking",
    "resolve_draft", "ParseError", "RuleError", "Event", "CHARACTERS", "LOCATIONS", "ROLE_GOALS", "ROLES",
    "Character", "Location", "Role", "legal_actions", "legal_seconds", "single_move_only", "RoundResult",
    "resolve_round", "Results", "final_results", "GameState", "Progress", "Seat", "new_game", "check_action",
    "validate_submission", "check_buys", "check_guess", "public_view", "view_for",
]
