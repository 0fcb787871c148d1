"""Which bot process owns which tables: Discord's guild → shard rule and the shard ids a process runs.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``, so every interaction of
a server reaches the one process that runs that shard. A table belongs to its guild, so it belongs
to that process too: only it restores the table after a restart and fires its clocks. No Discord
import here: storage filters by the same rule in SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Shards", "parse_shard_ids", "shard_of"]


def shard_of(guild_id: int, shard_count: int) -> int:
    """Return the shard Discord routes ``guild_id`` to among ``shard_count`` shards.

    >>> shard_of(81384788765712384, 4)  # the snowflake of Discord's documentation
    2
    """
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """Parse shard ids such as ``"0-3"``, ``"0,2"`` or ``"0-1,6"`` into a sorted tuple.

    >>> parse_shard_ids("4-5, 0", 8)
    (0, 4, 5)

    Raises:
        ValueError: The text is malformed, names an id twice, or an id is not below ``shard_count``.
    """
    ids: list[int] = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            raise ValueError(f"empty shard id in {text!r}")
        low, dash, high = part.partition("-")
        try:
            first, last = (int(low), int(high)) if dash else (int(part), int(part))
        except ValueError:
            raise ValueError(f"shard ids are numbers or ranges like 0-3, not {part!r}") from None
        if first > last:
            raise ValueError(f"shard range {part!r} runs backwards")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"shard ids {text!r} name a shard twice")
    bad = [shard for shard in ids if not 0 <= shard < shard_count]
    if bad:
        raise ValueError(f"shard ids {bad} are not below the shard count {shard_count}")
    return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs out of ``count`` in all."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("shard count must be at least 1")
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} must be non-empty and below {self.count}")

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        """Return ``ids`` out of ``count`` shards (all of them when ``ids`` is ``None``)."""
        return cls(count, frozenset(range(count) if ids is None else ids))

    @property
    def is_all(self) -> bool:
        """Return whether this process runs every shard (then it owns every table)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """Return whether the guild's events, and so its tables, come to this process."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, sorted(self.ids)))} of {self.count}"
