"""Rows as typed values, so the host never indexes raw database rows."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.contract import Pending

from .sql import Row, dumps, loads

LOBBY = "lobby"
RUNNING = "running"
ENDED = "ended"
ACTIVE_STATUSES = (LOBBY, RUNNING)


def _share(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True, slots=True)
class HostOptions:
    """How the host runs a game, whatever the game: clocks, reminders, the reveal."""

    deadline_hours: float = 24.0  # a clock's length when the game gives none
    reminder_hours: float = 1.0  # DM who owes a decision this long before its deadline; 0 = never
    wait_for_deadline: bool = False  # collected decisions wait for the deadline even when all are in
    reveal: bool = True  # the presentation may show every seat once the game ends
    season_start: bool = True  # in a season: each seat starts from its season values (unless set for the game)
    # In place of reminder_hours: DM who owes a decision once this share of its clock's length has run
    # (clocks shorter than reminder_shortest seconds get none). None: the fixed lead above.
    reminder_share: float | None = None
    reminder_shortest: float = 60.0
    # With reminder_hours: a clock not longer than that lead (it would be past when the clock starts) is
    # reminded once this share of it has run instead (None: not at all).
    reminder_short_share: float | None = None
    # With reminder_hours: a clock that runs inside another (the decision's outer clocks paused meanwhile) is
    # reminded once this share of it has run, whatever its length (None: as any other clock).
    reminder_nested_share: float | None = None
    # Up to two members may share a seat (the game's team mode): either acts for it, both get its DMs.
    shared_seats: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "deadline_hours": self.deadline_hours,
            "reminder_hours": self.reminder_hours,
            "wait_for_deadline": self.wait_for_deadline,
            "reveal": self.reveal,
            "season_start": self.season_start,
        } | ({"shared_seats": True} if self.shared_seats else {}) | self._reminder_json()

    def _reminder_json(self) -> dict[str, Any]:
        nested = {} if self.reminder_nested_share is None else {"reminder_nested_share": self.reminder_nested_share}
        if self.reminder_share is None and self.reminder_short_share is None:
            return nested
        return {
            "reminder_share": self.reminder_share,
            "reminder_shortest": self.reminder_shortest,
            "reminder_short_share": self.reminder_short_share,
        } | nested

    @staticmethod
    def from_json(doc: dict[str, Any] | None) -> HostOptions:
        doc = doc or {}
        return HostOptions(
            deadline_hours=float(doc.get("deadline_hours", 24.0)),
            reminder_hours=float(doc.get("reminder_hours", 1.0)),
            wait_for_deadline=bool(doc.get("wait_for_deadline", False)),
            reveal=bool(doc.get("reveal", True)),
            season_start=bool(doc.get("season_start", True)),
            reminder_share=_share(doc.get("reminder_share")),
            reminder_shortest=float(doc.get("reminder_shortest", 60.0)),
            reminder_short_share=_share(doc.get("reminder_short_share")),
            reminder_nested_share=_share(doc.get("reminder_nested_share")),
            shared_seats=bool(doc.get("shared_seats", False)),
        )


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    settings: dict[str, Any]
    options: HostOptions
    seed: str | None
    draws: int
    setup: dict[str, Any] | None
    state: dict[str, Any] | None  # encoded; decode with the game (the host caches it by version)
    version: int
    step: int
    pending: Pending | None
    step_opened_at: float | None
    paused: bool
    results: dict[str, Any] | None
    season_id: int | None
    created_at: float
    started_at: float | None
    ended_at: float | None
    lobby_message_id: int | None = None
    paused_at: float | None = None  # when the clock was last paused (None while it runs)
    paused_for: float = 0.0  # seconds the open decision spent paused, up to the last resume

    @property
    def active(self) -> bool:
        return self.status != ENDED

    def open_for(self, now: float) -> float | None:
        """Seconds the open decision's clock has run since it opened, pauses left out (None: no decision).

        >>> from dataclasses import replace
        >>> g = GameRow(1, "k", 1, 1, 1, "running", {}, HostOptions(), None, 0, None, None, 1, 1, None, 100.0,
        ...             False, None, None, 0.0, 0.0, None)
        >>> g.open_for(160.0)
        60.0
        >>> replace(g, paused=True, paused_at=130.0).open_for(160.0)
        30.0
        >>> replace(g, paused_for=20.0).open_for(160.0)
        40.0
        >>> replace(g, paused=True, paused_at=50.0).open_for(160.0)  # paused before the decision opened
        0.0
        """
        if self.step_opened_at is None:
            return None
        return max(0.0, now - self.step_opened_at - self.paused_so_far(now))

    def paused_so_far(self, now: float) -> float:
        """Seconds the open decision has spent paused, a pause still on included (from when it opened)."""
        if not self.paused or self.paused_at is None or self.step_opened_at is None:
            return self.paused_for
        return self.paused_for + now - max(self.paused_at, self.step_opened_at)

    @staticmethod
    def from_row(r: Row) -> GameRow:
        pending = loads(r["pending_json"])
        return GameRow(
            id=r["id"],
            kind=r["kind"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            host_id=r["host_id"],
            status=r["status"],
            settings=loads(r["settings_json"]) or {},
            options=HostOptions.from_json(loads(r["options_json"])),
            seed=r["seed"],
            draws=r["draws"],
            setup=loads(r["setup_json"]),
            state=loads(r["state_json"]),
            version=r["version"],
            step=r["step"],
            pending=None if pending is None else Pending.from_json(pending),
            step_opened_at=r["step_opened_at"],
            paused=bool(r["paused"]),
            results=loads(r["results_json"]),
            season_id=r["season_id"],
            created_at=r["created_at"],
            started_at=r["started_at"],
            ended_at=r["ended_at"],
            lobby_message_id=r["lobby_message_id"],
            paused_at=r["paused_at"],
            paused_for=r["paused_for"] or 0.0,
        )


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: str
    join_seq: int
    user_id: int | None
    user_name: str
    display_name: str
    computer: str | None = None
    # A shared seat's second member (HostOptions.shared_seats); `user_id` is its first.
    partner_id: int | None = None
    partner_name: str | None = None
    partner_display: str | None = None

    @property
    def members(self) -> tuple[int, ...]:
        """The members holding the seat, first member first (none for a computer player)."""
        return tuple(u for u in (self.user_id, self.partner_id) if u is not None)

    @staticmethod
    def from_row(r: Row) -> SeatRow:
        return SeatRow(
            r["seat"], r["join_seq"], r["user_id"], r["user_name"], r["display_name"], r["computer"],
            r["partner_id"], r["partner_name"], r["partner_display"],
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ClockRow:
    clock: str
    position: int
    deadline_at: float | None
    remaining: float | None

    @property
    def running(self) -> bool:
        return self.deadline_at is not None

    @staticmethod
    def from_row(r: Row) -> ClockRow:
        return ClockRow(r["clock"], r["position"], r["deadline_at"], r["remaining"])


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    game_id: int
    kind: str
    step: int
    clock: str | None
    due_at: float
    attempts: int

    @staticmethod
    def from_row(r: Row) -> TimerRow:
        return TimerRow(r["id"], r["game_id"], r["kind"], r["step"], r["clock"], r["due_at"], r["attempts"])


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """A queued message. Its payload is decoded when first read: the delivery loop scans the queue's heads
    (which targets have rows due) far more often than it sends a row."""

    id: int
    game_id: int
    target: str
    channel_id: int | None
    seat: str | None
    payload_json: str | None  # None: a head read without its payload (outbox.undelivered)
    attempts: int
    next_try_at: float = 0.0
    decoded: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def payload(self) -> dict[str, Any]:
        if self.decoded is None:
            if self.payload_json is None:
                raise RuntimeError(f"outbox row {self.id} was read without its payload")
            object.__setattr__(self, "decoded", loads(self.payload_json))
        assert self.decoded is not None
        return self.decoded

    def with_payload(self, payload: dict[str, Any]) -> OutboxRow:
        return replace(self, payload_json=dumps(payload), decoded=payload)

    @staticmethod
    def from_row(r: Row) -> OutboxRow:
        return OutboxRow(
            r["id"],
            r["game_id"],
            r["target"],
            r["channel_id"],
            r["seat"],
            r["payload_json"],
            r["attempts"],
            r["next_try_at"],
        )


@dataclass(frozen=True, slots=True)
class PanelRow:
    nonce: str
    game_id: int
    user_id: int
    step: int
    data: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_row(r: Row) -> PanelRow:
        return PanelRow(r["nonce"], r["game_id"], r["user_id"], r["step"], loads(r["data_json"]) or {})


@dataclass(frozen=True, slots=True)
class EventRow:
    id: int
    seq: int
    step: int
    kind: str
    public: bool
    data: dict[str, Any]
    at: float

    @staticmethod
    def from_row(r: Row) -> EventRow:
        return EventRow(r["id"], r["seq"], r["step"], r["kind"], bool(r["public"]), loads(r["data_json"]), r["at"])
