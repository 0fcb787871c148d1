"""Grid geometry and addressing (digest §3.1): slots, boulevards, their names and engine indices.

>>> b = board(3)
>>> b.boulevard_names[:6], b.boulevard_names[6], b.boulevard_names[9], b.boulevard_names[11]
(('A1E', 'A2E', 'B1E', 'B2E', 'C1E', 'C2E'), 'A1S', 'B1S', 'B3S')
>>> b.ends[b.boulevard_index["B1E"]], len(board(5).ends)
((3, 4), 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

ROWS = "ABCDE"


@dataclass(frozen=True)
class Board:
    """The fixed geometry of an ``n``×``n`` grid.

    ``ends[b]`` are the two slots boulevard ``b`` faces (west/north first); ``around[s]`` the
    boulevards beside slot ``s``; ``neighbours[s]`` the orthogonally adjacent slots.
    """

    n: int
    slot_names: tuple[str, ...]
    slot_index: dict[str, int]
    boulevard_names: tuple[str, ...]
    boulevard_index: dict[str, int]
    ends: tuple[tuple[int, int], ...]
    around: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        """Return the number of slots."""
        return self.n * self.n

    def orientation(self, boulevard: int) -> str:
        """Return ``E`` for a gap inside a row, ``S`` for a gap inside a column."""
        return "E" if boulevard < self.n * (self.n - 1) else "S"

    def other_end(self, boulevard: int, slot: int) -> int:
        """Return the slot across ``boulevard`` from ``slot``."""
        a, b = self.ends[boulevard]
        return b if slot == a else a

    def boulevard_between(self, a: int, b: int) -> int:
        """Return the boulevard between two adjacent slots."""
        for boulevard in self.around[a]:
            if b in self.ends[boulevard]:
                return boulevard
        raise ValueError("the slots are not adjacent")


@cache
def board(n: int) -> Board:
    """Return the geometry of an ``n``×``n`` grid (3 ≤ n ≤ 5)."""
    slot_names = tuple(f"{ROWS[r]}{c + 1}" for r in range(n) for c in range(n))
    names: list[str] = []
    ends: list[tuple[int, int]] = []
    for r in range(n):
        for c in range(n - 1):
            names.append(f"{ROWS[r]}{c + 1}E")
            ends.append((r * n + c, r * n + c + 1))
    for r in range(n - 1):
        for c in range(n):
            names.append(f"{ROWS[r]}{c + 1}S")
            ends.append((r * n + c, (r + 1) * n + c))
    around = tuple(tuple(b for b, pair in enumerate(ends) if s in pair) for s in range(n * n))
    neighbours = tuple(tuple(ends[b][1] if ends[b][0] == s else ends[b][0] for b in around[s]) for s in range(n * n))
    return Board(
        n=n,
        slot_names=slot_names,
        slot_index={name: i for i, name in enumerate(slot_names)},
        boulevard_names=tuple(names),
        boulevard_index={name: i for i, name in enumerate(names)},
        ends=tuple(ends),
        around=around,
        neighbours=neighbours,
    )
