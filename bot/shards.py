"""Which Discord shards this process holds, and what holding them lets it do.

Discord sends a guild's events (its interactions, GUILD_CREATE) to shard `(guild_id >> 22) % shard_count`
and DMs to shard 0. REST reaches any channel from any process, but a channel post belongs to the
process that holds the channel's guild: so each post is sent by one process, with its guild cached.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_SHARDS = 65536  # far above any bot's need; a larger number is a typo


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes `guild_id`'s events to."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """`count` None: not sharded (one gateway connection that receives every guild, as a bot under
    2,500 servers runs). Otherwise the process holds `ids` of `count` shards."""

    count: int | None = None
    ids: tuple[int, ...] = ()

    @property
    def sharded(self) -> bool:
        return self.count is not None

    def holds(self, shard_id: int) -> bool:
        return self.count is None or shard_id in self.ids

    def holds_guild(self, guild_id: int) -> bool:
        """Whether this process may post to guild `guild_id`'s channels (it receives that guild's events)."""
        return self.count is None or shard_of(guild_id, self.count) in self.ids

    @property
    def syncs_commands(self) -> bool:
        """One process syncs the command tree: the one holding shard 0 (or the only one)."""
        return self.holds(0)

    def sql_holds_guild(self, column: str) -> tuple[str, list[int]]:
        """A SQL condition (SQLite and PostgreSQL) true for the rows whose guild `column` this process holds,
        with its parameters: for a query that must pick only this process's posts."""
        if self.count is None:
            return "1 = 1", []
        marks = ", ".join("?" for _ in self.ids)
        return f"(({column} >> 22) % ?) IN ({marks})", [self.count, *self.ids]

    def describe(self) -> str:
        if self.count is None:
            return "not sharded"
        return f"shards {format_ids(self.ids)} of {self.count}"


UNSHARDED = ShardPlan()


def plan(shard_count: int | None, shard_ids: Iterable[int] | None) -> ShardPlan:
    """The plan for `create_bot(shard_count=, shard_ids=)`; ValueError (one line) when they do not fit.
    A count without ids holds every shard of it."""
    if shard_count is None:
        if shard_ids is not None:
            raise ValueError("shard ids were given without a shard count: give the shard count too.")
        return UNSHARDED
    if isinstance(shard_count, bool) or not isinstance(shard_count, int) or not 1 <= shard_count <= MAX_SHARDS:
        raise ValueError(f"the shard count must be a whole number from 1 to {MAX_SHARDS}, not {shard_count!r}.")
    ids = tuple(range(shard_count)) if shard_ids is None else tuple(shard_ids)
    if not ids:
        raise ValueError("no shard ids were given: list at least one, or leave them out to hold every shard.")
    outside = sorted({i for i in ids if not 0 <= i < shard_count})
    if outside:
        raise ValueError(
            f"shard id{'s' if len(outside) > 1 else ''} {format_ids(outside)} outside 0-{shard_count - 1} "
            f"(ids run from 0 to the shard count minus one)."
        )
    if len(set(ids)) != len(ids):
        raise ValueError(f"shard ids {', '.join(map(str, ids))} name a shard twice.")
    return ShardPlan(shard_count, tuple(sorted(ids)))


def from_settings(count_text: str, ids_text: str) -> ShardPlan:
    """The plan of CRIMECITY_SHARD_COUNT and CRIMECITY_SHARD_IDS (empty: unset); ValueError with a line
    that names the setting and the fix."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    count: int | None = None
    if count_text:
        if not count_text.isdecimal() or not 1 <= int(count_text) <= MAX_SHARDS:
            raise ValueError(
                f"CRIMECITY_SHARD_COUNT={count_text!r} is not a shard count: set it to a whole number from 1 "
                f"to {MAX_SHARDS} (Discord's recommendation is one shard per 1,000 servers), or leave it unset."
            )
        count = int(count_text)
    ids = parse_ids(ids_text) if ids_text else None
    if ids is not None and count is None:
        raise ValueError(
            f"CRIMECITY_SHARD_IDS={ids_text!r} is set without CRIMECITY_SHARD_COUNT: set the total number of "
            f"shards of the whole bot in CRIMECITY_SHARD_COUNT too."
        )
    try:
        return plan(count, ids)
    except ValueError as exc:
        raise ValueError(f"CRIMECITY_SHARD_IDS={ids_text!r}: {exc}") from None


def parse_ids(text: str) -> list[int]:
    """`0,1`, `0-3` or `0-1,4`: the shard ids of CRIMECITY_SHARD_IDS."""
    ids: list[int] = []
    for part in text.split(","):
        first, dash, last = (p.strip() for p in part.partition("-"))
        if not first.isdecimal() or (dash and not last.isdecimal()):
            raise ValueError(
                f"CRIMECITY_SHARD_IDS={text!r} is not a list of shard ids: write ids and ranges separated by "
                f"commas, e.g. 0,1 or 0-3 or 0-1,4."
            )
        low, high = int(first), int(last) if dash else int(first)
        name = f"CRIMECITY_SHARD_IDS={text!r}"
        if high < low:
            raise ValueError(f"{name}: the range {low}-{high} runs backwards; write {high}-{low}.")
        if high >= MAX_SHARDS:  # before range() makes a list of it
            raise ValueError(f"{name}: shard id {high} is above any shard count (at most {MAX_SHARDS}).")
        ids.extend(range(low, high + 1))
    return ids


def format_ids(ids: Iterable[int]) -> str:
    """`0-3,6`: ids, with runs shortened."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
